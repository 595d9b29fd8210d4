import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Status } from '../../js/index.js';
import {
  assertClose,
  assertThrowsPosenc,
  backends,
  BAD_SIZES,
  maxAbsDiff,
  randomF32,
  rng,
} from '../../tests/helpers.js';

// ---- float64 references written from Su et al. 2021 and HF modeling_rope_utils.py, independent of the C code ----
function refFreqs(d, base = 10000, sc = {}) {
  const type = sc.type ?? 'default';
  const n = d / 2;
  const w = (b, i) => 1 / b ** ((2 * i) / d);
  let att = 1;
  let inv;
  const mscale = (s, m = 1) => (s <= 1 ? 1 : 0.1 * m * Math.log(s) + 1);
  switch (type) {
    case 'default':
      inv = Array.from({ length: n }, (_, i) => w(base, i));
      break;
    case 'linear':
      inv = Array.from({ length: n }, (_, i) => w(base, i) / sc.factor);
      break;
    case 'ntk': {
      const b = base * sc.factor ** (d / (d - 2));
      inv = Array.from({ length: n }, (_, i) => w(b, i));
      break;
    }
    case 'dynamic': {
      const L = Math.max(sc.seqLen ?? sc.maxPositions, sc.maxPositions);
      const b = base * ((sc.factor * L) / sc.maxPositions - (sc.factor - 1)) ** (d / (d - 2));
      inv = Array.from({ length: n }, (_, i) => w(b, i));
      break;
    }
    case 'yarn': {
      const { factor, originalMaxPositions: L0, betaFast = 32, betaSlow = 1, truncate = true } = sc;
      const corr = (r) => (d * Math.log(L0 / (2 * Math.PI * r))) / (2 * Math.log(base));
      let lo = corr(betaFast),
        hi = corr(betaSlow);
      if (truncate) {
        lo = Math.floor(lo);
        hi = Math.ceil(hi);
      }
      lo = Math.max(lo, 0);
      hi = Math.min(hi, d - 1);
      if (lo === hi) hi += 0.001;
      inv = Array.from({ length: n }, (_, i) => {
        const ramp = Math.min(1, Math.max(0, (i - lo) / (hi - lo)));
        return (w(base, i) / factor) * ramp + w(base, i) * (1 - ramp);
      });
      if (sc.attentionFactor !== undefined) att = sc.attentionFactor;
      else if (sc.mscale && sc.mscaleAllDim) att = mscale(factor, sc.mscale) / mscale(factor, sc.mscaleAllDim);
      else att = mscale(factor);
      break;
    }
    case 'longrope': {
      const L0 = sc.originalMaxPositions;
      const f = sc.factor ?? (sc.maxPositions ? sc.maxPositions / L0 : 1);
      const ext = sc.seqLen !== undefined && sc.seqLen > L0 ? sc.longFactor : sc.shortFactor;
      inv = Array.from({ length: n }, (_, i) => 1 / (ext[i] * base ** ((2 * i) / d)));
      att = sc.attentionFactor ?? (f <= 1 ? 1 : Math.sqrt(1 + Math.log(f) / Math.log(L0)));
      break;
    }
    case 'llama3': {
      const { factor = 8, lowFreqFactor: lo = 1, highFreqFactor: hi = 4, originalMaxPositions: L0 = 8192 } = sc;
      inv = Array.from({ length: n }, (_, i) => {
        const wi = w(base, i),
          wl = (2 * Math.PI) / wi;
        if (wl < L0 / hi) return wi;
        if (wl > L0 / lo) return wi / factor;
        const s = (L0 / wl - lo) / (hi - lo);
        return ((1 - s) * wi) / factor + s * wi;
      });
      break;
    }
    default:
      throw new Error(type);
  }
  return { inv, att };
}

/** Rotate a copy of x in float64 exactly as families/rope/rope.md defines it (formula, layouts, scaling). */
function refApply(
  x,
  {
    length,
    heads = 1,
    dim,
    rotaryDim = dim,
    layout = 'half',
    positions,
    offset = 0,
    order = 'thd',
    base = 10000,
    scaling,
    xpos,
  },
) {
  const out = Float64Array.from(x);
  const sc = { ...(scaling ?? {}) };
  if ((sc.type === 'dynamic' || sc.type === 'longrope') && sc.seqLen === undefined) {
    sc.seqLen = positions ? Math.max(...positions) + 1 : offset + length;
  }
  const { inv, att } = refFreqs(rotaryDim, base, sc);
  const n = rotaryDim / 2;
  for (let t = 0; t < length; t++) {
    const p = positions ? positions[t] : offset + t;
    for (let h = 0; h < heads; h++) {
      const o = (order === 'thd' ? t * heads + h : h * length + t) * dim;
      for (let i = 0; i < n; i++) {
        const [a, b] = layout === 'half' ? [o + i, o + n + i] : [o + 2 * i, o + 2 * i + 1];
        let c = Math.cos(p * inv[i]) * att,
          s = Math.sin(p * inv[i]) * att;
        if (xpos) {
          const z = (2 * i + 0.4 * rotaryDim) / (1.4 * rotaryDim);
          const f = z ** (((xpos.key ? -1 : 1) * (p - xpos.center)) / xpos.scaleBase);
          c *= f;
          s *= f;
        }
        const u = out[a],
          v = out[b];
        out[a] = u * c - v * s;
        out[b] = v * c + u * s;
      }
    }
  }
  return out;
}

const dot = (a, b) => a.reduce((s, x, i) => s + x * b[i], 0);
const relClose = (got, want, rel, what) =>
  assert.ok(Math.abs(got - want) <= rel * Math.abs(want), `${what}: ${got} vs ${want}`);

// ---- reference vectors ----
test('inv_freq tables, d=128, base 1e4 and 5e5 (HF _compute_default_rope_parameters)', async () => {
  const t1 = {
    0: 1,
    1: 0.86596432336006535,
    2: 0.74989420933245587,
    16: 0.10000000000000001,
    31: 0.011547819846894583,
    32: 0.01,
    48: 0.001,
    62: 0.0001333521432163324,
    63: 0.00011547819846894582,
  };
  const t5 = {
    0: 1,
    1: 0.81461723385654472,
    2: 0.66360123769608848,
    16: 0.037606030930863933,
    31: 0.0017360467021768655,
    32: 0.001414213562373095,
    48: 5.318295896944989e-5,
    62: 3.0138581521391708e-6,
    63: 2.4551407911316089e-6,
  };
  for (const { name, pe } of await backends()) {
    const a = pe.ropeFrequencies({ dim: 128 });
    assert.ok(a.invFreq64 instanceof Float64Array);
    assert.ok(a.invFreq instanceof Float32Array);
    // stored as float32: each value is the float64 result rounded once
    a.invFreq64.forEach((v, i) => assert.equal(a.invFreq[i], Math.fround(v)));
    assert.equal(a.invFreq[63], Math.fround(0.00011547819846894582));
    assert.equal(a.invFreq64.length, 64);
    assert.equal(a.attentionScale, 1);
    for (const [i, v] of Object.entries(t1)) relClose(a.invFreq64[i], v, 1e-13, `${name} 1e4 i=${i}`);
    const b = pe.ropeFrequencies({ dim: 128, base: 500000 });
    for (const [i, v] of Object.entries(t5)) relClose(b.invFreq64[i], v, 1e-13, `${name} 5e5 i=${i}`);
    // partial rotary: frequencies use rotaryDim, not dim
    const c = pe.ropeFrequencies({ dim: 256, rotaryDim: 128 });
    assert.deepEqual(Array.from(c.invFreq64), Array.from(a.invFreq64));
  }
});

