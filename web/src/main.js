// The page: state from the URL, the posenc core, the app shell. In embed mode (?embed=1) only the
// view is shown and its height is posted to the parent frame (web/public/posenc-embed.js sizes the
// iframe from it).
import './style.css'; // with the views' styles, one stylesheet (vite.config.js: the 'posenc' chunk)
import inlineWasm from 'virtual:posenc-wasm';
import { init, simdSupported, stubApi } from './api.js';
import {
  coreFor,
  createApp,
  lazyCompute,
  loadSteps,
  onLaidOut,
  preloadView,
  reservedHeight,
  resolveState,
  urlOf,
} from './app.js';
import { parseState } from './state.js';
import { backgroundOf } from './theme.js';

// A chunk (a view, the steps, the chrome) that cannot be fetched: this page is most likely an older deploy's (a host's HTTP
// cache kept index.html) naming files the server no longer has. Reload once, revalidating the page;
// a second failure in this tab shows the error.
const RELOAD = `posenc-reload ${location.pathname}`;
function reloadOnce() {
  try {
    if (sessionStorage.getItem(RELOAD)) return false;
    sessionStorage.setItem(RELOAD, '1');
    // a storage that drops writes without throwing would find no mark on every load: a loop
    if (sessionStorage.getItem(RELOAD) !== '1') return false;
  } catch {
    return false; // no storage (a sandboxed frame): no way to tell a loop from a first try
  }
  // The link first (its writer waits for a drag to settle): the reload opens what the reader chose.
  if (globalThis.posencApp && !globalThis.posencApp.state.embed)
    history.replaceState(history.state, '', urlOf(globalThis.posencApp.state));
  location.reload();
  return true;
}
const params = new URLSearchParams(location.search);
const parsed = parseState(params);
// The guided path's texts and the page's chrome (chrome.js: modes, tabs, exports) are chunks of
// their own: an embed needs neither.
const [, chrome] = await Promise.all([parsed.guided && loadSteps(), !parsed.embed && import('./chrome.js')]).catch(
  (e) => {
    if (!reloadOnce()) document.querySelector('#app').textContent = `posenc could not load: ${e?.message ?? e}`;
    return new Promise(() => {}); // the reload (or the message) is what follows
  },
);
const state = resolveState(parsed, params);
preloadView(state.view).catch(() => {}); // the chunk downloads while the wasm does (a failure is the app's)
const root = document.querySelector('#app');
document.documentElement.dataset.theme = state.theme;
if (state.embed) document.documentElement.classList.add('embed');
// ?background=transparent|<colour> (theme.js backgroundOf): the figure's paper matches the blog.
const background = backgroundOf(params.get('background'));
if (background) for (const p of ['--paper', '--bg']) document.documentElement.style.setProperty(p, background);

// Embeds: tell the parent the height as soon as the view is laid out (before the wasm arrives),
// and again whenever it changes.
const inFrame = state.embed && window.parent !== window;
let last = -1;
function postHeight() {
  const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
  if (height === last) return;
  last = height;
  window.parent.postMessage({ type: 'posenc:height', height, view: state.view }, '*');
}
// Until the view's chunk is here, reserve the height VIEW_INFO estimates from the state. Then the
// view is laid out with the stand-in API (stubApi: every result in its real shape),
// which is its final layout: when the wasm arrives only the numbers change.
// In an iframe the box is the host's: the snippet's iframe holds it (embed-heights.js, from the
// link's keys and the column's width) and what does not fit scrolls inside the frame, so this page
// needs no table of heights.
const reserve = reservedHeight(state, root.clientWidth);
if (reserve) root.style.setProperty('--reserve', `${reserve}px`);
root.classList.add('reserving');
const app = createApp(root, { pe: stubApi(), state, chrome: chrome || null, onLoadError: reloadOnce });
root.addEventListener('posenc-render', () => {
  try {
    sessionStorage.removeItem(RELOAD);
  } catch {}
});
if (chrome) {
  root.insertAdjacentHTML('afterend', chrome.footer);
  // "Copy embed code" for the view on screen (embed-code.js), in the footer.
  import('./embed-code.js')
    .then((m) => m.mountEmbedCode(document.querySelector('footer.chrome') ?? document.body, app))
    .catch(() => {});
}
globalThis.posencApp = app;
const laidOut = () => {
  root.classList.remove('reserving');
  if (inFrame) {
    new ResizeObserver(postHeight).observe(document.documentElement);
    postHeight();
  }
};
onLaidOut(root, laidOut);

// The host page's theme, from posenc-embed.js (which watches the host): only from the parent
// window, only for a frame whose link left the theme to `auto`; a link's light or dark wins.
if (inFrame && state.theme === 'auto') {
  addEventListener('message', (e) => {
    if (e.source !== window.parent || e.data?.type !== 'posenc:theme') return;
    const t = e.data.theme;
    if (t !== 'light' && t !== 'dark' && t !== 'auto') return;
    if (document.documentElement.dataset.theme === t) return;
    document.documentElement.dataset.theme = t;
    app.render(); // canvases read the colours at render time
  });
}

const fromBase64 = (s) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
// The single-file build carries both wasm builds inline, so it needs no fetch (file:// forbids it).
// An embed whose view calls no attention loads the lean core (api.js); the page itself, whose
// reader goes from view to view and starts at the Shuffle lab, loads the one with attention.
const pe = await init(
  inlineWasm
    ? { wasm: fromBase64(simdSupported() ? inlineWasm.simd : inlineWasm.scalar) }
    : { core: state.embed ? coreFor(state.view) : 'attention' },
);
// The single file also carries the lab's trainer; handing it over now means the lab view's
// pe.loadLab() later needs no fetch.
if (inlineWasm)
  pe.loadLab({ wasm: fromBase64(pe.backend === 'simd' ? inlineWasm.labSimd : inlineWasm.labScalar) }).catch(() => {});

document.querySelector('.backend').textContent =
  `${pe.backend === 'simd' ? 'WebAssembly SIMD128' : 'scalar WebAssembly'}${inlineWasm ? ', single-file build' : ''}`;
app.attach(pe, lazyCompute(pe, { useWorker: !inlineWasm }));

// The service worker (sw.template.js) stores the page's shell; once it is active the page hands it
// the list of files this visit fetched before the worker was there (this view's chunk, its core),
// so the second visit works offline (the full page asks for every view). <html data-offline="ready">
// says they are stored. Not for
// file:// or the single-file build. In a sandboxed iframe (opaque origin) merely reading
// navigator.serviceWorker throws SecurityError; a cross-site frame is refused a worker.
if (import.meta.env.PROD && !inlineWasm && /^https?:$/.test(location.protocol)) {
  try {
    const sw = navigator.serviceWorker;
    // update(): look for a new deploy now (a browser's own check on navigation comes later, if at all).
    sw?.register('./sw.js')
      .then((reg) => reg.update().catch(() => {}))
      .then(() => sw.ready)
      .then((reg) => {
        sw.addEventListener('message', (e) => {
          if (e.data?.type === 'posenc:cached' && e.data.ok) document.documentElement.dataset.offline = 'ready';
        });
        const urls = [location.href, ...performance.getEntriesByType('resource').map((r) => r.name)];
        reg.active?.postMessage({
          type: 'posenc:cache',
          urls: urls.filter((u) => u.startsWith(location.origin)),
          all: !state.embed,
        });
      })
      .catch(() => {});
  } catch {
    // no service worker here: the page works, only not offline
  }
}
