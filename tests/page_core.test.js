// The page's own cores (build.sh: posenc-page.simd.wasm, the encodings; posenc-page-attention.simd.wasm,
// the encodings and attention) are linked from objects compiled for size (-O2, no unrolling,
// emmalloc), not from the npm core's. Same C, same operations in the same order
// (-ffp-contract=off): every result must be bit for bit the npm SIMD core's, over every family the
// page core has, at sizes that take the vector loops and their tails, and every error the same.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { init as npmInit } from '../js/index.js';
import { init as pageInit, use } from '../web/src/api.js';
import { rng } from './helpers.js';

const dist = (f) => readFileSync(new URL(`../dist/${f}`, import.meta.url));
/** The C functions a wasm file exports. */
const exported = (bytes) => new Set(WebAssembly.Module.exports(new WebAssembly.Module(bytes)).map((e) => e.name));

/** Every call: [name, (pe) => result]. Inputs are made once, so each core gets the same. */
function calls() {
  const r = rng(2024);
  const f32 = (n, s = 1) => Float32Array.from({ length: n }, () => s * r());
  const out = [];
  for (const [length, dim] of [
    [37, 64],
    [5, 6],
    [130, 18],
  ]) {
    for (const layout of ['interleaved', 'split']) {
      for (const base of [10000, 500])
        out.push([
          `sinusoidal ${length}x${dim} ${layout} ${base}`,
          (pe) => pe.sinusoidal({ length, dim, base, layout, offset: 3 }),
        ]);
    }
    out.push([`sinusoidal t2t ${length}x${dim}`, (pe) => pe.sinusoidal({ length, dim, spacing: 't2t' })]);
    const table = f32(length * dim);
    out.push([`similarity ${length}x${dim}`, (pe) => pe.similarity(table, { length, dim })]);
    out.push([
      `similarity normalized ${length}x${dim}`,
      (pe) => pe.similarity(table, { length, dim, normalize: true }),
    ]);
  }
  out.push(['sinusoidal odd dim, xlm', (pe) => pe.sinusoidal({ length: 9, dim: 7, oddDim: 'xlm' })]);
  out.push(['sinusoidal2d', (pe) => pe.sinusoidal2d({ height: 5, width: 7, dim: 32, clsToken: true })]);
  out.push(['sinusoidalFrequencies', (pe) => pe.sinusoidalFrequencies({ dim: 20, base: 777 })]);
  const scalings = [
    undefined,
    { type: 'linear', factor: 4 },
    { type: 'ntk', factor: 3 },
    { type: 'dynamic', factor: 2, maxPositions: 64 },
    { type: 'yarn', factor: 8, originalMaxPositions: 32 },
    { type: 'yarn', factor: 40, originalMaxPositions: 64, mscale: 0.707, mscaleAllDim: 0.707 },
    { type: 'llama3', factor: 8, lowFreqFactor: 1, highFreqFactor: 4, originalMaxPositions: 64 },
    {
      type: 'longrope',
      shortFactor: [1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5],
      longFactor: [2, 3, 4, 5, 6, 7, 8, 9],
      originalMaxPositions: 32,
      maxPositions: 128,
    },
  ];
  for (const scaling of scalings) {
    const tag = scaling?.type ?? 'none';
    out.push([`ropeFrequencies ${tag}`, (pe) => pe.ropeFrequencies({ dim: 16, base: 5000, scaling })]);
    out.push([`ropeCache ${tag}`, (pe) => pe.ropeCache({ dim: 16, length: 97, offset: 2, scaling })]);
    for (const layout of ['half', 'interleaved']) {
      const x = f32(97 * 3 * 16);
      out.push([
        `applyRope ${tag} ${layout}`,
        (pe) => pe.applyRope(x.slice(), { length: 97, heads: 3, dim: 16, layout, scaling }),
      ]);
    }
  }
  const xp = f32(41 * 2 * 24);
  out.push([
    'applyRope partial rotary',
    (pe) => pe.applyRope(xp.slice(), { length: 41, heads: 2, dim: 24, rotaryDim: 12 }),
  ]);
  // M-RoPE (Qwen2-VL's three position streams): posenc_rope_mrope_fill, which ropeFamily's mark
  // (js/lite.js: the encodings core) needs the page cores to export
  const xm = f32(20 * 2 * 32);
  out.push([
    'applyRope M-RoPE',
    (pe) =>
      pe.applyRope(xm.slice(), {
        length: 20,
        heads: 2,
        dim: 32,
        mropeSections: [4, 6, 6],
        positions: Int32Array.from({ length: 60 }, (_, i) => (i * 7) % 23),
      }),
  ]);
  out.push([
    'ropeCache M-RoPE interleaved',
    (pe) =>
      pe.ropeCache({
        length: 20,
        dim: 32,
        mropeSections: [6, 5, 5],
        mropeInterleaved: true,
        positions: Float32Array.from({ length: 60 }, (_, i) => 1.5 * i),
      }),
  ]);
  out.push([
    'applyRope positions',
    (pe) =>
      pe.applyRope(xp.slice(), {
        length: 41,
        heads: 2,
        dim: 24,
        positions: Int32Array.from({ length: 41 }, (_, i) => (i * 7) % 50),
      }),
  ]);
  out.push([
    'applyRope xpos',
    (pe) => pe.applyRope(xp.slice(), { length: 41, heads: 2, dim: 24, xpos: { scaleBase: 512 } }),
  ]);
  const xa = f32(6 * 7 * 16);
  out.push([
    'applyRope axial',
    (pe) => pe.applyRope(xa.slice(), { heads: 1, dim: 16, axial: { height: 6, width: 7 } }),
  ]);
  out.push(['ropeDecay', (pe) => pe.ropeDecay({ dim: 64, maxDistance: 300 })]);
  out.push(['alibiSlopes 12', (pe) => pe.alibiSlopes(12)]);
  for (const form of ['relative', 'symmetric', 'reference']) {
    out.push([
      `alibiBias ${form}`,
      (pe) => pe.alibiBias({ heads: 6, queries: 19, keys: 33, form, causal: form === 'relative', offset: 14 }),
    ]);
  }
  for (const bidirectional of [true, false]) {
    out.push([
      `t5Buckets ${bidirectional}`,
      (pe) => pe.t5Buckets({ queries: 40, keys: 300, bidirectional, numBuckets: 32, maxDistance: 128, offset: -7 }),
    ]);
    const weights = f32(32 * 4);
    out.push([
      `t5Bias ${bidirectional}`,
      (pe) => pe.t5Bias({ weights, heads: 4, queries: 21, keys: 70, bidirectional }),
    ]);
  }
  out.push(['shawIndices', (pe) => pe.shawIndices({ queries: 17, keys: 29, maxRelative: 5 })]);
  out.push(['xlPositions', (pe) => pe.xlPositions({ klen: 45, dim: 20, clampLen: 30 })]);
  const sc = f32(9 * 14);
  out.push(['relShift', (pe) => pe.relShift(sc, { queries: 9, keys: 14 })]);
  const [q, k, rr, u, v] = [f32(9 * 2 * 12), f32(14 * 2 * 12), f32(14 * 2 * 12), f32(2 * 12), f32(2 * 12)];
  out.push(['xlScores', (pe) => pe.xlScores({ q, k, r: rr, u, v, queries: 9, keys: 14, heads: 2, dim: 12 })]);
  out.push(['learnedInit', (pe) => pe.learnedInit({ length: 33, dim: 40, seed: 7 })]);
  const lt = f32(50 * 8);
  out.push(['gather', (pe) => pe.gather(lt, { dim: 8, positions: [0, 49, 3, 3, 17] })]);
  const [xt, xc] = [f32(20 * 8), f32(20 * 6)];
  out.push(['addTo', (pe) => pe.addTo(xt.slice(), lt, { length: 20, dim: 8, offset: 5 })]);
  out.push(['concat', (pe) => pe.concat(xc, lt, { length: 20, dimX: 6, dimP: 8, offset: 2 })]);
  // errors: the same message from each core
  out.push(['error: odd dim', (pe) => pe.applyRope(f32(10), { length: 2, heads: 1, dim: 5 })]);
  out.push(['error: t5 max distance', (pe) => pe.t5Buckets({ queries: 2, numBuckets: 32, maxDistance: 8 })]);
  return out;
}

