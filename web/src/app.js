// The page shell: one state, the controls that edit it, the view that shows it, exports.
// Rendering is coalesced to one per animation frame, so a slider drag never queues redraws.
import { makePool } from './methods.js';
import { FIELDS, METHODS, PALETTES, SCALINGS, VIEWS, toParams } from './state.js';
import { SETUP } from './views/index.js';
import { toCsv } from './export.js';

const opts = (list) => list.map((x) => (Array.isArray(x) ? x : [x, x])).map(([v, l]) => `<option value="${v}">${l}</option>`).join('');

const CONTROLS = `
<fieldset><legend>Encoding</legend>
  <label>method <select name="method">${opts(METHODS)}</select></label>
  <label>dim <span class="io"><input name="dim" type="range" min="2" max="1024" step="2"><output></output></span></label>
  <label>length <span class="io"><input name="length" type="range" min="2" max="4096" step="1"><output></output></span></label>
  <label>base <input name="base" type="number" min="2" max="10000000" step="any" inputmode="decimal"></label>
  <label>heads <span class="io"><input name="heads" type="range" min="1" max="32" step="1"><output></output></span></label>
  <label>head shown <span class="io"><input name="head" type="range" min="0" max="31" step="1"><output></output></span></label>
  <label>sinusoid layout <select name="layout">${opts(['interleaved', 'split'])}</select></label>
</fieldset>
<fieldset><legend>RoPE</legend>
  <label>pair layout <select name="rope">${opts(['half', 'interleaved'])}</select></label>
  <label>scaling <select name="scaling">${opts(SCALINGS)}</select></label>
  <label>factor <input name="factor" type="number" min="1" max="64" step="0.5"></label>
  <label>train length <span class="io"><input name="train" type="range" min="2" max="2048" step="1"><output></output></span></label>
</fieldset>
<fieldset><legend>Biases</legend>
  <label>T5 buckets <span class="io"><input name="buckets" type="range" min="4" max="128" step="2"><output></output></span></label>
  <label>T5 max distance <span class="io"><input name="maxdist" type="range" min="8" max="1024" step="1"><output></output></span></label>
  <label>T5 direction <select name="t5dir">${opts(['bidirectional', 'causal'])}</select></label>
  <label>Shaw k <span class="io"><input name="shawk" type="range" min="1" max="64" step="1"><output></output></span></label>
</fieldset>
<fieldset><legend>Display</legend>
  <label>compare with <select name="vs">${opts(METHODS)}</select></label>
  <label>palette <select name="palette">${opts(PALETTES)}</select></label>
</fieldset>`;

/**
 * Mount the page (or one chrome-less view) into `root`.
 * @param {{ state: object, chrome?: boolean, url?: boolean, compute: object, pe: object }} o
 */
