// posenc's ropeCache fed to onnxruntime-web's com.microsoft RotaryEmbedding (the op transformers.js
// exports use), against posenc's own applyRope on the same input: cos_cache / sin_cache are
// ropeCache's cos / sin as they are ([positions][rotaryDim / 2], the YaRN / LongRoPE attention
// factor included), posenc's layout 'interleaved' is the op's interleaved = 1, 'half' is 0, and a
// partial rotation is rotary_embedding_dim. docs/interop.md says the same to users. The ONNX graph
// is hand-encoded with bench/onnx_attention.js's builder (no ONNX tooling needed).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { onnxModel } from '../bench/onnx_attention.js';
import { assertThrowsPosenc, backends, randomF32 } from './helpers.js';

const config = (name) => JSON.parse(readFileSync(new URL(`./fixtures/configs/${name}.json`, import.meta.url), 'utf8'));

let ort;
async function session(bytes) {
  ort ??= await import('onnxruntime-web');
  ort.env.wasm.numThreads = 1;
  ort.env.logLevel = 'error';
  return ort.InferenceSession.create(bytes, { executionProviders: ['wasm'] });
}

/** RotaryEmbedding over x [1][S][heads · dim] at position_ids [1][S]. */
function rotaryModel({ S, heads, dim, rotaryDim, maxPos, interleaved }) {
  return onnxModel({
    msOpset: true,
    nodes: [
      {
        op: 'RotaryEmbedding',
        domain: 'com.microsoft',
        inputs: ['x', 'pos', 'cos', 'sin'],
        outputs: ['y'],
        attrs: [
          ['interleaved', interleaved ? 1 : 0],
          ['num_heads', heads],
          ['rotary_embedding_dim', rotaryDim],
        ],
      },
    ],
    inputs: [
      ['x', [1, S, heads * dim]],
      ['pos', [1, S], 'int64'],
      ['cos', [maxPos, rotaryDim / 2]],
      ['sin', [maxPos, rotaryDim / 2]],
    ],
    outputs: [['y', [1, S, heads * dim]]],
  });
}

test("ropeCache is onnxruntime-web RotaryEmbedding's cos_cache / sin_cache; layout is its interleaved", {
  timeout: 300_000,
}, async () => {
  const [{ pe }] = await backends();
  // default, YaRN with its attention factor (gpt-oss), LongRoPE partial (Phi-4-mini), adjacent pairs (Aya-23),
  // Llama 3 scaling
  const cases = [
    ['llama-3.2-1b', 0],
    ['gpt-oss-20b', 0],
    ['phi-4-mini', 0],
    ['aya-23-8b', 0],
    ['qwen3-1.7b', 0],
  ];
  for (const [name, layer] of cases) {
    const spec = pe.fromConfig(config(name), { layer });
    assert.equal(spec.family, 'rope', name);
    if (spec.family !== 'rope') continue;
    const { dim, rotaryDim = dim, layout } = spec.rope;
    const heads = 2;
    const S = 5;
    const maxPos = 64;
    const positions = [0, 1, 17, 40, 63];
    const { cos, sin, attentionScale } = pe.ropeCache({ length: maxPos, ...spec.rope });
    assert.equal(cos.length, maxPos * (rotaryDim / 2));
    const x = randomF32(S * heads * dim, 31);
    const sess = await session(
      rotaryModel({ S, heads, dim, rotaryDim, maxPos, interleaved: layout === 'interleaved' }),
    );
    const feeds = {
      x: new ort.Tensor('float32', x, [1, S, heads * dim]),
      pos: new ort.Tensor('int64', BigInt64Array.from(positions.map(BigInt)), [1, S]),
      cos: new ort.Tensor('float32', cos, [maxPos, rotaryDim / 2]),
      sin: new ort.Tensor('float32', sin, [maxPos, rotaryDim / 2]),
    };
    const y = (await sess.run(feeds)).y.data;
    await sess.release();
    // posenc rotates the same tokens at the same positions, one token at a time (offset = position)
    const want = new Float32Array(x.length);
    for (let t = 0; t < S; t++) {
      const row = x.slice(t * heads * dim, (t + 1) * heads * dim);
      want.set(pe.applyRope(row, { length: 1, heads, offset: positions[t], ...spec.rope }), t * heads * dim);
    }
    let err = 0;
    for (let i = 0; i < want.length; i++) err = Math.max(err, Math.abs(y[i] - want[i]));
    assert.ok(err < 2e-6, `${name}: RotaryEmbedding(ropeCache) vs applyRope max err ${err}`);
    // the attention factor is in the caches: a YaRN model's rotated pairs are scaled by it
    if (attentionScale !== 1) {
      const r = Math.hypot(cos[0], sin[0]);
      assert.ok(Math.abs(r - attentionScale) < 1e-6, `${name}: |cos, sin| = ${r}, attention factor ${attentionScale}`);
    }
    // the wrong pairing is visibly wrong: the layout mapping is not a formality
    const swapped = await session(
      rotaryModel({ S, heads, dim, rotaryDim, maxPos, interleaved: layout !== 'interleaved' }),
    );
    const z = (await swapped.run(feeds)).y.data;
    await swapped.release();
    let off = 0;
    for (let i = 0; i < want.length; i++) off = Math.max(off, Math.abs(z[i] - want[i]));
    assert.ok(off > 1e-2, `${name}: the other pairing differs (${off})`);
  }
});

