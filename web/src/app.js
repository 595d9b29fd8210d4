// The page shell's view lifecycle: one state, the guided path or the explorer's tabs around the
// current view (its chunk and API families loaded on demand, set up, updated, destroyed), exports,
// theme and trims. The state in the link is url.js's, the controls beside the view controls.js's.
// Rendering is coalesced to one per animation frame, so a slider drag never queues redraws.
import { use } from './api.js';
import { mountControls } from './controls.js';
import { finiteMinMax, makePool } from './methods.js';
import { parseState } from './state.js';
import { loadSteps, resolveState, stepState, steps, urlWriter } from './url.js';
import { rangeText } from './views/common.js';
import * as registry from './views/index.js';

export { opts } from './controls.js';
export { loadSteps, resolveState, stepState, steps, urlOf } from './url.js';

// Views are loaded on demand (views/index.js: SETUP[name]() resolves to the view's setup).
const { SETUP } = registry;
const NEEDS = registry.NEEDS ?? {};
const VIEW_INFO = registry.VIEW_INFO ?? {};
/**
 * The compute runner (compute.js) behind a door: its module and its worker (a second copy of the
 * core) are loaded by the first job, so a view that runs none (most) downloads neither.
 */
export function lazyCompute(pe, opts = {}) {
  let real = null;
  let loading = null;
  const wouldWork = () =>
    opts.useWorker !== false && typeof Worker !== 'undefined' && /^https?:$/.test(location.protocol);
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
    p.then(
      (setup) => arrived.set(name, setup),
      () => chunks.delete(name),
    );
  }
  return chunks.get(name);
}
/** The API families (web/src/api.js LATER) view `name` calls beyond the encodings. */
const needs = (name) => NEEDS[name] ?? [];
/** The page's core (api.js) a lone view needs: the lean one unless it calls attention. */
export const coreFor = (name) => (needs(name).includes('attention') ? 'attention' : 'lean');

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

/** The app's skeleton in `root`: the chrome's top, the controls, the figure's host and its
 * description for screen readers, the chrome's bottom. */
function skeleton(root, chrome, reducedMotion) {
  root.classList.add('posenc-app');
  root.dataset.motion = reducedMotion ? 'reduced' : 'full';
  root.innerHTML = `${chrome ? chrome.top : ''}
    <div class="layout"><form class="controls" aria-label="controls"></form>
      <div class="stage" id="figure-panel"><div class="host" id="figure" tabindex="-1" role="region" aria-label="figure" aria-describedby="figure-desc"></div>
      <p class="sr-only" id="figure-desc"></p>${chrome ? chrome.bottom : ''}</div></div>`;
  return {
    host: root.querySelector('.host'),
    form: root.querySelector('.controls'),
    stage: root.querySelector('.stage'),
    desc: root.querySelector('#figure-desc'),
  };
}

/** The app's listeners outside its root: the history's popstate (onPop, when the app keeps the
 * URL), the system's colour scheme, the root's width (a ResizeObserver). remove() takes them all
 * away: a removed <posenc-view> must not stay reachable from the window. */
function listenOutside(root, { onPop, onScheme, onWidth }) {
  if (onPop) addEventListener('popstate', onPop);
  const scheme = globalThis.matchMedia?.('(prefers-color-scheme: dark)');
  scheme?.addEventListener?.('change', onScheme);
  const resized = new ResizeObserver(([e]) => onWidth(Math.round(e.contentRect.width)));
  resized.observe(root);
  return {
    remove() {
      if (onPop) removeEventListener('popstate', onPop);
      scheme?.removeEventListener?.('change', onScheme);
      resized.disconnect();
    },
  };
}

/**
 * Mount the page (or one chrome-less view) into `root`.
 * @param {HTMLElement} root
 * @param {{ state: object, chrome?: object, url?: boolean, pe: object, onLoadError?: Function }} o  pe: the stand-in API
 *   or a Promise of it (api.js stubApi(); nothing is drawn until it is here) until attach() brings
 *   the real one with its compute runner; chrome: the
 *   page's chrome module (chrome.js), or none for an embed or an element; onLoadError(name, error):
 *   a view's chunk or API family failed to load (a deploy removed it): true if the caller handles it
 */
