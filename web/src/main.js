// The page: state from the URL, the posenc core, the app shell. In embed mode (?embed=1) only the
// view is shown and its height is posted to the parent frame.
import { init, simdSupported } from '../../js/index.js';
import inlineWasm from 'virtual:posenc-wasm';
import { createApp } from './app.js';
import { createCompute } from './compute.js';
import { parseState } from './state.js';

const state = parseState(new URLSearchParams(location.search));
const fromBase64 = (s) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
// The single-file build carries both wasm builds inline, so it needs no fetch (file:// forbids it).
const pe = await init(inlineWasm ? { wasm: fromBase64(simdSupported() ? inlineWasm.simd : inlineWasm.scalar) } : {});

const root = document.querySelector('#app');
if (state.embed) document.documentElement.classList.add('embed');
document.querySelector('.backend').textContent = `${pe.backend === 'simd' ? 'WebAssembly SIMD128' : 'scalar WebAssembly'}${inlineWasm ? ', single-file build' : ''}`;
const app = createApp(root, { pe, state, chrome: !state.embed, compute: createCompute(pe, { useWorker: !inlineWasm }) });
globalThis.posencApp = app;

if (state.embed && window.parent !== window) {
  // The parent sizes its iframe from this: { type: 'posenc:height', height, view }.
  let last = -1;
  const post = () => {
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height === last) return;
    last = height;
    window.parent.postMessage({ type: 'posenc:height', height, view: state.view }, '*');
  };
  new ResizeObserver(post).observe(document.documentElement);
  post();
}

// Precache the page so the second visit works offline. Not for file:// or the single-file build.
if (import.meta.env.PROD && !inlineWasm && 'serviceWorker' in navigator && /^https?:$/.test(location.protocol)) {
  navigator.serviceWorker.register('./sw.js').catch(() => {});
}
