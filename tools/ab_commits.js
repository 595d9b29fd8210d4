#!/usr/bin/env node
// A/B timing of two commits, each with its own JS and wasm: every commit is checked out into a
// temporary work tree (git archive, under $TMPDIR/posenc-ab/<sha>, reused on the next run) and
// built there with that commit's own `./build.sh wasm`; then both are loaded into this one
// process and the bench cases run in interleaved rounds (A B, B A, A B, ...), so load from
// other processes hits both alike. Each case is set up at --places heap placements (a pad of a
// different size allocated first, the same on both commits) and its rounds are spread over them:
// where a buffer falls in its 4 KiB page moves a kernel by up to a quarter with the same code, so
// one placement would compare two draws of the allocator. A call shorter than ~0.5 ms is repeated
// within a sample; a longer call's sample starts after a full garbage collection. Prints the
// median ms per call of each commit per case and B/A (below 1: B is faster); stderr names how
// many distinct page offsets each commit's buffers had. `A A` (one commit twice) shows the noise
// floor.
//
//   node tools/ab_commits.js A B [--rounds 15] [--places 8] [--cases REGEX] [--clean]
//
//   A, B      anything git rev-parse takes (main, HEAD, d2f1308, a branch)
//   --rounds  timed rounds per case, spread over the placements (each placement has one warm-up round)
//   --places  heap placements per case (1 to 64)
//   --cases   only the cases whose name matches REGEX (e.g. --cases rope)
//   --clean   delete the temporary work trees afterwards (otherwise kept to skip the rebuild)
//
// A case that throws on one commit (an API it does not have yet) prints n/a for that commit.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gcBetween } from '../bench/harness.js';

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
const places = Number(flag('--places', 8));
const only = new RegExp(flag('--cases', '.'));
const clean = args.includes('--clean');
const [refA, refB] = args.filter((a) => a !== '--clean');
if (!refA || !refB || !(rounds >= 1) || !(places >= 1 && places <= 64)) {
  console.error('usage: node tools/ab_commits.js A B [--rounds N] [--places P] [--cases REGEX] [--clean]');
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

/** Free what a case's setup made (its posenc buffers, caches and a RoPE cache's tables). */
function release(s) {
  for (const v of Object.values(s && typeof s === 'object' ? s : {})) v?.free?.();
  s?.free?.();
  for (const v of Object.values(s?.opts?.cache ?? {})) v?.free?.();
}

/** The heap address of the first posenc buffer a setup made, mod 4096 (for the placement report). */
function pageOffset(s) {
  const bufs = [s, ...Object.values(s && typeof s === 'object' ? s : {})];
  const b = bufs.find((v) => typeof v?.ptr === 'number' && v.ptr > 0);
  return b ? b.ptr % 4096 : undefined;
}

/**
 * Set the case up on both commits at heap placement `k`: a pad of 256 KiB + k * 520 bytes is
 * allocated first (and kept until the case ends, so the case's buffers come from the heap's top,
 * past it). The same kernel on the same data runs up to a quarter faster or slower depending on
 * where its buffers fall in a 4 KiB page (t5Buckets: 2.14 to 2.72 ms at eight 64-aligned places),
 * so a row timed at one placement compares two draws of the allocator, not two commits.
 */
function place(c, apis, k, pads) {
  return apis.map((pe, b) => {
    try {
      pads[b].push(pe.alloc((262144 + 520 * k) / 4));
      return { s: c.setup?.(pe) };
    } catch (e) {
      return { err: e };
    }
  });
}

/**
 * Calls per timed sample: enough that one sample lasts ~0.5 ms (a 20 µs call alone is timer
 * noise). Each commit first runs the case for ~100 ms, so a short call is timed in its optimised
 * code, not while the JIT is still compiling it.
 */
function repsFor(c, apis, states) {
  let t = Infinity;
  for (const b of [0, 1]) {
    if (states[b].err) continue;
    try {
      const start = performance.now();
      for (let i = 0; i < 5 || (i < 5000 && performance.now() - start < 100); i++) {
        const t0 = performance.now();
        c.run(apis[b], states[b].s);
        t = Math.min(t, performance.now() - t0);
      }
    } catch {}
  }
  return t === Infinity ? 1 : Math.max(1, Math.min(100, Math.round(0.5 / Math.max(t, 1e-3))));
}

/** Interleaved rounds (A B, B A, ...) at one placement; pushes per-call ms into times[b]. */
function timeRounds(c, apis, states, n, reps, times, broken, name) {
  for (let r = 0; r < n + 1; r++) {
    for (const b of r % 2 ? [1, 0] : [0, 1]) {
      if (broken[b] || states[b].err) continue;
      // A long call starts after a full collection (outside the timing), so it pays for no other
      // sample's garbage; short calls, repeated within a sample, pay their own share of it as a
      // caller's loop would (with a collection before each sample, a 4 µs gather took 7-12 µs).
      if (reps === 1) gcBetween();
      let t0;
      try {
        t0 = performance.now();
        for (let i = 0; i < reps; i++) c.run(apis[b], states[b].s);
      } catch (e) {
        broken[b] = true;
        process.stderr.write(`[ab] ${commits[b].ref}: ${name}: ${e.message}\n`);
        continue;
      }
      if (r >= 1) times[b].push((performance.now() - t0) / reps); // one warm-up round per placement
    }
  }
}

console.log(`A = ${refA} (${commits[0].sha.slice(0, 12)})\nB = ${refB} (${commits[1].sha.slice(0, 12)})`);
console.log(
  `${rounds} interleaved rounds per case spread over ${places} heap placements, median ms per call, node ${process.version}\n`,
);
console.log('| case | backend | A ms | B ms | B/A |\n|---|---|---:|---:|---:|');
for (const simd of [true, false]) {
  const apis = [];
  for (const c of commits) {
    const { init } = await import(pathToFileURL(join(c.dir, 'js', 'index.js')).href);
    apis.push(await init({ simd, lab: simd })); // the package ships the trainer's SIMD build only
  }
  for (const [name, c] of Object.entries(CASES)) {
    if (!only.test(name) || (!simd && name.startsWith('lab '))) continue;
    const times = [[], []];
    const broken = [false, false];
    const pads = [[], []];
    const offsets = [new Set(), new Set()];
    let reps;
    for (let k = 0; k < places; k++) {
      const states = place(c, apis, k, pads);
      states.forEach((st, b) => offsets[b].add(pageOffset(st.s)));
      reps ??= repsFor(c, apis, states);
      timeRounds(c, apis, states, Math.ceil(rounds / places), reps, times, broken, name);
      for (const st of states) release(st.s);
    }
    for (const p of pads.flat()) p.free();
    const [a, b] = times.map((t, k) => (broken[k] || !t.length ? undefined : median(t)));
    const ratio = a !== undefined && b !== undefined ? (b / a).toFixed(3) : 'n/a';
    console.log(`| ${name} | ${apis[0].backend} | ${fmt(a)} | ${fmt(b)} | ${ratio} |`);
    const seen = offsets.map((o) => [...o].filter((x) => x !== undefined).length);
    process.stderr.write(
      `[ab] ${name}: ${reps} call(s) per sample; distinct page offsets A ${seen[0]}, B ${seen[1]}\n`,
    );
  }
}
if (clean) for (const c of commits) rmSync(c.dir, { recursive: true, force: true });
