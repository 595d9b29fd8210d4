// posenc -- transformer positional encodings in WebAssembly.
//
//   import { init } from 'posenc';
//   const pe = await init();                    // picks the SIMD128 build when available
//   const table = pe.sinusoidal({ length: 128, dim: 64 });
//
// After init every call is synchronous. Each family lives in its own module and contributes
// its functions to the object init() returns; FAMILIES is that list.
import { Core, PosencBuffer, TYPES } from './core.js';
import { PosencError, Status } from './errors.js';
import { instantiate, simdSupported } from './loader.js';
import { sinusoidalFamily } from './sinusoidal.js';
import { ropeFamily } from './rope.js';
import { relativeFamily } from './relative.js';
import { learnedFamily } from './learned.js';
import { attentionFamily } from './attention.js';
import { kvCacheFamily } from './kvcache.js';
import { trainFamily } from './train.js';
import { choice, int, options, show } from './validate.js';

export { PosencBuffer, PosencError, Status, simdSupported };

const FAMILIES = [
  sinusoidalFamily,
  ropeFamily,
  relativeFamily,
  learnedFamily,
  attentionFamily,
  kvCacheFamily,
  trainFamily,
];

// The API object the most recent init() resolved to: the module-level functions below call it.
let current = null;

function notLoaded(name, how) {
  return new PosencError(Status.E_MISSING, `posenc.${name}: the wasm core is not loaded yet: ${how}`, 'init');
}

/**
 * Load the wasm core and return the API object.
 * @param {{ simd?: boolean | 'auto', wasm?: BufferSource | WebAssembly.Module | URL | string }} [opts]
 */
export function init(opts) {
  const p = load(opts);
  // `const pe = init()` (no await) gives a Promise: its API names explain instead of
  // "pe.sinusoidal is not a function"
  for (const name of API_NAMES) {
    Object.defineProperty(p, name, {
      value: () => {
        throw notLoaded(name, 'init() returns a Promise; use the object it resolves to: const pe = await init()');
      },
    });
  }
  return p;
}

async function load(opts) {
  const o = options('init', opts, ['simd', 'wasm', 'lab']);
  let instance;
  try {
    instance = await instantiate(o);
  } catch (e) {
    if (e instanceof PosencError) throw e;
    let why;
    try {
      why = e instanceof Error ? `${e.name}: ${e.message}` : show(e);
    } catch {
      why = 'an exception';
    }
    throw new PosencError(Status.E_PARAM, `posenc.init: could not load the wasm core from the given wasm (${why})`, 'wasm');
  }
  const core = new Core(instance);
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
  };
  // The extrapolation lab's trainer is a separate wasm module, loaded on request with the same
  // backend as the core (its own memory: lab calls never touch the core's heap).
  const lab = { core: null, loading: null };
  const loadLab = (labOpts) => {
    lab.loading ??= (async () => {
      const lo = labOpts === undefined || labOpts === true ? Object.create(null) : options('loadLab', labOpts, ['wasm']);
      let inst;
      try {
        inst = await instantiate({ simd: core.backend === 'simd', wasm: lo.wasm }, { lab: true });
      } catch (e) {
        lab.loading = null;
        if (e instanceof PosencError) throw e;
        throw new PosencError(Status.E_PARAM, `posenc.loadLab: could not load the lab's wasm (${show(e)})`, 'wasm');
      }
      lab.core = new Core(inst);
      return current;
    })();
    return lab.loading;
  };
  /** Load the training lab's wasm (train, evaluate, attentionMap, loadModel need it); resolves to
   * this API object. { wasm } gives the module (bytes, Module or URL) instead of the default file. */
  api.loadLab = (labOpts) => loadLab(labOpts);
  /** Whether the training lab is loaded. */
  Object.defineProperty(api, 'labLoaded', { get: () => lab.core !== null, enumerable: true });
  for (const family of FAMILIES) Object.assign(api, family(core, lab));
  current = Object.freeze(api);
  if (o.lab !== undefined && o.lab !== false) {
    if (o.lab !== true && (o.lab === null || typeof o.lab !== 'object')) {
      throw new PosencError(Status.E_PARAM, `posenc.init: lab must be true, false or { wasm } (got ${show(o.lab)})`, 'lab');
    }
    await loadLab(o.lab);
  }
  return current;
}

/** Every API function name (alloc and each family's functions). */
const API_NAMES = ['alloc', 'loadLab', ...FAMILIES.flatMap((family) => {
  try {
    return Object.keys(family(null));
  } catch {
    return [];
  }
})];

/** A module-level API function: calls the instance of the most recent init(), or explains. */
const forward = (name) => (...args) => {
  if (!current) throw notLoaded(name, 'call init() and await it first (const pe = await init())');
  return current[name](...args);
};

// The API functions as named exports, for `import { init, sinusoidal } from 'posenc'` after
// `await init()`: each calls the instance the most recent init() resolved to. A family that
// adds a function adds its line here (tests/robust.test.js checks the list is complete).
export const alloc = forward('alloc');
export const loadLab = forward('loadLab');
export const sinusoidal = forward('sinusoidal');
export const sinusoidalFrequencies = forward('sinusoidalFrequencies');
export const sinusoidal2d = forward('sinusoidal2d');
export const similarity = forward('similarity');
export const ropeFrequencies = forward('ropeFrequencies');
export const ropeCache = forward('ropeCache');
export const applyRope = forward('applyRope');
export const ropeDecay = forward('ropeDecay');
export const alibiSlopes = forward('alibiSlopes');
export const alibiBias = forward('alibiBias');
export const t5Buckets = forward('t5Buckets');
export const t5Bias = forward('t5Bias');
export const shawIndices = forward('shawIndices');
export const xlPositions = forward('xlPositions');
export const relShift = forward('relShift');
export const xlScores = forward('xlScores');
export const learnedInit = forward('learnedInit');
export const gather = forward('gather');
export const addTo = forward('addTo');
export const concat = forward('concat');
export const attention = forward('attention');
export const matmul = forward('matmul');
export const selfAttention = forward('selfAttention');
export const kvCache = forward('kvCache');
export const train = forward('train');
export const evaluate = forward('evaluate');
export const attentionMap = forward('attentionMap');
export const positionTable = forward('positionTable');
export const saveModel = forward('saveModel');
export const loadModel = forward('loadModel');

export default init;
