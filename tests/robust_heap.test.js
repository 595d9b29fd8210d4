// Issue 10, defect 1: no JS view of wasm memory may live across an allocation. Two nets:
// a lint over js/ (views are made only through Core.withView, which forbids allocation while
// the view lives), and a sweep that fills the heap to just short of what each call needs, at
// many fill levels, so memory grows at every allocation of every function in turn; results
// must equal an unfilled instance's bit for bit.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { declare as core, FAMILY_DECLS } from '../decl/index.js';
import { Core } from '../js/core.js';
import { ENCODINGS, typesFor } from '../js/encodings.js';
import { init } from '../js/index.js';
import { randomF32 } from './helpers.js';
import { forHost, randomBias } from './ref64.js';
import { SHIPPED_JS } from './paths.js';

const root = new URL('..', import.meta.url).pathname;
const DECLARED = [...core.functions, ...FAMILY_DECLS.flatMap((f) => f.functions)];

test('lint: outside js/core.js no code makes a view of wasm memory', () => {
  const banned = [
    [/\bcore\.view\s*\(/, 'core.view( (use s.read / s.with, which forbid allocation while the view lives)'],
    [/memory\.buffer/, 'memory.buffer'],
    [/exports\.memory/, 'exports.memory'],
    [/\.array\b(?!\s*=)/, '.array (a PosencBuffer view; read heap data through the scope)'],
    [/new\s+DataView\s*\(/, 'new DataView('],
    [
      /new\s+(?:Float32|Float64|Int32|Uint32|Int16|Uint16|Int8|Uint8)Array\s*\([^)]*,/,
      'new TypedArray(buffer, offset, ...)',
    ],
  ];
  const offenders = [];
  for (const f of SHIPPED_JS.filter((x) => x.endsWith('.js') && x !== 'js/core.js')) {
    readFileSync(`${root}${f}`, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        const code = line.replace(/\/\/.*$/, '').replace(/^\s*\*.*$/, '');
        for (const [re, what] of banned) if (re.test(code)) offenders.push(`${f}:${i + 1}: ${what}: ${line.trim()}`);
      });
  }
  assert.deepEqual(offenders, []);
});

test('lint: in js/core.js only the view helpers touch memory.buffer', () => {
  const src = readFileSync(`${root}js/core.js`, 'utf8');
  // each use of memory.buffer must sit inside one of these methods
  const allowed = new Set(['heapView', 'withView', 'cString', 'memoryBuffer']);
  const lines = src.split('\n');
  let method = '';
  const bad = [];
  lines.forEach((line, i) => {
    const m =
      /^\s{2}(?:static\s+)?(?:get\s+)?#?(\w+)\s*\([^)]*\)\s*\{/.exec(line) ||
      /^(?:export\s+)?function\s+(\w+)/.exec(line);
    if (m) method = m[1];
    if (/memory\.buffer/.test(line.replace(/\/\/.*$/, '')) && !allowed.has(method))
      bad.push(`js/core.js:${i + 1} in ${method}: ${line.trim()}`);
  });
  assert.deepEqual(bad, []);
});

// One representative valid call per allocating function, small enough that the sweep is cheap.
const r = (n, k) => Float32Array.from({ length: n }, (_, i) => Math.sin(i * k) * 0.5);
const T = 16;
const D = 32;
const sa = { tokens: r(T * D, 1), dModel: D, wq: r(D * D, 2), wk: r(D * D, 3), wv: r(D * D, 4), heads: 4 };
const CASES = {
  sinusoidal: (pe) => pe.sinusoidal({ length: 40, dim: 64 }),
  sinusoidalFrequencies: (pe) => pe.sinusoidalFrequencies({ dim: 512 }),
  sinusoidal2d: (pe) => pe.sinusoidal2d({ height: 6, width: 7, dim: 64 }),
  similarity: (pe) => pe.similarity(r(40 * 32, 5), { length: 40, dim: 32, normalize: true }),
  ropeFrequencies: (pe) =>
    Object.values(pe.ropeFrequencies({ dim: 256, scaling: { type: 'yarn', factor: 4, originalMaxPositions: 64 } })),
  ropeFrequenciesLongrope: (pe) =>
    Object.values(
      pe.ropeFrequencies({
        dim: 64,
        scaling: {
          type: 'longrope',
          shortFactor: new Array(32).fill(1.5),
          longFactor: new Array(32).fill(3),
          originalMaxPositions: 64,
        },
      }),
    ),
  ropeCache: (pe) =>
    Object.values(pe.ropeCache({ length: 40, dim: 64, scaling: { type: 'dynamic', factor: 2, maxPositions: 16 } })),
  applyRope: (pe) => pe.applyRope(r(20 * 2 * 32, 6), { length: 20, heads: 2, dim: 32 }),
  applyRopePositions: (pe) =>
    pe.applyRope(r(20 * 32, 6), { length: 20, dim: 32, positions: Int32Array.from({ length: 20 }, (_, i) => 3 * i) }),
  applyRopeF32: (pe) =>
    pe.applyRope(r(20 * 32, 6), {
      length: 20,
      dim: 32,
      positions: Float32Array.from({ length: 20 }, (_, i) => 0.5 * i),
    }),
  applyRopeXpos: (pe) => pe.applyRope(r(20 * 32, 6), { length: 20, dim: 32, xpos: { scaleBase: 64 } }),
  applyRopeAxial: (pe) => pe.applyRope(r(20 * 32, 6), { dim: 32, axial: { height: 4, width: 5 } }),
  applyRopeCached: (pe) => {
    const c = pe.ropeCache({ length: 30, dim: 32 });
    return pe.applyRope(r(20 * 32, 6), { length: 20, dim: 32, offset: 5, cache: { cos: c.cos, sin: c.sin } });
  },
  // M-RoPE: positions [3][length] (t, h, w), tables from C (posenc_rope_mrope_fill)
  applyRopeMrope: (pe) =>
    pe.applyRope(r(20 * 2 * 32, 6), {
      length: 20,
      heads: 2,
      dim: 32,
      mropeSections: [4, 6, 6],
      positions: Int32Array.from({ length: 60 }, (_, i) => (i * 7) % 23),
    }),
  ropeCacheMrope: (pe) =>
    Object.values(
      pe.ropeCache({
        length: 20,
        dim: 32,
        mropeSections: [6, 5, 5],
        mropeInterleaved: true,
        positions: Float32Array.from({ length: 60 }, (_, i) => 1.5 * i),
      }),
    ),
  ropeDecay: (pe) => pe.ropeDecay({ dim: 64, maxDistance: 300 }),
  alibiSlopes: (pe) => pe.alibiSlopes(300),
  alibiBias: (pe) => pe.alibiBias({ heads: 4, queries: 20, keys: 24 }),
  t5Buckets: (pe) => pe.t5Buckets({ queries: 30, keys: 40 }),
  t5Bias: (pe) => pe.t5Bias({ weights: r(32 * 4, 7), heads: 4, queries: 20, keys: 24 }),
  shawIndices: (pe) => pe.shawIndices({ queries: 30, keys: 40, maxRelative: 8 }),
  xlPositions: (pe) => pe.xlPositions({ klen: 40, dim: 32 }),
  relShift: (pe) => pe.relShift(r(20 * 28, 8), { queries: 20, memory: 8 }),
  xlScores: (pe) =>
    pe.xlScores({
      q: r(20 * 32, 1),
      k: r(28 * 32, 2),
      r: r(28 * 32, 3),
      u: r(32, 4),
      v: r(32, 5),
      queries: 20,
      keys: 28,
      dim: 32,
    }),
  learnedInit: (pe) => pe.learnedInit({ length: 40, dim: 32, seed: 3 }),
  gather: (pe) =>
    pe.gather(r(40 * 16, 9), { dim: 16, positions: Int32Array.from({ length: 30 }, (_, i) => (i * 7) % 40) }),
  addTo: (pe) => pe.addTo(r(20 * 16, 1), r(40 * 16, 2), { length: 20, dim: 16, offset: 3 }),
  concat: (pe) => pe.concat(r(20 * 16, 1), r(40 * 8, 2), { length: 20, dimX: 16, dimP: 8, offset: 2 }),
  attention: (pe) =>
    Object.values(
      pe.attention({
        q: r(20 * 32, 1),
        k: r(24 * 32, 2),
        v: r(24 * 32, 3),
        queries: 20,
        keys: 24,
        dim: 32,
        returnWeights: true,
      }),
    ),
  matmul: (pe) => pe.matmul(r(20 * 24, 1), r(24 * 28, 2), { m: 20, k: 24, n: 28 }),
  selfAttentionNone: (pe) => Object.values(pe.selfAttention(sa)),
  selfAttentionSinusoidal: (pe) => Object.values(pe.selfAttention({ ...sa, encoding: { type: 'sinusoidal' } })),
  selfAttentionLearned: (pe) =>
    Object.values(pe.selfAttention({ ...sa, encoding: { type: 'learned', table: r(20 * D, 9), offset: 2 } })),
  selfAttentionRope: (pe) => Object.values(pe.selfAttention({ ...sa, encoding: { type: 'rope' } })),
  kvCacheNone: (pe) => kvSteps(pe, { type: 'none' }),
  kvCacheRope: (pe) => kvSteps(pe, { type: 'rope' }),
  kvCacheMrope: (pe) => kvSteps(pe, { type: 'rope', mropeSections: [2, 1, 1] }, true),
  // a caller's view of the heap (buf.array) as an input: our own allocations detach it
  viewAsInput: (pe) => {
    const b = pe.alloc(40 * 32);
    b.array.set(r(40 * 32, 5));
    try {
      return pe.similarity(b.array, { length: 40, dim: 32 });
    } finally {
      b.free();
    }
  },
};

// One case per host and bias kind fused into attention (js/encodings.js: a row with cArgs), drawn
// by tests/ref64.js randomBias: a new kind is swept without an edit here.
const Cap = (t) => t[0].toUpperCase() + t.slice(1);
const fused = (host) => typesFor(host).filter((t) => t !== 'none' && ENCODINGS[t].cArgs);
for (const t of fused('attention')) {
  const bias = randomBias(t, { heads: 2, dim: 16, queries: 20, keys: 20 }, 4);
  const [q, k, v] = [1, 2, 3].map((s) => r(20 * 2 * 16, s));
  CASES[`attention${Cap(t)}`] = (pe) => pe.attention({ q, k, v, queries: 20, heads: 2, dim: 16, bias }).output;
}
for (const t of fused('selfAttention')) {
  const shape = { heads: sa.heads, dim: D / sa.heads, queries: T, keys: T, dModel: D };
  const encoding = forHost('selfAttention', randomBias(t, shape, 4));
  CASES[`selfAttention${Cap(t)}`] = (pe) => Object.values(pe.selfAttention({ ...sa, encoding }));
}
for (const t of fused('kvCache')) {
  const encoding = forHost('kvCache', randomBias(t, { heads: 4, dim: 8, queries: 1, keys: 1 }, 4));
  CASES[`kvCache${Cap(t)}`] = (pe) => kvSteps(pe, encoding);
}

test('heap sweep: a case per host and encoding of the registry', () => {
  for (const host of ['attention', 'selfAttention', 'kvCache'])
    for (const t of typesFor(host)) {
      const key = host === 'attention' && t === 'none' ? host : `${host}${Cap(t)}`;
      assert.ok(key in CASES, `tests/robust_heap.test.js CASES has no ${key} (${host} with '${t}')`);
    }
});

/** A KV cache's life: create, append twice, attend, free (the cache's own heap buffers included). */
function kvSteps(pe, encoding, mrope = false) {
  const c = pe.kvCache({ heads: 4, kvHeads: 2, dim: 8, capacity: 24, encoding });
  // M-RoPE: each token's t, h and w positions (3 × n)
  const at = (n, p0) => (mrope ? { positions: Int32Array.from({ length: 3 * n }, (_, i) => p0 + (i % n)) } : undefined);
  try {
    c.append(r(10 * 2 * 8, 1), r(10 * 2 * 8, 2), at(10, 0));
    c.append(r(6 * 2 * 8, 3), r(6 * 2 * 8, 4), at(6, 10));
    return c.attend(r(6 * 4 * 8, 5), at(6, 10)).output;
  } finally {
    c.free();
  }
}

// API functions the sweep has no case for: those whose declaration (families/*/decl.js `heap`) says why
// they cannot grow the core's heap. Every other function must have a case: its name, or its name
// and a variant.
const NOT_SWEPT = Object.fromEntries(DECLARED.filter((f) => f.heap).map((f) => [f.name, f.heap]));

test('heap sweep: every declared function has a case, or its declaration says why not', () => {
  const missing = DECLARED.filter(
    (f) => !f.heap && !Object.keys(CASES).some((c) => new RegExp(`^${f.name}([A-Z0-9]|$)`).test(c)),
  ).map((f) => f.name);
  assert.deepEqual(
    missing,
    [],
    `tests/robust_heap.test.js CASES has no call of ${missing.join(', ')}: add one (or a heap reason in its decl.js)`,
  );
  assert.ok(Object.keys(NOT_SWEPT).length < DECLARED.length / 2, Object.keys(NOT_SWEPT).join(' '));
});

// Each case calls only the C entry points its function declares (families/*/decl.js `c`): the export
// lists are written from those, so an undeclared call would be missing from a core (the finiteness
// scan, decl/index.js cValues, is every function's).
test("heap sweep: each case calls only its function's declared C entry points", async () => {
  const pe = await init();
  const calls = [];
  const undeclared = new Set();
  const seen = new Set();
  const { call } = Core.prototype;
  Core.prototype.call = function (fn, cname, ...a) {
    calls.push([fn, cname]);
    return call.call(this, fn, cname, ...a);
  };
  try {
    for (const [name, run] of Object.entries(CASES)) {
      calls.length = 0;
      run(pe);
      assert.ok(calls.length > 0, `${name}: no C call was seen`);
      for (const [fn, c] of calls) {
        seen.add(`${fn.split('.')[0]} ${c}`);
        const f = DECLARED.find((d) => d.name === fn.split('.')[0]);
        if (!f) undeclared.add(`${name}: a C call under the name ${fn}, which no declaration has`);
        else if (!f.c.includes(c) && c !== core.cValues) undeclared.add(`${fn} calls ${c}, not in ${f.name}'s c`);
      }
    }
  } finally {
    Core.prototype.call = call;
  }
  assert.deepEqual([...undeclared], []);
  // and the other way: each swept function's declared entry points are all reached
  const unseen = DECLARED.filter((f) => !f.heap).flatMap((f) => f.c.filter((c) => !seen.has(`${f.name} ${c}`)));
  assert.deepEqual(unseen, [], 'declared C entry points no case reaches (a wrong c list, or a missing case)');
});

/** Flatten a result (array, or list of arrays / numbers / nulls) to plain numbers. */
function flat(v) {
  if (v === null || typeof v === 'number') return [v];
  if (Array.isArray(v)) return v.flatMap(flat);
  return Array.from(v);
}

test('heap sweep: every allocating function gives the same bits when memory grows mid-call', async () => {
  const module = await WebAssembly.compile(readFileSync(`${root}dist/posenc.simd.wasm`));
  const fresh = () => init({ wasm: module });
  const base = await fresh();
  const startBytes = base.heapBytes;
  // calibrate: greedily the largest fillers (float32 elements) that still fit without growing
  // memory, until nothing fits; the heap's free tail is then (almost) zero
  const seq = [];
  for (let step = 0; step < 8; step++) {
    let lo = 0;
    let hi = startBytes / 4;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      const pe = await fresh();
      for (const n of seq) pe.alloc(n);
      try {
        pe.alloc(mid);
      } catch {
        /* out of memory counts as growing */
      }
      if (pe.heapBytes === startBytes) lo = mid;
      else hi = mid;
    }
    if (lo === 0) break;
    seq.push(lo);
  }
  assert.ok(seq[0] > 64 * 64, `calibration found ${seq}`);
  /** A fresh instance whose heap has `free` bytes (plus a few) before it must grow. */
  const filled = async (free) => {
    const pe = await fresh();
    const fill = seq.map((n, i) => pe.alloc(i === 0 ? n - free / 4 : n));
    return { pe, release: () => fill.forEach((b) => b.free()) };
  };
  const failures = [];
  let runs = 0;
  for (const [name, call] of Object.entries(CASES)) {
    const want = flat(call(base));
    // the call's peak need: the smallest free tail at which it does not grow memory
    let lo = 0;
    let hi = 1 << 20;
    while (hi - lo > 64) {
      const mid = ((lo + hi) >> 1) & ~15;
      const { pe } = await filled(mid);
      const before = pe.heapBytes;
      call(pe);
      if (pe.heapBytes > before) lo = mid;
      else hi = mid;
    }
    // fill levels from 0 to that need, close enough that growth lands on each allocation in turn
    const step = Math.max(256, Math.ceil(hi / 96 / 16) * 16);
    let grew = 0;
    for (let free = 0; free <= hi + step; free += step) {
      const k = free;
      const { pe, release } = await filled(free);
      const before = pe.heapBytes;
      let got;
      try {
        got = flat(call(pe));
      } catch (e) {
        failures.push(`${name} at fill ${k} B free threw ${e.name}: ${e.message}`);
        break;
      }
      runs++;
      if (pe.heapBytes > before) grew++;
      release();
      const i = got.findIndex((x, j) => !Object.is(x, want[j]));
      if (got.length !== want.length || i >= 0) {
        failures.push(`${name} at fill ${k} B free: element ${i} is ${got[i]}, unfilled instance gives ${want[i]}`);
        break;
      }
    }
    assert.ok(grew > 0 || failures.length, `${name}: no fill level made memory grow during the call`);
  }
  assert.deepEqual(failures, [], `${runs} filled calls`);
});

test('issue 10 repro: selfAttention keeps a sinusoidal encoding when the heap grows', async () => {
  const a = {
    tokens: randomF32(T * D, 1),
    dModel: D,
    wq: randomF32(D * D, 2),
    wk: randomF32(D * D, 3),
    wv: randomF32(D * D, 4),
    heads: 4,
  };
  const module = await WebAssembly.compile(readFileSync(`${root}dist/posenc.simd.wasm`));
  const ref = (await init({ wasm: module })).selfAttention({ ...a, encoding: { type: 'sinusoidal' } }).output;
  const plain = (await init({ wasm: module })).selfAttention(a).output;
  let dropped = 0;
  for (let k = 0; k < 48; k++) {
    const pe = await init({ wasm: module });
    pe.alloc(15760384 / 4 + 1024 - 64 * k);
    const out = pe.selfAttention({ ...a, encoding: { type: 'sinusoidal' } }).output;
    if (out.every((x, i) => x === plain[i])) dropped++;
    assert.deepEqual(Array.from(out), Array.from(ref), `fill level ${k}`);
  }
  assert.equal(dropped, 0);
});
