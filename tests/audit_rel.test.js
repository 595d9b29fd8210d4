// Audit of the relative/learned families and attention against independent float64 references
// (written from docs/*.md and the canonical sources, not from the C), plus the edge cases an audit
// found: silent NaN/inf from finite-but-large operands, unnamed value errors, ALiBi fused bias
// rounding differently from the materialised one, XL's clamp_len = -1 rejected.
import test from 'node:test';
import assert from 'node:assert/strict';
import { assertThrowsPosenc, backends, maxAbsDiff, randomF32 } from './helpers.js';

const E_PARAM = -4;

// fairseq get_slopes, recursively, in float64 (ofirpress/attention_with_linear_biases)
function getSlopes(n) {
  const pow2 = (c) => {
    const st = 2 ** -(2 ** -(Math.log2(c) - 3));
    return Array.from({ length: c }, (_, i) => st * st ** i);
  };
  if (Number.isInteger(Math.log2(n))) return pow2(n);
  const c = 2 ** Math.floor(Math.log2(n));
  return pow2(c).concat(
    getSlopes(2 * c)
      .filter((_, i) => i % 2 === 0)
      .slice(0, n - c),
  );
}

// HF _relative_position_bucket in float64, the log branch confirmed in integers at exact points
function t5Bucket(rp, bidirectional, numBuckets, maxDistance) {
  let ret = 0,
    n,
    B = numBuckets;
  if (bidirectional) {
    B = Math.floor(B / 2);
    if (rp > 0) ret = B;
    n = Math.abs(rp);
  } else n = Math.max(-rp, 0);
  const me = Math.floor(B / 2);
  if (n < me) return ret + n;
  const span = B - me,
    x = (Math.log(n / me) / Math.log(maxDistance / me)) * span;
  let k = Math.floor(x);
  if (Math.abs(x - Math.round(x)) < 1e-6 && k < 400) {
    // largest k with (D/me)^k <= (n/me)^span
    const D = BigInt(maxDistance),
      M = BigInt(me),
      N = BigInt(n),
      S = BigInt(span);
    k = Math.round(x) + 1;
    while (k > 0 && D ** BigInt(k) * M ** S > N ** S * M ** BigInt(k)) k--;
  }
  return ret + Math.min(me + k, B - 1);
}

function attentionRef({ q, k, v, queries, keys, dim, dimV, heads, causal, align, logit }) {
  const scale = 1 / Math.sqrt(dim);
  const out = new Float64Array(queries * heads * dimV),
    W = new Float64Array(heads * queries * keys);
  for (let h = 0; h < heads; h++)
    for (let i = 0; i < queries; i++) {
      const s = new Float64Array(keys);
      for (let j = 0; j < keys; j++) {
        let d = 0;
        for (let c = 0; c < dim; c++) d += q[(i * heads + h) * dim + c] * k[(j * heads + h) * dim + c];
        s[j] = logit ? logit(h, i, j, d * scale) : d * scale;
        const lim = align === 'top-left' ? i : i + keys - queries;
        if (causal && j > lim) s[j] = -Infinity;
      }
      const m = Math.max(...s);
      if (m === -Infinity) continue;
      let sum = 0;
      for (const x of s) sum += Math.exp(x - m);
      for (let j = 0; j < keys; j++) {
        const p = Math.exp(s[j] - m) / sum;
        W[(h * queries + i) * keys + j] = p;
        for (let c = 0; c < dimV; c++) out[(i * heads + h) * dimV + c] += p * v[(j * heads + h) * dimV + c];
      }
    }
  return { output: out, weights: W };
}

test('alibiSlopes = fairseq get_slopes (f32) for 1..100, 128, 255, 256, 257', async () => {
  for (const { pe } of await backends()) {
    for (const n of [...Array(100).keys()].map((x) => x + 1).concat([128, 255, 256, 257])) {
      assert.deepEqual(Array.from(pe.alibiSlopes(n)), getSlopes(n).map(Math.fround), `heads ${n}`);
    }
  }
});