/** GroupQueryAttention with RoPE inside (do_rotary) and its past / present, cos_cache / sin_cache
 * fed from posenc's ropeCache: the decoder step onnxruntime-web runs for transformers.js's
 * exported Llama-style models. query [1][S][H·D], key / value [1][S][KVH·D], past [1][KVH][P][D]. */
function gqaModel({ H, KVH, D, scale, interleaved, maxPos }) {
  return onnxModel({
    msOpset: true,
    nodes: [
      {
        op: 'GroupQueryAttention',
        domain: 'com.microsoft',
        inputs: ['q', 'k', 'v', 'past_key', 'past_value', 'seqlens_k', 'total', 'cos', 'sin'],
        outputs: ['out', 'present_key', 'present_value'],
        attrs: [
          ['num_heads', H],
          ['kv_num_heads', KVH],
          ['scale', scale, 'float'],
          ['do_rotary', 1],
          ['rotary_interleaved', interleaved ? 1 : 0],
        ],
      },
    ],
    inputs: [
      ['q', [1, 'S', H * D]],
      ['k', [1, 'S', KVH * D]],
      ['v', [1, 'S', KVH * D]],
      ['past_key', [1, KVH, 'P', D]],
      ['past_value', [1, KVH, 'P', D]],
      ['seqlens_k', [1], 'int32'],
      ['total', [], 'int32'],
      ['cos', [maxPos, D / 2]],
      ['sin', [maxPos, D / 2]],
    ],
    outputs: [
      ['out', [1, 'S', H * D]],
      ['present_key', [1, KVH, 'T', D]],
      ['present_value', [1, KVH, 'T', D]],
    ],
  });
}

const maxDiff = (a, b) => {
  assert.equal(a.length, b.length);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
};

test('kvCache.importPast / exportPresent: an onnxruntime-web GroupQueryAttention prefill continued by posenc, and the reverse, agree within 1e-6', {
  timeout: 300_000,
}, async () => {
  for (const { name: backend, pe } of await backends()) {
    // Llama 3.2 1B's and Aya-23's rope (half / adjacent pairs), on a small layer shape
    for (const cfg of ['llama-3.2-1b', 'aya-23-8b']) {
      const spec = pe.fromConfig(config(cfg), { layer: 0 });
      const [H, KVH, D, S, steps, maxPos] = [4, 2, spec.rope.dim, 7, 4, 32];
      const rope = { ...spec.rope };
      const { cos, sin, dims } = pe.ropeCache({ length: maxPos, ...rope });
      assert.deepEqual(dims, [maxPos, D / 2]);
      const scale = 1 / Math.sqrt(D);
      const sess = await session(gqaModel({ H, KVH, D, scale, interleaved: rope.layout === 'interleaved', maxPos }));
      const T = (data, dims) => new ort.Tensor('float32', data, dims);
      const run = async (q, k, v, past) => {
        const P = past ? past.key.dims[2] : 0;
        const n = q.length / (H * D);
        return sess.run({
          q: T(q, [1, n, H * D]),
          k: T(k, [1, n, KVH * D]),
          v: T(v, [1, n, KVH * D]),
          past_key: past ? T(past.key.data, past.key.dims) : T(new Float32Array(0), [1, KVH, 0, D]),
          past_value: past ? T(past.value.data, past.value.dims) : T(new Float32Array(0), [1, KVH, 0, D]),
          seqlens_k: new ort.Tensor('int32', Int32Array.of(P + n - 1), [1]),
          total: new ort.Tensor('int32', Int32Array.of(P + n), []),
          cos: T(cos, dims),
          sin: T(sin, dims),
        });
      };
      const make = () =>
        pe.kvCache({ heads: H, kvHeads: KVH, dim: D, capacity: maxPos, scale, encoding: spec.encoding });
      const tok = (t) => [randomF32(H * D, 100 + t), randomF32(KVH * D, 200 + t), randomF32(KVH * D, 300 + t)];
      const prompt = [randomF32(S * H * D, 1), randomF32(S * KVH * D, 2), randomF32(S * KVH * D, 3)];
      const what = `${backend} ${cfg}`;

      // onnxruntime prefill -> posenc decode, against onnxruntime's own decode
      const pre = await run(...prompt);
      const cache = make();
      const ids = BigInt64Array.from({ length: S }, (_, i) => BigInt(i)); // transformers.js position_ids
      cache.importPast(pre.present_key, pre.present_value, { positions: ids });
      assert.equal(cache.length, S);
      let past = { key: pre.present_key, value: pre.present_value };
      for (let t = S; t < S + steps; t++) {
        const [q, k, v] = tok(t);
        const ortStep = await run(q, k, v, past);
        const mine = cache.append(k, v, { tokens: 1 }).attend(q, { tokens: 1 }).output;
        const err = maxDiff(mine, ortStep.out.data);
        assert.ok(err <= 1e-6, `${what}: step ${t}, posenc decode after an onnxruntime prefill vs onnxruntime: ${err}`);
        past = { key: ortStep.present_key, value: ortStep.present_value };
      }
      // and posenc's cache, exported, is onnxruntime's present (rotated keys, values as given)
      const mineNow = cache.exportPresent();
      assert.deepEqual(mineNow.key.dims, past.key.dims);
      assert.ok(maxDiff(mineNow.key.data, past.key.data) <= 1e-6, `${what}: exported keys`);
      assert.ok(maxDiff(mineNow.value.data, past.value.data) <= 1e-6, `${what}: exported values`);
      cache.free();

      // posenc prefill -> onnxruntime decode, against posenc's own decode
      const own = make();
      own.append(prompt[1], prompt[2], { tokens: S });
      let present = own.exportPresent();
      assert.deepEqual(present.key.dims, [1, KVH, S, D]);
      assert.ok(
        maxDiff(present.key.data, pre.present_key.data) <= 1e-6,
        `${what}: posenc prefill = onnxruntime's present`,
      );
      for (let t = S; t < S + steps; t++) {
        const [q, k, v] = tok(t);
        const ortStep = await run(q, k, v, present);
        const mine = own.append(k, v).attend(q).output;
        const err = maxDiff(ortStep.out.data, mine);
        assert.ok(err <= 1e-6, `${what}: step ${t}, onnxruntime decode after a posenc prefill vs posenc: ${err}`);
        present = own.exportPresent();
      }
      own.free();
      await sess.release();
    }
  }
});

