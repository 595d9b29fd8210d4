// One table per concept: each list below lives in one source, and every other place that repeats
// it is read here and compared with it, so a row added to the source and forgotten elsewhere fails
// with a message naming the place to edit.
//
//   status codes   c_src/posenc.h enum posenc_status -> c_src/status.c, docs/errors.md (the
//                  messages and meanings written by hand; js/errors.js and js/index.d.ts are
//                  written from posenc.h by tools/gen_decls.js, tests/decls.test.js)
//   struct layouts the C build (c_src/status.c posenc_struct_layout, checked there against
//                  posenc.h by _Static_assert) -> what js/ writes into each field
import assert from 'node:assert/strict';
import * as require_fs from 'node:fs';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadCore } from '../js/api.js';
import { ENCODINGS } from '../js/encodings.js';
import { FAMILY_DIRS } from './paths.js';

const root = new URL('..', import.meta.url).pathname;
const read = (f) => readFileSync(join(root, f), 'utf8');

/** The members of `typedef enum NAME { ... }` in posenc.h: [[C name, value], ...]. */
function headerEnum(name) {
  const src = read('c_src/posenc.h').replace(/\/\*[\s\S]*?\*\//g, '');
  const body = new RegExp(`typedef enum ${name} \\{([^}]*)\\}`).exec(src)?.[1];
  assert.ok(body, `c_src/posenc.h defines typedef enum ${name}`);
  return body
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const m = /^(\w+)\s*=\s*(-?\d+)$/.exec(s);
      assert.ok(m, `c_src/posenc.h enum ${name}: '${s}' has an explicit value`);
      return [m[1], Number(m[2])];
    });
}

const STATUS = headerEnum('posenc_status');

test('status codes: posenc.h lists OK and the error codes, each once', () => {
  assert.ok(STATUS.length >= 10, STATUS.join(' '));
  assert.deepEqual(STATUS[0], ['POSENC_OK', 0]);
  assert.equal(new Set(STATUS.map(([, v]) => v)).size, STATUS.length, 'two codes share a value');
});

test('status codes: c_src/status.c names every code of posenc.h', () => {
  const src = read('c_src/status.c');
  const cases = new Set([...src.matchAll(/case (POSENC_\w+):/g)].map((m) => m[1]));
  for (const [name] of STATUS) assert.ok(cases.has(name), `c_src/status.c posenc_status_string has no case ${name}`);
  for (const c of cases)
    assert.ok(
      STATUS.some(([n]) => n === c),
      `c_src/status.c names ${c}, not in posenc.h`,
    );
});

test('status codes: docs/errors.md has a row for every error code', () => {
  const doc = read('docs/errors.md');
  for (const [name, v] of STATUS.slice(1)) {
    const k = name.replace(/^POSENC_/, '');
    assert.match(
      doc,
      new RegExp(`^\\| ${v} \\| \`${k}\` \\|`, 'm'),
      `docs/errors.md's Codes table has no row for ${v} ${k}`,
    );
  }
});

/** The field names of `typedef struct NAME { ... }` in posenc.h, in declaration order. */
function headerStruct(name) {
  const src = read('c_src/posenc.h').replace(/\/\*[\s\S]*?\*\//g, '');
  const body = new RegExp(`typedef struct ${name} \\{([^}]*)\\}`).exec(src)?.[1];
  assert.ok(body, `c_src/posenc.h defines typedef struct ${name}`);
  return body
    .split(';')
    .filter((d) => d.trim())
    .flatMap((d) => d.replace(/^[^,]*?(\w+)\s*(,|$)/, '$1$2').split(','))
    .map((f) => f.replace(/[*\s]/g, '').replace(/.*?(\w+)$/, '$1'));
}

for (const simd of [true, false]) {
  test(`struct layouts (${simd ? 'SIMD' : 'scalar'} core): every field of posenc.h, tiled with no gap`, async () => {
    const core = await loadCore({ simd });
    for (const struct of ['posenc_bias', 'posenc_rope_scaling']) {
      const L = core.layout[struct];
      assert.ok(L, `c_src/status.c posenc_struct_layout has no ${struct}`);
      assert.deepEqual(
        Object.keys(L.fields),
        headerStruct(struct),
        `c_src/status.c's field list of ${struct} is posenc.h's, in order`,
      );
      let end = 0;
      for (const [f, { offset, size }] of Object.entries(L.fields)) {
        assert.equal(offset, end, `${struct}.${f} starts where the field before it ends`);
        assert.ok(size === 4 || size === 8, `${struct}.${f} is ${size} bytes`);
        end = offset + size;
      }
      assert.equal(end, L.size, `${struct}'s fields fill its ${L.size} bytes`);
    }
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
      `posenc_bias.${f}: no js/encodings.js row lists it in cArgs, and writeBias does not write it`,
    );
  }
  for (const f of written)
    assert.ok(f in core.layout.posenc_bias.fields, `js/ writes posenc_bias.${f}, not in posenc.h`);
  // families/rope/rope.js scalingPtr: the four 4-byte fields by name, every double by its option's name
  const rope = read('families/rope/rope.js');
  for (const [f, { size }] of Object.entries(core.layout.posenc_rope_scaling.fields)) {
    if (size === 8) continue;
    assert.match(
      rope,
      new RegExp(`L\\.set\\(dv, '${f}'`),
      `families/rope/rope.js scalingPtr writes posenc_rope_scaling.${f}`,
    );
  }
});

test('budgets: docs/benchmark.md states the tarball ceiling tests/package.test.js enforces', () => {
  const KiB = /tarballCeiling: (\d+) \* KiB/.exec(read('tests/package.test.js'))?.[1];
  assert.ok(KiB, 'tests/package.test.js BUDGET.tarballCeiling is N * KiB');
  const bytes = (Number(KiB) * 1024).toLocaleString('en-US');
  const doc = read('docs/benchmark.md');
  assert.match(
    doc,
    new RegExp(`^\\| npm tarball \\(\`npm pack\`\\) \\| ${KiB} KiB \\(${bytes} bytes\\) \\|`, 'm'),
    `docs/benchmark.md's Budgets table states the ceiling ${KiB} KiB (${bytes} bytes)`,
  );
  const ledger = doc.slice(doc.indexOf('### How the tarball ceiling was set'));
  assert.match(ledger, new RegExp(`The ceiling is ${KiB} KiB \\(${bytes} bytes\\)`), 'the ceiling arithmetic names it');
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
