// Grouped-query attention (kvHeads) and the KV cache (pe.kvCache), against the shared float64
// definition (tests/ref64.js refAttention, from the formulas in families/attention/attention.md), for every bias
// kind of the registry (js/encodings.js), and against identities:
// GQA = plain attention on repeated k/v heads; a decode loop = one causal prefill; a sliding
// window = an explicit band mask.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Status } from '../../js/index.js';
import { assertClose, assertThrowsPosenc, backends, BAD_SIZES, maxAbsDiff, randomF32 } from '../../tests/helpers.js';
import { typesFor, ENCODINGS } from '../../js/encodings.js';
import { forHost, randomBias, refAttention } from '../../tests/ref64.js';

// ---- float64 reference: the shared one (tests/ref64.js), under this file's short names ----

const ref = ({ Q, K, H, KVH, D, DV, ...o }) =>
  refAttention({ ...o, queries: Q, keys: K, heads: H, kvHeads: KVH, dim: D, dimV: DV }).output;

/** [T][KVH][D] -> [T][H][D]: every query head gets its group's kv head. */
function repeatHeads(x, T, H, KVH, D) {
  const G = H / KVH;
  const y = new Float32Array(T * H * D);
  for (let t = 0; t < T; t++)
    for (let h = 0; h < H; h++)
      y.set(x.subarray((t * KVH + Math.floor(h / G)) * D, (t * KVH + Math.floor(h / G) + 1) * D), (t * H + h) * D);
  return y;
}

/**
 * A bias of every kind attention takes (the registry, js/encodings.js), two draws each so each
 * kind's forms vary (ALiBi's forms, T5 one- and two-sided), by name.
 */
const BIASES = (H, D, DV, seed, { Q = 8, K = 8 } = {}) =>
  Object.fromEntries(
    typesFor('attention').flatMap((type) =>
      (type === 'none' ? [0] : [0, 1]).map((n) => [
        `${type}${n}`,
        randomBias(type, { heads: H, dim: D, dimV: DV, queries: Q, keys: K }, seed + n),
      ]),
    ),
  );

/** Each kind fused into attention that kvCache takes (the registry), one random draw (tests/ref64.js). */
const cacheKinds = (H, D, DV, seed) =>
  typesFor('kvCache')
    .filter((type) => ENCODINGS[type].cArgs)
    .map((type, n) =>
      forHost('kvCache', randomBias(type, { heads: H, dim: D, dimV: DV, queries: 1, keys: 1 }, seed + n) ?? { type }),
    );

/** The attention bias a cache encoding adds: the registry's parse of it (causal), as attention takes it. */
function biasOf(enc, dim) {
  // none given, the registry's no-bias entry, or RoPE (roped() applies it)
  if (!enc || enc.type === 'none' || !ENCODINGS[enc.type].cArgs) return undefined;
  const parsed = ENCODINGS[enc.type].parse(enc, { fn: 'test', prefix: '', host: 'kvCache', causal: true, dim });
  return forHost('attention', parsed);
}

/** The scale a cache uses by default with `enc` (T5: 1; undefined: 1 / sqrt(dim)). */
const scaleOf = (enc) => (enc ? ENCODINGS[enc.type].defaultScale : undefined);

// ---- grouped-query attention ----

test('GQA equals plain attention on repeated k/v heads, and the float64 definition, for every bias and mask', async () => {
  for (const { name, pe } of await backends()) {
    let seed = 10;
    // (queries, keys) cover the by-query blocks (many queries) and the by-head blocks (1-3 queries)
    for (const [H, KVH, Q, K, D, DV] of [
      [4, 2, 7, 9, 5, 3],
      [8, 2, 1, 37, 8, 8],
      [8, 1, 3, 20, 6, 11],
      [6, 3, 13, 13, 4, 4],
      [4, 4, 5, 5, 3, 3],
      [12, 4, 2, 300, 16, 9],
    ]) {
      const q = randomF32(Q * H * D, seed++),
        k = randomF32(K * KVH * D, seed++),
        v = randomF32(K * KVH * DV, seed++);
      const biases = { ...BIASES(H, D, DV, seed++, { Q, K }), dense: randomF32(H * Q * K, seed++) };
      for (const [bn, bias] of Object.entries(biases)) {
        for (const mode of [{}, { causal: true, align: 'top-left' }, { causal: true, align: 'bottom-right' }]) {
          for (const returnWeights of [false, true]) {
            const args = { q, queries: Q, keys: K, dim: D, dimV: DV, heads: H, bias, returnWeights, ...mode };
            const got = pe.attention({ ...args, k, v, kvHeads: KVH });
            const rep = pe.attention({ ...args, k: repeatHeads(k, K, H, KVH, D), v: repeatHeads(v, K, H, KVH, DV) });
            const what = `${name} H${H}/${KVH} Q${Q} K${K} ${bn} ${JSON.stringify(mode)} w=${returnWeights}`;
            assertClose(got.output, rep.output, 1e-6, what);
            if (returnWeights) assertClose(got.weights, rep.weights, 1e-6, `${what} weights`);
            const offset = mode.align === 'bottom-right' ? K - Q : 0;
            const want = ref({ q, k, v, Q, K, H, KVH, D, DV, causal: !!mode.causal, offset, bias });
            // float32 logits of size ~ slope * keys carry ~1e-7 relative rounding into the weights
            assertClose(got.output, want, K > 100 ? 1e-5 : 2e-6, `${what} vs float64`);
          }
        }
      }
    }
  }
});