test('kvCache.importPast refuses a past in the wrong layout by name (dims, type, positions, batch)', async () => {
  const [{ pe }] = await backends();
  const cache = pe.kvCache({ heads: 4, kvHeads: 2, dim: 8, capacity: 16, encoding: { type: 'rope' } });
  const key = { type: 'float32', data: new Float32Array(2 * 3 * 8), dims: [1, 2, 3, 8] };
  const bad = [
    [{ ...key, dims: [1, 8, 3, 2] }, key, {}, 'key.dims[1]', /kvHeads = 2 \(the cache's\)/],
    [{ ...key, dims: [1, 2, 3, 4] }, key, {}, 'key.dims[3]', /dim = 8/],
    [{ ...key, type: 'float16' }, key, {}, 'key.type', /'float32'/],
    [{ ...key, dims: [1, 2, 4, 8] }, key, {}, 'key.data', /64 floats/],
    [key, { ...key, dims: [1, 2, 2, 8], data: new Float32Array(32) }, {}, 'value', /3 tokens like key/],
    [key, key, { positions: BigInt64Array.of(0n, 2n, 3n) }, 'positions[1]', /must be 1/],
    [key, key, { positions: Float32Array.of(0, 1, 2) }, 'positions', /Int32Array or BigInt64Array/],
    [key, key, { batch: 1 }, 'batch', /\[0, 0\]/],
    [key, key, { tokens: 2 }, 'key', /2 tokens/],
    [Promise.resolve(key), key, {}, 'key', /not a Promise/],
    [{ ...key, dims: [0, 2, 3, 8] }, key, {}, 'key.dims[0]', /at least 1/],
    [{ ...key, data: key.data.map((_, i) => (i === 9 ? Number.NaN : 0)) }, key, {}, 'key.data[9]', /finite/],
    [
      {
        get data() {
          throw new Error('a GPU tensor');
        },
        dims: key.dims,
      },
      key,
      {},
      'key.data',
      /threw \(Error: a GPU tensor\)/,
    ],
  ];
  for (const [k, v, opts, arg, pattern] of bad) {
    const err = assertThrowsPosenc(() => cache.importPast(k, v, opts), [pattern]);
    assert.equal(err.argument, arg, err.message);
    assert.equal(cache.length, 0);
  }
  // a Float32Array is read as [1][kvHeads][seq][dim]; an empty past is a no-op
  cache.importPast(new Float32Array(0), new Float32Array(0));
  cache.importPast(key.data, key.data, { positions: Int32Array.of(0, 1, 2) });
  assert.equal(cache.length, 3);
  const full = assertThrowsPosenc(
    () => cache.importPast(new Float32Array(2 * 14 * 8), new Float32Array(2 * 14 * 8)),
    [/at most 13 more tokens/],
  );
  assert.equal(full.argument, 'key');
  cache.free();
});
