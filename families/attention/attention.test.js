import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ENCODINGS, typesFor } from '../../js/encodings.js';
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
import { forHost, randomBias, refAttention, refBucket, refSlopes } from '../../tests/ref64.js';

function problem(queries, keys, heads, dim, dimV, seed) {
  return {
    q: randomF32(queries * heads * dim, seed),
    k: randomF32(keys * heads * dim, seed + 1),
    v: randomF32(keys * heads * dimV, seed + 2),
    queries,
    keys,
    heads,
    dim,
    dimV,
  };
}

// ---- the toy example of families/attention/attention.md ----

const TOY = {
  q: new Float32Array([1, 0, 0, 1, 1, 1]),
  k: new Float32Array([1, 0, 0, 1, 1, 1]),
  v: new Float32Array([1, 2, 3, 4, 5, 6]),
  queries: 3,
  dim: 2,
};

test('toy example of families/attention/attention.md: unmasked, causal, permuted', async () => {
  const P = [
    0.4011120926797859, 0.1977758146404282, 0.4011120926797859, 0.1977758146404282, 0.4011120926797859,
    0.4011120926797859, 0.2482550782577231, 0.2482550782577231, 0.5034898434845538,
  ];
  const out = [3, 4, 3.406672556078715, 4.406672556078716, 3.510469530453662, 4.510469530453662];
  const causalOut = [1, 2, 2.339523098653314, 3.339523098653314, 3.510469530453662, 4.510469530453662];
  const causalRow1 = [0.3302384506733431, 0.6697615493266569, 0];
  for (const { name, pe } of await backends()) {
    for (const returnWeights of [true, false]) {
      const r = pe.attention({ ...TOY, returnWeights });
      assertClose(r.output, out, 1e-6, `${name} out`);
      if (returnWeights) assertClose(r.weights, P, 1e-7, `${name} P`);
      else assert.equal(r.weights, null);
      const c = pe.attention({ ...TOY, causal: true, returnWeights });
      assertClose(c.output, causalOut, 1e-6, `${name} causal`);
      if (returnWeights) {
        assertClose(c.weights.subarray(0, 3), [1, 0, 0], 0, `${name} causal row 0`);
        assertClose(c.weights.subarray(3, 6), causalRow1, 1e-7, `${name} causal row 1`);
      }
    }
    // tokens permuted by (2, 0, 1): rows of the output permute identically
    const perm = [2, 0, 1];
    const pq = new Float32Array(perm.flatMap((p) => [TOY.q[2 * p], TOY.q[2 * p + 1]]));
    const pv = new Float32Array(perm.flatMap((p) => [TOY.v[2 * p], TOY.v[2 * p + 1]]));
    const r = pe.attention({ q: pq, k: pq, v: pv, queries: 3, dim: 2 });
    assertClose(
      r.output,
      [3.510469530453662, 4.510469530453662, 3, 4, 3.406672556078715, 4.406672556078716],
      1e-6,
      name,
    );
  }
});

test('softmax([1000, 1001, 1002]) is stable (max-subtracted softmax)', async () => {
  const expect = [0.09003057317038046, 0.2447284710547976, 0.6652409557748218];
  for (const { name, pe } of await backends()) {
    // through q.k (scale 1) and through a dense bias; V = identity makes the output the weights
    const eye = new Float32Array([1, 0, 0, 0, 1, 0, 0, 0, 1]);
    const a = pe.attention({
      q: new Float32Array([1]),
      k: new Float32Array([1000, 1001, 1002]),
      v: eye,
      queries: 1,
      keys: 3,
      dim: 1,
      dimV: 3,
      scale: 1,
      returnWeights: true,
    });
    assertClose(a.weights, expect, 1e-7, `${name} weights`);
    assertClose(a.output, expect, 1e-7, `${name} tiled`);
    const b = pe.attention({
      q: new Float32Array([0]),
      k: new Float32Array([0, 0, 0]),
      v: eye,
      queries: 1,
      keys: 3,
      dim: 1,
      dimV: 3,
      bias: new Float32Array([1000, 1001, 1002]),
    });
    assertClose(b.output, expect, 1e-7, `${name} bias`);
  }
});

test('a fully masked row gives zeros, never NaN', async () => {
  for (const { name, pe } of await backends()) {
    // bottom-right with fewer keys than queries: rows 0 and 1 see no key
    const p = problem(4, 2, 2, 3, 5, 11);
    for (const returnWeights of [true, false]) {
      const r = pe.attention({ ...p, causal: true, align: 'bottom-right', returnWeights });
      const ref = refAttention({ ...p, causal: true, align: 'bottom-right' });
      assert.ok(r.output.every(Number.isFinite), name);
      assert.ok(
        r.output.subarray(0, 2 * 2 * 5).every((x) => x === 0),
        `${name} rows 0, 1 zero`,
      );
      assertClose(r.output, ref.output, 2e-6, name);
      if (returnWeights) assertClose(r.weights, ref.weights, 1e-6, name);
    }
    // a dense bias that blocks a whole row (keys beyond one tile, so several tiles see -inf)
    const q = problem(3, 300, 1, 4, 4, 3);
    const bias = new Float32Array(3 * 300);
    bias.fill(-Infinity, 300, 600);
    for (const returnWeights of [true, false]) {
      const r = pe.attention({ ...q, bias, returnWeights });
      assert.ok(
        r.output.subarray(4, 8).every((x) => x === 0),
        `${name} blocked row`,
      );
      assertClose(r.output, refAttention({ ...q, bias }).output, 2e-6, name);
      if (returnWeights) assert.ok(r.weights.subarray(300, 600).every((x) => x === 0));
    }
  }
});

