// The service worker (web/sw.template.js) as a returning reader meets it: a deploy under
// `Cache-Control: max-age=600` (GitHub Pages' default) reaches the second visit after it; two posenc
// deployments on one origin keep each other's offline copy; one embed stores what its view uses,
// not the whole build, and works offline after one visit. Everything waits on state (the caches'
// names, <html data-offline>, the page's render), never on time.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { dist, launch, rendered, serve, skip } from './browser_embed_harness.js';

let browser, work;
before(async () => {
  if (skip) return;
  browser = await launch();
  work = mkdtempSync(join(tmpdir(), 'posenc-sw-test-'));
});
after(async () => {
  await browser?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** The build's version (its service worker's cache name changes with it). */
const versionOf = (dir) =>
  /(?:VERSION = '|CACHE = 'posenc-)([0-9a-f]{12})'/.exec(readFileSync(join(dir, 'sw.js'), 'utf8'))[1];

/** A copy of web/dist as another deploy: every asset renamed (new hashes), the page retitled. */
function deploy(to, title) {
  cpSync(dist, to, { recursive: true });
  const v = versionOf(to);
  const assets = join(to, 'assets');
  for (const f of readdirSync(assets)) if (/\.(br|gz)$/.test(f)) rmSync(join(assets, f));
  for (const f of readdirSync(to)) if (/\.(br|gz)$/.test(f)) rmSync(join(to, f));
  const names = readdirSync(assets);
  const renamed = (n) => n.replace(/(\.[a-z]+)$/, `-${title.replace(/\W/g, '')}$1`);
  const texts = [
    ...readdirSync(to).filter((f) => /\.(html|js|css)$/.test(f)),
    ...names.filter((f) => /\.(js|css)$/.test(f)).map((f) => `assets/${f}`),
  ];
  for (const f of texts) {
    let s = readFileSync(join(to, f), 'utf8');
    for (const n of names) s = s.split(n).join(renamed(n));
    if (f === 'index.html') s = s.replace(/<title>[^<]*<\/title>/, `<title>${title}</title>`);
    if (f === 'sw.js') s = s.split(v).join([...v].reverse().join(''));
    writeFileSync(join(to, f), s);
  }
  for (const n of names) renameSync(join(assets, n), join(assets, renamed(n)));
  return versionOf(to);
}

/** Wait until this page's service worker has stored what the visit used. */
const offlineReady = (page) =>
  page.waitForFunction(() => document.documentElement.dataset.offline === 'ready', null, { timeout: 60000 });
/** Wait until the caches of this origin hold `v` and no longer `old` (checked every frame). */
const cachesAre = (page, v, old) =>
  page.evaluate(
    ([v, old]) =>
      new Promise((resolve) => {
        const check = async () => {
          const keys = await caches.keys();
          if (keys.some((k) => k.includes(v)) && !keys.some((k) => k.includes(old))) resolve();
          else requestAnimationFrame(check);
        };
        check();
      }),
    [v, old],
  );

test('a deploy reaches a returning reader on the second visit under Cache-Control: max-age=600, online and offline', {
  skip,
  timeout: 300000,
}, async (t) => {
  const A = join(work, 'A');
  const B = join(work, 'B');
  cpSync(dist, A, { recursive: true });
  const vA = versionOf(A);
  const vB = deploy(B, 'DEPLOY B');
  const srv = await serve({ dir: A, headers: { 'cache-control': 'max-age=600' } });
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  const title = async (path = '/?view=heatmap') => {
    await page.goto(`${srv.origin}${path}`);
    await rendered(page);
    return page.title();
  };
  assert.doesNotMatch(await title(), /DEPLOY B/);
  await offlineReady(page);
  srv.setDir(B);
  // First visit after the deploy: the old worker answers, the page checks sw.js (never from the
  // HTTP cache) and the new worker installs.
  await title();
  await cachesAre(page, vB, vA);
  const second = await title();
  t.diagnostic(`second visit after the deploy: "${second}"`);
  assert.equal(second, 'DEPLOY B', 'the second visit after the deploy shows the new version');
  // As if the 600 s had passed: the HTTP cache is gone; then offline.
  const cdp = await ctx.newCDPSession(page);
  await cdp.send('Network.clearBrowserCache');
  assert.equal(await title('/?view=heatmap&dim=32'), 'DEPLOY B');
  await offlineReady(page);
  await ctx.setOffline(true);
  assert.equal(await title('/?view=heatmap&dim=16'), 'DEPLOY B', 'offline, the new version');
  await ctx.close();
  srv.close();
});

test('two posenc deployments on one origin keep their own offline copy', { skip, timeout: 300000 }, async () => {
  const top = join(work, 'two');
  cpSync(dist, join(top, 'a'), { recursive: true });
  deploy(join(top, 'b'), 'Other');
  const srv = await serve({ dir: top, pages: { '/blank.html': '<!doctype html><title>blank</title>' } });
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  // Caches as the earlier worker named them ('posenc-<version>'): one of /a/'s, one of another
  // deployment's. /a/'s new worker deletes its own only.
  await page.goto(`${srv.origin}/blank.html`);
  await page.evaluate(async (o) => {
    await (await caches.open('posenc-0123456789ab')).put(`${o}/a/`, new Response('old a'));
    await (await caches.open('posenc-ba9876543210')).put(`${o}/other/`, new Response('old other'));
  }, srv.origin);
  for (const p of ['a', 'b']) {
    await page.goto(`${srv.origin}/${p}/?view=heatmap`);
    await rendered(page);
    await offlineReady(page);
  }
  const keys = await page.evaluate(() => caches.keys());
  assert.ok(!keys.includes('posenc-0123456789ab') && keys.includes('posenc-ba9876543210'), `caches: ${keys}`);
  await ctx.setOffline(true);
  for (const p of ['a', 'b']) {
    await page.goto(`${srv.origin}/${p}/?view=heatmap`).catch(() => {});
    await rendered(page);
    assert.equal(await page.evaluate(() => globalThis.posencApp?.state.view), 'heatmap', `/${p}/ offline`);
  }
  await ctx.close();
  srv.close();
});

test('one same-site embed stores only what its view uses; offline after one visit', {
  skip,
  timeout: 300000,
}, async (t) => {
  const pages = {
    '/post.html': `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>post</title></head><body>
    <iframe id="f" title="posenc" src="/?embed=1&view=heatmap&dim=32&length=64" style="width:100%;border:0"></iframe>
    <script src="/posenc-embed.js"></script></body></html>`,
  };
  const bytes = async (serviceWorkers) => {
    const srv = await serve({ pages, compress: true });
    const ctx = await browser.newContext({ serviceWorkers });
    const page = await ctx.newPage();
    await page.goto(`${srv.origin}/post.html`);
    const frame = page.frameLocator('#f');
    await frame.locator('#app[data-layout=live]').waitFor({ timeout: 60000 });
    if (serviceWorkers === 'allow') await frame.locator('html[data-offline=ready]').waitFor({ timeout: 60000 });
    const sum = srv.sent
      .filter(([p]) => !/\/(post\.html|posenc-embed\.js|favicon\.\w+)$/.test(p))
      .reduce((a, [, n]) => a + n, 0);
    return { sum, ctx, page, srv };
  };
  const without = await bytes('block');
  await without.ctx.close();
  without.srv.close();
  const withSw = await bytes('allow');
  t.diagnostic(`one heatmap embed, brotli bodies: ${without.sum} B without a service worker, ${withSw.sum} B with it`);
  // The worker adds the shell's revalidation and the page again, not the other views and cores.
  assert.ok(
    withSw.sum <= without.sum + 8000,
    `the worker made one embed ${withSw.sum} B (without it ${without.sum} B)`,
  );
  await withSw.ctx.setOffline(true);
  const { page } = withSw;
  await page.goto(`${withSw.srv.origin}/?embed=1&view=heatmap&dim=32&length=64`).catch(() => {});
  await rendered(page);
  assert.equal(
    await page.evaluate(() => document.querySelector('#app').dataset.layout),
    'live',
    'the embed renders offline',
  );
  await withSw.ctx.close();
  withSw.srv.close();
});
