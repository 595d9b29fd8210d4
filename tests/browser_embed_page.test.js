// The page around the views: the guided path (Step k of n, Back/Next, a URL per step, "open in
// the explorer"), the explorer's tabs (roles, arrow keys, Home/End, active tab in sight on a
// phone), the per-view control panel, phones at 320 and 390 px, focus-ring and mark contrast in both
// themes, the skip link, the figure description, and figure export (PNG at 2× with its title; CSV).
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { SHOTS, contrast, decodePng, frames, launch, rendered, serve, skip, watch } from './browser_embed_harness.js';
import { VIEW_IDS } from '../web/src/views/registry.js';

let browser, srv;
before(async () => {
  if (skip) return;
  mkdirSync(SHOTS, { recursive: true });
  browser = await launch();
  srv = await serve();
});
after(async () => {
  await browser?.close();
  srv?.close();
});

async function open(path, opts = {}) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, serviceWorkers: 'block', ...opts });
  const page = await ctx.newPage();
  const errors = await watch(page);
  await page.goto(`${srv.origin}${path}`);
  await rendered(page);
  return { ctx, page, errors };
}
const steps = (page) =>
  page.evaluate(() => globalThis.posencApp.steps.map((s) => ({ id: s.id, view: s.view, title: s.title })));

test('guided path: the bare URL is step 1; Back/Next move, every step is a URL, the explorer is one click away', {
  skip,
}, async () => {
  const { ctx, page, errors } = await open('/');
  const all = await steps(page);
  assert.ok(all.length >= 3);
  const at = async (k) => {
    await page.waitForFunction((t) => document.querySelector('.guide .steptitle')?.textContent === t, all[k].title);
    assert.equal(await page.locator('.guide .stepno').textContent(), `Step ${k + 1} of ${all.length}`);
    assert.equal(await page.evaluate(() => globalThis.posencApp.state.view), all[k].view);
    assert.equal(await page.locator('.tabs').isVisible(), false);
  };
  await at(0);
  assert.equal(all[0].view, 'shuffle', 'the guided path starts at the shuffle lab');
  assert.equal(await page.locator('.guide .back').getAttribute('aria-disabled'), 'true');
  await page.click('.guide .next');
  await at(1);
  assert.equal(new URL(page.url()).searchParams.get('step'), all[1].id);
  // Keyboard: the Next link is reachable and works with Enter.
  await page.focus('.guide .next');
  await page.keyboard.press('Enter');
  await at(2);
  assert.equal(new URL(page.url()).searchParams.get('step'), all[2].id);
  await page.click('.guide .back');
  await at(1);
  // A second Back/Next after the figure names the next step.
  assert.equal(await page.locator('.stepnav-bottom .next').textContent(), `Next: ${all[2].title} →`);
  await page.click('.stepnav-bottom .back');
  await at(0);
  await page.click('.stepnav-bottom .next');
  await at(1);
  // Browser history follows the steps.
  await page.goBack();
  await at(0);
  // A step URL opens that step, and edits on top of it stay in the link.
  await page.goto(`${srv.origin}/?step=${all[1].id}&theme=dark`);
  await rendered(page);
  await at(1);
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
  // "Open in the explorer": tabs, the same view and state, ?view= in the link.
  const before = await page.evaluate(() => ({ ...globalThis.posencApp.state }));
  // The explorer link opens once the step's question is answered (or told).
  assert.equal(await page.getAttribute('.guide .explore', 'aria-disabled'), 'true');
  await page.click('.guide button.tell');
  await page.waitForFunction(() => !document.querySelector('.posenc-app.predict-pending'));
  await page.click('.guide .explore');
  await page.waitForURL((u) => u.searchParams.get('view') === all[1].view && !u.searchParams.has('step'));
  assert.equal(await page.locator('.tabs').isVisible(), true);
  assert.equal(await page.locator('.guide').isVisible(), false);
  const now = await page.evaluate(() => ({ ...globalThis.posencApp.state }));
  assert.equal(now.dim, before.dim);
  assert.equal(now.method, before.method);
  // An unknown step falls back to the first; embed works with a step.
  await page.goto(`${srv.origin}/?step=no-such-step`);
  await rendered(page);
  await at(0);
  await page.goto(`${srv.origin}/?embed=1&step=${all[1].id}`);
  await rendered(page);
  assert.equal(await page.evaluate(() => globalThis.posencApp.state.view), all[1].view);
  assert.equal(await page.locator('.guide').count(), 0);
  assert.deepEqual(errors, []);
  await page.goto(`${srv.origin}/`);
  await rendered(page);
  await page.screenshot({ path: `${SHOTS}/guided-1280.png`, fullPage: true });
  await ctx.close();
});

