// Formula panels of Waves, Scaling, Extrapolation, Compare and Rotation, in headless Debian
// Chromium over web/dist: the keyboard cursor fills the panel in; its exact value is what its API
// call returns (evaluated in the page against the page's own posenc), and it is the point the
// figure shows there. Waits on renders and state only.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pageSuite, skip } from './browser_embed_harness.js';

const suite = pageSuite();
const { open, setState, pageErrors } = suite;

/** The panel's value, its call, the call evaluated against the page's posenc, and where it is. */
function panel(page, sel = '.host .formula') {
  return page.evaluate((sel) => {
    const f = document.querySelector(sel);
    const call = f.dataset.call;
    const api = call ? new Function('pe', `return ${call};`)(globalThis.posencApp.pe) : undefined;
    return {
      shown: f.dataset.value,
      call,
      api,
      where: f.dataset.where ? JSON.parse(f.dataset.where) : null,
      text: f.textContent,
    };
  }, sel);
}

function assertExact(r, what) {
  assert.ok(r.call.startsWith('pe.'), `${what}: an API call (${r.call})`);
  assert.ok(Object.is(Number(r.shown), r.api), `${what}: panel ${r.shown} vs API ${r.api} (${r.call})`);
  assert.match(r.text, /Check your own implementation/, what);
}

async function keys(page, canvas, list) {
  await page.focus(canvas);
  for (const k of list) await page.keyboard.press(k);
}

const BASE = {
  dim: 32,
  length: 96,
  base: 10000,
  layout: 'interleaved',
  heads: 8,
  head: 0,
  rope: 'half',
  scaling: 'none',
  factor: 4,
  train: 48,
  buckets: 32,
  maxdist: 128,
  t5dir: 'bidirectional',
  shawk: 4,
  preset: '',
  panel: '',
};

test('Waves: the formula is the curve point under the keyboard cursor, and its call returns its value', {
  skip,
  timeout: 300000,
}, async (t) => {
  const { page, ctx } = await open('/?view=waves');
  for (const [method, extra] of [
    ['sinusoidal', {}],
    ['sinusoidal', { layout: 'split' }],
    ['rope', {}],
    ['rope', { scaling: 'yarn' }],
    ['learned', {}],
    ['alibi', {}],
    ['t5', {}],
    ['t5', { t5dir: 'causal' }],
    ['shaw', {}],
  ]) {
    await setState(page, { ...BASE, view: 'waves', method, ...extra });
    await keys(page, '.host .plot canvas', [
      'ArrowRight',
      'ArrowRight',
      'ArrowRight',
      'ArrowRight',
      'ArrowRight',
      'ArrowRight',
      'ArrowRight',
    ]);
    const r = await panel(page);
    const what = `${method} ${JSON.stringify(extra)}`;
    assertExact(r, what);
    // the point the plot draws there: curve `series` at x (sampled by the same API; tables and
    // fractional offsets may round the angle differently, hence the tolerance of a float32 ulp or so)
    const drawn = await page.evaluate(({ series, x }) => {
      const d = globalThis.posencApp.view.exportData();
      const s = d.series[series];
      const i = s.x.findIndex((v) => v === x);
      return i < 0 ? null : s.y[i];
    }, r.where);
    assert.notEqual(drawn, null, `${what}: x ${r.where.x} is a sample of curve ${r.where.series}`);
    assert.ok(
      Math.abs(drawn - r.api) <= 1e-5 * Math.max(1, Math.abs(r.api)),
      `${what}: plotted ${drawn} vs formula ${r.api} at ${JSON.stringify(r.where)}`,
    );
    t.diagnostic(`${what}: ${r.call} = ${r.api}`);
  }
  // the pointer picks the curve nearest to it
  await setState(page, { ...BASE, view: 'waves', method: 'alibi' });
  const box = await page.locator('.host .plot canvas').first().boundingBox();
  await page.mouse.move(box.x + box.width * 0.2, box.y + box.height * 0.75);
  const low = await panel(page);
  await page.mouse.move(box.x + box.width * 0.2, box.y + 14);
  const high = await panel(page);
  assertExact(low, 'alibi, pointer low');
  assertExact(high, 'alibi, pointer high');
  assert.notEqual(low.where.series, high.where.series, 'another curve under the pointer fills another head in');
  await ctx.close();
});

test('Scaling: the pair under the cursor, its float32 frequency from pe.ropeFrequencies', {
  skip,
  timeout: 120000,
}, async (t) => {
  const { page, ctx } = await open('/?view=scaling');
  for (const extra of [{ scaling: 'none' }, { scaling: 'yarn', factor: 4 }, { scaling: 'llama3', factor: 8 }]) {
    await setState(page, { ...BASE, view: 'scaling', dim: 64, ...extra });
    // back to pair 0 first (the cursor stays where it was across renders), then five pairs right
    await keys(page, '.host .plot canvas', [
      ...Array(40).fill('ArrowLeft'),
      'ArrowRight',
      'ArrowRight',
      'ArrowRight',
      'ArrowRight',
      'ArrowRight',
    ]);
    const r = await panel(page);
    assertExact(r, `scaling ${JSON.stringify(extra)}`);
    const i = Number(/\[(\d+)\]$/.exec(r.call)[1]);
    assert.equal(i, 5, 'five steps right from pair 0 is pair 5');
    // the plotted wavelength of the scaled curve (the first curve without scaling) is 2π/ω there
    const wl = await page.evaluate(
      (i) => globalThis.posencApp.view.exportData().series[globalThis.posencApp.state.scaling === 'none' ? 0 : 1].y[i],
      i,
    );
    assert.ok(Math.abs(wl - (2 * Math.PI) / r.api) <= 1e-6 * wl, `wavelength ${wl} vs 2π/${r.api}`);
    t.diagnostic(`${JSON.stringify(extra)}: ${r.call} = ${r.api}`);
  }
  await ctx.close();
});

