#!/usr/bin/env node
// A/B timing of two commits, each with its own JS and wasm: every commit is checked out into a
// temporary work tree (git archive, under $TMPDIR/posenc-ab/<sha>, reused on the next run) and
// built there with that commit's own `./build.sh wasm`; then both are loaded into this one
// process and the bench cases run in interleaved rounds (A B, B A, A B, ...), so load from
// other processes hits both alike. Prints the median ms of each commit per case and B/A
// (below 1: B is faster).
//
//   node tools/ab_commits.js A B [--rounds 15] [--cases REGEX] [--clean]
//
//   A, B      anything git rev-parse takes (main, HEAD, d2f1308, a branch)
//   --rounds  timed rounds per case (two warm-up rounds come first)
//   --cases   only the cases whose name matches REGEX (e.g. --cases rope)
//   --clean   delete the temporary work trees afterwards (otherwise kept to skip the rebuild)
//
// A case that throws on one commit (an API it does not have yet) prints n/a for that commit.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const args = process.argv.slice(2);
const flag = (name, def) => {
  const i = args.indexOf(name);
  if (i < 0) return def;
  const v = args[i + 1];
  args.splice(i, 2);
  return v;
};
const rounds = Number(flag('--rounds', 15));
const only = new RegExp(flag('--cases', '.'));
const clean = args.includes('--clean');
const [refA, refB] = args.filter((a) => a !== '--clean');
if (!refA || !refB || !(rounds >= 1)) {
  console.error('usage: node tools/ab_commits.js A B [--rounds N] [--cases REGEX] [--clean]');
  process.exit(2);
}

const git = (...a) => execFileSync('git', a, { cwd: ROOT, encoding: 'utf8' }).trim();

/** A built copy of commit `ref`: its directory (a git archive of the commit plus dist/). */
function checkout(ref) {
  const sha = git('rev-parse', '--verify', `${ref}^{commit}`);
  const dir = join(tmpdir(), 'posenc-ab', sha);
  const done = join(dir, '.ab-built');
  if (!existsSync(done)) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    process.stderr.write(`[ab] ${ref} = ${sha.slice(0, 12)}: checkout into ${dir}\n`);
    execFileSync('sh', ['-c', `git -C "${ROOT}" archive ${sha} | tar -x -C "${dir}"`], { stdio: 'inherit' });
    process.stderr.write(`[ab] ${ref}: ./build.sh wasm (its own build script and flags)\n`);
    execFileSync('./build.sh', ['wasm'], { cwd: dir, stdio: ['ignore', 'inherit', 'inherit'] });
    execFileSync('touch', [done]);
  } else {
    process.stderr.write(`[ab] ${ref} = ${sha.slice(0, 12)}: built copy in ${dir}\n`);
  }
  return { ref, sha, dir };
}

const L = 4096,
  H = 32,
  D = 128;
function fill(a, seed) {
  let s = seed;
  for (let i = 0; i < a.length; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    a[i] = s / 2 ** 31 - 1;
  }
  return a;
}
const SRC = fill(new Float32Array(L * H * D), 7);

