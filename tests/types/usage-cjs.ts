// A TypeScript project of "type": "commonjs" that writes ES import syntax: tsc (node16) turns it
// into require('posenc'), so both the declarations (js/index.d.cts) and the CommonJS entry are
// used. tests/types.test.js compiles it and runs the output.
import posenc, { init, PosencError, type Posenc } from 'posenc';

async function main(): Promise<void> {
  const pe: Posenc = await init();
  const viaDefault = await posenc.init({ simd: false });
  const t: Float32Array = pe.sinusoidal({ length: 2, dim: 4 });
  let code = 0;
  try {
    viaDefault.sinusoidal({ length: 0, dim: 4 });
  } catch (e) {
    if (e instanceof PosencError) code = e.code;
  }
  console.log(JSON.stringify({ sin1: t[4], cos1: t[5], code, backends: [pe.backend, viaDefault.backend] }));
}
main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
