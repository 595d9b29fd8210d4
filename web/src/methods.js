// What each method looks like as a matrix, computed by the posenc API. Views call these; the only
// arithmetic here is display work (angle mod 2π from cos/sin, colour ranges).
import { ropeOptions } from './state.js';

/** Thrown when this build of posenc lacks a function a view needs. */
export class Unavailable extends Error {
  name = 'Unavailable'; // survives minification, unlike constructor.name (the worker sends it back)
}
export function need(pe, ...fns) {
  const missing = fns.filter((f) => typeof pe[f] !== 'function');
  if (missing.length) throw new Unavailable(`pe.${missing.join(', pe.')}`);
}

/** Bias matrices are [queries][keys]: cap their side so a long length stays interactive. */
export const MATRIX_CAP = 512;
export const SHAW_K = 16;

/** Reusable wasm-heap buffers (pe.alloc) so redraws never copy a table out of the heap. */
export function makePool(pe) {
  const heap = new Map();
  const plain = new Map();
  let learnedCap = null;
  return {
    f32(key, n) {
      let b = heap.get(key);
      if (!b || b.freed || b.length !== n) {
        b?.free();
        b = pe.alloc(n);
        heap.set(key, b);
      }
      return b;
    },
    /** The first `length` rows of pe.learnedInit({ dim, seed: 0 }). The core's generator is
     * counter-based (a longer table starts with the shorter one), so one table at a power-of-two
     * capacity serves a whole length drag without re-drawing half a million normals per frame. */
    learned(length, dim) {
      const c = learnedCap;
      if (!c || c.dim !== dim || c.rows < length || c.buf.freed) {
        const rows = Math.max(length, Math.min(4096, 2 ** Math.ceil(Math.log2(length))));
        const buf = this.f32('learned', rows * dim);
        pe.learnedInit({ length: rows, dim, seed: 0, out: buf });
        learnedCap = { dim, rows, buf };
      }
      return learnedCap.buf.array.subarray(0, length * dim);
    },
    scratch(key, n) {
      let a = plain.get(key);
      if (!a || a.length !== n) plain.set(key, (a = new Float32Array(n)));
      return a;
    },
    free() {
      for (const b of heap.values()) b.free();
      heap.clear();
    },
  };
}

const TAU = 2 * Math.PI;
// Display-only atan2 in [0, 2π): a degree-11 minimax polynomial (error < 1e-5 rad, far below one
// of the 256 colour steps of 0.025 rad), ~5x faster than Math.atan2 over a 512 x 1024 table.
// Readouts and exports use the exact Math.atan2.
function angle(y, x) {
  const ax = Math.abs(x), ay = Math.abs(y);
  const swap = ay > ax;
  const t = swap ? ax / ay : ax === 0 ? 0 : ay / ax;
  const t2 = t * t;
  let a = t * (0.99997726 + t2 * (-0.33262347 + t2 * (0.19354346 + t2 * (-0.11643287 + t2 * (0.05265332 - t2 * 0.0117212)))));
  if (swap) a = Math.PI / 2 - a;
  if (x < 0) a = Math.PI - a;
  if (y < 0) a = TAU - a;
  return a >= TAU ? 0 : a;
}
const exactAngle = (y, x) => {
  const a = Math.atan2(y, x);
  return a < 0 ? a + TAU : a;
};
const fmtAngle = (v) => (Number.isFinite(v) ? v.toFixed(5) : 'undefined');

function finiteRange(v) {
  let lo = Infinity, hi = -Infinity;
  for (let i = 0; i < v.length; i++) {
    const x = v[i];
    if (x > -Infinity && x < Infinity) {
      if (x < lo) lo = x;
      if (x > hi) hi = x;
    }
  }
  return lo <= hi ? [lo, hi] : [0, 1];
}

