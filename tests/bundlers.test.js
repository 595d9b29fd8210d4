// The npm package in five bundlers, each with no configuration: Vite, webpack 5, esbuild, Rollup
// (with @rollup/plugin-node-resolve, which a Rollup app needs to import any package) and Parcel
// build the same tiny app from the packed tarball, installed offline into a fresh project; the
// posenc/worker app is built by those five and by Next.js (App Router, a static export). Each
// build must print no warning, and its output runs in headless Chromium: the main thread loads
// both wasm builds (SIMD and scalar, checked by value and by pe.backend), `init()` picks SIMD, and a
// module worker answers the message the page posts right after creating it (the README's worker
// pattern: `const ready = init()` at the top, awaited in onmessage, so no message is lost).
//
// Also the per-app budget: an app that calls only `sinusoidal` through 'posenc/lite' ships at
// most 15 kB gzipped of posenc JS (Vite and esbuild; the wasm chunks counted apart) and fetches
// the lean core only; and the README's figures for it and for the full API's app are measured.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import http from 'node:http';
import { extname, join, normalize } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { after, before, test } from 'node:test';
import { CHROMIUM, CHROMIUM_ARGS, EXPECTED, PROBE, app, cleanup, pack, root } from './package_helper.js';

const skip = !existsSync(CHROMIUM) ? 'no /usr/bin/chromium' : false;
const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'";
const TYPES = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.json': 'application/json',
  '.css': 'text/css',
};
const LINK = ['vite', 'webpack', 'esbuild', 'rollup', '@rollup', 'parcel'];
const kB = 1000;
// JS: posenc's JS in the app's chunks. Fetched: that JS plus the one wasm chunk the app loads,
// posenc/lite's lean core (sinusoidal and learned only), 19.1 kB at this version: the 15 kB the
// issue asked for is not met (docs/benchmark.md "Budgets" says where the bytes are).
const APP_BUDGET = { sinusoidalOnlyGz: 15 * kB, sinusoidalOnlyFetchedGz: 20 * kB };

// The app: the page asks its worker before anything has loaded; the worker must still answer.
const MAIN = `import { init } from 'posenc';
(async () => {
  try {
    const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
    const answer = new Promise((resolve) => {
      worker.onmessage = (e) => resolve(e.data);
      worker.onerror = (e) => resolve({ error: String(e.message) });
    });
    worker.postMessage('probe');
    ${PROBE}
    out.auto = (await init()).backend;
    out.worker = await answer;
    window.__result = out;
  } catch (e) {
    window.__result = { error: e.name + ': ' + e.message };
  }
})();
`;
const WORKER = `import { init } from 'posenc';
const ready = (async () => {
  ${PROBE}
  out.auto = (await init()).backend;
  return out;
})();
onmessage = async () => postMessage(await ready.catch((e) => ({ error: e.name + ': ' + e.message })));
`;
const HTML = (src) => `<!doctype html><meta charset="utf-8"><title>app</title>
<script type="module" src="${src}"></script>\n`;
const LITE = `import { init, sinusoidalFamily } from 'posenc/lite';
init({ families: [sinusoidalFamily] }).then((pe) => { window.__result = pe.sinusoidal({ length: 4, dim: 8 })[8]; });
`;

let dir;
const builds = {};
const bin = (pkg, path) => join(dir, 'node_modules', pkg, path);

/** Run a bundler's CLI in `cwd`; returns its output (stdout + stderr), failing on a non-zero exit. */
function run(what, cwd, args, exe = process.execPath) {
  const r = spawnSync(exe, args, {
    cwd,
    encoding: 'utf8',
    timeout: 240_000,
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
  });
  const output = `${r.stdout}${r.stderr}`;
  assert.equal(r.status, 0, `${what} failed:\n${output}`);
  return output;
}

/** A project directory under the app with the app's sources (index.js, worker.js, index.html). */
function project(name, html = HTML('./src/index.js')) {
  const cwd = join(dir, name);
  mkdirSync(join(cwd, 'src'), { recursive: true });
  writeFileSync(join(cwd, 'src/index.js'), MAIN);
  writeFileSync(join(cwd, 'src/worker.js'), WORKER);
  writeFileSync(join(cwd, 'index.html'), html);
  writeFileSync(join(cwd, 'package.json'), JSON.stringify({ name: `app-${name}`, private: true, type: 'module' }));
  return cwd;
}

