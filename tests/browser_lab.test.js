// Browser test of the Extrapolation lab view (web/dist, built by `./build.sh test`): it renders,
// a short training run of two seeds in the worker finishes and draws the accuracy past the
// training length with the chance line and the seeds' band, marks a run that did not learn, and
// the seeds live in the URL. Every wait is on page state, never on time.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dist, pageSuite, skip } from './browser_embed_harness.js';

const suite = pageSuite();

test('lab view: trains in the worker, draws chance and the seeds band, marks a run that did not learn, keeps the seeds in the URL', {
  skip,
  timeout: 300_000,
}, async () => {
  const ctx = await suite.browser.newContext({ viewport: { width: 1280, height: 900 }, serviceWorkers: 'block' });
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  // 150 steps: RoPE learns copying the previous token (1.00 at seeds 7 and 8); NoPE (0.32, 0.33)
  // and the learned table (0.61, 0.49) have not yet
  await page.goto(`${suite.srv.origin}/?view=lab&labmethods=rope,learned,none&labsteps=150&labseed=7&labseeds=2`);
  await page.waitForSelector('section.lab[data-status=idle]', { timeout: 60_000 });
  assert.equal(await page.$eval('[name=labseed]', (e) => e.value), '7');
  assert.equal(await page.$eval('[name=labseeds]', (e) => e.checked), true);
  assert.deepEqual(await page.$$eval('.lab-methods input:checked', (l) => l.map((e) => e.value)), [
    'none',
    'learned',
    'rope',
  ]);
  assert.equal(await page.$eval('section.lab', (e) => e.dataset.curves), '0');

  await page.click('.lab-train');
  await page.waitForSelector('section.lab[data-status=done]', { timeout: 240_000 });
  assert.equal(await page.$eval('section.lab', (e) => e.dataset.curves), '3');
  // the accuracy plot draws chance (1/16) and a min-max band over the two seeds
  const plot = await page.$eval('.lab-figs canvas', (c) => ({ ...c.dataset }));
  assert.match(plot.hlines, /^chance 1\/16:0\.0625/);
  assert.ok(Number(plot.bands) >= 1, `bands drawn: ${plot.bands}`);
  // NoPE did not learn: marked in the section, the plot's legend and the table, and left out of
  // the debrief's verdict
  assert.equal(await page.$eval('section.lab', (e) => e.dataset.unlearned), 'none,learned');
  const unlearned = await page.$$eval('.lab-table tbody tr[data-unlearned]', (l) =>
    l.map((r) => r.children[0].textContent),
  );
  assert.deepEqual(unlearned, ['NoPE did not learn this task', 'Learned did not learn this task']);
  assert.equal(plot.legend, 'NoPE (did not learn)|Learned (did not learn)|RoPE');
  const debrief = await page.$eval('.lab-debrief', (e) => e.textContent);
  assert.match(debrief, /\(2 seeds per method\), RoPE learned the task at the training length; NoPE, Learned did not/);
  assert.match(
    debrief,
    /left out of the verdict\. On the positions past the training length, RoPE (kept|fell to) \d\.\d\d at 8×/,
  );
  assert.doesNotMatch(debrief, /(NoPE|Learned) (kept|fell)/);
  // the papers' findings with their links
  const links = await page.$$eval('.lab-table a', (l) => l.map((a) => a.href));
  for (const id of ['2108.12409', '2305.19466', '2306.15595', '2309.00071'])
    assert.ok(
      links.some((h) => h.includes(id)),
      id,
    );
  // the attention map shows RoPE (a model that learned) with the training-length marker and a colour bar
  assert.equal(await page.$eval('.lab-figs select', (e) => e.value), 'rope');
  assert.match(
    await page.$eval('.lab-figs figure:nth-child(3) figcaption', (e) => e.textContent),
    /Dashed: the training length/,
  );
  assert.match(await page.$eval('.lab-figs figure:nth-child(3) canvas', (e) => e.dataset.colorbar), /^0\|/);
  // every figure of the trained lab carries ticks and axis names
  const axes = await page.$$eval('section.lab canvas', (cs) =>
    cs.filter((c) => c.dataset.xticks).map((c) => [c.dataset.xticks, c.dataset.yticks, c.dataset.xname]),
  );
  assert.ok(axes.length >= 2, `labelled lab figures: ${axes.length}`);
  for (const [x, y, name] of axes)
    assert.ok(x.split('|').length >= 2 && y.split('|').length >= 2 && name, `lab axes ${x} / ${y} / ${name}`);
  // the accuracy canvas has ink, and the table has measured rows with "not defined" for learned past 1x
  const ink = await page.$eval('.lab-figs canvas', (c) => {
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 3; i < d.length; i += 4) n += d[i] > 0;
    return n;
  });
  assert.ok(ink > 500, `accuracy plot drawn (${ink} pixels)`);
  const rows = await page.$$eval('.lab-table tbody tr', (l) => l.map((r) => [...r.children].map((c) => c.textContent)));
  const learned = rows.find((r) => r[0].startsWith('Learned'));
  assert.equal(learned[2], 'not defined');
  assert.match(learned[1], /^\d\.\d\d/);
  const rope = rows.find((r) => r[0].startsWith('RoPE'));
  for (const c of rope.slice(1, 5)) assert.match(c, /^\d\.\d\d/);
  // the trained models came from the worker (the page itself never blocked on them)
  assert.match(await page.$eval('.lab-status', (e) => e.textContent), /done: 6 models, seeds 7–8/);

  // changing the seed and the seed count goes into the URL (wait on the URL itself)
  await page.fill('[name=labseed]', '11');
  await page.dispatchEvent('[name=labseed]', 'change');
  await page.waitForFunction(() => location.search.includes('labseed=11'));
  await page.click('[name=labseeds]');
  await page.waitForFunction(() => !location.search.includes('labseeds='));
  await page.click('[name=labseeds]');
  await page.waitForFunction(() => location.search.includes('labseeds=3'));
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
