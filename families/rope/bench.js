// RoPE in place on Q [4096 tokens][32 heads][128]: posenc (SIMD, scalar; with a cos/sin cache
// and cache-free) vs the obvious JS loop vs the in-place f32x4 load-mul-add-store stream over
// the same bytes (the limit). Error: max abs vs float64 rotation of the same input.
import { maxAbsErr } from '../../bench/harness.js';

// The machine running the bench is often shared, so a limit timed once would be measured under
// a different load than the kernel. Each kernel is timed alternately with the limit instead,
// and its "% of limit" is the ratio of the two medians.
export function paired(kernel, limit, { minMs = 1500, minReps = 15, maxReps = 300 } = {}) {
  kernel();
  limit();
  const tk = [],
    tl = [];
  const start = performance.now();
  while (tk.length < minReps || (performance.now() - start < minMs && tk.length < maxReps)) {
    let t0 = performance.now();
    kernel();
    tk.push(performance.now() - t0);
    t0 = performance.now();
    limit();
    tl.push(performance.now() - t0);
  }
  const med = (a) => a.sort((x, y) => x - y)[a.length >> 1];
  return { ms: med(tk), limitMs: med(tl) };
}

export default async function rope(h) {
  const L = 4096,
    H = 32,
    D = 128,
    P = D / 2,
    n = L * H * D;
  const src = new Float32Array(n);
  let seed = 7;
  for (let i = 0; i < n; i++) {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
    src[i] = seed / 2 ** 31 - 1;
  }
  const inv = Array.from({ length: P }, (_, i) => 1 / 10000 ** ((2 * i) / D));
  const c64 = new Float64Array(L * P),
    s64 = new Float64Array(L * P);
  for (let t = 0; t < L; t++)
    for (let i = 0; i < P; i++) {
      c64[t * P + i] = Math.cos(t * inv[i]);
      s64[t * P + i] = Math.sin(t * inv[i]);
    }
  const ref = {};
  for (const layout of ['half', 'interleaved']) {
    const r = new Float64Array(src);
    for (let t = 0; t < L; t++)
      for (let hh = 0; hh < H; hh++) {
        const o = (t * H + hh) * D;
        for (let i = 0; i < P; i++) {
          const a = layout === 'half' ? o + i : o + 2 * i,
            b = layout === 'half' ? o + P + i : o + 2 * i + 1;
          const c = c64[t * P + i],
            s = s64[t * P + i],
            u = r[a],
            v = r[b];
          r[a] = u * c - v * s;
          r[b] = v * c + u * s;
        }
      }
    ref[layout] = r;
  }

  const limitPtr = h.limits.bench_alloc(n * 4);
  new Float32Array(h.limits.memory.buffer, limitPtr, n).set(src);
  const limit = () => h.limits.bench_stream_madd(limitPtr, n, 1.0000001, 0);
  const limitSamples = [];
  // the rotation with no check (bench_rope_nocheck) on the limits module's own copy of x and a cache
  const nc = h.limits.bench_alloc(n * 4),
    ncCos = h.limits.bench_alloc(L * P * 4),
    ncSin = h.limits.bench_alloc(L * P * 4);
  new Float32Array(h.limits.memory.buffer, ncCos, L * P).set(c64);
  new Float32Array(h.limits.memory.buffer, ncSin, L * P).set(s64);
  new Float32Array(h.limits.memory.buffer, nc, n).set(src);

  const rows = [];
  const name = `RoPE apply Q ${L}×${H}×${D}`;
  for (const layout of ['half', 'interleaved']) {
    // the obvious JS loop with a precomputed float32 cos/sin cache
    const cosJs = Float32Array.from(c64),
      sinJs = Float32Array.from(s64);
    const xj = new Float32Array(src);
    const jsLoop = () => {
      for (let t = 0; t < L; t++)
        for (let hh = 0; hh < H; hh++) {
          const o = (t * H + hh) * D;
          for (let i = 0; i < P; i++) {
            const a = layout === 'half' ? o + i : o + 2 * i,
              b = layout === 'half' ? o + P + i : o + 2 * i + 1;
            const c = cosJs[t * P + i],
              s = sinJs[t * P + i],
              u = xj[a],
              v = xj[b];
            xj[a] = u * c - v * s;
            xj[b] = v * c + u * s;
          }
        }
    };
    const tJs = h.time(jsLoop, { minMs: 800, minReps: 3 });
    xj.set(src);
    jsLoop();
    rows.push({
      case: `${name} (${layout})`,
      impl: 'plain JS loop, cached cos/sin',
      ms: tJs,
      vsJs: 1,
      err: maxAbsErr(xj, ref[layout]),
    });

    const il = layout === 'interleaved' ? 1 : 0;
    const nocheck = paired(() => h.limits.bench_rope_nocheck(nc, L, H, P, ncCos, ncSin, il), limit);
    limitSamples.push(nocheck.limitMs);
    const ncx = new Float32Array(h.limits.memory.buffer, nc, n);
    ncx.set(src);
    h.limits.bench_rope_nocheck(nc, L, H, P, ncCos, ncSin, il);
    const nocheckErr = maxAbsErr(new Float32Array(h.limits.memory.buffer, nc, n), ref[layout]);
    const nocheckRow = {
      case: `${name} (${layout})`,
      impl: 'the same SIMD rotation with no check (bench/limits.c), cached cos/sin',
      ms: nocheck.ms,
      vsJs: tJs / nocheck.ms,
      ofLimit: nocheck.limitMs / nocheck.ms,
      err: nocheckErr,
    };
    rows.push(nocheckRow);
    for (const [impl, pe] of [
      ['posenc simd', h.simd],
      ['posenc scalar', h.scalar],
    ]) {
      const x = pe.alloc(n);
      const cache = pe.ropeCache({ length: L, dim: D });
      const cos = pe.alloc(L * P),
        sin = pe.alloc(L * P);
      cos.array.set(cache.cos);
      sin.array.set(cache.sin);
      const opts = { length: L, heads: H, dim: D, layout, cache: { cos, sin } };
      x.array.set(src);
      const { ms: tc, limitMs: lc } = paired(() => pe.applyRope(x, opts), limit);
      limitSamples.push(lc);
      x.array.set(src);
      pe.applyRope(x, opts);
      rows.push({
        case: `${name} (${layout})`,
        impl: `${impl}, cached cos/sin`,
        ms: tc,
        vsJs: tJs / tc,
        ofLimit: lc / tc,
        err: maxAbsErr(x.array, ref[layout]),
        // what the check costs: this row's % of the stream against the unchecked rotation's
        note:
          pe === h.simd
            ? `; ${((100 * lc) / tc / nocheckRow.ofLimit).toFixed(0)}% of the unchecked rotation's speed (the check's cost)`
            : '',
      });
      const free = { length: L, heads: H, dim: D, layout };
      const { ms: tf, limitMs: lf } = paired(() => pe.applyRope(x, free), limit);
      limitSamples.push(lf);
      x.array.set(src);
      pe.applyRope(x, free);
      rows.push({
        case: `${name} (${layout})`,
        impl: `${impl}, cache-free (angles per 64 tokens)`,
        ms: tf,
        vsJs: tJs / tf,
        ofLimit: lf / tf,
        err: maxAbsErr(x.array, ref[layout]),
      });
      x.free();
      cos.free();
      sin.free();
    }
    const tLimit = limitSamples.sort((a, b) => a - b)[limitSamples.length >> 1];
    limitSamples.length = 0;
    rows.push({
      case: `${name} (${layout})`,
      impl: 'limit: in-place f32x4 load-mul-add-store, same 64 MiB (median of the paired runs)',
      ms: tLimit,
      vsJs: tJs / tLimit,
      ofLimit: 1,
    });
  }
  h.limits.bench_free(limitPtr);
  for (const p of [nc, ncCos, ncSin]) h.limits.bench_free(p);
  return rows;
}
