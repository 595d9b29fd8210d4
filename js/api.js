// The API object: a loaded core and the functions of a list of families, plus what every
// instance has (backend, alloc, heap figures, the lab's loader). init() in index.js builds it
// with every family; init() in lite.js with the families an app names, and its use() with more.
import { Core, PosencBuffer, StaleBuildError, TYPES } from './core.js';
import { PosencError, Status } from './errors.js';
import { instantiate, reason } from './loader.js';
import { choice, fail, int, options, show, threw } from './validate.js';

/** Instantiate the wasm core (opts: an options snapshot with simd and wasm) as a Core. */
export async function loadCore(opts, { lite = false } = {}) {
  try {
    return new Core(await instantiate(opts, { lite }));
  } catch (e) {
    if (e instanceof PosencError) throw e;
    throw new PosencError(
      Status.E_PARAM,
      `posenc.init: could not load the wasm core from the given wasm (${reason(e)})`,
      'wasm',
    );
  }
}

/**
 * The API over `core` with the functions of `families`. Returns { api, add, lab }: add(family, i)
 * puts one more family's functions on it (the caller freezes the object when it has them all);
 * `who` is the function named when a family is not one.
 */
export function createApi(core, families, { lab = { core: null, loading: null }, who = 'init' } = {}) {
  // The extrapolation lab's trainer is a separate wasm module, loaded on request with the same
  // backend as the core (its own memory: lab calls never touch the core's heap); `lab` is given
  // when an API made by posenc/lite's use() shares its parent's.
  let mine = null; // this API's promise of the lab's load in progress
  const api = {
    backend: core.backend,
    /** Zero-copy heap buffer, zero-filled: pass it wherever a typed array of the same type is
     * accepted. Free it with free() (or `using`). */
    alloc(length, type = 'float32') {
      const n = int('alloc', 'length', length, { min: 0, max: 2 ** 28 });
      const Type = choice('alloc', 'type', type, TYPES);
      return new PosencBuffer(core, Type, n);
    },
    /** Bytes of wasm linear memory right now (grows, never shrinks). */
    get heapBytes() {
      return core.memoryBuffer().byteLength;
    },
    /** Bytes currently allocated on the wasm heap (buffers from alloc() included): a diagnostic
     * for leaks, since memory itself never shrinks. */
    get heapInUse() {
      return core.exports.posenc_heap_in_use();
    },
    /** Whether the training lab is loaded. */
    get labLoaded() {
      return lab.core !== null;
    },
    /** Load the training lab's wasm (train, evaluate, attentionMap, loadModel need it); resolves to
     * this API object. { wasm } gives the module (bytes, Module or URL) instead of the default file. */
    loadLab(labOpts) {
      lab.loading ??= (async () => {
        const lo =
          labOpts === undefined || labOpts === true ? Object.create(null) : options('loadLab', labOpts, ['wasm']);
        let inst;
        try {
          inst = await instantiate({ simd: core.backend === 'simd', wasm: lo.wasm }, { lab: true });
        } catch (e) {
          lab.loading = null;
          if (e instanceof PosencError) throw e;
          throw new PosencError(Status.E_PARAM, `posenc.loadLab: could not load the lab's wasm (${reason(e)})`, 'wasm');
        }
        lab.core = new Core(inst);
      })();
      // an API of posenc/lite's use() shares its parent's lab: each resolves to itself, and one API
      // gives one promise per load, however often it asks
      if (mine?.loading !== lab.loading) mine = { loading: lab.loading, done: lab.loading.then(() => api) };
      return mine.done;
    },
  };
  const add = (family, i) => {
    for (const [name, f] of Object.entries(functionsOf(family, core, lab, i, who))) api[name] = guard(name, f);
    return api;
  };
  families.forEach(add);
  return { api, add, lab };
}

/** A family's functions: an object of them, else (a class, Symbol) E_PARAM naming families[i]. */
function functionsOf(family, core, lab, i = 0, who = 'init') {
  const arg = `families[${i}]`;
  let fns;
  try {
    fns = family(core, lab);
  } catch (e) {
    throw threw(who, arg, e, `calling ${arg}`);
  }
  if (Object(fns) !== fns || !Object.values(fns).every((f) => typeof f === 'function') || !Object.keys(fns).length)
    throw fail(who, arg, Status.E_PARAM, 'a family from posenc/lite, such as sinusoidalFamily', family);
  return fns;
}

/** Public function `name`: an exception a check missed still leaves as a PosencError. */
function guard(name, f) {
  return {
    [name](...args) {
      try {
        return f(...args);
      } catch (e) {
        if (e instanceof PosencError) throw e;
        if (e instanceof StaleBuildError) throw new PosencError(Status.E_PARAM, `posenc.${name}: ${e.message}`, 'init');
        const at = args.findIndex((a) => {
          try {
            Array.isArray(a);
          } catch {
            return true; // a revoked Proxy
          }
        });
        const arg = at < 0 ? 'arguments' : `arguments[${at}]`;
        throw threw(name, arg, e, `using ${arg}`);
      }
    },
  }[name];
}

/**
 * Build the API with `families` over `core` (loaded from `o`, init's options snapshot, when not
 * given); `extend(api, lab)` sees it before it is frozen (posenc/lite's use() keeps `lab`). With `o.lab`
 * (true or { wasm }) the lab's wasm is loaded too. Both entries' init() (index.js, lite.js) end here.
 */
export async function assemble(o, families, { core, extend } = {}) {
  const { api, lab } = createApi(core ?? (await loadCore(o)), families);
  extend?.(api, lab);
  Object.freeze(api);
  if (o.lab !== undefined && o.lab !== false) {
    if (o.lab !== true && (o.lab === null || typeof o.lab !== 'object')) {
      throw new PosencError(
        Status.E_PARAM,
        `posenc.init: lab must be true, false or { wasm } (got ${show(o.lab)})`,
        'lab',
      );
    }
    await api.loadLab(o.lab === true ? o.lab : options('init', o.lab, ['wasm'], 'lab'));
  }
  return api;
}
