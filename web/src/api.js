// The page's API: posenc/lite, the package's public entry, with the encodings (sinusoidal, RoPE,
// relative biases, learned), which come with the shell. Attention (Bias, Shuffle lab) and the
// trainer are chunks of their own that a view adds with use(pe, name) (views' `needs`: before the
// view is set up; the lab adds the trainer itself when it trains without a worker). No view calls
// the KV cache: the page's API has none.
//
// The wasm: one of the page's own two cores (page-cores.js), the encodings core for an embed whose
// view calls no attention, the attention core for the page itself; the attention core is also
// posenc/lite's `cores` entry, which its use() fetches when a view on the encodings core adds
// attention. Without SIMD, the package's scalar core.
import {
  learnedFamily,
  init as liteInit,
  relativeFamily,
  ropeFamily,
  simdSupported,
  sinusoidalFamily,
  use as liteUse,
} from 'posenc/lite';
import STANDIN from '../../dist/posenc-standin.wasm.js';
import { PAGE_CORES } from './page-cores.js';

export { simdSupported };

const ENCODINGS = [sinusoidalFamily, ropeFamily, relativeFamily, learnedFamily];

/** The families a view may add, by the names views give in `needs`. */
const LATER = {
  attention: () => import('./families/attention.js').then((m) => m.attentionFamily),
  train: () => import('./families/train.js').then((m) => m.trainFamily),
};

/** Which of the page's cores each API runs on (a worker loads the same file, from the cache). */
const kinds = new WeakMap();
export const coreOf = (pe) => kinds.get(pe) ?? 'full';

/**
 * Load the wasm core: `{ wasm }` (bytes, Module or URL) as posenc/lite's init takes it, else one
 * of the page's cores, `{ core: 'lean' | 'attention' }` (default 'attention'): 'lean' starts on the
 * encodings core and moves to the attention core when a view adds attention (use() below).
 */
export async function init({ wasm, core = 'attention' } = {}) {
  const page = wasm === undefined && simdSupported() && (core === 'lean' || core === 'attention');
  const o = page
    ? { wasm: await PAGE_CORES[core](), cores: { attention: PAGE_CORES.attention } }
    : wasm === undefined
      ? {}
      : { wasm };
  const pe = await liteInit({ families: ENCODINGS, ...o });
  kinds.set(pe, page ? core : 'full');
  return pe;
}

/**
 * pe with the family a view names ('attention' or 'train'): the API posenc/lite's use() resolves
 * to (on the encodings core, adding attention moves to the attention core; the shell moves the view
 * to it, app.js attach()). Each API hands every caller the same one, so every element on a page
 * shares it. The stand-in's is the stand-in with that family.
 */
export function use(pe, name) {
  if (!Object.hasOwn(LATER, name)) return Promise.reject(new Error(`the page has no family named ${name}`));
  const inner = stand.get(pe);
  return LATER[name]().then((family) => (inner ? liteUse(inner, family).then(typical) : liteUse(pe, family)));
}

/**
 * The stand-in API the page lays a view out with while the wasm is on its way: posenc/lite on the
 * stand-in core (tools/standin_wasm.js: every entry point returns OK and writes nothing), so every
 * result has its real shape (lengths, rows, columns) and the view's layout (text, figures at their
 * real sizes, panels) is the final one before a single number has arrived; nothing moves when the
 * numbers do (app.js attach() swaps in the real API). Float32 results hold TYPICAL and float64
 * arrays (frequencies) TYPICAL_FREQ, so tables and formulas wrap as they will with the real
 * numbers; integers (counts, indices) stay zero. Resolves to the API with `stub: true`.
 */
export async function stubApi() {
  const wasm = Uint8Array.from(atob(STANDIN), (c) => c.charCodeAt(0));
  return typical(await liteInit({ families: ENCODINGS, wasm }));
}

const TYPICAL = Math.fround(-0.841470957);
// a frequency as wide in print as most real ones (10000^(-1/2), 0.01 with six digits: "0.0100000")
const TYPICAL_FREQ = 0.0316227766;
/** A result of the stand-in with its float arrays filled as the real ones print. */
function fill(r) {
  if (r instanceof Float32Array) r.fill(TYPICAL);
  else if (r instanceof Float64Array && r.length >= 2)
    r.fill(TYPICAL_FREQ)[0] = 1; // base^0: every family's first
  else if (Array.isArray(r) || (r && Object.getPrototypeOf(r) === Object.prototype)) Object.values(r).forEach(fill);
  return r;
}
// each stand-in API's lite API, and back
const stand = new WeakMap();
const typicals = new WeakMap();
/** `pe` (on the stand-in core) with its results filled, and no lab. */
function typical(pe) {
  if (typicals.has(pe)) return typicals.get(pe);
  const out = { stub: true };
  for (const [k, d] of Object.entries(Object.getOwnPropertyDescriptors(pe))) {
    if (d.get) Object.defineProperty(out, k, { get: () => pe[k], enumerable: true });
    else out[k] = typeof d.value === 'function' ? (...args) => fill(d.value(...args)) : d.value;
  }
  out.loadLab = () => new Promise(() => {}); // never: the lab trains only with the real core
  typicals.set(pe, Object.freeze(out));
  stand.set(out, pe);
  return out;
}
