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
  // @ts-expect-error layout is a closed set
  pe.sinusoidal({ length: 1, dim: 2, layout: 'half-split' });
  return backend.length + w.length + g.length + view.length + iv.length;
}
void main;
