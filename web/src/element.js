// <posenc-view view="heatmap" method="rope" dim="64"> for pages that load this module. Every
// attribute is a URL state key (view, step, method, dim, length, base, heads, scaling, palette, ...)
// plus theme="light|dark|auto" (auto follows the host page's <html> theme, else the reader's),
// background="transparent|<colour>", hide="title intro", controls="none|own|all", panel="<id>".
// Styles go in through a constructable stylesheet, so a host page's strict CSP (style-src 'self')
// does not block them; fonts are inherited from the host page.
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
import { FIELDS, parseState } from './state.js';
import { backgroundOf, hostTheme } from './theme.js';

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
  for (const el of live) el.hostThemeChanged();
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

class PosencView extends HTMLElement {
  static observedAttributes = [...Object.keys(FIELDS), 'background'];
  #app = null;
  #root = null;
  #state() {
    const p = new URLSearchParams();
    for (const k of Object.keys(FIELDS)) if (this.hasAttribute(k)) p.set(k, this.getAttribute(k));
    const st = parseState(p);
    return resolveState(st, p);
  }
  async connectedCallback() {
    if (this.#app) return;
    const shadow = this.shadowRoot ?? this.attachShadow({ mode: 'open' });
    // A guided step (step="rope", or no view at all) needs the steps' chunk to know its view.
    if (this.hasAttribute('step') || !this.hasAttribute('view')) await loadSteps();
    if (!this.isConnected || this.#app) return; // removed (or connected again) while the steps loaded
    shadow.replaceChildren();
    this.#connect(shadow);
  }
  // Removed from the page (a blog's client-side navigation, a React route change): the app gives
  // back its heap buffers on the shared core, its listeners and any animation. A move within the
  // page (removed and inserted in the same task) keeps it.
  disconnectedCallback() {
    queueMicrotask(() => {
      if (this.isConnected || !this.#app) return;
      this.#app.destroy();
      this.#app = null;
      live.delete(this);
      this.#root = null;
      this.shadowRoot?.replaceChildren();
      delete this.dataset.ready;
      delete this.dataset.layout;
      delete this.dataset.error;
    });
  }
  #connect(shadow) {
    adopt(shadow);
    this.#root = document.createElement('div');
    this.#root.className = 'posenc-app embed';
    shadow.append(this.#root);
    // Reserve the view's height before the core arrives: the post around it does not jump.
    const st = this.#state();
    const h = reservedHeight(st, this.clientWidth || this.parentElement?.clientWidth || 600);
    if (h) this.#root.style.setProperty('min-height', `${h}px`);
    preloadView(st.view);
    // The first element decides the core: the lean one unless its view calls attention (a later
    // element that does gets the core with attention for that, api.js).
    shared ??= init({ core: coreFor(st.view) }).then((pe) => ({ pe, compute: lazyCompute(pe, { useWorker: false }) }));
    // The view is laid out with the stand-in API as soon as its chunk is here: its final layout,
    // so when the core arrives only the numbers change. The estimate holds until then.
    stub ??= stubApi();
    const root = this.#root;
    const app = createApp(root, { pe: stub, state: st, url: false });
    this.#app = app;
    live.add(this);
    watchHost();
    this.#paint(false);
    const laidOut = () => {
      root.style.removeProperty('min-height');
      if (this.#app === app) this.dataset.layout = '1';
    };
    onLaidOut(root, laidOut);
    shared.then(
      ({ pe, compute }) => {
        if (this.#app !== app) return;
        root.addEventListener('posenc-render', () => (this.dataset.ready = '1'), { once: true });
        app.attach(pe, compute);
      },
      (e) => {
        // The core could not start (most often a host page's Content-Security-Policy without
        // 'wasm-unsafe-eval'): say so in the element instead of a blank figure.
        if (this.#app !== app) return;
        const msg = String(e?.message ?? e);
        const csp = /Content.Security|unsafe-eval|CSP/i.test(msg);
        const note = document.createElement('p');
        note.className = 'error';
        note.setAttribute('role', 'alert');
        note.textContent = csp
          ? "posenc could not start its WebAssembly: this page's Content-Security-Policy needs 'wasm-unsafe-eval' in script-src."
          : `posenc could not start its WebAssembly: ${msg}`;
        root.style.removeProperty('min-height');
        root.prepend(note);
        this.dataset.error = csp ? 'csp' : 'init';
        this.dispatchEvent(
          new CustomEvent('posenc-error', { bubbles: true, composed: true, detail: { message: msg } }),
        );
      },
    );
  }
  /** data-host-theme and the background from the host and the attributes; repaint if asked. */
  #paint(render) {
    const t = hostTheme();
    if (t === 'auto') delete this.dataset.hostTheme;
    else if (this.dataset.hostTheme !== t) this.dataset.hostTheme = t;
    const bg = backgroundOf(this.getAttribute('background'));
    for (const p of ['--paper', '--bg']) {
      if (bg) this.#root.style.setProperty(p, bg);
      else this.#root.style.removeProperty(p);
    }
    if (render) this.#app.render();
  }
  /** The host page's theme changed (the watcher above). */
  hostThemeChanged() {
    if (this.#app) this.#paint(true);
  }
  attributeChangedCallback(name) {
    if (!this.#app) return;
    if (name === 'background') return this.#paint(true);
    // A theme change only repaints (the colours are CSS custom properties on the host).
    if (name === 'theme') this.#app.setState({ theme: this.#state().theme });
    else this.#app.setState(this.#state());
  }
}

if (!customElements.get('posenc-view')) customElements.define('posenc-view', PosencView);
export { PosencView };
