// The posenc-view package as blogs build it: the tarball `./build.sh element` packs, installed
// offline into one fresh npm project, built by each tool with no configuration beyond the
// package's README (its snippet per tool), served with a strict CSP, and every view rendered in
// headless Chromium from each build: each element reaches data-ready, no page error, no console
// error (a 404 of a chunk or core the bundler did not emit shows there; the CSP refuses anything
// from elsewhere). Every build must print no warning.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { CHROMIUM, launch, serve } from './browser_embed_harness.js';

const root = new URL('..', import.meta.url).pathname;
const built = join(root, 'build/posenc-view');
const skip = !existsSync(join(built, 'package.json'))
  ? 'build/posenc-view not built (./build.sh element)'
  : !existsSync(CHROMIUM)
    ? 'no /usr/bin/chromium'
    : false;
// Every view, from the package's own list (embed.js VIEWS: the page's registry).
const { VIEWS, embedHeight } = skip ? { VIEWS: [] } : await import(join(built, 'embed.js'));
const HUGO = '/usr/bin/hugo';
// The iframe component in the React and Astro posts: its frame shows a stand-in posenc page
// (render() serves it and the page's real posenc-embed.js), so the height is the one reserved.
const FRAME = { view: 'rotation', method: 'rope', dim: '32' };
const FRAME_JSX = `<PosencFrame ${Object.entries(FRAME)
  .map(([k, v]) => `${k}="${v}"`)
  .join(' ')} />`;
const VITEPRESS_CONFIG = `export default {
  vue: { template: { compilerOptions: { isCustomElement: (tag) => tag === 'posenc-view' } } },
};
`;
const VITEPRESS_THEME = `import DefaultTheme from 'vitepress/theme';
export default {
  extends: DefaultTheme,
  enhanceApp() {
    if (!import.meta.env.SSR) import('posenc-view');
  },
};
`;
const HUGO_TOML = `baseURL = "/"
disableKinds = ["taxonomy", "term", "RSS", "sitemap", "404"]
[[module.mounts]]
source = "content"
target = "content"
[[module.mounts]]
source = "layouts"
target = "layouts"
[[module.mounts]]
source = "static"
target = "static"
[[module.mounts]]
source = "data"
target = "data"
[[module.mounts]]
source = "node_modules/posenc-view/hugo/layouts"
target = "layouts"
[[module.mounts]]
source = "node_modules/posenc-view/hugo/data"
target = "data"
[[module.mounts]]
source = "node_modules/posenc-view"
target = "static/posenc-view"
`;
const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'";
const LINK = [
  'vite',
  'webpack',
  'esbuild',
  'rollup',
  '@rollup',
  'parcel',
  'next',
  'react',
  'react-dom',
  'astro',
  'vitepress',
];
// What a bundler prints that is a warning (its CLI's own marker; tests/bundlers.test.js says which).
const WARNING = /\(!\)|\[WARNING\]|\bwarn(ing)?\b|⚠/i;

let dir; // the blog project every tool but Next.js builds in (a temporary folder)
let nextDir; // Next.js's, under the repository (next(): why)
let tgz;
let browser;
/** A blog project in `at`: the tarball installed offline, the tools linked from the repository. */
function blog(at) {
  writeFileSync(join(at, 'package.json'), '{"name":"blog","private":true,"type":"module"}');
  const npm = spawnSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--no-package-lock', tgz], {
    cwd: at,
    encoding: 'utf8',
  });
  assert.equal(npm.status, 0, npm.stderr);
  for (const dep of LINK) symlinkSync(join(root, 'node_modules', dep), join(at, 'node_modules', dep));
  return at;
}
before(async () => {
  if (skip) return;
  dir = mkdtempSync(join(tmpdir(), 'posenc-view-bundlers-'));
  const packed = spawnSync('npm', ['pack', built, '--pack-destination', dir, '--json'], { encoding: 'utf8' });
  assert.equal(packed.status, 0, packed.stderr);
  const [info] = JSON.parse(packed.stdout);
  console.log(`# ${info.filename}: ${info.size} B packed, ${info.unpackedSize} B unpacked, ${info.files.length} files`);
  tgz = join(dir, info.filename);
  blog(dir);
  browser = await launch();
});
after(async () => {
  await browser?.close();
  for (const d of [dir, nextDir]) if (d) rmSync(d, { recursive: true, force: true });
});

