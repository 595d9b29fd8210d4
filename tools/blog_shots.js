#!/usr/bin/env node
// Screenshots of a built blog recipe (tools/blog_recipes.sh): every page given, at 1280 and 390 px,
// light and with the site's own dark mode (html.dark), once every posenc embed on it has rendered.
// Run: node tools/blog_shots.js <name> <dir of the built site> <path>...   (shots in /tmp/posenc-shots/)
import { mkdirSync } from 'node:fs';
import { launch, serve } from '../tests/browser_embed_harness.js';

const [name, dir, ...paths] = process.argv.slice(2);
if (!name || !dir || !paths.length) {
  console.error('usage: node tools/blog_shots.js <name> <built site dir> <path>...');
  process.exit(2);
}
const out = '/tmp/posenc-shots';
mkdirSync(out, { recursive: true });
const srv = await serve({ dir });
const browser = await launch();
let failed = 0;
for (const path of paths) {
  for (const width of [1280, 390]) {
    const ctx = await browser.newContext({ viewport: { width, height: 900 }, serviceWorkers: 'block' });
    const page = await ctx.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.goto(`${srv.origin}${path}`);
    const ready = () =>
      page.waitForFunction(
        () =>
          [...document.querySelectorAll('posenc-view')].every((e) => e.dataset.ready) &&
          [...document.querySelectorAll('iframe')].every(
            (f) => f.dataset.posencHeight && f.contentDocument?.querySelector('#app[data-layout=live]'),
          ),
        null,
        { timeout: 90000 },
      );
    try {
      await ready();
      const file = (mode) => `${out}/${name}-${path.replace(/\W+/g, '_')}-${width}-${mode}.png`;
      await page.screenshot({ path: file('light'), fullPage: true });
      await page.evaluate(() => document.documentElement.classList.add('dark'));
      await page.waitForFunction(
        () =>
          [...document.querySelectorAll('posenc-view')].every((e) => e.dataset.hostTheme === 'dark') &&
          [...document.querySelectorAll('iframe')].every(
            (f) => f.contentDocument?.documentElement.dataset.theme === 'dark',
          ),
        null,
        { timeout: 30000 },
      );
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      await page.screenshot({ path: file('dark'), fullPage: true });
      const h = await page.evaluate(() =>
        [...document.querySelectorAll('posenc-view, iframe')].map(
          (e) => `${e.tagName.toLowerCase()} ${Math.round(e.getBoundingClientRect().height)}px`,
        ),
      );
      console.log(
        `${name} ${path} ${width}px: ${h.join(', ')}${errors.length ? `; errors: ${errors.join(' | ')}` : ''} -> ${file('light')}, ${file('dark')}`,
      );
    } catch (e) {
      failed++;
      console.log(`${name} ${path} ${width}px: FAILED ${e.message.split('\n')[0]}; errors: ${errors.join(' | ')}`);
    }
    await ctx.close();
  }
}
await browser.close();
srv.close();
process.exit(failed ? 1 : 0);
