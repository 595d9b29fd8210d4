// <posenc-view view="heatmap" method="rope" dim="64"> for pages that load posenc-view.js. Every
// attribute is a URL state key (view, step, method, dim, length, base, heads, scaling, palette, ...)
// plus theme="light|dark|auto" (auto follows the host page's <html> theme, else the reader's),
// background="transparent|<colour>", hide="title intro", controls="none|own|all", panel="<id>".
// Styles go in through a constructable stylesheet, so a host page's strict CSP (style-src 'self')
// does not block them; fonts are inherited from the host page.
//
// What the element's children say (a link to the view, a line of text) is its fallback: shown
// before this script runs, to feed and no-JS readers, and beside the message when the view cannot
// start. Every failure is a visible message, data-error and a `posenc-error` event, never a blank box.
//
// This module is loaded by element-entry.js (posenc-view.js). The custom element class is defined
// once per page; what it runs is the newest module's `impl`, so after a deploy a view whose chunk
// is gone loads again from the fresh entry's modules (once) instead of failing.
import css from './style.css?inline';
import viewCss from './views/views.css?inline';
import { init, stubApi } from './api.js';
import {
  coreFor,
  createApp,
  lazyCompute,
  loadSteps,
  onLaidOut,
  preloadView,
  reservedHeight,
  resolveState,
} from './app.js';
import { heightCss, stepsFor } from './embed-heights-core.js';
import { ELEMENT } from './embed-heights-element.js';
import { FIELDS, parseState } from './state.js';
import { backgroundOf, hostTheme } from './theme.js';

const IMPL = Symbol.for('posenc-view/impl');
const ENTRY = Symbol.for('posenc-view/entry');

let shared = null; // one core for every element on the page
let stub = null; // one stand-in API (results in their real shapes) for the layout before the core arrives
let sheet = null; // one stylesheet object shared by every shadow root

