// The page's positional methods, one registry entry each (METHODS below), and what every view may
// need from the shell about the API: the error for a missing function, the heap-buffer pool, finite
// ranges, the exact angle of a pair, RoPE's and T5's options from the state. The matrices
// themselves are in matrices.js, a chunk of its own.
import { t5MaxExact } from '../../js/maths.js';
import { SCALINGS } from '../../js/scalings.js';

/** Thrown when the API lacks a function a view needs (the page's API has the encodings, and a
 * view's `needs` are added before it is set up: api.js). */
export class Unavailable extends Error {
  name = 'Unavailable'; // survives minification, unlike constructor.name (the worker sends it back)
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
  let lo = Infinity,
    hi = -Infinity;
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
  const exact = t5MaxExact(bidirectional, st.buckets);
  const maxDistance = Math.max(st.maxdist, exact + 1);
  return { numBuckets: st.buckets, maxDistance, bidirectional, raised: maxDistance !== st.maxdist };
}
export const t5Opts = ({ numBuckets, maxDistance, bidirectional }) => ({ numBuckets, maxDistance, bidirectional });

// The scaling keys the controls fill (js/scalings.js): the factor, the train length standing in for
// the model's original context, and the drawn length.
const SCALING_FILL = { factor: 'factor', originalMaxPositions: 'train', maxPositions: 'train', seqLen: 'length' };
/** The scaling types the controls can set: each but the default whose required keys they fill
 * (no per-pair factor lists: longrope comes only with a model). */
export const PAGE_SCALINGS = Object.keys(SCALINGS).filter(
  (t) =>
    t !== 'default' && SCALINGS[t].keys.every((k) => k.kind !== 'factors' && (!k.required || SCALING_FILL[k.name])),
);

/** RoPE frequency options (families/rope/rope.md) for the current state. The train length stands in for the
 * model's original context wherever a scaling needs one. */
export function ropeOptions(st) {
  const o = { dim: st.dim, base: st.base };
  if (PAGE_SCALINGS.includes(st.scaling)) {
    o.scaling = { type: st.scaling };
    for (const k of SCALINGS[st.scaling].keys) if (SCALING_FILL[k.name]) o.scaling[k.name] = st[SCALING_FILL[k.name]];
  }
  return o;
}

/**
 * The page's positional methods: one entry per method, the one place that knows it. The order is
 * the order of the method pickers.
 *   label      its name on the page
 *   paper      where it comes from (the views and the guided path cite it)
 *   keys       the state keys it reads: its controls beside a view (views/<id>.view.js) and what a
 *              cached result of it depends on (the Shuffle lab)
 *   table      true: a vector per position (added to the input, or turning q and k); false: a
 *              score per (query, key) pair, drawn as a query × key matrix
 *   attention(pe, st, env)  its `encoding` option of pe.selfAttention (the Shuffle lab), with
 *              deterministic stand-ins where the method has trained parameters; env = { n, heads,
 *              dModel, rand(length, dim, seed, std) }
 * Its picture as a matrix is MATRICES[id] in matrices.js, and its filled-in cell formula the case
 * `id` of cellFormula in formula.js: chunks of their own, loaded only by the views that draw them
 * (tests/page_methods.test.js checks that every method has both).
 */
export const METHODS = {
  sinusoidal: {
    label: 'Sinusoidal',
    paper: 'Vaswani et al. 2017, arXiv:1706.03762',
    keys: ['dim', 'length', 'base', 'layout'],
    table: true,
    attention: (pe, st) => ({ type: 'sinusoidal', base: st.base }),
  },
  rope: {
    label: 'RoPE',
    paper: 'Su et al. 2021 (RoFormer), arXiv:2104.09864',
    keys: ['dim', 'length', 'base', 'rope', 'scaling', 'factor', 'train'],
    table: true,
    // the page's scaling (type, factor) and pair layout, as in every RoPE view
    attention: (pe, st) => ({ type: 'rope', base: st.base, layout: st.rope, scaling: ropeOptions(st).scaling }),
  },
  learned: {
    label: 'Learned',
    paper: 'Devlin et al. 2019 (BERT), Radford et al. 2019 (GPT-2)',
    keys: ['dim', 'length'],
    table: true,
    attention: (pe, st, { n, dModel, rand }) => ({ type: 'learned', table: rand(n, dModel, 3) }),
  },
  alibi: {
    label: 'ALiBi',
    paper: 'Press et al. 2022, arXiv:2108.12409',
    keys: ['length', 'heads', 'head'],
    table: false,
    attention: () => ({ type: 'alibi' }),
  },
  t5: {
    label: 'T5 buckets',
    paper: 'Raffel et al. 2020, arXiv:1910.10683',
    keys: ['length', 'buckets', 'maxdist', 't5dir'],
    table: false,
    attention: (pe, st, { heads, rand }) => {
      const cfg = t5Config(st);
      return { type: 't5', ...t5Opts(cfg), weights: rand(cfg.numBuckets, heads, 5, 1) };
    },
  },
  shaw: {
    label: 'Shaw (clipped)',
    paper: 'Shaw et al. 2018, arXiv:1803.02155',
    keys: ['length', 'shawk'],
    table: false,
    attention: (pe, st, { dModel, heads, rand }) => {
      const k = st.shawk;
      return {
        type: 'shaw',
        maxRelative: k,
        aK: rand(2 * k + 1, dModel / heads, 6),
        aV: rand(2 * k + 1, dModel / heads, 8),
      };
    },
  },
};
/** The methods as [id, label] pairs (pickers, state parsers). */
export const METHOD_CHOICES = Object.entries(METHODS).map(([id, m]) => [id, m.label]);
/** The label of method `id` (the id itself for one the registry does not know, e.g. 'none'). */
export const methodLabel = (id) => METHODS[id]?.label ?? id;