test('selfAttention kvHeads equals the layer with k/v projection columns repeated per head', async () => {
  for (const { name, pe } of await backends()) {
    const [T, dModel, H, KVH] = [9, 16, 4, 2];
    const dHead = dModel / H,
      dKv = KVH * dHead;
    const tokens = randomF32(T * dModel, 1),
      wq = randomF32(dModel * dModel, 2);
    const wk = randomF32(dModel * dKv, 3),
      wv = randomF32(dModel * dKv, 4);
    const expand = (w) => {
      const y = new Float32Array(dModel * dModel);
      for (let r = 0; r < dModel; r++)
        for (let h = 0; h < H; h++)
          for (let c = 0; c < dHead; c++)
            y[r * dModel + h * dHead + c] = w[r * dKv + Math.floor(h / (H / KVH)) * dHead + c];
      return y;
    };
    const encodings = [
      { type: 'none' },
      { type: 'rope' },
      { type: 'rope', scaling: { type: 'linear', factor: 2 } },
      { type: 'alibi' },
      { type: 't5', weights: randomF32(32 * H, 5) },
      { type: 'shaw', maxRelative: 2, aK: randomF32(5 * dHead, 6), aV: randomF32(5 * dHead, 7) },
      { type: 'xl', u: randomF32(dModel, 8), v: randomF32(dModel, 9), wr: randomF32(dModel * dModel, 10) },
      { type: 'sinusoidal' },
    ];
    for (const encoding of encodings) {
      for (const causal of [false, true]) {
        const got = pe.selfAttention({ tokens, dModel, wq, wk, wv, heads: H, kvHeads: KVH, encoding, causal });
        const rep = pe.selfAttention({
          tokens,
          dModel,
          wq,
          wk: expand(wk),
          wv: expand(wv),
          heads: H,
          encoding,
          causal,
        });
        assertClose(got.output, rep.output, 2e-6, `${name} ${encoding.type} causal=${causal}`);
        assertClose(got.weights, rep.weights, 2e-6, `${name} ${encoding.type} weights`);
      }
    }
  }
});

test('attention and selfAttention reject a bad kvHeads', async () => {
  const [{ pe }] = await backends();
  const base = {
    q: new Float32Array(4 * 4),
    k: new Float32Array(2 * 4),
    v: new Float32Array(2 * 4),
    queries: 1,
    keys: 1,
    dim: 4,
    heads: 4,
  };
  // k and v of kvHeads = 2 are [1][2][4]
  for (const kvHeads of [3, 5, 0, -1, 1.5, '2', null])
    assertThrowsPosenc(() => pe.attention({ ...base, kvHeads }), [/kvHeads/]);
  assertThrowsPosenc(() => pe.attention({ ...base, kvHeads: 1 }), [/\bk\b/]); // k is [1][1][4], got 8
  assert.equal(pe.attention({ ...base, kvHeads: 2 }).output.length, 16);
  const sa = {
    tokens: new Float32Array(2 * 8),
    dModel: 8,
    wq: new Float32Array(64),
    wk: new Float32Array(8 * 4),
    wv: new Float32Array(8 * 4),
    heads: 4,
  };
  assertThrowsPosenc(() => pe.selfAttention({ ...sa, kvHeads: 3 }), [/kvHeads/, /divisor of heads = 4/]);
  assertThrowsPosenc(() => pe.selfAttention({ ...sa }), [/wk/]); // kvHeads defaults to heads: wk must be 64 long
  assert.equal(pe.selfAttention({ ...sa, kvHeads: 2 }).output.length, 16);
});

// ---- the KV cache ----

/** RoPE'd copies of q and k through applyRope (the reference the cache must agree with). */
function roped(pe, x, T, heads, D, enc) {
  if (enc?.type !== 'rope') return x;
  const { type, ...freq } = enc;
  return pe.applyRope(x.slice(), { length: T, heads, dim: D, ...freq });
}

/** One causal prefill over all T tokens through attention(). */
function prefill(pe, { q, k, v, T, H, KVH, D, DV, enc, window = 0 }) {
  const qr = roped(pe, q, T, H, D, enc),
    kr = roped(pe, k, T, KVH, D, enc);
  let bias = biasOf(enc, D);
  const scale = scaleOf(enc);
  if (window) {
    // the band as an explicit mask, folded into a dense bias (ALiBi/T5 added in float64 below)
    assert.ok(!bias || bias.type === 'none', 'band-mask reference takes no other bias');
    const band = new Float32Array(H * T * T);
    for (let h = 0; h < H; h++)
      for (let i = 0; i < T; i++)
        for (let j = 0; j < T; j++) band[(h * T + i) * T + j] = j > i - window ? 0 : -Infinity;
    bias = band;
  }
  return pe.attention({
    q: qr,
    k: kr,
    v,
    queries: T,
    dim: D,
    dimV: DV,
    heads: H,
    kvHeads: KVH,
    causal: true,
    bias,
    scale,
  }).output;
}

const CACHE_ENCODINGS = (H, D, DV) => [
  undefined,
  { type: 'rope' },
  { type: 'rope', layout: 'interleaved', base: 500000 },
  { type: 'rope', rotaryDim: D - 2, scaling: { type: 'yarn', factor: 4, originalMaxPositions: 16 } },
  { type: 'rope', scaling: { type: 'llama3', factor: 8, originalMaxPositions: 8 } },
  { type: 'rope', scaling: { type: 'dynamic', factor: 2, maxPositions: 8, seqLen: 40 } },
  { type: 'rope', scaling: { type: 'ntk', factor: 3 } },
  ...cacheKinds(H, D, DV, 77),
  ...cacheKinds(H, D, DV, 78),
];

test('a decode loop of appends equals one causal prefill, for every encoding, in chunks of 1, 3 and 16', async () => {
  for (const { name, pe } of await backends()) {
    const [T, H, KVH, D, DV] = [40, 8, 2, 8, 6];
    const q = randomF32(T * H * D, 1),
      k = randomF32(T * KVH * D, 2),
      v = randomF32(T * KVH * DV, 3);
    for (const enc of CACHE_ENCODINGS(H, D, DV)) {
      const want = prefill(pe, { q, k, v, T, H, KVH, D, DV, enc });
      if (!enc || enc.type !== 'rope') {
        // the prefill itself against float64 (RoPE'd inputs are checked by the RoPE suite)
        const bias = biasOf(enc, D);
        assertClose(
          want,
          ref({ q, k, v, Q: T, K: T, H, KVH, D, DV, causal: true, bias, scale: scaleOf(enc) }),
          2e-6,
          `${name} prefill ${enc?.type}`,
        );
      }
      for (const chunk of [1, 3, 16]) {
        const cache = pe.kvCache({ heads: H, kvHeads: KVH, dim: D, dimV: DV, capacity: T + 3, encoding: enc });
        const got = new Float32Array(T * H * DV);
        for (let t0 = 0; t0 < T; t0 += chunk) {
          const n = Math.min(chunk, T - t0);
          cache.append(k.slice(t0 * KVH * D, (t0 + n) * KVH * D), v.slice(t0 * KVH * DV, (t0 + n) * KVH * DV));
          assert.equal(cache.length, t0 + n);
          got.set(cache.attend(q.slice(t0 * H * D, (t0 + n) * H * D)).output, t0 * H * DV);
        }
        cache.free();
        const d = maxAbsDiff(got, want);
        assert.ok(d <= 1e-6, `${name} ${JSON.stringify(enc)} chunk ${chunk}: decode vs prefill ${d}`);
      }
    }
  }
});

