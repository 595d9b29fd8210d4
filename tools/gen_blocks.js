// What every generator (tools/gen_*.js) shares: the generated block and the command line.
// A block sits between an opening marker line `<generated: NAME> by TOOL from SOURCE` and a
// closing `</generated: NAME>`, each written in its file's comment syntax (`// ` or `/* */` in C,
// `// ` in JS and TypeScript, `<!-- -->` in Markdown) at the opening marker's indentation; what is
// between them is the tool's and is rewritten whole. The rest of the file stays hand-written.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const CLOSE = { '// ': '', '/* ': ' */', '<!-- ': ' -->' };
const OPEN = Object.keys(CLOSE)
  .map((o) => o.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'))
  .join('|');

/** `text` of `file` with its block `name` holding `lines`; throws naming a missing marker. */
export function fillBlock(file, text, name, lines, by) {
  const b = new RegExp(`^([ \\t]*)(${OPEN})<generated: ${name}>.*$`, 'm').exec(text);
  const e = b && new RegExp(`^[ \\t]*(${OPEN})</generated: ${name}>.*$`, 'm').exec(text.slice(b.index));
  if (!b || !e) throw new Error(`${file} has no <generated: ${name}> ... </generated: ${name}> block`);
  const head = `${b[1]}${b[2]}<generated: ${name}> by ${by}${CLOSE[b[2]]}`;
  const body = lines.map((l) => `${l}\n`).join('');
  return `${text.slice(0, b.index)}${head}\n${body}${text.slice(b.index + e.index)}`;
}

/** `items` joined by `sep` + space into lines of at most `limit` columns (clang-format's). */
export function wrap(items, first, rest, sep, limit = 100) {
  const lines = [first];
  items.forEach((item, i) => {
    const piece = `${item}${i < items.length - 1 ? sep : ''}`;
    const at = lines.length - 1;
    const bare = lines[at] === first || lines[at] === rest;
    if (!bare && lines[at].length + 1 + piece.length > limit) lines.push(rest + piece);
    else lines[at] += `${bare ? '' : ' '}${piece}`;
  });
  return lines;
}

/** The command line of generator `gen` (tools/gen_X.js), run as a script: rewrite every stale
 * file of generated() (path -> [current text, wanted text]), or with --check exit 1 naming them
 * (the tests run --check's comparison through generated() itself). */
export async function cli(meta, gen, generated) {
  if (!process.argv[1] || new URL(meta.url).pathname !== process.argv[1]) return;
  const check = process.argv.includes('--check');
  const stale = Object.entries(await generated()).filter(([, [now, want]]) => now !== want);
  for (const [f, [, want]] of stale) if (!check) writeFileSync(join(root, f), want);
  if (check && stale.length) {
    console.error(`stale (run node ${gen}): ${stale.map(([f]) => f).join(', ')}`);
    process.exit(1);
  }
  if (!check) console.log(stale.length ? `wrote ${stale.map(([f]) => f).join(', ')}` : 'nothing to write');
}
