// posenc/lite: the same API object as `posenc`, holding only the families an app names, so a
// bundler leaves the others out of the app (`posenc`'s init() carries every family: attention,
// the KV cache and the trainer are most of its JS).
//
//   import { init, sinusoidalFamily, ropeFamily, attentionFamily } from 'posenc/lite';
//   const pe = await init({ families: [sinusoidalFamily, ropeFamily] });
//   pe.sinusoidal({ length: 128, dim: 64 });
//   const pa = await pe.use(attentionFamily); // later: pe's functions and attention's
//
// Each family is the list of functions of one docs/ page (index.js FAMILIES lists them all).
import { assemble, createApi, loadCore } from './api.js';
import { PosencBuffer } from './core.js';
import { PosencError, Status } from './errors.js';
import { simdSupported } from './loader.js';
import { fail, list, options, reason, show } from './validate.js';

export { attentionFamily } from './attention.js';
export { configFamily } from './config.js';
export { kvCacheFamily } from './kvcache.js';
export { learnedFamily } from './learned.js';
export { relativeFamily } from './relative.js';
export { ropeFamily } from './rope.js';
export { sinusoidalFamily } from './sinusoidal.js';
export { trainFamily } from './train.js';
export { PosencBuffer, PosencError, Status, simdSupported };

// The cores, smallest first (c_src/exports_lite.txt, exports_page.txt, exports_page_attention.txt,
// exports.txt). A family is marked with the smallest that has its C entry points (`family.core`;
// unmarked: 'full'): on the family, not a list here, so an app bundles no family it does not name.
// The package ships 'lean' and 'full'; init({ cores }) gives the others (README "posenc/lite").
const KINDS = ['lean', 'encodings', 'attention', 'full'];
// an export only a core of this kind (and the larger ones) has
const PROBES = { encodings: 'posenc_rope_freqs', attention: 'posenc_attention_gqa', full: 'posenc_kvcache_size' };

/** The smallest core kind with every entry point of `families`. */
function kindFor(families) {
  let at = 0;
  for (const family of families) {
    let k;
    try {
      k = typeof family === 'function' ? family.core : undefined; // a getter: lite.cjs's stand-ins
    } catch {
      k = undefined; // a Proxy that throws: the family check names it
    }
    at = Math.max(at, KINDS.includes(k) ? KINDS.indexOf(k) : KINDS.length - 1);
  }
  return at;
}

/** The kind of a loaded core, from its exports. */
function kindOf(core) {
  let at = KINDS.length - 1;
  while (at > 0 && typeof core.exports[PROBES[KINDS[at]]] !== 'function') at--;
  return at;
}

/** Load the smallest core of kind `at` or larger: one from `cores`, else the package's. */
async function loadKind(o, at, cores, who) {
  for (let i = at; i < KINDS.length; i++) {
    const k = KINDS[i];
    if (cores[k] === undefined) {
      if (k === 'lean' || k === 'full') return loadCore({ simd: o.simd }, { lite: k === 'lean' });
      continue;
    }
    let core;
    try {
      const given = cores[k];
      core = await loadCore({ simd: o.simd, wasm: typeof given === 'function' ? await given() : given });
    } catch (e) {
      throw new PosencError(
        e instanceof PosencError ? e.code : Status.E_PARAM,
        `posenc.${who}: cores.${k} could not be loaded (${reason(e)})`,
        `cores.${k}`,
      );
    }
    if (kindOf(core) < i) {
      const lacks = PROBES[KINDS[kindOf(core) + 1]];
      throw fail(who, `cores.${k}`, Status.E_PARAM, `a posenc ${k} core (it lacks ${lacks})`);
    }
    return core;
  }
}

/** pe.use(...families): `api`'s families and these, on `api`'s core if it has them, else on the
 * smallest that has them; one object per family asked alone (lite.d.ts says more). */
function addUse(api, { o, core, families, cores, lab }) {
  const made = new Map();
  const derive = async (more) => {
    more.forEach((f, i) => {
      if (typeof f !== 'function')
        throw fail('use', `families[${i}]`, Status.E_PARAM, 'a family from posenc/lite, such as ropeFamily', f);
    });
    if (more.length === 0)
      throw fail('use', 'families', Status.E_PARAM, 'one or more families from posenc/lite, such as ropeFamily');
    const fresh = more.filter((f, i) => !families.includes(f) && more.indexOf(f) === i);
    if (fresh.length === 0) return api;
    const at = kindFor(fresh);
    const next = at <= kindOf(core) ? core : await loadKind(o, at, cores, 'use');
    const { api: out, add } = createApi(next, families, { lab, who: 'use' });
    fresh.forEach(add);
    addUse(out, { o, core: next, families: [...families, ...fresh], cores, lab });
    return Object.freeze(out);
  };
  api.use = (...more) => {
    if (more.length !== 1) return derive(more);
    if (!made.has(more[0]))
      made.set(
        more[0],
        derive(more).catch((e) => {
          made.delete(more[0]); // a failed load is asked again next time
          throw e;
        }),
      );
    return made.get(more[0]);
  };
}

/**
 * Load the wasm core and return an API object with the functions of `families` (and what every
 * instance has: backend, alloc, heapBytes, heapInUse, loadLab, labLoaded, use).
 * @param {{ families: Function[], simd?: boolean | 'auto', lab?: boolean | object,
 *   wasm?: BufferSource | WebAssembly.Module | URL | string, cores?: object }} opts
 */
export async function init(opts) {
  const o = options('init', opts, ['families', 'simd', 'wasm', 'lab', 'cores']);
  const families = list('init', 'families', o.families);
  if (!Array.isArray(families) || families.length === 0) {
    throw new PosencError(
      Status.E_PARAM,
      'posenc.init: families must be a non-empty array of families from posenc/lite, ' +
        `such as [sinusoidalFamily] (got ${show(families)})`,
      'families',
    );
  }
  const cores = o.cores === undefined ? {} : options('init', o.cores, KINDS, 'cores');
  const core = o.wasm === undefined ? await loadKind(o, kindFor(families), cores, 'init') : await loadCore(o);
  return assemble(o, families, { core, extend: (api, lab) => addUse(api, { o, core, families, cores, lab }) });
}

export default init;
