// The page shell's view lifecycle: one state, the guided path or the explorer's tabs around the
// current view (its chunk and API families loaded on demand, set up, updated, destroyed), exports,
// theme and trims. The state in the link is url.js's, the controls beside the view controls.js's.
// Rendering is coalesced to one per animation frame, so a slider drag never queues redraws.
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
 *   (api.js stubApi()) until attach() brings the real one with its compute runner; chrome: the
 *   page's chrome module (chrome.js), or none for an embed or an element; onLoadError(name, error):
 *   a view's chunk or API family failed to load (a deploy removed it): true if the caller handles it
 */
export function createApp(root, { pe: firstPe, state, chrome = null, url = true, onLoadError = null }) {
  let pe = firstPe;
  const reducedMotion = globalThis.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
  // Inside <posenc-view> focus lives in the shadow root: document.activeElement is the host
  // element there, so views must ask the shell which element has focus.
  const activeElement = () => root.getRootNode().activeElement ?? null;
  // `pe` may be the stand-in API (api.js stubApi(): results in their real shapes) while the wasm loads:
  // the view is then laid out at its final size and attach() swaps the real API in.
  const ctx = {
    pe,
    pool: makePool(pe),
    compute: lazyCompute(pe, { useWorker: false }),
    reducedMotion,
    setState,
    activeElement,
    root,
  };
  const { host, form, stage, desc } = skeleton(root, chrome, reducedMotion);
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
    Promise.all([preloadView(name), ...needs(name).map((f) => forPe.use?.(f))]).then(
      ([setup, ...apis]) => {
        loading.delete(name);
        // On the lean core (api.js) use('attention') resolves to an API on the core with attention:
        // move to it (attach() renders, and the view loads again there).
        const other = apis.find((a) => a && a !== forPe);
        if (other && forPe === pe) return attach(other, ctx.compute);
        // The families were added to the API of that moment: after attach() add them to the new one.
        if (forPe === pe) ready.set(name, setup);
        else load(name);
        schedule();
      },
      (e) => {
        loading.delete(name);
        if (onLoadError?.(name, e)) return;
        host.replaceChildren(
          Object.assign(document.createElement('p'), {
            className: 'error',
            textContent: `Could not load the ${name} view: ${e?.message ?? e}`,
          }),
        );
      },
    );
  }
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
  const link = urlWriter(state);
  function setState(patch) {
    hold(0);
    Object.assign(state, patch);
    state.head = Math.min(state.head, state.heads - 1);
    if (url) link.replace();
    schedule();
  }
  /** Move to a guided step or to the explorer as a navigation: a new history entry. */
  function navigate(next, push = true) {
    hold(0);
    link.cancel();
    for (const k of Object.keys(state)) if (!(k in next)) delete state[k];
    Object.assign(state, next);
    if (url && push) link.push();
    schedule();
  }
  function goStep(i) {
    const all = steps();
    const step = all[Math.max(0, Math.min(all.length - 1, i))];
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
      // A view's destroy may call setState (Rotation's stop does), which drops the held height:
      // the swap to the real API must keep it.
      const held = host.style.minHeight;
      current?.api.destroy?.();
      if (held) host.style.minHeight = held;
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
      root.dispatchEvent(
        new CustomEvent('posenc-layout', { bubbles: true, composed: true, detail: { view: state.view } }),
      );
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
    root.dispatchEvent(
      new CustomEvent('posenc-render', { bubbles: true, composed: true, detail: { view: state.view, ms } }),
    );
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

  const controls = mountControls({ root, host, form, state, setState, activeElement, width: () => width });
  function syncChrome() {
    controls.sync(state.controls || (state.embed || !chrome ? 'none' : 'own'));
    page?.sync();
  }

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
  const outside = listenOutside(root, {
    onPop: url ? onPop : null,
    // A theme that follows the system repaints the canvases when the system switches.
    onScheme: () => state.theme === 'auto' && schedule(),
    // Plots and circles are drawn at the element's pixel width: redraw when the width changes.
    onWidth(w) {
      if (width && w !== width) {
        hold(0);
        schedule();
      }
      width = w;
    },
  });
  /** Take the app down: its view (an animation stops), its heap buffers, its listeners and timers.
   * Nothing renders afterwards; the root is left empty. */
  function destroy() {
    if (destroyed) return;
    destroyed = true;
    cancelAnimationFrame(pending);
    pending = 0;
    link.cancel();
    clearTimeout(descTimer);
    outside.remove();
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
  return {
    get pe() {
      return pe;
    },
    state,
    setState,
    render,
    goStep,
    attach,
    destroy,
    get view() {
      return current?.api;
    },
    get steps() {
      return steps();
    },
  };
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
