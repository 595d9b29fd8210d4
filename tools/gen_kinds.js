// Writes what the fused bias kinds' declarations (families/<family>/kind_<type>.js and
// kind_<type>.gen.js, two files per kind; the fields are below) say to the places that cannot import them: c_src/bias_kinds.h (the
// kinds' C steps included into families/attention/attention.c, their scratch buffers and row
// state, the defaults of the steps a kind leaves out), posenc.h's POSENC_BIAS_KINDS and
// posenc_bias, c_src/status.c's BIAS_FIELDS, the fuzz target's kind draws, js/bias_kinds.js (the
// list js/encodings.js imports, and NONE below), tests/ref_kinds.js and tests/native/ref_kinds.h (the kinds'
// references), js/index.d.ts's kind unions and families/attention/attention.md's kind tables.
//
//   node tools/gen_kinds.js           rewrite the generated files and blocks
//   node tools/gen_kinds.js --check   exit 1 naming each stale file (tests/decls.test.js)
//
// Each block sits between `<generated: NAME>` and `</generated: NAME>` marker lines (the
// convention of tools/gen_decls.js); the bias_kinds and ref_kinds files are whole files.
//
// A kind is declared in two files, both required (the generator refuses one without the other,
// naming it): kind_<type>.js holds what the library reads at run time and ships in the package
// (type, bias, fields' names and C types, hosts, parse, tables, params, rel, rows, bound,
// addsTable, defaultScale); kind_<type>.gen.js (`export const gen`) holds what only this generator
// reads and does not ship (fuzz, fuzzRel, relField, fuzzTables, scratch, rowState, types, docs,
// nativeRef). The fields (CONTRIBUTING.md "Adding a bias kind fused into attention"):
//   type      the JS type; its C name is it in upper snake case (POSENC_BIAS_T5), its C steps
//             check_<type>, values_<type>, add_<type> in fused_<type>.h
//   bias      its index in posenc.h POSENC_BIAS_KINDS (the C enum): the kinds are 1, 2, ... in order
//   fields    the posenc_bias fields it fills, in cArgs order: its tables (C type const float *)
//             in tables() order, then its params() scalars (int32_t, float or double): name, C
//             type (checked against tables() and params() on ref_<type>.js's descriptor). A field
//             two kinds share (none's and T5's table) is declared by each with the same type.
//   fuzz      (.gen.js) { field name: the C expression tests/fuzz/fuzz_core.c draws it with }; a
//             table is drawn by fuzzTables, which a kind with a table must have
//   fuzzRel   (.gen.js) the C expression of its relative-row count (rel) in the fuzzer, and
//             relField, the field that takes it; fuzzTables the C statements that draw its tables
//             (b, d, h, dim, dv, rel in scope; return 0 when they do not fit CAP)
//   scratch   (.gen.js) its scratch buffers [C type, name] (a plan offset, a ctx pointer);
//             rowState its per-row state [C type, name] (ctx arrays of the block's 4 rows)
//   hosts     the options each host accepts (a host left out refuses the kind)
//   parse, tables, params, rel, rows, bound, addsTable, defaultScale: js/encodings.js says
//   types     (.gen.js) its .d.ts keys ('name?' optional) and a doc line per host (js/index.d.ts)
//   docs      (.gen.js) its rows of families/attention/attention.md: the option as written, its logit in
//             attention and in the KV cache (omitted when the cache refuses it)
//   nativeRef (.gen.js) omitted: ref_<type>.h beside it is its double reference for tests/native/test_gqa.c
//             (fixture_<type>, ref_bias_<type>, optional REF_VALUE_<TYPE>); a string: why it has none
// Beside it: fused_<type>.h (its C steps), ref_<type>.js (its float64 reference for the JS tests:
// export const ref = { random(sizes, seed, randomF32), bias(b, at), value(b, at, c) for a term in
// the value sum }) and ref_<type>.h (unless nativeRef says why not).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cli, fillBlock, wrap } from './gen_blocks.js';

const root = new URL('..', import.meta.url).pathname;
const GEN = 'tools/gen_kinds.js';
const FROM = 'families/<family>/kind_<type>.js';

/** 'none' (kind 0, no positional bias: a dense table or nothing) is attention.c's own. This is
 * its one declaration: js/bias_kinds.js exports its shipped half (all but fuzzTables) as NONE,
 * which js/encodings.js's 'none' entry spreads. */
