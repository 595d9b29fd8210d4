// Browser tests for the page (web/dist, built by `./build.sh test`), in headless Debian Chromium
// driven by playwright-core. A tiny static server on 127.0.0.1 serves the build; every request the
// page makes is logged, so "no external requests" is checked on every visit.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { extname, join, normalize } from 'node:path';
import { after, before, test } from 'node:test';
import { CHROMIUM, dist, SHOTS, skip, TYPES } from './browser_embed_harness.js';

const EMBED_HOST = `<!doctype html><meta charset="utf-8"><title>host</title><link rel="icon" href="/favicon.svg"><script>
  window.msgs = [];
  addEventListener('message', (e) => {
    msgs.push(e.data);
    if (e.data?.type === 'posenc:height') document.getElementById('f').style.height = e.data.height + 'px';
  });</script>
  <p>A blog post with an embedded view:</p>
  <iframe id="f" src="/?embed=1&view=heatmap&dim=32&length=64" style="width:700px;height:150px;border:1px solid #ccc"></iframe>`;

function serve() {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    if (url.pathname === '/__embed-host.html') {
      res.writeHead(200, { 'content-type': 'text/html' });
      return res.end(EMBED_HOST);
    }
    const rel = normalize(decodeURIComponent(url.pathname)).replace(/^(\.\.[/\\])+/, '');
    const file = join(dist, rel.endsWith('/') ? `${rel}index.html` : rel);
    if (!file.startsWith(dist) || !existsSync(file)) {
      res.writeHead(404);
      return res.end('not found');
    }
    res.writeHead(200, {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'cache-control': 'no-cache',
    });
    res.end(readFileSync(file));
  });
  server.unref(); // a failed test must not keep the process alive through an open server
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, origin: `http://127.0.0.1:${server.address().port}` })),
  );
}

let browser, srv;
const external = [];
const consoleErrors = [];

async function open(path, { viewport = { width: 1280, height: 900 }, context } = {}) {
  const ctx = context ?? (await browser.newContext({ viewport, serviceWorkers: 'block' }));
  const page = await ctx.newPage();
  page.on('request', (r) => {
    const u = r.url();
    if (!u.startsWith(srv.origin) && !/^(data|blob|file):/.test(u) && !u.startsWith(page.__origin ?? '\0'))
      external.push(u);
  });
  page.on('console', (m) => m.type() === 'error' && consoleErrors.push(`${path}: ${m.text()}`));
  page.on('pageerror', (e) => consoleErrors.push(`${path}: ${e.message}`));
  if (path !== null) {
    await page.goto(path.startsWith('file:') ? path : `${srv.origin}${path}`);
    await rendered(page);
  }
  return { page, ctx };
}

/** Wait until the app has rendered (the similarity view may finish in a worker a moment later). */
async function rendered(page) {
  await page.waitForFunction(() => (globalThis.__posencFrames?.length ?? 0) > 0, null, { timeout: 60000 });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/** Luminance variance of each visible canvas under `sel` (0 = blank). */
function variances(page, sel = '.host canvas') {
  return page.evaluate((sel) => {
    const out = [];
    const all = (root) => [
      ...root.querySelectorAll(sel),
      ...[...root.querySelectorAll('*')].filter((e) => e.shadowRoot).flatMap((e) => all(e.shadowRoot)),
    ];
    for (const c of all(document)) {
      if (!c.offsetParent || !c.width || !c.height) continue;
      const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      let s = 0,
        s2 = 0;
      const n = d.length / 4;
      for (let i = 0; i < d.length; i += 4) {
        const y = 0.2126 * d[i] + 0.7152 * d[i + 1] + 0.0722 * d[i + 2];
        s += y;
        s2 += y * y;
      }
      out.push(s2 / n - (s / n) ** 2);
    }
    return out;
  }, sel);
}
const apiHas = (page, fns) =>
  page.evaluate((fns) => fns.filter((f) => typeof globalThis.posencApp?.pe?.[f] !== 'function'), fns);

before(async () => {
  if (skip) return;
  mkdirSync(SHOTS, { recursive: true });
  const { chromium } = await import('playwright-core');
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
      '--disable-quic',
    ],
  });
  srv = await serve();
});
after(async () => {
  await browser?.close();
  srv?.server.close();
});

