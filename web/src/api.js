// The posenc API object the page's views call, assembled from the library's own modules (js/) so
// the page downloads only the families the shown view calls. js/index.js's init() puts every
// family into one object, which no bundler can tree-shake: an embedded heatmap would carry the KV
// cache, attention and the trainer. Here the encodings (sinusoidal, RoPE, relative biases,
// learned) come with the shell; attention (Bias, Shuffle lab), the trainer (Extrapolation lab)
// and the KV cache are chunks of their own, added by `await pe.use(name)` before a view that
// calls them is set up (views/index.js says which view needs which).
//
// Same object shape and semantics as init() in js/index.js (backend, alloc, heapBytes,
// heapInUse, loadLab, labLoaded, the family functions): it is built from the same Core, loader
// and family functions. Not frozen, so families can join it later.
import { Core, PosencBuffer, TYPES } from '../../js/core.js';
import { PosencError, Status } from '../../js/errors.js';
import { instantiate } from '../../js/loader.js';
import { learnedFamily } from '../../js/learned.js';
import { relativeFamily } from '../../js/relative.js';
import { ropeFamily } from '../../js/rope.js';
import { sinusoidalFamily } from '../../js/sinusoidal.js';
import { choice, int, show } from '../../js/validate.js';

export { simdSupported } from '../../js/loader.js';

const LATER = {
  attention: () => import('../../js/attention.js').then((m) => m.attentionFamily),
  train: () => import('../../js/train.js').then((m) => m.trainFamily),
  kvcache: () => import('../../js/kvcache.js').then((m) => m.kvCacheFamily),
};

/** Load the wasm core: `{ wasm }` (bytes, Module or URL) as in js/index.js, else the default file. */
export async function init({ wasm } = {}) {
  let instance;
  try {
    instance = await instantiate(wasm === undefined ? {} : { wasm });
  } catch (e) {
    if (e instanceof PosencError) throw e;
    throw new PosencError(Status.E_PARAM, `posenc.init: could not load the wasm core (${show(e)})`, 'wasm');
  }
  return build(new Core(instance));
}

/**
 * The same API over a stand-in for the wasm core: every C function returns OK and writes
 * nothing (but a count and a scale, below), so every result has its real shape (lengths, rows,
 * columns) and is all zeros. The page
 * renders its view with it while the wasm is on its way: the view's layout (text, figures at
 * their real sizes, panels) is the final one before a single number has arrived, so nothing
 * moves when the numbers do (app.attach() swaps in the real API).
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
  // Float32 results read back to JS (tables of encodings) hold a number of typical printed width,
  // so tables and formulas wrap as they will with the real numbers; float64 results (frequencies,
  // scales) and integers (counts, indices) stay zero.
  const read = core.read.bind(core);
  core.read = (Type, ptr, length) => {
    const out = read(Type, ptr, length);
    return Type === Float32Array ? out.fill(TYPICAL) : out;
  };
  const api = build(core);
  api.stub = true;
  api.loadLab = () => new Promise(() => {}); // never: the lab trains only with the real core
  return api;
}

const TYPICAL = Math.fround(-0.841470957);
function build(core) {
  const lab = { core: null, loading: null };
  const added = new Map();
  const api = {
    backend: core.backend,
    alloc(length, type = 'float32') {
      const n = int('alloc', 'length', length, { min: 0, max: 2 ** 28 });
      return new PosencBuffer(core, choice('alloc', 'type', type, TYPES), n);
    },
    get heapBytes() {
      return core.memoryBuffer().byteLength;
    },
    get heapInUse() {
      return core.exports.posenc_heap_in_use();
    },
    get labLoaded() {
      return lab.core !== null;
    },
    /** The lab's trainer wasm (train, evaluate, attentionMap, loadModel need it and `use('train')`). */
    loadLab(labOpts) {
      lab.loading ??= (async () => {
        try {
          const inst = await instantiate({ simd: core.backend === 'simd', wasm: labOpts?.wasm }, { lab: true });
          lab.core = new Core(inst);
        } catch (e) {
          lab.loading = null;
          if (e instanceof PosencError) throw e;
          throw new PosencError(Status.E_PARAM, `posenc.loadLab: could not load the lab's wasm (${show(e)})`, 'wasm');
        }
        return api;
      })();
      return lab.loading;
    },
    /** Add a family that is not part of the shell's download: 'attention', 'train' or 'kvcache'. */
    use(name) {
      if (!added.has(name)) added.set(name, LATER[name]().then((family) => Object.assign(api, family(core, lab))));
      return added.get(name);
    },
  };
  for (const family of [sinusoidalFamily, ropeFamily, relativeFamily, learnedFamily]) Object.assign(api, family(core, lab));
  return api;
}