test('kvCache: multi-query (kvHeads 1), a single head, dimV != dim, and several queries after a long append', async () => {
  for (const { name, pe } of await backends()) {
    for (const [T, H, KVH, D, DV] of [
      [21, 4, 1, 4, 9],
      [300, 1, 1, 3, 5],
      [17, 6, 6, 2, 2],
    ]) {
      const q = randomF32(T * H * D, 5),
        k = randomF32(T * KVH * D, 6),
        v = randomF32(T * KVH * DV, 7);
      const enc = D % 2 ? { type: 'alibi' } : { type: 'rope' };
      const want = prefill(pe, { q, k, v, T, H, KVH, D, DV, enc });
      const cache = pe.kvCache({ heads: H, kvHeads: KVH, dim: D, dimV: DV, capacity: T, encoding: enc });
      cache.append(k, v);
      // the last 5 queries only: positions T-5 .. T-1
      const got = cache.attend(q.slice((T - 5) * H * D)).output;
      assertClose(got, want.slice((T - 5) * H * DV), 1e-6, `${name} T${T} H${H}/${KVH}`);
      // all T at once equals the prefill
      assertClose(cache.attend(q).output, want, 1e-6, `${name} all`);
      cache.free();
    }
  }
});

test('kvCache sliding window equals an explicit band mask (decode loop and prefill)', async () => {
  for (const { name, pe } of await backends()) {
    const [T, H, KVH, D] = [50, 4, 2, 8];
    const q = randomF32(T * H * D, 11),
      k = randomF32(T * KVH * D, 12),
      v = randomF32(T * KVH * D, 13);
    for (const window of [1, 5, 8, 17, 49, 60]) {
      const want = prefill(pe, { q, k, v, T, H, KVH, D, DV: D, window });
      assertClose(want, ref({ q, k, v, Q: T, K: T, H, KVH, D, causal: true, window }), 2e-6, `${name} band ref`);
      for (const enc of [undefined, { type: 'rope' }]) {
        const wantE = enc ? prefillRopeBand(pe, { q, k, v, T, H, KVH, D, window }) : want;
        const cache = pe.kvCache({ heads: H, kvHeads: KVH, dim: D, capacity: T, window, encoding: enc });
        const got = new Float32Array(T * H * D);
        for (let t = 0; t < T; t++) {
          cache.append(k.subarray(t * KVH * D, (t + 1) * KVH * D), v.subarray(t * KVH * D, (t + 1) * KVH * D));
          got.set(cache.attend(q.subarray(t * H * D, (t + 1) * H * D)).output, t * H * D);
        }
        assertClose(got, wantE, 1e-6, `${name} window ${window} ${enc?.type} decode`);
        assertClose(cache.attend(q).output, wantE, 1e-6, `${name} window ${window} ${enc?.type} prefill`);
        cache.free();
      }
    }
    // ALiBi with a window: the float64 definition
    const cache = pe.kvCache({ heads: H, kvHeads: KVH, dim: D, capacity: T, window: 7, encoding: { type: 'alibi' } });
    cache.append(k, v);
    assertClose(
      cache.attend(q).output,
      ref({ q, k, v, Q: T, K: T, H, KVH, D, causal: true, window: 7, bias: { type: 'alibi' } }),
      2e-6,
      `${name} alibi window`,
    );
    cache.free();
  }
});

function prefillRopeBand(pe, { q, k, v, T, H, KVH, D, window }) {
  const enc = { type: 'rope' };
  return prefill(pe, {
    q: roped(pe, q, T, H, D, enc),
    k: roped(pe, k, T, KVH, D, enc),
    v,
    T,
    H,
    KVH,
    D,
    DV: D,
    window,
  });
}

test('kvCache append / attend { tokens }: keys laid out for 8 heads instead of 2 are refused naming k, not read as 4x the tokens', async () => {
  for (const { name, pe } of await backends()) {
    const [H, KVH, D] = [8, 2, 4];
    const cache = pe.kvCache({ heads: H, kvHeads: KVH, dim: D, capacity: 64, encoding: { type: 'rope' } });
    // one token's keys for 8 heads: a multiple of kvHeads * dim, so its length alone reads as 4 tokens
    const k8 = randomF32(H * D, 1),
      v8 = randomF32(H * D, 2);
    const err = assertThrowsPosenc(
      () => cache.append(k8, v8, { tokens: 1 }),
      [/k must be 1 tokens × kvHeads = 2 × dim = 4 = 8 floats/, /reads as 4 tokens/, /another number of heads/],
      Status.E_SCRATCH,
    );
    assert.equal(err.argument, 'k', name);
    assert.equal(cache.length, 0, `${name}: nothing stored`);
    cache.append(k8.slice(0, KVH * D), v8.slice(0, KVH * D), { tokens: 1 });
    assert.equal(cache.length, 1);
    assertThrowsPosenc(() => cache.append(k8, v8, { tokens: 0 }), [/tokens must be an integer in \[1, 64\]/]);
    // q laid out for 2 heads instead of 8 reads as a quarter of a token: refused by its length as before;
    // q of 2 tokens where 1 is declared is refused naming q
    cache.append(randomF32(KVH * D, 3), randomF32(KVH * D, 4));
    const e2 = assertThrowsPosenc(
      () => cache.attend(randomF32(2 * H * D, 5), { tokens: 1 }),
      [/q must be 1 tokens × heads = 8/, /reads as 2 tokens/],
      Status.E_SCRATCH,
    );
    assert.equal(e2.argument, 'q');
    assert.equal(cache.attend(randomF32(H * D, 5), { tokens: 1 }).output.length, H * D);
    // without tokens, at low capacity, the error names k (what was appended), not capacity
    const small = pe.kvCache({ heads: H, kvHeads: KVH, dim: D, capacity: 2 });
    const e3 = assertThrowsPosenc(
      () => small.append(k8, v8),
      [/k holds 4 tokens/, /pass \{ tokens \}/],
      Status.E_RANGE,
    );
    assert.equal(e3.argument, 'k');
    small.free();
    cache.free();
  }
});

