// What CONTRIBUTING.md asks of a family that is still written by hand, checked for every family.
// The families and their functions are the declarations (decl/index.js FAMILY_DECLS); what is
// written from them (forwards, named exports, lite, export lists, fuzz rows, README table, the
// .d.ts signatures and option interfaces, the docs' option tables) is checked by
// tests/decls.test.js. Here: the CHANGELOG and a bench row; the registry's hand-written encodings
// in the types and docs, every encoding in the CHANGELOG (the fused bias kinds' lists are written
// by tools/gen_kinds.js).
import assert from 'node:assert/strict';
import * as require_fs from 'node:fs';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { FAMILY_DECLS } from '../decl/index.js';
import { ENCODINGS } from '../js/encodings.js';

const root = new URL('..', import.meta.url).pathname;
const read = (f) => readFileSync(join(root, f), 'utf8');

const FAMILIES = FAMILY_DECLS.map((d) => ({
  name: d.family,
  file: `families/${d.module}/${d.module}.js`,
  functions: d.functions.map((f) => f.name),
  kernels: d.functions.some((f) => f.c.some((c) => !/_size$/.test(c))),
}));

const types = read('js/index.d.ts');

const changelog = read('CHANGELOG.md');
const benchSrc = [
  ...require_fs
    .readdirSync(join(root, 'bench'))
    .filter((f) => f.endsWith('.js'))
    .map((f) => `bench/${f}`),
  ...require_fs
    .readdirSync(join(root, 'families'))
    .map((d) => `families/${d}/bench.js`)
    .filter((f) => require_fs.existsSync(join(root, f))),
]
  .map(read)
  .join('\n');
for (const family of FAMILIES) {
  test(`${family.name}: CHANGELOG names each function; a family with C kernels has a bench row`, () => {
    for (const fn of family.functions) {
      assert.match(changelog, new RegExp(`\x60${fn}[\x60(]`), `CHANGELOG.md never names \x60${fn}\x60`);
    }
    if (!family.kernels) return; // pure JS (fromConfig)
    assert.ok(
      family.functions.some((fn) => new RegExp(`\\.\\s*${fn}\\(`).test(benchSrc)),
      `no bench/*.js or families/*/bench.js group calls any of ${family.functions.join(', ')} (${family.file} runs C kernels)`,
    );
  });
}

// Encodings: the registry (js/encodings.js ENCODINGS) is the list. A fused bias kind's types,
// docs rows, C kind and fuzz draws are generated from its declaration (tools/gen_kinds.js,
// checked by tests/decls.test.js); the other encodings (none, sinusoidal, learned, rope) must be
// in the types of every call that takes it and the docs (families/attention/attention.md: the tables of each
// host that takes it), and every encoding in the CHANGELOG. A bias row's link must resolve.
const UNION = { attention: 'AttentionBias', selfAttention: 'SelfAttentionEncoding', kvCache: 'KvCacheEncoding' };
/** The text of `export type NAME = ...` in js/index.d.ts, up to the next export. */
function unionOf(name) {
  const at = types.indexOf(`export type ${name} =`);
  assert.ok(at >= 0, `js/index.d.ts declares export type ${name}`);
  const next = types.indexOf('\nexport ', at + 1);
  return types.slice(at, next < 0 ? undefined : next);
}
const attentionDoc = read('families/attention/attention.md');

