// The picture of each method as a matrix (the heatmap, Compare, Similarity's and the learned
// views' tables), computed by the posenc API. The only arithmetic here is
// display work (angle mod 2π from cos/sin, colour ranges). Not in the shell's chunk: the views
// that draw no such matrix (the Shuffle lab, Shift, Concat) do not download it.
import { MATRIX_CAP, exactAngle, finiteMinMax, ropeOptions, t5Config, t5Opts } from './methods.js';

const TAU = 2 * Math.PI;
// Display-only atan2 in [0, 2π): a degree-11 minimax polynomial (error < 1e-5 rad, far below one
// of the 256 colour steps of 0.025 rad), ~5x faster than Math.atan2 over a 512 x 1024 table.
// Readouts and exports use the exact Math.atan2.
function angle(y, x) {
  const ax = Math.abs(x),
    ay = Math.abs(y);
  const swap = ay > ax;
  const t = swap ? ax / ay : ax === 0 ? 0 : ay / ax;
  const t2 = t * t;
  let a =
    t * (0.99997726 + t2 * (-0.33262347 + t2 * (0.19354346 + t2 * (-0.11643287 + t2 * (0.05265332 - t2 * 0.0117212)))));
  if (swap) a = Math.PI / 2 - a;
  if (x < 0) a = Math.PI - a;
  if (y < 0) a = TAU - a;
  return a >= TAU ? 0 : a;
}
const fmtAngle = (v) => (Number.isFinite(v) ? v.toFixed(5) : 'undefined');

function finiteRange(v) {
  const [lo, hi] = finiteMinMax(v);
  return lo <= hi ? [lo, hi] : [0, 1];
}

/** Down-sample a RoPE angle picture by averaging each box's (cos, sin) as vectors: the colour is
 * the mean angle, faded toward the mask colour as the vectors cancel (a pair turning faster than
 * the pixel grid shows grey, not a false pattern). The cache buffers are read when it runs (a
 * heap view dies when memory grows). */
function ropeReduce(cb, sb, L, half, cols, pairOf, scale) {
  const pair = new Int32Array(cols);
  for (let c = 0; c < cols; c++) pair[c] = pairOf(c);
  return (tw, th, kx, ky) => reduceRope(cb.array, sb.array, L, half, cols, pair, scale, tw, th, kx, ky);
}

// Scratch for reduceRope, kept between frames: a drag redraws at the same size, and fresh
// megabyte arrays per frame cost their zeroing and a collection. The result is painted at once.
let ropeScratch = null;
function ropeBuffers(n, half, tw) {
  const s = ropeScratch;
  if (s && s.values.length >= n && s.pc.length >= half && s.tc.length >= tw) return s;
  ropeScratch = {
    values: new Float32Array(n),
    weight: new Float32Array(n),
    pc: new Float64Array(half),
    ps: new Float64Array(half),
    tc: new Float64Array(tw),
    ts: new Float64Array(tw),
  };
  return ropeScratch;
}

/** Per band of ky rows: sum cos and sin per pair (branch-free), then spread the pair sums over
 * the target columns; the colour is the angle of the mean vector, its length the weight. With one
 * column per box (kx = 1) every column of a pair shows the same box: the result is then one entry
 * per pair, `columns` naming the pair of each column (the panel colours a pair once). */
function reduceRope(C, S, L, half, cols, pair, scale, tw, th, kx, ky) {
  const one = kx === 1;
  const width = one ? half : tw;
  const { values, weight, pc, ps, tc, ts } = ropeBuffers(width * th, half, tw);
  for (let band = 0; band < th; band++) {
    const r0 = band * ky,
      r1 = Math.min(L, r0 + ky);
    pc.fill(0);
    ps.fill(0);
    for (let r = r0; r < r1; r++) {
      const b = r * half;
      for (let i = 0; i < half; i++) {
        pc[i] += C[b + i];
        ps[i] += S[b + i];
      }
    }
    const o = band * width;
    if (one) {
      // the column sum of one pair is that pair's sum: the same numbers as below
      const k = 1 / (r1 - r0);
      for (let i = 0; i < half; i++) {
        const x = pc[i] * k,
          y = ps[i] * k;
        values[o + i] = angle(y, x);
        weight[o + i] = Math.sqrt(x * x + y * y) / scale;
      }
      continue;
    }
    tc.fill(0, 0, tw);
    ts.fill(0, 0, tw);
    for (let c = 0; c < cols; c++) {
      const t = (c / kx) | 0;
      tc[t] += pc[pair[c]];
      ts[t] += ps[pair[c]];
    }
    for (let t = 0; t < tw; t++) {
      // cells in this box: (r1 - r0) rows × the columns that map to t
      const nCols = Math.min(cols, (t + 1) * kx) - t * kx;
      const k = 1 / ((r1 - r0) * nCols);
      const x = tc[t] * k,
        y = ts[t] * k;
      values[o + t] = angle(y, x);
      weight[o + t] = Math.sqrt(x * x + y * y) / scale;
    }
  }
  const n = width * th;
  return { values: values.subarray(0, n), weight: weight.subarray(0, n), columns: one ? pair : null };
}