// Each case: setup(pe) -> state (not timed); run(pe, state) is timed. The shapes are the
// bench's (bench/*.js), outputs are posenc buffers so the rows time the kernels and their checks.
function ropeCase(layout, cached) {
  return {
    setup(pe) {
      const x = pe.alloc(SRC.length);
      x.array.set(SRC);
      const opts = { length: L, heads: H, dim: D, layout };
      if (cached) {
        const c = pe.ropeCache({ length: L, dim: D });
        const cos = pe.alloc(c.cos.length),
          sin = pe.alloc(c.sin.length);
        cos.array.set(c.cos);
        sin.array.set(c.sin);
        opts.cache = { cos, sin };
      }
      return { x, opts };
    },
    run: (pe, s) => pe.applyRope(s.x, s.opts),
  };
}
// A decode step as bench/decode.js times it: a cache of n - 1 tokens (32 q / 8 kv heads x 128,
// RoPE); append the nth, attend one query, truncate back.
function decodeCase(n) {
  const KVH = 8,
    row = KVH * D;
  return {
    setup(pe) {
      const cache = pe.kvCache({ heads: H, kvHeads: KVH, dim: D, capacity: n, encoding: { type: 'rope' } });
      const k = new Float32Array(n * row),
        v = new Float32Array(n * row);
      for (let t0 = 0; t0 < n; t0 += L) {
        const m = Math.min(L, n - t0) * row;
        k.set(SRC.subarray(0, m), t0 * row);
        v.set(SRC.subarray(m, 2 * m), t0 * row);
      }
      cache.append(k.subarray(0, (n - 1) * row), v.subarray(0, (n - 1) * row));
      const q = pe.alloc(H * D),
        out = pe.alloc(H * D);
      q.array.set(SRC.subarray(0, H * D));
      return { cache, q, out, k: k.slice((n - 1) * row), v: v.slice((n - 1) * row), n };
    },
    run(pe, s) {
      s.cache.append(s.k, s.v);
      s.cache.attend(s.q, { out: s.out });
      s.cache.truncate(s.n - 1);
    },
  };
}
const CASES = {
  'sinusoidal 8192x1024 (out buffer)': {
    setup: (pe) => pe.alloc(8192 * 1024),
    run: (pe, out) => pe.sinusoidal({ length: 8192, dim: 1024, out }),
  },
  'applyRope 4096x32x128 half, cached': ropeCase('half', true),
  'applyRope 4096x32x128 half, cache-free': ropeCase('half', false),
  'applyRope 4096x32x128 interleaved, cached': ropeCase('interleaved', true),
  'applyRope 4096x32x128 interleaved, cache-free': ropeCase('interleaved', false),
  'alibiBias 16x2048x2048 (out buffer)': {
    setup: (pe) => pe.alloc(16 * 2048 * 2048),
    run: (pe, out) => pe.alibiBias({ heads: 16, queries: 2048, out }),
  },
  't5Buckets 2048x2048 (out buffer)': {
    setup: (pe) => pe.alloc(2048 * 2048, 'int32'),
    run: (pe, out) => pe.t5Buckets({ queries: 2048, out }),
  },
  'addTo 4096x1024 (buffers)': {
    setup(pe) {
      const x = pe.alloc(4096 * 1024),
        t = pe.alloc(4096 * 1024);
      x.array.set(SRC.subarray(0, x.length));
      t.array.set(SRC.subarray(x.length, 2 * x.length));
      return { x, t };
    },
    // x grows by the table each call: a few hundred calls stay far from any float32 bound
    run: (pe, s) => pe.addTo(s.x, s.t, { length: 4096, dim: 1024 }),
  },
  'gather 1 row of a 4096x1024 table (a decode step)': {
    setup(pe) {
      const t = pe.alloc(4096 * 1024);
      t.array.set(SRC.subarray(0, t.length));
      return { t, out: pe.alloc(1024), positions: Int32Array.of(1234) };
    },
    run: (pe, s) => pe.gather(s.t, { dim: 1024, positions: s.positions, out: s.out }),
  },
  'similarity 1024x256 (out buffer)': {
    setup(pe) {
      const t = pe.alloc(1024 * 256);
      t.array.set(SRC.subarray(0, t.length));
      return { t, out: pe.alloc(1024 * 1024) };
    },
    run: (pe, s) => pe.similarity(s.t, { length: 1024, dim: 256, out: s.out }),
  },
  'learnedInit 4096x1024 (out buffer)': {
    setup: (pe) => pe.alloc(4096 * 1024),
    run: (pe, out) => pe.learnedInit({ length: 4096, dim: 1024, out }),
  },
  'kvCache decode step, 4096 keys (32 q / 8 kv heads x 128, RoPE)': decodeCase(4096),
  'kvCache decode step, 16384 keys (32 q / 8 kv heads x 128, RoPE)': decodeCase(16384),
  'kvCache append 4096 tokens x 8 kv heads x 128 (buffers)': {
    setup(pe) {
      const m = 4096 * 8 * D;
      const k = pe.alloc(m),
        v = pe.alloc(m);
      k.array.set(SRC.subarray(0, m));
      v.array.set(SRC.subarray(m, 2 * m));
      return { k, v, cache: pe.kvCache({ heads: H, kvHeads: 8, dim: D, capacity: 4096 }) };
    },
    run: (pe, s) => s.cache.truncate(0).append(s.k, s.v),
  },
  'attention 1024x64 + RoPE': {
    setup: () => ({ q: SRC.slice(0, 65536), k: SRC.slice(65536, 131072), v: SRC.slice(131072, 196608) }),
    run(pe, s) {
      const q = pe.applyRope(s.q.slice(), { length: 1024, dim: 64 });
      const k = pe.applyRope(s.k.slice(), { length: 1024, dim: 64 });
      return pe.attention({ q, k, v: s.v, queries: 1024, dim: 64 });
    },
  },
};
// The trainer (its own wasm module, loaded with the SIMD core only): ten optimiser steps of the
// lab's default model (batch 16 x 32 tokens, 4 heads), one case per method.
for (const method of ['none', 'learned', 'sinusoidal', 'rope', 'alibi', 't5']) {
  CASES[`lab 10 train steps (${method})`] = { run: (pe) => pe.train({ method, steps: 10 }) };
}