test('kvCache capacity: growth past it is an error naming k and the capacity, nothing is overwritten; truncate rewinds', async () => {
  for (const { name, pe } of await backends()) {
    const [H, KVH, D] = [2, 1, 4];
    const T = 10;
    const q = randomF32(T * H * D, 1),
      k = randomF32(T * KVH * D, 2),
      v = randomF32(T * KVH * D, 3);
    const cache = pe.kvCache({ heads: H, kvHeads: KVH, dim: D, capacity: 6, encoding: { type: 'rope' } });
    cache.append(k.slice(0, 4 * D), v.slice(0, 4 * D));
    const before = cache.attend(q.slice(3 * H * D, 4 * H * D)).output;
    const err = assertThrowsPosenc(
      () => cache.append(k.slice(4 * D, 7 * D), v.slice(4 * D, 7 * D)),
      [/capacity = 6/, /it holds 4/, /k holds 3 tokens/, /room for 2/],
      Status.E_RANGE,
    );
    // k is what does not fit (it may be laid out for more heads than the cache has: see tokens)
    assert.equal(err.argument, 'k');
    assert.equal(cache.length, 4, `${name}: a rejected append leaves the length`);
    assert.deepEqual(cache.attend(q.slice(3 * H * D, 4 * H * D)).output, before);
    cache.append(k.slice(4 * D, 6 * D), v.slice(4 * D, 6 * D)); // exactly full
    assert.equal(cache.length, 6);
    assertThrowsPosenc(() => cache.append(k.slice(0, D), v.slice(0, D)), [/capacity = 6/], Status.E_RANGE);
    // truncate to 2 and append other tokens: the cache is the prefill of the new sequence
    cache.truncate(2);
    assert.equal(cache.length, 2);
    const k2 = k.slice(),
      v2 = v.slice();
    k2.set(randomF32(4 * D, 9), 2 * D);
    v2.set(randomF32(4 * D, 10), 2 * D);
    cache.append(k2.slice(2 * D, 6 * D), v2.slice(2 * D, 6 * D));
    const want = prefill(pe, {
      q: q.slice(0, 6 * H * D),
      k: k2.slice(0, 6 * D),
      v: v2.slice(0, 6 * D),
      T: 6,
      H,
      KVH,
      D,
      DV: D,
      enc: { type: 'rope' },
    });
    assertClose(cache.attend(q.slice(0, 6 * H * D)).output, want, 1e-6, `${name} after truncate`);
    cache.truncate(0);
    assertThrowsPosenc(() => cache.attend(q.slice(0, H * D)), [/empty/], Status.E_RANGE);
    cache.free();
  }
});

test('kvCache: the caller arrays are not modified; a PosencBuffer works in place of an array; out is filled', async () => {
  const [{ pe }] = await backends();
  const [H, KVH, D] = [4, 2, 8];
  const k = randomF32(3 * KVH * D, 1),
    v = randomF32(3 * KVH * D, 2),
    q = randomF32(3 * H * D, 3);
  const k0 = k.slice(),
    q0 = q.slice();
  const a = pe.kvCache({ heads: H, kvHeads: KVH, dim: D, capacity: 3, encoding: { type: 'rope' } });
  a.append(k, v);
  const outA = a.attend(q).output;
  assert.deepEqual(k, k0);
  assert.deepEqual(q, q0);
  const kb = pe.alloc(k.length),
    vb = pe.alloc(v.length),
    qb = pe.alloc(q.length);
  kb.array.set(k);
  vb.array.set(v);
  qb.array.set(q);
  const b = pe.kvCache({ heads: H, kvHeads: KVH, dim: D, capacity: 3, encoding: { type: 'rope' } });
  b.append(kb, vb);
  const out = new Float32Array(3 * H * D);
  assert.equal(b.attend(qb, { out }).output, out);
  assert.deepEqual(out, outA);
  assert.deepEqual(kb.array, k0);
  assert.deepEqual(qb.array, q0);
  for (const x of [a, b, kb, vb, qb]) x.free();
});

test('kvCache: SIMD and scalar builds agree', async () => {
  const [s, c] = await backends();
  const [T, H, KVH, D] = [70, 8, 2, 16];
  const q = randomF32(T * H * D, 4),
    k = randomF32(T * KVH * D, 5),
    v = randomF32(T * KVH * D, 6);
  for (const enc of [{ type: 'rope' }, ...cacheKinds(H, D, D, 7)]) {
    const outs = [s, c].map(({ pe }) => {
      const cache = pe.kvCache({ heads: H, kvHeads: KVH, dim: D, capacity: T, encoding: enc, window: 33 });
      cache.append(k, v);
      const o = cache.attend(q.subarray((T - 1) * H * D)).output;
      cache.free();
      return o;
    });
    assertClose(outs[0], outs[1], 1e-6, enc.type);
  }
});

test('kvCache: no leak over many caches, appends and attends', async () => {
  const [{ pe }] = await backends();
  const run = () => {
    const cache = pe.kvCache({
      heads: 4,
      kvHeads: 2,
      dim: 8,
      capacity: 64,
      encoding: { type: 't5', weights: randomF32(32 * 4, 1) },
    });
    for (let t = 0; t < 8; t++) {
      cache.append(randomF32(2 * 8, t), randomF32(2 * 8, t + 1));
      cache.attend(randomF32(4 * 8, t + 2));
    }
    cache.free();
    cache.free(); // twice is harmless
  };
  run();
  const before = pe.heapInUse;
  for (let i = 0; i < 30; i++) run();
  assert.equal(pe.heapInUse, before);
  // a cache made and dropped before its first append holds no wasm memory
  for (let i = 0; i < 5; i++)
    pe.kvCache({ heads: 32, kvHeads: 8, dim: 128, capacity: 4096, encoding: { type: 'rope' } });
  assert.equal(pe.heapInUse, before);
  // ... but its options are fully checked when it is made (frequencies that overflow together)
  assertThrowsPosenc(
    () => pe.kvCache({ dim: 8, capacity: 4, encoding: { type: 'rope', scaling: { type: 'linear', factor: 1e-320 } } }),
    [/encoding.scaling.factor/],
    Status.E_RANGE,
  );
});