// ---- the float64 reference at many sizes, every bias kind ----

// every bias kind attention takes (js/encodings.js), so a new kind meets the reference here
const KINDS = [undefined, 'dense', ...typesFor('attention').filter((t) => t !== 'none')];
const SHAPES = [
  // queries, keys, heads, dim, dimV
  [1, 1, 1, 1, 1],
  [3, 5, 2, 3, 5],
  [5, 3, 1, 5, 2],
  [7, 7, 3, 8, 8],
  [17, 19, 2, 13, 6],
  [9, 133, 1, 4, 12],
  [130, 260, 1, 17, 9],
  [33, 140, 2, 64, 11],
];

test('float64 reference: every bias kind, sizes, masks, alignments, offsets, both paths', async () => {
  let seed = 1;
  for (const { name, pe } of await backends()) {
    for (const [queries, keys, heads, dim, dimV] of SHAPES) {
      for (const kind of KINDS) {
        const p = problem(queries, keys, heads, dim, dimV, seed++);
        const bias = randomBias(kind, p, seed++);
        const causal = seed % 3 !== 0;
        const align = seed % 2 ? 'top-left' : 'bottom-right';
        const offset = seed % 5 === 0 ? 3 - (seed % 11) : undefined;
        const opts = { ...p, bias, causal, align, offset };
        const ref = refAttention(opts);
        const what = `${name} ${kind ?? 'none'} Q${queries} K${keys} H${heads} D${dim} DV${dimV} causal=${causal} ${align} offset=${offset} (against tests/ref64.js refAttention)`;
        const r = pe.attention({ ...opts, returnWeights: true });
        assertClose(r.weights, ref.weights, 2e-6, `${what} weights`);
        assertClose(r.output, ref.output, 1e-5, `${what} output`);
        const t = pe.attention(opts);
        assertClose(t.output, ref.output, 1e-5, `${what} tiled`);
      }
    }
  }
});

test('tiled (no weights) equals untiled (weights) for every bias kind, several tiles', async () => {
  for (const { name, pe } of await backends()) {
    for (const kind of KINDS) {
      const p = problem(21, 517, 2, 12, 10, 40);
      const bias = randomBias(kind, p, 41);
      for (const causal of [false, true]) {
        const a = pe.attention({ ...p, bias, causal, align: 'top-left', returnWeights: true });
        const b = pe.attention({ ...p, bias, causal, align: 'top-left' });
        assert.ok(
          maxAbsDiff(a.output, b.output) <= 1e-6,
          `${name} ${kind} causal=${causal}: ${maxAbsDiff(a.output, b.output)}`,
        );
      }
    }
  }
});

test('fused ALiBi and T5 biases equal the materialised bias matrix', async () => {
  for (const { name, pe } of await backends()) {
    const p = problem(150, 150, 4, 8, 8, 50);
    const cases = [
      { type: 'alibi', form: 'relative' },
      { type: 'alibi', form: 'symmetric' },
      { type: 'alibi', form: 'reference' },
      { type: 't5', weights: randomF32(32 * 4, 3), bidirectional: true },
      { type: 't5', weights: randomF32(32 * 4, 4), bidirectional: false, numBuckets: 32, maxDistance: 128 },
    ];
    for (const bias of cases) {
      // materialise in float64 from the formulas in families/relative/alibi.md and families/relative/t5.md, then round to float32 once
      const dense = new Float32Array(4 * 150 * 150);
      const slopes = refSlopes(4);
      for (let h = 0; h < 4; h++)
        for (let i = 0; i < 150; i++)
          for (let j = 0; j < 150; j++) {
            const rp = j - i;
            dense[(h * 150 + i) * 150 + j] =
              bias.type === 'alibi'
                ? slopes[h] * (bias.form === 'relative' ? rp : bias.form === 'symmetric' ? -Math.abs(rp) : j)
                : bias.weights[refBucket(rp, bias.bidirectional, 32, 128) * 4 + h];
          }
      for (const causal of [false, true]) {
        const fused = pe.attention({ ...p, bias, causal, align: 'top-left', returnWeights: true });
        const mat = pe.attention({ ...p, bias: dense, causal, align: 'top-left', returnWeights: true });
        assertClose(
          fused.weights,
          mat.weights,
          1e-6,
          `${name} ${bias.type} ${bias.form ?? bias.bidirectional} weights`,
        );
        assertClose(fused.output, mat.output, 1e-6, `${name} ${bias.type} output`);
      }
      // the materialised matrices of the relative family give the same attention
      if (bias.type === 'alibi') {
        const lib = pe.alibiBias({ heads: 4, queries: 150, form: bias.form, causal: false });
        assertClose(
          pe.attention({ ...p, bias: lib }).output,
          pe.attention({ ...p, bias }).output,
          1e-6,
          `${name} alibiBias`,
        );
      }
      if (bias.type === 't5') {
        const lib = pe.t5Bias({
          weights: bias.weights,
          heads: 4,
          queries: 150,
          keys: 150,
          bidirectional: bias.bidirectional,
        });
        assertClose(
          pe.attention({ ...p, bias: lib }).output,
          pe.attention({ ...p, bias }).output,
          1e-6,
          `${name} t5Bias`,
        );
      }
    }
  }
});