test('Extrapolation: one panel for four matrices, filled from the matrix under the cursor', {
  skip,
  timeout: 120000,
}, async (t) => {
  const { page, ctx } = await open('/?view=extrapolation');
  await setState(page, { ...BASE, view: 'extrapolation', scaling: 'yarn' });
  const calls = new Set();
  for (let k = 0; k < 4; k++) {
    await keys(page, `.host .grid .panel:nth-child(${k + 1}) canvas`, [
      'ArrowDown',
      'ArrowDown',
      'ArrowDown',
      'ArrowDown',
      'ArrowRight',
      'ArrowRight',
      'ArrowRight',
    ]);
    const r = await panel(page);
    assertExact(r, `matrix ${k + 1}`);
    calls.add(r.call.slice(0, r.call.indexOf('(')));
    t.diagnostic(`matrix ${k + 1}: ${r.call} = ${r.api}`);
  }
  assert.deepEqual(
    [...calls].sort(),
    ['pe.alibiBias', 'pe.learnedInit', 'pe.ropeCache', 'pe.sinusoidal'],
    'each matrix fills its own formula',
  );
  // a learned row past the training length has no value: the panel says so instead
  await keys(page, '.host .grid .panel:nth-child(3) canvas', Array(6).fill('Shift+ArrowDown'));
  const past = await panel(page);
  assert.equal(past.call, '');
  assert.match(past.text, /past the training length/);
  await ctx.close();
});

test('Compare: the formula follows the side under the cursor and equals the drawn cell', {
  skip,
  timeout: 180000,
}, async (t) => {
  // same quantity (RoPE as sin θ | cos θ beside a table), and tables or indices beside biases
  for (const [method, vs] of [
    ['sinusoidal', 'rope'],
    ['rope', 'learned'],
    ['alibi', 't5'],
    ['shaw', 'sinusoidal'],
  ]) {
    const { page, ctx } = await open('/?view=compare'); // a fresh page: both cursors start at (0, 0)
    await setState(page, { ...BASE, view: 'compare', method, vs });
    for (const side of [0, 1]) {
      await keys(page, `.host .pair .panel:nth-child(${side + 1}) canvas`, [
        'ArrowDown',
        'ArrowDown',
        'ArrowDown',
        'ArrowDown',
        'ArrowDown',
        'ArrowRight',
        'ArrowRight',
      ]);
      const r = await panel(page);
      const what = `${method} | ${vs}, side ${side + 1}`;
      assertExact(r, what);
      const drawn = await page.evaluate((side) => {
        const part = globalThis.posencApp.view.exportData().parts[side];
        return part.values[5 * part.cols + 2];
      }, side);
      assert.ok(Object.is(drawn, r.api), `${what}: drawn cell (5, 2) ${drawn} vs formula ${r.api} (${r.call})`);
      t.diagnostic(`${what}: ${r.call} = ${r.api}`);
    }
    await ctx.close();
  }
});

test('Rotation: the circle under the cursor, q at m turned by m·ωᵢ from pe.ropeCache', {
  skip,
  timeout: 120000,
}, async (t) => {
  const { page, ctx } = await open('/?view=rotation');
  for (const extra of [{}, { scaling: 'yarn', factor: 4 }]) {
    await setState(page, { ...BASE, view: 'rotation', dim: 64, pos: 37, kpos: 45, ...extra });
    await keys(page, '.host canvas.circles', [
      'ArrowLeft',
      'ArrowLeft',
      'ArrowLeft',
      'ArrowLeft',
      'ArrowLeft',
      'ArrowRight',
      'ArrowRight',
    ]);
    const r = await panel(page);
    assertExact(r, `rotation ${JSON.stringify(extra)}`);
    assert.match(r.call, /offset: 37\b/, 'the query position m');
    assert.match(r.call, /\.cos\[4\]$/, 'two circles right of pair 0 is pair 4 (pairs 0, 1, 4, 8, 31 at 64 dims)');
    t.diagnostic(`${JSON.stringify(extra)}: ${r.call} = ${r.api}`);
  }
  await ctx.close();
});

test('formula panels grow with their content: no scroll box, at 390 and 1280 px', {
  skip,
  timeout: 120000,
}, async () => {
  for (const viewport of [
    { width: 390, height: 844 },
    { width: 1280, height: 900 },
  ]) {
    const { page, ctx } = await open('/?view=waves', viewport);
    for (const view of [
      'waves',
      'scaling',
      'extrapolation',
      'compare',
      'rotation',
      'heatmap',
      'similarity',
      'learned',
    ]) {
      await setState(page, { ...BASE, view, method: 'rope', vs: 'sinusoidal', scaling: 'yarn' });
      const f = await page.evaluate(() => {
        const el = document.querySelector('.host .formula');
        return {
          scroll: el.scrollHeight,
          client: el.clientHeight,
          overflow: getComputedStyle(el).overflowY,
          text: el.textContent.length,
        };
      });
      assert.ok(f.text > 40, `${view}: the panel has its text`);
      assert.ok(
        f.scroll <= f.client + 1,
        `${view} at ${viewport.width}px: the panel scrolls inside (${f.scroll} > ${f.client})`,
      );
      assert.notEqual(f.overflow, 'auto', `${view}: not a scroll box`);
    }
    await ctx.close();
  }
  assert.deepEqual(pageErrors, []);
});
