// Assemble the posenc-view package in build/posenc-view/ after `vite build web --mode package`:
// its package.json (this repository's version, without the source folder's pack guard), the
// components and embed.js (bundled from src/: the page's heights, titles and attribute list, no
// view, no wasm), Hugo's shortcodes and their data, types, README and licence. Run by build.sh (build_element).
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

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
// Hugo: the two shortcodes and the data they read (the README mounts hugo/layouts and hugo/data).
const embed = await import(new URL('embed.js', out).href);
const views = {};
for (const view of embed.VIEWS) {
  const e = embed.posencEmbed({ view, embed: 'iframe' });
  views[view] = {
    title: e.title,
    element: embed.embedHeightCss({ view, embed: 'element' }),
    iframe: e.height,
    height: e.frameHeight, // the iframe's height attribute (a 680 px column) for hosts that refuse style attributes
  };
}
mkdirSync(new URL('hugo/layouts/shortcodes/', out), { recursive: true });
mkdirSync(new URL('hugo/data/', out), { recursive: true });
const data = { note: 'Written by the posenc-view build (embed.js)', keys: embed.ATTRIBUTES, views };
writeFileSync(new URL('hugo/data/posenc.json', out), `${JSON.stringify(data, null, 2)}\n`);
for (const f of ['posenc.html', 'posenc-frame.html'])
  copyFileSync(new URL(`hugo/layouts/shortcodes/${f}`, here), new URL(`hugo/layouts/shortcodes/${f}`, out));
for (const f of ['index.d.ts', 'embed.d.ts', 'react.d.ts', 'README.md'])
  copyFileSync(new URL(f, here), new URL(f, out));
copyFileSync(new URL('../../LICENSE', import.meta.url), new URL('LICENSE', out));
