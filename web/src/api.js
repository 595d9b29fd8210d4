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
  const core = new Core(instance);
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
