// Relative-position matrices: ALiBi causal bias 16×2048×2048 and T5 buckets 2048×2048.
// posenc (SIMD, scalar: Toeplitz fill) vs the obvious JS loop vs a smarter JS row copy
// (one line per head, TypedArray.set per row) vs memory.fill over the same bytes.

/** max |a - b| where equal values (incl. matching -Infinity masks) count as 0 */
function maxErr(a, b, n = a.length) {
  let m = 0;
  for (let e = 0; e < n; e++) if (a[e] !== b[e]) m = Math.max(m, Math.abs(a[e] - b[e]));
  return m;
}

const H = 16,
  Q = 2048,
  K = 2048;

function slopes(heads) {
  let c = 1;
  while (c * 2 <= heads) c *= 2;
  return Array.from({ length: heads }, (_, h) =>
    h < c ? 2 ** ((-8 * (h + 1)) / c) : 2 ** ((-4 * (2 * (h - c) + 1)) / c),
  );
}

function t5bucket(rp, nb = 32, md = 128) {
  let ret = 0;
  nb = Math.floor(nb / 2);
  if (rp > 0) ret = nb;
  const n = Math.abs(rp);
  const me = nb / 2;
  if (n < me) return ret + n;
  return ret + Math.min(nb - 1, me + Math.trunc((Math.log(n / me) / Math.log(md / me)) * (nb - me)));
}

export default async function relative(h) {
  const rows = [];
  // memory.fill(0) is the limit the % column uses; the non-zero fill and the f32x4 store loop
  // are reported beside it because zeroing has fast paths no bias matrix can use.
  const limits = (bytes) => {
    const ptr = h.limits.bench_alloc(bytes);
    const fill = h.time(() => h.limits.bench_fill(ptr, bytes), { minMs: 500 });
    const ff = h.time(() => h.limits.bench_fill_ff(ptr, bytes), { minMs: 500 });
    const store = h.time(() => h.limits.bench_store_f32x4(ptr, bytes / 4), { minMs: 500 });
    h.limits.bench_free(ptr);
    return { fill, ff, store };
  };
  const limitRows = (name, bytes, L, tJs) => [
    {
      case: name,
      impl: `limit: memory.fill(0) of the same ${bytes / 2 ** 20} MiB`,
      ms: L.fill,
      vsJs: tJs / L.fill,
      ofLimit: 1,
    },
    { case: name, impl: 'limit: memory.fill(0xff), same bytes', ms: L.ff, vsJs: tJs / L.ff, ofLimit: L.fill / L.ff },
    {
      case: name,
      impl: 'limit: f32x4 store loop, same bytes',
      ms: L.store,
      vsJs: tJs / L.store,
      ofLimit: L.fill / L.store,
    },
  ];

  // The % column is against memory.fill(0); a matrix that is not all zero bytes is bound by the
  // faster of the two non-zero limits, named in the note.
  const nonZero = (L, t) => {
    const ff = L.ff < L.store;
    return `; ${((100 * Math.min(L.ff, L.store)) / t).toFixed(0)}% of ${ff ? 'memory.fill(0xff)' : 'the f32x4 store loop'}, the non-zero limit that binds`;
  };

  // ---- ALiBi causal, relative form ----
  {
    const n = H * Q * K,
      name = `ALiBi causal ${H}×${Q}×${K}`;
    const m = slopes(H);
    const js = new Float32Array(n);
    const obvious = () => {
      for (let hh = 0; hh < H; hh++)
        for (let i = 0; i < Q; i++)
          for (let j = 0; j < K; j++) {
            js[(hh * Q + i) * K + j] = j > i ? -Infinity : m[hh] * (j - i);
          }
    };
    const js2 = new Float32Array(n);
    const line = new Float32Array(Q + K - 1);
    const rowCopy = () => {
      for (let hh = 0; hh < H; hh++) {
        for (let t = 0; t < Q + K - 1; t++) {
          const rp = t - (Q - 1);
          line[t] = rp > 0 ? -Infinity : m[hh] * rp;
        }
        for (let i = 0; i < Q; i++) js2.set(line.subarray(Q - 1 - i, Q - 1 - i + K), (hh * Q + i) * K);
      }
    };
    const tJs = h.time(obvious, { minMs: 1000, minReps: 3 });
    const tRow = h.time(rowCopy, { minMs: 1000, minReps: 3 });
    const L = limits(n * 4),
      tFill = L.fill;
    rows.push({ case: name, impl: 'plain JS loop', ms: tJs, vsJs: 1, ofLimit: tFill / tJs });
    rows.push({
      case: name,
      impl: 'JS row copy (line + set)',
      ms: tRow,
      vsJs: tJs / tRow,
      ofLimit: tFill / tRow,
      err: maxErr(js2, js),
    });
    for (const [impl, pe] of [
      ['posenc simd', h.simd],
      ['posenc scalar', h.scalar],
    ]) {
      const out = pe.alloc(n);
      const t = h.time(() => pe.alibiBias({ heads: H, queries: Q, keys: K, out }), { minMs: 1000 });
      // compare finite entries and the -Infinity mask on a sample of rows (NaN-free by construction)
      const err = maxErr(out.array, js);
      out.free();
      rows.push({ case: name, impl, ms: t, vsJs: tJs / t, ofLimit: tFill / t, err, note: nonZero(L, t) });
    }
    rows.push(...limitRows(name, n * 4, L, tJs));
  }

  // ---- T5 buckets, bidirectional defaults ----
  {
    const n = Q * K,
      name = `T5 buckets ${Q}×${K}`;
    const js = new Int32Array(n);
    const obvious = () => {
      for (let i = 0; i < Q; i++) for (let j = 0; j < K; j++) js[i * K + j] = t5bucket(j - i);
    };
    const js2 = new Int32Array(n);
    const line = new Int32Array(Q + K - 1);
    const rowCopy = () => {
      for (let t = 0; t < Q + K - 1; t++) line[t] = t5bucket(t - (Q - 1));
      for (let i = 0; i < Q; i++) js2.set(line.subarray(Q - 1 - i, Q - 1 - i + K), i * K);
    };
    const tJs = h.time(obvious, { minMs: 1000, minReps: 3 });
    const tRow = h.time(rowCopy, { minMs: 500 });
    const L = limits(n * 4),
      tFill = L.fill;
    rows.push({ case: name, impl: 'plain JS loop (Math.log per element)', ms: tJs, vsJs: 1, ofLimit: tFill / tJs });
    rows.push({
      case: name,
      impl: 'JS row copy (line + set)',
      ms: tRow,
      vsJs: tJs / tRow,
      ofLimit: tFill / tRow,
      err: maxErr(js2, js),
    });
    for (const [impl, pe] of [
      ['posenc simd', h.simd],
      ['posenc scalar', h.scalar],
    ]) {
      const out = pe.alloc(n, 'int32');
      const t = h.time(() => pe.t5Buckets({ queries: Q, keys: K, out }), { minMs: 500 });
      const err = maxErr(out.array, js);
      out.free();
      rows.push({ case: name, impl, ms: t, vsJs: tJs / t, ofLimit: tFill / t, err, note: nonZero(L, t) });
    }
    rows.push(...limitRows(name, n * 4, L, tJs));
  }
  return rows;
}