const NONE = {
  type: 'none',
  bias: 0,
  fields: [{ name: 'table', c: 'const float *' }],
  // a dense [heads][queries][keys] table now and then (d->tables = keys here)
  fuzzTables:
    'if (u8(c) & 1) {\n    if (prod3(h, d->q, d->tables) > CAP) return 0;\n' +
    '    b->table = IN(prod3(h, d->q, d->tables));\n}',
  hosts: { attention: [], selfAttention: [], kvCache: [] },
};
/** posenc_bias's fields every kind shares, after the kinds' own. */
const COMMON = [
  { name: 'query_scale', c: 'const float *' },
  { name: 'chunk', c: 'int32_t' },
  { name: 'window', c: 'int32_t' },
];
const HOSTS = ['attention', 'selfAttention', 'kvCache'];
const STEPS = [
  ['ROWS', 'rows_none'],
  ['PLAN', 'plan_none'],
  ['CALL_SETUP', 'NULL'],
  ['GROUP_SETUP', 'NULL'],
  ['HEAD_SETUP', 'NULL'],
  ['BLOCK_SETUP', 'NULL'],
  ['ROW', 'NULL'],
  ['PRESCALED', '1'],
];
/** The fields every kind declares: kind_<type>.js what the library reads, kind_<type>.gen.js the rest. */
const REQUIRED = ['type', 'bias', 'fields', 'hosts', 'parse', 'tables', 'params'];
const REQUIRED_GEN = ['types', 'docs'];
const GEN_ONLY = ['fuzz', 'fuzzRel', 'relField', 'fuzzTables', 'scratch', 'rowState', 'nativeRef', ...REQUIRED_GEN];
const upper = (t) => t.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase();
const isTable = (f) => f.c === 'const float *';

/** The generator-only half of a kind (path: its kind_<type>.gen.js) checked against the shipped half. */
function checkGen(path, kind, gen) {
  const lacks = REQUIRED_GEN.filter((key) => gen[key] === undefined);
  if (lacks.length) throw new Error(`${path}: lacks ${lacks.join(', ')} (see tools/gen_kinds.js)`);
  const stray = Object.keys(gen).filter((key) => !GEN_ONLY.includes(key));
  if (stray.length) throw new Error(`${path}: ${stray.join(', ')} belong in the shipped kind_${kind.type}.js`);
  const names = kind.fields.map((f) => f.name);
  const unknown = Object.keys(gen.fuzz ?? {}).filter((n) => !names.includes(n));
  if (unknown.length) throw new Error(`${path}: fuzz draws ${unknown.join(', ')}, not fields of kind '${kind.type}'`);
  if (kind.fields.some(isTable) && typeof gen.fuzzTables !== 'string')
    throw new Error(`${path}: kind '${kind.type}' has tables but no fuzzTables (the fuzzer would never pass them)`);
}

/** A kind's fields against what attention passes C for its ref_<type>.js random descriptor (its
 * tables(), then its params()): as many, tables where tables are. Two scalars swapped pass this;
 * the float64 references catch them. */
async function checkArgs(path, kind) {
  const refPath = path.replace(/kind_(\w+)\.js$/, 'ref_$1.js');
  if (!existsSync(join(root, refPath))) return; // named where tests/ref_kinds.js is written
  const { ref } = await import(pathToFileURL(join(root, refPath)).href);
  const sizes = { heads: 2, dim: 4, dimV: 4, keys: 5, queries: 3 };
  const b = kind.parse(
    ref.random(sizes, 1, (n) => new Float32Array(n)),
    { fn: GEN, prefix: '', host: 'attention' },
  );
  const rel = kind.rel?.(b) ?? 1; // the counts checked here do not depend on it
  const tables = kind.tables(b, { ...sizes, rRows: rel }).map((t) => t.key);
  const params = kind.params(b, rel);
  const want = [...tables.map(() => 'a table'), ...params.map(() => 'a scalar')];
  const have = kind.fields.map((f) => (isTable(f) ? 'a table' : 'a scalar'));
  if (want.join() !== have.join())
    throw new Error(
      `${path}: fields (${kind.fields.map((f) => f.name)}) are ${have.join(', ')}, but attention passes C ` +
        `its tables (${tables}) then ${params.length} params: ${want.join(', ')}`,
    );
}

