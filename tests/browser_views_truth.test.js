// What the views must show truthfully (issue 20), in headless Debian Chromium over web/dist: the
// shuffle lab's causal mask, RoPE with different q and k, one colour range over ALiBi's heads, and
// taps on a phone that select without scrolling. Numeric checks read the views' data and exports;
// waits are on renders and state only.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pageSuite, skip } from './browser_embed_harness.js';

const suite = pageSuite();
const { open, setState } = suite;

/** Resolves at the next render the action causes (the listener is in place before the action). */
async function renderAfter(page, action) {
  const done = page.evaluate(
    () => new Promise((res) => document.addEventListener('posenc-render', () => res(), { once: true })),
  );
  await action();
  await done;
  await suite.settled(page);
}

/** max |shuffled[h][i][j] − original[h][perm i][perm j]| over heads: 0 iff the shuffled attention
 * is the original with rows and columns permuted. */
function unpermutedDiff(side, order, heads) {
  const n = order.length;
  let m = 0;
  for (let h = 0; h < heads; h++)
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n; j++)
        m = Math.max(
          m,
          Math.abs(side.shuffled[h * n * n + i * n + j] - side.original[h * n * n + order[i] * n + order[j]]),
        );
  return m;
}

test('shuffle lab: a causal mask turns the no-position matrix from a permutation into a non-permutation', {
  skip,
}, async () => {
  const { page, ctx } = await open('/?view=shuffle&method=rope&sentence=dog+bites+man+today&order=3,0,1,2');
  const none = page.locator('[data-side=none]');
  const exported = () => page.evaluate(() => globalThis.posencApp.view.exportData());
  let d = await exported();
  assert.deepEqual(d.order, [3, 0, 1, 2]);
  assert.ok(Number(await none.getAttribute('data-max-diff')) < 1e-6, 'without a mask: a permutation');
  assert.ok(unpermutedDiff(d.sides[0], d.order, d.heads) < 1e-6, 'the exported matrices agree');
  assert.match(await none.locator('.proof-plain').textContent(), /The same numbers, reordered/);
  assert.equal(await page.locator('.host input.causal').isChecked(), false);

  // The reader's path: the checkbox in the view.
  await renderAfter(page, () => page.locator('.host input.causal').check());
  assert.equal(await page.evaluate(() => globalThis.posencApp.state.causal), true);
  d = await exported();
  const diff = Number(await none.getAttribute('data-max-diff'));
  assert.ok(diff > 0.05, `with the causal mask: not a permutation (max diff ${diff})`);
  assert.ok(
    Math.abs(unpermutedDiff(d.sides[0], d.order, d.heads) - diff) < 1e-6,
    "the attribute is the exported matrices' difference",
  );
  // Causal: nothing above the diagonal, and the first token attends to itself only.
  const n = d.order.length;
  const w = d.sides[0].original;
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++) assert.equal(w[i * n + j], 0, `weight (${i}, ${j}) under the mask`);
  assert.ok(Math.abs(w[0] - 1) < 1e-6);
  const plain = await none.locator('.proof-plain').textContent();
  assert.match(plain, /not a reordering/);
  assert.match(plain, /Haviv et al\. 2022/);
  assert.match(await none.locator('h3').textContent(), /causal mask/);
  await page.waitForFunction(() => new URLSearchParams(location.search).get('causal') === '1');

  // A link with causal=1 opens with the box ticked and the same numbers; junk means the default.
  const again = await open('/?view=shuffle&method=rope&sentence=dog+bites+man+today&order=3,0,1,2&causal=1');
  assert.equal(await again.page.locator('.host input.causal').isChecked(), true);
  assert.equal(await again.page.locator('[data-side=none]').getAttribute('data-max-diff'), String(diff));
  await setState(again.page, { causal: false });
  assert.ok(Number(await again.page.locator('[data-side=none]').getAttribute('data-max-diff')) < 1e-6);
  await again.ctx.close();
  const junk = await open('/?view=shuffle&causal=%3Cb%3E');
  assert.equal(await junk.page.evaluate(() => globalThis.posencApp.state.causal), false);
  await junk.ctx.close();
  await ctx.close();
});

