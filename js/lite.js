// posenc/lite: the same API object as `posenc`, holding only the families an app names, so a
// bundler leaves the others out of the app (`posenc`'s init() carries every family: attention,
// the KV cache and the trainer are most of its JS).
//
//   import { init, sinusoidalFamily, ropeFamily } from 'posenc/lite';
//   const pe = await init({ families: [sinusoidalFamily, ropeFamily] });
//   pe.sinusoidal({ length: 128, dim: 64 });
//
// Each family is the list of functions of one docs/ page (index.js FAMILIES lists them all).
import { assemble } from './api.js';
import { PosencBuffer } from './core.js';
import { PosencError, Status } from './errors.js';
import { simdSupported } from './loader.js';
import { list, options, show } from './validate.js';

// <generated: families> by tools/gen_decls.js from the declarations (decl/NAME.js)
export { sinusoidalFamily } from './sinusoidal.js';
export { ropeFamily } from './rope.js';
export { relativeFamily } from './relative.js';
export { learnedFamily } from './learned.js';
export { attentionFamily } from './attention.js';
export { kvCacheFamily } from './kvcache.js';
export { trainFamily } from './train.js';
export { configFamily } from './config.js';
// </generated: families>
export { PosencBuffer, PosencError, Status, simdSupported };

// A family marked lean (sinusoidal, learned) has all its C entry points in the lean core
// (dist/posenc-lite.simd.wasm, c_src/exports_lite.txt): an app that names only such families
// downloads that instead of the whole core. The mark is on the family, not a list here, so an app
// bundles no family it does not name.
function lean(family) {
  try {
    return typeof family === 'function' && Object.getOwnPropertyDescriptor(family, 'lean')?.value === true;
  } catch {
    return false; // a Proxy that throws: init's own check of families names it
  }
}

/**
 * Load the wasm core and return an API object with the functions of `families` (and what every
 * instance has: backend, alloc, heapBytes, heapInUse, loadLab, labLoaded).
 * @param {{ families: Function[], simd?: boolean | 'auto', lab?: boolean | object,
 *   wasm?: BufferSource | WebAssembly.Module | URL | string }} opts
 */
export async function init(opts) {
  const o = options('init', opts, ['families', 'simd', 'wasm', 'lab']);
  const families = list('init', 'families', o.families);
  if (!Array.isArray(families) || families.length === 0) {
    throw new PosencError(
      Status.E_PARAM,
      'posenc.init: families must be a non-empty array of families from posenc/lite, ' +
        `such as [sinusoidalFamily] (got ${show(families)})`,
      'families',
    );
  }
  return assemble(o, families, { lite: families.every(lean) });
}

export default init;