test('kvCache throws a PosencError naming every bad option', async () => {
  const [{ pe }] = await backends();
  const ok = { heads: 4, kvHeads: 2, dim: 8, capacity: 16 };
  for (const [key, bad] of [
    ['heads', BAD_SIZES],
    ['dim', BAD_SIZES],
    ['capacity', [...BAD_SIZES, 2 ** 28 + 1]],
    ['dimV', BAD_SIZES],
  ]) {
    for (const x of bad) assertThrowsPosenc(() => pe.kvCache({ ...ok, [key]: x }), [new RegExp(key)]);
  }
  for (const x of [3, 5, 0, 1.5, '2']) assertThrowsPosenc(() => pe.kvCache({ ...ok, kvHeads: x }), [/kvHeads/]);
  for (const x of [-1, 1.5, NaN, '4', null]) assertThrowsPosenc(() => pe.kvCache({ ...ok, window: x }), [/window/]);
  for (const x of [NaN, Infinity, '1', null]) assertThrowsPosenc(() => pe.kvCache({ ...ok, scale: x }), [/scale/]);
  assertThrowsPosenc(() => pe.kvCache({ ...ok, capacity: undefined }), [/capacity is required/], Status.E_MISSING);
  assertThrowsPosenc(() => pe.kvCache({ ...ok, dim: undefined }), [/dim is required/], Status.E_MISSING);
  assertThrowsPosenc(() => pe.kvCache({ ...ok, keys: 3 }), [/unknown option "keys"/]);
  assertThrowsPosenc(() => pe.kvCache(null), [/options/]);
  assertThrowsPosenc(() => pe.kvCache({ heads: 1, dim: 2 ** 20, capacity: 2 ** 9 }), [/size|elements/]);
  // encodings
  for (const [enc, pat] of [
    [null, /encoding/],
    ['rope', /encoding/],
    [{ type: 'xl' }, /encoding.type.*r table/],
    [{ type: 'sinusoidal' }, /encoding.type.*'none'/],
    [{ type: 'learned' }, /encoding.type/],
    [{ type: 'bogus' }, /encoding.type/],
    [{ type: 'rope', offset: 2 }, /unknown option "offset"/],
    [{ type: 'rope', base: 1 }, /encoding.base/],
    [{ type: 'rope', rotaryDim: 3 }, /encoding.rotaryDim/],
    [{ type: 'rope', rotaryDim: 10 }, /encoding.rotaryDim/],
    [{ type: 'rope', layout: 'x' }, /encoding.layout/],
    [{ type: 'rope', scaling: { type: 'yarn' } }, /encoding.scaling/],
    [{ type: 'rope', scaling: { type: 'linear', factor: -1 } }, /encoding.scaling.factor/],
    [{ type: 'alibi', form: 'x' }, /encoding.form/],
    [{ type: 't5' }, /encoding.weights is required/],
    [{ type: 't5', weights: new Float32Array(5) }, /encoding.weights/],
    [{ type: 't5', weights: [1, 2] }, /encoding.weights/],
    [{ type: 't5', weights: new Float32Array(32 * 4).fill(NaN) }, /encoding.weights\[0\]/],
    [{ type: 't5', weights: new Float32Array(32 * 4), numBuckets: 1 }, /encoding.numBuckets/],
    [{ type: 't5', weights: new Float32Array(32 * 4), maxDistance: 2 }, /encoding.maxDistance/],
    [{ type: 't5', weights: new Float32Array(32 * 4), bidirectional: 1 }, /encoding.bidirectional/],
    [{ type: 'shaw', aK: new Float32Array(24), aV: new Float32Array(24) }, /encoding.maxRelative is required/],
    [{ type: 'shaw', maxRelative: 1, aK: new Float32Array(23), aV: new Float32Array(24) }, /encoding.aK/],
    [{ type: 'shaw', maxRelative: 1, aK: new Float32Array(24), aV: new Float64Array(24) }, /encoding.aV/],
    [{ type: 'shaw', maxRelative: 0, aK: new Float32Array(8), aV: new Float32Array(8) }, /encoding.maxRelative/],
  ])
    assertThrowsPosenc(() => pe.kvCache({ ...ok, encoding: enc }), [pat]);
  assertThrowsPosenc(() => pe.kvCache({ ...ok, dim: 7, encoding: { type: 'rope' } }), [/dim/], Status.E_ODD);
});

test('kvCache append / attend / truncate throw a PosencError naming the argument; a freed cache throws', async () => {
  const [{ pe }] = await backends();
  const cache = pe.kvCache({ heads: 4, kvHeads: 2, dim: 4, dimV: 3, capacity: 8 });
  const k1 = new Float32Array(8),
    v1 = new Float32Array(6),
    q1 = new Float32Array(16);
  for (const [k, v, pat] of [
    [undefined, v1, /k is required/],
    [k1, undefined, /v is required/],
    [[1, 2], v1, /\bk must be/],
    [new Float64Array(8), v1, /\bk must be/],
    [new Float32Array(7), v1, /\bk must be .*multiple of 8/],
    [new Float32Array(0), v1, /\bk must be/],
    [k1, new Float32Array(5), /\bv must be/],
    [new Float32Array(16), v1, /\bv must be 2 tokens/],
    [Float32Array.of(0, 0, NaN, 0, 0, 0, 0, 0), v1, /k\[2\] must be finite/],
    [k1, Float32Array.of(0, Infinity, 0, 0, 0, 0), /v\[1\] must be finite/],
  ])
    assertThrowsPosenc(() => cache.append(k, v), [pat]);
  assert.equal(cache.length, 0);
  assertThrowsPosenc(() => cache.attend(q1), [/empty/], Status.E_RANGE);
  cache.append(k1, v1);
  for (const [q, pat] of [
    [undefined, /q is required/],
    [new Float32Array(15), /\bq must be/],
    [new Float32Array(32), /q must be at most 1 tokens/],
    [[0], /\bq must be/],
    [Float32Array.of(NaN, ...new Array(15).fill(0)), /q\[0\] must be finite/],
  ]) {
    assertThrowsPosenc(() => cache.attend(q), [pat]);
  }
  assertThrowsPosenc(() => cache.attend(q1, { out: new Float32Array(3) }), [/\bout\b/]);
  assertThrowsPosenc(() => cache.attend(q1, { bias: 1 }), [/unknown option "bias"/]);
  for (const n of [2, -1, 0.5, '1', undefined]) assertThrowsPosenc(() => cache.truncate(n), [/\bn\b/]);
  cache.free();
  for (const f of [() => cache.append(k1, v1), () => cache.attend(q1), () => cache.truncate(0)])
    assertThrowsPosenc(f, [/freed/], Status.E_NULL);
  // huge values: the float32 bound names q and k
  const c2 = pe.kvCache({ heads: 1, dim: 4, capacity: 2 });
  c2.append(new Float32Array(4).fill(1e30), new Float32Array(4).fill(1));
  assertThrowsPosenc(() => c2.attend(new Float32Array(4).fill(1e30)), [/q, k/, /fits float32/], Status.E_PARAM);
  c2.free();
});

