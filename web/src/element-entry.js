// posenc-view.js, the element's stable (unversioned) entry: it names the current build's hashed
// element module and loads it with import(), so no static import can fail before the element is
// defined. After a deploy, a copy of this file from a host's cache (Cache-Control: max-age=600)
// may name modules the server no longer has: the element module then imports this file again under
// a fresh URL (element.js freshImpl), whose content names the new build's modules.
const HERE = import.meta.url;
globalThis[Symbol.for('posenc-view/entry')] ??= HERE;

const retry = () =>
  /[?&]posenc-reload=/.test(HERE)
    ? Promise.reject(new Error('no newer build'))
    : import(/* @vite-ignore */ new URL(`?posenc-reload=${Date.now()}`, HERE).href).then((m) => m.ready);

// The build writes the hashed module's name here (vite.config.js elementEntry): this file imports
// nothing by name, so nothing it names can be missing before the element is defined.
const MODULE = import.meta.env.DEV ? './element.js' : '__POSENC_ELEMENT_MODULE__';

/** The element module's impl: this build's, else (its module is gone) a fresh entry's. */
export const ready = import(/* @vite-ignore */ new URL(MODULE, HERE).href)
  .then((m) => m.impl)
  .catch((first) => retry().catch(() => Promise.reject(first)));

// Neither loads (offline with a revalidating host, a blocked request): each element says so, with
// its own fallback content (its children) under the message, and tells the page (posenc-error).
ready.catch((e) => {
  if (customElements.get('posenc-view')) return;
  const message = `posenc could not load its element${navigator.onLine === false ? ' (this browser is offline)' : ''}: ${e?.message ?? e}`;
  customElements.define(
    'posenc-view',
    class extends HTMLElement {
      connectedCallback() {
        if (this.shadowRoot) return;
        const note = document.createElement('p');
        note.setAttribute('role', 'alert');
        note.textContent = message;
        note.style.cssText =
          'border:1px solid #d9a3a3;background:#fdf0f0;color:#5a1d1d;padding:0.4rem 0.7rem;border-radius:6px;';
        this.attachShadow({ mode: 'open' }).append(note, document.createElement('slot'));
        this.dataset.error = 'load';
        this.dispatchEvent(
          new CustomEvent('posenc-error', { bubbles: true, composed: true, detail: { kind: 'load', message } }),
        );
      }
    },
  );
});
