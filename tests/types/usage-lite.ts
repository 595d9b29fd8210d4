// 'posenc/lite' (compiled by tests/types.test.js with usage.ts): init({ families }) is typed to
// the functions of the families given; each @ts-expect-error line must not compile.
import { attentionFamily, init, PosencError, ropeFamily, sinusoidalFamily, type PosencWith, use } from 'posenc/lite';

export async function lite(): Promise<number> {
  const pe = await init({ families: [sinusoidalFamily, ropeFamily], simd: 'auto' });
  const t: Float32Array = pe.sinusoidal({ length: 4, dim: 8 });
  const w: Float64Array = pe.ropeFrequencies({ dim: 8 }).invFreq64;
  const backend: 'simd' | 'scalar' = pe.backend;
  // @ts-expect-error alibiBias belongs to relativeFamily, which was not given
  pe.alibiBias({ heads: 2, queries: 4 });
  // @ts-expect-error families is required
  await init({ simd: true });
  const only: PosencWith<[typeof sinusoidalFamily]> = await init({ families: [sinusoidalFamily] });
  // @ts-expect-error only sinusoidal was given
  only.applyRope(t, { length: 1, heads: 1, dim: 8 });
  // use() adds families: the new object has both
  const more = await use(only, attentionFamily, ropeFamily);
  more.applyRope(t, { length: 1, heads: 1, dim: 8 });
  const m: Float32Array = more.matmul(t, t, { m: 2, k: 2, n: 2 });
  // @ts-expect-error relativeFamily was not added
  more.alibiBias({ heads: 2, queries: 4 });
  await init({
    families: [ropeFamily],
    cores: { encodings: new Uint8Array(8), attention: async () => new Uint8Array(8) },
  });
  // @ts-expect-error a core kind the package does not have
  await init({ families: [ropeFamily], cores: { medium: new Uint8Array(8) } });
  const e: unknown = null;
  return t[0] + w[0] + m[0] + backend.length + (e instanceof PosencError ? e.code : 0);
}
