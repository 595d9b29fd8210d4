// init(): backend choice, bring-your-own wasm, and its errors.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { init, PosencError, simdSupported } from '../js/index.js';

const simdPath = new URL('../dist/posenc.simd.wasm', import.meta.url);
const scalarPath = new URL('../dist/posenc.wasm', import.meta.url);

test('auto picks SIMD on this engine; simd:false forces scalar', async () => {
  assert.equal(simdSupported(), true);
  assert.equal((await init()).backend, 'simd');
  assert.equal((await init({ simd: 'auto' })).backend, 'simd');
  assert.equal((await init({ simd: false })).backend, 'scalar');
});

test('wasm injection: bytes, ArrayBuffer, Module, URL; backend read from the module', async () => {
  const bytes = readFileSync(scalarPath);
  const sources = [
    bytes,
    bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength),
    new WebAssembly.Module(readFileSync(simdPath)),
    simdPath,
  ];
  const expect = ['scalar', 'scalar', 'simd', 'simd'];
  for (let i = 0; i < sources.length; i++) {
    const pe = await init({ wasm: sources[i] });
    assert.equal(pe.backend, expect[i]);
    assert.ok(Math.abs(pe.sinusoidal({ length: 2, dim: 2 })[2] - Math.sin(1)) < 1e-7);
  }
});

test('init errors are PosencErrors naming the option', async () => {
  await assert.rejects(
    init({ simd: 'yes' }),
    (e) => e instanceof PosencError && /simd must be 'auto', true or false/.test(e.message),
  );
  await assert.rejects(
    init({ wasm: 42 }),
    (e) => e instanceof PosencError && /wasm must be a BufferSource/.test(e.message),
  );
  await assert.rejects(init({ wsam: 1 }), (e) => e instanceof PosencError && /unknown option "wsam"/.test(e.message));
  await assert.rejects(
    init({ wasm: new Uint8Array([0, 97, 115, 109]) }),
    (e) => e instanceof PosencError && /wasm is not a valid WebAssembly module/.test(e.message),
  );
});

test('instances are independent: a buffer of one is not usable by the other', async () => {
  const a = await init();
  const b = await init();
  const buf = a.alloc(8);
  a.sinusoidal({ length: 2, dim: 4, out: buf });
  assert.throws(
    () => b.similarity(buf, { length: 2, dim: 4 }),
    (e) => e instanceof PosencError && /allocated by this posenc instance/.test(e.message),
  );
  const t = b.similarity(buf.array.slice(), { length: 2, dim: 4 });
  assert.ok(Math.abs(t[0] - 2) < 1e-6);
  buf.free();
});