/** The rows of the first markdown table of `doc` whose header line starts with `header`. */
function tableRows(doc, header) {
  const lines = doc.split('\n');
  const at = lines.findIndex((l) => l.startsWith(header));
  if (at < 0) return undefined;
  const rows = [];
  for (let i = at + 2; i < lines.length && lines[i].startsWith('|'); i++) rows.push(lines[i]);
  return rows;
}
/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
const anchorOf = (heading) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
/** Why the link `target` (from families/attention/attention.md) does not resolve, or '' when it does. */
function brokenLink(target) {
  const [file, anchor] = target.split('#');
  const path = join('families/attention', file || 'attention.md');
  if (!require_fs.existsSync(join(root, path))) return `${path} does not exist`;
  if (!anchor) return '';
  const anchors = [...read(path).matchAll(/^#+ (.*)$/gm)].map((m) => anchorOf(m[1]));
  return anchors.includes(anchor) ? '' : `${path} has no heading whose anchor is #${anchor}`;
}
// families/attention/attention.md's tables that list encodings: the bias table of `attention`, the KV cache's
// options (its `encoding` row lists the types) and its encoding table
const BIAS_TABLE = '| `bias` | logit gains |';
const KV_OPTIONS = '| option | meaning |';
const KV_TABLE = '| `encoding` | what the cache does |';

/** What families/attention/attention.md lacks for encoding `type` (row e of the registry), as messages. */
function attentionDocGaps(type, e) {
  const gaps = [];
  const rowOf = (rows) => rows?.find((r) => r.includes(`{ type: '${type}'`));
  if (e.hosts.attention && type !== 'none') {
    const row = rowOf(tableRows(attentionDoc, BIAS_TABLE));
    const links = row ? [...row.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]) : [];
    if (!row)
      gaps.push(`families/attention/attention.md bias table ("${BIAS_TABLE}") has no row { type: '${type}', ... }`);
    else if (links.length === 0)
      gaps.push(
        `families/attention/attention.md bias table: the '${type}' row links to no section (its formula and paper)`,
      );
    for (const l of links) {
      const why = brokenLink(l);
      if (why)
        gaps.push(
          `families/attention/attention.md bias table: the '${type}' row's link (${l}) does not resolve: ${why}`,
        );
    }
  }
  if (e.hosts.kvCache) {
    const opt = tableRows(attentionDoc, KV_OPTIONS)?.find((r) => r.startsWith('| `encoding` |'));
    if (!opt?.includes(`'${type}'`))
      gaps.push(
        `families/attention/attention.md KV cache options table ("${KV_OPTIONS}"): its \`encoding\` row does not list '${type}'`,
      );
    if (!rowOf(tableRows(attentionDoc, KV_TABLE)))
      gaps.push(
        `families/attention/attention.md KV cache encoding table ("${KV_TABLE}") has no row { type: '${type}', ... }`,
      );
  }
  if (e.hosts.selfAttention) {
    const section = attentionDoc.split(/^## /m).find((x) => x.startsWith('`selfAttention`')) ?? '';
    const sentence = /`encoding` is [\s\S]*?\./.exec(section)?.[0] ?? '';
    if (!sentence.includes(`'${type}'`))
      gaps.push(
        `families/attention/attention.md section selfAttention: its "\`encoding\` is ..." sentence does not list '${type}'`,
      );
  }
  return gaps;
}

/** A fused bias kind: declared in families/<family>/kind_<type>.js, its lists generated. */
const fusedKind = (type, e) => e.fields !== undefined && type !== 'none';

test('every fused bias kind links its families/attention/attention.md row to a section that resolves', () => {
  for (const row of tableRows(attentionDoc, BIAS_TABLE) ?? []) {
    for (const [, l] of row.matchAll(/\]\(([^)\s]+)\)/g)) {
      const why = brokenLink(l);
      assert.equal(
        why,
        '',
        `families/attention/attention.md bias table: the link (${l}) of ${row.split('|')[1]}: ${why} (a fused kind's ` +
          'row is its docs.attention in families/<family>/kind_<type>.gen.js)',
      );
    }
  }
});

for (const [type, e] of Object.entries(ENCODINGS)) {
  const fused = fusedKind(type, e);
  test(`encoding '${type}': ${fused ? 'CHANGELOG (the rest is generated)' : 'types, docs, CHANGELOG'}`, () => {
    assert.match(changelog, new RegExp(`'${type}'`), `CHANGELOG.md never names the encoding '${type}'`);
    if (fused) return;
    for (const host of Object.keys(e.hosts)) {
      assert.ok(UNION[host], `tests/contrib.test.js UNION names no .d.ts union for the host ${host}`);
      const t = unionOf(UNION[host]);
      if (!(host === 'attention' && type === 'none')) {
        assert.match(
          t,
          new RegExp(`type: '${type}'`),
          `js/index.d.ts ${UNION[host]} has no { type: '${type}' } (${host} takes it)`,
        );
      }
    }
    const gaps = attentionDocGaps(type, e);
    assert.ok(gaps.length === 0, gaps.join('\n'));
  });
}
