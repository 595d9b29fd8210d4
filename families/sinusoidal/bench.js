// Sinusoidal table 8192 x 1024: posenc (SIMD, scalar) vs the obvious JS loop vs memory.fill.
import { maxAbsErr } from '../../bench/harness.js';

export default async function sinusoidal(h) {
  const L = 8192,
    D = 1024,
    n = L * D;
  const js = new Float32Array(n);
  const plainJs = () => {
    for (let p = 0; p < L; p++) {
      for (let i = 0; i < D / 2; i++) {
        const w = Math.exp((-Math.log(10000) * (2 * i)) / D);
        js[p * D + 2 * i] = Math.sin(p * w);
        js[p * D + 2 * i + 1] = Math.cos(p * w);
      }
    }
  };
  // float64 reference for the error column: the JS loop is exact up to the float32 store
  const ref = new Float64Array(n);
  for (let p = 0; p < L; p++)
    for (let i = 0; i < D / 2; i++) {
      const w = Math.exp((-Math.log(10000) * (2 * i)) / D);
      ref[p * D + 2 * i] = Math.sin(p * w);
      ref[p * D + 2 * i + 1] = Math.cos(p * w);
    }
  const tJs = h.time(plainJs, { minMs: 1000, minReps: 3 });
  const ptr = h.limits.bench_alloc(n * 4);
  const tFill = h.time(() => h.limits.bench_fill(ptr, n * 4), { minMs: 500 });
  h.limits.bench_free(ptr);
  const rows = [
    {
      case: 'sinusoidal 8192×1024',
      impl: 'plain JS (Math.sin/cos → Float32Array)',
      ms: tJs,
      vsJs: 1,
      err: maxAbsErr(js, ref),
    },
  ];
  for (const [name, pe] of [
    ['posenc simd', h.simd],
    ['posenc scalar', h.scalar],
  ]) {
    for (const layout of ['interleaved', 'split']) {
      const out = pe.alloc(n);
      const t = h.time(() => pe.sinusoidal({ length: L, dim: D, layout, out }), { minMs: 1000 });
      let err = 0;
      if (layout === 'interleaved') err = maxAbsErr(out.array, ref);
      else {
        const a = out.array;
        for (let p = 0; p < L; p++)
          for (let i = 0; i < D / 2; i++) {
            err = Math.max(
              err,
              Math.abs(a[p * D + i] - ref[p * D + 2 * i]),
              Math.abs(a[p * D + D / 2 + i] - ref[p * D + 2 * i + 1]),
            );
          }
      }
      out.free();
      rows.push({
        case: 'sinusoidal 8192×1024',
        impl: `${name} (${layout})`,
        ms: t,
        vsJs: tJs / t,
        ofLimit: tFill / t,
        err,
      });
    }
  }
  rows.push({
    case: 'sinusoidal 8192×1024',
    impl: 'limit: memory.fill of the same 32 MiB',
    ms: tFill,
    vsJs: tJs / tFill,
    ofLimit: 1,
  });
  return rows;
}
