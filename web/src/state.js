// One state for the whole page, parsed from and written to the URL, so a link reproduces a view.
// Every value is clamped to a range the API accepts: a hand-edited link can never make a view throw.
// The methods are the registry's (methods.js METHODS: one entry per method).
import { METHOD_CHOICES, PAGE_SCALINGS } from './methods.js';
import { PANEL_VALUES, VIEW_LABELS } from './views/registry.js';

export { ropeOptions } from './methods.js';

/** [id, tab label] per view (views/registry.js, the views' one table). */
export const VIEWS = VIEW_LABELS;
/** The scaling control: none, or a type the controls can set (methods.js, from js/scalings.js). */
export const SCALINGS = ['none', ...PAGE_SCALINGS];
/** The extrapolation lab's positional methods and tasks (views/lab.js). */
export const LAB_METHODS = [
  ['none', 'NoPE'],
  ['learned', 'Learned'],
  ['sinusoidal', 'Sinusoidal'],
  ['rope', 'RoPE'],
  ['alibi', 'ALiBi'],
  ['t5', 'T5 buckets'],
];
// [value, label, training options, suggested steps]: a page task is a library task with its k
export const LAB_TASKS = [
  ['copy', 'Copy the previous token', { task: 'copy', k: 1 }, 300],
  ['ngram', 'Next token of a trigram source (language-like)', { task: 'ngram', k: 3 }, 1000],
  ['copy4', 'Copy the token 4 back', { task: 'copy', k: 4 }, 300],
  ['periodic', 'Continue a periodic pattern', { task: 'periodic' }, 1000],
  ['first', 'Which marked token came first', { task: 'first' }, 300],
];
export const PALETTES = [
  ['bo', 'Blue–orange (diverging)'],
  ['viridis', 'Viridis'],
  ['cividis', 'Cividis'],
  ['gray', 'Grey'],
];

// [key in the URL, default, parser]. A parser carries what it accepts (min, max, step; list), so
// the controls (app.js) offer exactly the values a link may hold.
const int = (min, max, even = false) =>
  Object.assign(
    (s, d) => {
      let v = Math.round(Number(s));
      if (!Number.isFinite(v)) return d;
      v = Math.min(max, Math.max(min, v));
      return even && v % 2 ? v - 1 : v;
    },
    { min, max, step: even ? 2 : 1 },
  );
const num = (min, max) =>
  Object.assign(
    (s, d) => {
      const v = Number(s);
      return Number.isFinite(v) ? Math.min(max, Math.max(min, v)) : d;
    },
    { min, max },
  );
const oneOf = (list) =>
  Object.assign((s, d) => (list.some((x) => (Array.isArray(x) ? x[0] : x) === s) ? s : d), { list });
const text = (max) => (s, d) => (typeof s === 'string' && s.trim() ? s.slice(0, max) : d);
// A switch: `1`/`true` on, `0`/`false` off (a link writes 1 or 0, see urlValue), anything else the default.
const bool = () =>
  Object.assign(
    (s, d) => {
      if (s === true || s === '1' || s === 'true') return true;
      if (s === false || s === '0' || s === 'false') return false;
      return d;
    },
    { list: [true, false] },
  );
/** A state value as a link writes it: a switch as 1 or 0. */
export const urlValue = (v) => (typeof v === 'boolean' ? (v ? '1' : '0') : String(v));