export function createApp(root, { pe, state, chrome = null, url = true, onLoadError = null }) {
  const pending = typeof pe?.then === 'function';
  const a = appState(root, { pe: pending ? null : pe, state, chrome, url, onLoadError });
  // the stand-in, unless the real API came first (or the stand-in cannot load: nothing is drawn
  // until the real one is here)
  if (pending)
    pe.then(
      (s) => !a.pe && attach(a, s, lazyCompute(s, { useWorker: false })),
      () => {},
    );
  // The page's own chrome (chrome.js: mode bar, guided path, tabs, exports), wired to this app.
  a.page = chrome
    ? chrome.mount({
        root,
        host: a.host,
        stage: a.stage,
        state,
        setState: a.setState,
        navigate: (next, push) => navigate(a, next, push),
        goStep: (i) => goStep(a, i),
        current: () => a.current,
      })
    : null;
  // Listeners outside the root are removed by destroy(): a removed <posenc-view> must not stay
  // reachable from the window (a blog's client-side navigation removes one per page change).
  const onPop = () => {
    const params = new URLSearchParams(location.search);
    const next = parseState(params);
    (next.guided ? loadSteps() : Promise.resolve()).then(() => {
      navigate(a, resolveState(next, params), false);
      document.documentElement.dataset.theme = state.theme;
    });
  };
  a.outside = listenOutside(root, {
    onPop: url ? onPop : null,
    // A theme that follows the system repaints the canvases when the system switches.
    onScheme: () => state.theme === 'auto' && schedule(a),
    // Plots and circles are drawn at the element's pixel width: redraw when the width changes.
    onWidth(w) {
      if (a.width && w !== a.width) {
        hold(a, 0);
        schedule(a);
      }
      a.width = w;
    },
  });
  render(a);
  return {
    get pe() {
      return a.pe;
    },
    state,
    setState: a.setState,
    render: a.render,
    goStep: (i) => goStep(a, i),
    attach: (next, nextCompute) => attach(a, next, nextCompute),
    destroy: () => destroy(a),
    get view() {
      return a.current?.api;
    },
    get steps() {
      return steps();
    },
  };
}

/**
 * The app's one state: its root and parts (skeleton()), the state and the link writer, the API
 * and the views' context, the view shown (current: { name, api }), the views whose chunk and API
 * families have arrived (ready: name -> setup; until then render() waits, with no posenc-render
 * event, and renders again when they are here), the frame pending, the root's width.
 */
function appState(root, { pe, state, chrome, url, onLoadError }) {
  const reducedMotion = globalThis.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
  // Inside <posenc-view> focus lives in the shadow root: document.activeElement is the host
  // element there, so views must ask the shell which element has focus.
  const activeElement = () => root.getRootNode().activeElement ?? null;
  const a = { root, state, chrome, url, onLoadError, pe, current: null, page: null, pending: 0, destroyed: false };
  a.setState = (patch) => setState(a, patch);
  a.render = () => render(a);
  // `pe` may be the stand-in API (api.js stubApi(): results in their real shapes) while the wasm loads:
  // the view is then laid out at its final size and attach() swaps the real API in.
  a.ctx = {
    pe,
    pool: makePool(pe),
    compute: lazyCompute(pe, { useWorker: false }),
    reducedMotion,
    setState: a.setState,
    activeElement,
    root,
  };
  Object.assign(a, skeleton(root, chrome, reducedMotion));
  a.ready = new Map();
  a.loading = new Set();
  a.width = 0; // the root's width, from the ResizeObserver (listenOutside)
  a.form.id = `posenc-controls-${++apps}`;
  a.frames = globalThis.__posencFrames ??= [];
  a.link = urlWriter(state);
  a.descTimer = 0;
  a.controls = mountControls({
    root,
    host: a.host,
    form: a.form,
    state,
    setState: a.setState,
    activeElement,
    width: () => a.width,
  });
  return a;
}