test('kvCache reads each option once (a getter runs once) and keeps its own copy of tables', async () => {
  const [{ pe }] = await backends();
  let reads = 0;
  const opts = { heads: 2, dim: 4, encoding: { type: 'rope' } };
  Object.defineProperty(opts, 'capacity', {
    enumerable: true,
    get: () => {
      reads++;
      return reads === 1 ? 4 : -1;
    },
  });
  const cache = pe.kvCache(opts);
  assert.equal(reads, 1);
  assert.equal(cache.capacity, 4);
  // a T5 table changed after creation does not change the cache
  const weights = randomF32(32 * 2, 3);
  const t5 = pe.kvCache({ heads: 2, dim: 4, capacity: 4, encoding: { type: 't5', weights } });
  const k = randomF32(3 * 2 * 4, 4),
    q = randomF32(3 * 2 * 4, 5);
  t5.append(k, k);
  const before = t5.attend(q).output;
  weights.fill(100);
  assert.deepEqual(t5.attend(q).output, before);
  for (const c of [cache, t5]) c.free();
});

test('kvCache reads array lengths from internal slots: a `length` getter that frees the cache never runs', async () => {
  const [{ pe }] = await backends();
  const before = pe.heapInUse;
  const cache = pe.kvCache({ heads: 1, dim: 4, capacity: 1024 });
  const k = Float32Array.of(1, 0, 0, 0);
  let ran = 0;
  Object.defineProperty(k, 'length', {
    get() {
      ran++;
      cache.free();
      return 4;
    },
  });
  cache.append(k, Float32Array.of(1, 2, 3, 4));
  const q = Float32Array.of(1, 0, 0, 0);
  Object.defineProperty(q, 'length', {
    get() {
      ran++;
      cache.free();
      return 4;
    },
  });
  assert.deepEqual(Array.from(cache.attend(q).output), [1, 2, 3, 4]);
  assert.equal(ran, 0);
  assert.equal(cache.length, 1);
  // a getter on the options of attend runs (once) before the liveness check
  const opts = {};
  Object.defineProperty(opts, 'out', {
    enumerable: true,
    get() {
      cache.free();
      return undefined;
    },
  });
  assertThrowsPosenc(() => cache.attend(Float32Array.of(1, 0, 0, 0), opts), [/freed/], Status.E_NULL);
  assertThrowsPosenc(
    () => cache.append(Float32Array.of(1, 0, 0, 0), Float32Array.of(1, 2, 3, 4)),
    [/freed/],
    Status.E_NULL,
  );
  assert.equal(pe.heapInUse, before);
});

test('kvCache accepts Float32Arrays of another realm (node:vm), as attention does', async () => {
  const vm = await import('node:vm');
  for (const { name, pe } of await backends()) {
    const foreign = (a) => vm.runInNewContext(`new Float32Array([${Array.from(a).join(',')}])`);
    const weights = randomF32(32 * 2, 9);
    const k = randomF32(3 * 2 * 4, 10),
      v = randomF32(3 * 2 * 4, 11),
      q = randomF32(2 * 2 * 4, 12);
    const opts = { heads: 2, dim: 4, capacity: 8, encoding: { type: 't5', weights } };
    const local = pe.kvCache(opts);
    local.append(k, v);
    const want = local.attend(q).output;
    const other = pe.kvCache({ ...opts, encoding: { type: 't5', weights: foreign(weights) } });
    assert.ok(!(foreign(k) instanceof Float32Array)); // really another realm's array
    other.append(foreign(k), foreign(v));
    const out = new Float32Array(want.length);
    assert.deepEqual(other.attend(foreign(q)).output, want, name);
    other.attend(q, { out });
    assert.deepEqual(out, want, `${name} out`);
    local.free();
    other.free();
  }
});

