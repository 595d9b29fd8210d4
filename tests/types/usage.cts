// The CommonJS entry's types (require condition -> js/index.d.cts), compiled by tests/types.test.js.
import posenc = require('posenc');

async function main(): Promise<number> {
  const pe: posenc.Posenc = await posenc.init({ simd: false });
  const t: Float32Array = pe.sinusoidal({ length: 4, dim: 8 });
  const mod = await posenc.load();
  try {
    pe.sinusoidal({ length: 0, dim: 8 });
  } catch (e) {
    if (e instanceof posenc.PosencError && e.code === mod.Status.E_SIZE) return -1;
  }
  // @ts-expect-error wasm is bytes, a compiled module, a URL or a string
  await posenc.init({ wasm: 42 });
  return t[0];
}
void main;
