// posenc -- transformer positional encodings in WebAssembly.
//
//   import { init } from 'posenc';
//   const pe = await init();                    // picks the SIMD128 build when available
//   const table = pe.sinusoidal({ length: 128, dim: 64 });
//
// After init every call is synchronous. Each family lives in its own module and contributes
// its functions to the object init() returns; FAMILIES is that list.
import { assemble } from './api.js';
import { PosencBuffer } from './core.js';
import { PosencError, Status } from './errors.js';
import { simdSupported } from './loader.js';
import { options } from './validate.js';

// <generated: families> by tools/gen_decls.js from the declarations (families/NAME/decl.js)
import { sinusoidalFamily } from '../families/sinusoidal/sinusoidal.js';
import { ropeFamily } from '../families/rope/rope.js';
import { relativeFamily } from '../families/relative/relative.js';
import { learnedFamily } from '../families/learned/learned.js';
import { attentionFamily } from '../families/attention/attention.js';
import { kvCacheFamily } from '../families/kvcache/kvcache.js';
import { trainFamily } from '../families/train/train.js';
import { configFamily } from '../families/config/config.js';

const FAMILIES = [
  sinusoidalFamily,
  ropeFamily,
  relativeFamily,
  learnedFamily,
  attentionFamily,
  kvCacheFamily,
  trainFamily,
  configFamily,
];
// </generated: families>

export { PosencBuffer, PosencError, Status, simdSupported };

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
  const api = await assemble(options('init', opts, ['simd', 'wasm', 'lab']), FAMILIES);
  current = api;
  return api;
}

/** Every API function name (alloc and each family's functions). */
const API_NAMES = [
  'alloc',
  'loadLab',
  ...FAMILIES.flatMap((family) => {
    try {
      return Object.keys(family(null));
    } catch {
      return [];
    }
  }),
];

/** A module-level API function: calls the instance of the most recent init(), or explains. */
const forward =
  (name) =>
  (...args) => {
    if (!current) throw notLoaded(name, 'call init() and await it first (const pe = await init())');
    return current[name](...args);
  };

// The API functions as named exports, for `import { init, sinusoidal } from 'posenc'` after
// `await init()`: each calls the instance the most recent init() resolved to. The lines are
// written from the declarations (families/*/decl.js) by tools/gen_decls.js.
// <generated: forwards> by tools/gen_decls.js from the declarations (families/NAME/decl.js)
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
export const labSequences = forward('labSequences');
export const attentionMap = forward('attentionMap');
export const positionTable = forward('positionTable');
export const saveModel = forward('saveModel');
export const loadModel = forward('loadModel');
export const fromConfig = forward('fromConfig');
// </generated: forwards>

export default init;
