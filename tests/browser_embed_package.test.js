// The posenc-view package as a blogger gets it: `npm pack build/posenc-view` (./build.sh element
// builds and packs it), the tarball unpacked under a versioned path as an npm CDN serves it
// (/npm/posenc-view@VERSION/, immutable caching), one <script type="module"> in a plain page; a
// Vite app that installs it and imports it once (built with the repository's Vite); and its
// TypeScript declarations as a TSX project sees them.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { launch, serve, skip as noBrowser } from './browser_embed_harness.js';

const root = new URL('..', import.meta.url).pathname;
const built = join(root, 'build/posenc-view');
const noPackage = existsSync(join(built, 'package.json')) ? false : 'build/posenc-view not built (./build.sh build)';
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

let work, unpacked, files, size;
before(() => {
  if (noPackage) return;
  work = mkdtempSync(join(tmpdir(), 'posenc-view-pack-'));
  const packed = spawnSync('npm', ['pack', built, '--pack-destination', work, '--json'], { encoding: 'utf8' });
  assert.equal(packed.status, 0, packed.stderr);
  const [info] = JSON.parse(packed.stdout);
  files = info.files.map((f) => f.path);
  size = info.size;
  // An npm CDN serves the tarball's package/ folder under /npm/<name>@<version>/.
  const site = join(work, 'site');
  unpacked = join(site, 'npm', `posenc-view@${version}`);
  mkdirSync(unpacked, { recursive: true });
  const tar = spawnSync('tar', ['-xzf', join(work, info.filename), '-C', unpacked, '--strip-components=1']);
  assert.equal(tar.status, 0, String(tar.stderr));
});
after(() => work && rmSync(work, { recursive: true, force: true }));