// Each bundler, as its documentation's first page runs it. Returns { out: the directory to serve,
// log: what it printed }. esbuild and Rollup bundle no worker of their own accord, so the worker
// is a second entry point (its output sits next to the page's, where new URL('./worker.js') looks).
const BUNDLERS = {
  vite(cwd) {
    const log = run('vite build', cwd, [bin('vite', 'bin/vite.js'), 'build']);
    return { out: join(cwd, 'dist'), log };
  },
  webpack(cwd) {
    // webpack's defaults (entry ./src/index.js, output dist/main.js) in production mode, as
    // `npx webpack` runs them (its CLI is a package of its own, webpack-cli; this is its core call)
    const script = `require('webpack')({ mode: 'production' }, (err, stats) => {
      if (err) throw err;
      const info = stats.toJson({ all: false, errors: true, warnings: true });
      for (const w of info.warnings) console.log('WARNING', w.message);
      for (const e of info.errors) console.log('ERROR', e.message);
      process.exitCode = stats.hasErrors() ? 1 : 0;
    });`;
    const log = run('webpack', cwd, ['-e', script]);
    writeFileSync(join(cwd, 'dist/index.html'), HTML('./main.js'));
    return { out: join(cwd, 'dist'), log };
  },
  esbuild(cwd) {
    const log = run(
      'esbuild',
      cwd,
      ['src/index.js', 'src/worker.js', '--bundle', '--format=esm', '--outdir=dist', '--log-level=warning'],
      bin('esbuild', 'bin/esbuild'),
    );
    writeFileSync(join(cwd, 'dist/index.html'), HTML('./index.js'));
    return { out: join(cwd, 'dist'), log };
  },
  rollup(cwd) {
    const log = run('rollup', cwd, [
      bin('rollup', 'dist/bin/rollup'),
      'src/index.js',
      'src/worker.js',
      '--dir',
      'dist',
      '--format',
      'es',
      '--plugin',
      '@rollup/plugin-node-resolve',
    ]);
    writeFileSync(join(cwd, 'dist/index.html'), HTML('./index.js'));
    return { out: join(cwd, 'dist'), log };
  },
  parcel(cwd) {
    const log = run('parcel build', cwd, [
      bin('parcel', 'lib/bin.js'),
      'build',
      'index.html',
      '--no-cache',
      '--no-autoinstall',
    ]);
    return { out: join(cwd, 'dist'), log };
  },
};

// What a bundler prints that is a warning (its CLI's own marker). Rollup prints "(!)" before one,
// esbuild "▲ [WARNING]", Vite and webpack "warning", Parcel "⚠".
const WARNING = /\(!\)|\[WARNING\]|\bwarn(ing)?\b|⚠/i;

function serve(root) {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    if (url.pathname === '/favicon.ico') {
      res.writeHead(204); // Chromium asks for one; none of the apps has one
      return res.end();
    }
    const rel = normalize(decodeURIComponent(url.pathname)).replace(/^(\.\.[/\\])+/, '');
    const file = join(root, rel.endsWith('/') ? `${rel}index.html` : rel);
    if (!file.startsWith(root) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404);
      return res.end('not found');
    }
    const body = readFileSync(file);
    // The strict policy, plus the hash of each inline script a bundler wrote into the page
    // (Parcel's import map), as a host would add it
    const inline = extname(file) === '.html' ? [...body.toString().matchAll(/<script[^>]*>([^<]+)<\/script>/g)] : [];
    const hashes = inline.map(([, code]) => ` 'sha256-${createHash('sha256').update(code).digest('base64')}'`).join('');
    const csp = CSP.replace("'wasm-unsafe-eval'", `'wasm-unsafe-eval'${hashes}`);
    res.writeHead(200, {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'content-security-policy': csp,
    });
    res.end(body);
  });
  server.unref();
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, origin: `http://127.0.0.1:${server.address().port}` })),
  );
}

let browser;
const servers = [];

before(async () => {
  if (skip) return;
  dir = app('bundlers', { link: LINK });
  const { chromium } = await import('playwright-core');
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
});

after(async () => {
  await browser?.close();
  for (const s of servers) s.close();
  cleanup();
  for (const d of nextDirs) rmSync(d, { recursive: true, force: true });
});

async function load(out) {
  const { server, origin } = await serve(out);
  servers.push(server);
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  try {
    await page.goto(`${origin}/`);
    const handle = await page.waitForFunction(() => window.__result, null, { timeout: 120_000 });
    return { value: await handle.jsonValue(), errors };
  } finally {
    await page.close();
  }
}

