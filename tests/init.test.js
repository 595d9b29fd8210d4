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

test('the struct layout carries each field C type, and set() writes as that type', async () => {
  const { loadCore } = await import('../js/api.js');
  for (const simd of [true, false]) {
    const { posenc_bias: b, posenc_rope_scaling: sc } = (await loadCore({ simd })).layout;
    const types = (L) => Object.fromEntries(Object.entries(L.fields).map(([f, x]) => [f, x.type]));
    const bt = types(b);
    for (const f of ['kind', 'form', 'num_buckets', 'max_relative', 'r_rows', 'chunk', 'window'])
      assert.equal(bt[f], 'i', f);
    for (const f of ['table', 'a_k', 'a_v', 'u', 'vb', 'r', 'query_scale']) assert.equal(bt[f], 'p', f);
    const st = types(sc);
    assert.equal(st.type, 'i');
    assert.equal(st.short_factor, 'p');
    for (const f of ['factor', 'beta_fast', 'mscale', 'high_freq_factor']) assert.equal(st[f], 'd', f);
    for (const [f, x] of Object.entries(sc.fields)) assert.equal(x.size, { i: 4, f: 4, d: 8, p: 4 }[x.type], f);
    const dv = new DataView(new ArrayBuffer(sc.size));
    sc.set(dv, 'factor', 0.1);
    assert.equal(dv.getFloat64(sc.at('factor'), true), 0.1, 'a double field keeps the double');
    b.set(dv, 'window', -3);
    assert.equal(dv.getInt32(b.at('window'), true), -3);
    assert.throws(() => b.set(dv, 'no_such_field', 1), /no field no_such_field/);
  }
});