/** The [rows][cols] picture of `method` under state `st`. */
export function encodingMatrix(pe, st, method, pool, { length = st.length } = {}) {
  const L = length;
  const d = st.dim;
  switch (method) {
    case 'sinusoidal': {
      need(pe, 'sinusoidal');
      const buf = pool.f32(`sin`, L * d);
      pe.sinusoidal({ length: L, dim: d, base: st.base, layout: st.layout, out: buf });
      return { values: buf.array, source: buf, rows: L, cols: d, lo: -1, hi: 1, rowLabel: 'position', colLabel: 'dim',
        title: `Sinusoidal (${st.layout}): ${L} positions × ${d} dims, base ${st.base}` };
    }
    case 'rope': {
      need(pe, 'ropeCache');
      const ro = ropeOptions(st);
      const half = (ro.rotaryDim ?? d) / 2;
      // Zero-copy: the cache is written straight into reusable heap buffers.
      const cb = pool.f32('ropeCos', L * half);
      const sb = pool.f32('ropeSin', L * half);
      pe.ropeCache({ length: L, ...ro, cos: cb, sin: sb });
      const cos = cb.array;
      const sin = sb.array;
      // Spread the pair angles over the head dimensions as the pair layout does, so the layout
      // toggle is visible: 'half' pairs dim c with c + d/2, 'interleaved' pairs 2i with 2i + 1.
      const cols = 2 * half;
      const ang = pool.scratch('ropeAngle', L * cols);
      const interleaved = st.rope === 'interleaved';
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
      const pairOf = (c) => (interleaved ? c >> 1 : c % half);
      const sc = st.scaling === 'none' ? '' : `, ${st.scaling} ×${st.factor}`;
      return { values: ang, rows: L, cols, lo: 0, hi: TAU, rowLabel: 'position', colLabel: 'dim', palette: 'twilight',
        title: `RoPE angle θᵢ(p) mod 2π per dim (${st.rope} pairs): ${L} positions × ${cols} dims${sc}`,
        describe: (r, c) => {
          if (cb.freed) return `position ${r}, dim ${c}`;
          const k = r * half + pairOf(c);
          const [cv, sv] = [cb.array[k], sb.array[k]];
          return `position ${r}, dim ${c} (pair ${pairOf(c)}, ${st.rope}): θ = ${fmtAngle(exactAngle(sv, cv))} rad mod 2π, cos ${cv.toFixed(5)}`;
        },
        exact: () => {
          const out = new Float32Array(L * cols);
          const C = cb.array, S = sb.array;
          for (let r = 0; r < L; r++)
            for (let c = 0; c < cols; c++) out[r * cols + c] = exactAngle(S[r * half + pairOf(c)], C[r * half + pairOf(c)]);
          return out;
        } };
    }
    case 'learned': {
      need(pe, 'learnedInit');
      const t = pool.learned(L, d);
      return { values: t, rows: L, cols: d, lo: -0.06, hi: 0.06, rowLabel: 'position', colLabel: 'dim',
        title: `Learned table at init (normal, std 0.02, seed 0): ${L} × ${d}` };
    }
    case 'alibi': {
      need(pe, 'alibiBias');
      const n = Math.min(L, MATRIX_CAP);
      const h = Math.min(st.head, st.heads - 1);
      const all = pe.alibiBias({ heads: st.heads, queries: n, causal: true });
      const values = all.subarray(h * n * n, (h + 1) * n * n);
      const [lo, hi] = finiteRange(values);
      return { values, rows: n, cols: n, lo, hi, rowLabel: 'query', colLabel: 'key',
        title: `ALiBi bias, head ${h + 1} of ${st.heads}, causal: ${n} × ${n}` };
    }
    case 't5': {
      need(pe, 't5Buckets');
      const n = Math.min(L, MATRIX_CAP);
      const b = pe.t5Buckets({ queries: n, keys: n, bidirectional: true });
      return { values: b, rows: n, cols: n, lo: 0, hi: 31, rowLabel: 'query', colLabel: 'key',
        title: `T5 buckets (bidirectional, 32 buckets, max distance 128): ${n} × ${n}` };
    }
    case 'shaw': {
      need(pe, 'shawIndices');
      const n = Math.min(L, MATRIX_CAP);
      const b = pe.shawIndices({ queries: n, keys: n, maxRelative: SHAW_K });
      return { values: b, rows: n, cols: n, lo: 0, hi: 2 * SHAW_K, rowLabel: 'query', colLabel: 'key',
        title: `Shaw relative indices, clipped to ±${SHAW_K}: ${n} × ${n}` };
    }
  }
  throw new Error(`unknown method ${method}`);
}