function check(result, what) {
  assert.ok(result && !result.error, `${what}: ${JSON.stringify(result)}`);
  for (const backend of ['simd', 'scalar']) {
    const [s, c, w] = result[backend] ?? [];
    assert.ok(Math.abs(s - EXPECTED.sin1) < 2e-7, `${what} ${backend}: sin(1) = ${s}`);
    assert.ok(Math.abs(c - EXPECTED.cos1) < 2e-7, `${what} ${backend}: cos(1) = ${c}`);
    assert.ok(Math.abs(w - EXPECTED.invFreq1) < 1e-15, `${what} ${backend}: invFreq[1] = ${w}`);
  }
  assert.equal(result.auto, 'simd', `${what}: init() picks the SIMD build in Chromium`);
}

for (const [name, build] of Object.entries(BUNDLERS)) {
  test(`${name} builds the app from the tarball with no configuration and no warning; it runs in Chromium`, {
    skip,
    timeout: 300_000,
  }, async () => {
    const { out, log } = await build(project(name));
    builds[name] = out;
    const warnings = log.split('\n').filter((line) => WARNING.test(line));
    assert.deepEqual(warnings, [], `${name} printed warnings:\n${log}`);
    const { value, errors } = await load(out);
    assert.deepEqual(errors, [], `${name}: errors in the page`);
    check(value, `${name} main thread`);
    check(value.worker, `${name} module worker`);
  });
}

// posenc/worker: the page connects to a worker that serves the API (the worker's file is two lines)
const WORKER_RUN = `async () => {
  try {
    const pe = await connect(new Worker(new URL('./worker.js', import.meta.url), { type: 'module' }));
    const table = await pe.sinusoidal({ length: 4, dim: 8 });
    const cache = await pe.kvCache({ heads: 2, kvHeads: 1, dim: 4, capacity: 4 });
    await cache.append(new Float32Array(4).fill(1), new Float32Array(4).fill(2));
    const { output } = await cache.attend(new Float32Array(8).fill(1));
    const err = await pe.sinusoidal({ seqLen: 4, dim: 8 }).catch((e) => e.argument);
    window.__result = { sin1: table[8], output: Array.from(output), length: cache.length, backend: pe.backend, err };
  } catch (e) {
    window.__result = { error: e.name + ': ' + e.message };
  }
}`;
const WORKER_MAIN = `import { connect } from 'posenc/worker';\n(${WORKER_RUN})();\n`;
const WORKER_THREAD = `import { serve } from 'posenc/worker';
serve();
`;

const nextDirs = [];
/** Next.js builds the posenc/worker app: the page is a client component that runs the app's code
 * once mounted, next to the same two-line worker. Returns { out, log } as BUNDLERS do. */
function nextWorkerApp() {
  // Turbopack compiles only files under the nearest lockfile's folder: a real app's own, with its
  // node_modules. Here the tools are links into the repository's node_modules, so the project
  // sits under the repository (whose lockfile is the nearest), as in browser_embed_bundlers.
  mkdirSync(join(root, 'build'), { recursive: true });
  const cwd = mkdtempSync(join(root, 'build', 'next-worker-'));
  nextDirs.push(cwd);
  writeFileSync(join(cwd, 'package.json'), JSON.stringify({ name: 'app-next', private: true, type: 'module' }));
  const npm = spawnSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--no-package-lock', pack().tgz], {
    cwd,
    encoding: 'utf8',
  });
  assert.equal(npm.status, 0, npm.stderr);
  for (const dep of ['next', 'react', 'react-dom']) {
    symlinkSync(join(root, 'node_modules', dep), join(cwd, 'node_modules', dep));
  }
  writeFileSync(join(cwd, 'next.config.mjs'), "export default { output: 'export' };\n");
  mkdirSync(join(cwd, 'app'));
  writeFileSync(
    join(cwd, 'app/layout.js'),
    'export default function Layout({ children }) {\n  return <html lang="en"><body>{children}</body></html>;\n}\n',
  );
  writeFileSync(
    join(cwd, 'app/page.js'),
    `'use client';
import { useEffect } from 'react';
import { connect } from 'posenc/worker';
export default function Page() {
  useEffect(() => {
    (${WORKER_RUN})();
  }, []);
  return <main>posenc/worker</main>;
}
`,
  );
  writeFileSync(join(cwd, 'app/worker.js'), WORKER_THREAD);
  const r = spawnSync(process.execPath, [join(cwd, 'node_modules/next/dist/bin/next'), 'build'], {
    cwd,
    encoding: 'utf8',
    timeout: 240_000,
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', NEXT_TELEMETRY_DISABLED: '1' },
  });
  const log = `${r.stdout}${r.stderr}`;
  assert.equal(r.status, 0, `next build failed:\n${log}`);
  // a first build has no cache to reuse, which Next.js prints as a warning: not one about posenc
  return { out: join(cwd, 'out'), log: log.replace(/^.*No build cache found.*$/m, '') };
}