/** The post: every view as the element, each with its fallback link (the lab at few steps: the
 * esbuild and Vite posts train it). */
const BODY = () =>
  VIEWS.map(
    (v) =>
      `<posenc-view view="${v}"${v === 'lab' ? ' labsteps="10"' : ''} style="display:block"><a href="/posenc/?view=${v}">${v}</a></posenc-view>`,
  ).join('\n');
const HTML = (script) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>post</title>
<script type="module" src="${script}"></script></head><body><h1>Post</h1>
${BODY()}
</body></html>
`;

/** Run a tool's CLI (node `args`) in `cwd`; its output, failing on a non-zero exit. */
function run(what, cwd, args, exe = process.execPath, env = {}) {
  const r = spawnSync(exe, args, {
    cwd,
    encoding: 'utf8',
    timeout: 300_000,
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', CI: '1', ...env },
  });
  const output = `${r.stdout}${r.stderr}`;
  assert.equal(r.status, 0, `${what} failed:\n${output}`);
  return output;
}

/** A project folder under the shared npm project (so it resolves posenc-view and the tools). */
function project(name, html) {
  const cwd = join(dir, name);
  mkdirSync(join(cwd, 'src'), { recursive: true });
  writeFileSync(join(cwd, 'src/index.js'), "import 'posenc-view';\n");
  if (html) writeFileSync(join(cwd, 'index.html'), html);
  return cwd;
}
const bin = (pkg, path) => join(dir, 'node_modules', pkg, path);

// Each tool as the package's README runs it. Returns { out: the folder to serve, log }.
const TOOLS = {
  vite(cwd) {
    const log = run('vite build', cwd, [bin('vite', 'bin/vite.js'), 'build']);
    return { out: join(cwd, 'dist'), log };
  },
  webpack(cwd) {
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
    const args = ['src/index.js', '--bundle', '--format=esm', '--splitting', '--outdir=dist', '--log-level=warning'];
    const log = run('esbuild', cwd, args, bin('esbuild', 'bin/esbuild'));
    writeFileSync(join(cwd, 'dist/index.html'), HTML('./index.js'));
    return { out: join(cwd, 'dist'), log };
  },
  rollup(cwd) {
    const args = [bin('rollup', 'dist/bin/rollup'), 'src/index.js', '--dir', 'dist', '--format', 'es'];
    const log = run('rollup', cwd, [...args, '--plugin', '@rollup/plugin-node-resolve']);
    writeFileSync(join(cwd, 'dist/index.html'), HTML('./index.js'));
    return { out: join(cwd, 'dist'), log };
  },
  hugo(cwd) {
    // The README's hugo.toml: the package's shortcodes, their data and its files mounted from
    // node_modules (with Hugo's own default mounts, which a mount list replaces).
    writeFileSync(join(cwd, 'hugo.toml'), HUGO_TOML);
    symlinkSync(join(dir, 'node_modules'), join(cwd, 'node_modules'));
    mkdirSync(join(cwd, 'layouts'));
    mkdirSync(join(cwd, 'content'));
    writeFileSync(
      join(cwd, 'layouts/index.html'),
      '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>post</title></head><body><h1>Post</h1>\n{{ .Content }}\n</body></html>\n',
    );
    writeFileSync(
      join(cwd, 'content/_index.md'),
      `---\ntitle: post\n---\n${VIEWS.map((v) => `{{< posenc view="${v}" >}}`).join('\n\n')}\n`,
    );
    const log = run('hugo', cwd, ['--quiet', '--destination', 'public'], HUGO);
    return { out: join(cwd, 'public'), log };
  },
  next() {
    // Turbopack compiles only files under the nearest lockfile's folder: a blog's own, with its
    // node_modules. Here the tools are links into the repository's node_modules, so the project
    // sits under the repository (whose lockfile is the nearest).
    mkdirSync(join(root, 'build'), { recursive: true });
    nextDir = blog(mkdtempSync(join(root, 'build', 'next-')));
    const cwd = nextDir;
    // App Router, a static export (a blog's build; `next start` serves the same pages). A first
    // build has no cache to reuse, which Next.js prints as a warning: not one about the package.
    writeFileSync(join(cwd, 'next.config.mjs'), "export default { output: 'export' };\n");
    mkdirSync(join(cwd, 'app'));
    writeFileSync(
      join(cwd, 'app/layout.js'),
      `export default function Layout({ children }) {
  return <html lang="en"><body>{children}</body></html>;
}
`,
    );
    writeFileSync(
      join(cwd, 'app/page.js'),
      `import { PosencFrame, PosencView } from 'posenc-view/react';