function attentionCalls() {
  const r = rng(99);
  const f32 = (n, s = 1) => Float32Array.from({ length: n }, () => s * r());
  const out = [];
  const [Lq, Lk, H, KV, D, DV] = [13, 37, 4, 2, 20, 12];
  const q = f32(Lq * H * D),
    k = f32(Lk * KV * D),
    v = f32(Lk * KV * DV);
  const biases = {
    none: undefined,
    dense: f32(H * Lq * Lk),
    alibi: { type: 'alibi' },
    'alibi symmetric': { type: 'alibi', form: 'symmetric' },
    t5: { type: 't5', weights: f32(32 * H), bidirectional: false },
    shaw: { type: 'shaw', aK: f32(7 * D), aV: f32(7 * DV), maxRelative: 3 },
    xl: { type: 'xl', u: f32(H * D), v: f32(H * D), r: f32(Lk * H * D) },
  };
  for (const [name, bias] of Object.entries(biases)) {
    for (const causal of [false, true]) {
      const kvHeads = name === 'shaw' || name === 'xl' ? H : KV;
      const kk = kvHeads === H ? f32(Lk * H * D) : k,
        vv = kvHeads === H ? f32(Lk * H * DV) : v;
      out.push([
        `attention ${name} causal=${causal}`,
        (pe) =>
          pe.attention({
            q,
            k: kk,
            v: vv,
            queries: Lq,
            keys: Lk,
            heads: H,
            kvHeads,
            dim: D,
            dimV: DV,
            causal,
            align: 'bottom-right',
            bias,
            returnWeights: true,
          }),
      ]);
    }
  }
  const [ma, mb] = [f32(7 * 19), f32(19 * 11)];
  out.push(['matmul', (pe) => pe.matmul(ma, mb, { m: 7, k: 19, n: 11 })]);
  const dModel = 16,
    T = 9,
    heads = 2;
  const tokens = f32(T * dModel),
    wq = f32(dModel * dModel, 0.3),
    wk = f32(dModel * dModel, 0.3),
    wv = f32(dModel * dModel, 0.3);
  const encodings = [
    { type: 'none' },
    { type: 'sinusoidal' },
    { type: 'learned', table: f32(12 * dModel) },
    { type: 'rope', layout: 'interleaved', scaling: { type: 'linear', factor: 2 } },
    { type: 'alibi' },
    { type: 't5', weights: f32(32 * heads) },
    { type: 'shaw', aK: f32(5 * 8), aV: f32(5 * 8), maxRelative: 2 },
    { type: 'xl', u: f32(heads * 8), v: f32(heads * 8), wr: f32(dModel * dModel, 0.3) },
  ];
  for (const encoding of encodings) {
    for (const causal of [false, true]) {
      out.push([
        `selfAttention ${encoding.type} causal=${causal}`,
        (pe) => pe.selfAttention({ tokens, dModel, wq, wk, wv, heads, encoding, causal, returnWeights: true }),
      ]);
    }
  }
  out.push([
    'error: non-finite query',
    (pe) => pe.attention({ q: f32(4).fill(NaN), k: f32(4), v: f32(4), queries: 1, dim: 4 }),
  ]);
  return out;
}