test('application vectors (half, interleaved, partial) and p = 0 identity (families/rope/rope.md layouts)', async () => {
  const x = [1, 2, 3, 4, 5, 6, 7, 8];
  const half = [
    -1.6955925368997815, 0.13755173828317435, 2.7886815998294927, 3.9759820360134839, -4.8088424749423595,
    6.3230593480763151, 7.0868367368503993, 8.0119639820270088,
  ];
  const inter = [
    -1.2722325127201799, -1.8388649851410237, 1.6839286407314598, 4.707906576486443, 4.8177771675299637,
    6.1472777035064032, 6.9759685360236086, 8.0209639685270133,
  ];
  const halfP = [-1.413352520780047, 1.8791180666879925, -2.8288574817414691, 4.0581911354009419, 5, 6, 7, 8];
  const interP = [-1.2722325127201799, -1.8388649851410237, 2.8786681004369798, 4.0881866356034369, 5, 6, 7, 8];
  for (const { name, pe } of await backends()) {
    const run = (o) => pe.applyRope(new Float32Array(x), { length: 1, dim: 8, ...o });
    assertClose(run({ offset: 3 }), half, 2e-6, `${name} half`);
    assertClose(run({ offset: 3, layout: 'interleaved' }), inter, 2e-6, `${name} interleaved`);
    assertClose(run({ offset: 3, rotaryDim: 4 }), halfP, 2e-6, `${name} half partial`);
    assertClose(run({ offset: 3, rotaryDim: 4, layout: 'interleaved' }), interP, 2e-6, `${name} interleaved partial`);
    assertClose(run({ positions: new Int32Array([3]) }), half, 2e-6, `${name} positions`);
    assertClose(run({ positions: new Int32Array([3]), offset: 0 }), half, 2e-6, `${name} positions, offset 0`);
    assertClose(run({ positions: new Float32Array([3]), layout: 'interleaved' }), inter, 2e-6, `${name} f32 positions`);
    // with a cache
    const cache = pe.ropeCache({ length: 5, dim: 8 });
    assertClose(run({ offset: 3, cache }), half, 2e-6, `${name} cached`);
    // p = 0 is exactly the identity
    for (const layout of ['half', 'interleaved']) {
      assert.deepEqual(Array.from(run({ layout })), x, `${name} p=0 ${layout}`);
      const y = randomF32(3 * 4 * 10, 5);
      const z = pe.applyRope(Float32Array.from(y), {
        length: 3,
        heads: 4,
        dim: 10,
        layout,
        positions: new Int32Array(3),
      });
      assert.deepEqual(Array.from(z), Array.from(y), `${name} p=0 random ${layout}`);
    }
  }
});

test('relative identity values <R_m q, R_n k> = <q, R_(n-m) k> (Su et al. 2021)', async () => {
  const q = [1, 2, 3, 4, 5, 6, 7, 8],
    k = [0.5, -1, 2, 0.25, -3, 1.5, 0.75, -2];
  for (const { name, pe } of await backends()) {
    for (const [layout, want] of [
      ['half', 15.786177270967741],
      ['interleaved', -6.8550314894994493],
    ]) {
      const r = (v, p) => pe.applyRope(new Float32Array(v), { length: 1, dim: 8, layout, offset: p });
      relClose(dot(r(q, 2), r(k, 5)), want, 2e-6, `${name} ${layout} 2,5`);
      relClose(dot(r(q, 10), r(k, 13)), want, 2e-6, `${name} ${layout} 10,13`);
      relClose(dot(q, r(k, 3)), want, 2e-6, `${name} ${layout} 0,3`);
    }
  }
});

test('dynamic NTK, static NTK and linear (families/rope/rope.md, Frequency scaling)', async () => {
  for (const { name, pe } of await backends()) {
    const dyn = (seqLen) =>
      pe.ropeFrequencies({ dim: 128, scaling: { type: 'dynamic', factor: 2, maxPositions: 2048, seqLen } }).invFreq64;
    assert.deepEqual(
      Array.from(dyn(2048)),
      Array.from(pe.ropeFrequencies({ dim: 128 }).invFreq64),
      `${name} L=M is default`,
    );
    assert.deepEqual(Array.from(dyn(undefined)), Array.from(dyn(1000)), `${name} short seqLen is default`);
    relClose(dyn(4096)[1], 0.85099429134121618, 1e-13, name);
    relClose(dyn(4096)[63], 3.8492732822981941e-5, 1e-13, name);
    relClose(dyn(8192)[1], 0.83962574256431133, 1e-13, name);
    relClose(dyn(8192)[63], 1.649688549556369e-5, 1e-13, name);
    const small = pe.ropeFrequencies({
      dim: 16,
      scaling: { type: 'dynamic', factor: 2, maxPositions: 64, seqLen: 128 },
    }).invFreq64;
    const want = [
      1, 0.27029612569240363, 0.073059995564323646, 0.019747833744140873, 0.0053377629518589912, 0.001442776645751933,
      0.00038997693758622897, 0.00010540925533894597,
    ];
    want.forEach((v, i) => relClose(small[i], v, 1e-13, `${name} dynamic d=16 i=${i}`));
    // static NTK: base * factor^(d/(d-2)); linear: w / factor
    const ntk = pe.ropeFrequencies({ dim: 64, scaling: { type: 'ntk', factor: 4 } }).invFreq64;
    const bp = 10000 * 4 ** (64 / 62);
    ntk.forEach((v, i) => relClose(v, bp ** (-(2 * i) / 64), 1e-13, `${name} ntk i=${i}`));
    const lin = pe.ropeFrequencies({ dim: 64, scaling: { type: 'linear', factor: 4 } });
    lin.invFreq64.forEach((v, i) => relClose(v, 10000 ** (-(2 * i) / 64) / 4, 1e-13, `${name} linear`));
    assert.equal(lin.attentionScale, 1);
  }
});