const VIEWS = ${JSON.stringify(VIEWS)};
export default function Post() {
  return <main><h1>Post</h1>{VIEWS.map((v) => <PosencView key={v} view={v} />)}${FRAME_JSX}</main>;
}
`,
    );
    const log = run('next build', cwd, [bin('next', 'dist/bin/next'), 'build'], process.execPath, {
      NEXT_TELEMETRY_DISABLED: '1',
    });
    return { out: join(cwd, 'out'), log: log.replace(/^.*No build cache found.*$/m, ''), inline: true };
  },
  astro(cwd) {
    mkdirSync(join(cwd, 'src/pages'), { recursive: true });
    writeFileSync(
      join(cwd, 'src/pages/index.astro'),
      `---
import PosencView from 'posenc-view/PosencView.astro';
import PosencFrame from 'posenc-view/PosencFrame.astro';
const views = ${JSON.stringify(VIEWS)};
---
<html lang="en"><head><meta charset="utf-8"><title>post</title></head>
<body><h1>Post</h1>{views.map((v) => <PosencView view={v} />)}${FRAME_JSX}</body></html>
`,
    );
    const log = run('astro build', cwd, [bin('astro', 'astro.js'), 'build', '--silent'], process.execPath, {
      ASTRO_TELEMETRY_DISABLED: '1',
    });
    return { out: join(cwd, 'dist'), log, inline: true };
  },
  vitepress(cwd) {
    // The README's config: Vue leaves <posenc-view> to the browser; the theme loads it on the client.
    mkdirSync(join(cwd, 'docs/.vitepress/theme'), { recursive: true });
    writeFileSync(join(cwd, 'docs/.vitepress/config.mjs'), VITEPRESS_CONFIG);
    writeFileSync(join(cwd, 'docs/.vitepress/theme/index.js'), VITEPRESS_THEME);
    writeFileSync(join(cwd, 'docs/index.md'), `# Post\n\n${BODY()}\n`);
    const log = run('vitepress build', cwd, [bin('vitepress', 'bin/vitepress.js'), 'build', 'docs']);
    return { out: join(cwd, 'docs/.vitepress/dist'), log, inline: true };
  },
  parcel(cwd) {
    const args = [bin('parcel', 'lib/bin.js'), 'build', 'index.html', '--no-cache', '--no-autoinstall'];
    const log = run('parcel build', cwd, args);
    return { out: join(cwd, 'dist'), log };
  },
};

/** Train the lab element's models (Train, as a reader would): its status and notes when done. */
async function train(page) {
  await page.evaluate(() =>
    document.querySelector('posenc-view[view=lab]').shadowRoot.querySelector('.lab-train').click(),
  );
  await page.waitForFunction(
    () =>
      /done|stopped/.test(
        document.querySelector('posenc-view[view=lab]').shadowRoot.querySelector('[data-status]')?.dataset.status,
      ),
    null,
    { timeout: 240_000 },
  );
  return page.evaluate(() => {
    const r = document.querySelector('posenc-view[view=lab]').shadowRoot;
    return {
      status: r.querySelector('[data-status]').dataset.status,
      notes: r.querySelector('.lab-notes').textContent,
    };
  });
}

/** The iframe component's frame in the post, if it has one: { src, height, column }. */
async function frameOf(page) {
  const frame = page.locator('iframe');
  if ((await frame.count()) === 0) return null;
  await frame.scrollIntoViewIfNeeded();
  await page.waitForFunction(() => document.querySelector('script[src$="posenc-embed.js"]'));
  return frame.evaluate((f) => ({
    src: f.getAttribute('src'),
    height: f.getBoundingClientRect().height,
    column: f.parentElement.clientWidth,
  }));
}