// [view, method, functions the view needs]
const CASES = [
  ['heatmap', 'sinusoidal', ['sinusoidal']],
  ['heatmap', 'rope', ['ropeCache']],
  ['heatmap', 'learned', ['learnedInit']],
  ['heatmap', 'alibi', ['alibiBias']],
  ['heatmap', 't5', ['t5Buckets']],
  ['heatmap', 'shaw', ['shawIndices']],
  ['waves', 'sinusoidal', ['sinusoidal']],
  ['waves', 'rope', ['ropeCache']],
  ['similarity', 'sinusoidal', ['similarity']],
  ['similarity', 'rope', ['applyRope', 'ropeDecay']],
  ['rotation', 'rope', ['ropeCache', 'ropeFrequencies', 'applyRope', 'learnedInit']],
  ['bias', 'alibi', ['alibiSlopes', 'alibiBias', 't5Buckets', 'shawIndices']],
  ['learned', 'learned', ['learnedInit', 'gather']],
  ['extrapolation', 'rope', ['sinusoidal', 'ropeCache', 'learnedInit', 'alibiBias']],
  ['compare', 'sinusoidal', ['sinusoidal', 'ropeCache']],
  ['shuffle', 'rope', ['selfAttention', 'learnedInit']],
  // the lab trains in its worker: the page's API serves it nothing until Train (without a worker)
  ['lab', 'rope', []],
  ['worked', 'sinusoidal', ['sinusoidal', 'sinusoidalFrequencies', 'learnedInit', 'addTo']],
  ['shift', 'sinusoidal', ['sinusoidal']],
  ['concat', 'sinusoidal', ['sinusoidal', 'learnedInit', 'addTo', 'concat', 'similarity']],
  ['scaling', 'rope', ['ropeFrequencies']],
  ['positions', 'rope', ['sinusoidal', 'applyRope', 'similarity', 'learnedInit', 'selfAttention', 'matmul']],
  [
    'recap',
    'rope',
    ['sinusoidal', 'learnedInit', 'gather', 'addTo', 'applyRope', 'alibiBias', 't5Buckets', 'similarity'],
  ],
];

// No browser needed: the cases render each view of the registry (web/src/views/registry.js) and no other.
test('CASES renders every declared view and no other', async () => {
  const { VIEW_IDS } = await import('../web/src/views/registry.js');
  const inCases = [...new Set(CASES.map(([view]) => view))];
  assert.deepEqual(
    VIEW_IDS.filter((id) => !inCases.includes(id)),
    [],
    'CASES lacks these views',
  );
  assert.deepEqual(
    inCases.filter((id) => !VIEW_IDS.includes(id)),
    [],
    'CASES has these, which no view declares',
  );
});

test('every view renders non-blank with every API function it calls', { skip }, async (t) => {
  const { page, ctx } = await open('/');
  for (const [view, method, fns] of CASES) {
    await page.goto(`${srv.origin}/?view=${view}&method=${method}&scaling=${method === 'rope' ? 'linear' : 'none'}`);
    await rendered(page);
    if (view === 'similarity')
      await page
        .waitForFunction(() => document.querySelector('.host .mat canvas')?.width > 1, null, { timeout: 60000 })
        .catch(() => {});
    assert.deepEqual(await apiHas(page, fns), [], `${view}/${method}: the page's API lacks a function the view calls`);
    const notes = await page.locator('.host .unavailable').allTextContents();
    const errors = await page.locator('.host .error').allTextContents();
    assert.deepEqual(errors, [], `${view}/${method} shows errors`);
    assert.deepEqual(notes, [], `${view}/${method}`);
    const v = await variances(page);
    // the Worked example's figure is its table of numbers, no canvas
    if (view === 'worked') assert.ok((await page.locator('.host table.pe td').count()) > 0, 'worked: its table');
    else assert.ok(v.length > 0, `${view}/${method}: no canvas`);
    assert.ok(
      v.every((x) => x > 1),
      `${view}/${method}: blank canvas (variances ${v.map((x) => x.toFixed(1))})`,
    );
    await page.screenshot({ path: `${SHOTS}/${view}-${method}.png`, fullPage: true });
  }
  await ctx.close();
});

