// The views' claims against their own numbers, in headless Chromium over web/dist: the Shuffle lab's
// caption quotes the head it draws; Position ids' cache scores equal a full recomputation and a
// wrong id does not; the Recap's flat lines are exactly the methods that see only the offset; its
// table keeps every column readable in a 390 px column; every verdict a view prints carries
// data-after-predict (the guided path hides those until the reader commits). Waits on state only.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pageSuite, skip } from './browser_embed_harness.js';

const suite = pageSuite();
const { open, setState, pageErrors } = suite;

test('shuffle lab: the quoted pair is from the head drawn, and the verdicts are marked', {
  skip,
  timeout: 120000,
}, async () => {
  const { page, ctx } = await open('/?view=shuffle&causal=true&sentence=dog+bites+man&order=2,1,0&heads=4&dim=32');
  for (const head of [0, 1, 3]) {
    await setState(page, { head });
    const r = await page.evaluate(() =>
      [...document.querySelectorAll('.side')].map((s) => ({
        heading: s.querySelector('h3').textContent,
        plain: s.querySelector('.proof-plain').textContent,
      })),
    );
    for (const { heading, plain } of r) {
      const drawn = heading.match(/head (\d+) of/)[1];
      const quoted = plain.match(/\(head (\d+), drawn here\)|head (\d+), drawn here, happens/);
      assert.ok(quoted, plain);
      assert.equal(quoted[1] ?? quoted[2], drawn, `${heading}: ${plain}`);
      assert.equal(drawn, String(head + 1));
    }
  }
  const marked = await page.$$eval('.side .proof-plain, .side .proof', (l) =>
    l.every((e) => e.hasAttribute('data-after-predict')),
  );
  assert.ok(marked, 'verdict lines and proofs carry data-after-predict');
  await ctx.close();
});

test('position ids: the cache equals a full recomputation, a wrong id does not; ids come from the mask', {
  skip,
  timeout: 120000,
}, async () => {
  const { page, ctx } = await open('/?view=positions&dim=64&base=10000');
  const d = await page.evaluate(() => globalThis.posencApp.view.exportData());
  assert.ok(d.cacheDiff <= 1e-5, `cache vs recompute ${d.cacheDiff}`);
  assert.ok(d.wrongIdDiff > 0.1, `query at id 0 ${d.wrongIdDiff}`);
  assert.ok(d.ropeShiftDiff < 1e-4, `RoPE under a common shift ${d.ropeShiftDiff}`);
  assert.ok(d.absoluteCosine < 0.99, `PE(0) vs PE(2) ${d.absoluteCosine}`);
  const [padded, full] = d.parts[0].rows;
  assert.deepEqual(padded.positionIds, [null, null, 0, 1, 2]);
  assert.deepEqual(full.positionIds, [0, 1, 2, 3, 4]);
  assert.deepEqual([padded.nextId, full.nextId], [3, 5]);
  // an edit at token 3: layer 1's keys change there only; its outputs (layer 2's keys and values)
  // from 3 on, never before
  const key = d.editKeyChange,
    out = d.editOutputChange;
  assert.deepEqual(
    key.map((x, i) => [i, x > 0]).filter(([, c]) => c),
    [[3, true]],
  );
  assert.ok(out.slice(0, 3).every((x) => x === 0) && out.slice(3).every((x) => x > 0), out.join(' '));
  assert.ok(
    await page.$$eval('.pad-note, .cache-note, .edit-note', (l) =>
      l.every((e) => e.hasAttribute('data-after-predict')),
    ),
  );
  await ctx.close();
});

test('recap: flat lines exactly for the methods that see only the offset; the table fits 390 px', {
  skip,
  timeout: 120000,
}, async () => {
  const { page, ctx } = await open('/?view=recap&length=256&train=128');
  const { spreads } = await page.evaluate(() => globalThis.posencApp.view.exportData());
  const moving = spreads.filter(([, s]) => s > 1e-3).map(([l]) => l);
  assert.deepEqual(moving, ['sinusoidal', 'learned']);
  const note = await page.$eval('.recap-note', (e) => [e.textContent, e.hasAttribute('data-after-predict')]);
  assert.match(note[0], /Flat, the score sees only the offset: NoPE, RoPE, ALiBi, T5/);
  assert.ok(note[1]);
  await ctx.close();

  const phone = await open('/?view=recap&length=256&train=128', { width: 390, height: 844 });
  const fit = await phone.page.evaluate(() => {
    const t = document.querySelector('.recap-cards');
    const box = t.closest('.view').getBoundingClientRect();
    const cells = [...t.querySelectorAll('td')];
    return {
      overflow: t.scrollWidth - t.clientWidth,
      outside: cells.filter((c) => {
        const r = c.getBoundingClientRect();
        return r.left < box.left - 1 || r.right > box.right + 1;
      }).length,
      // each cell is a labelled line of a card: its column's name (data-label, shown by ::before)
      labels: [...new Set(cells.map((c) => c.dataset.label))],
      blocks: cells.every((c) => getComputedStyle(c).display === 'block'),
      before: getComputedStyle(cells[0], '::before').content,
      cells: cells.length,
    };
  });
  assert.equal(fit.cells, 7 * 5);
  assert.ok(fit.overflow <= 1, `sideways overflow ${fit.overflow}px`);
  assert.equal(fit.outside, 0, 'every cell inside the view');
  assert.deepEqual(fit.labels, ['used in', 'parameters', 'in the lab', 'trade-offs', 'paper']);
  assert.ok(fit.blocks, 'cells stacked as cards');
  assert.notEqual(fit.before, 'none', 'each cell shows its column name');
  await phone.ctx.close();
  assert.deepEqual(pageErrors, []);
});