test('queryScale and chunk: attention, kvCache and selfAttention against float64, every bias, GQA', async () => {
  const tempTuning = (p) => 1 + 0.1 * Math.log1p(Math.floor((p + 1) / 8)); // Llama 4's form
  for (const { name, pe } of await backends()) {
    const [Q, K, H, KVH, D, DV] = [21, 300, 8, 2, 8, 6];
    const q = randomF32(Q * H * D, 31),
      k = randomF32(K * KVH * D, 32),
      v = randomF32(K * KVH * DV, 33);
    const qs = Float32Array.from({ length: Q }, (_, i) => 0.5 + (i % 5) * 0.4);
    for (const [bname, bias] of Object.entries(BIASES(H, D, DV, 40, { Q, K }))) {
      for (const [causal, offset, chunk] of [
        [false, 0, 7],
        [true, K - Q, 64],
        [false, 290, 256],
        [true, K - Q, 0],
      ]) {
        const base = {
          q,
          k,
          v,
          queries: Q,
          keys: K,
          heads: H,
          kvHeads: KVH,
          dim: D,
          dimV: DV,
          causal,
          align: 'bottom-right',
          offset,
          bias,
        };
        const want = ref({ q, k, v, Q, K, H, KVH, D, DV, causal, offset, bias, qscale: qs, chunk });
        const what = `${name} ${bname} causal=${causal} offset=${offset} chunk=${chunk}`;
        assertClose(pe.attention({ ...base, queryScale: qs, chunk }).output, want, 2e-6, what);
        assertClose(
          pe.attention({ ...base, queryScale: qs, chunk, returnWeights: true }).output,
          want,
          2e-6,
          `${what} weights path`,
        );
        // a function of the absolute position gives the same factors
        const fs = Float32Array.from({ length: Q }, (_, i) => tempTuning(i + offset));
        assertClose(
          pe.attention({ ...base, queryScale: tempTuning, chunk }).output,
          ref({ q, k, v, Q, K, H, KVH, D, DV, causal, offset, bias, qscale: fs, chunk }),
          2e-6,
          `${what} function`,
        );
      }
    }
    // kvCache: a decode loop, chunked, with the temperature function of the position
    const T = 40;
    const kq = randomF32(T * H * D, 34),
      kk = randomF32(T * KVH * D, 35),
      kv = randomF32(T * KVH * DV, 36);
    for (const enc of [undefined, ...cacheKinds(H, D, DV, 37)]) {
      const cache = pe.kvCache({
        heads: H,
        kvHeads: KVH,
        dim: D,
        dimV: DV,
        capacity: T,
        encoding: enc,
        chunk: 8,
        queryScale: tempTuning,
      });
      const bias = biasOf(enc, D);
      for (let t = 0; t < T; t++) {
        cache.append(kk.subarray(t * KVH * D, (t + 1) * KVH * D), kv.subarray(t * KVH * DV, (t + 1) * KVH * DV));
        const got = cache.attend(kq.subarray(t * H * D, (t + 1) * H * D)).output;
        const want = ref({
          q: kq.subarray(t * H * D),
          k: kk,
          v: kv,
          Q: 1,
          K: t + 1,
          H,
          KVH,
          D,
          DV,
          causal: true,
          offset: t,
          bias,
          scale: scaleOf(enc),
          qscale: [tempTuning(t)],
          chunk: 8,
        });
        assertClose(got, want, 2e-6, `${name} kvCache ${enc?.type ?? 'none'} t=${t}`);
      }
      // a Float32Array per call overrides the function
      const one = Float32Array.of(2);
      const want = ref({
        q: kq.subarray((T - 1) * H * D),
        k: kk,
        v: kv,
        Q: 1,
        K: T,
        H,
        KVH,
        D,
        DV,
        causal: true,
        offset: T - 1,
        bias,
        scale: scaleOf(enc),
        qscale: one,
        chunk: 8,
      });
      assertClose(
        cache.attend(kq.subarray((T - 1) * H * D), { queryScale: one }).output,
        want,
        2e-6,
        `${name} kvCache override`,
      );
      cache.free();
    }
    // selfAttention passes both through to the same attention
    const dModel = 16,
      heads = 2,
      L = 12;
    const x = randomF32(L * dModel, 50),
      wq = randomF32(dModel * dModel, 51),
      wk = randomF32(dModel * dModel, 52),
      wv = randomF32(dModel * dModel, 53);
    const proj = (w) => pe.matmul(x, w, { m: L, k: dModel, n: dModel });
    const sqs = Float32Array.from({ length: L }, (_, i) => 1 + i / 10);
    const got = pe.selfAttention({
      tokens: x,
      dModel,
      wq,
      wk,
      wv,
      heads,
      causal: true,
      queryScale: sqs,
      chunk: 5,
      returnWeights: false,
    }).output;
    const want = pe.attention({
      q: proj(wq),
      k: proj(wk),
      v: proj(wv),
      queries: L,
      heads,
      dim: dModel / heads,
      causal: true,
      queryScale: sqs,
      chunk: 5,
    }).output;
    assert.deepEqual(got, want, `${name} selfAttention`);
  }
});

