// The full sweep of tests/browser_embed_cls.test.js: every view as element and iframe, at every
// width of the issue (320, 342, 360, 390, 414, 768, 1024, 1280 px), each at its four settings (the
// default, controls=own, another method, the largest sizes), the three font sets, host text from
// 14 to 22 px, the reader at the top and below. Prints, per run, the CLS and any embed whose height
// was not its box; then each view's box and content (px) per width, as markdown tables.
// node tools/embed_cls.js [--every-font] [--other-reader] [width ...]   (about 15 minutes on a
// shared 2-core machine; --every-font runs each width and setting under each font set, three times
// as long; --other-reader puts the reader where the plain sweep does not, at each setting)
import { launch } from '../tests/browser_embed_harness.js';
import { FONTS, offBox, runPost } from '../tests/browser_embed_post.js';

const args = process.argv.slice(2);
const everyFont = args.includes('--every-font');
const otherReader = args.includes('--other-reader');
const given = args.filter((a) => !a.startsWith('--')).map(Number);
const WIDTHS = given.length ? given : [320, 342, 360, 390, 414, 768, 1024, 1280];
const SIZES = [14, 16, 18, 22];
const fonts = Object.keys(FONTS);
/** The runs of one width: each setting shift once, its font rotating; or under every font. */
const runsAt = (width, wi) =>
  Array.from({ length: 4 }, (_, shift) =>
    (everyFont ? fonts : [fonts[(shift + wi) % 3]]).map((font) => ({
      width,
      font,
      size: SIZES[shift],
      reader: (shift % 2 === 1) !== otherReader ? 'below' : 'top',
      shift,
    })),
  ).flat();
const browser = await launch();
const rows = [];
const fits = [];
for (const [wi, width] of WIDTHS.entries())
  for (const run of runsAt(width, wi)) {
    const r = await runPost(browser, run);
    const bad = offBox(r);
    rows.push(
      `| ${width} | ${r.column} | ${run.font} | ${run.size} | ${run.reader} | ${r.cls.toFixed(4)} | ${bad.length} | ${r.errors.length} |`,
    );
    for (const c of r.cases) {
      const name = `${c.kind}-${c.view}`;
      fits.push([width, c.view, c.kind, c.setting, r.heights[name]?.[0], Math.round(r.content[name])]);
    }
    console.error(rows.at(-1), bad.length ? JSON.stringify(bad) : '');
  }
await browser.close();
console.log(
  '| width | column | fonts | text px | reader | CLS | embeds off their box | errors |\n| ---: | ---: | --- | ---: | --- | ---: | ---: | ---: |',
);
console.log(rows.join('\n'));
console.log(
  '\n| width | view | embed | setting | box px | content px | scrolls px |\n| ---: | --- | --- | --- | ---: | ---: | ---: |',
);
for (const [w, v, k, s, box, content] of fits)
  console.log(`| ${w} | ${v} | ${k} | ${s} | ${box} | ${content} | ${Math.max(0, content - box)} |`);