const commits = [checkout(refA), checkout(refB)];
const median = (a) => a.slice().sort((x, y) => x - y)[a.length >> 1];
const fmt = (x) => (x === undefined ? 'n/a' : x.toFixed(3));

console.log(`A = ${refA} (${commits[0].sha.slice(0, 12)})\nB = ${refB} (${commits[1].sha.slice(0, 12)})`);
console.log(`${rounds} interleaved rounds per case, median ms, node ${process.version}\n`);
console.log('| case | backend | A ms | B ms | B/A |\n|---|---|---:|---:|---:|');
for (const simd of [true, false]) {
  const apis = [];
  for (const c of commits) {
    const { init } = await import(pathToFileURL(join(c.dir, 'js', 'index.js')).href);
    apis.push(await init({ simd, lab: simd })); // the package ships the trainer's SIMD build only
  }
  for (const [name, c] of Object.entries(CASES)) {
    if (!only.test(name) || (!simd && name.startsWith('lab '))) continue;
    const states = apis.map((pe) => {
      try {
        return { s: c.setup?.(pe) };
      } catch (e) {
        return { err: e };
      }
    });
    const times = [[], []];
    const broken = [false, false];
    for (let r = 0; r < rounds + 2; r++) {
      for (const b of r % 2 ? [1, 0] : [0, 1]) {
        if (broken[b] || states[b].err) continue;
        const t0 = performance.now();
        try {
          c.run(apis[b], states[b].s);
        } catch (e) {
          broken[b] = true;
          process.stderr.write(`[ab] ${commits[b].ref}: ${name}: ${e.message}\n`);
          continue;
        }
        if (r >= 2) times[b].push(performance.now() - t0); // two warm-up rounds
      }
    }
    const [a, b] = times.map((t, k) => (broken[k] || !t.length ? undefined : median(t)));
    const ratio = a !== undefined && b !== undefined ? (b / a).toFixed(3) : 'n/a';
    console.log(`| ${name} | ${apis[0].backend} | ${fmt(a)} | ${fmt(b)} | ${ratio} |`);
    for (const st of states) {
      for (const v of Object.values(st.s && typeof st.s === 'object' ? st.s : {})) v?.free?.();
      st.s?.free?.();
      for (const v of Object.values(st.s?.opts?.cache ?? {})) v?.free?.();
    }
  }
}
if (clean) for (const c of commits) rmSync(c.dir, { recursive: true, force: true });