test('ALiBi relative and reference forms give identical causal weights (families/relative/alibi.md, Bias)', async () => {
  for (const { name, pe } of await backends()) {
    const p = problem(40, 40, 3, 6, 6, 60);
    const a = pe.attention({ ...p, causal: true, bias: { type: 'alibi', form: 'relative' }, returnWeights: true });
    const b = pe.attention({ ...p, causal: true, bias: { type: 'alibi', form: 'reference' }, returnWeights: true });
    assertClose(a.weights, b.weights, 1e-6, name);
  }
});

test('causal alignment: top-left (j <= i) vs bottom-right (j <= i + keys - queries)', async () => {
  for (const { name, pe } of await backends()) {
    const p = problem(3, 5, 1, 4, 4, 70);
    const tl = pe.attention({ ...p, causal: true, align: 'top-left', returnWeights: true }).weights;
    const br = pe.attention({ ...p, causal: true, align: 'bottom-right', returnWeights: true }).weights;
    for (let i = 0; i < 3; i++)
      for (let j = 0; j < 5; j++) {
        assert.equal(tl[i * 5 + j] > 0, j <= i, `${name} top-left ${i},${j}`);
        assert.equal(br[i * 5 + j] > 0, j <= i + 2, `${name} bottom-right ${i},${j}`);
      }
    // bottom-right == top-left with an explicit -inf mask of the same shape
    const mask = new Float32Array(15).map((_, x) => (x % 5 <= Math.floor(x / 5) + 2 ? 0 : -Infinity));
    assertClose(
      pe.attention({ ...p, bias: mask }).output,
      pe.attention({ ...p, causal: true, align: 'bottom-right' }).output,
      1e-7,
      name,
    );
    // decoding: the last query row of a full causal pass equals a 1-query bottom-right call
    const full = problem(6, 6, 2, 5, 5, 71);
    const all = pe.attention({ ...full, causal: true });
    const last = pe.attention({ ...full, q: full.q.subarray(5 * 10), queries: 1, causal: true, align: 'bottom-right' });
    assertClose(last.output, all.output.subarray(5 * 10), 1e-6, `${name} decode step`);
  }
});

test('causal with fewer queries than keys and no align is refused naming align (both alignments run and differ)', async () => {
  for (const { name, pe } of await backends()) {
    const p = problem(1, 6, 2, 4, 4, 72);
    const err = assertThrowsPosenc(
      () => pe.attention({ ...p, causal: true }),
      [/align is required with causal: true and fewer queries \(1\) than keys \(6\)/, /'bottom-right'/],
      Status.E_MISSING,
    );
    assert.equal(err.argument, 'align', name);
    // the two readings it refuses to choose between are different answers
    const tl = pe.attention({ ...p, causal: true, align: 'top-left' }).output;
    const br = pe.attention({ ...p, causal: true, align: 'bottom-right' }).output;
    assert.ok(maxAbsDiff(tl, br) > 1e-3, `${name}: top-left and bottom-right differ`);
    // square, more queries than keys, or no mask: nothing to choose, the default stands
    const sq = problem(4, 4, 2, 4, 4, 73);
    assertClose(
      pe.attention({ ...sq, causal: true }).output,
      pe.attention({ ...sq, causal: true, align: 'top-left' }).output,
      0,
      name,
    );
    assert.ok(pe.attention({ ...p }).output.every(Number.isFinite), name);
  }
});

test('SIMD and scalar builds agree within 1e-6', async () => {
  const [{ pe: simd }, { pe: scalar }] = await backends();
  for (const kind of KINDS) {
    const p = problem(37, 290, 2, 19, 13, 80);
    const bias = randomBias(kind, p, 81);
    for (const returnWeights of [true, false]) {
      const a = simd.attention({ ...p, bias, causal: true, align: 'top-left', returnWeights });
      const b = scalar.attention({ ...p, bias, causal: true, align: 'top-left', returnWeights });
      assertClose(a.output, b.output, 1e-6, `${kind} output`);
      if (returnWeights) assertClose(a.weights, b.weights, 1e-6, `${kind} weights`);
    }
  }
});

// ---- selfAttention: permutation and translation properties (families/attention/attention.md, Why positions are needed) ----

const T = 9,
  DM = 12,
  HEADS = 3,
  DH = DM / HEADS;
const layer = {
  dModel: DM,
  heads: HEADS,
  wq: randomF32(DM * DM, 101),
  wk: randomF32(DM * DM, 102),
  wv: randomF32(DM * DM, 103),
};