test('shuffle lab: no positions = permuted matrix (diff ~0, cosine 1.000000); with positions it differs', {
  skip,
}, async (t) => {
  const { page, ctx } = await open('/?view=shuffle&method=rope&sentence=dog+bites+man');
  assert.deepEqual(await apiHas(page, ['selfAttention']), []);
  // 'man dog bites' (order 2,0,1) changes distances, so even a symmetric bias (bidirectional ALiBi) sees it.
  for (const method of ['rope', 'sinusoidal', 'learned', 'alibi', 't5', 'shaw']) {
    await page.goto(`${srv.origin}/?view=shuffle&method=${method}&sentence=dog+bites+man&order=2,0,1`);
    await rendered(page);
    const side = async (s) => page.locator(`[data-side=${s}]`).evaluate((e) => ({ ...e.dataset, text: e.textContent }));
    const none = await side('none');
    const pos = await side('pos');
    assert.ok(Number(none.maxDiff) < 1e-6, `no positions: max diff ${none.maxDiff}`);
    assert.ok(Number(none.outDiff) < 1e-5, `no positions: output diff ${none.outDiff}`);
    assert.equal(none.cosine, '1.000000');
    assert.match(none.text, /1\.000000/);
    assert.ok(Number(pos.maxDiff) > 1e-3, `${method}: attention should change (${pos.maxDiff})`);
    assert.notEqual(pos.cosine, '1.000000', `${method}: pooled vector should change`);
    assert.match(pos.text, /order changes attention by up to/);
    t.diagnostic(
      `${method}: none maxDiff ${none.maxDiff} cos ${none.cosine}; with positions maxDiff ${pos.maxDiff} cos ${pos.cosine}`,
    );
  }
  await page.screenshot({ path: `${SHOTS}/shuffle-proof.png`, fullPage: true });
  // Shuffling changes the order in the URL and keeps the proof.
  await page.click('button.shuffle');
  await rendered(page);
  await page.waitForURL(/order=/); // the URL follows the state within 200 ms
  assert.equal(await page.locator('[data-side=none]').getAttribute('data-cosine'), '1.000000');
  // Keyboard: Alt+→ moves the focused token one place right.
  await page.goto(`${srv.origin}/?view=shuffle&method=rope&sentence=dog+bites+man&order=0,1,2`);
  await rendered(page);
  assert.equal(await page.locator('[data-side=pos]').getAttribute('data-cosine'), '1.000000'); // identity order
  await page.focus('.tokens li:first-child');
  await page.keyboard.press('Alt+ArrowRight');
  await page.waitForURL(/order=1(%2C|,)0(%2C|,)2/);
  assert.deepEqual(await page.locator('.tokens li').allTextContents(), ['bites', 'dog', 'man']);
  assert.equal(await page.evaluate(() => document.activeElement.textContent), 'dog', 'focus follows the moved token');
  assert.notEqual(await page.locator('[data-side=pos]').getAttribute('data-cosine'), '1.000000');
  assert.equal(await page.locator('[data-side=none]').getAttribute('data-cosine'), '1.000000');
  await ctx.close();
});