for (const [name, build] of Object.entries({ ...BUNDLERS, next: nextWorkerApp })) {
  test(`posenc/worker in ${name}: the page's calls answered by the worker, from the tarball`, {
    skip,
    timeout: 300_000,
  }, async () => {
    const cwd = name === 'next' ? null : project(`worker-${name}`);
    if (cwd) {
      writeFileSync(join(cwd, 'src/index.js'), WORKER_MAIN);
      writeFileSync(join(cwd, 'src/worker.js'), WORKER_THREAD);
    }
    const { out, log } = await build(cwd);
    const warnings = log.split('\n').filter((line) => WARNING.test(line));
    assert.deepEqual(warnings, [], `${name} printed warnings:\n${log}`);
    const { value, errors } = await load(out);
    assert.deepEqual(errors, [], `${name}: errors in the page`);
    assert.ok(value && !value.error, `${name}: ${JSON.stringify(value)}`);
    assert.ok(Math.abs(value.sin1 - EXPECTED.sin1) < 2e-7, `${name}: sin(1) = ${value.sin1}`);
    // one key, so each query attends to it alone: the output is its value
    assert.deepEqual(value.output, new Array(8).fill(2), `${name}: attend`);
    assert.deepEqual([value.length, value.backend, value.err], [1, 'simd', 'seqLen'], name);
  });
}

