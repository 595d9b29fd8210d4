// The posts tests/browser_embed_cls.test.js and tools/embed_cls.js load: every view as the page's
// "Copy embed code" writes it (embed-code.js), element and iframe, each at one of the settings a
// blogger picks (the default, controls=own, another method, the largest sizes: the probes
// tools/embed_settings.js measures), in a blog column with the run's font set and text size.
import { embedCode } from '../web/src/embed-code.js';
import { embedHeight } from '../web/src/embed-heights.js';
import { frames, serve } from './browser_embed_harness.js';
import { VIEWS as VIEW_ROWS } from '../web/src/state.js';
import { BIG, probes } from '../tools/embed_settings.js';

// Every view the page has (web/src/state.js VIEWS): a new view is tested with no edit here.
export const VIEWS = VIEW_ROWS.map(([id]) => id);
/** The font sets build.sh installs (fonts-dejavu-core, fonts-liberation, fonts-noto-core). */
export const FONTS = {
  dejavu: "'DejaVu Serif', serif",
  liberation: "'Liberation Sans', sans-serif",
  noto: "'Noto Serif', serif",
};
const METHODISH = ['method', 'vs', 'labmethods'];

/** The settings view `v` is embedded at: [{ name, params }], the default first. */
export function settingsOf(v) {
  const ps = probes(v);
  const method = ps.find((p) => METHODISH.some((k) => k in p) && p.method !== 'sinusoidal');
  // the largest sizes: the view's own (tools/embed_settings.js BIG), else its dimension and length
  const big = BIG[v]?.find((p) => p !== method) ?? ps.find((p) => 'dim' in p);
  return [
    { name: 'default', params: {} },
    { name: 'own', params: { controls: 'own' } },
    ...(method ? [{ name: 'method', params: method }] : []),
    ...(big ? [{ name: 'big', params: big }] : []),
  ];
}

/** The CI runs: every width a phone, a tablet and a desktop give, each font set at both ends of
 * the text sizes, the reader at the top and below; `shift` rotates the settings over the views. */
export const RUNS = [
  { width: 320, font: 'dejavu', size: 14, reader: 'below' },
  { width: 342, font: 'liberation', size: 22, reader: 'top' },
  { width: 390, font: 'noto', size: 18, reader: 'below' },
  { width: 414, font: 'liberation', size: 16, reader: 'below' },
  { width: 768, font: 'noto', size: 22, reader: 'top' },
  { width: 1280, font: 'dejavu', size: 20, reader: 'below' },
].map((r, i) => ({ ...r, shift: i }));

/** The snippet as a post carries it, pointed at the test's server; every frame loads at once. */
const snippet = (kind, v, params) =>
  embedCode({ view: v, ...params }, '/')
    [kind].replace(' loading="lazy"', '')
    .replace(/<script[^>]*><\/script>\n?/, '');

