// The page shell: one state, the guided path or the explorer's tabs around the current view, the
// controls that view reads, exports, theme and trims. Rendering is coalesced to one per animation
// frame, so a slider drag never queues redraws.
import { esc } from './draw.js';
import { finiteMinMax, makePool } from './methods.js';
import { ENV_KEYS, FIELDS, parseState, toParams, urlValue } from './state.js';
import { rangeText } from './views/common.js';
import * as registry from './views/index.js';

// Views are loaded on demand (views/index.js: SETUP[name]() resolves to the view's setup).
const { SETUP } = registry;
const NEEDS = registry.NEEDS ?? {};
// VIEW_INFO comes from the views' side; a view without it shows every control.
const VIEW_INFO = registry.VIEW_INFO ?? {};
// The guided path's steps (their texts) are a chunk of their own, loaded only in guided mode:
// loadSteps() before resolveState() or goStep() of a guided state. A step whose view is not
// registered in this build is skipped.
let STEPS = [];
let stepsLoading = null;
export function loadSteps() {
  stepsLoading ??= import('./steps.js').then((m) => {
    STEPS = m.STEPS.filter((s) => SETUP[s.view]);
    return STEPS;
  });
  return stepsLoading;
}
/** The guided path's steps, once loadSteps() has brought them (else none). */
export const steps = () => STEPS;

/**
 * The compute runner (compute.js) behind a door: its module and its worker (a second copy of the
 * core) are loaded by the first job, so a view that runs none (most) downloads neither.
 */
export function lazyCompute(pe, opts = {}) {
  let real = null;
  let loading = null;
  const wouldWork = () => opts.useWorker !== false && typeof Worker !== 'undefined' && /^https?:$/.test(location.protocol);
  return {
    get inWorker() {
      return real ? real.inWorker : wouldWork();
    },
    run(job, st, o) {
      loading ??= import('./compute.js').then((m) => (real = m.createCompute(pe, opts)));
      const snapshot = { ...st };
      return loading.then((c) => c.run(job, snapshot, o));
    },
  };
}

/** Call fn once the app in `root` has laid its view out: with the stand-in API or, when the
 * wasm came first, with the real one. */
export function onLaidOut(root, fn) {
  if (root.dataset.layout) return void fn();
  const once = () => {
    root.removeEventListener('posenc-layout', once);
    root.removeEventListener('posenc-render', once);
    fn();
  };
  root.addEventListener('posenc-layout', once);
  root.addEventListener('posenc-render', once);
}

/** Start loading a view's chunk (e.g. while the wasm is still on its way); resolves to its setup. */
const chunks = new Map();
const arrived = new Map(); // name -> setup, once its chunk is here
export function preloadView(name) {
  if (!SETUP[name]) return Promise.resolve(null);
  if (!chunks.has(name)) {
    const p = SETUP[name]();
    chunks.set(name, p);
    p.then((setup) => arrived.set(name, setup), () => chunks.delete(name));
  }
  return chunks.get(name);
}
/** The API families (web/src/api.js LATER) view `name` calls beyond the encodings. */
const needs = (name) => NEEDS[name] ?? [];
/** The page's core (api.js) a lone view needs: the lean one unless it calls attention. */
export const coreFor = (name) => (needs(name).includes('attention') ? 'attention' : 'lean');

export const opts = (list) => list.map((x) => (Array.isArray(x) ? x : [x, x])).map(([v, l]) => `<option value="${esc(v)}">${esc(l)}</option>`).join('');
/** The one catalogue of controls, keyed by state key: [group, label, kind, options]. Order =
 * display order. Bounds, steps and choices are the state field's own (state.js FIELDS): a control
 * offers exactly what a link may hold. */
