// Assemble the posenc-view package in build/posenc-view/ after `vite build web --mode package`:
// its package.json (this repository's version, without the source folder's pack guard), the
// components and embed.js (bundled from src/: the page's heights, titles and attribute list, no
// view, no wasm), Hugo's shortcodes and their data, types, README and licence. Run by build.sh (build_element).
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { TRIMS, NARROW, WALL } from '../../web/src/embed-heights-core.js';
import { ELEMENT } from '../../web/src/embed-heights-element.js';
import { IFRAME } from '../../web/src/embed-heights-iframe.js';
import { BUCKETS, DEFAULTS, SETTINGS } from '../../web/src/embed-heights-settings.js';
import { VIEW_INFO } from '../../web/src/views/registry.js';

const here = new URL('./', import.meta.url);
const out = new URL('../../build/posenc-view/', import.meta.url);
if (!existsSync(new URL('posenc-view.js', out))) {
  console.error('build/posenc-view/posenc-view.js missing: run `npx vite build web --mode package` first');
  process.exit(1);
}
const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
const pkg = JSON.parse(readFileSync(new URL('package.json', here), 'utf8'));
pkg.version = version;
delete pkg.private;
delete pkg.scripts;
writeFileSync(new URL('package.json', out), `${JSON.stringify(pkg, null, 2)}\n`);
await build({
  entryPoints: [fileURLToPath(new URL('src/embed.js', here))],
  outfile: fileURLToPath(new URL('embed.js', out)),
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  target: 'es2022',
  legalComments: 'none',
  minify: true,
  logLevel: 'warning',
});
for (const f of ['src/react.js', 'src/PosencView.astro', 'src/PosencFrame.astro'])
  copyFileSync(new URL(f, here), new URL(f.replace('src/', ''), out));
// Hugo: the two shortcodes, their partials and the data they read (the README mounts hugo/layouts
// and hugo/data): each view's title and panels, and the page's height tables, from which
// partials/posenc/height.html computes the box of the state being embedded.
const embed = await import(new URL('embed.js', out).href);
const unmeasured = embed.VIEWS.filter((v) => !ELEMENT[v] || !IFRAME[v]);
if (unmeasured.length) {
  const ids = unmeasured.join(',');
  console.error(
    `assemble.js: no measured embed heights for ${ids} in web/src/embed-heights-element.js and -iframe.js. ` +
      `Give each a provisional row there (e.g. "${unmeasured[0]}":[[0,1200]]), run ./build.sh build, then ` +
      `node tools/embed_heights.js --views ${ids} (it measures them and writes their rows).`,
  );
  process.exit(1);
}
const views = {};
for (const view of embed.VIEWS)
  views[view] = {
    title: embed.posencEmbed({ view }).title,
    panels: (VIEW_INFO[view].panels ?? []).map((p) => p.id),
  };
const heights = {
  narrow: NARROW,
  wall: WALL,
  trims: [...TRIMS],
  buckets: BUCKETS,
  defaults: DEFAULTS,
  settings: SETTINGS,
  element: ELEMENT,
  iframe: IFRAME,
};
for (const d of ['hugo/layouts/shortcodes/', 'hugo/layouts/partials/posenc/', 'hugo/data/'])
  mkdirSync(new URL(d, out), { recursive: true });
const data = { note: 'Written by the posenc-view build (embed.js)', keys: embed.ATTRIBUTES, views, heights };
writeFileSync(new URL('hugo/data/posenc.json', out), `${JSON.stringify(data, null, 2)}\n`);
for (const f of [
  'shortcodes/posenc.html',
  'shortcodes/posenc-frame.html',
  'partials/posenc/height.html',
  'partials/posenc/attrs.html',
])
  copyFileSync(new URL(`hugo/layouts/${f}`, here), new URL(`hugo/layouts/${f}`, out));
for (const f of ['index.d.ts', 'embed.d.ts', 'react.d.ts', 'README.md'])
  copyFileSync(new URL(f, here), new URL(f, out));
copyFileSync(new URL('../../LICENSE', import.meta.url), new URL('LICENSE', out));