export const FIELDS = {
  // pure: a bundle that parses no link (the lab's worker) keeps none of the views' declarations
  view: ['heatmap', /* @__PURE__ */ oneOf(VIEWS)],
  method: ['sinusoidal', oneOf(METHOD_CHOICES)],
  vs: ['rope', oneOf(METHOD_CHOICES)],
  dim: [64, int(2, 1024, true)],
  base: [10000, num(2, 1e7)],
  length: [128, int(2, 4096)],
  heads: [8, int(1, 32)],
  head: [0, int(0, 31)], // 0-based internally; every label, title and readout shows head + 1
  layout: ['interleaved', oneOf(['interleaved', 'split'])],
  rope: ['half', oneOf(['half', 'interleaved'])],
  scaling: ['none', oneOf(SCALINGS)],
  factor: [2, num(1, 64)],
  train: [64, int(2, 2048)],
  palette: ['bo', oneOf(PALETTES)],
  buckets: [32, int(4, 128, true)],
  maxdist: [128, int(8, 1024)],
  t5dir: ['bidirectional', oneOf(['bidirectional', 'causal'])],
  shawk: [4, int(1, 64)],
  sentence: ['dog bites man', text(120)],
  order: ['', text(400)],
  causal: [false, bool()], // Shuffle lab: both orders under a causal mask (each token sees itself and those before it)
  pos: [5, int(0, 100000)],
  embed: [0, int(0, 1)],
  // extrapolation lab: task, methods (comma list), optimiser steps, seed
  labtask: ['copy', oneOf(LAB_TASKS)],
  labmethods: [
    LAB_METHODS.map(([m]) => m).join(','),
    (s, d) => {
      const ok = String(s)
        .split(',')
        .filter((m) => LAB_METHODS.some(([v]) => v === m));
      return ok.length ? [...new Set(ok)].join(',') : d;
    },
  ],
  labsteps: [300, int(10, 2000)],
  labseed: [0, int(0, 99999)],
  labseeds: [1, int(1, 5)], // the lab trains seeds labseed .. labseed + labseeds - 1 per method
  kpos: [8, int(0, 100000)], // Rotation: the key's position n (pos is the query's m)
  speed: [2, num(0.25, 32)], // Rotation: Play speed in positions per second
  shift: [3, int(0, 1000)], // Shift identity: the offset k in PE(p + k) = M_k · PE(p)
  panel: ['', /* @__PURE__ */ oneOf(PANEL_VALUES)], // multi-panel views: '' = all panels
  // RoPE scaling: a real model (web/src/views/scaling_models.js MODELS ids, in its order: a list of
  // its own so the link parser carries no model config; tests/views_text.test.js holds it to MODELS)
  preset: [
    '',
    oneOf([
      '',
      'llama31-8b',
      'llama32-1b',
      'llama4-scout',
      'codellama-7b',
      'mistral-7b',
      'ministral3-3b',
      'phi35-mini',
      'phi4-mini',
      'qwen25-vl-7b',
      'deepseek-v2-lite',
      'gemma2-2b',
      'gemma3-1b',
      'chatglm3-6b',
      'internlm25-7b',
      'minicpm-2b',
      'gptj-6b',
      'stablelm2-1.6b',
    ]),
  ],
  // Shell keys (navigation, theme, trims). `head` above stays 0-based internally; every label,
  // title and readout shows it counted from 1.
  step: ['', text(40)],
  theme: ['auto', oneOf(['auto', 'light', 'dark'])],
  controls: ['', oneOf(['', 'none', 'own', 'all'])], // '' = own on the page, none in an embed
  hide: ['', text(40)], // 'title', 'intro' or both ("title,intro")
};
/** Keys that describe where and how the page is shown, not what it shows: a guided step keeps them. */
export const ENV_KEYS = ['embed', 'theme', 'controls', 'hide', 'panel'];

export function parseState(params) {
  const st = {};
  // No view and no step in the link: the guided path at its first step (see app.js).
  st.guided = !params.has('view') || params.has('step');
  for (const [k, [def, parse]] of Object.entries(FIELDS)) {
    st[k] = params.has(k) ? parse(params.get(k), def) : def;
  }
  st.head = Math.min(st.head, st.heads - 1);
  return st;
}

/** Only non-default values go into the URL, so links stay short. */
export function toParams(st) {
  const p = new URLSearchParams();
  for (const [k, [def]] of Object.entries(FIELDS)) {
    if (st[k] !== undefined && st[k] !== def) p.set(k, urlValue(st[k]));
  }
  return p;
}
