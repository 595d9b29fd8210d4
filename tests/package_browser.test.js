// The npm package in the browser, from the packed tarball installed offline into fresh projects:
// a Vite app (built with the repository's vite, linked) whose main thread and module worker both
// use top-level `await init()`, a plain module page with no bundler, and a plain module worker.
// Headless Debian Chromium runs each; every page is served under the strict Content-Security-
// Policy the README asks hosts for, and a page without 'wasm-unsafe-eval' shows why it is needed.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { extname, join, normalize } from 'node:path';
import { after, before, test } from 'node:test';
import { CHROMIUM, CHROMIUM_ARGS, EXPECTED, PROBE, app, cleanup } from './package_helper.js';

const skip = !existsSync(CHROMIUM) ? 'no /usr/bin/chromium' : false;
const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'";
const CSP_NO_WASM = "default-src 'self'; script-src 'self'";
const TYPES = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.css': 'text/css',
};

function check(result, what) {
  assert.ok(result && !result.error, `${what}: ${JSON.stringify(result)}`);
  for (const backend of ['simd', 'scalar']) {
    const [s, c, w] = result[backend];
    assert.ok(Math.abs(s - EXPECTED.sin1) < 2e-7, `${what} ${backend}: sin(1) = ${s}`);
    assert.ok(Math.abs(c - EXPECTED.cos1) < 2e-7, `${what} ${backend}: cos(1) = ${c}`);
    assert.ok(Math.abs(w - EXPECTED.invFreq1) < 1e-15, `${what} ${backend}: invFreq[1] = ${w}`);
  }
}

let browser, server, origin, dir;

function serve(root) {
  server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    const rel = normalize(decodeURIComponent(url.pathname)).replace(/^(\.\.[/\\])+/, '');
    const file = join(root, rel.endsWith('/') ? `${rel}index.html` : rel);
    if (!file.startsWith(root) || !existsSync(file)) {
      res.writeHead(404);
      return res.end('not found');
    }
    const csp = url.pathname.startsWith('/nowasm/') ? CSP_NO_WASM : CSP;
    res.writeHead(200, {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'content-security-policy': csp,
    });
    res.end(readFileSync(file));
  });
  server.unref();
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${server.address().port}`)),
  );
}

before(async () => {
  if (skip) return;
  dir = app('browser', { link: ['vite'] });
  // --- a Vite app: main thread and a module worker, both with top-level await init()
  mkdirSync(join(dir, 'src'), { recursive: true });
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html><meta charset="utf-8"><title>vite app</title><script type="module" src="/src/main.js"></script>',
  );
  writeFileSync(
    join(dir, 'src/main.js'),
    `import { init } from 'posenc';
${PROBE}
const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
out.worker = await new Promise((resolve) => { worker.onmessage = (e) => resolve(e.data); worker.onerror = (e) => resolve({ error: String(e.message) }); });
window.__result = out;`,
  );
  writeFileSync(
    join(dir, 'src/worker.js'),
    `import { init } from 'posenc';
${PROBE}
postMessage(out);`,
  );
  // A module worker with top-level await must be bundled as an ES module worker.
  writeFileSync(
    join(dir, 'vite.config.js'),
    "export default { base: './', worker: { format: 'es' }, logLevel: 'warn' };\n",
  );
  execFileSync(process.execPath, [join(dir, 'node_modules/vite/bin/vite.js'), 'build'], { cwd: dir, stdio: 'pipe' });
  // --- a plain page and a plain module worker, no bundler: the package's own files over HTTP
  for (const sub of ['plain', 'nowasm']) {
    mkdirSync(join(dir, sub), { recursive: true });
    writeFileSync(
      join(dir, sub, 'index.html'),
      '<!doctype html><meta charset="utf-8"><title>plain</title><script type="module" src="./main.js"></script>',
    );
    writeFileSync(
      join(dir, sub, 'main.js'),
      `import { init } from '/node_modules/posenc/js/index.js';
try {
${PROBE}
  const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
  out.worker = await new Promise((resolve) => { worker.onmessage = (e) => resolve(e.data); worker.onerror = (e) => resolve({ error: String(e.message) }); });
  window.__result = out;
} catch (e) { window.__result = { error: e.name + ': ' + e.message }; }`,
    );
    writeFileSync(
      join(dir, sub, 'worker.js'),
      `import { init } from '/node_modules/posenc/js/index.js';
${PROBE}
postMessage(out);`,
    );
  }
  origin = await serve(dir);
  const { chromium } = await import('playwright-core');
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
});

after(async () => {
  await browser?.close();
  server?.close();
  cleanup();
});

async function result(path) {
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  try {
    await page.goto(`${origin}${path}`);
    const handle = await page.waitForFunction(() => window.__result, null, { timeout: 120_000 });
    return { value: await handle.jsonValue(), errors };
  } finally {
    await page.close();
  }
}

test('Vite app built from the tarball: main thread and module worker, under a strict CSP', {
  skip,
  timeout: 300_000,
}, async () => {
  const built = readFileSync(join(dir, 'dist/index.html'), 'utf8');
  assert.match(built, /assets\/index-[\w-]+\.js/);
  // both core builds are chunks of their own (the package's dynamic import() of each), fetched on demand
  const assets = readdirSync(join(dir, 'dist/assets'));
  assert.ok(
    assets.some((f) => /^posenc\.simd\.wasm-[\w-]+\.js$/.test(f)) &&
      assets.some((f) => /^posenc\.wasm-[\w-]+\.js$/.test(f)),
    assets.join(' '),
  );
  const { value, errors } = await result('/dist/');
  assert.deepEqual(errors, []);
  check(value, 'vite main thread');
  check(value.worker, 'vite module worker');
});

test('plain module page and module worker, no bundler, under a strict CSP', { skip, timeout: 300_000 }, async () => {
  const { value, errors } = await result('/plain/');
  assert.deepEqual(errors, []);
  check(value, 'plain page');
  check(value.worker, 'plain module worker');
});

test("without 'wasm-unsafe-eval' in script-src the wasm cannot compile (why the CSP needs it)", {
  skip,
  timeout: 300_000,
}, async () => {
  const { value } = await result('/nowasm/');
  assert.ok(value.error, `expected a compile failure, got ${JSON.stringify(value)}`);
  assert.match(value.error, /CompileError|wasm|unsafe-eval|Content Security Policy/i);
});