/** One kind: its two files merged (the fuzz draws back on their fields); throws naming the file at fault. */
async function loadKind(family, f) {
  const path = `families/${family}/${f}`;
  const genPath = path.replace(/\.js$/, '.gen.js');
  const { kind } = await import(pathToFileURL(join(root, path)).href);
  if (!kind || `kind_${kind.type}.js` !== f) throw new Error(`${path}: exports no kind whose type is its name`);
  const lacks = REQUIRED.filter((key) => kind[key] === undefined);
  if (lacks.length) throw new Error(`${path}: the declaration lacks ${lacks.join(', ')} (see tools/gen_kinds.js)`);
  const shipped = Object.keys(kind).filter((key) => GEN_ONLY.includes(key));
  if (shipped.length) throw new Error(`${path}: ${shipped.join(', ')} only the generator reads: move to ${genPath}`);
  if (!existsSync(join(root, genPath))) throw new Error(`${path}: no ${genPath} beside it (its fuzz draws and docs)`);
  const { gen } = await import(pathToFileURL(join(root, genPath)).href);
  if (!gen) throw new Error(`${genPath}: exports no gen`);
  checkGen(genPath, kind, gen);
  await checkArgs(path, kind);
  const fields = kind.fields.map((x) => ({ ...x, fuzz: gen.fuzz?.[x.name] }));
  return { path, family, kind: { ...kind, ...gen, fields } };
}

/** Every kind: [{ path (from the root), family, kind }], in POSENC_BIAS_KINDS order; throws naming a gap. */
export async function loadKinds() {
  const found = [];
  for (const family of readdirSync(join(root, 'families')).sort()) {
    let names = [];
    try {
      names = readdirSync(join(root, 'families', family));
    } catch {
      continue;
    }
    for (const g of names.filter((n) => /^kind_\w+\.gen\.js$/.test(n)))
      if (!names.includes(g.replace('.gen', '')))
        throw new Error(`families/${family}/${g}: no ${g.replace('.gen', '')} beside it (the kind it describes)`);
    for (const f of names.filter((n) => /^kind_\w+\.js$/.test(n)).sort()) found.push(await loadKind(family, f));
  }
  found.sort((a, b) => a.kind.bias - b.kind.bias);
  found.forEach(({ path, kind }, i) => {
    if (kind.bias !== i + 1)
      throw new Error(`${path}: bias ${kind.bias}, but the kinds are numbered 1, 2, ... in order (expected ${i + 1})`);
  });
  return found;
}

/** posenc_bias's fields in order: kind, each kind's (shared ones once), the common ones. */
function structFields(kinds) {
  const seen = new Map([['kind', 'posenc_attention_bias']]);
  const out = [{ name: 'kind', c: 'posenc_attention_bias' }];
  for (const k of [NONE, ...kinds.map((x) => x.kind), { type: 'common', fields: COMMON }]) {
    for (const f of k.fields) {
      if (seen.has(f.name)) {
        if (seen.get(f.name) !== f.c)
          throw new Error(`kind '${k.type}': field ${f.name} is ${f.c}, another kind declares it ${seen.get(f.name)}`);
        continue;
      }
      seen.set(f.name, f.c);
      out.push(f);
    }
  }
  return out;
}

/** c_src/bias_kinds.h, the whole file. */
function kindsHeader(kinds) {
  const all = kinds.map((x) => x.kind);
  const list = (name, key) => {
    const items = all.flatMap((k) => (k[key] ?? []).map(([t, n]) => `X(${t}, ${n})`));
    return `#define ${name}(X) ${items.join(' ')}`;
  };
  const defaults = ['NONE', ...all.map((k) => upper(k.type))].flatMap((K) =>
    STEPS.flatMap(([s, d]) => [`#ifndef ${s}_${K}`, `#define ${s}_${K} ${d}`, '#endif']),
  );
  return [
    '/* clang-format off */',
    `/* GENERATED by ${GEN} from ${FROM}: edit those, then run node ${GEN}.`,
    " * families/attention/attention.c includes this twice: first for the lists (the kinds' scratch buffers, which",
    ' * give each a plan offset, a ctx pointer and its line in run_group, and their per-row state),',
    " * then with POSENC__KIND_STEPS for the kinds' steps and the defaults of those a kind leaves out. */",
    '/* clang-format off */',
    '#ifndef POSENC__KIND_STEPS',
    list('POSENC__KIND_SCRATCH', 'scratch'),
    list('POSENC__KIND_ROW_STATE', 'rowState'),
    '#else',
    ...kinds.map(({ path }) => `#include "../${path.replace(/kind_(\w+)\.js$/, 'fused_$1.h')}"`),
    ...defaults,
    '#endif',
    '/* clang-format on */',
    '',
  ].join('\n');
}