/** What a call gave, comparable bit for bit: typed arrays as their bytes, numbers by Object.is. */
function settle(fn, pe) {
  try {
    return { value: fn(pe) };
  } catch (e) {
    return { error: `${e.name}: ${e.message}` };
  }
}
function sameBits(a, b, path) {
  if (ArrayBuffer.isView(a)) {
    assert.ok(ArrayBuffer.isView(b) && a.constructor === b.constructor && a.length === b.length, `${path}: shape`);
    const x = new Uint8Array(a.buffer, a.byteOffset, a.byteLength),
      y = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
    const i = x.findIndex((byte, j) => byte !== y[j]);
    assert.equal(
      i,
      -1,
      `${path}: differs at element ${Math.floor(i / a.BYTES_PER_ELEMENT)} (${a[Math.floor(i / a.BYTES_PER_ELEMENT)]} vs ${b[Math.floor(i / a.BYTES_PER_ELEMENT)]})`,
    );
  } else if (a && typeof a === 'object') {
    assert.deepEqual(Object.keys(a).sort(), Object.keys(b ?? {}).sort(), `${path}: keys`);
    for (const key of Object.keys(a)) sameBits(a[key], b[key], `${path}.${key}`);
  } else assert.ok(Object.is(a, b), `${path}: ${a} vs ${b}`);
}

test("the page cores give the npm SIMD core's results bit for bit", async (t) => {
  // The npm package's API on its SIMD core; the page's API (web/src/api.js) on each page core.
  const ref = await npmInit({ wasm: dist('posenc.simd.wasm') });
  const lean = await pageInit({ wasm: dist('posenc-page.simd.wasm') });
  const full = await use(await pageInit({ wasm: dist('posenc-page-attention.simd.wasm') }), 'attention');
  assert.equal(lean.backend, 'simd');
  // What each page core leaves out: attention (lean) and the KV cache (both).
  const [leanC, fullC] = ['posenc-page.simd.wasm', 'posenc-page-attention.simd.wasm'].map((f) => exported(dist(f)));
  assert.ok(!leanC.has('posenc_attention_gqa') && fullC.has('posenc_attention_gqa'));
  assert.ok(!leanC.has('posenc_kvcache_attend') && !fullC.has('posenc_kvcache_attend'));
  let n = 0,
    errors = 0;
  for (const [name, fn] of calls()) {
    const want = settle(fn, ref);
    for (const [tag, api] of [
      ['lean', lean],
      ['attention', full],
    ]) {
      const got = settle(fn, api);
      assert.equal(got.error, want.error, `${tag} ${name}: error`);
      if (!want.error) sameBits(got.value, want.value, `${tag} ${name}`);
    }
    n++;
    if (want.error) errors++;
  }
  for (const [name, fn] of attentionCalls()) {
    const want = settle(fn, ref);
    const got = settle(fn, full);
    assert.equal(got.error, want.error, `attention ${name}: error`);
    if (!want.error) sameBits(got.value, want.value, `attention ${name}`);
    n++;
    if (want.error) errors++;
  }
  // Guard against a battery that only compares errors.
  assert.equal(errors, 3, 'the three error cases, and no other call, throw');
  t.diagnostic(`${n} calls compared, ${errors} of them errors`);
});
