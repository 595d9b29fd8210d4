// npm run bench: every group measured in one run, one Markdown table.
// Usage: node bench/index.js [group ...]   (default: all groups)
import { makeHarness, table } from './harness.js';
import sinusoidal from './sinusoidal.js';
import rope from './rope.js';
import relative from './relative.js';
import attention from './attention.js';
import decode, { prefill as gqaPrefill } from './decode.js';
import lab from './lab.js';
import page from './page.js';
import pageCores from './page_cores.js';

const GROUPS = {
  sinusoidal,
  rope,
  relative,
  attention,
  'gqa-prefill': gqaPrefill,
  decode,
  lab,
  page,
  'page-cores': pageCores,
};

const pick = process.argv.slice(2);
const h = await makeHarness();
const rows = [];
for (const [name, group] of Object.entries(GROUPS)) {
  if (pick.length && !pick.includes(name)) continue;
  process.stderr.write(`[bench] ${name}\n`);
  rows.push(...(await group(h)));
}
console.log(`posenc benchmark (node ${process.version}, ${h.simd.backend} + ${h.scalar.backend}; median of repeated runs)\n`);
// Groups with their own columns (the page group) return { markdown } rows, printed after the table.
const own = rows.filter((r) => r.markdown);
const plain = rows.filter((r) => !r.markdown);
if (plain.length || !own.length) console.log(table(plain));
for (const r of own) console.log(`\n${r.markdown}`);