/** The post's HTML and its cases [{ view, kind, setting, params }] (params: the snippet's keys). */
export function post({ font, size, shift }) {
  const cases = [];
  const body = VIEWS.map((v, i) => {
    const all = settingsOf(v);
    const s = all[(i + shift) % all.length];
    const keys = new URLSearchParams(embedCode({ view: v, ...s.params }, '/').link.split('?')[1]);
    const params = Object.fromEntries(keys);
    for (const kind of ['element', 'iframe']) cases.push({ view: v, kind, setting: s.name, params });
    return `<h2>${v}</h2><p>Text before the figure, in the post's own font.</p>
${snippet('element', v, s.params).replace('<posenc-view', `<posenc-view data-test="element-${v}"`)}
<p>Between.</p>
${snippet('iframe', v, s.params).replace('<iframe', `<iframe data-test="iframe-${v}"`)}
<p>After the ${v} figures: this paragraph moves if they change height.</p>`;
  }).join('\n');
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Positional encoding</title>
<style>body{margin:0;padding:0 16px;font:${size}px/${size > 18 ? 1.8 : 1.5} ${FONTS[font]};background:#fbf7ee} main{max-width:680px;margin:0 auto}
body * { font-family: ${FONTS[font]} !important; }</style>
<script>window.__cls = 0; window.__shifts = []; new PerformanceObserver((l) => { for (const e of l.getEntries()) if (!e.hadRecentInput) { window.__cls += e.value; window.__shifts.push([e.value, ...e.sources.map((s) => { const n = s.node; const host = n?.getRootNode?.().host; return (host ? host.dataset.test + ' > ' : '') + (n?.nodeName ?? '?') + '.' + (n?.className ?? '') + ' ' + JSON.stringify([s.previousRect.y, s.currentRect.y, s.previousRect.height, s.currentRect.height]); })]); } })
  .observe({ type: 'layout-shift', buffered: true });</script></head><body><main id="root"><h1>Positional encoding</h1>
${body}<h2 id="end">The end</h2><p>Last words.</p></main>
<script type="module" src="/posenc-view.js"></script><script src="/posenc-embed.js" async></script></body></html>`;
  return { html, cases };
}

/** One run: the post at `width` with `font`, `size` px text, the reader at `reader`; every embed's
 * heights (first paint .. ready), the column, the CLS and the views that failed. */
export async function runPost(browser, { width, font, size, reader, shift }) {
  const { html, cases } = post({ font, size, shift });
  const srv = await serve({ pages: { '/post.html': html }, hold: (p) => p !== '/post.html' });
  const ctx = await browser.newContext({
    viewport: { width, height: width < 768 ? 844 : 900 },
    serviceWorkers: 'block',
  });
  await ctx.addInitScript(`(${forceFont})(${JSON.stringify(font)})`);
  const page = await ctx.newPage();
  try {
    // 'commit': the post's held scripts keep DOMContentLoaded back.
    await page.goto(`${srv.origin}/post.html`, { waitUntil: 'commit' });
    await page.waitForSelector('#end');
    await page.evaluate(watchHeights, reader);
    await frames(page, 3); // the post has painted with nothing of posenc yet
    srv.release();
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll('posenc-view')].every((e) => e.dataset.ready || e.dataset.error) &&
        [...document.querySelectorAll('iframe')].every((f) =>
          f.contentDocument?.querySelector('#app[data-layout=live]'),
        ),
      null,
      { timeout: 360000 },
    );
    await frames(page, 10);
    const out = await page.evaluate(() => ({
      // what each view needs against its box (px): the part that scrolls inside it, or the blank
      content: Object.fromEntries(
        [...document.querySelectorAll('[data-test]')].map((e) => [
          e.dataset.test,
          e.tagName === 'IFRAME'
            ? e.contentDocument.querySelector('#app').getBoundingClientRect().height
            : ((r) => {
                const top = r.getBoundingClientRect().top - r.scrollTop;
                return Math.max(...[...r.children].map((c) => c.getBoundingClientRect().bottom - top));
              })(e.shadowRoot.querySelector('.posenc-app')),
        ]),
      ),
      cls: window.__cls,
      shifts: window.__shifts,
      heights: window.__heights,
      column: Math.round(document.querySelector('main').getBoundingClientRect().width),
      errors: [...document.querySelectorAll('posenc-view[data-error]')].map((e) => e.getAttribute('view')),
    }));
    return { ...out, cases };
  } finally {
    await ctx.close();
    srv.close();
  }
}

/** In each embed page: the run's font set, forced on its text (the post sets its own, which the
 * element takes by inheritance). */
function forceFont(family) {
  if (window.top === window) return;
  const add = () => {
    const s = document.createElement('style');
    s.textContent = `body, body * { font-family: ${family} !important; }`;
    document.head.append(s);
  };
  if (document.head) add();
  else document.addEventListener('DOMContentLoaded', add);
}

/** In the post: the reader's place, then every embed's height sampled every frame. */
function watchHeights(reader) {
  if (reader === 'below') document.getElementById('end').scrollIntoView();
  window.__heights = {};
  const sample = () => {
    for (const e of document.querySelectorAll('[data-test]')) {
      const h = Math.round(e.getBoundingClientRect().height * 10) / 10;
      const seen = (window.__heights[e.dataset.test] ??= []);
      if (seen[seen.length - 1] !== h) seen.push(h);
    }
    requestAnimationFrame(sample);
  };
  sample();
}

/** The embeds whose height moved or is not embedHeight() of their state: [[name, heights, want]]. */
export function offBox({ heights, cases, column }) {
  const bad = [];
  for (const { view, kind, params } of cases) {
    const name = `${kind}-${view}`;
    const hs = heights[name] ?? [];
    const want = embedHeight({ view, embed: kind, params, width: column });
    if (!hs.length || hs.some((h) => Math.abs(h - want) > 1)) bad.push([name, hs, want]);
  }
  return bad;
}