test('YaRN table (both truncate modes), small vector, attention factors (HF _compute_yarn_parameters)', async () => {
  const rows = [
    [0, 1, 1],
    [10, 0.23713737056616555, 0.23713737056616555],
    [20, 0.056234132519034905, 0.056234132519034905],
    [21, 0.047292038501684786, 0.048612555193470151],
    [22, 0.039736785900001015, 0.040783445844052982],
    [30, 0.009488517882700576, 0.0095744612367552363],
    [33, 0.0054122770210004081, 0.0054084154801854502],
    [40, 0.0013378867023789293, 0.0012856320307266878],
    [45, 0.00042940258899735822, 0.00038627080494978226],
    [46, 0.00033338035804083102, 0.00033338035804083102],
    [63, 2.8869549617236455e-5, 2.8869549617236455e-5],
  ];
  const y = (extra) => ({ dim: 128, scaling: { type: 'yarn', factor: 4, originalMaxPositions: 4096, ...extra } });
  for (const { name, pe } of await backends()) {
    const t = pe.ropeFrequencies(y({}));
    const f = pe.ropeFrequencies(y({ truncate: false }));
    const b = pe.ropeFrequencies(y({ betaFast: 32, betaSlow: 1, truncate: true }));
    assert.deepEqual(Array.from(b.invFreq64), Array.from(t.invFreq64), 'beta defaults');
    for (const [i, vt, vf] of rows) {
      relClose(t.invFreq64[i], vt, 1e-12, `${name} truncate i=${i}`);
      relClose(f.invFreq64[i], vf, 1e-12, `${name} no truncate i=${i}`);
    }
    relClose(t.attentionScale, 1.1386294361119891, 1e-14, name);
    const small = pe.ropeFrequencies({
      dim: 16,
      scaling: { type: 'yarn', factor: 4, originalMaxPositions: 64 },
    }).invFreq64;
    const want = [
      1, 0.23717082451262847, 0.050000000000000003, 0.0079056941504209478, 0.0025000000000000001,
      0.00079056941504209474, 0.00025000000000000001, 7.9056941504209485e-5,
    ];
    want.forEach((v, i) => relClose(small[i], v, 1e-13, `${name} yarn d=16 i=${i}`));
    const att = (s) =>
      pe.ropeFrequencies({ dim: 128, scaling: { type: 'yarn', originalMaxPositions: 4096, ...s } }).attentionScale;
    relClose(att({ factor: 8 }), 1.2079441541679836, 1e-14, name);
    relClose(att({ factor: 32 }), 1.3465735902799727, 1e-14, name);
    relClose(att({ factor: 40 }), 1.3688879454113936, 1e-14, name);
    assert.equal(att({ factor: 40, mscale: 1, mscaleAllDim: 1 }), 1);
    relClose(att({ factor: 40, mscale: 1, mscaleAllDim: 0.707 }), 1.0857263992561355, 1e-14, name);
    relClose(att({ factor: 40, mscale: 1 }), 1.3688879454113936, 1e-14, `${name} mscale alone is ignored`);
    relClose(att({ factor: 40, mscale: 0, mscaleAllDim: 1 }), 1.3688879454113936, 1e-14, `${name} falsy mscale`);
    assert.equal(att({ factor: 4, attentionFactor: 0.75 }), 0.75);
    assert.equal(att({ factor: 0.5 }), 1, 'factor <= 1 gives 1');
    // the "older HF" pitfall value (families/rope/rope.md, YaRN factor): L0 = 16384 moves the ramp
    const old = pe.ropeFrequencies({
      dim: 128,
      scaling: { type: 'yarn', factor: 4, originalMaxPositions: 16384, truncate: false },
    }).invFreq64;
    const ref = refFreqs(128, 10000, { type: 'yarn', factor: 4, originalMaxPositions: 16384, truncate: false }).inv;
    old.forEach((v, i) => relClose(v, ref[i], 1e-12, `${name} L0 16384 i=${i}`));
  }
});

test('longrope (HF _compute_longrope_parameters): attention factors and short/long switch on seqLen', async () => {
  const d = 32;
  const shortFactor = Array.from({ length: d / 2 }, (_, i) => 1 + i / 16);
  const longFactor = Array.from({ length: d / 2 }, (_, i) => 2 + i);
  for (const { name, pe } of await backends()) {
    const lr = (extra) =>
      pe.ropeFrequencies({
        dim: d,
        scaling: { type: 'longrope', shortFactor, longFactor, originalMaxPositions: 4096, ...extra },
      });
    relClose(lr({ factor: 32 }).attentionScale, 1.1902380714238083, 1e-14, name);
    relClose(lr({ factor: 16 }).attentionScale, 1.1547005383792517, 1e-14, name);
    relClose(
      lr({ maxPositions: 131072 }).attentionScale,
      1.1902380714238083,
      1e-14,
      `${name} factor from maxPositions`,
    );
    assert.equal(lr({}).attentionScale, 1);
    assert.equal(lr({ factor: 32, attentionFactor: 1.5 }).attentionScale, 1.5);
    for (const seqLen of [undefined, 100, 4096, 4097, 100000]) {
      const got = lr({ factor: 32, seqLen }).invFreq64;
      const want = refFreqs(d, 10000, {
        type: 'longrope',
        shortFactor,
        longFactor,
        originalMaxPositions: 4096,
        factor: 32,
        seqLen,
      }).inv;
      want.forEach((v, i) => relClose(got[i], v, 1e-13, `${name} seqLen=${seqLen} i=${i}`));
      const useLong = seqLen !== undefined && seqLen > 4096;
      relClose(got[3], 1 / ((useLong ? longFactor : shortFactor)[3] * 10000 ** (6 / d)), 1e-13, 'switch');
    }
    // Float64Array lists are accepted too
    const fa = pe.ropeFrequencies({
      dim: d,
      scaling: {
        type: 'longrope',
        shortFactor: Float64Array.from(shortFactor),
        longFactor: Float64Array.from(longFactor),
        originalMaxPositions: 4096,
      },
    });
    assert.deepEqual(Array.from(fa.invFreq64), Array.from(lr({}).invFreq64));
  }
});

test('llama3 table and small vector (HF _compute_llama3_parameters)', async () => {
  const rows = [
    [28, 0.003211445994752591],
    [29, 0.00216657076350336],
    [30, 0.001371893567761138],
    [31, 0.0008567514129196324],
    [32, 0.0005248461609929547],
    [33, 0.0003126937503840652],
    [34, 0.0001785078127679964],
    [35, 9.556212353964683e-5],
    [40, 3.4281021959525912e-5],
    [63, 3.0689259889145111e-7],
  ];
  for (const { name, pe } of await backends()) {
    const a = pe.ropeFrequencies({ dim: 128, base: 500000, scaling: { type: 'llama3' } });
    const b = pe.ropeFrequencies({
      dim: 128,
      base: 500000,
      scaling: { type: 'llama3', factor: 8, lowFreqFactor: 1, highFreqFactor: 4, originalMaxPositions: 8192 },
    });
    assert.deepEqual(Array.from(a.invFreq64), Array.from(b.invFreq64), 'defaults');
    assert.equal(a.attentionScale, 1);
    for (const [i, v] of rows) relClose(a.invFreq64[i], v, 1e-12, `${name} i=${i}`);
    const w = (i) => 500000 ** (-(2 * i) / 128);
    let kept = 0,
      divided = 0;
    for (let i = 0; i < 64; i++) {
      if (Math.abs(a.invFreq64[i] - w(i)) <= 1e-15 * w(i)) kept++;
      else if (Math.abs(a.invFreq64[i] - w(i) / 8) <= 1e-15 * w(i)) divided++;
    }
    assert.equal(kept, 29);
    assert.equal(divided, 29);
    const small = pe.ropeFrequencies({
      dim: 16,
      scaling: { type: 'llama3', factor: 4, lowFreqFactor: 1, highFreqFactor: 4, originalMaxPositions: 64 },
    }).invFreq64;
    const want = [
      1, 0.25464790894703254, 0.025464790894703257, 0.0079056941504209478, 0.0025000000000000001,
      0.00079056941504209474, 0.00025000000000000001, 7.9056941504209485e-5,
    ];
    want.forEach((v, i) => relClose(small[i], v, 1e-13, `${name} llama3 d=16 i=${i}`));
  }
});

