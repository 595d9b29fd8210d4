// One table per concept, and what the built wasm says agrees with it. The lists themselves are
// generated (tests/decls.test.js regenerates and diffs them); here the running code is asked:
//
//   status codes   decl/status.js -> c_src/posenc.h, c_src/status.c, js/errors.js, js/index.d.ts,
//                  docs/errors.md (tools/gen_status.js); here: the built wasm's strings are the table's
//   struct layouts the C build (c_src/status.c posenc_struct_layout, checked there against posenc.h
//                  by _Static_assert) -> js/ writes every field, read back from the heap; a field the
//                  wasm lacks is reported as a stale build
//   shared maths   a lint: each formula two modules need is written in its one home
import assert from 'node:assert/strict';
import * as require_fs from 'node:fs';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { STATUS_CODES } from '../decl/status.js';
import { createApi, loadCore } from '../js/api.js';
import { attentionFamily } from '../families/attention/attention.js';
import { ENCODINGS } from '../js/encodings.js';
import { init, PosencError, Status } from '../js/index.js';
import { scalingPtr } from '../families/rope/rope.js';
import { C_FIELDS } from '../js/scalings.js';
import { FAMILY_DIRS } from './paths.js';

const root = new URL('..', import.meta.url).pathname;
const read = (f) => readFileSync(join(root, f), 'utf8');

for (const simd of [true, false]) {
  test(`status codes (${simd ? 'SIMD' : 'scalar'} core): posenc_status_string gives decl/status.js's text`, async () => {
    const core = await loadCore({ simd });
    for (const { name, code, text } of STATUS_CODES) {
      assert.equal(Status[name], code, `js/errors.js Status.${name}`);
      assert.equal(core.cString(core.exports.posenc_status_string(code)), text, `posenc_status_string(${code})`);
    }
    assert.equal(core.cString(core.exports.posenc_status_string(-1000)), 'unknown status code');
  });
}

for (const simd of [true, false]) {
  test(`struct layouts (${simd ? 'SIMD' : 'scalar'} core): fields tiled with no gap`, async () => {
    const core = await loadCore({ simd });
    for (const struct of ['posenc_bias', 'posenc_rope_scaling']) {
      const L = core.layout[struct];
      assert.ok(L, `c_src/status.c posenc_struct_layout has no ${struct}`);
      let end = 0;
      for (const [f, { offset, size }] of Object.entries(L.fields)) {
        assert.equal(offset, end, `${struct}.${f} starts where the field before it ends`);
        assert.ok(size === 4 || size === 8, `${struct}.${f} is ${size} bytes`);
        end = offset + size;
      }
      assert.equal(end, L.size, `${struct}'s fields fill its ${L.size} bytes`);
    }
    // posenc_rope_scaling is written from js/scalings.js (tools/gen_scalings.js): the build is that table
    const snake = (k) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    assert.deepEqual(
      Object.keys(core.layout.posenc_rope_scaling.fields),
      ['type', ...C_FIELDS.map(snake)],
      "the built posenc_rope_scaling is js/scalings.js C_FIELDS' (run ./build.sh wasm)",
    );
  });
}