/** Load view `name`'s chunk and API families; schedule a render once they are here. */
function load(a, name) {
  if (a.loading.has(name)) return;
  a.loading.add(name);
  const forPe = a.pe;
  Promise.all([preloadView(name), ...needs(name).map((f) => use(forPe, f))]).then(
    ([setup, ...apis]) => {
      a.loading.delete(name);
      // use() resolves to an API with the family (posenc/lite: on the encodings core, one on the core
      // with attention): move to it (attach() renders, and the view loads again there).
      const other = apis.find((x) => x && x !== forPe);
      if (other && forPe === a.pe) return attach(a, other, a.ctx.compute);
      // The families were added to the API of that moment: after attach() add them to the new one.
      if (forPe === a.pe) a.ready.set(name, setup);
      else load(a, name);
      schedule(a);
    },
    (e) => {
      a.loading.delete(name);
      if (a.onLoadError?.(name, e)) return;
      a.host.replaceChildren(
        Object.assign(document.createElement('p'), {
          className: 'error',
          textContent: `Could not load the ${name} view: ${e?.message ?? e}`,
        }),
      );
    },
  );
}

// The stand-in's numbers are as wide as a float32 gets (api.js TYPICAL); the real ones are
// mostly narrower, and text around them can take a line less. So the first real render keeps
// the laid-out height as a minimum until the reader changes something or the width changes.
function hold(a, px) {
  if (px > 0) a.host.style.minHeight = `${Math.ceil(px)}px`;
  else a.host.style.removeProperty('min-height');
}

function setState(a, patch) {
  const { state } = a;
  hold(a, 0);
  Object.assign(state, patch);
  state.head = Math.min(state.head, state.heads - 1);
  if (a.url) a.link.replace();
  schedule(a);
}

/** Move to a guided step or to the explorer as a navigation: a new history entry. */
function navigate(a, next, push = true) {
  const { state } = a;
  hold(a, 0);
  a.link.cancel();
  for (const k of Object.keys(state)) if (!(k in next)) delete state[k];
  Object.assign(state, next);
  if (a.url && push) a.link.push();
  schedule(a);
}

function goStep(a, i) {
  const all = steps();
  const step = all[Math.max(0, Math.min(all.length - 1, i))];
  navigate(a, stepState(step, a.state));
}

function schedule(a) {
  if (!a.pending && !a.destroyed) a.pending = requestAnimationFrame(a.render);
}

function render(a) {
  cancelAnimationFrame(a.pending);
  a.pending = 0;
  if (a.destroyed) return;
  const { root, state } = a;
  const t0 = performance.now();
  root.dataset.theme = state.theme;
  root.classList.toggle('hide-title', /title/.test(state.hide));
  root.classList.toggle('hide-intro', /intro/.test(state.hide));
  if (!a.pe) return; // the stand-in is on its way (createApp)
  if ((!a.current || a.current.name !== state.view) && !setUpView(a)) return;
  if (a.pe.stub) return layoutPass(a);
  root.dataset.layout = 'live';
  a.current.api.update(state);
  syncChrome(a);
  const ms = performance.now() - t0;
  a.frames.push(ms);
  if (a.frames.length > 600) a.frames.splice(0, a.frames.length - 600);
  const perf = root.querySelector('.perf');
  if (perf) perf.textContent = `${a.pe.backend} · ${ms.toFixed(1)} ms`;
  describeSoon(a);
  root.dispatchEvent(
    new CustomEvent('posenc-render', { bubbles: true, composed: true, detail: { view: state.view, ms } }),
  );
}

/** The state's view set up in the host (the last one destroyed); false while its chunk or API
 * families are on their way (they are asked for). */