/** Load the built post and wait for every element: { states, errors, frame }. */
async function render(out, inline = false, training = false) {
  // The strict policy plus the hash of each inline script the tool wrote (Parcel's import map), as
  // a host would add it; favicon: Chromium asks for one, and no post here has one.
  const html = readFileSync(join(out, 'index.html'), 'utf8');
  const hashes = [...html.matchAll(/<script[^>]*>([^<]+)<\/script>/g)].map(
    ([, code]) => ` 'sha256-${createHash('sha256').update(code).digest('base64')}'`,
  );
  // Next.js, Astro and VitePress write inline scripts of their own (hydration data, routers):
  // those sites allow inline script, and still no eval but WebAssembly's and nothing from elsewhere.
  // (VitePress's theme draws its icons from data: URLs).
  const allow = inline ? " 'unsafe-inline'" : hashes.join('');
  const csp =
    CSP.replace("'wasm-unsafe-eval'", `'wasm-unsafe-eval'${allow}`) + (inline ? "; img-src 'self' data:" : '');
  const stand = '<!doctype html><meta charset="utf-8"><title>posenc</title><p>posenc';
  mkdirSync(join(out, 'posenc'), { recursive: true });
  cpSync(join(root, 'web/public/posenc-embed.js'), join(out, 'posenc/posenc-embed.js'));
  const pages = { '/favicon.ico': '', '/posenc/': stand };
  const srv = await serve({ dir: out, headers: { 'content-security-policy': csp }, pages });
  const page = await browser.newPage({ viewport: { width: 800, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  try {
    await page.goto(`${srv.origin}/`);
    await page.waitForFunction(
      (n) => {
        const els = [...document.querySelectorAll('posenc-view')];
        return els.length === n && els.every((e) => e.dataset.ready || e.dataset.error);
      },
      VIEWS.length,
      { timeout: 240_000 },
    );
    const frame = await frameOf(page);
    const lab = training ? await train(page) : null;
    const states = await page.evaluate(() =>
      Object.fromEntries(
        [...document.querySelectorAll('posenc-view')].map((e) => [e.getAttribute('view'), e.dataset.error ?? 'ready']),
      ),
    );
    return { states, errors, frame, lab };
  } finally {
    await page.close();
    srv.close();
  }
}

for (const [name, build] of Object.entries(TOOLS)) {
  test(`${name}: builds the post from the tarball with no warning; every view renders`, {
    skip: skip || (name === 'hugo' && !existsSync(HUGO) && 'no hugo (./build.sh test installs it)'),
    timeout: 600_000,
  }, async () => {
    const { out, log, inline } = build(project(name, HTML('./src/index.js')));
    const warnings = log.split('\n').filter((line) => WARNING.test(line));
    assert.deepEqual(warnings, [], `${name} printed warnings:\n${log}`);
    // The lab's training worker is not emitted by esbuild, and Vite's copy cannot load its chunks:
    // the lab trains on the page instead (two builds that show both ways).
    const { states, errors, frame, lab } = await render(out, inline, ['esbuild', 'vite'].includes(name));
    assert.deepEqual(states, Object.fromEntries(VIEWS.map((v) => [v, 'ready'])), `${name}: every view ready`);
    assert.deepEqual(errors, [], `${name}: errors in the page`);
    if (lab) assert.deepEqual(lab, { status: 'done', notes: '' }, `${name}: the lab trains`);
    if (['next', 'astro'].includes(name)) {
      assert.ok(frame, `${name}: the PosencFrame's iframe`);
      const q = new URLSearchParams({ embed: '1', ...FRAME }).toString();
      assert.equal(frame.src, `/posenc/?${q}`, `${name}: the frame's source`);
      const want = embedHeight({ view: FRAME.view, embed: 'iframe', params: FRAME, width: frame.column });
      assert.equal(Math.round(frame.height), want, `${name}: the frame's reserved height at ${frame.column} px`);
    }
  });
}
