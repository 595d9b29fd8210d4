// The blog recipes in examples/ take everything posenc-specific from the posenc-view package (its
// components, shortcodes and heights), so nothing in them goes stale when the page's tables are
// re-measured: no example computes or copies a height rule but the VitePress posts, which hold
// the page's "Copy embed code" snippets as a blogger pastes them (and must be today's); every
// import of the package is one of its exports; every recipe pins this repository's version; and
// the Hugo recipe builds with the package's shortcodes (Debian's hugo, which build.sh installs).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { embedHeightCss } from '../web/src/embed-heights.js';

const root = new URL('../', import.meta.url).pathname;
const files = (dir) =>
  readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath ?? e.path, e.name).slice(root.length));
const read = (f) => readFileSync(join(root, f), 'utf8');
const { version } = JSON.parse(read('package.json'));
const POSTS = {
  'examples/vitepress/docs/posts/element.md': embedHeightCss({ view: 'heatmap' }),
  'examples/vitepress/docs/posts/iframe.md': embedHeightCss({
    view: 'rotation',
    embed: 'iframe',
    params: { method: 'rope', dim: '32' },
  }),
};

test("examples/: no recipe computes or copies a height rule; the pasted snippets are today's", () => {
  for (const f of files('examples').filter((x) => !x.endsWith('README.md'))) {
    const text = read(f);
    if (POSTS[f] !== undefined) {
      assert.ok(
        text.includes(`height:${POSTS[f]}"`),
        `${f}: its height rule is not the page's (paste "Copy embed code" again)`,
      );
      continue;
    }
    assert.doesNotMatch(text, /clamp\(|100cqw|embed-heights/, `${f}: a height rule belongs to the posenc-view package`);
  }
});

test('examples/: every import of posenc-view is an export of the package, every recipe pins this version', () => {
  const exports = Object.keys(JSON.parse(read('packages/posenc-view/package.json')).exports);
  let imports = 0;
  for (const f of files('examples').filter((x) => /\.(jsx?|tsx?|mts|astro)$/.test(x)))
    for (const [, spec] of read(f).matchAll(/(?:from|import\()\s*'(posenc-view[^']*)'/g)) {
      imports++;
      const sub = spec === 'posenc-view' ? '.' : `.${spec.slice('posenc-view'.length)}`;
      assert.ok(exports.includes(sub), `${f}: '${spec}' is not an export of posenc-view (${exports.join(', ')})`);
    }
  assert.ok(imports >= 3, `the React and Astro recipes import the package (${imports} imports found)`);
  for (const f of files('examples').filter((x) => x.endsWith('package.json')))
    assert.equal(JSON.parse(read(f)).dependencies?.['posenc-view'], version, `${f} pins posenc-view ${version}`);
  for (const f of ['examples/vitepress/docs/.vitepress/theme/index.ts', 'examples/README.md'])
    assert.ok(read(f).includes(`posenc-view@${version}/`), `${f} pins posenc-view ${version}`);
});

const pkg = join(root, 'build/posenc-view');
test("examples/hugo builds with the package's shortcodes, each embed at its state's box", {
  skip: !existsSync('/usr/bin/hugo')
    ? 'no hugo (./build.sh test installs it)'
    : !existsSync(join(pkg, 'hugo')) && 'build/posenc-view not built (./build.sh element)',
}, () => {
  const dir = mkdtempSync(join(tmpdir(), 'posenc-hugo-recipe-'));
  try {
    cpSync(join(root, 'examples/hugo'), dir, { recursive: true });
    mkdirSync(join(dir, 'node_modules'));
    mkdirSync(join(dir, 'static'));
    cpSync(pkg, join(dir, 'node_modules/posenc-view'), { recursive: true }); // Hugo mounts no symlink
    const r = spawnSync('/usr/bin/hugo', ['--quiet', '-d', 'public'], { cwd: dir, encoding: 'utf8' });
    assert.equal(r.status, 0, `hugo: ${r.stderr}${r.stdout}`);
    // html/template writes + in an attribute as &#43;, which the browser reads back as +
    const html = readFileSync(join(dir, 'public/posts/positional-encoding/index.html'), 'utf8').replaceAll(
      '&#43;',
      '+',
    );
    const heatmap = embedHeightCss({ view: 'heatmap', params: { method: 'sinusoidal', dim: '64' } });
    const rotation = embedHeightCss({ view: 'rotation', embed: 'iframe', params: { method: 'rope', dim: '32' } });
    assert.ok(html.includes(`height:${heatmap}"`), "the element reserves its state's box");
    assert.ok(html.includes(`height:${rotation}"`), "the iframe reserves its state's box");
    assert.ok(existsSync(join(dir, 'public/posenc-view/posenc-view.js')), "the element's script is served");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
