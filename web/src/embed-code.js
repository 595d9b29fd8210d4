// "Copy embed code": the iframe and the <posenc-view> snippets for the view on screen, in its
// current state, each with the box that reserves the view's height from the snippet's own state
// and the column width (embed-heights.js embedHeight, written as CSS) and a fallback link for feed
// readers and readers without JavaScript. The page mounts it below the figure (main.js); nothing
// here is loaded by an embed. docs/embedding.md's snippets are written by this module too
// (tests/embed_code.test.js keeps them equal).
import { esc } from './draw.js';
import { embedHeight, embedHeightCss } from './embed-heights.js';
import { toParams } from './state.js';
import { VIEW_INFO } from './views/registry.js';

/** The state's own keys (what differs from the defaults), the view first; no page-only keys. A
 * view of many panels embeds one (the method's, else its first) unless the state names one. */
function keysOf(state) {
  const p = toParams({ ...state, step: '' });
  for (const k of ['view', 'embed', 'step']) p.delete(k);
  const panels = VIEW_INFO[state.view]?.panels ?? [];
  if (panels.length && !p.has('panel')) p.set('panel', (panels.find((x) => x.id === state.method) ?? panels[0]).id);
  return [['view', state.view], ...p];
}

/** The state and the host docs/embedding.md shows its snippets for (tools/embed_docs.js). */
export const DOCS_STATE = Object.freeze({ view: 'rotation' });
export const DOCS_BASE = 'https://YOUR-HOST/posenc/';

/**
 * The two snippets for `state`, served from `base` (the page's folder URL, ending in '/').
 * @returns {{ iframe: string, element: string, link: string }}
 */
export function embedCode(state, base) {
  const keys = keysOf(state);
  const params = Object.fromEntries(keys);
  const q = new URLSearchParams(keys).toString();
  const link = `${base}?${q}`;
  const title = `posenc: ${VIEW_INFO[state.view]?.title ?? state.view}`;
  const fallback = `${title} (interactive)`;
  const box = (embed) => embedHeightCss({ view: state.view, embed, params });
  // The iframe's height attribute (680 px column) stands where a CSP refuses style attributes.
  // Feed readers drop iframes: the link under it is what they keep. data-posenc-box: the frame
  // keeps this box (posenc-embed.js does not resize it); the view scrolls inside what does not fit.
  const frameAt680 = embedHeight({ view: state.view, embed: 'iframe', params, width: 680 });
  const iframe = `<div style="container-type:inline-size">
<iframe src="${esc(`${base}?embed=1&${q}`)}" title="${esc(title)}" width="100%" height="${frameAt680}" frameborder="0" loading="lazy" data-posenc-box style="display:block;width:100%;border:0;height:${box('iframe')}"></iframe>
<a href="${esc(link)}">${esc(fallback)}</a></div>
<script src="${esc(`${base}posenc-embed.js`)}" async></script>`;
  const attrs = keys.map(([k, v]) => ` ${k}="${esc(v)}"`).join('');
  const element = `<script type="module" src="${esc(`${base}posenc-view.js`)}"></script>
<posenc-view${attrs} style="display:block;container-type:inline-size">
<a href="${esc(link)}" style="display:block;overflow:hidden;height:${box('element')}">${esc(fallback)}</a></posenc-view>`;
  return { iframe, element, link };
}

/**
 * Mount the "Copy embed code" block into `where`: two buttons (iframe, element) that copy the
 * snippet for the app's current state, and the snippets themselves, kept up to date on every render.
 */
export function mountEmbedCode(where, app, base = new URL('./', location.href).href) {
  const box = document.createElement('details');
  box.className = 'embed-code';
  const summary = document.createElement('summary');
  summary.textContent = 'Copy embed code for this view';
  box.append(summary);
  const parts = {};
  let stale = false;
  for (const [kind, label] of [
    ['iframe', 'iframe (any site; sized by posenc-embed.js)'],
    ['element', '<posenc-view> (takes your font; one script per page)'],
  ]) {
    const row = document.createElement('div');
    const button = document.createElement('button');
    button.type = 'button';
    button.dataset.embedCode = kind;
    button.textContent = `Copy ${label}`;
    const pre = document.createElement('pre');
    const code = document.createElement('code');
    pre.append(code);
    const said = document.createElement('span');
    said.setAttribute('aria-live', 'polite');
    button.addEventListener('click', () => {
      if (stale) sync();
      const text = code.textContent;
      const done = (ok) => {
        said.textContent = ok ? ' copied' : ' select the text below and copy it';
      };
      navigator.clipboard?.writeText(text).then(
        () => done(true),
        () => done(false),
      ) ?? done(false);
    });
    row.append(button, said, pre);
    box.append(row);
    parts[kind] = code;
  }
  const note = document.createElement('p');
  note.textContent =
    'Each snippet reserves the view’s height from your column’s width before any script runs, and links to the view for feed readers.';
  box.append(note);
  const sync = () => {
    stale = false;
    const code = embedCode(app.state, base);
    parts.iframe.textContent = code.iframe;
    parts.element.textContent = code.element;
  };
  sync();
  where.prepend(box);
  // posenc-render fires inside the frame of every input: while the box is closed the snippets
  // (about 1 ms of string work) wait until it opens or a button asks for them.
  document.addEventListener('posenc-render', () => (box.open ? sync() : (stale = true)));
  box.addEventListener('toggle', () => box.open && stale && sync());
  return { sync };
}
