// What one <posenc-view> of each view downloads from the posenc-view package (build/posenc-view,
// `./build.sh build`): the element module, the chunks it imports, the view's chunk and what that
// imports, and the WebAssembly core the view runs on, each compressed with brotli (quality 11) as
// a CDN or a static host with precompressed files sends them. Usage: node tools/element_sizes.js
import { readFileSync } from 'node:fs';
import { brotliCompressSync, constants } from 'node:zlib';

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
// The same tables the page uses: which module each view is in, which core it runs on.
const MODULE = { compare: 'heatmap', extrapolation: 'learned' };
const ATTENTION = new Set(['bias', 'shuffle']);
const views = [
  'heatmap',
  'waves',
  'similarity',
  'rotation',
  'bias',
  'learned',
  'extrapolation',
  'compare',
  'shuffle',
  'lab',
  'worked',
  'shift',
  'concat',
  'scaling',
];

const base = closure(entry);
const rows = [];
for (const v of views) {
  const files = new Set(base);
  closure(`src/views/${MODULE[v] ?? v}.js`, files);
  if (ATTENTION.has(v)) closure('../js/attention.js', files); // the API family it adds (views/index.js NEEDS)
  const wasm = core(ATTENTION.has(v) ? 'posenc-page-attention.simd' : 'posenc-page.simd');
  if (wasm) files.add(wasm);
  const js = [...files].filter((f) => f.endsWith('.js')).reduce((a, f) => a + br(f), 0);
  const w = wasm ? br(wasm) : 0;
  rows.push([v, files.size, js, w, js + w]);
}
console.log('| view | files | JS (br) | wasm (br) | total (br) |\n| --- | ---: | ---: | ---: | ---: |');
for (const [v, n, js, w, t] of rows)
  console.log(`| ${v} | ${n} | ${js.toLocaleString('en')} | ${w.toLocaleString('en')} | ${t.toLocaleString('en')} |`);
