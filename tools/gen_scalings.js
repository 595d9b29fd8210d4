// Writes what js/scalings.js (the RoPE scalings' one table) says to the places that cannot import
// it: the RopeScaling union of js/index.d.ts, the scaling table of families/rope/rope.md, and posenc.h's
// posenc_rope_type, posenc_rope_scaling and c_src/status.c's SCALING_FIELDS (the C library stands
// alone: its checks stay hand-written in families/rope/rope.c, and tests/scalings.test.js probes them
// with the table's rules).
//
//   node tools/gen_scalings.js           rewrite the generated blocks
//   node tools/gen_scalings.js --check   exit 1 naming each stale file (tests/scalings.test.js)
//
// Each block sits between `<generated: rope scalings>` and `</generated: rope scalings>` marker
// lines (tools/gen_blocks.js).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { C_FIELDS, SCALING_DOCS, SCALINGS, SCALINGS_DOC } from '../js/scalings.js';
import { cli, fillBlock, wrap } from './gen_blocks.js';

const root = new URL('..', import.meta.url).pathname;
const GEN = 'tools/gen_scalings.js';
const NAME = 'rope scalings';
const types = Object.entries(SCALINGS);
const snake = (k) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const cName = (t) => `POSENC_ROPE_${t.toUpperCase()}`;
const TS = { number: 'number', bool: 'boolean', factors: 'ArrayLike<number>' };

/** js/index.d.ts: the RopeScaling union, one member per type, formatted as Biome formats it. */
function dtsLines() {
  const out = [
    `/** Frequency scaling (HF rope_scaling / rope_parameters, keys in camelCase; ${SCALINGS_DOC}). */`,
    'export type RopeScaling =',
  ];
  types.forEach(([type, t], i) => {
    const end = i === types.length - 1 ? ';' : '';
    const fields = [`type: '${type}'`, ...t.keys.map((k) => `${k.name}${k.required ? '' : '?'}: ${TS[k.kind]}`)];
    out.push(`  /** ${SCALING_DOCS[type].doc} */`);
    const one = `  | { ${fields.join('; ')} }${end}`;
    if (one.length <= 120) out.push(one);
    else out.push('  | {', ...fields.map((f) => `      ${f};`), `    }${end}`);
  });
  return out;
}

/** A key as the docs and the C comment show it: optional with ?, its default after =. */
function keyText(k, c = false) {
  const name = c ? snake(k.name) : k.name;
  const def = k.def === undefined ? '' : ` = ${c ? Number(k.def) : k.def}`;
  return `${name}${k.required || k.def !== undefined ? '' : '?'}${def}`;
}

/** families/rope/rope.md: the table of types, keys, Hugging Face spellings and frequencies. */
function docsLines() {
  const code = (s) => `\`${s}\``;
  return [
    '| `type` | keys (`?` optional, `= default`) | Hugging Face `rope_type` | frequencies |',
    '|---|---|---|---|',
    ...types.map(
      ([type, t]) =>
        `| \`'${type}'\` | ${t.keys.map((k) => code(keyText(k))).join(', ') || '–'} | ` +
        `${t.hf.map(code).join(', ') || '– (posenc only)'} | ${SCALING_DOCS[type].formula} |`,
    ),
  ];
}

/** c_src/posenc.h: the enum, the fields each type reads, and the struct (C_FIELDS' order). */
function headerLines() {
  const width = Math.max(...types.map(([t]) => t.length)) + 2;
  const reads = types
    .filter(([, t]) => t.keys.length)
    .flatMap(([type, t]) =>
      wrap(
        t.keys.map((k) => keyText(k, true)),
        ` *   ${type.toUpperCase().padEnd(width)}`,
        ` *   ${' '.repeat(width)}`,
        ',',
      ),
    );
  const kinds = Object.fromEntries(types.flatMap(([, t]) => t.keys.map((k) => [k.name, k.kind])).reverse());
  const field = (k) => {
    const kind = kinds[k];
    if (kind === 'bool') return `    int32_t ${snake(k)};`;
    if (kind === 'factors') return `    const double *${snake(k)};`;
    return `    double ${snake(k)};`;
  };
  return [
    '/* Frequency-scaling variant (HF modeling_rope_utils.py rope_type):',
    ` * ${SCALINGS_DOC}. */`,
    'typedef enum posenc_rope_type {',
    ...types.map(([type, t], i) => `    ${cName(type)} = ${t.c}${i < types.length - 1 ? ',' : ''}`),
    '} posenc_rope_type;',
    `#define POSENC_ROPE_TYPES ${types.length} /* the number of types: valid ones are 0 .. this - 1 */`,
    '',
    '/* The fields each type reads (? optional, = the default posenc_rope_scaling_init sets):',
    ...reads,
    ' */',
    'typedef struct posenc_rope_scaling {',
    '    posenc_rope_type type;',
    ...C_FIELDS.map(field),
    '} posenc_rope_scaling;',
  ];
}

/** c_src/status.c: SCALING_FIELDS, posenc_struct_layout's field list of posenc_rope_scaling. */
function statusLines() {
  const rows = wrap(
    ['type', ...C_FIELDS.map(snake)].map((f) => `X(S, ${f})`),
    '    ',
    '    ',
    '',
    96,
  );
  return ['#define SCALING_FIELDS(X, S) \\', ...rows.map((r, i) => `${r}${i < rows.length - 1 ? ' \\' : ''}`)];
}

const BLOCKS = {
  'js/index.d.ts': dtsLines,
  'families/rope/rope.md': docsLines,
  'c_src/posenc.h': headerLines,
  'c_src/status.c': statusLines,
};

/** Every generated file: path -> [current text, wanted text]. */
export function generated() {
  const files = {};
  for (const [f, lines] of Object.entries(BLOCKS)) {
    const now = readFileSync(join(root, f), 'utf8');
    files[f] = [now, fillBlock(f, now, NAME, lines(), `${GEN} from js/scalings.js`)];
  }
  return files;
}

await cli(import.meta, GEN, generated);
