// <posenc-view view="heatmap" method="rope" dim="64"> for pages that load this module. Every
// attribute is a URL state key (view, method, dim, length, base, heads, scaling, palette, ...).
import { init } from '../../js/index.js';
import css from './style.css?inline';
import { createApp } from './app.js';
import { createCompute } from './compute.js';
import { FIELDS, parseState } from './state.js';

let shared = null; // one core for every element on the page

class PosencView extends HTMLElement {
  static observedAttributes = Object.keys(FIELDS);
  #app = null;
  #state() {
    const p = new URLSearchParams();
    for (const k of Object.keys(FIELDS)) if (this.hasAttribute(k)) p.set(k, this.getAttribute(k));
    return parseState(p);
  }
  connectedCallback() {
    if (this.shadowRoot) return;
    const shadow = this.attachShadow({ mode: 'open' });
    shadow.innerHTML = `<style>${css}</style><div class="posenc-app embed"></div>`;
    shared ??= init().then((pe) => ({ pe, compute: createCompute(pe, { useWorker: false }) }));
    shared.then(({ pe, compute }) => {
      this.#app = createApp(shadow.querySelector('div'), { pe, compute, state: this.#state(), chrome: false, url: false });
      this.dataset.ready = '1';
    });
  }
  attributeChangedCallback() {
    this.#app?.setState(this.#state());
  }
}

if (!customElements.get('posenc-view')) customElements.define('posenc-view', PosencView);
export { PosencView };