/** c_src/posenc.h: POSENC_BIAS_KINDS. */
function kindsLine(kinds) {
  const items = [NONE, ...kinds.map((x) => x.kind)].map((k) => `X(${upper(k.type)}, ${k.type})`);
  const rows = wrap(items, '#define POSENC_BIAS_KINDS(X) ', '    ', '', 98);
  return [
    '/* clang-format off */',
    ...rows.map((r, i) => (i < rows.length - 1 ? `${r} \\` : r)),
    '/* clang-format on */',
  ];
}

/** c_src/posenc.h: the posenc_bias struct. */
function structLines(kinds) {
  const decl = (f) => (f.c.endsWith('*') ? `${f.c}${f.name};` : `${f.c} ${f.name};`);
  return [
    '/* clang-format off */',
    'typedef struct posenc_bias {',
    ...structFields(kinds).map((f) => `    ${decl(f)}`),
    '} posenc_bias;',
    '/* clang-format on */',
  ];
}

/** c_src/status.c: BIAS_FIELDS, posenc_struct_layout's field list of posenc_bias. */
function statusLines(kinds) {
  const rows = wrap(
    structFields(kinds).map((f) => `X(S, ${f.name})`),
    '    ',
    '    ',
    '',
    96,
  );
  return ['#define BIAS_FIELDS(X, S) \\', ...rows.map((r, i) => `${r}${i < rows.length - 1 ? ' \\' : ''}`)];
}

/** tests/fuzz/fuzz_core.c: the kinds' scalar draws, the cache's kinds and their tables. */
function fuzzLines(kinds) {
  const all = kinds.map((x) => x.kind);
  const indent = (text, pad) => text.split('\n').map((l) => pad + l);
  const rel = all.filter((k) => k.fuzzRel);
  const kv = [NONE, ...all].filter((k) => k.hosts.kvCache).map((k) => `POSENC_BIAS_${upper(k.type)}`);
  return [
    '// clang-format off',
    '/* the relative-row count of a kind (its relField), 0 for the kinds without one */',
    'static int32_t kind_rel(cursor *c, posenc_attention_bias kind) {',
    ...rel.map((k) => `    if (kind == POSENC_BIAS_${upper(k.type)}) return ${k.fuzzRel};`),
    '    (void)c;',
    '    return 0;',
    '}',
    "/* every kind's scalars (drawn whatever the kind, so the data stay aligned) */",
    'static void kind_scalars(cursor *c, posenc_bias *b, int32_t rel) {',
    ...rel.map((k) => `    if (b->kind == POSENC_BIAS_${upper(k.type)}) b->${k.relField} = rel;`),
    ...all.flatMap((k) => k.fields.filter((f) => f.fuzz).map((f) => `    b->${f.name} = ${f.fuzz};`)),
    '}',
    '/* the kinds a KV cache takes */',
    `static const posenc_attention_bias KV_KINDS[] = {${kv.join(', ')}};`,
    '/* its tables; 0 when they do not fit */',
    'static int kind_tables(cursor *c, bias_draw *d) {',
    '    posenc_bias *b = &d->b;',
    '    const int32_t h = d->h, dim = d->dim, dv = d->dv, rel = d->rel;',
    '    (void)dim, (void)dv, (void)rel;',
    '    switch (b->kind) {',
    ...[NONE, ...all]
      .filter((k) => k.fuzzTables)
      .flatMap((k) => [
        `        case POSENC_BIAS_${upper(k.type)}: {`,
        ...indent(k.fuzzTables, '            '),
        '            break;',
        '        }',
      ]),
    '        default:',
    '            break;',
    '    }',
    '    return 1;',
    '}',
    '// clang-format on',
  ];
}

