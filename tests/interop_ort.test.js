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
import { backends, randomF32 } from './helpers.js';

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