test('explorer tabs: tablist/tab/tabpanel roles, arrow keys wrap, Home/End', { skip }, async () => {
  const { ctx, page } = await open('/?view=heatmap');
  assert.equal(await page.getAttribute('.tabs', 'role'), 'tablist');
  const tabs = page.locator('.tabs [role=tab]');
  const n = await tabs.count();
  assert.ok(n >= 9);
  const sel = () =>
    page.evaluate(() => ({
      view: globalThis.posencApp.state.view,
      selected: [...document.querySelectorAll('[role=tab][aria-selected=true]')].map((b) => b.dataset.view),
      focus: document.activeElement?.dataset.view,
      tabbable: [...document.querySelectorAll('[role=tab]')].filter((b) => b.tabIndex === 0).map((b) => b.dataset.view),
      panel: document.querySelector('[role=tabpanel]')?.getAttribute('aria-labelledby'),
    }));
  const first = await tabs.nth(0).getAttribute('data-view');
  const second = await tabs.nth(1).getAttribute('data-view');
  const last = await tabs.nth(n - 1).getAttribute('data-view');
  assert.equal(await tabs.nth(0).getAttribute('aria-controls'), 'figure-panel');
  await page.focus('[role=tab][aria-selected=true]');
  const expect = async (v) => {
    await page.waitForFunction(
      (v) =>
        globalThis.posencApp.state.view === v &&
        document.querySelector(`#tab-${v}`).getAttribute('aria-selected') === 'true',
      v,
    );
    const s = await sel();
    assert.deepEqual(s, { view: v, selected: [v], focus: v, tabbable: [v], panel: `tab-${v}` });
  };
  await page.keyboard.press('ArrowRight');
  await expect(second);
  await page.keyboard.press('End');
  await expect(last);
  await page.keyboard.press('ArrowRight');
  await expect(first);
  await page.keyboard.press('ArrowLeft');
  await expect(last);
  await page.keyboard.press('Home');
  await expect(first);
  await ctx.close();
});

test("controls: one catalogue, the view's own set beside the figure, none/all on request", { skip }, async (t) => {
  const { ctx, page } = await open('/?view=heatmap');
  const names = () => page.locator('form.controls [name]').evaluateAll((els) => els.map((e) => e.name));
  const own = await names();
  const all = await (async () => {
    await page.goto(`${srv.origin}/?view=heatmap&controls=all`);
    await rendered(page);
    return names();
  })();
  assert.ok(all.includes('dim') && all.includes('shawk') && all.includes('palette'));
  t.diagnostic(`heatmap shows ${own.join(', ')}`);
  assert.ok(own.length < all.length, 'the heatmap shows only what it reads');
  // Side by side on a desktop: the panel is left of the figure, level with it.
  const form = await page.locator('form.controls').boundingBox();
  const fig = await page.locator('.host').boundingBox();
  assert.ok(form.x + form.width <= fig.x + 1 && Math.abs(form.y - fig.y) < 40, 'controls beside the figure');
  await page.goto(`${srv.origin}/?view=heatmap&controls=none`);
  await rendered(page);
  assert.equal(await page.locator('form.controls').isVisible(), false);
  // Heads count from 1 in the control; the state keeps 0-based.
  await page.goto(`${srv.origin}/?view=bias&heads=4&head=3&controls=all`);
  await rendered(page);
  assert.equal(await page.inputValue('[name=head]'), '4');
  assert.equal(await page.getAttribute('[name=head]', 'max'), '4');
  await page.locator('[name=head]').fill('2');
  await page.waitForFunction(() => globalThis.posencApp.state.head === 1);
  await ctx.close();
});

