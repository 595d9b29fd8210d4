// Measure every view's height in an embed at every column width from 256 to 1280 px (element and
// iframe, method=rope dim=32, two host fonts) in headless Chromium, and write the tables of steps
// web/src/embed-heights-element.js and -iframe.js. Run after `./build.sh build` whenever a view's layout
// changes: node tools/embed_heights.js (about 20 minutes on a shared 2-core machine; tests/embed_code.test.js and browser_embed_cls.test.js
// check the tables).
import { writeFileSync } from 'node:fs';
import { launch, serve } from '../tests/browser_embed_harness.js';
import { VIEWS as VIEW_ROWS } from '../web/src/state.js';

// Every view the page has (web/src/state.js VIEWS): a new view is measured and tested with no edit here.
const VIEWS = VIEW_ROWS.map(([id]) => id);
export const ATTRS = (v) => (v === 'shuffle' || v === 'lab' ? {} : { method: 'rope', dim: '32' });
const STEP = 8;
const widths = [];
for (let w = 256; w <= 1280; w += STEP) widths.push(w);
const FONTS = ['18px/1.7 Georgia, serif', '15px/1.4 system-ui, sans-serif'];
const query = (v) => new URLSearchParams({ embed: '1', view: v, ...ATTRS(v) }).toString();
const attrs = (v) =>
  Object.entries({ view: v, ...ATTRS(v) })
    .map(([k, x]) => `${k}="${x}"`)
    .join(' ');
const page = (font, kind) => `<!doctype html><html><head><meta charset=utf-8>
<style>body{margin:0;font:${font}} .col{width:256px} iframe{display:block;width:100%;border:0}</style></head><body><div class=col>
${VIEWS.map((v) => (kind === 'element' ? `<posenc-view id="${v}" ${attrs(v)}></posenc-view>` : `<iframe id="${v}" title="${v}" src="/?${query(v)}"></iframe>`)).join('\n')}
</div>${kind === 'element' ? '<script type=module src="/posenc-view.js"></script>' : '<script src="/posenc-embed.js"></script>'}</body></html>`;

/** Heights (px) of every view at every width: { view: [h at widths[0], ...] }. */
async function measure(ctx, srv, path, kind) {
  const p = await ctx.newPage();
  await p.addInitScript(() => {
    globalThis.__posencMeasure = true; // the views' own heights, without the reserve
  });
  await p.goto(`${srv.origin}${path}`);
  const ready =
    kind === 'element'
      ? () => [...document.querySelectorAll('posenc-view')].every((e) => e.dataset.ready)
      : () =>
          [...document.querySelectorAll('iframe')].every((f) =>
            f.contentDocument?.querySelector('#app[data-layout=live]'),
          );
  await p.waitForFunction(ready, null, { timeout: 300000 });
  console.error(`${path}: ready`);
  const out = Object.fromEntries(VIEWS.map((v) => [v, []]));
  for (const w of widths) {
    const hs = await p.evaluate(
      ([w, kind]) =>
        new Promise((resolve) => {
          document.querySelector('.col').style.width = `${w}px`;
          const read = () =>
            [...document.querySelectorAll(kind === 'element' ? 'posenc-view' : 'iframe')].map((e) =>
              kind === 'element'
                ? Math.ceil(e.getBoundingClientRect().height)
                : Math.ceil(e.contentDocument.documentElement.getBoundingClientRect().height),
            );
          // Settled: the same heights over 6 frames in a row (views render on the frame after a resize).
          let last = '';
          let same = 0;
          const tick = () => {
            const now = JSON.stringify(read());
            same = now === last ? same + 1 : 0;
            last = now;
            if (same >= 6) resolve(JSON.parse(now));
            else requestAnimationFrame(tick);
          };
          requestAnimationFrame(tick);
        }),
      [w, kind],
    );
    VIEWS.forEach((v, i) => out[v].push(hs[i]));
    if (w % 160 === 0) console.error(`${path} ${w} px: ${hs.join(' ')}`);
  }
  await p.close();
  return out;
}

/** Steps [[fromWidth, height], ...]: regions whose heights vary by less than `tol` px share the
 * region's largest height; between two samples the larger of the two holds (an upper bound). */
export function steps(hs, tol = 40, slack = 16) {
  const upper = hs.map((h, i) => Math.max(h, hs[i + 1] ?? h));
  const out = [];
  let from = 0;
  let hi = upper[0];
  let lo = upper[0];
  for (let i = 1; i <= upper.length; i++) {
    const h = upper[i];
    if (i < upper.length && Math.max(hi, h) - Math.min(lo, h) < tol) {
      hi = Math.max(hi, h);
      lo = Math.min(lo, h);
      continue;
    }
    out.push([from === 0 ? 0 : widths[from], hi + slack]);
    from = i;
    hi = h;
    lo = h;
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const srv = await serve({
    pages: Object.fromEntries(
      FONTS.flatMap((f, i) => ['element', 'iframe'].map((k) => [`/${k}-${i}.html`, page(f, k)])),
    ),
  });
  const browser = await launch();
  const ctx = await browser.newContext({ viewport: { width: 1400, height: 900 }, serviceWorkers: 'block' });
  const table = { element: {}, iframe: {} };
  for (const kind of ['element', 'iframe']) {
    const runs = [];
    for (let i = 0; i < (kind === 'element' ? FONTS.length : 1); i++)
      runs.push(await measure(ctx, srv, `/${kind}-${i}.html`, kind));
    for (const v of VIEWS) {
      const worst = widths.map((_, j) => Math.max(...runs.map((r) => r[v][j])));
      // A first load keeps the layout pass's height (app.js hold(): the stand-in's numbers are as
      // wide as a float32 gets) until the width changes, which this resizing run does not see:
      // a first load at a 358 px column measured up to 22 px more in a frame than this run.
      table[kind][v] = steps(worst, 40, kind === 'iframe' ? 32 : 16);
    }
  }
  await browser.close();
  srv.close();
  const head = `// Written by tools/embed_heights.js (embed-heights.js says what the steps are). Do not edit by hand.
// biome-ignore format: one table
`;
  for (const [kind, name] of [
    ['element', 'ELEMENT'],
    ['iframe', 'IFRAME'],
  ])
    writeFileSync(
      new URL(`../web/src/embed-heights-${kind}.js`, import.meta.url),
      `${head}export const ${name} = ${JSON.stringify(table[kind])};\n`,
    );
  console.log(JSON.stringify(table, null, 1));
}