test('RoFormer decay table (Su et al. 2021 §3.4.3)', async () => {
  const table = {
    0: 32.5,
    1: 31.538166,
    2: 28.955988,
    4: 22.604043,
    8: 19.817395,
    16: 15.774951,
    32: 13.384314,
    64: 10.089942,
    128: 9.2729027,
    256: 6.5430973,
    512: 5.3113662,
    1024: 4.0241134,
    2048: 3.6185154,
    4096: 4.8827922,
  };
  for (const { name, pe } of await backends()) {
    const c = pe.ropeDecay({ dim: 128, maxDistance: 4096 });
    assert.equal(c.length, 4097);
    for (const [k, v] of Object.entries(table)) relClose(c[k], v, 2e-7, `${name} distance ${k}`);
    const small = pe.ropeDecay({ dim: 8, base: 100, maxDistance: 3 });
    assert.equal(small[0], 2.5);
  }
});

// ---- float64 reference at many sizes ----
test('cache: float64 reference at many sizes, offsets, scalings (<= 2e-6 x scale)', async () => {
  const cases = [
    { length: 1, dim: 2 },
    { length: 3, dim: 6 },
    { length: 63, dim: 10 },
    { length: 64, dim: 8 },
    { length: 65, dim: 14, offset: 7 },
    { length: 200, dim: 128 },
    { length: 130, dim: 66, base: 500000, offset: 12345 },
    { length: 300, dim: 96, offset: 2 ** 20 - 300 },
    { length: 70, dim: 64, rotaryDim: 16 },
    { length: 100, dim: 64, offset: -50.5 },
    { length: 100, dim: 128, scaling: { type: 'yarn', factor: 4, originalMaxPositions: 64 } },
    { length: 50, dim: 64, base: 500000, scaling: { type: 'llama3', originalMaxPositions: 64 } },
    { length: 129, dim: 32, scaling: { type: 'dynamic', factor: 2, maxPositions: 64 } },
  ];
  for (const { name, pe } of await backends()) {
    for (const c of cases) {
      const { cos, sin, attentionScale } = pe.ropeCache(c);
      const rd = c.rotaryDim ?? c.dim,
        n = rd / 2;
      const sc = { ...(c.scaling ?? {}) };
      if (sc.type === 'dynamic') sc.seqLen = (c.offset ?? 0) + c.length;
      const { inv, att } = refFreqs(rd, c.base, sc);
      assert.equal(attentionScale, att);
      assert.equal(cos.length, c.length * n);
      let err = 0;
      for (let r = 0; r < c.length; r++)
        for (let i = 0; i < n; i++) {
          const a = ((c.offset ?? 0) + r) * inv[i];
          err = Math.max(
            err,
            Math.abs(cos[r * n + i] - att * Math.cos(a)),
            Math.abs(sin[r * n + i] - att * Math.sin(a)),
          );
        }
      assert.ok(err <= 2e-6 * att, `${name} ${JSON.stringify(c)}: ${err}`);
    }
  }
});

test('cache precision near 2^20 (float32 angles would be 0.06 off)', async () => {
  for (const { name, pe } of await backends()) {
    const L = 2000,
      off = 2 ** 20 - 1000;
    const { cos, sin } = pe.ropeCache({ length: L, dim: 128, offset: off });
    let err = 0;
    const inv = refFreqs(128).inv;
    for (let r = 0; r < L; r += 7)
      for (let i = 0; i < 64; i++) {
        const a = (off + r) * inv[i];
        err = Math.max(err, Math.abs(cos[r * 64 + i] - Math.cos(a)), Math.abs(sin[r * 64 + i] - Math.sin(a)));
      }
    assert.ok(err <= 2e-6, `${name}: ${err}`);
    // the same positions through applyRope (cache-free) and explicit int positions
    const x = randomF32(L * 2 * 128, 9);
    const want = refApply(x, { length: L, heads: 2, dim: 128, offset: off });
    assert.ok(
      maxAbsDiff(pe.applyRope(Float32Array.from(x), { length: L, heads: 2, dim: 128, offset: off }), want) <= 2e-6,
      name,
    );
    const pos = Int32Array.from({ length: L }, (_, t) => off + L - 1 - t);
    const want2 = refApply(x, { length: L, heads: 2, dim: 128, positions: pos });
    assert.ok(
      maxAbsDiff(pe.applyRope(Float32Array.from(x), { length: L, heads: 2, dim: 128, positions: pos }), want2) <= 2e-6,
      `${name} positions`,
    );
  }
});

test('applyRope: float64 reference at many sizes, layouts, orders, positions', async () => {
  const r = rng(3);
  const cases = [];
  for (const dim of [2, 4, 6, 8, 10, 14, 16, 18, 64, 66, 128, 130]) {
    for (const layout of ['half', 'interleaved']) {
      const rotaryDim = dim > 8 && dim % 4 === 0 ? dim / 2 : dim;
      cases.push({
        length: 1 + ((dim * 7) % 70),
        heads: 1 + (dim % 3),
        dim,
        rotaryDim,
        layout,
        order: dim % 4 ? 'htd' : 'thd',
        offset: (dim * 13) % 97,
      });
    }
  }
  cases.push({
    length: 150,
    heads: 3,
    dim: 64,
    layout: 'interleaved',
    order: 'htd',
    base: 500000,
    scaling: { type: 'llama3', originalMaxPositions: 32 },
  });
  cases.push({ length: 70, heads: 2, dim: 32, scaling: { type: 'yarn', factor: 8, originalMaxPositions: 16 } });
  cases.push({ length: 90, heads: 2, dim: 32, scaling: { type: 'dynamic', factor: 2, maxPositions: 40 } });
  cases.push({
    length: 90,
    heads: 1,
    dim: 8,
    scaling: {
      type: 'longrope',
      shortFactor: [1, 1.5, 2, 3],
      longFactor: [1, 4, 8, 16],
      originalMaxPositions: 50,
      factor: 4,
    },
  });
  // packed sequences, reversed, repeated and random positions
  const packed = Int32Array.from({ length: 150 }, (_, t) => (t < 70 ? t : t - 70));
  cases.push({ length: 150, heads: 2, dim: 24, positions: packed, layout: 'interleaved' });
  cases.push({
    length: 100,
    heads: 2,
    dim: 20,
    positions: Int32Array.from({ length: 100 }, () => Math.floor((r() + 1) * 5000)),
  });
  cases.push({
    length: 80,
    heads: 1,
    dim: 16,
    positions: Int32Array.from({ length: 80 }, (_, t) => 3 * t - 100),
    order: 'htd',
  });
  cases.push({ length: 66, heads: 2, dim: 12, positions: Float32Array.from({ length: 66 }, (_, t) => t * 0.25) });
  cases.push({
    length: 40,
    heads: 1,
    dim: 12,
    positions: Float32Array.from({ length: 40 }, () => (r() + 1) * 300),
    layout: 'interleaved',
  });
  cases.push({
    length: 90,
    heads: 1,
    dim: 8,
    positions: Int32Array.from({ length: 90 }, (_, t) => t + 10),
    scaling: { type: 'longrope', shortFactor: [1, 1.5, 2, 3], longFactor: [1, 4, 8, 16], originalMaxPositions: 50 },
  });
  for (const { name, pe } of await backends()) {
    for (const c of cases) {
      const n = c.length * (c.heads ?? 1) * c.dim;
      const x = randomF32(n, c.dim + c.length);
      const got = pe.applyRope(Float32Array.from(x), c);
      const err = maxAbsDiff(got, refApply(x, c));
      const att = c.scaling?.type === 'yarn' || c.scaling?.type === 'longrope' ? 1.5 : 1;
      assert.ok(err <= 3e-6 * att, `${name} ${JSON.stringify({ ...c, positions: c.positions?.length })}: ${err}`);
    }
  }
});