function encodings(pe) {
  // the encodings that are not a bias kind, by hand; each fused kind of the registry drawn by
  // tests/ref64.js randomBias (seed 1: ALiBi's symmetric form, translation-invariant as the
  // property below needs)
  const list = {
    sinusoidal: { type: 'sinusoidal' },
    learned: { type: 'learned', table: randomF32(16 * DM, 104) },
    rope: { type: 'rope' },
  };
  const shape = { heads: HEADS, dim: DH, queries: T, keys: T, dModel: DM };
  for (const t of typesFor('selfAttention').filter((x) => x !== 'none' && ENCODINGS[x].cArgs))
    list[t] = forHost('selfAttention', randomBias(t, shape, 1));
  // every kind selfAttention takes must face the permutation and translation properties below
  for (const t of typesFor('selfAttention').filter((x) => x !== 'none')) {
    if (!list[t]) {
      throw new Error(
        `families/attention/attention.test.js encodings(): no selfAttention '${t}' encoding in its list (${Object.keys(list).join(', ')}); add one`,
      );
    }
  }
  return list;
}

function permuteRows(x, perm, width) {
  const y = new Float32Array(x.length);
  perm.forEach((p, i) => y.set(x.subarray(p * width, (p + 1) * width), i * width));
  return y;
}

test('without positions self-attention is permutation equivariant and the pooled vector invariant', async () => {
  const perm = [4, 0, 8, 2, 6, 1, 7, 3, 5];
  for (const { name, pe } of await backends()) {
    const tokens = randomF32(T * DM, 111);
    const a = pe.selfAttention({ ...layer, tokens });
    const b = pe.selfAttention({ ...layer, tokens: permuteRows(tokens, perm, DM) });
    assert.ok(maxAbsDiff(b.output, permuteRows(a.output, perm, DM)) <= 1e-6, `${name} Attn(PX) = P Attn(X)`);
    assert.ok(maxAbsDiff(b.pooled, a.pooled) <= 1e-6, `${name} pooled`);
    // weights: [h][i][j] of PX equals [h][perm i][perm j] of X
    let d = 0;
    for (let h = 0; h < HEADS; h++)
      for (let i = 0; i < T; i++)
        for (let j = 0; j < T; j++) {
          d = Math.max(d, Math.abs(b.weights[(h * T + i) * T + j] - a.weights[(h * T + perm[i]) * T + perm[j]]));
        }
    assert.ok(d <= 1e-6, `${name} weights un-permute: ${d}`);
    // and each positional method breaks it
    for (const [type, encoding] of Object.entries(encodings(pe))) {
      const x = pe.selfAttention({ ...layer, tokens, encoding });
      const y = pe.selfAttention({ ...layer, tokens: permuteRows(tokens, perm, DM), encoding });
      assert.ok(maxAbsDiff(y.output, permuteRows(x.output, perm, DM)) > 1e-3, `${name} ${type} breaks equivariance`);
      assert.ok(maxAbsDiff(y.pooled, x.pooled) > 1e-4, `${name} ${type} breaks pooled invariance`);
    }
  }
});

test('relative methods: logits depend only on j - i (translation invariance); sinusoidal does not', async () => {
  // Identical token vectors at every position make the content part of every logit the same,
  // so log(w[i][j] / w[i][i]) is the positional part. Shifting (i, j) -> (i + 1, j + 1) must not
  // change it for rope, alibi, t5, shaw and xl.
  const n = 40;
  const one = randomF32(DM, 120);
  const tokens = new Float32Array(n * DM);
  for (let t = 0; t < n; t++) tokens.set(one, t * DM);
  for (const { name, pe } of await backends()) {
    const all = encodings(pe);
    for (const [type, encoding] of Object.entries(all)) {
      if (type === 'learned') continue;
      const { weights: w } = pe.selfAttention({ ...layer, tokens, encoding });
      let d = 0;
      for (let h = 0; h < HEADS; h++)
        for (let i = 0; i + 1 < n; i++)
          for (let j = 0; j + 1 < n; j++) {
            const a = Math.log(w[(h * n + i) * n + j] / w[(h * n + i) * n + i]);
            const b = Math.log(w[(h * n + i + 1) * n + j + 1] / w[(h * n + i + 1) * n + i + 1]);
            d = Math.max(d, Math.abs(a - b));
          }
      if (type === 'sinusoidal') assert.ok(d > 1e-2, `${name} sinusoidal should not be translation invariant (${d})`);
      else assert.ok(d < 2e-4, `${name} ${type} logit(i, j) depends on j - i only: ${d}`);
    }
  }
});

test('selfAttention with an additive encoding equals attention on (x + PE) projections', async () => {
  for (const { name, pe } of await backends()) {
    const tokens = randomF32(T * DM, 130);
    const table = randomF32(T * DM, 131);
    const r = pe.selfAttention({ ...layer, tokens, encoding: { type: 'learned', table }, causal: true });
    const x = tokens.map((t, i) => t + table[i]);
    const proj = (w) => pe.matmul(x, w, { m: T, k: DM, n: DM });
    const a = pe.attention({
      q: proj(layer.wq),
      k: proj(layer.wk),
      v: proj(layer.wv),
      queries: T,
      dim: DH,
      heads: HEADS,
      causal: true,
      returnWeights: true,
    });
    assertClose(r.output, a.output, 1e-6, name);
    assertClose(r.weights, a.weights, 1e-6, name);
    // sinusoidal is x + pe.sinusoidal
    const s = pe.selfAttention({ ...layer, tokens, encoding: { type: 'sinusoidal' } });
    const xs = pe.sinusoidal({ length: T, dim: DM }).map((p, i) => p + tokens[i]);
    const projS = (w) => pe.matmul(xs, w, { m: T, k: DM, n: DM });
    const b = pe.attention({
      q: projS(layer.wq),
      k: projS(layer.wk),
      v: projS(layer.wv),
      queries: T,
      dim: DH,
      heads: HEADS,
    });
    assertClose(s.output, b.output, 1e-6, name);
  }
});

