// Compiled by tests/types.test.js with tsc --strict against the installed tarball, under
// lib es2022 with and without dom, moduleResolution node16 and bundler. The declarations must
// describe real usage; each @ts-expect-error line is something that must not compile.
import init, { PosencBuffer, PosencError, Status, simdSupported, type Posenc } from 'posenc';

async function main(): Promise<number> {
  const pe: Posenc = await init({ simd: 'auto' });
  const backend: 'simd' | 'scalar' = pe.backend;
  const simd: boolean = simdSupported();
  // @ts-expect-error wasm is bytes, a compiled module, a URL or a string
  await init({ wasm: 42 });
  // @ts-expect-error simd is a boolean or 'auto'
  await init({ simd: 'yes' });
  await init({ wasm: new Uint8Array(8) });
  await init({ wasm: new ArrayBuffer(8) });
  await init({ wasm: 'https://example.org/posenc.wasm' });

  // plain calls return plain typed arrays
  const t: Float32Array = pe.sinusoidal({ length: 4, dim: 8, layout: 'split', spacing: 't2t' });
  const first: number = t[0];
  const w: Float64Array = pe.sinusoidalFrequencies({ dim: 8 });
  const g: Float32Array = pe.similarity(t, { length: 4, dim: 8, normalize: true });
  // @ts-expect-error layout is a closed set
  pe.sinusoidal({ length: 1, dim: 2, layout: 'half-split' });

  // out: a heap buffer comes back as that buffer, a typed array as that typed array
  const buf = pe.alloc(32);
  const same: PosencBuffer<Float32Array> = pe.sinusoidal({ length: 4, dim: 8, out: buf });
  // @ts-expect-error given a PosencBuffer, sinusoidal returns the buffer, not a Float32Array
  const notArray: Float32Array = pe.sinusoidal({ length: 4, dim: 8, out: buf });
  const mine = new Float32Array(32);
  const filled: Float32Array = pe.sinusoidal({ length: 4, dim: 8, out: mine });
  const view: Float32Array = same.array;
  buf.free();
  const ints = pe.alloc(64, 'int32');
  const bucketsBuf: PosencBuffer<Int32Array> = pe.t5Buckets({ queries: 8, out: ints });
  const iv: Int32Array = bucketsBuf.array;
  ints.free();
  // @ts-expect-error an Int32 output cannot receive a Float32 buffer
  pe.t5Buckets({ queries: 8, out: pe.alloc(64) });
  try {
    pe.sinusoidal2d({ height: 2, width: 2, dim: 8, clsToken: true });
  } catch (e) {
    if (e instanceof PosencError && e.code === Status.E_ODD) return -1;
  }

  // RoPE: the cache holds plain arrays unless the caller passed buffers
  const f = pe.ropeFrequencies({ dim: 64, scaling: { type: 'yarn', factor: 4, originalMaxPositions: 4096 } });
  const f32: Float32Array = f.invFreq;
  const cache = pe.ropeCache({ length: 8, dim: 64 });
  const c0: number = cache.cos[0] + cache.sin[0];
  const row: Float32Array = cache.cos.subarray(0, 32);
  const cb = pe.alloc(8 * 32),
    sb = pe.alloc(8 * 32);
  const heapCache = pe.ropeCache({ length: 8, dim: 64, cos: cb, sin: sb });
  const cosBuf: PosencBuffer<Float32Array> = heapCache.cos;
  // @ts-expect-error a buffer is not indexable: read .array
  const bad: number = heapCache.sin[0];
  // @ts-expect-error scaling types are a closed set and need their keys
  pe.ropeFrequencies({ dim: 64, scaling: { type: 'linear' } });
  const q = new Float32Array(8 * 2 * 64);
  const rotated: Float32Array = pe.applyRope(q, {
    length: 8,
    heads: 2,
    dim: 64,
    layout: 'interleaved',
    offset: 3,
    cache,
  });
  const decay: Float64Array = pe.ropeDecay({ dim: 128, maxDistance: 64 });

  // relative and learned
  const bias: Float32Array = pe.alibiBias({ heads: 4, queries: 8, form: 'relative', causal: true });
  const buckets: Int32Array = pe.t5Buckets({ queries: 8, keys: 8, bidirectional: false });
  const table: Float32Array = pe.learnedInit({ length: 16, dim: 8, seed: 1 });
  const rows: Float32Array = pe.gather(table, { dim: 8, positions: new Int32Array([0, 3]), outOfRange: 'clamp' });

  // attention: output is a Float32Array unless out was given
  const x = new Float32Array(8 * 64);
  const a = pe.attention({ q: x, k: x, v: x, queries: 8, dim: 64 });
  const o0: number = a.output[0];
  const weightsMaybe: Float32Array | null = a.weights;
  const aw = pe.attention({ q: x, k: x, v: x, queries: 8, dim: 64, returnWeights: true });
  const w0: number = aw.weights[0];
  const outBuf = pe.alloc(8 * 64);
  const ab: PosencBuffer<Float32Array> = pe.attention({ q: x, k: x, v: x, queries: 8, dim: 64, out: outBuf }).output;
  const m: Float32Array = pe.matmul(x, x, { m: 8, k: 64, n: 8 });

  const n =
    f32.length +
    c0 +
    row.length +
    cosBuf.length +
    rotated.length +
    decay.length +
    bias.length +
    buckets.length +
    rows.length;
  return (
    n +
    backend.length +
    Number(simd) +
    first +
    w.length +
    g.length +
    view.length +
    iv.length +
    filled.length +
    o0 +
    w0 +
    ab.length +
    m.length +
    Number(weightsMaybe === null) +
    bad +
    Number(notArray === undefined)
  );
}
void main;

