// npm run bench: every group measured in one run, one Markdown table.
// Usage: node bench/index.js [--save-baseline] [group ...]   (default: all groups)
//
// bench/baseline.json remembers each row's "% of limit" (a ratio measured within one run, so it
// moves far less with machine load than a time does). Every row is printed with its change
// against it, and the run ends with the rows that lost more than 10%. --save-baseline writes
// this run's figures into it (the rows of the groups run; others are kept): do that only in a
// commit that says why.
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { compared, makeHarness, rowKey, table } from './harness.js';
import sinusoidal from '../families/sinusoidal/bench.js';
import rope from '../families/rope/bench.js';
import learned from '../families/learned/bench.js';
import relative from '../families/relative/bench.js';
import attention from '../families/attention/bench.js';
import decode, { prefill as gqaPrefill } from './decode.js';
import lab from '../families/train/bench.js';
import page from './page.js';
import pageCores from './page_cores.js';

const GROUPS = {
  sinusoidal,
  rope,
  learned,
  relative,
  attention,
  'gqa-prefill': gqaPrefill,
  decode,
  lab,
  page,
  'page-cores': pageCores,
};

const BASELINE = new URL('./baseline.json', import.meta.url);
const args = process.argv.slice(2);
const save = args.includes('--save-baseline');
const pick = args.filter((a) => a !== '--save-baseline');
let baseline = {};
let baselineCpu;
try {
  ({ rows: baseline, cpu: baselineCpu } = JSON.parse(readFileSync(BASELINE, 'utf8')));
} catch {
  process.stderr.write('[bench] no bench/baseline.json: nothing to compare with\n');
}
// The machine: figures from two machines are never one series (docs/benchmark.md)
// (a VM may name only the vendor's line, "AMD EPYC": the family and model numbers tell its generation)
function cpuName() {
  let fm = '';
  try {
    const info = readFileSync('/proc/cpuinfo', 'utf8');
    const field = (k) => info.match(new RegExp(`^${k}\\s*:\\s*(.*)$`, 'm'))?.[1];
    if (field('cpu family')) fm = ` (family ${field('cpu family')}, model ${field('model')})`;
  } catch {}
  return `${cpus()[0]?.model.trim() ?? 'unknown CPU'}${fm} × ${cpus().length}`;
}
const cpu = cpuName();
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
const loadBefore = load();
const h = await makeHarness();
const rows = [];
for (const [name, group] of Object.entries(GROUPS)) {
  if (pick.length && !pick.includes(name)) continue;
  process.stderr.write(`[bench] ${name}\n`);
  rows.push(...(await group(h)));
}
console.log(
  `posenc benchmark (node ${process.version}, CPU ${cpu}, load average ${loadBefore} before / ${load()} after; ` +
    `${h.simd.backend} + ${h.scalar.backend}; median of repeated runs)\n`,
);
// Groups with their own columns (the page group) return { markdown } rows, printed after the table.
const own = rows.filter((r) => r.markdown);
const plain = rows.filter((r) => !r.markdown);
if (plain.length || !own.length) console.log(table(plain, baseline));
for (const r of own) console.log(`\n${r.markdown}`);

// % of limit against the baseline: a row more than 10% below its baseline figure is slower
const slower = plain.filter(
  (r) => compared(r) && baseline[rowKey(r)] !== undefined && 100 * r.ofLimit < 0.9 * baseline[rowKey(r)],
);
const names = slower.map(
  (r) => `${rowKey(r)} (${(100 * r.ofLimit).toFixed(0)}% of limit, baseline ${baseline[rowKey(r)]}%)`,
);
if (baselineCpu !== cpu)
  console.log(
    `\nThe baseline was saved on ${baselineCpu ?? 'a machine it does not name'}, this run is on ${cpu}: read the comparison as across machines.`,
  );
console.log(
  `\n${slower.length} rows slower than the baseline by more than 10%${slower.length ? `: ${names.join('; ')}` : '.'}`,
);
if (save) {
  const next = { ...baseline };
  for (const r of plain) if (compared(r)) next[rowKey(r)] = Math.round(1000 * r.ofLimit) / 10;
  const doc = {
    about:
      'Each bench row\'s "% of limit" (node bench/index.js --save-baseline); bench/index.js compares every run with it.',
    node: process.version,
    cpu,
    rows: Object.fromEntries(
      Object.keys(next)
        .sort()
        .map((k) => [k, next[k]]),
    ),
  };
  writeFileSync(BASELINE, `${JSON.stringify(doc, null, 2)}\n`);
  process.stderr.write(`[bench] wrote ${plain.filter(compared).length} rows into bench/baseline.json\n`);
}
