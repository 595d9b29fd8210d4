// Learned absolute positions added in place: x [4096][1024] += rows 8 .. 4103 of a table, posenc
// (SIMD, scalar) vs the obvious JS loop vs an f32x4 loop x[i] += t[i] over the same bytes (the
// limit: two arrays read once, one written back). Error: max abs vs the float32 JS sum.
import { maxAbsErr } from './harness.js';
import { paired } from './rope.js';

export default async function learned(h) {
  const L = 4096,
    D = 1024,
    n = L * D,
    offset = 8,
    rows = L + 2 * offset;
  const xs = new Float32Array(n),
    ts = new Float32Array(rows * D);
  let seed = 11;
  const rnd = () => {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
    return seed / 2 ** 31 - 1;
  };
  for (let i = 0; i < n; i++) xs[i] = rnd();
  for (let i = 0; i < rows * D; i++) ts[i] = rnd() * 0.02;
  const want = new Float32Array(n);
  for (let i = 0; i < n; i++) want[i] = xs[i] + ts[offset * D + i];

  const js = xs.slice();
  const tJs = h.time(
    () => {
      for (let i = 0; i < n; i++) js[i] += ts[offset * D + i];
    },
    { minMs: 1000, minReps: 5 },
  );
  const lx = h.limits.bench_alloc(n * 4),
    lt = h.limits.bench_alloc(n * 4);
  new Float32Array(h.limits.memory.buffer, lx, n).set(xs);
  new Float32Array(h.limits.memory.buffer, lt, n).set(ts.subarray(offset * D, offset * D + n));
  const limit = () => h.limits.bench_stream_add(lx, lt, n);
  const caseName = 'addTo x 4096×1024 += table rows (in place)';
  const rows_ = [{ case: caseName, impl: 'plain JS loop', ms: tJs, vsJs: 1 }];
  let limitMs = [];
  for (const [name, pe] of [
    ['posenc simd', h.simd],
    ['posenc scalar', h.scalar],
  ]) {
    const x = pe.alloc(n),
      table = pe.alloc(rows * D);
    table.array.set(ts);
    x.array.set(xs);
    pe.addTo(x, table, { length: L, dim: D, offset });
    const err = maxAbsErr(x.array, want);
    // x grows by one table row per call: |x| stays below 1 + 0.02 * calls, far from any bound
    const r = paired(() => pe.addTo(x, table, { length: L, dim: D, offset }), limit);
    limitMs.push(r.limitMs);
    rows_.push({ case: caseName, impl: name, ms: r.ms, vsJs: tJs / r.ms, ofLimit: r.limitMs / r.ms, err });
    x.free();
    table.free();
  }
  limitMs = limitMs.sort((a, b) => a - b)[limitMs.length >> 1];
  rows_.push({
    case: caseName,
    impl: 'limit: in-place f32x4 add of a second array, same 32 MiB (median of the paired runs)',
    ms: limitMs,
    vsJs: tJs / limitMs,
    ofLimit: 1,
  });
  h.limits.bench_free(lx);
  h.limits.bench_free(lt);
  return rows_;
}
