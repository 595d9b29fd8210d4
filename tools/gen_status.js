// Writes every list of status codes from decl/status.js (the one table): c_src/posenc.h's enum
// posenc_status, c_src/status.c's posenc_status_string, js/errors.js Status, js/index.d.ts Status
// and the Codes table of docs/errors.md. The C library stands alone: its generated blocks are
// committed, so building it needs no JS.
//
//   node tools/gen_status.js           rewrite the generated blocks
//   node tools/gen_status.js --check   exit 1 naming each stale file (tests/decls.test.js)
//
// Each block sits between `<generated: status codes>` and `</generated: status codes>` marker
// lines (tools/gen_blocks.js).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { STATUS_CODES } from '../decl/status.js';
import { cli, fillBlock } from './gen_blocks.js';

const root = new URL('..', import.meta.url).pathname;
const GEN = 'tools/gen_status.js';
const NAME = 'status codes';

/** The table, refused by name when a row breaks a rule every list relies on. */
function codes() {
  const seen = new Set();
  STATUS_CODES.forEach(({ name, code, c, text, docs }, i) => {
    const why = (s) => new Error(`decl/status.js row ${i} (${name}): ${s}`);
    if (!/^(OK|E_[A-Z]+)$/.test(name)) throw why('name is OK or E_ and capitals');
    if (i === 0 ? name !== 'OK' || code !== 0 : !(Number.isInteger(code) && code < 0))
      throw why('OK 0 first, then codes < 0');
    if (seen.has(code)) throw why(`code ${code} is taken`);
    seen.add(code);
    if (!c || !text || (i > 0 && !docs)) throw why('needs c, text and (an error) docs');
    if (c.includes('*/') || /["\\]/.test(text)) throw why('c is a C comment (no */), text a C string (no " or \\)');
  });
  return STATUS_CODES;
}

/** c_src/posenc.h: the enum, each code's meaning on the line above it. */
const header = () => [
  '/* What every function returns: POSENC_OK or one of these (posenc_status_string names a code). */',
  'typedef enum posenc_status {',
  ...codes().flatMap(({ name, code, c }, i) => [
    `    /* ${c} */`,
    `    POSENC_${name} = ${code}${i < STATUS_CODES.length - 1 ? ',' : ''}`,
  ]),
  '} posenc_status;',
];

/** c_src/status.c: posenc_status_string's cases. */
const cases = () =>
  codes().flatMap(({ name, text }) => [`        case POSENC_${name}:`, `            return "${text}";`]);

/** docs/errors.md: the Codes table (the errors; OK is no error). */
const table = () => [
  '| code | `Status.` | meaning |',
  '|---:|---|---|',
  ...codes()
    .slice(1)
    .map(({ name, code, docs }) => `| ${code} | \`${name}\` | ${docs} |`),
];

const BLOCKS = {
  'c_src/posenc.h': header,
  'c_src/status.c': cases,
  'js/errors.js': () => [
    'export const Status = Object.freeze({',
    ...codes().map((s) => `  ${s.name}: ${s.code},`),
    '});',
  ],
  'js/index.d.ts': () => ['export type Status = {', ...codes().map((s) => `  readonly ${s.name}: ${s.code};`), '};'],
  'docs/errors.md': table,
};

/** Every generated file: path -> [current text, wanted text]. */
export function generated() {
  const files = {};
  for (const [f, lines] of Object.entries(BLOCKS)) {
    const now = readFileSync(join(root, f), 'utf8');
    files[f] = [now, fillBlock(f, now, NAME, lines(), `${GEN} from decl/status.js`)];
  }
  return files;
}

await cli(import.meta, GEN, generated);