test('shuffle lab: words drag with mouse and touch pointers (pointer events), and the page scaling reaches RoPE', {
  skip,
}, async (t) => {
  const { page, ctx } = await open('/?view=shuffle&method=rope&sentence=dog+bites+man&order=0,1,2');
  assert.deepEqual(await apiHas(page, ['selfAttention']), []);
  const words = () => page.locator('.tokens li').allTextContents();
  const centre = async (i) => {
    const b = await page.locator('.tokens li').nth(i).boundingBox();
    return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
  };
  // mouse: drag 'dog' (first) onto 'man' (last)
  const a = await centre(0),
    b = await centre(2);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, a.y, { steps: 4 });
  await page.mouse.move(b.x, b.y, { steps: 4 });
  assert.equal(
    await page.locator('.tokens li.drop-target').textContent(),
    'man',
    'the landing token is marked while dragging',
  );
  await page.screenshot({ path: `${SHOTS}/shuffle-dragging.png` });
  await page.mouse.up();
  await page.waitForURL(/order=1(%2C|,)2(%2C|,)0/);
  assert.deepEqual(await words(), ['bites', 'man', 'dog']);
  assert.notEqual(await page.locator('[data-side=pos]').getAttribute('data-cosine'), '1.000000');
  // a click without movement does not reorder
  const c = await centre(1);
  await page.mouse.click(c.x, c.y);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  assert.deepEqual(await words(), ['bites', 'man', 'dog']);
  await ctx.close();

  // touch: a real touch sequence through the DevTools protocol (Chromium turns it into
  // pointerType 'touch' events), in a context that has a touch screen
  const touchCtx = await browser.newContext({
    viewport: { width: 390, height: 844 },
    hasTouch: true,
    isMobile: true,
    serviceWorkers: 'block',
  });
  const { page: tp } = await open('/?view=shuffle&method=rope&sentence=dog+bites+man&order=0,1,2', {
    context: touchCtx,
  });
  const cdp = await touchCtx.newCDPSession(tp);
  const tc = async (i) => {
    const r = await tp.locator('.tokens li').nth(i).boundingBox();
    return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
  };
  const pointerTypes = [];
  await tp.exposeFunction('__ptype', (x) => pointerTypes.push(x));
  await tp.evaluate(() =>
    document.querySelector('.tokens').addEventListener('pointerdown', (e) => globalThis.__ptype(e.pointerType)),
  );
  // On a phone the view's controls sit above the figure: bring the words into the viewport first.
  await tp.locator('.tokens').scrollIntoViewIfNeeded();
  const from = await tc(2),
    to = await tc(0);
  const touch = (type, p) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: p ? [{ x: p.x, y: p.y }] : [] });
  await touch('touchStart', from);
  for (let k = 1; k <= 6; k++)
    await touch('touchMove', { x: from.x + ((to.x - from.x) * k) / 6, y: from.y + ((to.y - from.y) * k) / 6 });
  await touch('touchEnd');
  await tp.waitForURL(/order=2(%2C|,)0(%2C|,)1/);
  assert.deepEqual(await tp.locator('.tokens li').allTextContents(), ['man', 'dog', 'bites']);
  assert.deepEqual(pointerTypes, ['touch']);
  await touchCtx.close();

  // the page's RoPE scaling and layout go into selfAttention: the caption says so, the numbers move
  const { page: sp, ctx: sctx } = await open('/?view=shuffle&method=rope&sentence=dog+bites+man&order=2,0,1');
  const plain = await sp.locator('[data-side=pos]').getAttribute('data-max-diff');
  assert.match(await sp.locator('[data-side=pos] h3').textContent(), /half pairs, no scaling/);
  await sp.goto(
    `${srv.origin}/?view=shuffle&method=rope&sentence=dog+bites+man&order=2,0,1&scaling=yarn&factor=16&rope=interleaved`,
  );
  await rendered(sp);
  const caption = await sp.locator('[data-side=pos] h3').textContent();
  assert.match(caption, /interleaved pairs, yarn ×16, q, k × 1\.277/);
  const scaled = await sp.locator('[data-side=pos]').getAttribute('data-max-diff');
  assert.notEqual(scaled, plain, 'the scaling changes the lab');
  t.diagnostic(`caption: ${caption}; max diff ${plain} unscaled -> ${scaled}`);
  await sp.screenshot({ path: `${SHOTS}/shuffle-yarn.png`, fullPage: true });
  await sctx.close();
});

test('URL round trip: controls reflect the link, edits go back into it', { skip }, async () => {
  const { page, ctx } = await open('/?view=waves&dim=96&length=300&layout=split&palette=viridis&base=500');
  assert.equal(await page.inputValue('[name=dim]'), '96');
  assert.equal(await page.inputValue('[name=length]'), '300');
  // Waves shows only the controls it reads; keys it does not read (layout, palette) stay in the state.
  assert.equal(await page.locator('[name=layout]').count(), 0);
  assert.equal(await page.evaluate(() => globalThis.posencApp.state.layout), 'split');
  assert.equal(await page.evaluate(() => globalThis.posencApp.state.palette), 'viridis');
  assert.equal(await page.inputValue('[name=base]'), '500');
  assert.equal(await page.getAttribute('[data-view=waves]', 'aria-selected'), 'true');
  // The page (not an embed) ends with the snippet to embed a view, the sizing helper included.
  assert.match(
    await page.locator('footer.chrome pre').first().textContent(),
    /<iframe [^>]*src="[^"]*\?embed=1[\s\S]*posenc-embed\.js/,
  );
  await page.selectOption('[name=method]', 'learned');
  await page.fill('[name=dim]', '48');
  await page.click('[data-view=heatmap]');
  await rendered(page);
  await page.waitForURL((u) => u.searchParams.get('dim') === '48' && u.searchParams.get('view') === 'heatmap');
  const url = new URL(page.url());
  assert.equal(url.searchParams.get('method'), 'learned');
  assert.equal(url.searchParams.get('dim'), '48');
  // The explorer always names its view: a link without one opens the guided path instead.
  assert.equal(url.searchParams.get('view'), 'heatmap');
  assert.equal(url.searchParams.get('step'), null);
  await page.goto(page.url());
  await rendered(page);
  assert.equal(await page.inputValue('[name=method]'), 'learned');
  assert.equal(await page.inputValue('[name=dim]'), '48');
  assert.equal(new URL(page.url()).searchParams.get('layout'), 'split', 'an unshown key survives the round trip');
  assert.equal(await page.evaluate(() => globalThis.posencApp.state.layout), 'split');
  await ctx.close();
});