test('applying with a cache adds <= 2e-7 relative error (per pair, vs float64 with the same cos/sin)', async () => {
  for (const { name, pe } of await backends()) {
    for (const layout of ['half', 'interleaved']) {
      const L = 300,
        H = 3,
        D = 64,
        n = D / 2;
      const cache = pe.ropeCache({ length: L, dim: D, offset: 0 });
      const x = randomF32(L * H * D, 71);
      const got = pe.applyRope(Float32Array.from(x), { length: L, heads: H, dim: D, layout, cache });
      let worst = 0;
      for (let t = 0; t < L; t++)
        for (let h = 0; h < H; h++) {
          const o = (t * H + h) * D;
          for (let i = 0; i < n; i++) {
            const [a, b] = layout === 'half' ? [o + i, o + n + i] : [o + 2 * i, o + 2 * i + 1];
            const c = cache.cos[t * n + i],
              s = cache.sin[t * n + i],
              u = x[a],
              v = x[b];
            const norm = Math.hypot(u, v);
            if (norm === 0) continue;
            worst = Math.max(worst, Math.hypot(got[a] - (u * c - v * s), got[b] - (v * c + u * s)) / norm);
          }
        }
      assert.ok(worst <= 2e-7, `${name} ${layout}: ${worst}`);
    }
  }
});

test('identities on random data: relative property, norm, thd == htd, partial tail bit-identical', async () => {
  for (const { name, pe } of await backends()) {
    for (const layout of ['half', 'interleaved']) {
      const D = 64;
      const q = randomF32(D, 11),
        k = randomF32(D, 12);
      const rot = (v, p) => pe.applyRope(Float32Array.from(v), { length: 1, dim: D, layout, offset: p });
      for (const [m, nn] of [
        [0, 7],
        [5, 100],
        [1000, 1003],
        [70000, 69000],
      ]) {
        const lhs = dot(rot(q, m), rot(k, nn)),
          rhs = dot(q, rot(k, nn - m));
        assert.ok(
          Math.abs(lhs - rhs) <= 1e-5 * Math.sqrt(dot(q, q) * dot(k, k)),
          `${name} ${layout} ${m},${nn}: ${lhs} vs ${rhs}`,
        );
        relClose(Math.sqrt(dot(rot(q, m), rot(q, m))), Math.sqrt(dot(q, q)), 1e-6, `${name} norm`);
      }
      // thd and htd give the same numbers (bit-identical) for the transposed data
      const L = 77,
        H = 5,
        Dm = 40;
      const x = randomF32(L * H * Dm, 13);
      const xt = new Float32Array(x.length);
      for (let t = 0; t < L; t++)
        for (let h = 0; h < H; h++) xt.set(x.subarray((t * H + h) * Dm, (t * H + h + 1) * Dm), (h * L + t) * Dm);
      const a = pe.applyRope(Float32Array.from(x), { length: L, heads: H, dim: Dm, layout, offset: 9 });
      const b = pe.applyRope(Float32Array.from(xt), { length: L, heads: H, dim: Dm, layout, offset: 9, order: 'htd' });
      for (let t = 0; t < L; t++)
        for (let h = 0; h < H; h++) {
          assert.deepEqual(
            a.subarray((t * H + h) * Dm, (t * H + h + 1) * Dm),
            b.subarray((h * L + t) * Dm, (h * L + t + 1) * Dm),
            `${name} thd/htd`,
          );
        }
      // partial rotary: the tail is bit-identical, the rotated part matches a full rotation of width rotaryDim
      const y = randomF32(L * H * Dm, 14);
      const p = pe.applyRope(Float32Array.from(y), { length: L, heads: H, dim: Dm, rotaryDim: 12, layout, offset: 3 });
      for (let row = 0; row < L * H; row++) {
        assert.deepEqual(p.subarray(row * Dm + 12, (row + 1) * Dm), y.subarray(row * Dm + 12, (row + 1) * Dm));
      }
      // cached == cache-free (within float32 rounding), with offset and with positions
      const cache = pe.ropeCache({ length: 200, dim: Dm });
      const c1 = pe.applyRope(Float32Array.from(x), { length: L, heads: H, dim: Dm, layout, offset: 9, cache });
      assert.ok(maxAbsDiff(c1, a) <= 1e-6, `${name} cached`);
      const pos = Int32Array.from({ length: L }, (_, t) => (t * 37) % 200);
      const c2 = pe.applyRope(Float32Array.from(x), { length: L, heads: H, dim: Dm, layout, positions: pos, cache });
      const c3 = pe.applyRope(Float32Array.from(x), { length: L, heads: H, dim: Dm, layout, positions: pos });
      assert.ok(maxAbsDiff(c2, c3) <= 1e-6, `${name} cached positions`);
    }
  }
});

test('xPos (Sun et al. 2022, arXiv:2212.10554): scale vectors and the relative property', async () => {
  const qs0 = [1.004905598587742, 1.003001586206125, 1.001727399427069, 1.000768694881491];
  const ks0 = [0.9951183488333272, 0.9970073963517061, 0.9982755793361976, 0.9992318955564631];
  const qs3 = [0.9975561883088727, 0.9985025770380896, 0.9991374176439383, 0.9996158740018403];
  for (const { name, pe } of await backends()) {
    const x = randomF32(4 * 8, 21);
    const plain = pe.applyRope(Float32Array.from(x), { length: 4, dim: 8, layout: 'interleaved' });
    const q = pe.applyRope(Float32Array.from(x), { length: 4, dim: 8, layout: 'interleaved', xpos: {} });
    const k = pe.applyRope(Float32Array.from(x), { length: 4, dim: 8, layout: 'interleaved', xpos: { key: true } });
    const ratio = (a, t, i) =>
      Math.hypot(a[t * 8 + 2 * i], a[t * 8 + 2 * i + 1]) / Math.hypot(plain[t * 8 + 2 * i], plain[t * 8 + 2 * i + 1]);
    for (let i = 0; i < 4; i++) {
      relClose(ratio(q, 0, i), qs0[i], 1e-6, `${name} q t=0 i=${i}`);
      relClose(ratio(k, 0, i), ks0[i], 1e-6, `${name} k t=0 i=${i}`);
      relClose(ratio(q, 3, i), qs3[i], 1e-6, `${name} q t=3 i=${i}`);
      relClose(ratio(q, 2, i), 1, 1e-6, `${name} t=2 centre`);
    }
    assertClose(
      q,
      refApply(x, { length: 4, dim: 8, layout: 'interleaved', xpos: { scaleBase: 512, center: 2 } }),
      2e-6,
      `${name} q ref`,
    );
    // long sequences (several 64-token blocks) with an offset, and explicit positions
    for (const layout of ['half', 'interleaved']) {
      const c = {
        length: 200,
        heads: 2,
        dim: 16,
        layout,
        offset: 1000,
        xpos: { scaleBase: 512, center: 1100, key: layout === 'half' },
      };
      const xs = randomF32(200 * 2 * 16, 24);
      assertClose(pe.applyRope(Float32Array.from(xs), c), refApply(xs, c), 3e-6, `${name} xpos long ${layout}`);
      const pos = Int32Array.from({ length: 200 }, (_, t) => (t * 7) % 300);
      const c2 = { length: 200, heads: 2, dim: 16, layout, positions: pos, xpos: { scaleBase: 256 } };
      assertClose(
        pe.applyRope(Float32Array.from(xs), c2),
        refApply(xs, { ...c2, xpos: { scaleBase: 256, center: 100 } }),
        3e-6,
        `${name} xpos positions ${layout}`,
      );
    }
    // <q_m, k_n> depends on m - n only (shift both by 50, with explicit positions and a centre)
    const D = 32,
      qv = randomF32(D, 22),
      kv = randomF32(D, 23);
    const xq = (p) =>
      pe.applyRope(Float32Array.from(qv), {
        length: 1,
        dim: D,
        positions: new Int32Array([p]),
        xpos: { scaleBase: 64, center: 10 },
      });
    const xk = (p) =>
      pe.applyRope(Float32Array.from(kv), {
        length: 1,
        dim: D,
        positions: new Int32Array([p]),
        xpos: { scaleBase: 64, center: 10, key: true },
      });
    relClose(dot(xq(30), xk(5)), dot(xq(80), xk(55)), 2e-5, `${name} xpos relative`);
  }
});