test('phones: no horizontal overflow at 320 or 390 px, controls above the figure, active tab in sight', {
  skip,
}, async () => {
  for (const width of [320, 390]) {
    const { ctx, page } = await open('/', { viewport: { width, height: 800 }, isMobile: true, hasTouch: true });
    for (const path of [
      '/',
      '/?view=heatmap',
      '/?view=bias',
      '/?view=compare',
      '/?view=waves&method=rope',
      '/?view=rotation&method=rope',
      '/?view=extrapolation',
      '/?view=shuffle',
      '/?view=similarity',
      '/?view=learned&method=learned',
    ]) {
      await page.goto(`${srv.origin}${path}`);
      await rendered(page);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      assert.ok(overflow <= 0, `${path} at ${width}px: ${overflow}px wider than the screen`);
      if (path.includes('view=')) {
        const tab = await page.locator('[role=tab][aria-selected=true]').boundingBox();
        const strip = await page.locator('.tabs').boundingBox();
        assert.ok(
          tab.x >= strip.x - 1 && tab.x + tab.width <= strip.x + strip.width + 1,
          `${path} at ${width}px: the active tab is off-screen`,
        );
        if (await page.locator('form.controls').isVisible()) {
          const form = await page.locator('form.controls').boundingBox();
          const fig = await page.locator('.host').boundingBox();
          assert.ok(form.y + form.height <= fig.y + 1, `${path}: controls should sit above the figure on a phone`);
        }
      }
      const name = path === '/' ? 'guided' : path.slice(7).replace(/[^a-z]+/g, '-');
      if (['guided', 'heatmap', 'bias', 'shuffle'].includes(name))
        await page.screenshot({ path: `${SHOTS}/phone-${width}-${name}.png`, fullPage: true });
    }
    await ctx.close();
  }
});

test('focus ring, control borders and plot series reach 3:1 in both themes; the skip link reaches the figure', {
  skip,
}, async (t) => {
  for (const theme of ['light', 'dark']) {
    const { ctx, page } = await open(`/?view=heatmap&theme=${theme}`);
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement.className), 'skip', 'the skip link comes first');
    // Focus ring colour against what it is drawn on: the page background and the panel paper.
    const ring = await page.evaluate(() => {
      const el = document.activeElement;
      const cs = getComputedStyle(el);
      const root = getComputedStyle(document.documentElement);
      const probe = document.createElement('div');
      document.body.append(probe);
      const resolve = (v) => {
        probe.style.setProperty('color', v);
        return getComputedStyle(probe).color;
      };
      const out = {
        outline: cs.outlineColor,
        style: cs.outlineStyle,
        width: parseFloat(cs.outlineWidth),
        bg: resolve(root.getPropertyValue('--bg')),
        paper: resolve(root.getPropertyValue('--paper')),
        edge: resolve(root.getPropertyValue('--edge')),
        series: Array.from({ length: 8 }, (_, i) => resolve(root.getPropertyValue(`--series-${i + 1}`))),
        inputBorder: getComputedStyle(document.querySelector('select')).borderTopColor,
      };
      probe.remove();
      return out;
    });
    assert.equal(ring.style, 'solid');
    assert.ok(ring.width >= 2);
    for (const [what, c] of [
      ['focus ring', ring.outline],
      ['control border', ring.inputBorder],
      ...ring.series.map((c, i) => [`--series-${i + 1}`, c]),
    ]) {
      const lo = Math.min(contrast(c, ring.bg), contrast(c, ring.paper));
      t.diagnostic(`${theme}: ${what} ${c}: ${lo.toFixed(2)}:1`);
      assert.ok(lo >= 3, `${theme}: ${what} ${c} is ${lo.toFixed(2)}:1`);
    }
    await page.keyboard.press('Enter');
    assert.ok(
      await page.evaluate(() => !!document.activeElement.closest('#figure')),
      'the skip link moves focus into the figure',
    );
    await ctx.close();
  }
});

test('the figure has a screen-reader description: what, size and range', { skip }, async () => {
  const { ctx, page } = await open('/?view=heatmap&dim=8&length=16');
  await page.waitForFunction(() => document.querySelector('#figure-desc')?.textContent.length > 10);
  const d = await page.locator('#figure-desc').textContent();
  assert.match(d, /16/);
  assert.match(d, /8/);
  assert.match(d, /from -?\d/);
  assert.equal(await page.getAttribute('#figure', 'aria-describedby'), 'figure-desc');
  await ctx.close();
});