/** tests/native/ref_kinds.h, the whole file: the kinds' double references (ref_<type>.h). */
function nativeRefs(kinds) {
  const modeled = kinds.filter(({ kind }) => typeof kind.nativeRef !== 'string');
  for (const { path } of modeled) {
    const ref = path.replace(/kind_(\w+)\.js$/, 'ref_$1.h');
    if (!existsSync(join(root, ref)))
      throw new Error(
        `${path}: no ${ref} (its double reference for tests/native/test_gqa.c), nor nativeRef: 'why not'`,
      );
  }
  const K = (k) => `POSENC_BIAS_${upper(k.type)}`;
  const cases = (f) => modeled.flatMap(({ kind }) => [`        case ${K(kind)}:`, `            ${f(kind)}`]);
  const tables = (k) => k.fields.filter((f) => f.c.endsWith('*')).map((f) => `free((void *)b->${f.name});`);
  return [
    '/* clang-format off */',
    `/* GENERATED by ${GEN} from ${FROM}: each kind's double reference`,
    ' * (ref_<type>.h beside its declaration) for tests/native/test_gqa.c, which includes this after',
    ' * its ref_at. A kind whose declaration says nativeRef (why not) has none here. */',
    ...modeled.map(({ path }) => `#include "../../${path.replace(/kind_(\w+)\.js$/, 'ref_$1.h')}"`),
    ...modeled.flatMap(({ kind }) => [
      `#ifndef REF_VALUE_${upper(kind.type)}`,
      `#define REF_VALUE_${upper(kind.type)}(b, at, c) ((void)(b), (void)(at), (void)(c), 0.0)`,
      '#endif',
    ]),
    '/* whether a kind has a double reference here */',
    'static int ref_has(int kind) {',
    '    switch (kind) {',
    '        case POSENC_BIAS_NONE:',
    ...modeled.map(({ kind }) => `        case ${K(kind)}:`),
    '            return 1;',
    '        default:',
    '            return 0;',
    '    }',
    '}',
    '/* b (its kind set) with the tables and scalars of its fixture; ref_free frees the tables */',
    'static void ref_fixture(posenc_bias *b, int32_t H, int32_t D, int32_t DV, int seed) {',
    '    switch (b->kind) {',
    ...cases((k) => `fixture_${k.type}(b, H, D, DV, seed); break;`),
    '        default:',
    '            (void)H, (void)D, (void)DV, (void)seed;',
    '            break;',
    '    }',
    '}',
    'static void ref_free(posenc_bias *b) {',
    '    switch (b->kind) {',
    ...cases((k) => [...tables(k), 'break;'].join(' ')),
    '        default:',
    '            break;',
    '    }',
    '}',
    '/* the bias a kind adds to a logit, and the term it adds to value column c */',
    'static double ref_bias_of(const posenc_bias *b, const ref_at *at) {',
    '    switch (b->kind) {',
    ...cases((k) => `return ref_bias_${k.type}(b, at);`),
    '        default:',
    '            return 0;',
    '    }',
    '}',
    'static double ref_value_of(const posenc_bias *b, const ref_at *at, int32_t c) {',
    '    switch (b->kind) {',
    ...cases((k) => `return REF_VALUE_${upper(k.type)}(b, at, c);`),
    '        default:',
    '            return 0;',
    '    }',
    '}',
    '/* clang-format on */',
    '',
  ].join('\n');
}

/** tests/ref_kinds.js, the whole file: each kind's float64 reference (ref_<type>.js). */
function jsRefs(kinds) {
  const refs = kinds.map(({ path, kind }) => [kind.type, path.replace(/kind_(\w+)\.js$/, 'ref_$1.js')]);
  for (const [, ref] of refs)
    if (!existsSync(join(root, ref))) throw new Error(`${ref} is missing: the kind's float64 reference for the tests`);
  return [
    `// GENERATED by ${GEN}: each fused kind's float64 reference (ref_<type>.js`,
    '// beside its declaration, families/<family>/kind_<type>.js), as tests/ref64.js reads them.',
    ...refs.map(([type, ref]) => `import { ref as ${type} } from '../${ref}';`),
    '',
    `export const REFS = { ${refs.map(([type]) => type).join(', ')} };`,
    '',
  ].join('\n');
}

