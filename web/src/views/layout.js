// What the views' declarations (views/<id>.view.js) compute with: the state keys a method reads
// (their controls) and the height of the figures a view lays out, so the page can reserve a view's
// space from the state before its chunk or the wasm arrives. No DOM: Node tools and tests read it.
import { METHODS } from '../methods.js';

// The state keys each method reads (the methods' table), and all of them in the catalogue's order.
const keysByMethod = (methods) => Object.fromEntries(Object.entries(methods).map(([id, m]) => [id, m.keys]));
const BY_METHOD = /* @__PURE__ */ keysByMethod(METHODS);
export const ALL = /* @__PURE__ */ [
  'dim',
  'length',
  'base',
  'layout',
  'heads',
  'head',
  'rope',
  'scaling',
  'factor',
  'train',
  'buckets',
  'maxdist',
  't5dir',
  'shawk',
].filter((k) => Object.values(BY_METHOD).some((keys) => keys.includes(k)));
export const uniq = (xs) => [...new Set(xs)];
// A scaling's factor and original length mean nothing without a scaling: hidden until one is
// chosen (a view that reads the train length for itself lists it on its own).
export const live = (keys, st) => (st.scaling === 'none' ? keys.filter((k) => k !== 'factor' && k !== 'train') : keys);
/** The keys `method` reads under state st. */
export const keysOf = (method, st) => live(BY_METHOD[method] ?? [], st);
export const forMethods = (st, ...ms) => uniq(ms.flatMap((m) => keysOf(m, st)));

/** Height of a matrix panel (caption, figure with axes, legend, readout) at a container width. */
export function matrixH(width, rows, cols, { square = false, small = false, names = false } = {}) {
  const ml = 52,
    mr = 8;
  const w = width - ml - mr;
  const maxH = small ? 260 : 520,
    minH = small ? 90 : 160;
  const h = square || rows === cols ? Math.min(w, maxH) : Math.round(Math.max(minH, Math.min(maxH, (w * rows) / cols)));
  return 6 + h + (names ? 58 : 36) + 24 + 22 + 26 + 12;
}
export const plotH = (h) => h + 2 + 22 + 30 + 26 + 14;
export const formulaW = (width) => (width > 900 ? Math.min(300, Math.max(220, width * 0.28)) + 16 : 0);
export const HEAD = 110; // title, intro, padding
export const matSide = (st, method) => (METHODS[method] && !METHODS[method].table ? Math.min(st.length, 512) : null);