test('Export PNG: the whole figure with its title at 2× the on-screen size', { skip }, async (t) => {
  const ctx = await browser.newContext({
    acceptDownloads: true,
    viewport: { width: 1280, height: 900 },
    serviceWorkers: 'block',
  });
  const page = await ctx.newPage();
  for (const view of VIEW_IDS) {
    await page.goto(`${srv.origin}/?view=${view}&dim=32&length=64`);
    await rendered(page);
    const box = await page.evaluate(() => {
      // The Worked example's figure is its table of numbers: measure the table on screen.
      const c =
        document.querySelector('.host table.pe') ??
        globalThis.posencApp.view.canvas?.() ??
        document.querySelector('.host canvas');
      return { w: c.clientWidth, h: c.clientHeight }; // the drawn area, without the border
    });
    const [dl] = await Promise.all([page.waitForEvent('download'), page.click('[data-export=png]')]);
    const png = await decodePng(browser, readFileSync(await dl.path()), 60); // the title's rows
    t.diagnostic(
      `${view}: exported ${png.width}×${png.height} for a ${box.w.toFixed(0)}×${box.h.toFixed(0)} canvas on screen`,
    );
    assert.ok(
      png.width >= 2 * box.w - 2 && png.height >= 2 * box.h,
      `${view}: ${png.width}×${png.height} is not 2× ${box.w}×${box.h}`,
    );
    // The title region: the top 60 px (30 on screen) hold text, not only the background.
    const bg = png.lum[0];
    let ink = 0;
    for (let y = 0; y < 60; y++)
      for (let x = 0; x < png.width; x++) if (Math.abs(png.lum[y * png.width + x] - bg) > 80) ink++;
    assert.ok(ink > 200, `${view}: no title text at the top (${ink} ink pixels)`);
  }
  await ctx.close();
});

test('CSV export quotes cells (RFC 4180) and defuses formulas', { skip }, async () => {
  const ctx = await browser.newContext({ acceptDownloads: true, serviceWorkers: 'block' });
  const page = await ctx.newPage();
  await page.goto(
    `${srv.origin}/?view=shuffle&method=rope&sentence=${encodeURIComponent('=HYPERLINK("x") bites, man')}`,
  );
  await rendered(page);
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('[data-export=csv]')]);
  const csv = readFileSync(await dl.path(), 'utf8');
  const first = csv.split('\r\n')[0];
  assert.equal(first, 'words,"\'=HYPERLINK(""x"") bites, man"');
  await ctx.close();
});

test('dark theme: plot, matrix and rotation canvases are painted dark; light theme light', { skip }, async () => {
  const lumAt = (page) =>
    page.evaluate(() =>
      [...document.querySelectorAll('.host canvas')]
        .filter((c) => c.offsetParent && c.width > 2)
        .map((c) => {
          const [r, g, b] = c.getContext('2d').getImageData(1, 1, 1, 1).data;
          return {
            kind: c.closest('.plot') ? 'plot' : c.closest('.mat') ? 'matrix' : c.className || 'canvas',
            lum: 0.2126 * r + 0.7152 * g + 0.0722 * b,
          };
        }),
    );
  const { ctx, page } = await open('/?view=waves&method=rope&theme=dark');
  const seen = new Set();
  for (const view of ['waves', 'rotation', 'heatmap', 'bias', 'scaling']) {
    for (const theme of ['dark', 'light']) {
      await page.goto(`${srv.origin}/?view=${view}&method=rope&theme=${theme}`);
      await rendered(page);
      const all = await lumAt(page);
      assert.ok(all.length > 0, `${view}: canvases`);
      for (const c of all) {
        seen.add(c.kind);
        if (theme === 'dark') assert.ok(c.lum < 60, `${view} (${c.kind}) corner luminance ${c.lum} in the dark theme`);
        else assert.ok(c.lum > 200, `${view} (${c.kind}) corner luminance ${c.lum} in the light theme`);
      }
    }
  }
  assert.ok(seen.has('plot') && seen.has('matrix') && seen.has('circles'), `kinds checked: ${[...seen]}`);
  await ctx.close();
});