test('Rotation: q and k are different vectors; the score depends on their content and the signed offset; the check follows Play', {
  skip,
  timeout: 120000,
}, async () => {
  // dim 4: two pairs, both drawn, so the pairs' shares add up to the whole score
  const { page, ctx } = await open('/?view=rotation&dim=4&pos=5&kpos=5');
  const read = () =>
    page.evaluate(() => {
      const c = document.querySelector('.host .check');
      return { ...c.dataset, series: globalThis.posencApp.view.exportData().series.map((s) => s.y) };
    });
  let r = await read();
  const [, , delta, share] = r.series;
  assert.equal(share.length, 2);
  // m = n: one vector at both would give Δ = 0 in every pair; different content does not
  assert.ok(
    delta.every((x) => Math.abs(x) > 1e-3),
    `angles between q and k at m = n: ${delta}`,
  );
  assert.ok(
    Math.abs(share[0] + share[1] - Number(r.score)) < 1e-4,
    `the pairs' shares ${share} add up to q·k ${r.score}`,
  );
  await setState(page, { pos: 5, kpos: 9 });
  r = await read();
  assert.ok(Number(r.diff) < 1e-4, 'a common shift keeps the score');
  assert.ok(
    Math.abs(Number(r.swapped) - Number(r.score)) > 1e-2,
    `n − m = 4 and −4 differ: ${r.score} vs ${r.swapped}`,
  );
  assert.match(await page.locator('.host .intro').textContent(), /values v are not rotated/);
  // Play: the check line follows the positions (its numbers are for the positions shown).
  await page.locator('.host button.play').click();
  await page.waitForFunction(
    () => {
      const { pos } = globalThis.posencApp.state;
      return pos >= 8 && document.querySelector('.host .check').dataset.m === String(pos);
    },
    null,
    { timeout: 60000 },
  );
  await page.locator('.host button.play').click();
  await ctx.close();
});

test('Similarity (RoPE): one vector at every position, and the RoFormer bound as the paper draws it, above the score', {
  skip,
}, async () => {
  const { page, ctx } = await open('/?view=similarity&method=rope&dim=64&length=128');
  assert.match(
    await page.locator('.host .mat').first().locator('xpath=..').locator('figcaption').textContent(),
    /one vector/,
  );
  const d = await page.evaluate(() => {
    const parts = globalThis.posencApp.view.exportData().parts;
    const api = globalThis.posencApp.pe.ropeDecay({ dim: 64, base: 10000, maxDistance: 127 });
    return {
      names: parts.map((p) => p.name),
      decay: parts[2]?.series[0].y,
      api: Array.from(api),
      row0: parts[1].series[0].y,
      margin: document.querySelector('.host .plot[data-margin]')?.dataset.margin,
    };
  });
  assert.deepEqual(d.names, ['similarity', 'by offset', 'RoFormer decay']);
  assert.equal(d.decay[0], 16.5, '(d/2 + 1)/2 at distance 0, not rescaled');
  for (let k = 0; k < 128; k++) assert.equal(d.decay[k], d.api[k], `distance ${k}: the API's value`);
  // |q·k| ≤ 2·(d/2)·curve for the all-ones vectors (every h_i = 2)
  for (let k = 0; k < 128; k++) assert.ok(64 * d.decay[k] >= Math.abs(d.row0[k]), `offset ${k}`);
  assert.ok(Number(d.margin) > 0);
  await ctx.close();
});

test("Bias: ALiBi heads share one colour range and bar; Transformer-XL's four terms add up to its score", {
  skip,
}, async () => {
  const { page, ctx } = await open('/?view=bias&panel=alibi&heads=8');
  const legends = await page.evaluate(() =>
    [...document.querySelectorAll('.host .multiples:not(.xl) .panel')]
      .filter((f) => !f.hidden)
      .map((f) => f.dataset.legend),
  );
  assert.equal(legends.length, 8);
  assert.equal(new Set(legends).size, 1, `one range for every head: ${legends[0]} …`);
  assert.match(legends[0], /^-15\.5\|0\|/, 'from the steepest head (slope 1/2) 31 keys away, to 0');
  assert.equal(await page.locator('.host .legend.shared .lo').first().textContent(), '-15.5');
  assert.match(
    await page.locator('.host h3 + .control-slot + .pair figcaption').first().textContent(),
    /2\^\(−8h\/8\)/,
  );
  await setState(page, { heads: 12 });
  assert.match(
    await page.locator('.host .plot figcaption').first().textContent(),
    /those of 8 heads, then 4 of the 16-head set/,
  );
  // Transformer-XL
  await setState(page, { panel: 'shaw' });
  const parts = await page.evaluate(() =>
    globalThis.posencApp.view.exportData().parts.filter((p) => /transformer-xl/.test(p.name)),
  );
  assert.equal(parts.length, 5);
  const [a, b, c, d, sum] = parts.map((p) => p.values);
  const n = parts[0].rows;
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      const k = i * n + j;
      if (j > i) assert.equal(sum[k], -Infinity, 'causal: masked above the diagonal');
      else assert.ok(Math.abs(a[k] + b[k] + c[k] + d[k] - sum[k]) < 1e-4, `(${i}, ${j}): terms add up`);
      // (c) u·k_j depends on the key only
      if (j <= i && j <= i - 1) assert.ok(Math.abs(c[k] - c[(i - 1) * n + j]) < 1e-6);
    }
  await ctx.close();
});