test('embed mode: no chrome, height posted to the parent', { skip }, async () => {
  const { page, ctx } = await open(null);
  await page.goto(`${srv.origin}/__embed-host.html`);
  // A first message may come before the wasm (the reserved height); wait for the rendered view's.
  await page.waitForFunction(() => msgs.some((m) => m?.type === 'posenc:height' && m.height > 150), null, {
    timeout: 60000,
  });
  const msg = await page.evaluate(() => msgs.find((m) => m?.type === 'posenc:height' && m.height > 150));
  assert.equal(msg.view, 'heatmap');
  assert.ok(msg.height > 150 && msg.height < 3000, `height ${msg.height}`);
  // The frame grows to the posted height and settles (no resize feedback loop): once the iframe
  // has the last posted height, a few more frames inside it post nothing new.
  await page.waitForFunction(
    () => {
      const last = msgs.filter((m) => m?.type === 'posenc:height').at(-1).height;
      return Math.abs(document.getElementById('f').getBoundingClientRect().height - 2 - last) <= 1;
    },
    null,
    { timeout: 60000 },
  );
  const frameEl = page.frame({ url: /embed=1/ });
  const settled = await page.evaluate(() => msgs.filter((m) => m?.type === 'posenc:height').length);
  await frameEl.evaluate(
    () =>
      new Promise((r) => {
        let n = 0;
        const f = () => (++n >= 5 ? r() : requestAnimationFrame(f));
        requestAnimationFrame(f);
      }),
  );
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  assert.equal(
    await page.evaluate(() => msgs.filter((m) => m?.type === 'posenc:height').length),
    settled,
    'height keeps changing',
  );
  assert.ok(settled < 6, `${settled} height messages`);
  const frameBox = await page.locator('#f').boundingBox();
  const last = await page.evaluate(() => msgs.filter((m) => m?.type === 'posenc:height').at(-1).height);
  assert.ok(Math.abs(frameBox.height - 2 - last) <= 1, `iframe ${frameBox.height} vs posted ${last}`);
  const frame = page.frame({ url: /embed=1/ });
  assert.equal(await frame.locator('header.chrome').isVisible(), false);
  // An embed shows no controls unless its link asks (controls=own|all); the empty form stays hidden.
  assert.equal(await frame.locator('form.controls').isVisible(), false);
  assert.equal(await frame.locator('form.controls [name]').count(), 0);
  assert.equal(await frame.locator('.tabs').count(), 0);
  assert.equal(await frame.locator('footer').count(), 0, "the embed snippet is the page's, not the embed's");
  assert.ok((await variances(frame)).every((v) => v > 1));
  await page.screenshot({ path: `${SHOTS}/embed.png`, fullPage: true });
  await ctx.close();
});

test('custom element <posenc-view> renders and follows its attributes', { skip }, async () => {
  const { page, ctx } = await open(null);
  await page.goto(`${srv.origin}/element.html`);
  await page.waitForSelector('#a[data-ready]', { timeout: 60000 });
  await page.waitForFunction(
    () => document.querySelector('#a').shadowRoot.querySelector('canvas')?.dataset.cols === '64',
    null,
    { timeout: 60000 },
  );
  assert.ok((await variances(page, 'canvas')).length >= 2);
  await page.evaluate(() => document.querySelector('#a').setAttribute('dim', '32'));
  await page.waitForFunction(
    () => document.querySelector('#a').shadowRoot.querySelector('canvas').dataset.cols === '32',
  );
  await page.screenshot({ path: `${SHOTS}/element.png`, fullPage: true });
  await ctx.close();
});