const CONTROLS = {
  method: ['Encoding', 'method', 'select'],
  dim: ['Encoding', 'dim', 'range'],
  length: ['Encoding', 'length', 'range'],
  base: ['Encoding', 'base', 'number', { step: 'any' }],
  heads: ['Encoding', 'heads', 'range'],
  // `head` is 0-based in the state; the control and its readout count from 1.
  head: ['Encoding', 'head shown', 'range', { toUi: (v) => v + 1, fromUi: (v) => v - 1 }],
  layout: ['Encoding', 'sinusoid layout', 'select'],
  rope: ['RoPE', 'pair layout', 'select'],
  scaling: ['RoPE', 'scaling', 'select'],
  factor: ['RoPE', 'factor', 'number', { step: 0.5 }],
  train: ['RoPE', 'train length', 'range'],
  buckets: ['Biases', 'T5 buckets', 'range'],
  maxdist: ['Biases', 'T5 max distance', 'range'],
  t5dir: ['Biases', 'T5 direction', 'select'],
  shawk: ['Biases', 'Shaw k', 'range'],
  vs: ['Display', 'compare with', 'select'],
  // Multi-panel views (Bias): which panel to show; the options are the view's VIEW_INFO panels.
  panel: ['Display', 'panel', 'select'],
  palette: ['Display', 'palette', 'select'],
};
/** [group, label, input]: the input's kind, bounds, step and list from the field's parser. */
const CONTROL_DEFS = Object.fromEntries(Object.entries(CONTROLS).map(([key, [group, label, kind, o = {}]]) => {
  const f = FIELDS[key][1];
  const ui = o.toUi ?? ((v) => v);
  return [key, [group, label, { kind, list: f.list, min: f.min === undefined ? undefined : ui(f.min), max: f.max === undefined ? undefined : ui(f.max), step: f.step ?? 1, ...o }]];
}));

function controlHtml(key, view) {
  const [, catalogued, d] = CONTROL_DEFS[key];
  // A view may name a control for what it means there (the learned table's "train length" is its
  // number of rows).
  const label = esc(VIEW_INFO[view]?.labels?.[key] ?? catalogued);
  const id = `c-${key}`;
  if (key === 'panel') return `<label>${label} <select name="panel">${opts([['', 'all'], ...(VIEW_INFO[view]?.panels ?? []).map((p) => [p.id, p.label])])}</select></label>`;
  if (d.kind === 'select') return `<label>${label} <select name="${key}">${opts(d.list)}</select></label>`;
  if (d.kind === 'number') return `<label>${label} <input name="${key}" type="number" min="${d.min}" max="${d.max}" step="${d.step}" inputmode="decimal"></label>`;
  return `<label>${label} <span class="io"><input name="${key}" type="range" min="${d.min}" max="${d.max}" step="${d.step}" aria-describedby="${id}"><output id="${id}"></output></span></label>`;
}

/** Which state keys get a control: the view's own (VIEW_INFO), all, or none. */
function controlKeys(view, mode, state) {
  if (mode === 'none') return [];
  // controlsFor(state): the subset the current method reads (e.g. no T5 sliders beside a sinusoid)
  const info = VIEW_INFO[view];
  const own = (state && info?.controlsFor?.(state)) ?? info?.controls;
  const keys = mode === 'all' || !Array.isArray(own) ? Object.keys(CONTROL_DEFS) : own;
  // The panel picker belongs to every view that has panels, and to no other.
  const panels = info?.panels?.length > 0;
  return Object.keys(CONTROL_DEFS).filter((k) => (k === 'panel' ? panels : keys.includes(k)));
}

function controlsHtml(keys, view, folded) {
  const groups = new Map();
  for (const k of keys) {
    const g = VIEW_INFO[view]?.groups?.[k] ?? CONTROL_DEFS[k][0];
    if (!groups.has(g)) groups.set(g, []);
    groups.get(g).push(controlHtml(k, view));
  }
  // In a narrow column the controls sit above the figure; the fold button (shown there only)
  // tucks them away so the figure comes up.
  const fold = `<button type="button" class="fold" aria-expanded="${!folded}" aria-controls="control-sets">${folded ? 'Show controls' : 'Hide controls'}</button>`;
  return `${fold}<div class="sets" id="control-sets">${[...groups].map(([g, items]) => `<fieldset><legend>${g}</legend>${items.join('')}</fieldset>`).join('')}</div>`;
}

