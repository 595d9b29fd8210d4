// Compiled by tests/types.test.js with tsc --strict: the declarations must describe real usage.
import init, { PosencError, Status, type Posenc } from 'posenc';

async function main(): Promise<number> {
  const pe: Posenc = await init({ simd: 'auto' });
  const backend: 'simd' | 'scalar' = pe.backend;
  const t: Float32Array = pe.sinusoidal({ length: 4, dim: 8, layout: 'split', spacing: 't2t' });
  const w: Float64Array = pe.sinusoidalFrequencies({ dim: 8 });
  const g: Float32Array = pe.similarity(t, { length: 4, dim: 8, normalize: true });
  const buf = pe.alloc(32);
  pe.sinusoidal({ length: 4, dim: 8, out: buf });
  const view: Float32Array = buf.array;
  buf.free();
  const ints = pe.alloc(4, 'int32');
  const iv: Int32Array = ints.array;
  ints.free();
  try {
    pe.sinusoidal2d({ height: 2, width: 2, dim: 8, clsToken: true });
  } catch (e) {
    if (e instanceof PosencError && e.code === Status.E_ODD) return -1;
  }
  // RoPE
  const f = pe.ropeFrequencies({ dim: 64, scaling: { type: 'yarn', factor: 4, originalMaxPositions: 4096 } });
  const f32: Float32Array = f.invFreq;
  const { cos, sin } = pe.ropeCache({ length: 8, dim: 64 });
  const q = new Float32Array(8 * 2 * 64);
  const rotated: Float32Array = pe.applyRope(q, { length: 8, heads: 2, dim: 64, layout: 'interleaved', offset: 3 });
  const decay: Float64Array = pe.ropeDecay({ dim: 128, maxDistance: 64 });
  // relative and learned
  const bias: Float32Array = pe.alibiBias({ heads: 4, queries: 8, form: 'relative', causal: true });
  const buckets: Int32Array = pe.t5Buckets({ queries: 8, keys: 8, bidirectional: false });
  const table: Float32Array = pe.learnedInit({ length: 16, dim: 8, seed: 1 });
  const rows: Float32Array = pe.gather(table, { dim: 8, positions: new Int32Array([0, 3]), outOfRange: 'clamp' });
  const n = f32.length + cos.length + sin.length + rotated.length + decay.length + bias.length + buckets.length + rows.length;
  // @ts-expect-error layout is a closed set
  pe.sinusoidal({ length: 1, dim: 2, layout: 'half-split' });
  return n + backend.length + w.length + g.length + view.length + iv.length;
}
void main;