/** js/bias_kinds.js, the whole file. */
function jsList(kinds) {
  const q = (x) => `'${x}'`;
  const fields = NONE.fields.map((f) => `{ name: ${q(f.name)}, c: ${q(f.c)} }`);
  const hosts = Object.entries(NONE.hosts).map(([h, keys]) => `${h}: [${keys.map(q).join(', ')}]`);
  return [
    `// GENERATED by ${GEN} from ${FROM}: the fused bias kinds in`,
    "// POSENC_BIAS_KINDS order (after 'none'), as js/encodings.js reads them.",
    ...kinds.map(({ path, kind }) => `import { kind as ${kind.type} } from '../${path}';`),
    '',
    `export const KINDS = [${kinds.map(({ kind }) => kind.type).join(', ')}];`,
    '',
    `/** kind 0, 'none' (declared in ${GEN}): its C index, posenc_bias field and hosts. */`,
    'export const NONE = {',
    `  type: ${q(NONE.type)},`,
    `  bias: ${NONE.bias},`,
    `  fields: [${fields.join(', ')}],`,
    `  hosts: { ${hosts.join(', ')} },`,
    '};',
    '',
  ].join('\n');
}

/** js/index.d.ts: a union of the kinds each host takes. */
function dtsLines(kinds) {
  const NAMES = { attention: 'AttentionBiasKind', selfAttention: 'SelfAttentionBiasKind', kvCache: 'KvCacheBiasKind' };
  const out = [];
  for (const host of HOSTS) {
    const takes = kinds.map((x) => x.kind).filter((k) => k.hosts[host]);
    out.push(`/** The fused bias kinds ${host} takes. */`, `export type ${NAMES[host]} =`);
    takes.forEach((k, i) => {
      const end = i === takes.length - 1 ? ';' : '';
      const keys = Object.entries(k.types.keys).filter(([key]) => k.hosts[host].includes(key.replace('?', '')));
      const fields = [`type: '${k.type}'`, ...keys.map(([key, t]) => `${key}: ${t}`)];
      const doc = host === 'kvCache' ? k.types.doc.kvCache : (k.types.doc[host] ?? k.types.doc.attention);
      if (Array.isArray(doc))
        out.push(`  /** ${doc[0]}`, ...doc.slice(1, -1).map((l) => `   * ${l}`), `   * ${doc.at(-1)} */`);
      else if (doc !== undefined) out.push(`  /** ${doc} */`);
      const one = `  | { ${fields.join('; ')} }${end}`;
      if (one.length <= 120) out.push(one);
      else out.push('  | {', ...fields.map((f) => `      ${f};`), `    }${end}`);
    });
  }
  return out;
}

/** families/attention/attention.md: the bias table of attention. */
function docsAttention(kinds) {
  return [
    '| `bias` | logit gains |',
    '|---|---|',
    '| `Float32Array [heads][queries][keys]` | the array; `-Infinity` blocks an entry |',
    ...kinds.map(({ kind: k }) => `| ${k.docs.option} | ${k.docs.attention} |`),
  ];
}

/** families/attention/attention.md: the KV cache's rows of the kinds it takes (after none and rope). */
function docsCache(kinds) {
  const rows = kinds
    .map((x) => x.kind)
    .filter((k) => k.hosts.kvCache)
    .map((k) => `| ${k.docs.kvOption ?? k.docs.option} | ${k.docs.kvCache} |`);
  return ['| `encoding` | logit gains in the cache |', '|---|---|', ...rows];
}

/** [file, block name, lines(kinds)] */
const BLOCKS = [
  ['c_src/posenc.h', 'bias kinds', kindsLine],
  ['c_src/posenc.h', 'bias fields', structLines],
  ['c_src/status.c', 'bias fields', statusLines],
  ['tests/fuzz/fuzz_core.c', 'bias kinds', fuzzLines],
  ['js/index.d.ts', 'bias kinds', dtsLines],
  ['families/attention/attention.md', 'attention bias kinds', docsAttention],
  ['families/attention/attention.md', 'cache bias kinds', docsCache],
];
const FILES = {
  'c_src/bias_kinds.h': kindsHeader,
  'js/bias_kinds.js': jsList,
  'tests/native/ref_kinds.h': nativeRefs,
  'tests/ref_kinds.js': jsRefs,
};

/** Every generated file: path -> [current text, wanted text]. */
export async function generated() {
  const kinds = await loadKinds();
  const files = {};
  const read = (f) => {
    try {
      return readFileSync(join(root, f), 'utf8');
    } catch {
      return '';
    }
  };
  for (const [f, make] of Object.entries(FILES)) files[f] = [read(f), make(kinds)];
  for (const [f, name, make] of BLOCKS) {
    const now = files[f]?.[1] ?? read(f);
    files[f] = [files[f]?.[0] ?? now, fillBlock(f, now, name, make(kinds), `${GEN} from ${FROM}`)];
  }
  return files;
}

await cli(import.meta, GEN, generated);