test('the panel picker: a visible control for multi-panel views only; it picks the panel', { skip }, async () => {
  const { ctx, page, errors } = await open('/?view=bias');
  const picker = page.locator('form.controls select[name=panel]');
  assert.equal(await picker.isVisible(), true, 'Bias shows a panel picker');
  assert.deepEqual(await picker.locator('option').evaluateAll((os) => os.map((o) => o.value)), [
    '',
    'alibi',
    't5',
    'shaw',
  ]);
  const tall = await page.locator('.host').evaluate((h) => h.getBoundingClientRect().height);
  await page.evaluate(
    () =>
      new Promise((res) => {
        document.addEventListener('posenc-render', res, { once: true });
        const s = document.querySelector('select[name=panel]');
        s.value = 'alibi';
        s.dispatchEvent(new Event('input', { bubbles: true }));
      }),
  );
  assert.equal(await page.evaluate(() => globalThis.posencApp.state.panel), 'alibi');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('panel') === 'alibi');
  const one = await page.locator('.host').evaluate((h) => h.getBoundingClientRect().height);
  assert.ok(one < tall - 200, `ALiBi alone (${one}px) is shorter than all three (${tall}px)`);
  for (const view of ['heatmap', 'waves']) {
    await page.goto(`${srv.origin}/?view=${view}&controls=all`);
    await rendered(page);
    assert.equal(await page.locator('form.controls [name=panel]').count(), 0, `${view} has no panels to pick`);
  }
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('phones: the controls above the figure fold away and back; on a desktop they do not fold', { skip }, async () => {
  const { ctx, page } = await open('/?view=heatmap', {
    viewport: { width: 390, height: 800 },
    isMobile: true,
    hasTouch: true,
  });
  const fold = page.locator('form.controls .fold');
  assert.equal(await fold.isVisible(), true);
  assert.equal(await fold.getAttribute('aria-expanded'), 'true');
  const open1 = await page.locator('.host').boundingBox();
  await fold.click();
  assert.equal(await fold.getAttribute('aria-expanded'), 'false');
  assert.equal(await page.locator('form.controls fieldset').first().isVisible(), false);
  const shut = await page.locator('.host').boundingBox();
  assert.ok(shut.y < open1.y - 100, `the figure comes up when the controls fold (${open1.y} → ${shut.y})`);
  // Folded stays folded across renders (a new method rebuilds the controls).
  await page.evaluate(() => globalThis.posencApp.setState({ method: 'rope' }));
  await rendered(page);
  assert.equal(await page.locator('form.controls fieldset').first().isVisible(), false);
  await fold.click();
  assert.equal(await page.locator('form.controls fieldset').first().isVisible(), true);
  await page.screenshot({ path: `${SHOTS}/phone-390-controls.png`, fullPage: false });
  await ctx.close();
  const desk = await open('/?view=heatmap');
  assert.equal(await desk.page.locator('form.controls .fold').isVisible(), false);
  await desk.ctx.close();
});

test("phones: a multi-panel view puts each panel's controls right above that panel, and back beside it when wide", {
  skip,
}, async () => {
  const { ctx, page, errors } = await open('/?view=bias', {
    viewport: { width: 390, height: 800 },
    isMobile: true,
    hasTouch: true,
  });
  const where = () =>
    page.evaluate(() => {
      const input = document.querySelector('[name=buckets]');
      const t5 = [...document.querySelectorAll('.host h3')].find((h) => h.textContent === 'T5 buckets').parentElement;
      const box = (e) => e.getBoundingClientRect();
      return {
        inForm: !!input.closest('form.controls'),
        inT5: t5.contains(input),
        gap: box(t5.querySelector('.pair')).top - box(input.closest('label')).bottom,
        shawInShaw: [...document.querySelectorAll('.host h3')]
          .find((h) => /Shaw/.test(h.textContent))
          .parentElement.contains(document.querySelector('[name=shawk]')),
      };
    });
  const phone = await where();
  assert.deepEqual(
    { inForm: phone.inForm, inT5: phone.inT5, shawInShaw: phone.shawInShaw },
    { inForm: false, inT5: true, shawInShaw: true },
  );
  assert.ok(phone.gap >= 0 && phone.gap < 120, `T5's controls end ${phone.gap}px above its first figure`);
  // A placed control still drives the state and stays in sync with it.
  await page.locator('[name=buckets]').fill('16');
  await page.waitForFunction(() => globalThis.posencApp.state.buckets === 16);
  await page.evaluate(() => globalThis.posencApp.setState({ maxdist: 300 }));
  await rendered(page);
  assert.equal(await page.locator('[name=maxdist]').inputValue(), '300');
  await page.screenshot({ path: `${SHOTS}/phone-390-bias-panel-controls.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.waitForFunction(() => !!document.querySelector('form.controls [name=buckets]'));
  assert.equal((await where()).inForm, true, 'wide: the controls are back in the sidebar');
  assert.equal(await page.locator('[name=buckets]').inputValue(), '16');
  assert.deepEqual(errors, []);
  await ctx.close();
});