test('t5Buckets = float64 reference: odd numBuckets, small maxDistance, both directions, |rp| to 1e6', async () => {
  const [{ pe }] = await backends();
  for (const bidirectional of [true, false])
    for (const nb of [2, 3, 5, 7, 9, 16, 31, 33, 64, 100])
      for (const md of [2, 3, 5, 9, 17, 20, 100, 128, 1000]) {
        const me = Math.floor((bidirectional ? Math.floor(nb / 2) : nb) / 2);
        if (me < 1 || md <= me) continue;
        const R = md + 3,
          keys = 2 * R + 1;
        const got = pe.t5Buckets({ queries: 1, keys, bidirectional, numBuckets: nb, maxDistance: md, offset: R });
        for (let j = 0; j < keys; j++)
          assert.equal(
            got[j],
            t5Bucket(j - R, bidirectional, nb, md),
            `B=${nb} D=${md} bidir=${bidirectional} rp=${j - R}`,
          );
        for (const off of [1e6, -1e6]) {
          const g = pe.t5Buckets({ queries: 2, keys: 3, bidirectional, numBuckets: nb, maxDistance: md, offset: off });
          for (let t = 0; t < 6; t++)
            assert.equal(g[t], t5Bucket((t % 3) - (Math.floor(t / 3) + off), bidirectional, nb, md));
        }
      }
});

test('attention = float64 reference: heads > 1, dimV != dim, tile edges, both alignments, fused biases', async () => {
  let seed = 1;
  for (const { name, pe } of await backends()) {
    for (const [queries, keys] of [
      [3, 127],
      [5, 129],
      [2, 257],
      [9, 4],
    ])
      for (const causal of [false, true])
        for (const align of ['top-left', 'bottom-right'])
          for (const returnWeights of [false, true])
            for (const kind of ['alibi', 't5', 'shaw']) {
              const heads = 3,
                dim = 5,
                dimV = 7,
                offset = align === 'bottom-right' ? keys - queries : 0;
              const q = randomF32(queries * heads * dim, seed++),
                k = randomF32(keys * heads * dim, seed++),
                v = randomF32(keys * heads * dimV, seed++);
              let bias, logit;
              if (kind === 'alibi') {
                const m = getSlopes(heads);
                bias = { type: 'alibi', form: 'symmetric' };
                logit = (h, i, j, s) => s - m[h] * Math.abs(j - (i + offset));
              } else if (kind === 't5') {
                const w = randomF32(9 * heads, seed++);
                bias = { type: 't5', weights: w, bidirectional: !causal, numBuckets: 9, maxDistance: 40 };
                logit = (h, i, j, s) => s + w[t5Bucket(j - (i + offset), !causal, 9, 40) * heads + h];
              } else {
                const aK = randomF32(5 * dim, seed++),
                  aV = new Float32Array(5 * dimV);
                bias = { type: 'shaw', aK, aV, maxRelative: 2 };
                logit = (h, i, j, s) => {
                  const b = Math.max(-2, Math.min(2, j - (i + offset))) + 2;
                  let d = 0;
                  for (let c = 0; c < dim; c++) d += q[(i * heads + h) * dim + c] * aK[b * dim + c];
                  return s + d / Math.sqrt(dim);
                };
              }
              const got = pe.attention({
                q,
                k,
                v,
                queries,
                keys,
                heads,
                dim,
                dimV,
                causal,
                align,
                bias,
                returnWeights,
              });
              const ref = attentionRef({ q, k, v, queries, keys, dim, dimV, heads, causal, align, logit });
              const what = `${name} ${kind} ${queries}x${keys} causal=${causal} ${align} weights=${returnWeights}`;
              assert.ok(maxAbsDiff(got.output, ref.output) < 2e-5, what);
              if (returnWeights) assert.ok(maxAbsDiff(got.weights, ref.weights) < 2e-5, what);
            }
  }
});