/** The JS an app's build ships, in bytes gzipped, split into the wasm chunks and the rest. */
function shipped(out) {
  const sizes = { js: 0, wasm: 0, files: [], kinds: {} };
  const walk = (d) => {
    for (const f of readdirSync(d)) {
      const p = join(d, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (f.endsWith('.js')) {
        const text = readFileSync(p, 'utf8');
        const gz = gzipSync(text, { level: 9 }).length;
        // a build module (dist/*.wasm.js) is the base64 of a gzip stream, which starts 'H4sI'
        const at = text.slice(0, 400).search(/["'`]H4sI/);
        const b64 = at < 0 ? null : /^["'`]([A-Za-z0-9+/=]+)/.exec(text.slice(at));
        if (b64) {
          sizes.wasm += gz;
          // which build, by what the module exports (bundlers rename the chunks)
          const ex = WebAssembly.Module.exports(new WebAssembly.Module(gunzipSync(Buffer.from(b64[1], 'base64'))));
          const names = new Set(ex.map((e) => e.name));
          const kind = names.has('posenc_train_step') ? 'lab' : names.has('posenc_rope_apply') ? 'core' : 'lean';
          if (kind === 'lean') sizes.lean = (sizes.lean ?? 0) + gz;
          sizes.files.push(`${f} ${gz} (${kind})`);
          sizes.kinds[f] = kind;
        } else {
          sizes.js += gz;
          sizes.files.push(`${f} ${gz}`);
        }
      }
    }
  };
  walk(out);
  return sizes;
}

// The five bundlers' output for an app that imports only sinusoidalFamily from posenc/lite (each
// as above: Vite, webpack and Parcel minify by default, esbuild here with --minify --splitting so
// the wasm chunks stay apart, Rollup does not minify).
const LITE_BUILDS = {
  vite: (cwd) => run('vite build', cwd, [bin('vite', 'bin/vite.js'), 'build']),
  esbuild: (cwd) =>
    run(
      'esbuild',
      cwd,
      ['src/index.js', '--bundle', '--format=esm', '--splitting', '--minify', '--outdir=dist'],
      bin('esbuild', 'bin/esbuild'),
    ),
  webpack: (cwd) =>
    run('webpack', cwd, [
      '-e',
      "require('webpack')({ mode: 'production' }, (e, s) => { if (e || s.hasErrors()) { " +
        'console.error(e || s.toString()); process.exitCode = 1; } })',
    ]),
  rollup: (cwd) =>
    run('rollup', cwd, [
      bin('rollup', 'dist/bin/rollup'),
      'src/index.js',
      '--dir',
      'dist',
      '--format',
      'es',
      '--plugin',
      '@rollup/plugin-node-resolve',
    ]),
  parcel: (cwd) =>
    run('parcel build', cwd, [
      bin('parcel', 'lib/bin.js'),
      'build',
      'index.html',
      '--no-cache',
      '--no-autoinstall',
      '--no-source-maps',
    ]),
};

const BUDGET_NAME = `at most ${APP_BUDGET.sinusoidalOnlyGz / kB} kB of JS gzipped`;
test(`budget: an app that calls only sinusoidal (posenc/lite) ships ${BUDGET_NAME}`, {
  skip,
  timeout: 600_000,
}, async () => {
  const results = {};
  for (const [name, build] of Object.entries(LITE_BUILDS)) {
    const cwd = project(`lite-${name}`);
    writeFileSync(join(cwd, 'src/index.js'), LITE);
    build(cwd);
    results[name] = shipped(join(cwd, 'dist'));
  }
  console.log(`# sinusoidal-only app, gzipped bytes: ${JSON.stringify(results)}`);
  // the same app with posenc's init(), which holds every family (esbuild as above)
  const fullCwd = project('full-esbuild');
  writeFileSync(
    join(fullCwd, 'src/index.js'),
    "import { init } from 'posenc';\ninit().then((pe) => { window.__result = pe.sinusoidal({ length: 4, dim: 8 })[8]; });\n",
  );
  LITE_BUILDS.esbuild(fullCwd);
  const full = shipped(join(fullCwd, 'dist'));
  console.log(`# the same app with posenc's init(), esbuild: ${full.js} bytes of JS gzipped`);
  // the README's figures are these, within 5%
  const readme = readFileSync(join(dir, 'node_modules/posenc/README.md'), 'utf8').replace(/\s+/g, ' ');
  const m =
    /calls only `sinusoidal` ships about (\d+) kB of posenc JS gzipped and fetches the (\d+) kB lean core, instead of about (\d+) kB of JS/.exec(
      readme,
    );
  assert.ok(m, "README.md's posenc/lite sentence");
  for (const [said, bytes, what] of [
    [m[1], results.esbuild.js, 'lite JS'],
    [m[2], results.esbuild.lean, 'lean core'],
    [m[3], full.js, 'full API JS'],
  ]) {
    assert.ok(
      Math.abs(said * 1000 - bytes) <= 0.05 * bytes,
      `README.md says ${said} kB for the ${what}, esbuild: ${bytes} bytes`,
    );
  }
  // in Chromium the Vite app fetches the lean core and no other build
  const { server, origin } = await serve(join(dir, 'lite-vite', 'dist'));
  servers.push(server);
  const page = await browser.newPage();
  const fetched = [];
  page.on('request', (r) => fetched.push(new URL(r.url()).pathname.split('/').pop()));
  await page.goto(`${origin}/`);
  const value = await (await page.waitForFunction(() => window.__result, null, { timeout: 120_000 })).jsonValue();
  await page.close();
  assert.ok(Math.abs(value - Math.sin(1)) < 2e-7, `lite app in Chromium: ${value}`);
  const builds = fetched.map((f) => results.vite.kinds[f]).filter(Boolean);
  assert.deepEqual(builds, ['lean'], `the lite app fetched ${fetched.join(', ')}`);
  for (const [name, { js, wasm, lean, files }] of Object.entries(results)) {
    assert.ok(wasm > 30_000, `${name}: the wasm chunks were found (${files.join(', ')})`);
    // exactly one lean core, which is what init({ families: [sinusoidalFamily] }) loads
    assert.ok(lean > 5_000 && lean < 20_000, `${name}: posenc/lite's lean core is a chunk (${files.join(', ')})`);
    // the budget is set on the two that minify with no option (Vite) or one (esbuild)
    if (name === 'vite' || name === 'esbuild') {
      assert.ok(
        js <= APP_BUDGET.sinusoidalOnlyGz,
        `${name}: ${js} bytes of JS gzipped, budget ${APP_BUDGET.sinusoidalOnlyGz} (${files.join(', ')})`,
      );
      assert.ok(
        js + lean <= APP_BUDGET.sinusoidalOnlyFetchedGz,
        `${name}: JS and the lean core fetched, ${js} + ${lean} bytes gzipped, budget ${APP_BUDGET.sinusoidalOnlyFetchedGz}`,
      );
    }
  }
});
