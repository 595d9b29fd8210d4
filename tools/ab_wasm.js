#!/usr/bin/env node
// A/B timing of two wasm builds in one process, rounds interleaved (A, B, A, B, ...), so machine
// load hits both alike: use it to check that a size flag does not slow the kernels.
//   node tools/ab_wasm.js A.wasm B.wasm [rounds=15]
// Prints the median ms of each build per kernel and the ratio B/A (below 1: B is faster).
import { readFileSync } from 'node:fs';
import { init } from '../js/index.js';

const [fileA, fileB, roundsArg] = process.argv.slice(2);
if (!fileA || !fileB) {
  console.error('usage: node tools/ab_wasm.js A.wasm B.wasm [rounds]');
  process.exit(2);
}
const rounds = Number(roundsArg ?? 15);
const builds = [await init({ wasm: readFileSync(fileA) }), await init({ wasm: readFileSync(fileB) })];
const rnd = (n, k) => Float32Array.from({ length: n }, (_, i) => Math.sin(i * k) * 0.5);

// Each case: setup(pe) -> state; run(pe, state) is timed.
const CASES = {
  'sinusoidal 8192x1024 (new array)': { run: (pe) => pe.sinusoidal({ length: 8192, dim: 1024 }) },
  'sinusoidal 8192x1024 (out buffer)': {
    setup: (pe) => pe.alloc(8192 * 1024),
    run: (pe, out) => pe.sinusoidal({ length: 8192, dim: 1024, out }),
  },
  'applyRope 4096x32x128 half, cache': {
    setup: (pe) => ({ x: pe.alloc(4096 * 32 * 128), cache: pe.ropeCache({ length: 4096, dim: 128 }) }),
    run: (pe, s) => pe.applyRope(s.x, { length: 4096, heads: 32, dim: 128, cache: s.cache }),
  },
  'applyRope 4096x32x128 interleaved, no cache': {
    setup: (pe) => pe.alloc(4096 * 32 * 128),
    run: (pe, x) => pe.applyRope(x, { length: 4096, heads: 32, dim: 128, layout: 'interleaved' }),
  },
  'alibiBias 16x2048x2048 (out buffer)': {
    setup: (pe) => pe.alloc(16 * 2048 * 2048),
    run: (pe, out) => pe.alibiBias({ heads: 16, queries: 2048, out }),
  },
  't5Buckets 2048x2048': { run: (pe) => pe.t5Buckets({ queries: 2048 }) },
  'attention 1024x64 + rope': {
    setup: () => ({ q: rnd(1024 * 64, 1), k: rnd(1024 * 64, 2), v: rnd(1024 * 64, 3) }),
    run: (pe, s) => {
      const q = pe.applyRope(s.q.slice(), { length: 1024, dim: 64 });
      const k = pe.applyRope(s.k.slice(), { length: 1024, dim: 64 });
      return pe.attention({ q, k, v: s.v, queries: 1024, dim: 64 });
    },
  },
  'attention 512x64, 8 heads, causal, alibi': {
    setup: () => ({ q: rnd(512 * 8 * 64, 1) }),
    run: (pe, s) =>
      pe.attention({ q: s.q, k: s.q, v: s.q, queries: 512, heads: 8, dim: 64, causal: true, bias: { type: 'alibi' } }),
  },
  'learnedInit 4096x1024': { run: (pe) => pe.learnedInit({ length: 4096, dim: 1024 }) },
};

const median = (a) => a.slice().sort((x, y) => x - y)[a.length >> 1];
console.log(`A = ${fileA}\nB = ${fileB}\n${rounds} interleaved rounds, median ms\n`);
console.log('| kernel | backend | A ms | B ms | B/A |\n|---|---|---:|---:|---:|');
for (const [name, c] of Object.entries(CASES)) {
  const states = builds.map((pe) => c.setup?.(pe));
  const times = [[], []];
  for (let r = 0; r < rounds + 2; r++) {
    for (const b of r % 2 ? [1, 0] : [0, 1]) {
      const t0 = performance.now();
      c.run(builds[b], states[b]);
      const dt = performance.now() - t0;
      if (r >= 2) times[b].push(dt); // two warm-up rounds
    }
  }
  const [a, b] = times.map(median);
  console.log(`| ${name} | ${builds[0].backend} | ${a.toFixed(3)} | ${b.toFixed(3)} | ${(b / a).toFixed(3)} |`);
}
