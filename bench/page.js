// The page in headless Chromium: for every view (and method where the view has one) at dim 512 ×
// length 1024 and 4096, the page's own work per frame (render times pushed to __posencFrames by the
// app) and input-to-paint latency (an input event on a control the view reads, to the first paint
// after the render it caused: the render runs in an animation frame, and a MessageChannel message
// posted from it is delivered after that frame has been painted). Median and p95 of each.
// Needs web/dist (built by `./build.sh bench page`) and /usr/bin/chromium.
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { extname, join, normalize } from 'node:path';

const dist = new URL('../web/dist/', import.meta.url).pathname;
const CHROMIUM = '/usr/bin/chromium';
const TYPES = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
};
const INPUTS = Number(process.env.PAGE_BENCH_INPUTS ?? 20);
const METHODS = ['sinusoidal', 'rope', 'learned', 'alibi', 't5', 'shaw'];
// PAGE_BENCH_VIEWS=heatmap,waves limits the run to those views
const ONLY = process.env.PAGE_BENCH_VIEWS ? new Set(process.env.PAGE_BENCH_VIEWS.split(',')) : null;

function serve() {
  const server = http.createServer((req, res) => {
    const rel = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
    const file = join(dist, rel.endsWith('/') ? `${rel}index.html` : rel);
    if (!file.startsWith(dist) || !existsSync(file)) {
      res.writeHead(404);
      return res.end();
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  return new Promise((r) =>
    server.listen(0, '127.0.0.1', () => r({ server, origin: `http://127.0.0.1:${server.address().port}` })),
  );
}

const q = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)] : NaN;
};

/** The control each view is driven with: one it reads, toggled between two values. */
function driver(view, controls, length) {
  if (controls.includes('length')) return { name: 'length', a: length, b: length - 1 };
  if (view === 'bias') return { name: 'buckets', a: 32, b: 34 };
  if (controls.includes('base')) return { name: 'base', a: 10000, b: 10001 };
  return { name: 'dim', a: 512, b: 510 };
}

/** The rows to measure: every view (and method, where the view has one) at each length. */
function rowsOf(VIEW_INFO, origin) {
  const rows = [];
  for (const length of [1024, 4096]) {
    for (const [view, info] of Object.entries(VIEW_INFO)) {
      if (ONLY && !ONLY.has(view)) continue;
      const methods = info.controls.includes('method') ? METHODS : [null];
      for (const method of methods) {
        const d = driver(view, info.controls, length);
        const url = `${origin}/?view=${view}&dim=512&length=${length}${method ? `&method=${method}` : ''}${view === 'compare' ? '&vs=rope' : ''}`;
        rows.push({ view, method, length, d, url });
      }
    }
  }
  return rows;
}

/** One row: open its page, then n + 1 inputs on its control, each timed from the input to the
 * first paint after the render it caused; the first input is a warm-up and is dropped. */
async function measure(pg, { url, d }) {
  await pg.goto(url);
  await pg.waitForFunction(() => (globalThis.__posencFrames?.length ?? 0) > 0, null, { timeout: 120000 });
  return pg.evaluate(
    async ({ d, n }) => {
      const frames = globalThis.__posencFrames;
      const start = frames.length;
      const el = document.querySelector(`form [name=${d.name}]`);
      const lat = [];
      const afterPaint = () =>
        new Promise((res) => {
          document.addEventListener(
            'posenc-render',
            () => {
              const ch = new MessageChannel();
              ch.port1.onmessage = () => res(performance.now());
              ch.port2.postMessage(0);
            },
            { once: true },
          );
        });
      // Input 0 is the warm-up (JIT, first allocation of buffers at this size), dropped. It sets
      // d.b: the page opens at d.a (the URL's value or the default), so setting d.a first would
      // render nothing new, and the first measured input would be the first real render.
      for (let k = 0; k <= n; k++) {
        const v = k % 2 ? d.a : d.b;
        const painted = afterPaint();
        const t0 = performance.now();
        if (el) {
          el.value = String(v);
          el.dispatchEvent(new Event('input', { bubbles: true }));
        } else globalThis.posencApp.setState({ [d.name]: v });
        const t1 = await painted;
        if (k > 0) lat.push(t1 - t0);
      }
      return { frames: frames.slice(start + 1), lat, viaForm: !!el };
    },
    { d, n: INPUTS },
  );
}

export default async function page() {
  if (!existsSync(`${dist}index.html`) || !existsSync(CHROMIUM)) {
    process.stderr.write('[bench] page: needs web/dist and /usr/bin/chromium (run ./build.sh bench page)\n');
    return [];
  }
  const { VIEW_INFO } = await import('../web/src/views/registry.js');
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run', '--disable-sync'],
  });
  const { server, origin } = await serve();
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, serviceWorkers: 'block' });
  const pg = await ctx.newPage();
  const rows = rowsOf(VIEW_INFO, origin);
  // The browser's first page runs cold (its scripts parsed and compiled for the first time, no
  // code in V8's cache, fonts and the compositor set up): every later row opens a page whose
  // shared code an earlier row has already compiled. Measured as it came, the first row's figures
  // told its place in the order rather than its view (Shuffle at 1024 and at 4096 do the same
  // work per input; the first took 1.6x the frame time). One unmeasured pass of the first row
  // puts it on the footing of the others.
  if (rows.length) await measure(pg, rows[0]);
  const out = [];
  for (const row of rows) {
    const r = await measure(pg, row);
    const { view, method, length, d } = row;
    out.push({
      view,
      method: method ?? '',
      length,
      control: `${d.name}${r.viaForm ? '' : ' (setState)'}`,
      frames: r.frames,
      lat: r.lat,
    });
    process.stderr.write(`[bench] page ${view} ${method ?? ''} ${length}: p95 ${q(r.lat, 0.95).toFixed(1)} ms\n`);
  }
  await browser.close();
  server.close();
  const lines = [
    `page (headless Chromium ${browser.version()}, dim 512; ${INPUTS} inputs per row after one dropped warm-up input (the first row also run once unmeasured); targets: p95 input-to-paint ≤ 50 ms at length 1024, ≤ 100 ms at 4096)`,
    '',
    '| view | method | length | driven by | frame median ms | frame p95 ms | input→paint median ms | input→paint p95 ms | target |',
    '|---|---|---:|---|---:|---:|---:|---:|---|',
  ];
  for (const r of out) {
    const p95 = q(r.lat, 0.95);
    const target = r.length <= 1024 ? 50 : 100;
    lines.push(
      `| ${r.view} | ${r.method} | ${r.length} | ${r.control} | ${q(r.frames, 0.5).toFixed(1)} | ${q(r.frames, 0.95).toFixed(1)} | ${q(r.lat, 0.5).toFixed(1)} | ${p95.toFixed(1)} | ${p95 <= target ? 'met' : 'MISSED'} |`,
    );
  }
  return [{ markdown: lines.join('\n') }];
}
