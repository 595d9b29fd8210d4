// What one <posenc-view> of each view downloads from the posenc-view package (build/posenc-view,
// `./build.sh build`): the element module, the chunks it imports, the view's chunk and what that
// imports, and the WebAssembly core the view runs on, each compressed with brotli (quality 11) as
// a CDN or a static host with precompressed files sends them. Usage: node tools/element_sizes.js
import { readFileSync } from 'node:fs';
import { brotliCompressSync, constants } from 'node:zlib';
import { VIEWS } from '../web/src/views/registry.js';

const out = new URL('../build/posenc-view/', import.meta.url);
const manifest = JSON.parse(readFileSync(new URL('.vite/manifest.json', out), 'utf8'));
const br = (file) =>
  brotliCompressSync(readFileSync(new URL(file, out)), { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;

/** The files a chunk needs before it runs: itself and its static imports, transitively. */
function closure(key, seen = new Set()) {
  const c = manifest[key];
  if (!c || seen.has(c.file)) return seen;
  seen.add(c.file);
  for (const k of c.imports ?? []) closure(k, seen);
  return seen;
}
const entry = Object.keys(manifest).find((k) => manifest[k].isEntry);
const core = (name) => Object.values(manifest).find((c) => c.file.includes(`/${name}-`))?.file;
// The views' declarations (web/src/views/registry.js): which module each view is in, the API
// families it adds (each a module of web/src/families/, web/src/api.js LATER) and so the core it
// runs on (app.js coreFor).
const views = VIEWS.map(({ id, module, needs = [] }) => ({ id, module, needs }));

/** A chunk the build must have: one the table names but the manifest lacks is refused by name. */
function chunk(key) {
  if (!manifest[key]) throw new Error(`${key} is not in build/posenc-view's manifest: rebuild (./build.sh build)`);
  return key;
}

const base = closure(entry);
const rows = [];
for (const { id, module, needs } of views) {
  const files = new Set(base);
  closure(chunk(`src/views/${module}.js`), files);
  for (const family of needs) closure(chunk(`src/families/${family}.js`), files); // added before the view is set up
  const wasm = core(needs.includes('attention') ? 'posenc-page-attention.simd' : 'posenc-page.simd');
  if (wasm) files.add(wasm); // a JS module holding the wasm (vite.config.js elementPackage)
  const js = [...files].filter((f) => f.endsWith('.js') && f !== wasm).reduce((a, f) => a + br(f), 0);
  const w = wasm ? br(wasm) : 0;
  rows.push([id, files.size, js, w, js + w]);
}
console.log('| view | files | JS (br) | wasm (br) | total (br) |\n| --- | ---: | ---: | ---: | ---: |');
for (const [v, n, js, w, t] of rows)
  console.log(`| ${v} | ${n} | ${js.toLocaleString('en')} | ${w.toLocaleString('en')} | ${t.toLocaleString('en')} |`);
