// Benchmark harness: timing, the wasm limit module, and the Markdown table.
// A group (bench/<family>.js) exports `default async function (h)` returning rows:
//   { case, impl, ms, vsJs?, ofLimit?, err?, note? }  -- ratios are computed in the same run;
//   case + impl name the row in bench/baseline.json, so figures of the run go into note.
import { readFile } from 'node:fs/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { init } from '../js/index.js';

/** Median wall time (ms) of fn over enough repetitions to fill ~minMs, after a warm-up. */
export function time(fn, { minMs = 300, maxReps = 200, minReps = 5 } = {}) {
  fn();
  const samples = [];
  const start = performance.now();
  while (samples.length < minReps || (performance.now() - start < minMs && samples.length < maxReps)) {
    const t0 = performance.now();
    fn();
    samples.push(performance.now() - t0);
  }
  samples.sort((a, b) => a - b);
  return samples[samples.length >> 1];
}

// A full garbage collection between timed calls (outside the timing), where the engine allows
// it: onnxruntime-web's rows allocate tens of MiB of tensors per call (GroupQueryAttention's
// present key and value), and without this their collection can land in whichever call runs
// next. POSENC_BENCH_NO_GC=1 turns it off.
let collect;
export function gcBetween() {
  if (collect === undefined) {
    collect = null;
    if (process.env.POSENC_BENCH_NO_GC) return; // to measure what this changes
    try {
      setFlagsFromString('--expose-gc');
      collect = runInNewContext('gc');
    } catch {}
  }
  collect?.();
}

/**
 * Interleaved timing: every round runs each implementation once, so load from other processes
 * on a shared machine hits all of them alike; the median per implementation is reported. Each
 * call starts after a full collection (gcBetween), so it pays for its own garbage only.
 */
export async function interleaved(impls, { rounds = 25, minMs = 4000 } = {}) {
  for (const f of Object.values(impls)) await f(); // warm-up (JIT, session)
  const samples = Object.fromEntries(Object.keys(impls).map((k) => [k, []]));
  const start = performance.now();
  for (let r = 0; r < 200 && (r < rounds || performance.now() - start < minMs); r++) {
    for (const [k, f] of Object.entries(impls)) {
      gcBetween();
      const t0 = performance.now();
      await f();
      samples[k].push(performance.now() - t0);
    }
  }
  const med = (a) => a.sort((x, y) => x - y)[a.length >> 1];
  return Object.fromEntries(Object.entries(samples).map(([k, a]) => [k, med(a)]));
}

export async function makeHarness() {
  const [simd, scalar] = await Promise.all([init({ simd: true }), init({ simd: false })]);
  const bytes = await readFile(new URL('../build/bench/limits.wasm', import.meta.url));
  const { instance } = await WebAssembly.instantiate(bytes, {
    env: { emscripten_notify_memory_growth: () => {} },
    wasi_snapshot_preview1: { proc_exit: () => {}, fd_write: () => 0, fd_close: () => 0, fd_seek: () => 0 },
  });
  instance.exports._initialize?.();
  return { simd, scalar, limits: instance.exports, time };
}

export function maxAbsErr(a, b) {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
}

const fmt = (x, d = 2) => (x === undefined ? '' : x.toFixed(d));

/** The key of a row in bench/baseline.json. */
export const rowKey = (r) => `${r.case} | ${r.impl}`;

/** Rows compared with the baseline: every row with a % of limit except the limits themselves. */
export const compared = (r) => r.ofLimit !== undefined && !r.impl.startsWith('limit:');

/** "+4%" / "-12%": the change of a row's % of limit against the baseline's. */
function change(r, baseline) {
  if (!baseline || !compared(r)) return '';
  const b = baseline[rowKey(r)];
  if (b === undefined) return 'new';
  const d = Math.round(100 * ((100 * r.ofLimit) / b - 1));
  return `${d > 0 ? '+' : ''}${d}%`;
}

export function table(rows, baseline) {
  const lines = [
    `| case | implementation | ms | × plain JS | % of limit | max abs err |${baseline ? ' vs baseline |' : ''}`,
    `|---|---|---:|---:|---:|---:|${baseline ? '---:|' : ''}`,
  ];
  for (const r of rows) {
    lines.push(
      `| ${r.case} | ${r.impl}${r.note ?? ''} | ${fmt(r.ms, 3)} | ${r.vsJs ? `${fmt(r.vsJs, 1)}×` : ''} | ${r.ofLimit ? `${fmt(100 * r.ofLimit, 0)}%` : ''} | ${r.err === undefined ? '' : r.err.toExponential(1)} |${baseline ? ` ${change(r, baseline)} |` : ''}`,
    );
  }
  return lines.join('\n');
}