/**
 * Relative matrices depend on a few settings, not on the length past the cap: keep the last few,
 * per API object (the page lays a view out with a stand-in API before the wasm arrives, and what
 * that returned must never be served to the real one).
 */
const memos = new WeakMap();
function cached(pe, key, make) {
  let memo = memos.get(pe);
  if (!memo) memos.set(pe, (memo = new Map()));
  if (memo.has(key)) return memo.get(key);
  const v = make();
  memo.set(key, v);
  if (memo.size > 8) memo.delete(memo.keys().next().value);
  return v;
}

/** pe.alibiBias for every head, causal, n × n, kept while the head count and size hold. */
function alibiAll(pe, heads, n) {
  return cached(pe, `alibi|${heads}|${n}`, () => pe.alibiBias({ heads, queries: n, causal: true }));
}

/**
 * The [rows][cols] picture of each method under state `st` (one entry here per method of methods.js
 * METHODS), with what a reader needs to read it: axis names with units, the kind of quantity (signed, onesided, cyclic) that picks the palette,
 * and for RoPE a vector-averaging down-sampler. `stable` marks values kept between frames (the
 * same array always holds the same numbers), which the panel need not paint again. `quantity: 'sincos'` draws RoPE as sin θ | cos θ
 * values, the same quantity as a sinusoidal table (Compare puts them side by side).
 */
