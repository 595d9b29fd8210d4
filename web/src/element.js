// <posenc-view view="heatmap" method="rope" dim="64"> for pages that load this module. Every
// attribute is a URL state key (view, step, method, dim, length, base, heads, scaling, palette, ...)
// plus theme="light|dark|auto", hide="title intro", controls="none|own|all", panel="<id>".
// Styles go in through a constructable stylesheet, so a host page's strict CSP (style-src 'self')
// does not block them; fonts are inherited from the host page.
import css from './style.css?inline';
import viewCss from './views/views.css?inline';
import { init, stubApi } from './api.js';
import { coreFor, createApp, lazyCompute, loadSteps, onLaidOut, preloadView, reservedHeight, resolveState } from './app.js';
import { FIELDS, parseState } from './state.js';

let shared = null; // one core for every element on the page
let stub = null; // one stand-in API (results in their real shapes) for the layout before the core arrives
let sheet = null; // one stylesheet object shared by every shadow root

function adopt(shadow) {
  if ('adoptedStyleSheets' in Document.prototype && 'replaceSync' in CSSStyleSheet.prototype) {
    sheet ??= new CSSStyleSheet();
    if (!sheet.cssRules.length) sheet.replaceSync(`${css}\n${viewCss}`);
    shadow.adoptedStyleSheets = [sheet];
  } else {
    const style = document.createElement('style'); // old engines without constructable sheets
    style.textContent = `${css}\n${viewCss}`;
    shadow.append(style);
  }
}

class PosencView extends HTMLElement {
  static observedAttributes = Object.keys(FIELDS);
  #app = null;
  #root = null;
  #state() {
    const p = new URLSearchParams();
    for (const k of Object.keys(FIELDS)) if (this.hasAttribute(k)) p.set(k, this.getAttribute(k));
    const st = parseState(p);
    return resolveState(st, p);
  }
  async connectedCallback() {
    if (this.shadowRoot) return;
    const shadow = this.attachShadow({ mode: 'open' });
    // A guided step (step="rope", or no view at all) needs the steps' chunk to know its view.
    if (this.hasAttribute('step') || !this.hasAttribute('view')) await loadSteps();
    this.#connect(shadow);
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
    this.#app = createApp(this.#root, { pe: stub, state: st, url: false });
    const laidOut = () => {
      this.#root.style.removeProperty('min-height');
      this.dataset.layout = '1';
    };
    onLaidOut(this.#root, laidOut);
    shared.then(({ pe, compute }) => {
      this.#root.addEventListener('posenc-render', () => (this.dataset.ready = '1'), { once: true });
      this.#app.attach(pe, compute);
    });
  }
  attributeChangedCallback(name) {
    if (!this.#app) return;
    // A theme change only repaints (the colours are CSS custom properties on the host).
    if (name === 'theme') this.#app.setState({ theme: this.#state().theme });
    else this.#app.setState(this.#state());
  }
}

if (!customElements.get('posenc-view')) customElements.define('posenc-view', PosencView);
export { PosencView };
