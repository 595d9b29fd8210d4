#!/usr/bin/env node
// Bytes one embed costs a blog reader, as the posenc server logs them (response bodies, service
// worker fetches included): an iframe and a <posenc-view> heatmap, same-site (the blog serves
// posenc itself, so the service worker registers) and cross-site (blog on localhost, posenc on
// 127.0.0.1: Chromium gives a cross-site frame no service worker), from a plain server and from
// one sending the build's .br files. Fresh browser profile for each row. Needs web/dist
// (`npx vite build web`) and /usr/bin/chromium. Run: node tools/blog_bytes.js
import { launch, serve } from '../tests/browser_embed_harness.js';

const SRC = '?embed=1&view=heatmap&method=sinusoidal&dim=64&theme=auto';
const post = (base) => ({
  iframe: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>post</title></head><body><h1>Post</h1>
<iframe id="f" title="posenc" src="${base}/${SRC}" width="100%" height="1028" frameborder="0"></iframe>
<script src="${base}/posenc-embed.js" async></script></body></html>`,
  element: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>post</title></head><body><h1>Post</h1>
<posenc-view id="e" view="heatmap" method="sinusoidal" dim="64" theme="auto"></posenc-view>
<script type="module" src="${base}/posenc-view.js"></script></body></html>`,
});

const browser = await launch();
const rows = [];
for (const compress of [false, true]) {
  for (const kind of ['iframe', 'element']) {
    for (const site of ['same-site', 'cross-site']) {
      const same = site === 'same-site';
      const srv = same
        ? await serve({ compress, pages: { '/post.html': post('')[kind] } })
        : await serve({ compress, headers: { 'access-control-allow-origin': '*' } });
      const blog = same ? srv : await serve({ pages: { '/post.html': post(srv.origin)[kind] } });
      const blogOrigin = same ? srv.origin : blog.origin.replace('127.0.0.1', 'localhost');
      const ctx = await browser.newContext({ serviceWorkers: 'allow' });
      const page = await ctx.newPage();
      await page.goto(`${blogOrigin}/post.html`);
      if (kind === 'iframe') {
        const frame = page.frameLocator('#f');
        await frame.locator('#app[data-layout=live]').waitFor({ timeout: 90000 });
        // Same-site: wait for the worker to have stored what the embed used.
        if (same) await frame.locator('html[data-offline=ready]').waitFor({ timeout: 90000 });
      } else {
        await page.waitForSelector('#e[data-ready]', { timeout: 90000 });
      }
      const own = srv.sent.filter(([p]) => !/\/(post\.html|posenc-embed\.js|favicon\.\w+)$/.test(p));
      rows.push([kind, site, compress ? 'br' : 'plain', own.reduce((a, [, n]) => a + n, 0), own.length]);
      await ctx.close();
      srv.close();
      if (blog !== srv) blog.close();
    }
  }
}
await browser.close();
console.log('| embed | where | server | bytes (bodies) | responses |\n| --- | --- | --- | ---: | ---: |');
for (const [k, s, c, b, n] of rows) console.log(`| ${k} | ${s} | ${c} | ${b.toLocaleString('en-US')} | ${n} |`);