test('keyboard walks the heatmap with a readout', { skip }, async () => {
  const { page, ctx } = await open('/?view=heatmap&dim=8&length=16');
  // Tab reaches the heatmap (controls and tabs come first).
  let reached = false;
  for (let i = 0; i < 40 && !reached; i++) {
    await page.keyboard.press('Tab');
    reached = await page.evaluate(() => document.activeElement?.matches('.mat canvas'));
  }
  assert.ok(reached, 'Tab never reached the heatmap');
  const readout = () => page.locator('.host .readout').first().textContent();
  assert.match(await readout(), /position 0, dim 0: 0$/);
  await page.keyboard.press('ArrowRight');
  assert.match(await readout(), /position 0, dim 1: 1$/); // cos(0)
  await page.keyboard.press('ArrowDown');
  assert.match(await readout(), /position 1, dim 1: 0\.5403/); // cos(1)
  await page.keyboard.press('Shift+ArrowDown');
  assert.match(await readout(), /position 11, dim 1: /);
  await page.screenshot({ path: `${SHOTS}/keyboard.png` });
  await ctx.close();
});

test('exports: PNG, CSV and JSON of the current view', { skip }, async () => {
  const ctx = await browser.newContext({ acceptDownloads: true, serviceWorkers: 'block' });
  const { page } = await open('/?view=heatmap&dim=8&length=4', { context: ctx });
  const get = async (kind) => {
    const [dl] = await Promise.all([page.waitForEvent('download'), page.click(`[data-export=${kind}]`)]);
    return { name: dl.suggestedFilename(), body: readFileSync(await dl.path()) };
  };
  const png = await get('png');
  assert.match(png.name, /\.png$/);
  assert.deepEqual([...png.body.subarray(1, 4)], [80, 78, 71]); // "PNG"
  const csv = (await get('csv')).body.toString();
  const lines = csv.trim().split('\n');
  assert.equal(lines.length, 5); // header + 4 positions
  assert.equal(lines[1].split(',').length, 9);
  assert.match(lines[1], /^0,0,1,0,1,/); // position 0: sin 0, cos 0, ...
  assert.ok(csv.includes('\r\n'), 'RFC 4180 line ends');
  const json = JSON.parse((await get('json')).body.toString());
  assert.equal(json.state.dim, '8');
  assert.equal(json.data.rows, 4);
  assert.equal(json.data.values.length, 32);
  await ctx.close();
});

test('reduced motion is honoured', { skip }, async () => {
  const ctx = await browser.newContext({ reducedMotion: 'reduce', serviceWorkers: 'block' });
  const { page } = await open('/?view=rotation&method=rope', { context: ctx });
  assert.equal(await page.getAttribute('#app', 'data-motion'), 'reduced');
  const ctx2 = await browser.newContext({ reducedMotion: 'no-preference', serviceWorkers: 'block' });
  const { page: p2 } = await open('/', { context: ctx2 });
  assert.equal(await p2.getAttribute('#app', 'data-motion'), 'full');
  await ctx.close();
  await ctx2.close();
});

test('long Gram matrices are computed in a worker', { skip }, async () => {
  const { page, ctx } = await open('/?view=similarity&dim=256&length=1024');
  await page.waitForFunction(
    () => /ms \((worker|main thread)\)/.test(document.querySelector('.status')?.textContent ?? ''),
    null,
    { timeout: 120000 },
  );
  assert.match(await page.locator('.status').textContent(), /1024×1024×256 in \d+ ms \(worker\)/);
  assert.equal(
    await page
      .locator('.host .mat canvas')
      .first()
      .evaluate((c) => c.dataset.cols),
    '1024',
  );
  await ctx.close();
});

test('phone-sized screen: no horizontal overflow', { skip }, async () => {
  const { page, ctx } = await open('/?view=shuffle', { viewport: { width: 390, height: 844 } });
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  assert.ok(overflow <= 1, `page is ${overflow}px wider than the phone`);
  await page.screenshot({ path: `${SHOTS}/phone-shuffle.png`, fullPage: true });
  await page.goto(`${srv.origin}/?view=heatmap&method=sinusoidal`);
  await rendered(page);
  await page.screenshot({ path: `${SHOTS}/phone-heatmap.png`, fullPage: true });
  await ctx.close();
});