test("Learned: untrained table said so, with the cosine of its rows; its row count is named and grouped as the table's", {
  skip,
}, async () => {
  const { page, ctx } = await open('/?view=learned&train=64&length=128');
  const d = await page.evaluate(() => globalThis.posencApp.view.exportData().parts);
  assert.deepEqual(
    d.map((p) => p.name),
    ['learned', 'cosine of rows'],
  );
  const sim = d[1];
  assert.equal(sim.rows, 64);
  for (let i = 0; i < 64; i++) assert.ok(Math.abs(sim.values[i * 64 + i] - 1) < 1e-5);
  assert.match(await page.locator('.host .intro').textContent(), /before training/);
  const label = page.locator('.controls label', { has: page.locator('[name=train]') });
  assert.match(await label.textContent(), /table rows/);
  assert.equal(await label.locator('xpath=ancestor::fieldset/legend').textContent(), 'Encoding');
  // Add vs concat: the cross terms through W_Q, W_K on [x; p]
  await setState(page, { view: 'concat' });
  assert.match(await page.locator('.host .intro').textContent(), /block-diagonal[\s\S]*TUPE/);
  await ctx.close();
});

test('phone (390 × 844, touch): a tap picks the matrix cell or the circle under the finger and does not scroll', {
  skip,
}, async () => {
  const ctx = await suite.browser.newContext({
    viewport: { width: 390, height: 844 },
    hasTouch: true,
    isMobile: true,
    serviceWorkers: 'block',
  });
  const page = await ctx.newPage();
  await page.goto(`${suite.srv.origin}/?view=heatmap&method=sinusoidal&dim=16&length=16`);
  await suite.settled(page);
  const cv = page.locator('.host .mat canvas').first();
  await cv.scrollIntoViewIfNeeded();
  assert.equal(await cv.evaluate((c) => getComputedStyle(c).touchAction), 'pan-y pinch-zoom');
  const box = await cv.boundingBox();
  const y0 = await page.evaluate(() => scrollY);
  await page.touchscreen.tap(box.x + box.width * 0.85, box.y + box.height * 0.6);
  await page.waitForFunction(() => /position \d+, dim \d+/.test(document.querySelector('.host .readout').textContent));
  const [, r, c] = /position (\d+), dim (\d+)/
    .exec(await page.locator('.host .readout').first().textContent())
    .map(Number);
  assert.ok(r >= 6 && c >= 10, `the tapped cell, not the first one (position ${r}, dim ${c})`);
  assert.equal(await page.evaluate(() => scrollY), y0, 'the page did not scroll');

  await page.goto(`${suite.srv.origin}/?view=rotation&dim=64`);
  await suite.settled(page);
  const circles = page.locator('.host canvas.circles');
  await circles.scrollIntoViewIfNeeded();
  const b2 = await circles.boundingBox();
  const y1 = await page.evaluate(() => scrollY);
  // two circles a row at 390 px: the right one of the first row is pair 1
  await page.touchscreen.tap(b2.x + b2.width * 0.75, b2.y + 40);
  await page.waitForFunction(() => /\.cos\[1\]$/.test(document.querySelector('.host .formula').dataset.call ?? ''));
  assert.equal(await page.evaluate(() => scrollY), y1, 'the page did not scroll');
  await ctx.close();
});