// microsoft/torchscale xpos_relative_position.py, XPOS.forward(x, offset, downscale) in float64:
// x is [length][dim] (one head), pairs interleaved (rotate_every_two, duplicate_interleave); the
// positions are 0 .. length + offset - 1 with the last `length` kept; scale 1 sits at
// -min_pos = ceil((length + offset) / 2), since Python's -(n) // 2 floors.
function torchscaleXpos(x, length, dim, offset, downscale, scaleBase = 512) {
  const minPos = Math.floor(-(length + offset) / 2);
  const out = new Float64Array(length * dim);
  for (let t = 0; t < length; t++) {
    const p = offset + t; // the row of arange(min_pos, max_pos) kept for token t
    for (let i = 0; i < dim / 2; i++) {
      let scale = ((2 * i + 0.4 * dim) / (1.4 * dim)) ** ((p + minPos) / scaleBase);
      if (downscale) scale = 1 / scale;
      const angle = p * 10000 ** (-i / (dim / 2));
      const [a, b] = [x[t * dim + 2 * i], x[t * dim + 2 * i + 1]];
      out[t * dim + 2 * i] = (a * Math.cos(angle) - b * Math.sin(angle)) * scale;
      out[t * dim + 2 * i + 1] = (b * Math.cos(angle) + a * Math.sin(angle)) * scale;
    }
  }
  return out;
}

test("xPos follows torchscale's XPOS.forward given its center, ceil((length + offset) / 2)", async () => {
  for (const { name, pe } of await backends()) {
    for (const [length, dim, offset] of [
      [5, 8, 0],
      [7, 16, 3],
      [6, 8, 0],
      [33, 32, 1000],
    ]) {
      const x = randomF32(length * dim, length + dim);
      const center = Math.ceil((length + offset) / 2);
      for (const key of [false, true]) {
        const opts = { length, dim, layout: 'interleaved', offset, xpos: { scaleBase: 64, center, key } };
        const got = pe.applyRope(Float32Array.from(x), opts);
        const want = torchscaleXpos(x, length, dim, offset, key, 64);
        const big = Math.max(1, ...want.map(Math.abs)); // keys at offset 1000 are scaled up ~1e4
        assertClose(got, want, 3e-6 * big, `${name} L=${length} d=${dim} offset=${offset} key=${key}`);
      }
      // the default center is lucidrains' floor(length / 2): torchscale's at an even length and no offset only
      const dflt = pe.applyRope(Float32Array.from(x), {
        length,
        dim,
        layout: 'interleaved',
        offset,
        xpos: { scaleBase: 64 },
      });
      const same = (length + offset) % 2 === 0 && offset === 0;
      const diff = Math.max(...dflt.map((v, k) => Math.abs(v - torchscaleXpos(x, length, dim, offset, false, 64)[k])));
      assert.equal(
        diff < 3e-6,
        same,
        `${name} L=${length} offset=${offset}: default center vs torchscale (max diff ${diff})`,
      );
    }
  }
});

test('2-D axial RoPE (lucidrains get_axial_freqs): row block and column block', async () => {
  for (const { name, pe } of await backends()) {
    for (const layout of ['half', 'interleaved']) {
      const H = 5,
        W = 7,
        heads = 2,
        dim = 20,
        rotaryDim = 16;
      const x = randomF32(H * W * heads * dim, 31);
      const got = pe.applyRope(Float32Array.from(x), { dim, rotaryDim, heads, layout, axial: { height: H, width: W } });
      // reference: 1-D RoPE of width rotaryDim/2 on each block, with the row / column coordinate
      const want = Float64Array.from(x);
      const inv = refFreqs(rotaryDim / 2).inv,
        n = rotaryDim / 4;
      for (let t = 0; t < H * W; t++)
        for (let h = 0; h < heads; h++) {
          for (const [blk, p] of [
            [0, Math.floor(t / W)],
            [1, t % W],
          ]) {
            const o = (t * heads + h) * dim + blk * (rotaryDim / 2);
            for (let i = 0; i < n; i++) {
              const [a, b] = layout === 'half' ? [o + i, o + n + i] : [o + 2 * i, o + 2 * i + 1];
              const c = Math.cos(p * inv[i]),
                s = Math.sin(p * inv[i]),
                u = want[a],
                v = want[b];
              want[a] = u * c - v * s;
              want[b] = v * c + u * s;
            }
          }
        }
      assert.ok(maxAbsDiff(got, want) <= 2e-6, `${name} ${layout}`);
      for (let row = 0; row < H * W * heads; row++)
        assert.deepEqual(
          got.subarray(row * dim + rotaryDim, (row + 1) * dim),
          x.subarray(row * dim + rotaryDim, (row + 1) * dim),
        );
    }
  }
});

test('SIMD and scalar builds agree (<= 1e-6)', async () => {
  const [simd, scalar] = await backends();
  for (const c of [
    { length: 300, heads: 4, dim: 128, layout: 'half' },
    { length: 300, heads: 4, dim: 128, layout: 'interleaved', order: 'htd', offset: 5000 },
    { length: 97, heads: 3, dim: 46, rotaryDim: 30, layout: 'interleaved' },
    { length: 97, heads: 3, dim: 46, rotaryDim: 22 },
  ]) {
    const x = randomF32(c.length * c.heads * c.dim, 41);
    assert.ok(
      maxAbsDiff(simd.pe.applyRope(Float32Array.from(x), c), scalar.pe.applyRope(Float32Array.from(x), c)) <= 1e-6,
      JSON.stringify(c),
    );
    const cache = simd.pe.ropeCache({ length: 6000, dim: c.dim, rotaryDim: c.rotaryDim });
    const cc = { ...c, cache };
    // with one cache the SIMD kernels do exactly the scalar float32 operations: bit-identical
    assert.deepEqual(
      simd.pe.applyRope(Float32Array.from(x), cc),
      scalar.pe.applyRope(Float32Array.from(x), cc),
      `cached ${JSON.stringify(c)}`,
    );
  }
  const a = simd.pe.ropeCache({ length: 500, dim: 130, offset: 77 }),
    b = scalar.pe.ropeCache({ length: 500, dim: 130, offset: 77 });
  assert.ok(maxAbsDiff(a.cos, b.cos) <= 1e-6 && maxAbsDiff(a.sin, b.sin) <= 1e-6);
});

