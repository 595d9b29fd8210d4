// A chunk that cannot be fetched (a deploy that removed it) reloads the page once, then says so;
// web/src/main.js reloadOnce marks the reload in sessionStorage. A storage that accepts writes and
// keeps nothing (some privacy modes) must not turn that one reload into a loop.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launch, serve, skip } from './browser_embed_harness.js';

let browser;
before(async () => {
  if (!skip) browser = await launch();
});
after(() => browser?.close());

test('a view chunk gone and a storage that drops writes: at most one reload, then the message', { skip }, async () => {
  const srv = await serve({ fail: (p) => /\/assets\/rotation-[^/]+\.js$/.test(p) });
  const ctx = await browser.newContext({ serviceWorkers: 'block' });
  try {
    const page = await ctx.newPage();
    await page.addInitScript(() => {
      Storage.prototype.setItem = () => {}; // accepts the write, keeps nothing
    });
    let loads = 0;
    page.on('load', () => loads++);
    await page.goto(`${srv.origin}/?view=rotation`);
    await page.waitForFunction(() => /could not load/i.test(document.querySelector('#app')?.textContent ?? ''), null, {
      timeout: 30000,
    });
    assert.ok(loads <= 2, `${loads} page loads before the message (a reload loop)`);
    assert.ok(srv.log.filter((p) => /rotation-/.test(p)).length <= 2, 'the missing chunk asked for at most twice');
  } finally {
    await ctx.close();
    srv.close();
  }
});
