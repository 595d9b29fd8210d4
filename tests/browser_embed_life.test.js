// <posenc-view> in apps that mount and unmount it (React routes, VitePress navigation): a removed
// element gives back its heap buffers on the shared core, its window-level listeners and its
// animation; an element whose core cannot start (a host CSP without 'wasm-unsafe-eval') says so.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { frames, launch, serve, skip } from './browser_embed_harness.js';

const page = (
  head = '',
) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>app</title>${head}</head><body>
<div id="keep"><posenc-view id="k" view="heatmap" dim="32" length="48"></posenc-view></div><div id="route"></div>
<script type="module" src="/posenc-view.js"></script></body></html>`;
let browser, srv;
before(async () => {
  if (skip) return;
  browser = await launch();
  srv = await serve({
    pages: {
      '/app.html': page(),
      '/strict.html': `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>strict</title>
<meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self'; style-src 'self'"></head><body>
<posenc-view id="v" view="heatmap"></posenc-view><script type="module" src="/posenc-view.js"></script></body></html>`,
    },
  });
});
after(async () => {
  await browser?.close();
  srv?.close();
});

test('20 mount/unmount cycles: heap in use, listeners and DOM nodes back to the baseline; a removed Rotation stops', {
  skip,
  timeout: 300000,
}, async (t) => {
  const ctx = await browser.newContext({ serviceWorkers: 'block' });
  const p = await ctx.newPage();
  // The wasm instances, to read the core's heap in use (posenc_heap_in_use).
  await p.addInitScript(() => {
    globalThis.__inst = [];
    const f = WebAssembly.instantiate;
    WebAssembly.instantiate = async function (...a) {
      const r = await f.apply(this, a);
      const i = r.instance ?? r;
      if (i?.exports?.posenc_heap_in_use) globalThis.__inst.push(i);
      return r;
    };
  });
  await p.goto(`${srv.origin}/app.html`);
  await p.waitForSelector('#k[data-ready]', { timeout: 60000 });
  const cdp = await ctx.newCDPSession(p);
  // One route: mount an element, wait for its first real render, unmount it.
  const cycle = (n, views) =>
    p.evaluate(
      async ([n, views]) => {
        for (let i = 0; i < n; i++) {
          const el = document.createElement('posenc-view');
          el.setAttribute('view', views[i % views.length]);
          el.setAttribute('dim', '32');
          const done = new Promise((r) => el.addEventListener('posenc-render', r, { once: true }));
          document.getElementById('route').append(el);
          await done;
          el.remove();
          await null; // the element's teardown runs in a microtask after its removal
        }
      },
      [n, views],
    );
  const measure = async () => {
    await frames(p, 3);
    await cdp.send('HeapProfiler.collectGarbage');
    const d = await cdp.send('Memory.getDOMCounters');
    const heap = await p.evaluate(() => globalThis.__inst.map((i) => i.exports.posenc_heap_in_use()));
    return { heap, nodes: d.nodes, listeners: d.jsEventListeners };
  };
  const views = ['heatmap', 'waves', 'rotation', 'similarity'];
  await cycle(4, views); // every view's chunk and first allocations once
  const base = await measure();
  await cycle(20, views);
  const end = await measure();
  t.diagnostic(`baseline ${JSON.stringify(base)}, after 20 cycles ${JSON.stringify(end)}`);
  assert.deepEqual(end.heap, base.heap, 'heap in use on the shared core');
  assert.ok(end.listeners <= base.listeners, `listeners ${base.listeners} → ${end.listeners}`);
  assert.ok(end.nodes <= base.nodes + 50, `DOM nodes ${base.nodes} → ${end.nodes}`);

  // A playing Rotation, removed: not one render after its removal (counted over 30 frames, in
  // which a live animation renders every frame).
  const after = await p.evaluate(async () => {
    const el = document.createElement('posenc-view');
    el.setAttribute('view', 'rotation');
    el.setAttribute('method', 'rope');
    const first = new Promise((r) => el.addEventListener('posenc-render', r, { once: true }));
    document.getElementById('route').append(el);
    await first;
    let n = 0;
    el.addEventListener('posenc-render', () => n++);
    el.shadowRoot.querySelector('button.play').click();
    while (n < 3) await new Promise(requestAnimationFrame); // it animates
    el.remove();
    await null;
    n = 0;
    for (let i = 0; i < 30; i++) await new Promise(requestAnimationFrame);
    return n;
  });
  assert.equal(after, 0, `a removed Rotation rendered ${after} times`);
  // Moved within the page (removed and inserted in one task): still alive, still rendering.
  const moved = await p.evaluate(async () => {
    const k = document.getElementById('k');
    document.getElementById('route').append(k);
    await null;
    const r = new Promise((res) => k.addEventListener('posenc-render', res, { once: true }));
    k.setAttribute('dim', '16');
    await r;
    return k.shadowRoot.querySelectorAll('canvas').length;
  });
  assert.ok(moved > 0, 'a moved element keeps working');
  await ctx.close();
});

test("a host CSP without 'wasm-unsafe-eval': the element shows why, and no unhandled rejection", { skip }, async () => {
  const ctx = await browser.newContext({ serviceWorkers: 'block' });
  const p = await ctx.newPage();
  const errors = [];
  p.on('pageerror', (e) => errors.push(e.message));
  await p.goto(`${srv.origin}/strict.html`);
  await p.waitForSelector('#v[data-error]', { timeout: 60000 });
  const text = await p.evaluate(
    () => document.querySelector('#v').shadowRoot.querySelector('.error[role=alert]')?.textContent ?? '',
  );
  assert.match(text, /wasm-unsafe-eval/);
  await frames(p, 3);
  assert.deepEqual(errors, []);
  await ctx.close();
});
