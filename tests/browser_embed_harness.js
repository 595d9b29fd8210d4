// Shared by tests/browser_embed*.test.js: the built page (web/dist) behind a tiny static server
// whose behaviour a test picks (extra headers, precompressed files, host pages), and headless
// Debian Chromium through playwright-core, launched as tests/browser.test.js does.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { after, before } from 'node:test';
import http from 'node:http';
import { extname, join, normalize } from 'node:path';

export const dist = new URL('../web/dist/', import.meta.url).pathname;
export const CHROMIUM = '/usr/bin/chromium';
export const SHOTS = '/tmp/posenc-shots';
export const skip = !existsSync(`${dist}index.html`)
  ? 'web/dist not built (run ./build.sh test)'
  : !existsSync(CHROMIUM)
    ? 'no /usr/bin/chromium'
    : false;

export const TYPES = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

/**
 * Serve web/dist. `pages` maps a path to an HTML string (host pages); `headers` are added to every
 * response; `compress` sends the build's .br/.gz siblings when the browser accepts them; `hold`
 * (a predicate on the path) delays those responses until `release()`; `fail` (a predicate on the
 * path, asked at each request) answers 503 instead; every request is logged (`log`: paths; `sent`:
 * [path, body bytes] of every response). `dir` (default web/dist) is the folder served;
 * `setDir()` swaps it (a deploy).
 */
export function serve({ pages = {}, headers = {}, compress = false, hold = null, fail = null, dir = dist } = {}) {
  const log = [];
  const sent = [];
  let root = dir.endsWith('/') ? dir : `${dir}/`;
  const held = [];
  let released = false;
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    log.push(url.pathname);
    const send = () => {
      if (fail?.(url.pathname)) {
        res.writeHead(503, headers);
        return res.end('unavailable');
      }
      if (pages[url.pathname] !== undefined) {
        res.writeHead(200, { 'content-type': 'text/html', 'cache-control': 'no-cache', ...headers });
        return res.end(pages[url.pathname]);
      }
      const rel = normalize(decodeURIComponent(url.pathname)).replace(/^(\.\.[/\\])+/, '');
      const file = join(root, rel.endsWith('/') ? `${rel}index.html` : rel);
      if (!file.startsWith(root) || !existsSync(file)) {
        res.writeHead(404, headers);
        return res.end('not found');
      }
      const h = {
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        'cache-control': 'no-cache',
        ...headers,
      };
      const accept = String(req.headers['accept-encoding'] ?? '');
      let body = null;
      for (const [enc, ext] of compress
        ? [
            ['br', '.br'],
            ['gzip', '.gz'],
          ]
        : []) {
        if (accept.includes(enc) && existsSync(file + ext)) {
          body = readFileSync(file + ext);
          h['content-encoding'] = enc;
          h.vary = 'Accept-Encoding';
          break;
        }
      }
      body ??= readFileSync(file);
      // Validators, so a second embed on the page can revalidate instead of downloading again; from
      // the content, as real servers' are: a deploy that keeps a file's length is still a change.
      const etag = `"${createHash('sha256').update(body).digest('hex').slice(0, 16)}"`;
      h.etag = etag;
      if (req.headers['if-none-match'] === etag) {
        res.writeHead(304, h);
        return res.end();
      }
      res.writeHead(200, h);
      sent.push([url.pathname, body.length]);
      res.end(body);
    };
    if (hold?.(url.pathname) && !released) held.push(send);
    else send();
  });
  // unref: a test that fails before its close() must not keep the test process alive.
  server.unref();
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        server,
        log,
        sent,
        setDir(d) {
          root = d.endsWith('/') ? d : `${d}/`;
        },
        origin: `http://127.0.0.1:${server.address().port}`,
        release() {
          released = true;
          for (const f of held.splice(0)) f();
        },
        close() {
          server.close();
          server.closeAllConnections();
        },
      }),
    ),
  );
}

export async function launch() {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
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
}

/** Wait until the page's app has rendered at least once, then two more frames. */
export async function rendered(page) {
  await page.waitForFunction(() => (globalThis.__posencFrames?.length ?? 0) > 0, null, { timeout: 60000 });
  await frames(page);
}
export const frames = (page, n = 2) =>
  page.evaluate(
    (n) =>
      new Promise((r) => {
        let k = 0;
        const f = () => (++k >= n ? r() : requestAnimationFrame(f));
        requestAnimationFrame(f);
      }),
    n,
  );

