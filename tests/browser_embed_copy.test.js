// "Copy embed code" on the page: under every view, the iframe and element snippets for the state on
// screen (web/src/embed-code.js), copied to the clipboard by their buttons and kept up to date
// when the reader changes the view.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pageSuite, skip } from './browser_embed_harness.js';

const suite = pageSuite();

test('Copy embed code: both snippets for the current state, with the height rule and a fallback link', {
  skip,
  timeout: 180000,
}, async () => {
  const { page, ctx } = await suite.open('/?view=rotation&method=rope&dim=32');
  await ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.srv.origin });
  const box = page.locator('details.embed-code');
  await box.locator('summary').click();
  await page.locator('button[data-embed-code=element]').click();
  await page.waitForFunction(() => /copied/.test(document.querySelector('details.embed-code').textContent));
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  assert.match(
    copied,
    /<posenc-view view="rotation" method="rope" dim="32" style="display:block;container-type:inline-size">/,
  );
  assert.match(
    copied,
    /<a href="http:\/\/127\.0\.0\.1:\d+\/\?view=rotation&#38;method=rope&#38;dim=32" style="display:block;overflow:hidden;height:calc\(/,
  );
  assert.match(copied, /<script type="module" src="http:\/\/127\.0\.0\.1:\d+\/posenc-view\.js"><\/script>/);
  // Another view: the snippets follow.
  await suite.setState(page, { view: 'heatmap' });
  await page.locator('button[data-embed-code=iframe]').click();
  await page.waitForFunction(async () => /view=heatmap/.test(await navigator.clipboard.readText()));
  const frame = await page.evaluate(() => navigator.clipboard.readText());
  assert.match(frame, /<iframe src="http:\/\/127\.0\.0\.1:\d+\/\?embed=1&#38;view=heatmap&#38;method=rope&#38;dim=32"/);
  assert.match(frame, /height:calc\(\d+px \+ clamp\(/);
  assert.match(frame, /posenc-embed\.js/);
  await ctx.close();
  assert.deepEqual(suite.pageErrors, []);
});
