// Browser test of the Extrapolation lab view (web/dist, built by `./build.sh test`): it renders,
// a tiny training run in the worker finishes and draws an accuracy curve, the seed lives in the
// URL. Every wait is on page state, never on time.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { extname, join, normalize } from 'node:path';
import { after, before, test } from 'node:test';

const dist = new URL('../web/dist/', import.meta.url).pathname;
const CHROMIUM = '/usr/bin/chromium';
const skip = !existsSync(`${dist}index.html`) ? 'web/dist not built (run ./build.sh test)' : !existsSync(CHROMIUM) ? 'no /usr/bin/chromium' : false;
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm', '.json': 'application/json' };

function serve() {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    const rel = normalize(decodeURIComponent(url.pathname)).replace(/^(\.\.[/\\])+/, '');
    const file = join(dist, rel.endsWith('/') ? `${rel}index.html` : rel);
    if (!file.startsWith(dist) || !existsSync(file)) {
      res.writeHead(404);
      return res.end('not found');
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-cache' });
    res.end(readFileSync(file));
  });
  server.unref();
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, origin: `http://127.0.0.1:${server.address().port}` })));
}

let browser, srv;
before(async () => {
  if (skip) return;
  const { chromium } = await import('playwright-core');
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync', '--disable-quic'],
  });
  srv = await serve();
});
after(async () => {
  await browser?.close();
  srv?.server.close();
});

test('lab view: renders, trains in the worker, draws accuracy curves, keeps the seed in the URL', { skip, timeout: 300_000 }, async () => {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, serviceWorkers: 'block' });
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto(`${srv.origin}/?view=lab&labmethods=rope,learned&labsteps=20&labseed=7`);
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
