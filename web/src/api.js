// The posenc API object the page's views call, assembled from the library's own modules (js/) so
// the page downloads only the families the shown view calls. js/index.js's init() puts every
// family into one object, which no bundler can tree-shake: an embedded heatmap would carry the KV
// cache, attention and the trainer. Here the encodings (sinusoidal, RoPE, relative biases,
// learned) come with the shell; attention (Bias, Shuffle lab) and the trainer are chunks of their
// own, added by `await pe.use(name)` (views/index.js NEEDS: before the view is set up; the lab adds
// the trainer itself when it trains without a worker). No view calls the KV cache: the page's API
// has none.
//
// Otherwise the same object shape and semantics as init() in js/index.js (backend, alloc,
// heapBytes, heapInUse, loadLab, labLoaded, the family functions): js/api.js builds both. Not
// frozen, so families can join it later.
import { createApi, loadCore } from '../../js/api.js';
import { Core } from '../../js/core.js';
import { learnedFamily } from '../../js/learned.js';
import { relativeFamily } from '../../js/relative.js';
import { ropeFamily } from '../../js/rope.js';
import { sinusoidalFamily } from '../../js/sinusoidal.js';
import { simdSupported } from '../../js/loader.js';
import { PAGE_CORES } from './page-cores.js';

export { simdSupported };

const LATER = {
  attention: () => import('../../js/attention.js').then((m) => m.attentionFamily),
  train: () => import('../../js/train.js').then((m) => m.trainFamily),
};

/**
 * Load the wasm core: `{ wasm }` (bytes, Module or URL) as in js/index.js, else one of the page's
 * cores, `{ core: 'lean' | 'attention' }` (default 'attention'), else (no SIMD) the npm core. If a
 * view on the lean core calls attention, use() hands over an API on the core with it.
 */
export async function init({ wasm, core = 'attention' } = {}) {
  if (wasm === undefined && PAGE_CORES[core] && simdSupported())
    return build(await loadCore({ wasm: await PAGE_CORES[core]() }), core);
  return build(await loadCore(wasm === undefined ? {} : { wasm }), 'full');
}

/**
 * The same API over a stand-in for the wasm core: every C function returns OK and writes
 * nothing (but a count and a scale, below), so every result has its real shape (lengths, rows,
 * columns); float32 tables read back hold TYPICAL, float64 arrays (frequencies) TYPICAL_FREQ,
 * other results (a scale, counts, indices) zeros. The page renders its view
 * with it while the wasm is on its way: the view's layout (text, figures at their real sizes,
 * panels) is the final one before a single number has arrived, so nothing moves when the numbers
 * do (app.attach() swaps in the real API).
 */
export function stubApi() {
  const memory = new WebAssembly.Memory({ initial: 16 });
  let top = 64;
  const known = {
    memory,
    malloc(n) {
      const p = (top + 15) & ~15;
      top = p + Math.max(1, n);
      if (top > memory.buffer.byteLength) memory.grow(Math.ceil((top - memory.buffer.byteLength) / 65536));
      return p;
    },
    free() {},
    posenc_build_flags: () => 1,
    posenc_status_string: () => 0,
    posenc_heap_in_use: () => 0,
    // The two results whose size or use is a number the C side writes: how many frequencies,
    // and RoPE's attention scale (neutral 1).
    posenc_sinusoidal_freqs(out, count, dim) {
      new Int32Array(memory.buffer, count, 1)[0] = Math.ceil(dim / 2);
      return 0;
    },
    posenc_rope_freqs(inv, att) {
      new Float64Array(memory.buffer, att, 1)[0] = 1;
      return 0;
    },
  };
  const exports = new Proxy(known, { get: (t, k) => (k in t ? t[k] : typeof k === 'string' ? () => 0 : undefined) });
  const core = new Core({ exports });
  // posenc.h's struct layout (Core.layout) is read from the core; the stand-in has none, and
  // writes nothing into the structs anyway: every struct 256 bytes, every field at 0. Without it
  // selfAttention threw in the layout pass (the Shuffle lab and Position ids laid out without
  // their figures, then grew by up to 700 px when the wasm arrived).
  const struct = Object.freeze({ size: 256, fields: {}, at: () => 0, set: () => {} });
  Object.defineProperty(core, 'layout', { value: new Proxy({}, { get: () => struct }) });
  // Float32 results read back to JS (tables of encodings) hold a number of typical printed width,
  // so tables and formulas wrap as they will with the real numbers; float64 results (frequencies,
  // scales) and integers (counts, indices) stay zero.
  const read = core.read.bind(core);
  core.read = (Type, ptr, length) => {
    const out = read(Type, ptr, length);
    if (Type === Float32Array) return out.fill(TYPICAL);
    if (Type !== Float64Array || length < 2) return out;
    out.fill(TYPICAL_FREQ)[0] = 1; // base^0: every family's first frequency
    return out;
  };
  const api = build(core, 'stub');
  api.stub = true;
  api.loadLab = () => new Promise(() => {}); // never: the lab trains only with the real core
  return api;
}

const TYPICAL = Math.fround(-0.841470957);
// a frequency as wide in print as most real ones (10000^(-1/2), 0.01 with six digits: "0.0100000")
const TYPICAL_FREQ = 0.0316227766;
/** The encodings' API over `core`, with `use(name)` to add a family of LATER when a view needs it. */
function build(core, kind = 'full') {
  const { api, add } = createApi(core, [sinusoidalFamily, ropeFamily, relativeFamily, learnedFamily]);
  const added = new Map();
  let withAttention = null;
  // Which of the page's cores this is: a worker loads the same file (compute.js), from the cache.
  api.core = kind;
  /**
   * Add a family that is not part of the shell's download: 'attention' or 'train'. Resolves to the
   * API that has it: this one, or, on the lean core (no attention kernels), an API on the core
   * with them, which the caller moves to (app.js attach()); one per API, so every element on a
   * page shares it.
   */
  api.use = (name) => {
    if (name === 'attention' && typeof core.exports.posenc_attention_gqa !== 'function') {
      withAttention ??= init({ core: 'attention' });
      return withAttention.then((f) => f.use(name));
    }
    if (!added.has(name)) added.set(name, LATER[name]().then(add));
    return added.get(name);
  };
  return api;
}