test('fused ALiBi rounds like alibiBias: the materialised bias for non-power-of-two heads', async () => {
  // the fused slope was float32, alibiBias's float64: 12 heads, reference form differed by 5e-6
  for (const { pe } of await backends()) {
    const queries = 200,
      heads = 12,
      dim = 4;
    const q = randomF32(queries * heads * dim, 3),
      k = randomF32(queries * heads * dim, 4),
      v = randomF32(queries * heads * dim, 5);
    for (const returnWeights of [false, true]) {
      const dense = pe.alibiBias({ heads, queries, form: 'relative', causal: true });
      const a = pe.attention({
        q,
        k,
        v,
        queries,
        heads,
        dim,
        causal: true,
        bias: { type: 'alibi', form: 'relative' },
        returnWeights,
      });
      const b = pe.attention({ q, k, v, queries, heads, dim, causal: true, bias: dense, returnWeights });
      assert.deepEqual(a.output, b.output, 'relative');
      // reference m * j is fused as m * (j - last visible key): under this mask the very numbers
      // of the relative form (the materialised m * j is rounded at |m j| up to 100: 4e-6 off)
      const c = pe.attention({
        q,
        k,
        v,
        queries,
        heads,
        dim,
        causal: true,
        bias: { type: 'alibi', form: 'reference' },
        returnWeights,
      });
      assert.deepEqual(c.output, a.output, 'reference');
    }
  }
});

test('finite but huge operands throw a named PosencError instead of returning NaN', async () => {
  for (const { pe } of await backends()) {
    const v = new Float32Array([1, 2, 3, 4]);
    // q.k = 2e60 overflows float32: the old code returned NaN
    assertThrowsPosenc(
      () =>
        pe.attention({
          q: new Float32Array([1e30, 1e30]),
          k: new Float32Array([1e30, 1e30, -1e30, 1e30]),
          v,
          queries: 1,
          keys: 2,
          dim: 2,
        }),
      [/q, k/, /float32/],
      E_PARAM,
    );
    assertThrowsPosenc(
      () =>
        pe.attention({
          q: new Float32Array([1e30, 1e30]),
          k: new Float32Array([1e30, 1e30, -1e30, 1e30]),
          v,
          queries: 1,
          keys: 2,
          dim: 2,
          returnWeights: true,
        }),
      [/q, k/],
      E_PARAM,
    );
    assertThrowsPosenc(
      () =>
        pe.attention({
          q: new Float32Array([1e20, 1]),
          k: new Float32Array([1e20, 1, 1, 1]),
          v,
          queries: 1,
          keys: 2,
          dim: 2,
          scale: 1e30,
        }),
      [/q, k/],
      E_PARAM,
    );
    // the exp-weighted sum of v: keys * max|v| overflows
    const big = new Float32Array(8).fill(3e38);
    assertThrowsPosenc(
      () =>
        pe.attention({
          q: new Float32Array(1),
          k: new Float32Array(4),
          v: big.subarray(0, 4),
          queries: 1,
          keys: 4,
          dim: 1,
        }),
      [/\bv\b/],
      E_PARAM,
    );
    assertThrowsPosenc(
      () =>
        pe.attention({
          q: new Float32Array(1),
          k: new Float32Array(1),
          v: new Float32Array(1),
          queries: 1,
          keys: 1,
          dim: 1,
          bias: { type: 't5', weights: new Float32Array(32).fill(3.4e38) },
        }),
      [/bias\.weights/],
      E_PARAM,
    );
    assertThrowsPosenc(
      () => pe.matmul(new Float32Array([1e30]), new Float32Array([1e30]), { m: 1, k: 1, n: 1 }),
      [/a, b/],
      E_PARAM,
    );
    assertThrowsPosenc(
      () =>
        pe.xlScores({
          q: new Float32Array([1e30, 0]),
          k: new Float32Array([1e30, 0]),
          r: new Float32Array(2),
          u: new Float32Array(2),
          v: new Float32Array(2),
          queries: 1,
          dim: 2,
        }),
      [/q, k, r, u, v/],
      E_PARAM,
    );
    assertThrowsPosenc(() => pe.learnedInit({ length: 2, dim: 2, std: 1e38 }), [/std/], E_PARAM);
  }
});