// theme="auto" (or none) follows the host page's own theme where <html> shows one (theme.js
// hostTheme): the element carries it as data-host-theme, and these rules give it the light or
// dark set of style.css (taken from there, so the colours live in one place). A theme="light" or
// "dark" attribute still wins.
const block = (re) => re.exec(css)?.[1] ?? '';
const hostRules = () => {
  // The built stylesheet is minified (no spaces, no quotes): the patterns allow both forms.
  const light = block(/:root,\s*:host\s*\{([^}]*)\}/);
  const dark = block(/:host\(\[theme=['"]?dark['"]?\]\)\s*\{([^}]*)\}/);
  return `:host([data-host-theme='dark']:not([theme='light'])) {${dark}}
:host([data-host-theme='light']:not([theme='dark'])) {${light}}`;
};
function adopt(shadow) {
  const text = `${css}\n${viewCss}\n${hostRules()}`;
  if ('adoptedStyleSheets' in Document.prototype && 'replaceSync' in CSSStyleSheet.prototype) {
    sheet ??= new CSSStyleSheet();
    if (!sheet.cssRules.length) sheet.replaceSync(text);
    shadow.adoptedStyleSheets = [sheet];
  } else {
    const style = document.createElement('style'); // old engines without constructable sheets
    style.textContent = text;
    shadow.append(style);
  }
}

// The live elements, and one watcher of the host's <html> (class, data-theme, style) and of the
// reader's colour scheme for all of them: a change repaints every element, canvases included
// (a host's CSS custom properties on posenc-view may hang on a class of <html> too).
const live = new Set();
let watching = false;
function hostChanged() {
  for (const c of live) c.hostThemeChanged();
}
function watchHost() {
  if (watching) return;
  watching = true;
  new MutationObserver(hostChanged).observe(document.documentElement, {
    attributes: true,
    attributeFilter: ['class', 'data-theme', 'style'],
  });
  globalThis.matchMedia?.('(prefers-color-scheme: dark)').addEventListener?.('change', hostChanged);
}

/** Whether the host page enforces Trusted Types for HTML (require-trusted-types-for 'script'):
 * the views build their markup from strings, which such a page refuses. */
function trustedTypesRefused() {
  if (!globalThis.trustedTypes) return false;
  try {
    document.createElement('template').innerHTML = '<b></b>';
    return false;
  } catch {
    return true;
  }
}

/** The element's state from its attributes (the URL's keys, parsed and checked as a link's are). */
function stateOf(el) {
  const p = new URLSearchParams();
  for (const k of Object.keys(FIELDS)) if (el.hasAttribute(k)) p.set(k, el.getAttribute(k));
  return resolveState(parseState(p), p);
}

/** The element's attributes as the snippet carries them (strings), for its box. */
function paramsOf(el) {
  const out = {};
  for (const k of Object.keys(FIELDS)) if (el.hasAttribute(k)) out[k] = el.getAttribute(k);
  return out;
}

/**
 * Hold `root` at the box the snippet reserved (embed-heights.js: from the attributes and the
 * element's width alone): a fixed height, its content laid out inside it (contain: size; what does
 * not fit scrolls in the box), so the host page never moves. '' (and nothing held) for a view the
 * tables do not know, e.g. a guided step before its view is known.
 */
function holdBox(el, root, view) {
  let box = '';
  try {
    box = globalThis.__posencMeasure
      ? ''
      : heightCss(stepsFor(ELEMENT, { view, embed: 'element', params: paramsOf(el) }));
  } catch {
    box = '';
  }
  if (!box) return '';
  for (const [k, v] of [
    ['height', box],
    ['overflow-y', 'auto'],
    ['overscroll-behavior', 'auto'],
    ['contain', 'size layout'],
    ['box-sizing', 'border-box'],
  ])
    root.style.setProperty(k, v);
  return box;
}

/** Show `message` in the element instead of the view, with the element's own fallback content
 * (its children) under it, and tell the host page (data-error, posenc-error). */
function fail(el, kind, message) {
  const shadow = el.shadowRoot ?? el.attachShadow({ mode: 'open' });
  const box = document.createElement('div');
  box.className = 'posenc-app embed';
  const note = document.createElement('p');
  note.className = 'error';
  note.setAttribute('role', 'alert');
  note.textContent = message;
  box.append(note, document.createElement('slot'));
  holdBox(el, box, el.getAttribute('view')); // the message takes the view's box: nothing moves
  shadow.replaceChildren(box);
  try {
    adopt(shadow);
  } catch {
    // the message stands without the stylesheet
  }
  el.dataset.error = kind;
  el.dispatchEvent(new CustomEvent('posenc-error', { bubbles: true, composed: true, detail: { kind, message } }));
}

/**
 * A fresh copy of the entry and the impl it brings: a cache-busting URL, so a host's HTTP cache
 * cannot hand back the previous deploy's entry. Resolves to null when there is no entry to ask
 * (the module was loaded some other way) or it brings this same module (nothing was deployed).
 */
let fresh = null;
function freshImpl() {
  const entry = globalThis[ENTRY];
  if (!entry) return Promise.resolve(null);
  fresh ??= import(/* @vite-ignore */ `${entry.split('?')[0]}?posenc-reload=${Date.now()}`)
    .then((m) => m.ready)
    .then((next) => (next && next !== impl ? next : null))
    .catch(() => null);
  return fresh;
}

/** The view could not load (a chunk, the steps or an API family): once, the newest build's modules
 * take the element over; else the reason is shown. */
function chunkFailed(el, control, what, e, retried) {
  if (el.__posenc !== control) return;
  control.destroy(true);
  const message = `posenc could not load ${what}${navigator.onLine === false ? ' (this browser is offline)' : ''}: ${e?.message ?? e}`;
  if (retried) return fail(el, 'load', message);
  freshImpl().then((next) => {
    if (!el.isConnected || el.__posenc) return;
    if (next) next.connect(el, { retried: true });
    else fail(el, 'load', message);
  });
}

/** Mount the view into `el`'s shadow root; returns its controller (el.__posenc). */
function connect(el, { retried = false } = {}) {
  if (el.__posenc) return el.__posenc;
  const shadow = el.shadowRoot ?? el.attachShadow({ mode: 'open' });
  if (trustedTypesRefused()) {
    fail(
      el,
      'trusted-types',
      "posenc cannot draw here: this page's Content-Security-Policy requires Trusted Types (require-trusted-types-for 'script'), and posenc's views build their markup from HTML. The iframe embed works on such pages.",
    );
    return null;
  }
  let app = null;
  let root = null;
  let dead = false;
  const control = {
    /** Take the view down; `keepBox`: leave the emptied box (and its reserved height) in place
     * for what replaces it. */
    destroy(keepBox = false) {
      if (dead) return;
      dead = true;
      live.delete(control);
      if (el.__posenc === control) el.__posenc = null;
      app?.destroy();
      app = null;
      if (!keepBox) shadow.replaceChildren();
      delete el.dataset.ready;
      delete el.dataset.layout;
      delete el.dataset.error;
    },
    attributeChanged(name) {
      if (!app) return;
      if (name === 'background') return paint(true);
      // A theme change only repaints (the colours are CSS custom properties on the host).
      if (name === 'theme') app.setState({ theme: stateOf(el).theme });
      else app.setState(stateOf(el));
    },
    hostThemeChanged() {
      if (app) paint(true);
    },
  };
  el.__posenc = control;
  delete el.dataset.error;
  /** data-host-theme and the background from the host and the attributes; repaint if asked. */
  function paint(render) {
    const t = hostTheme();
    if (t === 'auto') delete el.dataset.hostTheme;
    else if (el.dataset.hostTheme !== t) el.dataset.hostTheme = t;
    const bg = backgroundOf(el.getAttribute('background'));
    for (const p of ['--paper', '--bg']) {
      if (bg) root.style.setProperty(p, bg);
      else root.style.removeProperty(p);
    }
    if (render) app.render();
  }
  const failed = (what) => (e) => chunkFailed(el, control, what, e, retried);
  // A guided step (step="rope", or no view at all) needs the steps' chunk to know its view.
  const steps = el.hasAttribute('step') || !el.hasAttribute('view') ? loadSteps() : Promise.resolve();
  steps.then(() => {
    if (dead) return;
    const st = stateOf(el);
    shadow.replaceChildren();
    adopt(shadow);
    root = document.createElement('div');
    root.className = 'posenc-app embed';
    shadow.append(root);
    // The box the snippet's fallback reserved, held for good (holdBox). A view the tables do not
    // know reserves an estimate until it is laid out.
    const held = holdBox(el, root, st.view);
    const h = held ? 0 : reservedHeight(st, el.clientWidth || el.parentElement?.clientWidth || 600);
    if (!held && h) root.style.setProperty('min-height', `${h}px`);
    preloadView(st.view).catch(() => {}); // its failure is the app's (onLoadError below)
    // The first element decides the core: the lean one unless its view calls attention (a later
    // element that does gets the core with attention for that, api.js).
    shared ??= init({ core: coreFor(st.view) }).then((pe) => ({ pe, compute: lazyCompute(pe, { useWorker: false }) }));
    // The view is laid out with the stand-in API as soon as its chunk is here: its final layout,
    // so when the core arrives only the numbers change. The estimate holds until then.
    stub ??= stubApi();
    const mine = createApp(root, {
      pe: stub,
      state: st,
      url: false,
      onLoadError: (name, e) => (failed(`the ${name} view`)(e), true),
    });
    app = mine;
    live.add(control);
    watchHost();
    paint(false);
    onLaidOut(root, () => {
      if (!held) root.style.removeProperty('min-height');
      if (app === mine) el.dataset.layout = '1';
    });
    shared.then(
      ({ pe, compute }) => {
        if (app !== mine) return;
        root.addEventListener('posenc-render', () => (el.dataset.ready = '1'), { once: true });
        app.attach(pe, compute);
      },
      (e) => {
        if (app !== mine) return;
        const msg = String(e?.message ?? e);
        // A host page's Content-Security-Policy without 'wasm-unsafe-eval' is the usual cause; a
        // core that is not found may be a deploy (the fresh entry names the new one).
        if (/Content.Security|unsafe-eval|CSP/i.test(msg)) {
          control.destroy();
          return fail(
            el,
            'csp',
            "posenc could not start its WebAssembly: this page's Content-Security-Policy needs 'wasm-unsafe-eval' in script-src.",
          );
        }
        shared = null; // the next element asks again
        failed('its WebAssembly')(e);
      },
    );
  }, failed('the guided steps'));
  return control;
}

export const impl = { connect };
globalThis[IMPL] = impl;
const current = () => globalThis[IMPL] ?? impl;

class PosencView extends HTMLElement {
  static observedAttributes = [...Object.keys(FIELDS), 'background'];
  connectedCallback() {
    if (!this.__posenc && !this.dataset.error) current().connect(this);
  }
  // Removed from the page (a blog's client-side navigation, a React route change): the app gives
  // back its heap buffers on the shared core, its listeners and any animation. A move within the
  // page (removed and inserted in the same task) keeps it.
  disconnectedCallback() {
    queueMicrotask(() => {
      if (this.isConnected) return;
      this.__posenc?.destroy();
      this.shadowRoot?.replaceChildren();
      delete this.dataset.error;
    });
  }
  attributeChangedCallback(name) {
    this.__posenc?.attributeChanged(name);
  }
}

if (!customElements.get('posenc-view')) customElements.define('posenc-view', PosencView);
export { PosencView };
