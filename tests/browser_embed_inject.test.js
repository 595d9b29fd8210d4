// Hostile links and hostile attributes: every text-bearing state key (state.js FIELDS parsed with
// text(): sentence, order, step, hide) carries markup without spaces (the Shuffle lab splits its
// sentence on whitespace, so a payload with spaces never reaches innerHTML whole), through the
// page URL, an ?embed=1 frame and <posenc-view> attributes on a host page without a CSP (where an
// injected onerror handler would run). No injected element may appear anywhere, in the document,
// in the element's shadow root, or in a frame.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launch, rendered, serve, skip } from './browser_embed_harness.js';

const PAYLOADS = [
  '<img/src="x"/onerror="top.__pwn=1"/data-pwn>',
  '<b/data-pwn>bold</b>',
  '"><i/data-pwn>',
  "'><i/data-pwn>",
  '<meta/http-equiv="refresh"/data-pwn/content="0;url=about:blank">',
  '<form/data-pwn><input/name=password></form>',
];
const TEXT_KEYS = ['sentence', 'order', 'step', 'hide'];
// Views that print state text (the Shuffle lab prints the sentence), a plain view, and a guided
// step (step= is looked up among the steps).
const VIEWS = ['shuffle', 'heatmap', 'lab'];

const hostPage = (attrs) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>host</title></head><body>
<h1>A post</h1>${attrs.map((a, i) => `<posenc-view id="e${i}" ${a}></posenc-view>`).join('\n')}
<script type="module" src="/posenc-view.js"></script></body></html>`;
const attr = (v) => v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** Elements carrying data-pwn anywhere: the document, open shadow roots, same-origin frames. */
const injected = () => {
  const found = [];
  const walk = (root, where) => {
    for (const el of root.querySelectorAll('*')) {
      if (el.hasAttribute('data-pwn')) found.push(`${where}: <${el.tagName.toLowerCase()}>`);
      if (el.shadowRoot) walk(el.shadowRoot, `${where} #shadow(${el.id || el.tagName.toLowerCase()})`);
      if (el.tagName === 'IFRAME' && el.contentDocument) walk(el.contentDocument, `${where} iframe`);
    }
  };
  walk(document, 'document');
  return { found, pwn: globalThis.__pwn ?? 0, title: document.title };
};

let browser, srv;
const pages = {};
for (const v of VIEWS) {
  const list = PAYLOADS.map((p) => `view="${v}" ${TEXT_KEYS.map((k) => `${k}="${attr(p)}"`).join(' ')}`);
  pages[`/host-${v}.html`] = hostPage(list);
  // sentence with the payload as one of several words (the lab splits on whitespace)
  pages[`/host-${v}-words.html`] = hostPage(
    PAYLOADS.map((p) => `view="${v}" sentence="dog ${attr(p)} man" order="2,1,0"`),
  );
}
// The guided path: no view, a hostile step.
pages['/host-step.html'] = hostPage(PAYLOADS.map((p) => `step="${attr(p)}" sentence="${attr(p)}"`));

before(async () => {
  if (skip) return;
  browser = await launch();
  srv = await serve({ pages });
});
after(async () => {
  await browser?.close();
  srv?.close();
});

async function check(ctx, url, wait) {
  const page = await ctx.newPage();
  await page.goto(url);
  await wait(page);
  const r = await page.evaluate(injected);
  await page.close();
  return r;
}
const links = () => {
  const out = [];
  for (const v of VIEWS) {
    for (const p of PAYLOADS) {
      const q = new URLSearchParams([['view', v], ...TEXT_KEYS.map((k) => [k, p])]);
      out.push(
        `?${q}`,
        `?${new URLSearchParams([
          ['view', v],
          ['sentence', `dog ${p} man`],
          ['order', '2,1,0'],
        ])}`,
      );
    }
  }
  for (const p of PAYLOADS)
    out.push(
      `?${new URLSearchParams([
        ['step', p],
        ['sentence', p],
      ])}`,
    );
  return out;
};

test('hostile text keys in the page URL and in ?embed=1 put no element into the page', {
  skip,
  timeout: 600000,
}, async () => {
  const ctx = await browser.newContext({ serviceWorkers: 'block' });
  const bad = [];
  for (const l of links()) {
    for (const url of [`${srv.origin}/${l}`, `${srv.origin}/${l}&embed=1`]) {
      const r = await check(ctx, url, rendered);
      if (r.found.length || r.pwn) bad.push(`${url}: ${r.found.join(', ')} pwn=${r.pwn}`);
    }
  }
  await ctx.close();
  assert.deepEqual(bad, []);
});

test('hostile <posenc-view> attributes on a host page without a CSP put no element and run no script', {
  skip,
  timeout: 300000,
}, async () => {
  const ctx = await browser.newContext({ serviceWorkers: 'block' });
  const bad = [];
  for (const path of Object.keys(pages)) {
    const r = await check(ctx, `${srv.origin}${path}`, (page) =>
      page.waitForFunction(() => [...document.querySelectorAll('posenc-view')].every((e) => e.dataset.ready), null, {
        timeout: 120000,
      }),
    );
    if (r.found.length || r.pwn || r.title !== 'host')
      bad.push(`${path}: ${r.found.join(', ')} pwn=${r.pwn} title=${r.title}`);
  }
  await ctx.close();
  assert.deepEqual(bad, []);
});