// fromConfig: a discriminated union on family; a RoPE layer's rope goes to the three RoPE functions
// and its encoding to kvCache as they are
export function fromConfigUsage(pe: Posenc): void {
  const spec = pe.fromConfig(
    { model_type: 'llama', hidden_size: 4096, num_attention_heads: 32, num_hidden_layers: 32 },
    { layer: 0 },
  );
  if (spec.family === 'rope') {
    pe.ropeFrequencies(spec.rope);
    pe.ropeCache({ length: 4, ...spec.rope });
    pe.applyRope(new Float32Array(4 * 32 * 128), { length: 4, heads: spec.attention.heads, ...spec.rope });
    pe.kvCache({ ...spec.attention, capacity: 8, encoding: spec.encoding }).free();
  }
  // @ts-expect-error rope exists only on the 'rope' member
  void spec.rope;
  if (spec.family === 't5') {
    // @ts-expect-error kvCache needs the model's bucket weights
    pe.kvCache({ ...spec.attention, capacity: 8, encoding: spec.encoding });
    pe.kvCache({ ...spec.attention, capacity: 8, encoding: { ...spec.encoding, weights: new Float32Array(256) } });
  }
  if (spec.family === 'none') {
    const why: string = spec.reason;
    void why;
    // a Mamba, linear-attention or LFM2 conv layer has no attention at all
    if (spec.attention === null) {
      const kind: 'mamba' | 'linear_attention' | 'conv' = spec.layerType;
      void kind;
    } else pe.kvCache({ ...spec.attention, capacity: 8, encoding: spec.encoding }).free();
  }
  // Whisper's encoder: a fixed sinusoid table, its options for pe.sinusoidal
  const enc = pe.fromConfig({ model_type: 'whisper' });
  if (enc.family === 'sinusoidal') pe.sinusoidal({ length: enc.rows, ...enc.sinusoidal });
  pe.fromConfig({ model_type: 'clip' }, { tower: 'vision' });
  // @ts-expect-error tower is 'text' or 'vision'
  pe.fromConfig({ model_type: 'clip' }, { tower: 'audio' });
  const q: number | undefined = spec.attention?.queryScale?.(100);
  void q;
  pe.fromConfig({ model_type: 'my_llama' }, { as: 'llama' });
  // @ts-expect-error layer is a number
  pe.fromConfig({}, { layer: '1' });
}
