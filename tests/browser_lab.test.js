// Browser test of the Extrapolation lab view (web/dist, built by `./build.sh test`): it renders,
// a tiny training run in the worker finishes and draws an accuracy curve, the seed lives in the
// URL. Every wait is on page state, never on time.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dist, pageSuite, skip } from './browser_embed_harness.js';

const suite = pageSuite();

test('lab view: renders, trains in the worker, draws accuracy curves, keeps the seed in the URL', { skip, timeout: 300_000 }, async () => {
  const ctx = await suite.browser.newContext({ viewport: { width: 1280, height: 900 }, serviceWorkers: 'block' });
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto(`${suite.srv.origin}/?view=lab&labmethods=rope,learned&labsteps=20&labseed=7`);
  await page.waitForSelector('section.lab[data-status=idle]', { timeout: 60_000 });
  assert.equal(await page.$eval('[name=labseed]', (e) => e.value), '7');
  assert.deepEqual(await page.$$eval('.lab-methods input:checked', (l) => l.map((e) => e.value)), ['learned', 'rope']);
  assert.equal(await page.$eval('section.lab', (e) => e.dataset.curves), '0');

  await page.click('.lab-train');
  await page.waitForSelector('section.lab[data-status=done]', { timeout: 240_000 });
  assert.equal(await page.$eval('section.lab', (e) => e.dataset.curves), '2');
  // every figure of the trained lab carries ticks and axis names
  const axes = await page.$$eval('section.lab canvas', (cs) => cs.filter((c) => c.dataset.xticks).map((c) => [c.dataset.xticks, c.dataset.yticks, c.dataset.xname]));
  assert.ok(axes.length >= 2, `labelled lab figures: ${axes.length}`);
  for (const [x, y, name] of axes) assert.ok(x.split('|').length >= 2 && y.split('|').length >= 2 && name, `lab axes ${x} / ${y} / ${name}`);
  // the accuracy canvas has ink, and the table has a measured row with "not defined" for learned
  const ink = await page.$eval('.lab-figs canvas', (c) => {
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 3; i < d.length; i += 4) n += d[i] > 0;
    return n;
  });
  assert.ok(ink > 500, `accuracy plot drawn (${ink} pixels)`);
  const rows = await page.$$eval('.lab-table tbody tr', (l) => l.map((r) => [...r.children].map((c) => c.textContent)));
  const learned = rows.find((r) => r[0] === 'Learned');
  assert.equal(learned[3], 'not defined');
  assert.match(learned[2], /^\d\.\d\d$/);
  const rope = rows.find((r) => r[0] === 'RoPE');
  for (const c of rope.slice(2)) assert.match(c, /^\d\.\d\d$/);
  // the trained models came from the worker (the page itself never blocked on them)
  assert.match(await page.$eval('.lab-status', (e) => e.textContent), /done: 2 models, seed 7/);

  // changing the seed goes into the URL (written at most every 200 ms: wait on the URL itself)
  await page.fill('[name=labseed]', '11');
  await page.dispatchEvent('[name=labseed]', 'change');
  await page.waitForFunction(() => location.search.includes('labseed=11'));
  assert.deepEqual(errors, []);
  await ctx.close();
});

// The single file from file:// has no worker: the lab adds the trainer to the page's own API
// when Train is pressed and trains on the main thread.
test('lab view in the single-file build (no worker): trains on the page', { skip, timeout: 300_000 }, async () => {
  const ctx = await suite.browser.newContext({ viewport: { width: 1000, height: 900 }, serviceWorkers: 'block' });
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`file://${dist}posenc-single.html?view=lab&labmethods=rope&labsteps=5&labseed=3`);
  await page.waitForSelector('section.lab[data-status=idle]', { timeout: 60_000 });
  await page.click('.lab-train');
  await page.waitForSelector('section.lab[data-status=done]', { timeout: 240_000 });
  assert.equal(await page.$eval('section.lab', (e) => e.dataset.curves), '1');
  assert.match(await page.$eval('.lab-status', (e) => e.textContent), /done: 1 model/);
  assert.deepEqual(errors, []);
  await ctx.close();
});