function setUpView(a) {
  const { host, state } = a;
  // A view needing no extra API family can start as soon as its chunk is here.
  const setup = a.ready.get(state.view) ?? (!needs(state.view).length && arrived.get(state.view));
  if (!setup) {
    load(a, state.view);
    syncChrome(a);
    return false;
  }
  // A view's destroy may call setState (Rotation's stop does), which drops the held height:
  // the swap to the real API must keep it.
  const held = host.style.minHeight;
  a.current?.api.destroy?.();
  if (held) host.style.minHeight = held;
  host.replaceChildren();
  a.current = { name: state.view, api: setup(host, a.ctx) };
  return true;
}

/** The layout pass: no frame is counted, no render event, no description of zeros. */
function layoutPass(a) {
  try {
    a.current.api.update(a.state);
  } catch {
    // a view that cannot lay out without numbers keeps its skeleton
  }
  syncChrome(a);
  a.root.dataset.layout = 'stub';
  a.root.dispatchEvent(
    new CustomEvent('posenc-layout', { bubbles: true, composed: true, detail: { view: a.state.view } }),
  );
}

// Screen readers get what the figure shows, its size and its range. The view may say it itself
// (describe()); otherwise it is read from the export payload, once a drag has settled.
function describeSoon(a) {
  clearTimeout(a.descTimer);
  a.descTimer = setTimeout(() => {
    const api = a.current?.api;
    let text = '';
    try {
      text = api?.describe?.() ?? describeData(api?.exportData?.());
    } catch {
      text = '';
    }
    const title = a.host.querySelector('h2')?.textContent ?? a.state.view;
    text = `${title}. ${text}`.trim();
    if (a.desc.textContent !== text) a.desc.textContent = text;
  }, 300);
}

function syncChrome(a) {
  const { state } = a;
  a.controls.sync(state.controls || (state.embed || !a.chrome ? 'none' : 'own'));
  a.page?.sync();
}

/** Take the app down: its view (an animation stops), its heap buffers, its listeners and timers.
 * Nothing renders afterwards; the root is left empty. */
function destroy(a) {
  if (a.destroyed) return;
  a.destroyed = true;
  cancelAnimationFrame(a.pending);
  a.pending = 0;
  a.link.cancel();
  clearTimeout(a.descTimer);
  a.outside.remove();
  try {
    a.current?.api.destroy?.();
  } finally {
    a.current = null;
    a.ctx.pool.free();
    a.root.replaceChildren();
  }
}

/** The wasm has arrived: the real API (and its compute runner) replace the stand-in; the view is
 * set up again with it (views may keep what they computed), in the same task, so the page does
 * not paint in between. */
function attach(a, next, nextCompute) {
  if (a.destroyed) return;
  if (a.pe?.stub && !next.stub && a.root.dataset.layout === 'stub') hold(a, a.host.getBoundingClientRect().height);
  a.pe = next;
  a.ctx.pe = next;
  a.ctx.pool.free(); // the old API's heap buffers (a lean core outlives its move to the one with attention)
  a.ctx.pool = makePool(next);
  a.ctx.compute = nextCompute;
  a.ready.clear();
  if (a.current) a.current.name = '';
  render(a);
}

/** Fallback figure description from an export payload: kind, size, range. */
function describeData(d) {
  if (!d) return '';
  if (d.kind === 'group') return d.parts.map(describeData).filter(Boolean).join(' ');
  const range = (vals) => rangeText(finiteMinMax(vals));
  if (d.kind === 'matrix')
    return `${d.name ?? 'matrix'}: ${d.rows} ${d.rowLabel ?? 'rows'} by ${d.cols} ${d.colLabel ?? 'columns'}, ${d.values.length <= 4e6 ? range(d.values) : ''}.`;
  if (d.kind === 'series')
    return `${d.name ?? 'plot'}: ${d.series.length} curves (${d.series.map((s) => s.label).join(', ')}) over ${d.xLabel || 'x'}, ${range(d.series.flatMap((s) => Array.from(s.y)))}.`;
  if (d.kind === 'lab') return `the sentence “${d.words.join(' ')}” in the order ${d.order.join(', ')}.`;
  return '';
}