export const MATRICES = {
  sinusoidal(pe, st, pool, { L, d, posAxis }) {
    const buf = pool.f32(`sin`, L * d);
    pe.sinusoidal({ length: L, dim: d, base: st.base, layout: st.layout, out: buf });
    return {
      values: buf.array,
      source: buf,
      rows: L,
      cols: d,
      lo: -1,
      hi: 1,
      kind: 'signed',
      rowLabel: 'position',
      colLabel: 'dim',
      rowAxis: posAxis,
      colAxis: `dimension (${st.layout === 'split' ? 'sin half | cos half' : 'sin, cos interleaved'})`,
      title: `Sinusoidal (${st.layout}): ${L} positions × ${d} dims, base ${st.base}`,
    };
  },
  rope(pe, st, pool, { L, d, posAxis, quantity }) {
    const ro = ropeOptions(st);
    const half = (ro.rotaryDim ?? d) / 2;
    // Zero-copy: the cache is written straight into reusable heap buffers.
    const cb = pool.f32('ropeCos', L * half);
    const sb = pool.f32('ropeSin', L * half);
    const { attentionScale = 1 } = pe.ropeCache({ length: L, ...ro, cos: cb, sin: sb });
    const cols = 2 * half;
    const interleaved = st.rope === 'interleaved';
    // Spread the pairs over the head dimensions as the pair layout does, so the layout toggle
    // is visible: 'half' pairs dim c with c + d/2, 'interleaved' pairs 2i with 2i + 1.
    const pairOf = (c) => (interleaved ? c >> 1 : c % half);
    const sc = st.scaling === 'none' ? '' : `, ${st.scaling} ×${st.factor}`;
    const scaleNote =
      attentionScale !== 1 ? `cos, sin include the ${st.scaling} attention scale ×${attentionScale.toFixed(4)}` : '';
    if (quantity === 'sincos') {
      // dim c holds sin θ of its pair in the first slot of a pair and cos θ in the second, as a
      // sinusoidal table of the same layout does.
      const vals = pool.scratch('ropeSinCos', L * cols);
      const C = cb.array,
        S = sb.array;
      for (let r = 0; r < L; r++)
        for (let i = 0; i < half; i++) {
          const a = interleaved ? r * cols + 2 * i : r * cols + i;
          const b = interleaved ? a + 1 : a + half;
          vals[a] = S[r * half + i];
          vals[b] = C[r * half + i];
        }
      return {
        values: vals,
        rows: L,
        cols,
        lo: -attentionScale,
        hi: attentionScale,
        kind: 'signed',
        rowLabel: 'position',
        colLabel: 'dim',
        rowAxis: posAxis,
        colAxis: `dimension (${interleaved ? 'sin, cos interleaved' : 'sin half | cos half'})`,
        note: scaleNote,
        title: `RoPE sin θ, cos θ per pair (${st.rope}): ${L} positions × ${cols} dims${sc}`,
      };
    }
    const angles = () => {
      const ang = pool.scratch('ropeAngle', L * cols);
      const cos = cb.array,
        sin = sb.array;
      for (let r = 0; r < L; r++) {
        const o = r * half;
        const w = r * cols;
        for (let i = 0; i < half; i++) {
          const a = angle(sin[o + i], cos[o + i]);
          if (interleaved) {
            ang[w + 2 * i] = a;
            ang[w + 2 * i + 1] = a;
          } else {
            ang[w + i] = a;
            ang[w + half + i] = a;
          }
        }
      }
      return ang;
    };
    return {
      values: angles,
      rows: L,
      cols,
      lo: 0,
      hi: TAU,
      kind: 'cyclic',
      rowLabel: 'position',
      colLabel: 'dim',
      rowAxis: posAxis,
      colAxis: `dimension (pair i = ${interleaved ? '⌊dim/2⌋' : 'dim mod d/2'})`,
      note: 'angle, rad',
      reduce: ropeReduce(cb, sb, L, half, cols, pairOf, attentionScale),
      valueAt: (r, c) => (cb.freed ? NaN : exactAngle(sb.array[r * half + pairOf(c)], cb.array[r * half + pairOf(c)])),
      title: `RoPE angle θᵢ(p) mod 2π per dim (${st.rope} pairs): ${L} positions × ${cols} dims${sc}`,
      describe: (r, c) => {
        if (cb.freed) return `position ${r}, dim ${c}`;
        const k = r * half + pairOf(c);
        const [cv, sv] = [cb.array[k], sb.array[k]];
        return `position ${r}, dim ${c} (pair ${pairOf(c)}, ${st.rope}): θ = ${fmtAngle(exactAngle(sv, cv))} rad mod 2π, cos ${cv.toFixed(5)}`;
      },
      exact: () => {
        const out = new Float32Array(L * cols);
        const C = cb.array,
          S = sb.array;
        for (let r = 0; r < L; r++)
          for (let c = 0; c < cols; c++)
            out[r * cols + c] = exactAngle(S[r * half + pairOf(c)], C[r * half + pairOf(c)]);
        return out;
      },
    };
  },
  learned(pe, st, pool, { L, d, posAxis }) {
    const t = pool.learned(L, d);
    return {
      values: t,
      rows: L,
      cols: d,
      lo: -0.06,
      hi: 0.06,
      kind: 'signed',
      rowLabel: 'position',
      colLabel: 'dim',
      rowAxis: posAxis,
      colAxis: 'dimension',
      note: '±3σ (σ = 0.02)',
      title: `Learned table at init (normal, std 0.02, seed 0): ${L} × ${d}`,
    };
  },
  alibi(pe, st, pool, { L }) {
    const n = Math.min(L, MATRIX_CAP);
    const h = Math.min(st.head, st.heads - 1);
    const all = alibiAll(pe, st.heads, n);
    // kept too, so the panel sees the same array for the same head and need not paint it again
    const values = cached(pe, `alibi-head|${st.heads}|${n}|${h}`, () => all.subarray(h * n * n, (h + 1) * n * n));
    // The range of a head's n × n bias is kept with it: a drag that keeps the size redraws, not rescans.
    const lo = cached(pe, `alibi-lo|${st.heads}|${n}|${h}`, () => finiteRange(values)[0]);
    return {
      values,
      stable: true,
      rows: n,
      cols: n,
      lo,
      hi: 0,
      kind: 'onesided',
      rowLabel: 'query',
      colLabel: 'key',
      rowAxis: 'query position i',
      colAxis: 'key position j',
      note: 'bias added to the logit; grey = masked (−∞)',
      title: `ALiBi bias, head ${h + 1} of ${st.heads}, causal: ${n} × ${n}${L > n ? ` (first ${n} positions)` : ''}`,
    };
  },
  t5(pe, st, pool, { L }) {
    const n = Math.min(L, MATRIX_CAP);
    const cfg = t5Config(st);
    const b = cached(pe, `t5|${n}|${cfg.numBuckets}|${cfg.maxDistance}|${cfg.bidirectional}`, () =>
      pe.t5Buckets({ queries: n, keys: n, ...t5Opts(cfg) }),
    );
    return {
      values: b,
      stable: true,
      rows: n,
      cols: n,
      lo: 0,
      hi: cfg.numBuckets - 1,
      kind: 'onesided',
      rowLabel: 'query',
      colLabel: 'key',
      rowAxis: 'query position i',
      colAxis: 'key position j',
      note: 'bucket index',
      title: `T5 buckets (${cfg.bidirectional ? 'bidirectional' : 'causal'}, ${cfg.numBuckets} buckets, max distance ${cfg.maxDistance}${cfg.raised ? ', raised to exceed the exact range' : ''}): ${n} × ${n}`,
    };
  },
  shaw(pe, st, pool, { L }) {
    const n = Math.min(L, MATRIX_CAP);
    const k = st.shawk;
    const b = cached(pe, `shaw|${n}|${k}`, () => pe.shawIndices({ queries: n, keys: n, maxRelative: k }));
    return {
      values: b,
      stable: true,
      rows: n,
      cols: n,
      lo: 0,
      hi: 2 * k,
      kind: 'onesided',
      rowLabel: 'query',
      colLabel: 'key',
      rowAxis: 'query position i',
      colAxis: 'key position j',
      note: 'row of aᴷ, aⱽ',
      title: `Shaw relative indices, clipped to ±${k}: ${n} × ${n}`,
    };
  },
};

/** The picture of `method` under state `st` (MATRICES[method]). */
export function encodingMatrix(pe, st, method, pool, { length = st.length, quantity = 'angle' } = {}) {
  const make = MATRICES[method];
  if (!make) throw new Error(`unknown method ${method}`);
  return make(pe, st, pool, { L: length, d: st.dim, posAxis: 'position p (tokens)', quantity });
}