/** Collect CSP violations and page errors from the first script on (every frame of the page). */
export async function watch(page) {
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.addInitScript(() => {
    globalThis.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      globalThis.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sample ?? ''}`),
    );
  });
  return errors;
}

/** WCAG contrast ratio of two CSS colours given as 'rgb(r, g, b)' / 'rgba(...)'. */
export function contrast(a, b) {
  const lum = (c) => {
    const [r, g, bl] = c
      .match(/[\d.]+/g)
      .slice(0, 3)
      .map((v) => Number(v) / 255)
      .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}

/**
 * Decode a PNG in a blank page (no CSP there) and return its size and its first `rows` pixel rows
 * (all by default) as luminance. Only the rows asked for cross back: a tall figure's every pixel
 * as a JS array took over a minute to pass through the protocol.
 */
export async function decodePng(browser, bytes, rows = Number.POSITIVE_INFINITY) {
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  const out = await page.evaluate(
    async ([b64, rows]) => {
      const bin = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const bmp = await createImageBitmap(new Blob([bin], { type: 'image/png' }));
      const h = Math.min(bmp.height, rows ?? bmp.height);
      const c = new OffscreenCanvas(bmp.width, bmp.height);
      const g = c.getContext('2d');
      g.drawImage(bmp, 0, 0);
      const d = g.getImageData(0, 0, bmp.width, h).data;
      const lum = new Array(bmp.width * h);
      for (let i = 0; i < lum.length; i++)
        lum[i] = Math.round(0.2126 * d[4 * i] + 0.7152 * d[4 * i + 1] + 0.0722 * d[4 * i + 2]);
      return { width: bmp.width, height: bmp.height, lum };
    },
    [Buffer.from(bytes).toString('base64'), Number.isFinite(rows) ? rows : null],
  );
  await ctx.close();
  return out;
}

/**
 * One browser and one server for a test file (started before its tests, closed after), and the
 * page helpers the view tests share: open a path and wait until it has rendered and any worker
 * job (Similarity's "computing…") has landed; setState and wait for the render it causes.
 * Page errors of every page opened are collected in `pageErrors`.
 */
export function pageSuite() {
  const suite = { browser: null, srv: null, pageErrors: [] };
  before(async () => {
    if (skip) return;
    suite.browser = await launch();
    suite.srv = await serve();
  });
  after(async () => {
    await suite.browser?.close();
    suite.srv?.close();
  });
  suite.settled = async (page) => {
    await page.waitForFunction(() => (globalThis.__posencFrames?.length ?? 0) > 0, null, { timeout: 60000 });
    await page.waitForFunction(
      () => !/computing/.test(document.querySelector('.host .status')?.textContent ?? ''),
      null,
      { timeout: 60000 },
    );
    await frames(page);
  };
  suite.open = async (path, viewport = { width: 1280, height: 900 }) => {
    const ctx = await suite.browser.newContext({ viewport, serviceWorkers: 'block' });
    const page = await ctx.newPage();
    page.on('pageerror', (e) => suite.pageErrors.push(`${path}: ${e.message}`));
    await page.goto(`${suite.srv.origin}${path}`);
    await suite.settled(page);
    return { page, ctx };
  };
  suite.setState = async (page, patch) => {
    // A render that never comes fails here, naming the state, instead of at the test's timeout.
    await page.evaluate(
      (patch) =>
        new Promise((res, rej) => {
          const t = setTimeout(
            () =>
              rej(
                new Error(
                  `no render within 60 s after setState(${JSON.stringify(patch)}) (view ${globalThis.posencApp.state.view})`,
                ),
              ),
            60000,
          );
          document.addEventListener('posenc-render', () => (clearTimeout(t), res()), { once: true });
          globalThis.posencApp.setState(patch);
        }),
      patch,
    );
    await suite.settled(page);
  };
  return suite;
}

/**
 * A copy of the build `from` in `to` as the next deploy makes it: every hashed asset under a new
 * hash of the same length (and every file naming it rewritten), the service worker's version
 * changed, index.html retitled `title`. With `assets: false` only index.html changes (a text edit)
 * and sw.js with it (its version hashes every file's bytes). The .br/.gz siblings are dropped.
 */
export function redeploy(from, to, { title, assets = true }) {
  cpSync(from, to, { recursive: true });
  const walk = (d) =>
    readdirSync(join(to, d), { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(join(d, e.name)) : [join(d, e.name)],
    );
  for (const f of walk('.')) if (/\.(br|gz)$/.test(f)) rmSync(join(to, f));
  const files = walk('.');
  const ABC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';
  const shift = (h) => [...h].map((c) => ABC[(ABC.indexOf(c) + 1) % ABC.length]).join('');
  const names = new Map();
  if (assets)
    for (const f of files) {
      const m = /^assets\/(.+)-([\w-]{8})(\.\w+)$/.exec(f.replace(/\\/g, '/'));
      if (m) names.set(`${m[1]}-${m[2]}${m[3]}`, `${m[1]}-${shift(m[2])}${m[3]}`);
    }
  for (const f of files.filter((f) => /\.(html|js|css)$/.test(f))) {
    let s = readFileSync(join(to, f), 'utf8');
    for (const [a, b] of names) s = s.split(a).join(b);
    if (f === 'index.html') s = s.replace(/<title>[^<]*<\/title>/, `<title>${title}</title>`);
    if (f === 'sw.js')
      s = s.replace(/const VERSION = '([0-9a-f]{12})'/, (_, v) => `const VERSION = '${[...v].reverse().join('')}'`);
    writeFileSync(join(to, f), s);
  }
  for (const [a, b] of names) renameSync(join(to, 'assets', a), join(to, 'assets', b));
}