test('slider drag at dim 512 x length 1024 updates the picture and the URL, with no error', { skip }, async () => {
  // Frame times are measured in `./build.sh bench page`, never here: this test checks only what a
  // drag does, waiting on renders and the URL, not on the clock.
  for (const method of ['sinusoidal', 'rope', 'learned']) {
    const { page, ctx } = await open(`/?view=heatmap&dim=512&length=1024&method=${method}`);
    const errorsBefore = consoleErrors.length;
    const shape = () =>
      page.evaluate(() => {
        const c = document.querySelector('.host .mat canvas');
        return {
          width: c.width,
          height: c.height,
          sum: c
            .getContext('2d')
            .getImageData(0, 0, c.width, c.height)
            .data.reduce((a, b) => a + b, 0),
        };
      });
    const before = await shape();
    // One input event per animation frame, as a real drag delivers them; each waits for its render.
    const rendersSeen = await page.evaluate(async () => {
      const input = document.querySelector('[name=length]');
      let renders = 0;
      const count = () => renders++;
      document.addEventListener('posenc-render', count);
      for (let k = 1; k <= 30; k++) {
        const seen = new Promise((res) => document.addEventListener('posenc-render', res, { once: true }));
        input.value = String(1024 - k * 16);
        input.dispatchEvent(new Event('input', { bubbles: true }));
        await seen;
      }
      document.removeEventListener('posenc-render', count);
      return renders;
    });
    assert.ok(rendersSeen >= 30, `${method}: ${rendersSeen} renders for 30 inputs`);
    await page.waitForURL((u) => u.searchParams.get('length') === String(1024 - 30 * 16));
    assert.equal(await page.inputValue('[name=length]'), String(1024 - 30 * 16));
    const after = await shape();
    assert.notDeepEqual(after, before, `${method}: the picture did not change`);
    assert.deepEqual(consoleErrors.slice(errorsBefore), [], `${method}: errors during the drag`);
    await ctx.close();
  }
});

test('single-file build opens from file:// with no requests', { skip }, async () => {
  const file = `${dist}posenc-single.html`;
  assert.ok(existsSync(file), 'web/dist/posenc-single.html missing');
  const html = readFileSync(file, 'utf8');
  // The markup outside inline scripts: the inlined code itself holds snippets with script tags
  // (web/src/embed-code.js), which are text, not elements.
  const markup = html.replace(/(<script\b[^>]*>)[\s\S]*?<\/script>/g, '$1</script>');
  assert.equal((markup.match(/<script\b/g) ?? []).length, (html.match(/<\/script>/g) ?? []).length, 'script elements');
  assert.doesNotMatch(markup, /<script[^>]+src=/, 'scripts must be inline');
  assert.doesNotMatch(markup, /<link[^>]+stylesheet/, 'styles must be inline');
  const { page, ctx } = await open(null);
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(`file://${file}?view=heatmap&dim=32&length=64`);
  await rendered(page);
  assert.ok((await variances(page)).every((v) => v > 1));
  assert.match(await page.locator('.backend').textContent(), /single-file/);
  assert.deepEqual(
    requests.filter((u) => !/^(data|blob):/.test(u) && !u.startsWith(`file://${file}`)),
    [],
  );
  await ctx.close();
});

test('service worker: a second visit works with the server gone', { skip }, async () => {
  const own = await serve(); // its own origin, so the worker starts from nothing
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  page.on('pageerror', (e) => consoleErrors.push(`sw: ${e.message}`));
  page.on('request', (r) => {
    if (!r.url().startsWith(own.origin) && !/^(data|blob):/.test(r.url())) external.push(r.url());
  });
  await page.goto(`${own.origin}/?view=waves`);
  await rendered(page);
  await page.waitForFunction(
    async () => (await navigator.serviceWorker.ready) && !!navigator.serviceWorker.controller,
    null,
    { timeout: 60000 },
  );
  own.server.close();
  own.server.closeAllConnections();
  await page.goto(`${own.origin}/?view=heatmap&dim=40`);
  await rendered(page);
  assert.equal(await page.inputValue('[name=dim]'), '40');
  assert.ok((await variances(page)).every((v) => v > 1));
  await ctx.close();
});

test('no external requests and no console errors on any page', { skip }, () => {
  assert.deepEqual(external, []);
  assert.deepEqual(consoleErrors, []);
});
