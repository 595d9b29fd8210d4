// posenc/lite: the same API object as `posenc`, holding only the families an app names, so a
// bundler leaves the others out of the app (`posenc`'s init() carries every family: attention,
// the KV cache and the trainer are most of its JS).
//
//   import { init, use, sinusoidalFamily, ropeFamily, attentionFamily } from 'posenc/lite';
//   const pe = await init({ families: [sinusoidalFamily, ropeFamily] });
//   pe.sinusoidal({ length: 128, dim: 64 });
//   const pa = await use(pe, attentionFamily); // later: pe's functions and attention's
//
// Each family is the list of functions of one docs/ page (index.js FAMILIES lists them all).
import { assemble, createApi, loadCore } from './api.js';
import { PosencBuffer } from './core.js';
import { PosencError, Status } from './errors.js';
import { simdSupported } from './loader.js';
import { fail, list, options, reason } from './validate.js';

// <generated: families> by tools/gen_decls.js from the declarations (families/NAME/decl.js)
export { sinusoidalFamily } from '../families/sinusoidal/sinusoidal.js';
export { ropeFamily } from '../families/rope/rope.js';
export { relativeFamily } from '../families/relative/relative.js';
export { learnedFamily } from '../families/learned/learned.js';
export { attentionFamily } from '../families/attention/attention.js';
export { kvCacheFamily } from '../families/kvcache/kvcache.js';
export { trainFamily } from '../families/train/train.js';
export { configFamily } from '../families/config/config.js';
// </generated: families>
export { PosencBuffer, PosencError, Status, simdSupported };

// The cores, smallest first (c_src/exports_lite.txt, exports_page.txt, exports_page_attention.txt,
// exports.txt). A family is marked with the smallest that has its C entry points (`family.core`;
// unmarked: 'full'), so an app bundles no list of families. The package ships 'lean' and 'full';
// init({ cores }) gives use() the others.
const KINDS = ['lean', 'encodings', 'attention', 'full'];
// an export only a core of that kind (and the larger ones) has
const PROBES = ['', 'posenc_rope_freqs', 'posenc_attention_gqa', 'posenc_kvcache_size'];

/** The index in KINDS of the smallest core with a family's entry points (unmarked, -1: 'full'). */
function rank(family) {
  try {
    return (KINDS.indexOf(family.core) + 4) % 4; // a getter in lite.cjs's stand-ins
  } catch {
    return 3; // a Proxy that throws: the family check names it
  }
}

/** The kind of a loaded core (an index in KINDS), from its exports. */
function kindOf(core) {
  let at = 3;
  while (at && typeof core.exports[PROBES[at]] !== 'function') at--;
  return at;
}

/** Load the smallest core of kind `at` or larger for use(): one from `cores`, else the package's. */
async function loadKind(o, at, cores) {
  while (at % 3 && cores[KINDS[at]] === undefined) at++;
  const k = KINDS[at];
  const given = cores[k];
  if (given === undefined) return loadCore({ simd: o.simd }, { lite: !at });
  try {
    const core = await loadCore({ simd: o.simd, wasm: typeof given === 'function' ? await given() : given });
    // the kinds nest: a core with this kind's probe export has the smaller kinds' too
    if (at && typeof core.exports[PROBES[at]] !== 'function') throw new Error(`it lacks ${PROBES[at]}`);
    return core;
  } catch (e) {
    throw fail('use', `cores.${k}`, Status.E_PARAM, `a posenc ${k} core (${reason(e)})`);
  }
}

// what use() needs of each API object init() and use() made
const made = new WeakMap();

/** use(pe, ...families) (lite.d.ts): a function, not a method, so an app that adds no family does
 * not bundle it. */
export function use(pe, ...more) {
  const x = made.get(pe);
  if (!x) return Promise.reject(fail('use', 'pe', Status.E_PARAM, 'an API object of posenc/lite init() or use()', pe));
  const [f] = more;
  if (more.length !== 1) return derive(pe, x, more);
  // a failed load is asked again next time
  if (!x.cache.has(f))
    x.cache.set(
      f,
      derive(pe, x, more).catch((e) => (x.cache.delete(f), Promise.reject(e))),
    );
  return x.cache.get(f);
}

async function derive(pe, x, more) {
  if (!more.length) throw fail('use', 'families', Status.E_PARAM, 'one or more families from posenc/lite');
  more.forEach((f, i) => {
    if (typeof f !== 'function') throw fail('use', `families[${i}]`, Status.E_PARAM, 'a family from posenc/lite', f);
  });
  const fresh = [...new Set(more)].filter((f) => !x.families.includes(f));
  if (!fresh.length) return pe;
  const at = Math.max(...fresh.map(rank));
  const core = at > kindOf(x.core) ? await loadKind(x.o, at, x.cores) : x.core;
  const { api, add } = createApi(core, x.families, { lab: x.lab, who: 'use' });
  fresh.forEach(add);
  made.set(api, { ...x, core, families: [...x.families, ...fresh], cache: new Map() });
  return Object.freeze(api);
}

/**
 * Load the wasm core and return an API object with the functions of `families` (and what every
 * instance has: backend, alloc, heapBytes, heapInUse, loadLab, labLoaded).
 * @param {{ families: Function[], simd?: boolean | 'auto', lab?: boolean | object,
 *   wasm?: BufferSource | WebAssembly.Module | URL | string, cores?: object }} opts
 */
export async function init(opts) {
  const o = options('init', opts, ['families', 'simd', 'wasm', 'lab', 'cores']);
  const families = list('init', 'families', o.families);
  if (!Array.isArray(families) || families.length === 0)
    throw fail('init', 'families', Status.E_PARAM, 'a non-empty array of families from posenc/lite', families);
  const cores = o.cores === undefined ? {} : options('init', o.cores, KINDS, 'cores');
  // the lean core when every family is lean (unless `wasm` gives the core), else the whole one
  const core = await loadCore(o, { lite: families.every((f) => !rank(f)) });
  const extend = (api, lab) => made.set(api, { o, core, families, cores, lab, cache: new Map() });
  return assemble(o, families, { core, extend });
}

export default init;
