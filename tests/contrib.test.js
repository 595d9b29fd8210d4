// What CONTRIBUTING.md asks of a family, checked for every family: the list is FAMILIES in
// js/index.js (the one place it lives), each entry's module is read from index.js's imports, and
// each family's functions are the keys of the object it builds. For each family: its functions
// have types (js/index.d.ts) and named exports, posenc/lite offers it, a README row lists every
// function and links a docs/ page that exists and names them, and every C entry point its module
// calls is exported (c_src/exports*.txt) and has a row in the fuzz target (tests/fuzz/fuzz_core.c).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import * as index from '../js/index.js';
import * as lite from '../js/lite.js';

const root = new URL('..', import.meta.url).pathname;
const read = (f) => readFileSync(join(root, f), 'utf8');

const indexJs = read('js/index.js');
const listed = /const FAMILIES = \[([^\]]*)\]/
  .exec(indexJs)[1]
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean);
const FAMILIES = listed.map((name) => {
  const from = new RegExp(`import \\{ ${name} \\} from '\\./(\\w+)\\.js'`).exec(indexJs);
  assert.ok(from, `js/index.js imports ${name} from its module`);
  assert.equal(typeof lite[name], 'function', `js/lite.js exports ${name}`);
  return { name, file: `js/${from[1]}.js`, functions: Object.keys(lite[name](null)) };
});

const types = read('js/index.d.ts');
const liteTypes = read('js/lite.d.ts');
const readme = read('README.md');
const fuzz = read('tests/fuzz/fuzz_core.c');
const fuzzRows = new Set(
  [...fuzz.slice(fuzz.indexOf('ENTRIES[]')).matchAll(/\bE\((\w+)\)/g)].map((m) => `posenc_${m[1]}`),
);
const names = (f) =>
  read(f)
    .split('\n')
    .map((l) => l.replace(/#.*/, '').trim())
    .filter(Boolean);
const exported = new Set([...names('c_src/exports.txt'), ...names('c_src/exports_lab.txt')]);
const docsRows = readme
  .slice(readme.indexOf('## Documentation'))
  .split('\n')
  .filter((l) => l.startsWith('| '));

test('the family list is found and every family has functions', () => {
  assert.ok(FAMILIES.length >= 7, listed.join(', '));
  for (const f of FAMILIES) assert.ok(f.functions.length > 0, f.name);
});

for (const family of FAMILIES) {
  test(`${family.name} (${family.file}) has its types, exports, README row, docs page and fuzz rows`, () => {
    assert.match(
      liteTypes,
      new RegExp(`export declare const ${family.name}: Family<`),
      `js/lite.d.ts declares ${family.name}`,
    );
    for (const fn of family.functions) {
      assert.match(types, new RegExp(`^\\s+${fn}[<(]`, 'm'), `js/index.d.ts declares ${fn} in an API interface`);
      assert.match(
        types,
        new RegExp(`^export declare const ${fn}: Posenc\\['${fn}'\\];`, 'm'),
        `js/index.d.ts declares the named export ${fn}`,
      );
      assert.equal(typeof index[fn], 'function', `js/index.js exports ${fn}`);
      const row = docsRows.find((r) => r.includes(`\`${fn}\``) || r.includes(`\`${fn}(`));
      assert.ok(row, `README.md's Documentation table has a row naming \`${fn}\``);
      const page = /\]\(https:\/\/github\.com\/posenc\/posenc\/blob\/main\/(docs\/[\w-]+\.md)\)/.exec(row)?.[1];
      assert.ok(page, `the README row of ${fn} links its docs page: ${row}`);
      assert.match(read(page), new RegExp(`\\b${fn}\\b`), `${page} names ${fn}`);
    }
    const called = new Set([...read(family.file).matchAll(/'(posenc_\w+)'/g)].map((m) => m[1]));
    for (const c of called) {
      assert.ok(exported.has(c), `${family.file} calls ${c}, which c_src/exports*.txt does not export`);
      assert.ok(
        fuzzRows.has(c),
        `tests/fuzz/fuzz_core.c has no E(${c.slice(7)}) row for ${c} (${family.file} calls it)`,
      );
    }
  });
}
