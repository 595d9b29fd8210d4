// What a view's state adds to (or takes from) its default embed height, for
// web/src/embed-heights-settings.js: every view as <posenc-view> at its measured default state
// (tools/embed_heights.js ATTRS) and at probes (its own controls, another method, the largest sizes
// it offers, each of its panels), laid out at column widths from 288 to 1248 px under three font
// sets (DejaVu, Liberation, Noto) in headless Chromium. Per probe and bucket of column widths
// (BUCKETS: from each start to the next), the largest difference to the default, plus a margin.
// Run after `./build.sh build` whenever a view's layout changes: node tools/embed_settings.js
// (about 10 minutes on a shared 2-core machine). The iframe uses the element's differences: the
// view inside is the same.
import { writeFileSync } from 'node:fs';
import { launch, serve } from '../tests/browser_embed_harness.js';
import { FIELDS, VIEWS as VIEW_ROWS, urlValue } from '../web/src/state.js';
import { VIEW_INFO } from '../web/src/views/registry.js';
import { ATTRS } from './embed_heights.js';

const VIEWS = VIEW_ROWS.map(([id]) => id);
const WIDTHS = [288, 320, 342, 382, 440, 480, 560, 680, 720, 900, 1024, 1248];
// Buckets of column widths, each measured at two widths or more; 480 is embed-heights.js NARROW.
export const BUCKETS = [0, 360, 480, 640, 800, 1000];
export const FONTS = {
  dejavu: "'DejaVu Sans', sans-serif",
  liberation: "'Liberation Serif', serif",
  noto: "'Noto Sans', sans-serif",
};
const MARGIN = 24;
const LONG = 'the quick brown fox jumps over the lazy dog while the old cat sleeps by the warm fire tonight';
// The largest sizes a view offers, and its other methods (only the keys the view reads count).
export const BIG = {
  rotation: [{ pos: '100000', kpos: '99999' }],
  bias: [{ buckets: '128', maxdist: '1024', length: '4096' }, { heads: '32' }, { shawk: '64' }],
  scaling: [{ scaling: 'yarn', factor: '64' }],
  shift: [{ shift: '1000' }],
  learned: [{ train: '2048' }],
  extrapolation: [{ train: '2048' }],
  compare: [{ vs: 't5' }],
  shuffle: [{ sentence: LONG, causal: '1' }, { sentence: 'javascript:window.__pwn=4 and more words' }],
  lab: [
    { labmethods: 'rope,alibi', labtask: 'ngram' },
    { labtask: 'periodic', labseeds: '5', labsteps: '2000' },
  ],
};
/** The probes of view `v`: each a params object of strings. */
export function probes(v) {
  const reads = new Set(VIEW_INFO[v]?.controls ?? []);
  const out = [{ controls: 'own' }];
  // the page's default method (a snippet without method= is sinusoidal), and two others
  if (reads.has('method')) out.push({ method: 'sinusoidal' }, { method: 'alibi' }, { method: 't5' });
  const sizes = Object.fromEntries(
    ['dim', 'length', 'heads', 'train']
      .filter((k) => reads.has(k))
      .map((k) => [k, { dim: '1024', length: '4096', heads: '32', train: '2048' }[k]]),
  );
  if (Object.keys(sizes).length) out.push(sizes);
  out.push(...(BIG[v] ?? []));
  for (const p of VIEW_INFO[v]?.panels ?? []) out.push({ panel: p.id });
  return [...new Map(out.map((p) => [JSON.stringify(p), p])).values()];
}

const attrs = (o) =>
  Object.entries(o)
    .map(([k, val]) => ` ${k}="${String(val).replaceAll('&', '&amp;').replaceAll('"', '&quot;')}"`)
    .join('');
const CASES = VIEWS.flatMap((v) => [[v, null], ...probes(v).map((p) => [v, p])]);
const page = (font) => `<!doctype html><html><head><meta charset=utf-8>
<style>body{margin:0;font:16px/1.5 ${font}} .col{width:320px} posenc-view{display:block}</style></head><body><div class=col>
${CASES.map(([v, p], i) => `<posenc-view data-i="${i}" view="${v}"${attrs({ ...ATTRS(v), ...(p ?? {}) })}></posenc-view>`).join('\n')}
</div><script type=module src="/posenc-view.js"></script></body></html>`;

/** In the page: the column at `col` px, every element ready and its height still for 6 frames. */
const settle = (col) =>
  new Promise((resolve) => {
    document.querySelector('.col').style.width = `${col}px`;
    const all = [...document.querySelectorAll('posenc-view')];
    let last = '';
    let same = 0;
    const tick = () => {
      if (!all.every((e) => e.dataset.ready || e.dataset.error)) return requestAnimationFrame(tick);
      const now = JSON.stringify(all.map((e) => Math.ceil(e.getBoundingClientRect().height)));
      same = now === last ? same + 1 : 0;
      last = now;
      if (same >= 6) resolve(JSON.parse(now));
      else requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });

if (import.meta.url === `file://${process.argv[1]}`) {
  const srv = await serve({
    pages: Object.fromEntries(Object.entries(FONTS).map(([n, f]) => [`/${n}.html`, page(f)])),
  });
  const browser = await launch();
  const ctx = await browser.newContext({ viewport: { width: 1400, height: 900 }, serviceWorkers: 'block' });
  const diff = CASES.map(() => BUCKETS.map(() => Number.NEGATIVE_INFINITY));
  // POSENC_FONTS=dejavu (a comma list) measures under those font sets only
  const names = process.env.POSENC_FONTS?.split(',') ?? Object.keys(FONTS);
  for (const name of names) {
    const p = await ctx.newPage();
    await p.addInitScript(() => {
      globalThis.__posencMeasure = true; // the views' own heights, without the box
    });
    await p.goto(`${srv.origin}/${name}.html`);
    for (const w of WIDTHS) {
      const hs = await p.evaluate(settle, w);
      CASES.forEach(([v, probe], i) => {
        if (!probe) return;
        const d = hs[i] - hs[CASES.findIndex(([u, q]) => u === v && !q)];
        const b = BUCKETS.findLastIndex((from) => w >= from);
        diff[i][b] = Math.max(diff[i][b], d);
      });
      console.error(`${name} ${w} px: measured`);
    }
    await p.close();
  }
  await browser.close();
  srv.close();
  const out = {};
  CASES.forEach(([v, probe], i) => {
    out[v] ??= { base: ATTRS(v), probes: [] };
    if (probe) out[v].probes.push({ params: probe, extra: diff[i].map((d) => d + MARGIN) });
  });
  const keys = new Set(CASES.flatMap(([v, p]) => [...Object.keys(ATTRS(v)), ...Object.keys(p ?? {})]));
  const defaults = Object.fromEntries([...keys].sort().map((k) => [k, urlValue(FIELDS[k][0])]));
  writeFileSync(
    new URL('../web/src/embed-heights-settings.js', import.meta.url),
    `// Written by tools/embed_settings.js (embed-heights.js says what the extras are). Do not edit by hand.
export const BUCKETS = ${JSON.stringify(BUCKETS)};
// biome-ignore format: one table
export const DEFAULTS = ${JSON.stringify(defaults)};
// biome-ignore format: one table
export const SETTINGS = ${JSON.stringify(out)};\n`,
  );
  console.log(JSON.stringify(out, null, 1));
}
