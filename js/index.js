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
import { choice, int, options } from './validate.js';

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

/**
 * Load the wasm core and return the API object.
 * @param {{ simd?: boolean | 'auto', wasm?: BufferSource | WebAssembly.Module | URL | string }} [opts]
 */
export async function init(opts = {}) {
  options('init', opts, ['simd', 'wasm']);
  const core = new Core(await instantiate(opts));
  const api = {
    backend: core.backend,
    /** Zero-copy heap buffer: pass it wherever a typed array of the same type is accepted. */
    alloc(length, type = 'float32') {
      const n = int('alloc', 'length', length, { min: 0, max: 2 ** 28 });
      const Type = choice('alloc', 'type', type, TYPES);
      return new PosencBuffer(core, Type, n);
    },
    /** Bytes of wasm linear memory right now (grows, never shrinks). */
    get heapBytes() {
      return core.exports.memory.buffer.byteLength;
    },
    /** Bytes currently allocated on the wasm heap (buffers from alloc() included): a diagnostic
     * for leaks, since memory itself never shrinks. */
    get heapInUse() {
      return core.exports.posenc_heap_in_use();
    },
  };
  for (const family of FAMILIES) Object.assign(api, family(core));
  return Object.freeze(api);
}

export default init;
