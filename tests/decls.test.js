// The declarations (decl/index.js and the families/*/decl.js it names) are the one list of public
// functions: tools/gen_decls.js writes every other list from them. Here: nothing generated is
// stale, and each declaration says what the running API does (its families' functions, the C it
// calls, its options' names, ranges and defaults, a docs anchor that resolves).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { declare as core, FAMILY_DECLS } from '../decl/index.js';
import { PosencError } from '../js/errors.js';
import { init } from '../js/index.js';
import * as liteModule from '../js/lite.js';
import { generated } from '../tools/gen_decls.js';
import { generated as kindsGenerated } from '../tools/gen_kinds.js';

const lite = { ...liteModule };
const root = new URL('..', import.meta.url).pathname;
const read = (f) => readFileSync(join(root, f), 'utf8');
const ALL = [...core.functions, ...FAMILY_DECLS.flatMap((f) => f.functions)];

test('nothing generated from the declarations is stale (node tools/gen_decls.js rewrites it)', () => {
  const stale = Object.entries(generated()).filter(([, [now, want]]) => now !== want);
  assert.deepEqual(
    stale.map(([f]) => f),
    [],
    'run node tools/gen_decls.js: these files differ from what the declarations give',
  );
});

test('nothing generated from the bias kinds is stale (node tools/gen_kinds.js rewrites it)', async () => {
  const stale = Object.entries(await kindsGenerated()).filter(([, [now, want]]) => now !== want);
  assert.deepEqual(
    stale.map(([f]) => f),
    [],
    "run node tools/gen_kinds.js: these files differ from what the kinds' declarations give",
  );
});

test('every family of posenc/lite is declared, with its functions and its core mark', () => {
  const families = Object.keys(lite).filter((k) => k.endsWith('Family'));
  assert.deepEqual(families.sort(), FAMILY_DECLS.map((f) => f.family).sort(), 'js/lite.js families = the decls');
  for (const d of FAMILY_DECLS) {
    const family = lite[d.family];
    assert.deepEqual(
      Object.keys(family(null)).sort(),
      d.functions.map((f) => f.name).sort(),
      `families/${d.module}/decl.js declares the functions ${d.family} builds`,
    );
    // js/lite.js picks a family's core by its mark; the declarations put its C in that core's list
    assert.equal(
      family.core === 'lean',
      d.lean === true,
      `${d.family}.core and families/${d.module}/decl.js lean agree`,
    );
    if (d.page === true)
      assert.ok(['lean', 'encodings'].includes(family.core), `${d.family}.core: the page's encodings core has its C`);
    if (d.page === 'attention')
      assert.equal(family.core, 'attention', `${d.family}.core: only the attention core has its C`);
    const rows = d.readme.flatMap((r) => r.functions);
    assert.deepEqual(rows.sort(), d.functions.map((f) => f.name).sort(), `${d.family}: its README rows list each once`);
  }
});

test("the API object's functions are exactly the declared ones", async () => {
  const pe = await init();
  const api = Object.keys(pe).filter((k) => typeof pe[k] === 'function');
  assert.deepEqual(api.sort(), ALL.map((f) => f.name).sort());
});

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
const anchorOf = (heading) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

test('each declared docs link resolves, and the page names the function', () => {
  for (const f of ALL) {
    const [page, anchor] = f.docs.split('#');
    const text = read(page);
    if (anchor) {
      const anchors = [...text.matchAll(/^#+ (.*)$/gm)].map((m) => anchorOf(m[1]));
      assert.ok(anchors.includes(anchor), `${f.name}: ${page} has no heading whose anchor is #${anchor}`);
    }
    assert.match(text, new RegExp(`\\b${f.name}\\b`), `${f.name}: ${page} never names it`);
  }
});

// The C each family module calls, read from its source: the one check that reads source, since
// the calls are hand-written code and the declaration must name each one.
test("each C entry point a family module calls is in its declaration's c lists", () => {
  for (const d of FAMILY_DECLS) {
    const declared = new Set([...(d.cOnly ?? []), ...d.functions.flatMap((f) => f.c)]);
    for (const m of read(`families/${d.module}/${d.module}.js`).matchAll(/'(posenc_\w+)'/g)) {
      assert.ok(
        declared.has(m[1]),
        `families/${d.module}/${d.module}.js calls ${m[1]}: add it to a function's c in its decl.js`,
      );
    }
  }
});

// Options: the declared names are what the function accepts (its unknown-option message lists
// them); a declared default gives what leaving the option out gives; each choice is accepted, a
// value off the list and an integer below its minimum are refused naming the option.
const VALID = { length: 4, dim: 8, height: 2, width: 2 };
const args = (f) => (f.args ?? []).map(() => Float32Array.from({ length: 32 }, (_, i) => Math.sin(i)));

function refusedNaming(call, key, why) {
  assert.throws(call, (e) => e instanceof PosencError && e.argument === key, why);
}

test('declared options: names, defaults, choices and minimums are what the API does', async () => {
  const pe = await init();
  for (const f of ALL.filter((x) => x.options)) {
    const keys = Object.keys(f.options);
    const call = (o) => pe[f.name](...args(f), o);
    const allowed = /allowed: ([^)]*)\)/.exec(
      (() => {
        try {
          call({ zzzUnknown: 1 });
        } catch (e) {
          return e.message;
        }
      })(),
    )?.[1];
    assert.deepEqual(allowed?.split(', ').sort(), keys.slice().sort(), `${f.name}: declared options = accepted`);
    const base = Object.fromEntries(keys.filter((k) => f.options[k].required).map((k) => [k, VALID[k]]));
    const plain = Array.from(call(base));
    for (const [k, o] of Object.entries(f.options)) {
      if (o.default !== undefined)
        assert.deepEqual(
          Array.from(call({ ...base, [k]: o.default })),
          plain,
          `${f.name}: ${k} defaults to ${o.default}`,
        );
      if (Array.isArray(o.type)) {
        for (const v of o.type) assert.doesNotThrow(() => call({ ...base, [k]: v }), `${f.name}: ${k} '${v}'`);
        refusedNaming(() => call({ ...base, [k]: 'zzz' }), k, `${f.name}: ${k} off its list`);
      }
      if (o.type === 'integer' && o.min !== undefined)
        refusedNaming(() => call({ ...base, [k]: o.min - 1 }), k, `${f.name}: ${k} below ${o.min}`);
      if (o.gt !== undefined) refusedNaming(() => call({ ...base, [k]: o.gt }), k, `${f.name}: ${k} at ${o.gt}`);
      if (o.required) refusedNaming(() => call({ ...base, [k]: undefined }), k, `${f.name}: ${k} is required`);
    }
  }
});

// A family module without a declaration would be in no generated list: each `export function
// xFamily(` of js/ and families/*/ (hand-written code, so read from source) must be declared.
test('every family module of js/ and families/ has its declaration', () => {
  const declared = FAMILY_DECLS.map((d) => `${d.module}:${d.family}`);
  const dirs = ['js', ...readdirSync(join(root, 'families')).map((d) => `families/${d}`)];
  for (const dir of dirs) {
    for (const f of readdirSync(join(root, dir)).filter((x) => /^[a-z0-9]+\.js$/.test(x) && x !== 'decl.js')) {
      for (const m of read(`${dir}/${f}`).matchAll(/^export function (\w+Family)\(/gm)) {
        assert.ok(
          declared.includes(`${f.slice(0, -3)}:${m[1]}`),
          `${dir}/${f} builds ${m[1]}: declare it (families/*/decl.js)`,
        );
      }
    }
  }
});