test('the tarball: the element, its chunks, each wasm core once, components, types; no page, no build leftovers', {
  skip: noPackage,
}, () => {
  const pkg = JSON.parse(readFileSync(join(unpacked, 'package.json'), 'utf8'));
  assert.equal(pkg.name, 'posenc-view');
  assert.equal(pkg.version, version, 'the package carries the repository version');
  assert.equal(pkg.private, undefined, 'the built package is not the source folder (private, pack guard)');
  assert.equal(pkg.scripts, undefined);
  // The README's figure is this tarball's (within 5%: it need not change with every edit).
  const said = /The tarball is ([\d,]+) B/.exec(readFileSync(join(unpacked, 'README.md'), 'utf8'));
  assert.ok(said, "README: 'The tarball is N B'");
  const stated = Number(said[1].replaceAll(',', ''));
  assert.ok(Math.abs(stated - size) <= 0.05 * size, `README says ${stated} B, npm pack gives ${size} B`);
  const top = ['posenc-view.js', 'embed.js', 'react.js', 'PosencView.astro', 'PosencFrame.astro'];
  for (const f of [...top, 'index.d.ts', 'embed.d.ts', 'react.d.ts', 'README.md', 'LICENSE'])
    assert.ok(files.includes(f), f);
  assert.ok(
    files.some((f) => /^chunks\/rotation-[\w-]{8}\.js$/.test(f)),
    'a view chunk',
  );
  // Every other file is named by its content: a version's files never change under a reader.
  for (const f of files.filter((f) => f.startsWith('chunks/')))
    assert.match(f, /-[\w-]{8}\.\w+$/, `${f} has no content hash`);
  assert.ok(!files.some((f) => /index\.html|sw\.js|posenc-single|\.vite\/|\.css$/.test(f)), files.join(' '));
  // The cores are JS modules (the wasm gzipped, as base64), each in the package once: no .wasm
  // file (a bundler that does not copy `new URL()` assets would leave it a 404).
  assert.deepEqual(
    files.filter((f) => f.endsWith('.wasm')),
    [],
  );
  const cores = files
    .filter((f) => f.startsWith('chunks/'))
    .map((f) => [f, readFileSync(join(unpacked, f), 'utf8')])
    .filter(
      ([, text]) => /^export default ["'`]H4sI/m.test(text.slice(0, 400)) || /=\s*["'`]H4sI/.test(text.slice(0, 400)),
    );
  const names = cores.map(([f]) => f.replace(/^chunks\/|-[\w-]{8}\.js$/g, '')).sort();
  assert.deepEqual(names, [
    'posenc-lab.simd.wasm',
    'posenc-page-attention.simd',
    'posenc-page.simd',
    'posenc.simd.wasm',
    'posenc.wasm',
  ]);
  // No chunk loads a Node module, and every import() names a file of the package literally.
  for (const f of files.filter((f) => f.endsWith('.js'))) {
    const text = readFileSync(join(unpacked, f), 'utf8');
    assert.doesNotMatch(text, /\bimport\s*\(\s*[`'"]node:|from\s*[`'"]node:/, `${f} imports a Node module`);
    for (const [, arg] of text.matchAll(/\bimport\(\s*([^)]{0,40})/g))
      assert.match(arg, /^[`'"]\.\.?\//, `${f}: import(${arg})`);
  }
});

test('one script tag from a versioned path: three views render, immutable caching, no error', {
  skip: noPackage || noBrowser,
  timeout: 180000,
}, async () => {
  const src = `/npm/posenc-view@${version}/posenc-view.js`;
  const srv = await serve({
    dir: join(work, 'site'),
    headers: { 'cache-control': 'public, max-age=31536000, immutable' },
    pages: {
      '/post.html': `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>post</title>
<meta http-equiv="Content-Security-Policy" content="script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'">
<script type="module" src="${src}"></script></head><body><h1>Post</h1>
<posenc-view view="heatmap" method="rope" dim="32"><a href="/">heatmap</a></posenc-view>
<posenc-view view="rotation" method="rope" dim="32"><a href="/">rotation</a></posenc-view>
<posenc-view view="shuffle"><a href="/">shuffle</a></posenc-view></body></html>`,
    },
  });
  const browser = await launch();
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${srv.origin}/post.html`);
  await page.waitForFunction(
    () => [...document.querySelectorAll('posenc-view')].every((e) => e.dataset.ready || e.dataset.error),
    null,
    { timeout: 150000 },
  );
  const states = await page.evaluate(() =>
    [...document.querySelectorAll('posenc-view')].map((e) => e.dataset.error ?? (e.dataset.ready && 'ready')),
  );
  const outside = srv.log.filter(
    (p) => !/^\/(post\.html|favicon\.ico)$/.test(p) && !p.startsWith(`/npm/posenc-view@${version}/`),
  );
  await browser.close();
  srv.close();
  assert.deepEqual(states, ['ready', 'ready', 'ready']);
  assert.deepEqual(outside, [], 'every file comes from the versioned path');
  assert.deepEqual(errors, []);
});

test('types: a TSX file sees <posenc-view> in JSX.IntrinsicElements and HTMLElementTagNameMap', {
  skip: noPackage,
  timeout: 120000,
}, () => {
  const dir = join(work, 'types');
  mkdirSync(join(dir, 'node_modules'), { recursive: true });
  symlinkSync(unpacked, join(dir, 'node_modules/posenc-view'));
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        jsx: 'preserve',
        module: 'esnext',
        moduleResolution: 'bundler',
        target: 'es2022',
        lib: ['es2022', 'dom'],
        types: [],
      },
      files: ['post.tsx'],
    }),
  );
  writeFileSync(
    join(dir, 'post.tsx'),
    `import 'posenc-view';
import type { PosencErrorDetail, PosencView } from 'posenc-view';
const el: PosencView | null = document.querySelector('posenc-view');
el?.addEventListener('posenc-error', (e) => {
  const d: PosencErrorDetail = e.detail;
  console.log(d.kind, d.message);
});
export const ok = <posenc-view view="rotation" method="rope" dim="32" theme="auto" />;
// @ts-expect-error: no such view
export const bad = <posenc-view view="nosuchview" />;
// @ts-expect-error: no such theme
export const badTheme = <posenc-view theme="blue" />;
`,
  );
  const tsc = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', dir], {
    encoding: 'utf8',
  });
  assert.equal(tsc.status, 0, tsc.stdout + tsc.stderr);
});