test('non-finite values are named (element index) by attention, matmul, selfAttention, xlScores', async () => {
  for (const { pe } of await backends()) {
    const z = new Float32Array(2);
    assertThrowsPosenc(
      () => pe.attention({ q: z, k: new Float32Array([0, Infinity]), v: z, queries: 1, keys: 1, dim: 2 }),
      [/k\[1\] must be finite/],
      E_PARAM,
    );
    assertThrowsPosenc(
      () => pe.attention({ q: z, k: z, v: z, queries: 1, keys: 1, dim: 2, bias: new Float32Array([NaN]) }),
      [/bias\[0\]/],
      E_PARAM,
    );
    assertThrowsPosenc(
      () =>
        pe.attention({
          q: z,
          k: z,
          v: z,
          queries: 1,
          keys: 1,
          dim: 2,
          bias: { type: 'shaw', maxRelative: 1, aK: new Float32Array(6), aV: new Float32Array([0, 0, 0, NaN, 0, 0]) },
        }),
      [/bias\.aV\[3\]/],
      E_PARAM,
    );
    assertThrowsPosenc(
      () => pe.xlScores({ q: new Float32Array([NaN, 0]), k: z, r: z, u: z, v: z, queries: 1, dim: 2 }),
      [/q\[0\]/],
      E_PARAM,
    );
    const w = new Float32Array(4);
    assertThrowsPosenc(
      () => pe.selfAttention({ tokens: new Float32Array([0, NaN]), dModel: 2, wq: w, wk: w, wv: w }),
      [/tokens\[1\]/],
      E_PARAM,
    );
    assertThrowsPosenc(
      () => pe.selfAttention({ tokens: z, dModel: 2, wq: w, wk: Float32Array.from([0, 0, Infinity, 0]), wv: w }),
      [/wk\[2\]/],
      E_PARAM,
    );
    // a valid call still works afterwards
    assert.equal(pe.attention({ q: z, k: z, v: Float32Array.from([1, 2]), queries: 1, keys: 1, dim: 2 }).output[1], 2);
  }
});

test('a dense bias masked with -FLT_MAX (HF convention) still works', async () => {
  for (const { pe } of await backends()) {
    const queries = 3,
      keys = 300,
      dim = 4,
      FMIN = -3.4028234663852886e38;
    const q = randomF32(queries * dim, 7),
      k = randomF32(keys * dim, 8),
      v = randomF32(keys * dim, 9);
    const bias = new Float32Array(queries * keys).map((_, t) => (t % keys < 200 ? FMIN : 0));
    const ref = attentionRef({
      q,
      k,
      v,
      queries,
      keys,
      dim,
      dimV: dim,
      heads: 1,
      logit: (h, i, j, s) => (j < 200 ? -Infinity : s),
    });
    for (const returnWeights of [false, true]) {
      const got = pe.attention({ q, k, v, queries, keys, dim, bias, returnWeights });
      assert.ok(maxAbsDiff(got.output, ref.output) < 1e-6);
    }
  }
});

test("xlPositions: clampLen <= 0 (Transformer-XL's default -1) means no clamp", async () => {
  const [{ pe }] = await backends();
  const plain = pe.xlPositions({ klen: 9, dim: 6 });
  assert.deepEqual(pe.xlPositions({ klen: 9, dim: 6, clampLen: -1 }), plain);
  assert.deepEqual(pe.xlPositions({ klen: 9, dim: 6, clampLen: 0 }), plain);
  const c = pe.xlPositions({ klen: 9, dim: 6, clampLen: 3 });
  for (let t = 0; t < 9; t++)
    assert.deepEqual(c.subarray(t * 6, t * 6 + 6), plain.subarray(Math.max(t, 5) * 6, Math.max(t, 5) * 6 + 6));
});