test('selfAttention rope equals attention on applyRope(q), applyRope(k)', async (t) => {
  for (const { name, pe } of await backends()) {
    const tokens = randomF32(T * DM, 135);
    const r = pe.selfAttention({ ...layer, tokens, encoding: { type: 'rope', offset: 5 }, causal: true });
    const proj = (w) => pe.matmul(tokens, w, { m: T, k: DM, n: DM });
    const q = pe.applyRope(proj(layer.wq), { length: T, heads: HEADS, dim: DH, offset: 5 });
    const k = pe.applyRope(proj(layer.wk), { length: T, heads: HEADS, dim: DH, offset: 5 });
    const a = pe.attention({
      q,
      k,
      v: proj(layer.wv),
      queries: T,
      dim: DH,
      heads: HEADS,
      causal: true,
      returnWeights: true,
    });
    assertClose(r.output, a.output, 1e-6, name);
    assertClose(r.weights, a.weights, 1e-6, name);
  }
});

test('selfAttention rope takes applyRope frequency options: scaling (with its attention scale) and rotaryDim', async (t) => {
  const scalings = [
    { type: 'linear', factor: 4 },
    { type: 'ntk', factor: 3 },
    { type: 'dynamic', factor: 2, maxPositions: 4 },
    { type: 'yarn', factor: 8, originalMaxPositions: 4 }, // attention scale 0.1 ln 8 + 1 != 1
    { type: 'longrope', shortFactor: [1, 2], longFactor: [3, 5], originalMaxPositions: 4, factor: 4 },
    { type: 'llama3', factor: 8, originalMaxPositions: 4 },
  ];
  for (const { name, pe } of await backends()) {
    const tokens = randomF32(T * DM, 136);
    const proj = (w) => pe.matmul(tokens, w, { m: T, k: DM, n: DM });
    const cases = [
      ...scalings.map((scaling) => ({ scaling, offset: 3 })),
      { rotaryDim: 2, layout: 'interleaved' },
      { rotaryDim: 2, scaling: { type: 'yarn', factor: 4, originalMaxPositions: 2 }, offset: -2 },
    ];
    for (const c of cases) {
      const label = `${name} ${JSON.stringify(c)}`;
      const r = pe.selfAttention({ ...layer, tokens, encoding: { type: 'rope', base: 100, ...c } });
      const rope = { length: T, heads: HEADS, dim: DH, base: 100, ...c };
      const q = pe.applyRope(proj(layer.wq), rope);
      const k = pe.applyRope(proj(layer.wk), rope);
      const a = pe.attention({ q, k, v: proj(layer.wv), queries: T, dim: DH, heads: HEADS, returnWeights: true });
      assertClose(r.output, a.output, 1e-6, label);
      assertClose(r.weights, a.weights, 1e-6, label);
      // and the scaling matters: unscaled RoPE gives different weights
      if (c.scaling) {
        const plain = pe.selfAttention({
          ...layer,
          tokens,
          encoding: { type: 'rope', base: 100, offset: c.offset, rotaryDim: c.rotaryDim },
        });
        assert.ok(maxAbsDiff(plain.weights, r.weights) > 1e-4, `${label} changes the weights`);
      }
    }
    // partial rotary leaves the last dHead - rotaryDim components of every head unrotated: with
    // rotaryDim 2 only pair 0 turns, so a layer whose q/k live in the other components has no positions
    const wNoPair0 = (w) => w.map((x, i) => ((i % DM) % DH < 2 ? 0 : x));
    const part = { ...layer, wq: wNoPair0(layer.wq), wk: wNoPair0(layer.wk) };
    const none = pe.selfAttention({ ...part, tokens });
    const rot2 = pe.selfAttention({ ...part, tokens, encoding: { type: 'rope', rotaryDim: 2, offset: 7 } });
    const full = pe.selfAttention({ ...part, tokens, encoding: { type: 'rope', offset: 7 } });
    assertClose(rot2.weights, none.weights, 1e-6, `${name} rotaryDim 2 rotates only pair 0`);
    assert.ok(maxAbsDiff(full.weights, none.weights) > 1e-3, `${name} full rotary rotates the rest`);
  }
});