test('struct layouts: js/ writes every field of posenc_bias and posenc_rope_scaling', async () => {
  const core = await loadCore({ simd: true });
  // families/attention/attention.js writeBias: kind and the three call options, then each registry row's cArgs
  const written = new Set(['kind', 'query_scale', 'chunk', 'window']);
  for (const e of Object.values(ENCODINGS)) for (const f of e.cArgs ?? []) written.add(f);
  // what writeBias writes, read back from the heap: each field it is given lands in its place
  const { writeBias } = await import('../families/attention/attention.js');
  const L = core.layout.posenc_bias;
  const get = { i: 'getInt32', p: 'getUint32', f: 'getFloat32' };
  for (const [kind, e] of Object.entries(ENCODINGS)) {
    if (!e.cArgs) continue;
    const args = e.cArgs.map((_, i) => 100 + i);
    const call = { queryScale: 7, chunk: 8, window: 9 };
    core.run('test', (s) => {
      const ptr = writeBias(s, kind, args, call);
      const dv = new DataView(s.read(Uint8Array, ptr, L.size).slice().buffer);
      const at = (f) => dv[get[L.fields[f].type]](L.at(f), true);
      assert.equal(at('kind'), e.bias, `families/attention/attention.js writeBias writes posenc_bias.kind for ${kind}`);
      e.cArgs.forEach((f, i) => assert.equal(at(f), args[i], `writeBias writes ${kind}'s cArgs ${f}`));
      for (const [f, v] of [
        ['query_scale', 7],
        ['chunk', 8],
        ['window', 9],
      ])
        assert.equal(at(f), v, `families/attention/attention.js writeBias writes posenc_bias.${f}`);
    });
  }
  for (const f of Object.keys(core.layout.posenc_bias.fields)) {
    assert.ok(
      written.has(f),
      `posenc_bias.${f}: no ENCODINGS entry's fields list it (a fused kind's families/<family>/kind_<type>.js, ` +
        "js/encodings.js's own entries), and writeBias does not write it",
    );
  }
  for (const f of written)
    assert.ok(f in core.layout.posenc_bias.fields, `js/ writes posenc_bias.${f}, not in posenc.h`);
  // families/rope/rope.js scalingPtr, read back: each field holds what it was given (the factor lists by pointer)
  const R = core.layout.posenc_rope_scaling;
  const camel = (k) => k.replace(/_([a-z])/g, (_, c) => c.toUpperCase());
  const v = { type: 5, truncate: 1, shortFactor: [2, 3], longFactor: [4, 5] };
  const doubles = Object.keys(R.fields).filter((f) => R.fields[f].type === 'd');
  doubles.forEach((f, i) => {
    v[camel(f)] = 100.5 + i;
  });
  core.run('test', (s) => {
    const ptr = scalingPtr(core, s, v);
    const dv = new DataView(s.read(Uint8Array, ptr, R.size).slice().buffer);
    for (const [f, { offset, type }] of Object.entries(R.fields)) {
      const want = v[camel(f)];
      assert.notEqual(want, undefined, `posenc_rope_scaling.${f}: this test gives it no value`);
      if (type === 'd') assert.equal(dv.getFloat64(offset, true), want, `scalingPtr writes ${f}`);
      else if (type === 'i') assert.equal(dv.getInt32(offset, true), want, `scalingPtr writes ${f}`);
      else {
        const p = dv.getUint32(offset, true);
        assert.deepEqual(Array.from(s.read(Float64Array, p, want.length)), want, `scalingPtr writes ${f}`);
      }
    }
  });
});

// A wasm built before a C change lacks the field the newer JS writes: that is reported as a stale
// build naming the rebuild, through the public function, not as the caller's arguments or status.c.
test('a struct field the wasm lacks is reported as a stale build (./build.sh wasm)', async () => {
  const core = await loadCore({ simd: true });
  delete core.layout.posenc_bias.fields.window; // as a wasm built before window was added
  const stale = /posenc\.attention: the wasm is a stale build.*posenc_bias has no field window.*\.\/build\.sh wasm/;
  const { api } = createApi(core, [attentionFamily]);
  const q = new Float32Array(8).fill(0.5);
  assert.throws(
    () => api.attention({ q, k: q, v: q, queries: 4, dim: 2, window: 2 }),
    (e) => e instanceof PosencError && e.code === Status.E_PARAM && e.argument === 'init' && stale.test(e.message),
  );
  // the same call on a fresh build runs
  const pe = await init();
  assert.equal(pe.attention({ q, k: q, v: q, queries: 4, dim: 2, window: 2 }).output.length, 8);
});

// Maths written once: each formula's one JS home is js/maths.js, its C home named beside it.
test('maths in one place: float32 max, T5 exact range, YaRN mscale', () => {
  const { readdirSync } = require_fs;
  const files = ['js', 'web/src', 'web/src/views', 'c_src', ...FAMILY_DIRS].flatMap((d) =>
    readdirSync(join(root, d))
      .filter((f) => /\.(js|c|h)$/.test(f) && !/(\.test|^decl|^bench)\.js$/.test(f))
      .map((f) => `${d}/${f}`),
  );
  const rules = [
    [/3\.40282346\d*e\+?38/, ['js/maths.js'], 'the float32 max (import FLT_MAX from js/maths.js)'],
    [
      /0\.1 \* \w+ \* (Math\.)?log\(/,
      ['js/maths.js', 'families/rope/rope.c'],
      "YaRN's mscale (js/maths.js yarnMscale)",
    ],
    [
      /\? *(num_?[bB]uckets|nb|st\.buckets) *(\/ *2|>> *1) *: *\1|(num_?[bB]uckets|nb|st\.buckets) *>> *2 *:/,
      ['js/maths.js', 'c_src/posenc_internal.h'],
      "T5's exact range (js/maths.js t5MaxExact, posenc__t5_max_exact)",
    ],
  ];
  for (const [re, homes, what] of rules) {
    const found = files.filter((f) => re.test(read(f)));
    assert.deepEqual(
      found.filter((f) => !homes.includes(f)),
      [],
      `${what} is written outside ${homes.join(', ')}`,
    );
    for (const h of homes) assert.ok(found.includes(h), `${h} should hold ${what} (the pattern no longer finds it)`);
  }
});
