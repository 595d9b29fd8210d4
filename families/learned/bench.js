// Copies with a check in memory-bound calls: addTo (x [4096][1024] += rows 8 .. 4103 of a table)
// against an f32x4 loop x[i] += t[i] over the same bytes (two arrays read once, one written
// back), and a kvCache append of 4096 tokens (8 kv heads x 128, no encoding) into its packed
// layout against a memcpy of the same bytes. posenc SIMD and scalar; addTo also vs plain JS.
import { maxAbsErr } from '../../bench/harness.js';
import { paired } from '../rope/bench.js';

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
  return [...rows_, ...append(h)];
}

function append(h) {
  const N = 4096,
    KVH = 8,
    D = 128,
    m = N * KVH * D;
  const caseName = 'kvCache append 4096 tokens × 8 kv heads × 128 (k and v)';
  const src = h.limits.bench_alloc(2 * m * 4),
    dst = h.limits.bench_alloc(2 * m * 4);
  const limit = () => h.limits.bench_copy(dst, src, 2 * m * 4);
  const rows = [];
  const limits = [];
  for (const [name, pe] of [
    ['posenc simd', h.simd],
    ['posenc scalar', h.scalar],
  ]) {
    const k = pe.alloc(m),
      v = pe.alloc(m);
    for (let i = 0; i < m; i++) {
      k.array[i] = Math.sin(i);
      v.array[i] = Math.cos(i);
    }
    const cache = pe.kvCache({ heads: 32, kvHeads: KVH, dim: D, capacity: N, encoding: { type: 'none' } });
    const r = paired(() => cache.truncate(0).append(k, v), limit);
    limits.push(r.limitMs);
    rows.push({ case: caseName, impl: `${name} (k, v in posenc buffers)`, ms: r.ms, ofLimit: r.limitMs / r.ms });
    cache.free();
    k.free();
    v.free();
  }
  const limitMs = limits.sort((a, b) => a - b)[limits.length >> 1];
  rows.push({
    case: caseName,
    impl: 'limit: memcpy of the same 32 MiB (median of the paired runs)',
    ms: limitMs,
    ofLimit: 1,
  });
  h.limits.bench_free(src);
  h.limits.bench_free(dst);
  return rows;
}
