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
import { generated as statusLists } from '../tools/gen_status.js';
import { generated as kindsGenerated } from '../tools/gen_kinds.js';
import { generated as modelTables } from '../tools/gen_models.js';

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

test('nothing generated from the status codes is stale (node tools/gen_status.js rewrites it)', () => {
  const stale = Object.entries(statusLists()).filter(([, [now, want]]) => now !== want);
  assert.deepEqual(
    stale.map(([f]) => f),
    [],
    'run node tools/gen_status.js: these files differ from what decl/status.js gives',
  );
});

test('nothing generated from the model types is stale (node tools/gen_models.js rewrites it)', () => {
  // also refuses a fixture of tests/fixtures/configs/ that families/config/models.md does not list,
  // and a row of its fixture tables whose fixture is gone
  const stale = Object.entries(modelTables()).filter(([, [now, want]]) => now !== want);
  assert.deepEqual(
    stale.map(([f]) => f),
    [],
    'run node tools/gen_models.js: these files differ from what families/config/models.js gives',
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

// Options, probed from each declaration's example call: the declared names are what the function
// accepts (its unknown-option message lists them, an object option's fields too); a declared
// default gives what leaving the option out gives; each choice is accepted and a value off the
// list refused naming the option; each range's lower bound is not refused by it and one past
// either bound is; a required option left out is refused naming it.
const TINY = { length: 8, steps: 2, dim: 8, heads: 2, layers: 1, hidden: 8, batch: 2 };

/** The message of what `call()` throws ('' when it returns). */
function thrown(call) {
  try {
    call();
  } catch (e) {
    return e;
  }
  return null;
}
function refusedNaming(call, key, why) {
  const e = thrown(call);
  assert.ok(
    e instanceof PosencError && e.argument === key,
    `${why}: ${e ? `${e.argument}: ${e.message}` : 'accepted'}`,
  );
}
/** The range check of `key` lets it through (it may still be refused for another option's sake). */
function notRefusedNaming(call, key, why) {
  const e = thrown(call);
  assert.ok(!(e instanceof PosencError && e.argument === key), `${why}: ${e?.message}`);
}
const allowedOf = (call) => /allowed: ([^)]*)\)/.exec(thrown(call)?.message ?? '')?.[1]?.split(', ');

/** A result as plain data for comparison: typed arrays as arrays, a KV cache by what it attends. */
function plain(r, f) {
  if (typeof r?.append === 'function') {
    const n = (d) => Float32Array.from({ length: d }, (_, i) => Math.cos(i));
    const { dim } = f.example.opts;
    const out = Array.from(r.append(n(2 * dim), n(2 * dim)).attend(n(2 * dim)).output);
    r.free();
    return out;
  }
  if (ArrayBuffer.isView(r)) return Array.from(r);
  if (typeof r === 'function') return 'a function';
  if (r && typeof r === 'object') return Object.fromEntries(Object.entries(r).map(([k, v]) => [k, plain(v, f)]));
  return r;
}
const past = (v, up) => (up ? v + Math.max(1, Math.abs(v) * 1e-6) : v - Math.max(1, Math.abs(v) * 1e-6));
const multiple = (o, v) => (o.multipleOf ? Math.ceil(v / o.multipleOf) * o.multipleOf : v);

/** The range probes of option `k` (o its declaration; its bounds hold with the options
 * o.boundWith) through `call`. */
function probeRange(name, k, o, call, path = k) {
  const at = (v) => call({ ...o.boundWith, [k]: v });
  const step = o.type === 'integer' ? 1 : undefined;
  const below = (v) => (step ? v - 1 : past(v, false));
  const above = (v) => (step ? v + 1 : past(v, true));
  if (o.min !== undefined) {
    notRefusedNaming(() => at(multiple(o, o.min)), path, `${name}: ${path} at its minimum ${o.min}`);
    refusedNaming(() => at(below(o.min)), path, `${name}: ${path} below ${o.min}`);
  }
  if (o.max !== undefined) {
    if (o.max <= 4096) notRefusedNaming(() => at(o.max), path, `${name}: ${path} at its maximum ${o.max}`);
    refusedNaming(() => at(above(o.max)), path, `${name}: ${path} above ${o.max}`);
  }
  if (o.gt !== undefined) {
    const inside = o.gt + Math.min(1, (o.max ?? Number.POSITIVE_INFINITY) - o.gt);
    notRefusedNaming(() => at(inside), path, `${name}: ${path} at ${inside}`);
    refusedNaming(() => at(o.gt), path, `${name}: ${path} at ${o.gt}`);
  }
  if (o.lt !== undefined) refusedNaming(() => at(o.lt), path, `${name}: ${path} at ${o.lt}`);
  if (o.multipleOf) refusedNaming(() => at(multiple(o, o.min ?? 1) + 1), path, `${name}: ${path} not a multiple`);
}

/** Every probe of one declared option `k` of function f (an object option's fields too, from its
 * example); `call(o)` calls f with the example's options and o over them. */
function probeOption(f, call, k, o, path = k) {
  const at = (v) => call({ [k]: v });
  if (o.default !== undefined)
    assert.deepEqual(plain(at(o.default), f), plain(at(undefined), f), `${f.name}: ${path} defaults to ${o.default}`);
  if (Array.isArray(o.type)) {
    for (const v of o.type) assert.doesNotThrow(() => at(v), `${f.name}: ${path} '${v}'`);
    refusedNaming(() => at('zzz'), path, `${f.name}: ${path} off its list`);
  }
  if (o.type === 'integer' || o.type === 'number') probeRange(f.name, k, o, call, path);
  if (o.required) refusedNaming(() => at(undefined), path, `${f.name}: ${path} is required`);
  if (o.fields) {
    const fields = allowedOf(() => at({ zzzUnknown: 1 }));
    assert.deepEqual(fields?.sort(), Object.keys(o.fields).sort(), `${f.name}: ${path}'s declared fields = accepted`);
    assert.ok(o.example, `${f.name}: ${path} declares an example (its fields are probed from it)`);
    for (const [fk, fo] of Object.entries(o.fields))
      probeOption(f, (x) => at({ ...o.example, ...x }), fk, fo, `${path}.${fk}`);
  }
}

test('declared options: names, defaults, choices, ranges and required ones are what the API does', async () => {
  const pe = await init();
  await pe.loadLab();
  const { model } = pe.train(TINY);
  const failures = [];
  for (const f of FAMILY_DECLS.flatMap((d) => d.functions).filter((x) => x.options)) {
    assert.ok(f.example, `${f.name}: declare an example call (decl/*.js example) to probe its options from`);
    // fresh copies each call: applyRope and addTo work in place
    const args = () =>
      f.example.model ? [model] : (f.example.args ?? []).map((a) => (ArrayBuffer.isView(a) ? a.slice() : a));
    const call = (o) => pe[f.name](...args(), { ...f.example.opts, ...o });
    const keys = Object.keys(f.options);
    assert.deepEqual(
      allowedOf(() => call({ zzzUnknown: 1 }))?.sort(),
      keys.slice().sort(),
      `${f.name}: declared = accepted`,
    );
    for (const [k, o] of Object.entries(f.options)) {
      try {
        probeOption(f, call, k, o);
      } catch (e) {
        failures.push(e.message.split('\n')[0]);
      }
    }
  }
  assert.deepEqual(failures, [], 'the declarations and the API disagree');
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