test('queryScale and chunk: bad values throw a PosencError naming them', async () => {
  const [{ pe }] = await backends();
  const p = { q: new Float32Array(8), k: new Float32Array(8), v: new Float32Array(8), queries: 2, dim: 4 };
  assertThrowsPosenc(() => pe.attention({ ...p, chunk: -1 }), [/\bchunk must be an integer in \[0, /]);
  assertThrowsPosenc(() => pe.attention({ ...p, chunk: 1.5 }), [/\bchunk\b/]);
  assertThrowsPosenc(() => pe.attention({ ...p, queryScale: new Float32Array(3) }), [/queryScale/], Status.E_SCRATCH);
  assertThrowsPosenc(() => pe.attention({ ...p, queryScale: [1, 1] }), [/queryScale must be a Float32Array/]);
  assertThrowsPosenc(
    () => pe.attention({ ...p, queryScale: Float32Array.of(1, NaN) }),
    [/queryScale\[1\] must be finite/],
  );
  assertThrowsPosenc(
    () => pe.attention({ ...p, queryScale: (pos) => (pos ? Infinity : 1) }),
    [/queryScale\(1\) must be a finite number/],
  );
  assertThrowsPosenc(
    () =>
      pe.attention({
        ...p,
        queryScale: () => {
          throw new Error('boom');
        },
      }),
    [/queryScale\(0\) threw \(boom\)/],
  );
  assertThrowsPosenc(
    () =>
      pe.attention({
        ...p,
        q: new Float32Array(8).fill(1e18),
        k: new Float32Array(8).fill(1e18),
        queryScale: Float32Array.of(1, 1e5),
      }),
    [/q, queryScale, k/, /fits float32/],
    Status.E_PARAM,
  );
  assertThrowsPosenc(
    () => pe.kvCache({ dim: 4, capacity: 4, queryScale: new Float32Array(1) }),
    [/queryScale must be a function/],
  );
  assertThrowsPosenc(() => pe.kvCache({ dim: 4, capacity: 4, chunk: -3 }), [/\bchunk\b/]);
  const c = pe.kvCache({ dim: 4, capacity: 4, queryScale: () => NaN });
  c.append(new Float32Array(4), new Float32Array(4));
  assertThrowsPosenc(() => c.attend(new Float32Array(4)), [/queryScale\(0\) must be a finite number/]);
  assertThrowsPosenc(
    () => c.attend(new Float32Array(4), { queryScale: new Float32Array(2) }),
    [/queryScale/],
    Status.E_SCRATCH,
  );
  c.free();
});

test('window: attention and selfAttention vs float64: every bias, GQA, chunk, queryScale, both masks', async () => {
  for (const { name, pe } of await backends()) {
    const [Q, K, H, KVH, D, DV] = [21, 300, 8, 2, 8, 6];
    const q = randomF32(Q * H * D, 61),
      k = randomF32(K * KVH * D, 62),
      v = randomF32(K * KVH * DV, 63);
    const qs = Float32Array.from({ length: Q }, (_, i) => 0.5 + (i % 5) * 0.4);
    const cases = [
      // [causal, offset, window, chunk, queryScale]
      [true, K - Q, 1, 0, false],
      [true, K - Q, 17, 0, true],
      [false, 0, 5, 0, false],
      [false, 140, 9, 0, true],
      [true, K - Q, 40, 32, true],
      [false, 290, 30, 256, false],
      [true, 0, 4, 0, false],
      [false, 0, 1000, 0, false],
    ];
    for (const [bname, bias] of Object.entries(BIASES(H, D, DV, 60, { Q, K }))) {
      for (const [causal, offset, window, chunk, useQs] of cases) {
        const base = {
          q,
          k,
          v,
          queries: Q,
          keys: K,
          heads: H,
          kvHeads: KVH,
          dim: D,
          dimV: DV,
          causal,
          align: offset === K - Q ? 'bottom-right' : 'top-left',
          offset,
          bias,
          window,
          chunk,
          ...(useQs ? { queryScale: qs } : {}),
        };
        const want = ref({
          q,
          k,
          v,
          Q,
          K,
          H,
          KVH,
          D,
          DV,
          causal,
          offset,
          bias,
          window,
          chunk,
          qscale: useQs ? qs : undefined,
        });
        const what = `${name} ${bname} causal=${causal} offset=${offset} window=${window} chunk=${chunk}`;
        assertClose(pe.attention(base).output, want, 2e-6, what);
        assertClose(pe.attention({ ...base, returnWeights: true }).output, want, 2e-6, `${what} weights path`);
      }
    }
    // the window changes the answer (a test that passes without it proves nothing)
    const plain = pe.attention({ q, k, v, queries: Q, keys: K, heads: H, kvHeads: KVH, dim: D, dimV: DV }).output;
    assert.ok(
      maxAbsDiff(
        plain,
        pe.attention({ q, k, v, queries: Q, keys: K, heads: H, kvHeads: KVH, dim: D, dimV: DV, window: 5 }).output,
      ) > 1e-3,
      `${name}: window 5 differs from none`,
    );
    assert.deepEqual(
      pe.attention({ q, k, v, queries: Q, keys: K, heads: H, kvHeads: KVH, dim: D, dimV: DV, window: 0 }).output,
      plain,
      `${name}: window 0 is none`,
    );
    // selfAttention passes it to the same attention
    const dModel = 16,
      heads = 2,
      L = 12;
    const x = randomF32(L * dModel, 64),
      wq = randomF32(dModel * dModel, 65),
      wk = randomF32(dModel * dModel, 66),
      wv = randomF32(dModel * dModel, 67);
    const proj = (w) => pe.matmul(x, w, { m: L, k: dModel, n: dModel });
    for (const causal of [true, false]) {
      const got = pe.selfAttention({
        tokens: x,
        dModel,
        wq,
        wk,
        wv,
        heads,
        causal,
        window: 3,
        returnWeights: false,
      }).output;
      const pq = proj(wq),
        pk = proj(wk),
        pv = proj(wv);
      assertClose(
        got,
        ref({ q: pq, k: pk, v: pv, Q: L, K: L, H: heads, D: dModel / heads, causal, window: 3 }),
        2e-6,
        `${name} selfAttention causal=${causal}`,
      );
    }
  }
});

test('window: attention({ window, causal }) equals a kvCache with the same window (prefill and decode)', async () => {
  for (const { name, pe } of await backends()) {
    const [T, H, KVH, D, DV] = [45, 8, 2, 8, 5];
    const q = randomF32(T * H * D, 71),
      k = randomF32(T * KVH * D, 72),
      v = randomF32(T * KVH * DV, 73);
    const temp = (p) => 1 + 0.1 * Math.log1p(Math.floor((p + 1) / 8));
    for (const enc of [undefined, ...cacheKinds(H, D, DV, 74)]) {
      for (const [window, chunk, queryScale] of [
        [4, 0, undefined],
        [9, 16, temp],
        [100, 0, temp],
      ]) {
        const bias = biasOf(enc, D);
        const opts = {
          heads: H,
          kvHeads: KVH,
          dim: D,
          dimV: DV,
          window,
          chunk,
          queryScale,
          scale: scaleOf(enc),
        };
        const want = pe.attention({ q, k, v, queries: T, causal: true, bias, ...opts }).output;
        const cache = pe.kvCache({ ...opts, capacity: T, encoding: enc });
        const got = new Float32Array(T * H * DV);
        for (let t = 0; t < T; t++) {
          cache.append(k.subarray(t * KVH * D, (t + 1) * KVH * D), v.subarray(t * KVH * DV, (t + 1) * KVH * DV));
          got.set(cache.attend(q.subarray(t * H * D, (t + 1) * H * D)).output, t * H * DV);
        }
        const what = `${name} ${enc?.type ?? 'none'} window=${window} chunk=${chunk}`;
        assertClose(got, want, 1e-6, `${what} decode`);
        assertClose(cache.attend(q).output, want, 1e-6, `${what} prefill`);
        cache.free();
      }
    }
  }
});

test('window: bad values throw a PosencError naming it', async () => {
  const [{ pe }] = await backends();
  const p = { q: new Float32Array(8), k: new Float32Array(8), v: new Float32Array(8), queries: 2, dim: 4 };
  assertThrowsPosenc(() => pe.attention({ ...p, window: -1 }), [/\bwindow must be an integer in \[0, /], Status.E_SIZE);
  assertThrowsPosenc(() => pe.attention({ ...p, window: 2.5 }), [/\bwindow\b/], Status.E_PARAM);
  assertThrowsPosenc(() => pe.attention({ ...p, window: '4' }), [/\bwindow\b/], Status.E_PARAM);
  assertThrowsPosenc(() => pe.attention({ ...p, window: 2 ** 31 }), [/\bwindow\b/], Status.E_SIZE);
  const sp = {
    tokens: new Float32Array(8),
    dModel: 4,
    wq: new Float32Array(16),
    wk: new Float32Array(16),
    wv: new Float32Array(16),
  };
  assertThrowsPosenc(() => pe.selfAttention({ ...sp, window: -2 }), [/\bwindow\b/]);
  assertThrowsPosenc(() => pe.kvCache({ dim: 4, capacity: 4, window: -1 }), [/\bwindow\b/]);
});
