// What every view may need from the shell about the API: the check for a missing function, the
// heap-buffer pool, finite ranges, the exact angle of a pair, T5's settings from the state. The
// matrices themselves are in matrices.js, a chunk of its own.

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
/** atan2(y, x) in [0, 2π): the angle of a (sin, cos) pair, exact (readouts, tables, exports). */
export const exactAngle = (y, x) => {
  const a = Math.atan2(y, x);
  return a < 0 ? a + TAU : a;
};
/** The least and greatest finite numbers among the first `end` of `v` (lo > hi if there are none). */
export function finiteMinMax(v, end = v.length) {
  let lo = Infinity, hi = -Infinity;
  for (let i = 0; i < end; i++) {
    const x = v[i];
    if (typeof x === 'number' && x > -Infinity && x < Infinity) {
      if (x < lo) lo = x;
      if (x > hi) hi = x;
    }
  }
  return [lo, hi];
}

/** T5 bucket options from the state. The bucket function needs a max distance beyond its exact
 * range (numBuckets/4 bidirectional, numBuckets/2 causal); a smaller setting is raised to it and
 * the title says so. */
export function t5Config(st, bidirectional = st.t5dir !== 'causal') {
  const exact = bidirectional ? st.buckets >> 2 : st.buckets >> 1;
  const maxDistance = Math.max(st.maxdist, exact + 1);
  return { numBuckets: st.buckets, maxDistance, bidirectional, raised: maxDistance !== st.maxdist };
}
export const t5Opts = ({ numBuckets, maxDistance, bidirectional }) => ({ numBuckets, maxDistance, bidirectional });