test('selfAttention rope: bad frequency options throw PosencErrors naming encoding.<key>', async (t) => {
  const { pe } = (await backends())[0];
  const tokens = randomF32(T * DM, 137);
  const call = (enc) => () => pe.selfAttention({ ...layer, tokens, encoding: { type: 'rope', ...enc } });
  assertThrowsPosenc(call({ scaling: { type: 'linear', factor: -1 } }), [
    /posenc\.selfAttention: encoding\.scaling\.factor must be a finite number in \(0/,
  ]);
  assertThrowsPosenc(
    call({ scaling: { type: 'linear' } }),
    [/encoding\.scaling\.factor is required for scaling type 'linear'/],
    Status.E_MISSING,
  );
  assertThrowsPosenc(
    call({ scaling: { type: 'yarm', factor: 2 } }),
    [/encoding\.scaling\.type must be one of/],
    Status.E_ENUM,
  );
  assertThrowsPosenc(call({ scaling: { type: 'ntk', factor: 2, beta: 1 } }), [
    /encoding\.scaling: unknown option "beta"/,
  ]);
  assertThrowsPosenc(call({ scaling: 2 }), [/encoding\.scaling must be an object/]);
  assertThrowsPosenc(
    call({ scaling: { type: 'longrope', shortFactor: [1, 1, 1], longFactor: [1, 1], originalMaxPositions: 4 } }),
    [/encoding\.scaling\.shortFactor must be an array of rotaryDim\/2 = 2 positive/],
  );
  assertThrowsPosenc(
    call({ scaling: { type: 'linear', factor: 1e-320 } }),
    [/encoding\.scaling\.factor must be such that every frequency/],
    Status.E_RANGE,
  );
  assertThrowsPosenc(call({ rotaryDim: 3 }), [/encoding\.rotaryDim must be even/], Status.E_ODD);
  assertThrowsPosenc(call({ rotaryDim: DH + 2 }), [
    new RegExp(`encoding\\.rotaryDim must be an integer in \\[2, ${DH}\\]`),
  ]);
  assertThrowsPosenc(call({ base: 1 }), [/encoding\.base must be a finite number in \(1/]);
  // still fine afterwards
  assert.equal(
    pe.selfAttention({ ...layer, tokens, encoding: { type: 'rope', scaling: { type: 'linear', factor: 2 } } }).output
      .length,
    T * DM,
  );
});

test('matmul matches float64 at odd shapes', async () => {
  for (const { name, pe } of await backends()) {
    for (const [m, k, n] of [
      [1, 1, 1],
      [3, 5, 7],
      [5, 17, 9],
      [13, 64, 70],
      [6, 3, 129],
    ]) {
      const a = randomF32(m * k, m),
        b = randomF32(k * n, n);
      const ref = new Float64Array(m * n);
      for (let i = 0; i < m; i++)
        for (let j = 0; j < n; j++) for (let d = 0; d < k; d++) ref[i * n + j] += a[i * k + d] * b[d * n + j];
      assertClose(pe.matmul(a, b, { m, k, n }), ref, 1e-5, `${name} ${m}x${k}x${n}`);
    }
  }
});

// ---- errors, leaks, memory ----

test('throw-tests: every argument names itself and its range', async () => {
  const { pe } = (await backends())[0];
  const p = problem(4, 6, 2, 3, 5, 140);
  for (const bad of BAD_SIZES) {
    for (const key of ['queries', 'keys', 'dim', 'dimV', 'heads']) {
      assertThrowsPosenc(() => pe.attention({ ...p, [key]: bad }), [new RegExp(`posenc\\.attention: ${key}`)]);
    }
  }
  assertThrowsPosenc(() => pe.attention({ ...p, dim: 0 }), [/dim must be an integer in \[1, /], Status.E_SIZE);
  assertThrowsPosenc(
    () => pe.attention({ ...p, q: p.q.subarray(1) }),
    [/q must be a Float32Array or posenc buffer of length 24/],
    Status.E_SCRATCH,
  );
  assertThrowsPosenc(() => pe.attention({ ...p, k: new Float64Array(36) }), [/k must be a Float32Array/]);
  assertThrowsPosenc(() => pe.attention({ ...p, v: undefined }), [/v is required/], Status.E_MISSING);
  assertThrowsPosenc(() => pe.attention({ ...p, scale: NaN }), [/scale must be a finite number/]);
  assertThrowsPosenc(
    () => pe.attention({ ...p, align: 'middle' }),
    [/align must be one of 'top-left', 'bottom-right'/],
    Status.E_ENUM,
  );
  assertThrowsPosenc(() => pe.attention({ ...p, causal: 1 }), [/causal must be true or false/]);
  assertThrowsPosenc(() => pe.attention({ ...p, mask: true }), [/unknown option "mask"/]);
  assertThrowsPosenc(
    () => pe.attention({ ...p, bias: new Float32Array(5) }),
    [/bias must be a Float32Array or posenc buffer of length 48/],
  );
  assertThrowsPosenc(
    () => pe.attention({ ...p, bias: { type: 'cope' } }),
    [/bias\.type must be one of 'alibi'/],
    Status.E_ENUM,
  );
  assertThrowsPosenc(
    () => pe.attention({ ...p, bias: { type: 'alibi', form: 'x' } }),
    [/bias\.form must be one of 'relative', 'symmetric', 'reference'/],
  );
  assertThrowsPosenc(
    () => pe.attention({ ...p, bias: { type: 't5', weights: new Float32Array(3) } }),
    [/bias\.weights must be a Float32Array or posenc buffer of length 64/],
  );
  assertThrowsPosenc(
    () => pe.attention({ ...p, bias: { type: 't5', weights: new Float32Array(64), maxDistance: 8 } }),
    [/bias\.maxDistance must be greater than the exact range 8/],
  );
  assertThrowsPosenc(
    () => pe.attention({ ...p, bias: { type: 't5', weights: new Float32Array(6), numBuckets: 3 } }),
    [/bias\.numBuckets must be an integer in \[4, /],
  );
  assertThrowsPosenc(
    () =>
      pe.attention({
        ...p,
        bias: { type: 'shaw', aK: new Float32Array(15), aV: new Float32Array(25), maxRelative: 0 },
      }),
    [/bias\.maxRelative must be an integer in \[1, /],
  );
  assertThrowsPosenc(
    () =>
      pe.attention({
        ...p,
        bias: { type: 'shaw', aK: new Float32Array(14), aV: new Float32Array(25), maxRelative: 2 },
      }),
    [/bias\.aK must be a Float32Array or posenc buffer of length 15/],
  );
  assertThrowsPosenc(
    () =>
      pe.attention({
        ...p,
        bias: { type: 'xl', u: new Float32Array(6), v: new Float32Array(6), r: new Float32Array(7) },
      }),
    [/bias\.r must be a Float32Array \[rRows\]\[heads\]\[dim\]/],
  );
  assertThrowsPosenc(
    () =>
      pe.attention({
        ...p,
        bias: { type: 'xl', u: new Float32Array(5), v: new Float32Array(6), r: new Float32Array(36) },
      }),
    [/bias\.u must be a Float32Array or posenc buffer of length 6/],
  );
  // non-finite values are refused by C, not turned into garbage
  const nanQ = p.q.slice();
  nanQ[3] = NaN;
  assertThrowsPosenc(() => pe.attention({ ...p, q: nanQ }), [/q\[3\] must be finite/], Status.E_PARAM);
  const nanBias = new Float32Array(48);
  nanBias[7] = Infinity;
  assertThrowsPosenc(
    () => pe.attention({ ...p, bias: nanBias }),
    [/bias\[7\] must be finite or -Infinity/],
    Status.E_PARAM,
  );

  const tokens = randomF32(T * DM, 141);
  assertThrowsPosenc(
    () => pe.selfAttention({ ...layer, tokens, heads: 5 }),
    [/selfAttention: heads must be a divisor of dModel = 12 \(got 5\)/],
  );
  assertThrowsPosenc(
    () => pe.selfAttention({ ...layer, tokens: tokens.subarray(1) }),
    [/tokens must be a Float32Array \[length\]\[dModel\]/],
  );
  assertThrowsPosenc(
    () => pe.selfAttention({ ...layer, tokens, wq: new Float32Array(10) }),
    [/wq must be a Float32Array or posenc buffer of length 144/],
  );
  assertThrowsPosenc(
    () => pe.selfAttention({ ...layer, tokens, encoding: { type: 'nope' } }),
    [/encoding\.type must be one of 'none'/],
    Status.E_ENUM,
  );
  assertThrowsPosenc(
    () => pe.selfAttention({ ...layer, tokens, encoding: { type: 'learned', table: new Float32Array(5 * DM) } }),
    [/encoding\.table must be at least 9 rows/],
    Status.E_RANGE,
  );
  assertThrowsPosenc(
    () => pe.selfAttention({ ...layer, tokens, encoding: { type: 't5', weights: new Float32Array(32) } }),
    [/encoding\.weights must be a Float32Array or posenc buffer of length 96/],
  );
  assertThrowsPosenc(
    () =>
      pe.selfAttention({
        ...layer,
        tokens,
        encoding: { type: 'shaw', maxRelative: 2, aK: new Float32Array(20), aV: new Float32Array(19) },
      }),
    [/encoding\.aV must be a Float32Array or posenc buffer of length 20/],
  );
  assertThrowsPosenc(
    () =>
      pe.selfAttention({
        ...layer,
        tokens,
        encoding: { type: 'xl', u: new Float32Array(DM), v: new Float32Array(DM), wr: new Float32Array(3) },
      }),
    [/encoding\.wr must be a Float32Array or posenc buffer of length 144/],
  );
  assertThrowsPosenc(
    () => pe.selfAttention({ ...layer, tokens, encoding: { type: 'alibi', slope: 1 } }),
    [/unknown option "slope"/],
  );
  assertThrowsPosenc(
    () => pe.matmul(new Float32Array(6), new Float32Array(6), { m: 2, k: 3, n: 3 }),
    [/matmul: b must be a Float32Array or posenc buffer of length 9/],
  );
  // a valid call still works after all of that
  assertClose(
    pe.attention({ ...TOY }).output,
    [3, 4, 3.406672556078715, 4.406672556078716, 3.510469530453662, 4.510469530453662],
    1e-6,
  );
});

test('heap is stable over many calls (leak test), also after errors', async () => {
  for (const { pe } of await backends()) {
    const p = problem(20, 30, 2, 8, 8, 150);
    const tokens = randomF32(T * DM, 151);
    const once = () => {
      pe.attention({
        ...p,
        returnWeights: true,
        bias: { type: 'shaw', maxRelative: 2, aK: randomF32(40, 1), aV: randomF32(40, 2) },
      });
      pe.attention({ ...p, bias: { type: 'xl', u: randomF32(16, 1), v: randomF32(16, 2), r: randomF32(30 * 16, 3) } });
      pe.selfAttention({
        ...layer,
        tokens,
        encoding: { type: 'xl', u: randomF32(DM, 1), v: randomF32(DM, 2), wr: randomF32(DM * DM, 3) },
      });
      try {
        pe.attention({ ...p, bias: { type: 't5', weights: new Float32Array(64).fill(NaN) } });
      } catch {
        /* expected */
      }
    };
    once();
    const before = pe.heapInUse;
    for (let i = 0; i < 30; i++) once();
    assert.equal(pe.heapInUse, before);
  }
});

test('16384 tokens without weights: no queries x keys buffer, heap stays small', async () => {
  const { pe } = (await backends())[0];
  const L = 16384,
    D = 64;
  const q = pe.alloc(L * D),
    k = pe.alloc(L * D),
    v = pe.alloc(L * D),
    out = pe.alloc(L * D);
  q.array.set(randomF32(L * D, 160));
  k.array.set(randomF32(L * D, 161));
  v.array.set(randomF32(L * D, 162));
  const inUse = pe.heapInUse;
  pe.attention({ q, k, v, queries: L, dim: D, causal: true, out });
  const heap = pe.heapBytes;
  // inputs and output are 4 MiB each; the call's own scratch is O(keys * dim): packed K and V
  assert.ok(heap < 64 * 2 ** 20, `wasm memory ${heap} bytes`);
  assert.equal(pe.heapInUse, inUse);
  // spot-check rows against float64 (the last row attends to all 16384 keys)
  const Q = q.array,
    K = k.array,
    V = v.array,
    O = out.array;
  for (const i of [0, 1, 5000, L - 1]) {
    const s = new Float64Array(i + 1);
    let m = -Infinity;
    for (let j = 0; j <= i; j++) {
      let d = 0;
      for (let c = 0; c < D; c++) d += Q[i * D + c] * K[j * D + c];
      s[j] = d / 8;
      m = Math.max(m, s[j]);
    }
    let sum = 0;
    for (let j = 0; j <= i; j++) sum += s[j] = Math.exp(s[j] - m);
    const ref = new Float64Array(D);
    for (let j = 0; j <= i; j++) for (let c = 0; c < D; c++) ref[c] += (s[j] / sum) * V[j * D + c];
    assertClose(O.subarray(i * D, (i + 1) * D), ref, 1e-5, `row ${i}`);
  }
  for (const b of [q, k, v, out]) b.free();
  console.log(`# 16384 tokens x 64 dims: wasm memory ${(heap / 2 ** 20).toFixed(1)} MiB (inputs + output 16 MiB)`);
});

void rng;

test('one registry of encodings: T5 bidirectional defaults to !causal in attention, selfAttention, kvCache and t5Bias', async () => {
  const { ENCODINGS } = await import('../../js/encodings.js');
  // kvCache takes every bias kind attention takes except Transformer-XL, whose r table is indexed
  // from the total length (families/attention/attention.md, "The KV cache"); a new kind's row lists the kvCache host
  for (const t of typesFor('attention')) {
    const listed = typesFor('kvCache').includes(t);
    assert.equal(listed, t !== 'xl', `ENCODINGS.${t}.hosts (js/encodings.js) ${listed ? 'lists' : 'lacks'} kvCache`);
  }
  assert.deepEqual(ENCODINGS.t5.parse({}), {
    type: 't5',
    bidirectional: true,
    numBuckets: 32,
    maxDistance: 128,
    weights: undefined,
  });
  assert.equal(ENCODINGS.t5.parse({ numBuckets: 8 }, { causal: true }).bidirectional, false);
  assertThrowsPosenc(
    () => ENCODINGS.t5.parse({ maxDistance: 8 }),
    [/maxDistance must be greater than the exact range 8/],
    Status.E_PARAM,
  );
  assertThrowsPosenc(() => ENCODINGS.t5.parse({ numBucket: 8 }), [/unknown option "numBucket"/]);
  assertThrowsPosenc(() => ENCODINGS.alibi.parse({ type: 't5' }), [/type must be 'alibi'/], Status.E_ENUM);
  assert.equal(ENCODINGS.alibi.parse({}).form, 'relative');
  for (const { name, pe } of await backends()) {
    const heads = 2,
      dim = 4,
      T = 6;
    const weights = randomF32(8 * heads, 70);
    const q = randomF32(T * heads * dim, 71),
      k = randomF32(T * heads * dim, 72),
      v = randomF32(T * heads * dim, 73);
    for (const causal of [false, true]) {
      const t5 = { type: 't5', weights, numBuckets: 8, maxDistance: 20 };
      const opts = { q, k, v, queries: T, heads, dim, causal, scale: 1 };
      const implicit = pe.attention({ ...opts, bias: t5 }).output;
      const explicit = pe.attention({ ...opts, bias: { ...t5, bidirectional: !causal } }).output;
      assert.deepEqual(implicit, explicit, `${name} attention causal=${causal}`);
      // the materialised bias with the same rule (t5Bias has no mask: bidirectional by default)
      if (!causal)
        assert.deepEqual(
          pe.t5Bias({ weights, heads, queries: T, numBuckets: 8, maxDistance: 20 }),
          pe.t5Bias({ weights, heads, queries: T, numBuckets: 8, maxDistance: 20, bidirectional: true }),
        );
      if (causal) {
        // a KV cache is causal: the same default as attention with causal = true
        const cache = pe.kvCache({ heads, dim, capacity: T, encoding: t5, scale: 1 });
        cache.append(k, v);
        assertClose(cache.attend(q).output, implicit, 1e-6, `${name} kvCache`);
        cache.free();
      }
    }
  }
});