test('a Vite app: npm install (the tarball) + one import, built, served: the element renders', {
  skip: noPackage || noBrowser,
  timeout: 240000,
}, async () => {
  const app = join(work, 'vite-app');
  mkdirSync(join(app, 'node_modules'), { recursive: true });
  mkdirSync(join(app, 'src'));
  cpSync(unpacked, join(app, 'node_modules/posenc-view'), { recursive: true });
  writeFileSync(join(app, 'package.json'), '{"name":"app","private":true,"type":"module"}');
  writeFileSync(join(app, 'src/main.js'), "import 'posenc-view';\n");
  writeFileSync(
    join(app, 'index.html'),
    `<!doctype html><html><head><meta charset="utf-8"><title>app</title></head><body><h1>App</h1>
<posenc-view id="e" view="rotation" method="rope" dim="32"><a href="/">fallback</a></posenc-view>
<script type="module" src="/src/main.js"></script></body></html>`,
  );
  const vite = spawnSync(
    process.execPath,
    [join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'error'],
    {
      cwd: app,
      encoding: 'utf8',
    },
  );
  assert.equal(vite.status, 0, vite.stdout + vite.stderr);
  const srv = await serve({ dir: join(app, 'dist') });
  const browser = await launch();
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${srv.origin}/`);
  await page.waitForFunction(
    () => document.getElementById('e').dataset.ready || document.getElementById('e').dataset.error,
    null,
    {
      timeout: 180000,
    },
  );
  const state = await page.evaluate(() => document.getElementById('e').dataset.error ?? 'ready');
  await browser.close();
  srv.close();
  assert.equal(state, 'ready');
  assert.deepEqual(errors, []);
});

test("posenc-view/embed (the components' markup) says what the page's Copy embed code says, for every view", {
  skip: noPackage,
}, async () => {
  const { embedCode } = await import('../web/src/embed-code.js');
  const { posencEmbed, VIEWS } = await import(join(built, 'embed.js'));
  const page = 'https://blog.example/posenc/';
  const unescapeAttr = (s) => s.replaceAll('&#38;', '&').replaceAll('&amp;', '&');
  const query = (url) => [...new URL(url).searchParams].sort().join('&');
  for (const view of VIEWS)
    for (const attrs of [{}, { method: 'rope', dim: '32' }, { method: 'alibi', controls: 'own', theme: 'dark' }]) {
      const code = embedCode({ view, ...attrs }, page);
      const el = posencEmbed({ view, page, ...attrs });
      const fr = posencEmbed({ view, page, ...attrs, embed: 'iframe' });
      const what = `${view} ${JSON.stringify(attrs)}`;
      assert.equal(
        el.height,
        /overflow:hidden;height:([^"]+)"/.exec(code.element)?.[1],
        `${what}: the element's height rule (the fallback link holds the box)`,
      );
      assert.ok(code.iframe.includes(' data-posenc-box '), `${what}: the frame keeps its box`);
      assert.equal(fr.height, /;height:([^"]+)"/.exec(code.iframe)[1], `${what}: the iframe's height rule`);
      assert.equal(String(fr.frameHeight), /height="(\d+)"/.exec(code.iframe)[1], `${what}: the iframe's height`);
      assert.equal(query(el.link), query(unescapeAttr(/<a href="([^"]+)"/.exec(code.element)[1])), `${what}: link`);
      assert.equal(
        query(fr.frameSrc),
        query(unescapeAttr(/<iframe src="([^"]+)"/.exec(code.iframe)[1])),
        `${what}: src`,
      );
      assert.ok(code.element.includes(`>${el.fallback}</a>`), `${what}: the fallback text`);
      assert.ok(code.iframe.includes(`title="${fr.title}"`), `${what}: the frame's title`);
    }
  // index.d.ts declares every attribute the components take
  const types = readFileSync(join(built, 'index.d.ts'), 'utf8');
  const { ATTRIBUTES } = await import(join(built, 'embed.js'));
  assert.deepEqual(
    ATTRIBUTES.filter((k) => !new RegExp(`\\b${k}\\?:`).test(types)),
    [],
    'index.d.ts PosencViewAttributes lacks these',
  );
  assert.throws(() => posencEmbed({ view: 'nosuch' }), /unknown view "nosuch"/);
  assert.throws(() => posencEmbed({ view: 'heatmap', dimm: '3' }), /unknown attribute "dimm"/);
  assert.throws(() => posencEmbed({ view: 'heatmap', embed: 'img' }), /embed must be 'element' or 'iframe'/);
  assert.throws(() => posencEmbed({ view: 'heatmap', page: '/posenc' }), /page must be .* ending in '\/'/);
});
