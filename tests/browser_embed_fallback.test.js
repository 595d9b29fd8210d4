// Never a blank box: a <posenc-view> that cannot draw says why (a visible message, data-error, a
// `posenc-error` event) and shows its own fallback content (its children: a link to the view). Cases:
// a host page enforcing Trusted Types, a view chunk the server cannot send, the element module the
// server cannot send. Before the script runs (and for feed readers) the children are what shows.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launch, serve, skip } from './browser_embed_harness.js';

const post = (body, head = '') => `<!doctype html><html lang="en"><head><meta charset="utf-8">${head}
<title>post</title></head><body><h1>A post</h1>
<posenc-view id="e" view="heatmap" dim="32" length="48" style="display:block;min-height:400px">
  <a id="fallback" href="/?view=heatmap&dim=32&length=48">posenc: the sinusoidal heatmap (interactive)</a>
</posenc-view>
<script>window.errors = []; document.addEventListener('posenc-error', (e) => errors.push(e.detail));</script>
${body}<p>After.</p></body></html>`;
const ELEMENT = '<script type="module" src="/posenc-view.js"></script>';

let browser;
before(async () => {
  if (skip) return;
  browser = await launch();
});
after(() => browser?.close());

/** Open `path` on a fresh server, wait for the element's error, and read what the reader sees. */
async function failure(srv, path) {
  const ctx = await browser.newContext({ serviceWorkers: 'block' });
  const page = await ctx.newPage();
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto(`${srv.origin}${path}`);
  await page.waitForFunction(() => document.getElementById('e').dataset.error && window.errors.length, null, {
    timeout: 60000,
  });
  const seen = await page.evaluate(() => {
    const el = document.getElementById('e');
    const note = el.shadowRoot?.querySelector('[role=alert]');
    const link = document.getElementById('fallback').getBoundingClientRect();
    return {
      kind: el.dataset.error,
      events: window.errors,
      message: note?.textContent ?? '',
      noteHeight: note?.getBoundingClientRect().height ?? 0,
      linkHeight: link.height,
    };
  });
  await ctx.close();
  return { ...seen, pageErrors };
}

test('a Trusted Types host (require-trusted-types-for script): a message, posenc-error and the fallback link', {
  skip,
  timeout: 120000,
}, async () => {
  const csp = `<meta http-equiv="Content-Security-Policy" content="script-src 'self' 'unsafe-inline' 'wasm-unsafe-eval'; require-trusted-types-for 'script'">`;
  const srv = await serve({ pages: { '/tt.html': post(ELEMENT, csp) } });
  const seen = await failure(srv, '/tt.html');
  srv.close();
  assert.equal(seen.kind, 'trusted-types');
  assert.deepEqual(
    seen.events.map((d) => d.kind),
    ['trusted-types'],
  );
  assert.match(seen.message, /Trusted Types/);
  assert.ok(seen.noteHeight > 10, 'the message is visible');
  assert.ok(seen.linkHeight > 10, 'the fallback link is visible under it');
  assert.deepEqual(seen.pageErrors, [], 'no unhandled exception');
});

test('a view chunk the server cannot send (offline, gone): a message naming the view, posenc-error, the fallback link', {
  skip,
  timeout: 120000,
}, async () => {
  const srv = await serve({
    pages: { '/post.html': post(ELEMENT) },
    fail: (p) => /\/assets\/heatmap-[\w-]+\.js$/.test(p),
  });
  const seen = await failure(srv, '/post.html');
  // Once from the page's entry, once more from the fresh entry's (the same build: no second try).
  const tries = srv.log.filter((p) => /\/assets\/heatmap-/.test(p)).length;
  srv.close();
  assert.equal(seen.kind, 'load');
  assert.match(seen.message, /heatmap view/);
  assert.equal(seen.events.length, 1);
  assert.ok(seen.noteHeight > 10 && seen.linkHeight > 10, 'message and fallback link visible');
  assert.ok(tries >= 1 && tries <= 2, `the chunk was asked for ${tries} times`);
  assert.deepEqual(seen.pageErrors, []);
});

test('the element module the server cannot send: the entry still defines the element, which says so', {
  skip,
  timeout: 120000,
}, async () => {
  const srv = await serve({
    pages: { '/post.html': post(ELEMENT) },
    fail: (p) => /\/assets\/element-module-/.test(p),
  });
  const seen = await failure(srv, '/post.html');
  srv.close();
  assert.equal(seen.kind, 'load');
  assert.match(seen.message, /posenc could not load its element/);
  assert.ok(seen.noteHeight > 10 && seen.linkHeight > 10, 'message and fallback link visible');
});

test('before the script runs (or without it: a feed reader, no JS), the fallback link shows', {
  skip,
  timeout: 60000,
}, async () => {
  const srv = await serve({ pages: { '/post.html': post('') } });
  const ctx = await browser.newContext({ javaScriptEnabled: false });
  const page = await ctx.newPage();
  await page.goto(`${srv.origin}/post.html`);
  const h = await page.evaluate(() => document.getElementById('fallback').getBoundingClientRect().height);
  await ctx.close();
  srv.close();
  assert.ok(h > 10, `fallback link ${h}px tall`);
});
