// Deploys that cannot strand a reader. A reader visits a post with a posenc embed (deploy A), a new
// build goes live (deploy B: every hashed file renamed, as a rebuild does), and the reader comes
// back to a view not seen before. Host policies: `Cache-Control: max-age=600` (GitHub Pages) and
// `no-cache` (revalidate everything). Everything waits on state (the element's data-ready or
// data-error, the frame's layout), never on time.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { dist, launch, redeploy, rendered, serve, skip } from './browser_embed_harness.js';

let browser, work, A, B, HTML;
before(async () => {
  if (skip) return;
  browser = await launch();
  work = mkdtempSync(join(tmpdir(), 'posenc-deploy-test-'));
  A = join(work, 'A');
  B = join(work, 'B');
  HTML = join(work, 'html');
  cpSync(dist, A, { recursive: true });
  redeploy(A, B, { title: 'DEPLOY B' });
  redeploy(A, HTML, { title: 'ONLY HTML', assets: false });
});
after(async () => {
  await browser?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

const post = (body) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>post</title></head>
<body><h1>A post</h1>${body}<p>After.</p></body></html>`;
const element = (view) =>
  post(`<posenc-view id="e" view="${view}" method="rope" dim="32"><a href="/?view=${view}">posenc: ${view}</a></posenc-view>
<script type="module" src="/posenc-view.js"></script>`);
const frame = (view) =>
  post(`<iframe id="f" title="posenc" src="/?embed=1&view=${view}&method=rope&dim=32" style="width:100%;border:0"></iframe>
<script src="/posenc-embed.js"></script>`);
const PAGES = {
  '/heatmap-element.html': element('heatmap'),
  '/rotation-element.html': element('rotation'),
  '/heatmap-frame.html': frame('heatmap'),
  '/rotation-frame.html': frame('rotation'),
};

/** The element's outcome: 'ready' or its error and message. */
async function elementOutcome(page, path) {
  await page.goto(path);
  await page.waitForFunction(
    () => {
      const e = document.getElementById('e');
      return e?.dataset.ready || e?.dataset.error;
    },
    null,
    { timeout: 90000 },
  );
  return page.evaluate(() => {
    const e = document.getElementById('e');
    const text = e.shadowRoot?.textContent ?? '';
    return e.dataset.ready && !/could not load/i.test(text) ? 'ready' : `${e.dataset.error}: ${text.slice(0, 200)}`;
  });
}

for (const policy of ['max-age=600', 'no-cache']) {
  test(`<posenc-view>, ${policy}: after a deploy, a view not seen before renders (first and second visit)`, {
    skip,
    timeout: 300000,
  }, async () => {
    const srv = await serve({ dir: A, pages: PAGES, headers: { 'cache-control': policy } });
    const ctx = await browser.newContext({ serviceWorkers: 'block' });
    const page = await ctx.newPage();
    assert.equal(await elementOutcome(page, `${srv.origin}/heatmap-element.html`), 'ready');
    srv.setDir(B);
    assert.equal(await elementOutcome(page, `${srv.origin}/rotation-element.html`), 'ready', 'first visit after');
    assert.equal(await elementOutcome(page, `${srv.origin}/rotation-element.html`), 'ready', 'second visit after');
    await ctx.close();
    srv.close();
  });
}

/** The posenc frame's title once its view is live. */
async function frameTitle(page, path) {
  await page.goto(path);
  const f = page.frameLocator('#f');
  await f.locator('#app[data-layout=live]').waitFor({ timeout: 90000 });
  return page.frame({ url: /embed=1/ }).title();
}

for (const policy of ['max-age=600', 'no-cache']) {
  test(`same-site iframe with its service worker, ${policy}: after a deploy the first visit shows the new page, a view not seen before included`, {
    skip,
    timeout: 300000,
  }, async () => {
    const srv = await serve({ dir: A, pages: PAGES, headers: { 'cache-control': policy } });
    const ctx = await browser.newContext();
    const page = await ctx.newPage();
    assert.notEqual(await frameTitle(page, `${srv.origin}/heatmap-frame.html`), 'DEPLOY B');
    await page.frameLocator('#f').locator('html[data-offline=ready]').waitFor({ timeout: 60000 });
    srv.setDir(B);
    assert.equal(await frameTitle(page, `${srv.origin}/rotation-frame.html`), 'DEPLOY B', 'a view not seen before');
    assert.equal(await frameTitle(page, `${srv.origin}/heatmap-frame.html`), 'DEPLOY B', 'the view seen before');
    await ctx.close();
    srv.close();
  });
}

test('a deploy that changes only index.html reaches an iframe reader at the first visit after it', {
  skip,
  timeout: 300000,
}, async () => {
  const srv = await serve({ dir: A, pages: PAGES, headers: { 'cache-control': 'no-cache' } });
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  assert.notEqual(await frameTitle(page, `${srv.origin}/heatmap-frame.html`), 'ONLY HTML');
  await page.frameLocator('#f').locator('html[data-offline=ready]').waitFor({ timeout: 60000 });
  srv.setDir(HTML);
  assert.equal(await frameTitle(page, `${srv.origin}/heatmap-frame.html`), 'ONLY HTML');
  // Offline afterwards: the page the worker stored is the new one.
  await page.frameLocator('#f').locator('html[data-offline=ready]').waitFor({ timeout: 60000 });
  // Offline (the post itself is the blog's, not the worker's): the embed's page is the new one.
  await ctx.setOffline(true);
  await page.goto(`${srv.origin}/?embed=1&view=heatmap&method=rope&dim=32`);
  await rendered(page);
  assert.equal(await page.title(), 'ONLY HTML', 'offline');
  await ctx.close();
  srv.close();
});

test('the full page from a max-age=600 cache: a view whose chunk is gone after a deploy reloads the page once, from the new build', {
  skip,
  timeout: 300000,
}, async () => {
  const srv = await serve({ dir: A, headers: { 'cache-control': 'max-age=600' } });
  const ctx = await browser.newContext({ serviceWorkers: 'block' });
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${srv.origin}/?view=heatmap`);
  await rendered(page);
  srv.setDir(B);
  await page.goto(`${srv.origin}/?view=heatmap`); // deploy A's page, from the HTTP cache
  await rendered(page);
  assert.notEqual(await page.title(), 'DEPLOY B');
  const reloaded = page.waitForEvent('load');
  await page.evaluate(() => globalThis.posencApp.setState({ view: 'rotation' }));
  await reloaded;
  await rendered(page);
  assert.equal(await page.title(), 'DEPLOY B');
  assert.equal(await page.evaluate(() => globalThis.posencApp.state.view), 'rotation');
  assert.equal(await page.locator('#app .error').count(), 0, 'no error shown');
  assert.deepEqual(errors, []);
  await ctx.close();
  srv.close();
});
