// Mistakes a newcomer from PyTorch, Hugging Face, onnxruntime-web or transformers.js makes, each
// refused as a PosencError naming the argument the caller wrote (never a plausible wrong result, and
// never an error that blames another argument).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Status } from '../js/index.js';
import { assertThrowsPosenc, backends } from './helpers.js';

test('"did you mean" for the option names people bring from PyTorch and Hugging Face', async () => {
  const [{ pe }] = await backends();
  const x = new Float32Array(16);
  const cases = [
    ['sinusoidal', { seqLen: 4, dim: 8 }, 'seqLen', 'length'],
    ['sinusoidal', { seq_len: 4, dim: 8 }, 'seq_len', 'length'],
    ['sinusoidal', { length: 4, d_model: 8 }, 'd_model', 'dim'],
    ['sinusoidal', { max_len: 4, dim: 8 }, 'max_len', 'length'],
    ['ropeCache', { maxPositions: 4, dim: 8 }, 'maxPositions', 'length'],
    ['ropeCache', { max_position_embeddings: 4, dim: 8 }, 'max_position_embeddings', 'length'],
    ['ropeCache', { length: 4, head_dim: 8 }, 'head_dim', 'dim'],
    ['ropeCache', { length: 4, dim: 8, rope_theta: 1e4 }, 'rope_theta', 'base'],
    ['kvCache', { num_heads: 2, dim: 4, capacity: 4 }, 'num_heads', 'heads'],
    ['kvCache', { numHeads: 2, dim: 4, capacity: 4 }, 'numHeads', 'heads'],
    ['kvCache', { n_kv_heads: 2, dim: 4, capacity: 4 }, 'n_kv_heads', 'kvHeads'],
    ['kvCache', { num_key_value_heads: 2, dim: 4, capacity: 4 }, 'num_key_value_heads', 'kvHeads'],
    ['kvCache', { dim: 4, max_seq_len: 4 }, 'max_seq_len', 'capacity'],
    ['kvCache', { headDim: 4, capacity: 4 }, 'headDim', 'dim'],
    ['attention', { q: x, k: x, v: x, queries: 2, dim: 8, is_causal: true }, 'is_causal', 'causal'],
    ['attention', { q: x, k: x, v: x, queries: 2, head_dim: 8 }, 'head_dim', 'dim'],
    ['selfAttention', { tokens: x, d_model: 8 }, 'd_model', 'dModel'],
    ['alibiBias', { heads: 2, seq_len: 3 }, 'seq_len', 'queries'],
  ];
  for (const [fn, opts, wrote, meant] of cases) {
    const err = assertThrowsPosenc(
      () => pe[fn](opts),
      [new RegExp(`unknown option "${wrote}"`), new RegExp(`did you mean "${meant}"\\?`)],
      Status.E_PARAM,
    );
    assert.equal(err.argument, wrote, `${fn} ${wrote}`);
  }
  // a name with no near posenc name gets no guess
  const err = assertThrowsPosenc(() => pe.sinusoidal({ length: 4, dim: 8, flavour: 1 }), [/unknown option "flavour"/]);
  assert.doesNotMatch(err.message, /did you mean/);
});

test('a Promise where an options object is expected is refused naming it (a missing await)', async () => {
  const [{ pe }] = await backends();
  const later = Promise.resolve({ length: 4, dim: 8 });
  for (const call of [
    () => pe.sinusoidal(later),
    () => pe.kvCache(later),
    () => pe.ropeCache(later),
    () => pe.applyRope(new Float32Array(8), later),
  ]) {
    const err = assertThrowsPosenc(call, [/options must be an object, not a Promise \(await it first/], Status.E_PARAM);
    assert.equal(err.argument, 'options');
  }
  // a thenable class too; its getters never run
  const thenableProto = Object.defineProperty({}, 'then', { value() {} });
  const lazy = Object.create(thenableProto, {
    length: {
      enumerable: true,
      get() {
        throw new Error('read');
      },
    },
  });
  assertThrowsPosenc(() => pe.sinusoidal(lazy), [/not a Promise/]);
  // the inner options objects as well
  const e = assertThrowsPosenc(
    () => pe.kvCache({ dim: 4, capacity: 4, encoding: Promise.resolve({ type: 'rope' }) }),
    [/encoding must be an object, not a Promise/],
  );
  assert.equal(e.argument, 'encoding');
  // fromConfig given fetch(url).then((r) => r.json()) without await: was "no model_type"
  const c = assertThrowsPosenc(
    () => pe.fromConfig(Promise.resolve({ model_type: 'llama' })),
    [/config must be an object, not a Promise/],
  );
  assert.equal(c.argument, 'config');
});

test('applyRope: Float32 positions beyond ±2^30 are refused naming positions[i], not x', async () => {
  for (const { name, pe } of await backends()) {
    for (const p of [2147483520, -1e30, 3.4e38, 2 ** 30 + 128]) {
      const x = new Float32Array(16).fill(100);
      const err = assertThrowsPosenc(
        () => pe.applyRope(x, { length: 2, dim: 8, positions: Float32Array.from([0, p]) }),
        [/positions\[1\] must be within ±2\^30/, /an Int32Array takes any int32/],
        Status.E_PARAM,
      );
      assert.equal(err.argument, 'positions[1]', `${name} ${p}`);
    }
    // at the limit, and the same far position as an Int32Array, are rotated
    const x = new Float32Array(16).fill(100);
    const edge = pe.applyRope(x.slice(), { length: 2, dim: 8, positions: Float32Array.from([2 ** 30, -(2 ** 30)]) });
    assert.ok(edge.every(Number.isFinite), name);
    const far = pe.applyRope(x.slice(), { length: 2, dim: 8, positions: Int32Array.from([2147483520, 0]) });
    assert.ok(far.every(Number.isFinite), name);
  }
});

test("ropeCache's dims are onnxruntime's cos_cache shape; applyRope takes them back and refuses others", async () => {
  const [{ pe }] = await backends();
  const c = pe.ropeCache({ length: 10, dim: 8, rotaryDim: 6 });
  assert.deepEqual(c.dims, [10, 3]);
  const x = new Float32Array(2 * 8).fill(0.5);
  const want = pe.applyRope(x.slice(), {
    length: 2,
    dim: 8,
    rotaryDim: 6,
    offset: 3,
    cache: { cos: c.cos, sin: c.sin },
  });
  assert.deepEqual(pe.applyRope(x.slice(), { length: 2, dim: 8, rotaryDim: 6, offset: 3, cache: c }), want);
  const err = assertThrowsPosenc(
    () => pe.applyRope(x.slice(), { length: 2, dim: 8, rotaryDim: 6, cache: { ...c, dims: [5, 6] } }),
    [/cache\.dims must be \[rows = 10, rotaryDim\/2 = 3\]/],
  );
  assert.equal(err.argument, 'cache.dims');
});
