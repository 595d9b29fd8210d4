// Heights that do not move. Every view, as the page's "Copy embed code" writes it (embed-code.js:
// the element and the iframe, each with its height rule and fallback link), in posts that imitate
// a Hugo theme (18 px Georgia, line height 1.7, a `light` class on <html>), VitePress (16 px sans,
// line height 1.75, its phone column) and a React app (15 px system-ui, line height 1.4), on a slow
// first load: every posenc file is held back until the post has painted. One page per width holds
// all 28 embeds. Checked: each embed's height from the first paint to its first real render (every
// animation frame) never changes by more than 1 px, and the layout shift a reader sees, scrolled
// below every embed (PerformanceObserver 'layout-shift'), stays under 0.01.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { embedCode } from '../web/src/embed-code.js';
import { frames, launch, serve, skip } from './browser_embed_harness.js';
import { VIEWS as VIEW_ROWS } from '../web/src/state.js';

// Every view the page has (web/src/state.js VIEWS): a new view is measured and tested with no edit here.
const VIEWS = VIEW_ROWS.map(([id]) => id);
const ATTRS = (v) => (v === 'shuffle' || v === 'lab' ? {} : { method: 'rope', dim: '32' });

const STACKS = {
  hugo: {
    html: 'light',
    css: 'body{max-width:680px;margin:0 auto;padding:0 16px;font:18px/1.7 Georgia,serif;background:#fbf7ee} html.light body{line-height:1.9}',
  },
  vitepress: {
    html: '',
    css: 'body{margin:0;padding:0 24px;font:16px/1.75 Inter,ui-sans-serif,sans-serif} main{max-width:688px;margin:0 auto}',
  },
  react: {
    html: '',
    css: 'body{margin:0;font:15px/1.4 system-ui,sans-serif} #root{max-width:760px;margin:0 auto;padding:0 12px}',
  },
};
// Widths: the viewport, and so the column (a phone's 320, VitePress's 342, a phone's 390, a tablet, a desktop).
const RUNS = [
  [320, 'vitepress'],
  [342, 'vitepress'],
  [390, 'hugo'],
  [768, 'react'],
  [1280, 'hugo'],
];

/** The snippet as a post carries it, pointed at the test's server; every frame loads at once. */
const snippet = (kind, v) => {
  const code = embedCode({ view: v, ...ATTRS(v) }, '/')[kind];
  return code.replace(' loading="lazy"', '').replace(/<script[^>]*><\/script>\n?/, '');
};
const post = (stack) => {
  const { html, css } = STACKS[stack];
  const body = VIEWS.map(
    (v) =>
      `<h2>${v}</h2><p>Text before the figure, in the post's own font.</p>
${snippet('element', v).replace('<posenc-view', `<posenc-view data-test="element-${v}"`)}
<p>Between.</p>
${snippet('iframe', v).replace('<iframe', `<iframe data-test="iframe-${v}"`)}
<p>After the ${v} figures: this paragraph moves if they change height.</p>`,
  ).join('\n');
  return `<!doctype html><html lang="en" class="${html}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Positional encoding</title>
<style>${css}</style>
<script>window.__cls = 0; new PerformanceObserver((l) => { for (const e of l.getEntries()) if (!e.hadRecentInput) window.__cls += e.value; })
  .observe({ type: 'layout-shift', buffered: true });</script></head><body><main id="root"><h1>Positional encoding</h1>
${body}<h2 id="end">The end</h2><p>Last words.</p></main>
<script type="module" src="/posenc-view.js"></script><script src="/posenc-embed.js" async></script></body></html>`;
};

let browser;
before(async () => {
  if (skip) return;
  browser = await launch();
});
after(() => browser?.close());

const table = [];
for (const [width, stack] of RUNS) {
  test(`every view, element and iframe, ${stack}-like post at ${width} px: no embed changes height; CLS below the embeds < 0.01`, {
    skip,
    timeout: 400000,
  }, async (t) => {
    const srv = await serve({ pages: { '/post.html': post(stack) }, hold: (p) => p !== '/post.html' });
    const ctx = await browser.newContext({ viewport: { width, height: 900 }, serviceWorkers: 'block' });
    const page = await ctx.newPage();
    // 'commit': the post's held scripts keep DOMContentLoaded back.
    await page.goto(`${srv.origin}/post.html`, { waitUntil: 'commit' });
    await page.waitForSelector('#end');
    // The reader is already below every embed; each embed's height is sampled every frame.
    await page.evaluate(() => {
      document.getElementById('end').scrollIntoView();
      window.__heights = {};
      const sample = () => {
        for (const e of document.querySelectorAll('[data-test]')) {
          const h = Math.round(e.getBoundingClientRect().height);
          const seen = (window.__heights[e.dataset.test] ??= []);
          if (seen[seen.length - 1] !== h) seen.push(h);
        }
        requestAnimationFrame(sample);
      };
      sample();
    });
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
    const { cls, heights, errors } = await page.evaluate(() => ({
      cls: window.__cls,
      heights: window.__heights,
      errors: [...document.querySelectorAll('posenc-view[data-error]')].map((e) => e.getAttribute('view')),
    }));
    await ctx.close();
    srv.close();
    const moved = Object.entries(heights)
      .map(([k, hs]) => [k, Math.max(...hs) - Math.min(...hs), hs])
      .filter(([, d]) => d > 1);
    for (const v of VIEWS)
      for (const kind of ['element', 'iframe']) {
        const hs = heights[`${kind}-${v}`] ?? [];
        table.push([width, stack, v, kind, hs[0], Math.max(...hs) - Math.min(...hs)]);
      }
    t.diagnostic(`CLS ${cls.toFixed(4)} at ${width} px (${stack}); moved: ${JSON.stringify(moved)}`);
    assert.deepEqual(errors, []);
    assert.deepEqual(moved, [], 'embeds whose height changed while loading (first height, …, last)');
    assert.ok(cls < 0.01, `CLS ${cls} at ${width} px`);
  });
}

after(() => {
  if (table.length && process.env.POSENC_CLS_TABLE) console.log(table.map((r) => `| ${r.join(' | ')} |`).join('\n'));
});