export function createApp(root, { pe, state, chrome = true, url = true, compute }) {
  const reducedMotion = globalThis.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
  const ctx = { pe, pool: makePool(pe), compute, reducedMotion, setState };
  root.classList.add('posenc-app');
  root.dataset.motion = reducedMotion ? 'reduced' : 'full';
  root.innerHTML = chrome
    ? `<nav class="tabs" role="tablist" aria-label="views">${VIEWS.map(([v, l]) => `<button type="button" role="tab" data-view="${v}">${l}</button>`).join('')}</nav>
       <div class="layout"><form class="controls" aria-label="controls">${CONTROLS}</form>
       <div class="stage"><div class="host"></div>
       <div class="exports" role="group" aria-label="export">
         <button type="button" data-export="png">Export PNG</button><button type="button" data-export="csv">CSV</button>
         <button type="button" data-export="json">JSON</button><button type="button" data-export="link">Copy link</button>
         <span class="perf" aria-live="off"></span></div></div></div>`
    : `<div class="host"></div>`;
  const host = root.querySelector('.host');
  const form = root.querySelector('.controls');
  let current = null;
  let pending = 0;
  const frames = (globalThis.__posencFrames ??= []);

  function setState(patch) {
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
      const q = toParams(state).toString();
      history.replaceState(null, '', q ? `?${q}` : location.pathname);
    }, 200);
  }
  function schedule() {
    if (!pending) pending = requestAnimationFrame(render);
  }
  function render() {
    pending = 0;
    const t0 = performance.now();
    if (!current || current.name !== state.view) {
      current?.api.destroy?.();
      host.replaceChildren();
      current = { name: state.view, api: SETUP[state.view](host, ctx) };
    }
    current.api.update(state);
    if (form) syncControls();
    const ms = performance.now() - t0;
    frames.push(ms);
    if (frames.length > 600) frames.splice(0, frames.length - 600);
    const perf = root.querySelector('.perf');
    if (perf) perf.textContent = `${pe.backend} · ${ms.toFixed(1)} ms`;
    root.dispatchEvent(new CustomEvent('posenc-render', { bubbles: true, composed: true, detail: { view: state.view, ms } }));
  }

  function syncControls() {
    for (const el of form.elements) {
      if (!el.name || !(el.name in state)) continue;
      // Touch the DOM only on change: a drag must not restyle every control each frame.
      const v = String(state[el.name]);
      if (el.value !== v && (document.activeElement !== el || el.type !== 'number')) el.value = v;
      const out = el.parentElement.querySelector('output');
      if (out && out.textContent !== v) out.textContent = v;
    }
    if (form.elements.head.max !== String(state.heads - 1)) form.elements.head.max = String(state.heads - 1);
    for (const b of root.querySelectorAll('[role=tab]')) {
      const on = b.dataset.view === state.view;
      b.setAttribute('aria-selected', String(on));
      b.tabIndex = on ? 0 : -1;
    }
  }

  if (form) {
    form.addEventListener('submit', (e) => e.preventDefault());
    form.addEventListener('input', (e) => {
      const el = e.target;
      const f = FIELDS[el.name];
      if (!f) return;
      if (el.type === 'number' && el.value === '') return;
      setState({ [el.name]: f[1](el.value, state[el.name]) });
    });
    const tabs = root.querySelector('.tabs');
    tabs.addEventListener('click', (e) => {
      const b = e.target.closest('[data-view]');
      if (b) setState({ view: b.dataset.view });
    });
    tabs.addEventListener('keydown', (e) => {
      const d = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
      if (!d) return;
      const i = VIEWS.findIndex(([v]) => v === state.view);
      const next = VIEWS[(i + d + VIEWS.length) % VIEWS.length][0];
      setState({ view: next });
      requestAnimationFrame(() => tabs.querySelector(`[data-view="${next}"]`).focus());
    });
    root.querySelector('.exports').addEventListener('click', async (e) => {
      const kind = e.target.closest('[data-export]')?.dataset.export;
      if (!kind || !current) return;
      const base = `posenc-${state.view}-${state.method}`;
      if (kind === 'png') {
        const c = current.api.canvas();
        c.toBlob((blob) => download(blob, `${base}.png`));
      } else if (kind === 'csv') {
        download(new Blob([toCsv(current.api.exportData())], { type: 'text/csv' }), `${base}.csv`);
      } else if (kind === 'json') {
        const body = JSON.stringify({ state: Object.fromEntries(toParams(state)), data: current.api.exportData() });
        download(new Blob([body], { type: 'application/json' }), `${base}.json`);
      } else if (kind === 'link') {
        await navigator.clipboard?.writeText(location.href).catch(() => {});
        e.target.textContent = 'Link copied';
        setTimeout(() => (e.target.textContent = 'Copy link'), 1500);
      }
    });
  }
  // Plots and circles are drawn at the element's pixel width: redraw when the width changes.
  let width = 0;
  new ResizeObserver(([e]) => {
    const w = Math.round(e.contentRect.width);
    if (width && w !== width) schedule();
    width = w;
  }).observe(root);
  render();
  return { pe, state, setState, render, get view() { return current?.api; } };
}

function download(blob, name) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}
