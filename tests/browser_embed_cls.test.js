// Cumulative layout shift of a Hugo-like post (hugo-paper's column: 680 px, an 18 px serif) with
// the page's own snippets (web/src/chrome.js footer: one iframe, one <posenc-view>), on a slow
// first load: every posenc file is held back until the post has painted. The shifts are read from
// a PerformanceObserver('layout-shift') in the post. The viewport is tall enough for the whole post
// to be in view, so every shift counts.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { frames, launch, serve, skip } from './browser_embed_harness.js';

// The two <pre><code> snippets of the page's footer, unescaped, pointed at the test's server.
const chrome = readFileSync(new URL('../web/src/chrome.js', import.meta.url), 'utf8');
const footer = chrome.slice(chrome.indexOf('export const footer'));
const unhtml = (s) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
const snippets = [...footer.matchAll(/<pre><code>([\s\S]*?)<\/code><\/pre>/g)].map((m) =>
  unhtml(m[1]).replaceAll('https://YOUR-HOST/posenc/', '/'),
);

const post = (body) => `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Positional encoding</title>
<style>body { max-width: 680px; margin: 0 auto; padding: 0 16px; font: 18px/1.6 Georgia, serif; background: #faf8f1; }</style>
<script>window.__cls = 0; new PerformanceObserver((l) => { for (const e of l.getEntries()) if (!e.hadRecentInput) window.__cls += e.value; })
  .observe({ type: 'layout-shift', buffered: true });</script></head><body>
<h1>Positional encoding</h1><p>Transformers see a set, not a sequence. The figure below computes the encodings live.</p>
${body}<h2>After the figures</h2><p>Every word of this paragraph would move if the figures above changed height.</p></body></html>`;

let browser;
before(async () => {
  if (skip) return;
  browser = await launch();
});
after(() => browser?.close());

test('the footer carries an iframe and an element snippet with their heights', () => {
  assert.equal(snippets.length, 2);
  assert.match(snippets[0], /<iframe[^>]* height="\d{3,}"/);
  assert.match(snippets[1], /<posenc-view[^>]*min-height:\d{3,}px/);
});

for (const width of [1280, 390]) {
  test(`a Hugo-like post with the page's snippets on a slow first load: layout shift at ${width} px`, {
    skip,
    timeout: 120000,
  }, async (t) => {
    const srv = await serve({
      pages: { '/post.html': post(snippets.join('\n<p>Between the two figures.</p>\n')) },
      hold: (p) => p !== '/post.html',
    });
    const ctx = await browser.newContext({ viewport: { width, height: 4800 }, serviceWorkers: 'block' });
    const page = await ctx.newPage();
    // 'commit': the post's module script (held) keeps DOMContentLoaded back.
    await page.goto(`${srv.origin}/post.html`, { waitUntil: 'commit' });
    await page.waitForSelector('h2');
    await frames(page, 3); // the post has painted with nothing of posenc yet
    srv.release();
    await page.waitForFunction(
      () => {
        const f = document.querySelector('iframe');
        return (
          document.querySelector('posenc-view')?.dataset.ready &&
          f.dataset.posencHeight &&
          f.contentDocument?.querySelector('#app[data-layout=live]')
        );
      },
      null,
      { timeout: 90000 },
    );
    await frames(page, 5);
    const cls = await page.evaluate(() => window.__cls);
    const h = await page.evaluate(() => [
      document.querySelector('iframe').getBoundingClientRect().height,
      document.querySelector('posenc-view').getBoundingClientRect().height,
    ]);
    t.diagnostic(`CLS ${cls.toFixed(4)} at ${width} px (iframe ${h[0]} px, element ${h[1]} px)`);
    assert.ok(cls < 0.01, `CLS ${cls} at ${width} px`);
    await ctx.close();
    srv.close();
  });
}