test('zero-copy buffers: x, positions and cache as posenc buffers', async () => {
  const [{ pe }] = await backends();
  const x = pe.alloc(4 * 2 * 8);
  const pos = pe.alloc(4, 'int32');
  try {
    const src = randomF32(64, 51);
    x.array.set(src);
    pos.array.set([3, 1, 4, 1]);
    assert.equal(pe.applyRope(x, { length: 4, heads: 2, dim: 8, positions: pos }), x);
    const want = refApply(src, { length: 4, heads: 2, dim: 8, positions: [3, 1, 4, 1] });
    assert.ok(maxAbsDiff(x.array, want) <= 2e-6);
    const out = new Float32Array(64);
    out.set(src);
    assert.equal(pe.applyRope(out, { length: 4, heads: 2, dim: 8, positions: new Int32Array([3, 1, 4, 1]) }), out);
    assert.deepEqual(Array.from(out), Array.from(x.array));
  } finally {
    x.free();
    pos.free();
  }
});

test('throw-tests: every export names its argument and range', async () => {
  const [{ pe }] = await backends();
  const x8 = () => new Float32Array(8);
  for (const bad of BAD_SIZES) {
    assertThrowsPosenc(() => pe.ropeFrequencies({ dim: bad }), /dim must be an integer in \[1, /);
    assertThrowsPosenc(() => pe.ropeCache({ length: bad, dim: 8 }), /length must be an integer in \[1, /);
    assertThrowsPosenc(() => pe.ropeCache({ length: 2, dim: bad }), /dim must be an integer/);
    assertThrowsPosenc(() => pe.applyRope(x8(), { length: bad, dim: 8 }), /length must be an integer in \[1, /);
    assertThrowsPosenc(() => pe.applyRope(x8(), { length: 1, dim: bad }), /dim must be an integer/);
    assertThrowsPosenc(
      () => pe.applyRope(x8(), { length: 1, dim: 8, heads: bad }),
      /heads must be an integer in \[1, /,
    );
    assertThrowsPosenc(() => pe.ropeDecay({ dim: bad, maxDistance: 4 }), /dim must be an integer/);
  }
  for (const bad of [-1, 1.5, NaN, '3'])
    assertThrowsPosenc(() => pe.ropeDecay({ dim: 8, maxDistance: bad }), /maxDistance must be an integer in \[0, /);
  assertThrowsPosenc(() => pe.ropeDecay({ dim: 7, maxDistance: 3 }), /dim must be even/, Status.E_ODD);
  assertThrowsPosenc(() => pe.ropeDecay({ dim: 8 }), /maxDistance is required/, Status.E_MISSING);
  // odd dim / rotaryDim, rotaryDim > dim
  assertThrowsPosenc(() => pe.ropeFrequencies({ dim: 7 }), /dim must be even/, Status.E_ODD);
  assertThrowsPosenc(() => pe.ropeFrequencies({ dim: 8, rotaryDim: 5 }), /rotaryDim must be even/, Status.E_ODD);
  assertThrowsPosenc(() => pe.ropeFrequencies({ dim: 8, rotaryDim: 10 }), /rotaryDim must be an integer in \[2, 8\]/);
  assertThrowsPosenc(() => pe.ropeCache({ length: 2, dim: 9 }), /dim must be even/, Status.E_ODD);
  assertThrowsPosenc(() => pe.ropeCache({ length: 2, dim: 8, rotaryDim: 3 }), /rotaryDim must be even/);
  assertThrowsPosenc(() => pe.applyRope(new Float32Array(7), { length: 1, dim: 7 }), /dim must be even/, Status.E_ODD);
  assertThrowsPosenc(() => pe.applyRope(x8(), { length: 1, dim: 8, rotaryDim: 7 }), /rotaryDim must be even/);
  assertThrowsPosenc(
    () => pe.applyRope(x8(), { length: 1, dim: 8, rotaryDim: 16 }),
    /rotaryDim must be an integer in \[2, 8\]/,
  );
  for (const base of [1, 0, -2, NaN, Infinity, '1e4']) {
    assertThrowsPosenc(() => pe.ropeFrequencies({ dim: 8, base }), /base must be a finite number in \(1, /);
    assertThrowsPosenc(() => pe.applyRope(x8(), { length: 1, dim: 8, base }), /base must be a finite number in \(1, /);
  }
  // wrong array length / type
  assertThrowsPosenc(
    () => pe.applyRope(new Float32Array(7), { length: 1, dim: 8 }),
    /x must be a Float32Array or posenc buffer of length × heads × dim = 1 × 1 × 8 = 8 elements \(got Float32Array\(7\)\)/,
  );
  assertThrowsPosenc(() => pe.applyRope(new Float64Array(8), { length: 1, dim: 8 }), /x must be a Float32Array/);
  assertThrowsPosenc(() => pe.applyRope([1, 2, 3, 4, 5, 6, 7, 8], { length: 1, dim: 8 }), /x must be a Float32Array/);
  assertThrowsPosenc(() => pe.applyRope(undefined, { length: 1, dim: 8 }), /x is required/);
  assertThrowsPosenc(
    () => pe.applyRope(new Float32Array(16), { length: 2, dim: 8, positions: new Int32Array(3) }),
    /positions must be a Int32Array or posenc buffer of length 2 \(got Int32Array\(3\)\)/,
  );
  assertThrowsPosenc(
    () => pe.applyRope(new Float32Array(16), { length: 2, dim: 8, positions: [0, 1] }),
    /positions must be an Int32Array or Float32Array/,
  );
  assertThrowsPosenc(
    () => pe.applyRope(new Float32Array(16), { length: 2, dim: 8, positions: new Float32Array([0, NaN]) }),
    /applyRope/,
  );
  assertThrowsPosenc(
    () => pe.applyRope(new Float32Array(16), { length: 2, dim: 8, positions: new Int32Array(2), offset: 1 }),
    /offset must be 0 or omitted when positions are given/,
  );
  assertThrowsPosenc(
    () => pe.applyRope(x8(), { length: 1, dim: 8, layout: 'neox' }),
    /layout must be one of 'half', 'interleaved'/,
    Status.E_ENUM,
  );
  assertThrowsPosenc(
    () => pe.applyRope(x8(), { length: 1, dim: 8, order: 'bhtd' }),
    /order must be one of 'thd', 'htd'/,
    Status.E_ENUM,
  );
  assertThrowsPosenc(() => pe.applyRope(x8(), { length: 1, dim: 8, offset: NaN }), /offset must be a finite number/);
  assertThrowsPosenc(() => pe.applyRope(x8(), { length: 1, dim: 8, lenght: 1 }), /unknown option "lenght"/);
  // cache problems
  const cache = pe.ropeCache({ length: 4, dim: 8 });
  assertThrowsPosenc(
    () => pe.applyRope(x8(), { length: 1, dim: 8, cache, offset: 4 }),
    /offset must be at most cache rows - length = 3/,
    Status.E_RANGE,
  );
  assertThrowsPosenc(
    () => pe.applyRope(x8(), { length: 1, dim: 8, cache, positions: new Int32Array([9]) }),
    /positions must be cache rows in \[0, 3\]/,
    Status.E_RANGE,
  );
  assertThrowsPosenc(
    () => pe.applyRope(x8(), { length: 1, dim: 8, cache: { cos: cache.cos, sin: new Float32Array(3) } }),
    /cache.sin must be a Float32Array or posenc buffer of length 16/,
  );
  assertThrowsPosenc(
    () => pe.applyRope(x8(), { length: 1, dim: 8, cache, base: 500 }),
    /base must be omitted with cache/,
  );
  assertThrowsPosenc(
    () => pe.ropeCache({ length: 2, dim: 8, cos: new Float32Array(7) }),
    /cos must be a Float32Array or posenc buffer of length 8/,
  );
  // axial
  assertThrowsPosenc(
    () => pe.applyRope(new Float32Array(48), { dim: 8, rotaryDim: 6, axial: { height: 2, width: 3 } }),
    /rotaryDim must be a multiple of 4/,
  );
  assertThrowsPosenc(
    () => pe.applyRope(new Float32Array(48), { length: 5, dim: 8, axial: { height: 2, width: 3 } }),
    /length must be axial.height \* axial.width = 6/,
  );
  assertThrowsPosenc(
    () => pe.applyRope(new Float32Array(48), { dim: 8, axial: { height: 0, width: 3 } }),
    /axial.height must be an integer/,
  );
  assertThrowsPosenc(
    () => pe.applyRope(x8(), { length: 1, dim: 8, xpos: { scaleBase: 0 } }),
    /xpos.scaleBase must be a finite number in \(0, /,
  );
  // scaling: unknown type lists the allowed ones; missing keys are named
  assertThrowsPosenc(
    () => pe.ropeFrequencies({ dim: 8, scaling: { type: 'ntk-by-parts' } }),
    /scaling.type must be one of 'default', 'linear', 'ntk', 'dynamic', 'yarn', 'longrope', 'llama3'/,
    Status.E_ENUM,
  );
  assertThrowsPosenc(
    () => pe.applyRope(x8(), { length: 1, dim: 8, scaling: { type: 'su' } }),
    /scaling.type must be one of/,
  );
  const missing = [
    [{ type: 'linear' }, 'factor'],
    [{ type: 'ntk' }, 'factor'],
    [{ type: 'dynamic', factor: 2 }, 'maxPositions'],
    [{ type: 'dynamic', maxPositions: 2 }, 'factor'],
    [{ type: 'yarn', factor: 4 }, 'originalMaxPositions'],
    [{ type: 'yarn', originalMaxPositions: 4 }, 'factor'],
    [{ type: 'longrope', shortFactor: [1, 1, 1, 1], longFactor: [1, 1, 1, 1] }, 'originalMaxPositions'],
    [{ type: 'longrope', longFactor: [1, 1, 1, 1], originalMaxPositions: 64 }, 'shortFactor'],
    [{ type: 'longrope', shortFactor: [1, 1, 1, 1], originalMaxPositions: 64 }, 'longFactor'],
  ];
  for (const [scaling, key] of missing) {
    for (const call of [
      () => pe.ropeFrequencies({ dim: 8, scaling }),
      () => pe.ropeCache({ length: 2, dim: 8, scaling }),
      () => pe.applyRope(x8(), { length: 1, dim: 8, scaling }),
    ]) {
      assertThrowsPosenc(
        call,
        new RegExp(`scaling\\.${key} is required for scaling type '${scaling.type}'`),
        Status.E_MISSING,
      );
    }
  }
  assertThrowsPosenc(
    () => pe.ropeFrequencies({ dim: 8, scaling: { type: 'linear', factor: 0 } }),
    /scaling.factor must be a finite number in \(0, /,
  );
  assertThrowsPosenc(
    () => pe.ropeFrequencies({ dim: 8, scaling: { type: 'linear', factor: 2, betaFast: 3 } }),
    /unknown option "betaFast"/,
  );
  assertThrowsPosenc(
    () => pe.ropeFrequencies({ dim: 8, scaling: { type: 'yarn', factor: 2, originalMaxPositions: 64, truncate: 1 } }),
    /scaling.truncate must be true or false/,
  );
  assertThrowsPosenc(
    () =>
      pe.ropeFrequencies({
        dim: 8,
        scaling: { type: 'longrope', shortFactor: [1, 1, 1], longFactor: [1, 1, 1, 1], originalMaxPositions: 64 },
      }),
    /scaling.shortFactor must be an array of rotaryDim\/2 = 4 positive finite numbers/,
  );
  assertThrowsPosenc(
    () =>
      pe.ropeFrequencies({
        dim: 8,
        scaling: { type: 'longrope', shortFactor: [1, 1, 1, 1], longFactor: [1, 0, 1, 1], originalMaxPositions: 64 },
      }),
    /scaling.longFactor must be/,
  );
  assertThrowsPosenc(
    () => pe.ropeFrequencies({ dim: 8, scaling: { type: 'llama3', lowFreqFactor: 4, highFreqFactor: 2 } }),
    /scaling.highFreqFactor must be a finite number in \(4, /,
  );
  // rotaryDim 2: the base change of ntk/dynamic is irrelevant to the single pair (b^0 = 1)
  assert.deepEqual(Array.from(pe.ropeFrequencies({ dim: 2, scaling: { type: 'ntk', factor: 2 } }).invFreq64), [1]);
  assert.deepEqual(
    Array.from(
      pe.ropeFrequencies({ dim: 2, scaling: { type: 'dynamic', factor: 2, maxPositions: 8, seqLen: 4 } }).invFreq64,
    ),
    [1],
  );
  assertThrowsPosenc(() => pe.ropeFrequencies({ dim: 8, scaling: 'yarn' }), /scaling must be an object/);
  // after errors the next valid call still works
  assert.equal(pe.ropeFrequencies({ dim: 8 }).invFreq64[0], 1);
});

test('leak test: heap stable over many calls, including failing ones', async () => {
  const [{ pe }] = await backends();
  const x = randomF32(4 * 2 * 16, 61);
  const sc = {
    type: 'longrope',
    shortFactor: [1, 1, 1, 1, 1, 1, 1, 1],
    longFactor: [2, 2, 2, 2, 2, 2, 2, 2],
    originalMaxPositions: 64,
  };
  const cache = pe.ropeCache({ length: 8, dim: 16 });
  const run = () => {
    pe.ropeFrequencies({ dim: 16, scaling: sc });
    pe.ropeCache({ length: 4, dim: 16, scaling: { type: 'yarn', factor: 2, originalMaxPositions: 8 } });
    pe.applyRope(Float32Array.from(x), { length: 4, heads: 2, dim: 16, scaling: sc });
    pe.applyRope(Float32Array.from(x), {
      length: 4,
      heads: 2,
      dim: 16,
      positions: new Int32Array([0, 5, 2, 1]),
      cache,
    });
    pe.ropeDecay({ dim: 16, maxDistance: 10 });
    try {
      pe.applyRope(Float32Array.from(x), {
        length: 4,
        heads: 2,
        dim: 16,
        positions: new Int32Array([0, 9, 2, 1]),
        cache,
      });
    } catch {}
    try {
      pe.applyRope(Float32Array.from(x), {
        length: 4,
        heads: 2,
        dim: 16,
        positions: new Float32Array([0, Infinity, 2, 1]),
      });
    } catch {}
  };
  for (let i = 0; i < 30; i++) run();
  const before = pe.heapInUse;
  for (let i = 0; i < 300; i++) run();
  assert.equal(pe.heapInUse, before);
});