// The column width at and below which the controls sit above the figure (style.css @container).
const NARROW = 700;
let apps = 0;

/** The height a view will take at `width`, known before the wasm arrives (0 = unknown). */
export function reservedHeight(state, width) {
  try {
    const h = VIEW_INFO[state.view]?.height?.(state, width);
    return Number.isFinite(h) && h > 0 ? Math.round(h) : 0;
  } catch {
    return 0;
  }
}

/** Apply a guided step: defaults, then the step's patch, keeping where/how the page is shown. */
export function stepState(step, env, overrides = null) {
  const st = parseState(new URLSearchParams());
  for (const k of ENV_KEYS) if (k in env) st[k] = env[k];
  Object.assign(st, step.state, { view: step.view, step: step.id, guided: true });
  if (overrides) {
    for (const k of Object.keys(FIELDS)) if (overrides.has(k) && k !== 'view' && k !== 'step') st[k] = FIELDS[k][1](overrides.get(k), st[k]);
  }
  st.head = Math.min(st.head, st.heads - 1);
  return st;
}

/** Resolve the initial state: a link without view or with step is the guided path. */
export function resolveState(state, params = new URLSearchParams()) {
  if (!state.guided || !STEPS.length) return Object.assign(state, { guided: false, step: '' });
  const step = STEPS.find((s) => s.id === state.step) ?? STEPS[0];
  return Object.assign(state, stepState(step, state, params));
}

/** The link of a state: guided → ?step=id plus what differs from the step; explorer → ?view=…. */
export function urlOf(st) {
  if (st.guided) {
    const step = STEPS.find((s) => s.id === st.step) ?? STEPS[0];
    const p = new URLSearchParams([['step', step.id]]);
    for (const [k, [def]] of Object.entries(FIELDS)) {
      if (k === 'view' || k === 'step') continue;
      const base = k in step.state ? step.state[k] : def;
      if (st[k] !== undefined && st[k] !== base) p.set(k, urlValue(st[k]));
    }
    return `?${p}`;
  }
  const p = toParams({ ...st, step: '' });
  p.delete('view');
  return `?${new URLSearchParams([['view', st.view], ...p]).toString()}`;
}

/**
 * Mount the page (or one chrome-less view) into `root`.
 * @param {HTMLElement} root
 * @param {{ state: object, chrome?: object, url?: boolean, pe: object }} o  pe: the stand-in API
 *   (api.js stubApi()) until attach() brings the real one with its compute runner; chrome: the
 *   page's chrome module (chrome.js), or none for an embed or an element
 */
export function createApp(root, { pe: firstPe, state, chrome = null, url = true }) {
  let pe = firstPe;
  const reducedMotion = globalThis.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
  // Inside <posenc-view> focus lives in the shadow root: document.activeElement is the host
  // element there, so views must ask the shell which element has focus.
  const activeElement = () => root.getRootNode().activeElement ?? null;
  // `pe` may be the stand-in API (api.js stubApi(): results in their real shapes) while the wasm loads:
  // the view is then laid out at its final size and attach() swaps the real API in.
  const ctx = { pe, pool: makePool(pe), compute: lazyCompute(pe, { useWorker: false }), reducedMotion, setState, activeElement, root };
  root.classList.add('posenc-app');
  root.dataset.motion = reducedMotion ? 'reduced' : 'full';
  root.innerHTML = `${chrome ? chrome.top : ''}
    <div class="layout"><form class="controls" aria-label="controls"></form>
      <div class="stage" id="figure-panel"><div class="host" id="figure" tabindex="-1" role="region" aria-label="figure" aria-describedby="figure-desc"></div>
      <p class="sr-only" id="figure-desc"></p>${chrome ? chrome.bottom : ''}</div></div>`;
  const host = root.querySelector('.host');
  const form = root.querySelector('.controls');
  const stage = root.querySelector('.stage');
  const desc = root.querySelector('#figure-desc');
  let current = null;
  let page = null; // the chrome's sync(), once mounted
  let pending = 0;
  let destroyed = false;
  // Views whose chunk and API families have arrived: name -> setup. Until then render() waits
  // (no posenc-render event) and renders again when they are here.
  const ready = new Map();
  const loading = new Set();
  function load(name) {
    if (loading.has(name)) return;
    loading.add(name);
    const forPe = pe;
    Promise.all([preloadView(name), ...needs(name).map((f) => forPe.use?.(f))]).then(([setup, ...apis]) => {
      loading.delete(name);
      // On the lean core (api.js) use('attention') resolves to an API on the core with attention:
      // move to it (attach() renders, and the view loads again there).
      const other = apis.find((a) => a && a !== forPe);
      if (other && forPe === pe) return attach(other, ctx.compute);
      // The families were added to the API of that moment: after attach() add them to the new one.
      if (forPe === pe) ready.set(name, setup);
      else load(name);
      schedule();
    }, (e) => {
      loading.delete(name);
      host.replaceChildren(Object.assign(document.createElement('p'), { className: 'error', textContent: `Could not load the ${name} view: ${e?.message ?? e}` }));
    });
  }
  let formFor = '';
  let folded = false;
  let placed = false; // panel controls moved into the view's slots
  let width = 0; // the root's width, from the ResizeObserver below
  form.id = `posenc-controls-${++apps}`;
  const frames = (globalThis.__posencFrames ??= []);

  // The stand-in's numbers are as wide as a float32 gets (api.js TYPICAL); the real ones are
  // mostly narrower, and text around them can take a line less. So the first real render keeps
  // the laid-out height as a minimum until the reader changes something or the width changes.
  function hold(px) {
    if (px > 0) host.style.minHeight = `${Math.ceil(px)}px`;
    else host.style.removeProperty('min-height');
  }
  function setState(patch) {
    hold(0);
    Object.assign(state, patch);
    state.head = Math.min(state.head, state.heads - 1);
    if (url) writeUrl();
    schedule();
  }
  // The URL follows the state, but at most every 200 ms: browsers throttle (and warn about) a
  // replaceState per animation frame during a drag or the rotation animation.
  let urlTimer = 0;
  function writeUrl() {
    if (urlTimer) return;
    urlTimer = setTimeout(() => {
      urlTimer = 0;
      history.replaceState(null, '', urlOf(state));
    }, 200);
  }
  /** Move to a guided step or to the explorer as a navigation: a new history entry. */
  function navigate(next, push = true) {
    hold(0);
    clearTimeout(urlTimer);
    urlTimer = 0;
    for (const k of Object.keys(state)) if (!(k in next)) delete state[k];
    Object.assign(state, next);
    if (url && push) history.pushState(null, '', urlOf(state));
    schedule();
  }
  function goStep(i) {
    const step = STEPS[Math.max(0, Math.min(STEPS.length - 1, i))];
    navigate(stepState(step, state));
  }
  function schedule() {
    if (!pending && !destroyed) pending = requestAnimationFrame(render);
  }
  function render() {
    cancelAnimationFrame(pending);
    pending = 0;
    if (destroyed) return;
    const t0 = performance.now();
    root.dataset.theme = state.theme;
    root.classList.toggle('hide-title', /title/.test(state.hide));
    root.classList.toggle('hide-intro', /intro/.test(state.hide));
    if (!current || current.name !== state.view) {
      // A view needing no extra API family can start as soon as its chunk is here.
      const setup = ready.get(state.view) ?? (!needs(state.view).length && arrived.get(state.view));
      if (!setup) {
        load(state.view);
        syncChrome();
        return;
      }
      current?.api.destroy?.();
      host.replaceChildren();
      current = { name: state.view, api: setup(host, ctx) };
    }
    if (pe.stub) {
      // The layout pass: no frame is counted, no render event, no description of zeros.
      try {
        current.api.update(state);
      } catch {
        // a view that cannot lay out without numbers keeps its skeleton
      }
      syncChrome();
      root.dataset.layout = 'stub';
      root.dispatchEvent(new CustomEvent('posenc-layout', { bubbles: true, composed: true, detail: { view: state.view } }));
      return;
    }
    root.dataset.layout = 'live';
    current.api.update(state);
    syncChrome();
    const ms = performance.now() - t0;
    frames.push(ms);
    if (frames.length > 600) frames.splice(0, frames.length - 600);
    const perf = root.querySelector('.perf');
    if (perf) perf.textContent = `${pe.backend} · ${ms.toFixed(1)} ms`;
    describeSoon();
    root.dispatchEvent(new CustomEvent('posenc-render', { bubbles: true, composed: true, detail: { view: state.view, ms } }));
  }

  // Screen readers get what the figure shows, its size and its range. The view may say it itself
  // (describe()); otherwise it is read from the export payload, once a drag has settled.
  let descTimer = 0;
  function describeSoon() {
    clearTimeout(descTimer);
    descTimer = setTimeout(() => {
      const api = current?.api;
      let text = '';
      try {
        text = api?.describe?.() ?? describeData(api?.exportData?.());
      } catch {
        text = '';
      }
      const title = host.querySelector('h2')?.textContent ?? state.view;
      text = `${title}. ${text}`.trim();
      if (desc.textContent !== text) desc.textContent = text;
    }, 300);
  }

  function syncChrome() {
    const mode = state.controls || (state.embed || !chrome ? 'none' : 'own');
    const keys = controlKeys(state.view, mode, state);
    const key = `${state.view}|${mode}|${keys.join()}`;
    const build = () => {
      formFor = key;
      form.innerHTML = controlsHtml(keys, state.view, folded);
      // Every input names its form, so it stays one of form.elements wherever it is placed.
      for (const el of form.querySelectorAll('input, select')) el.setAttribute('form', form.id);
      form.classList.toggle('folded', folded);
      form.hidden = keys.length === 0;
      root.classList.toggle('no-controls', keys.length === 0);
      for (const slot of host.querySelectorAll('.control-slot')) slot.replaceChildren();
      placed = false;
    };
    if (key !== formFor) build();
    // In a narrow column (the CSS puts the controls above the figure there) a view's panel
    // controls go right above the panel they change: the view marks the place with
    // <div class="control-slot" data-keys="buckets,maxdist">. Back in the sidebar when wide.
    const slots = [...host.querySelectorAll('.control-slot')];
    const want = !form.hidden && slots.length > 0 && (width || root.clientWidth) <= NARROW;
    if (placed && (!want || slots.some((x) => !x.dataset.placed))) build();
    if (want && !placed) {
      for (const slot of slots) {
        for (const k of slot.dataset.keys.split(',')) {
          const label = form.querySelector(`[name="${k}"]`)?.closest('label');
          if (label) slot.append(label);
        }
        slot.dataset.placed = '1';
      }
      for (const fs of form.querySelectorAll('fieldset')) fs.hidden = !fs.querySelector('label');
      placed = true;
    }
    if (!form.hidden) syncControls();
    page?.sync();
  }

  function syncControls() {
    for (const el of form.elements) {
      if (!el.name || !(el.name in state)) continue;
      const d = CONTROL_DEFS[el.name]?.[2];
      // Touch the DOM only on change: a drag must not restyle every control each frame.
      const v = String(d?.toUi ? d.toUi(state[el.name]) : state[el.name]);
      if (el.name === 'head' && el.max !== String(state.heads)) el.max = String(state.heads);
      if (el.value !== v && (activeElement() !== el || el.type !== 'number')) el.value = v;
      const out = el.parentElement.querySelector('output');
      if (out && out.textContent !== v) out.textContent = v;
    }
  }

  form.addEventListener('submit', (e) => e.preventDefault());
  form.addEventListener('click', (e) => {
    const b = e.target.closest('.fold');
    if (!b) return;
    folded = !folded;
    form.classList.toggle('folded', folded);
    b.setAttribute('aria-expanded', String(!folded));
    b.textContent = folded ? 'Show controls' : 'Hide controls';
  });
  // On the root: a control placed in a view's slot is outside the form element.
  root.addEventListener('input', (e) => {
    const el = e.target;
    if (el.form !== form) return;
    const f = FIELDS[el.name];
    if (!f) return;
    if (el.type === 'number' && el.value === '') return;
    const d = CONTROL_DEFS[el.name]?.[2];
    const raw = d?.fromUi ? String(d.fromUi(Number(el.value))) : el.value;
    setState({ [el.name]: f[1](raw, state[el.name]) });
  });

  // The page's own chrome (chrome.js: mode bar, guided path, tabs, exports), wired to this app.
  page = chrome ? chrome.mount({ root, host, stage, state, setState, navigate, goStep, current: () => current }) : null;
  // Listeners outside the root are removed by destroy(): a removed <posenc-view> must not stay
  // reachable from the window (a blog's client-side navigation removes one per page change).
  const onPop = () => {
    const params = new URLSearchParams(location.search);
    const next = parseState(params);
    (next.guided ? loadSteps() : Promise.resolve()).then(() => {
      navigate(resolveState(next, params), false);
      document.documentElement.dataset.theme = state.theme;
    });
  };
  if (url) addEventListener('popstate', onPop);
  // A theme that follows the system repaints the canvases when the system switches.
  const scheme = globalThis.matchMedia?.('(prefers-color-scheme: dark)');
  const onScheme = () => state.theme === 'auto' && schedule();
  scheme?.addEventListener?.('change', onScheme);
  // Plots and circles are drawn at the element's pixel width: redraw when the width changes.
  const resized = new ResizeObserver(([e]) => {
    const w = Math.round(e.contentRect.width);
    if (width && w !== width) {
      hold(0);
      schedule();
    }
    width = w;
  });
  resized.observe(root);
  /** Take the app down: its view (an animation stops), its heap buffers, its listeners and timers.
   * Nothing renders afterwards; the root is left empty. */
  function destroy() {
    if (destroyed) return;
    destroyed = true;
    cancelAnimationFrame(pending);
    pending = 0;
    clearTimeout(urlTimer);
    clearTimeout(descTimer);
    if (url) removeEventListener('popstate', onPop);
    scheme?.removeEventListener?.('change', onScheme);
    resized.disconnect();
    try {
      current?.api.destroy?.();
    } finally {
      current = null;
      ctx.pool.free();
      root.replaceChildren();
    }
  }
  /** The wasm has arrived: the real API (and its compute runner) replace the stand-in; the view is
   * set up again with it (views may keep what they computed), in the same task, so the page does
   * not paint in between. */
  function attach(next, nextCompute) {
    if (destroyed) return;
    if (pe.stub && !next.stub && root.dataset.layout === 'stub') hold(host.getBoundingClientRect().height);
    pe = next;
    ctx.pe = next;
    ctx.pool.free(); // the old API's heap buffers (a lean core outlives its move to the one with attention)
    ctx.pool = makePool(next);
    ctx.compute = nextCompute;
    ready.clear();
    if (current) current.name = '';
    render();
  }
  render();
  return { get pe() { return pe; }, state, setState, render, goStep, attach, destroy, get view() { return current?.api; }, get steps() { return STEPS; } };
}

/** Fallback figure description from an export payload: kind, size, range. */
function describeData(d) {
  if (!d) return '';
  if (d.kind === 'group') return d.parts.map(describeData).filter(Boolean).join(' ');
  const range = (vals) => rangeText(finiteMinMax(vals));
  if (d.kind === 'matrix') return `${d.name ?? 'matrix'}: ${d.rows} ${d.rowLabel ?? 'rows'} by ${d.cols} ${d.colLabel ?? 'columns'}, ${d.values.length <= 4e6 ? range(d.values) : ''}.`;
  if (d.kind === 'series') return `${d.name ?? 'plot'}: ${d.series.length} curves (${d.series.map((s) => s.label).join(', ')}) over ${d.xLabel || 'x'}, ${range(d.series.flatMap((s) => Array.from(s.y)))}.`;
  if (d.kind === 'lab') return `the sentence “${d.words.join(' ')}” in the order ${d.order.join(', ')}.`;
  return '';
}

