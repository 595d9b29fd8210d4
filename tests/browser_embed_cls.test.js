// The box is the contract. Every view, as the page's "Copy embed code" writes it (embed-code.js:
// the element and the iframe, each with its box and fallback link), in a post on a slow first
// load (every posenc file held back until the post has painted), at the settings a blogger picks
// (the default, controls=own, another method, the largest sizes: tools/embed_settings.js probes),
// under the three font sets build.sh installs (DejaVu, Liberation, Noto: the host's font-family
// and the embed page's forced per run) and host font sizes from 14 to 22 px. Checked: each embed
// is, from the first paint to its first real render (every animation frame), exactly the height
// embedHeight() gives for its state and column (embed-heights.js), so it never moves; and the
// layout shift a reader sees, at the top or scrolled below the embeds, stays under 0.01. One
// browser walks every run; the full sweep (every width, font, setting, reader) is
// tools/embed_cls.js.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { embedCode } from '../web/src/embed-code.js';
import { launch, serve, skip } from './browser_embed_harness.js';
import { offBox, post, RUNS, runPost, settingsOf, VIEWS } from './browser_embed_post.js';

let browser;
before(async () => {
  if (skip) return;
  browser = await launch();
});
after(() => browser?.close());

for (const run of RUNS) {
  const { width, font, size, reader } = run;
  test(`every view, element and iframe, ${width} px, ${font}, ${size} px text, reader ${reader}: each embed is its box from first paint; CLS < 0.01`, {
    skip,
    timeout: 400000,
  }, async (t) => {
    const r = await runPost(browser, run);
    const bad = offBox(r);
    t.diagnostic(
      `CLS ${r.cls.toFixed(4)}, column ${r.column} px; settings ${JSON.stringify(r.cases.filter((c) => c.kind === 'element').map((c) => [c.view, c.params]))}`,
    );
    if (r.cls) t.diagnostic(`layout shifts (value, sources): ${JSON.stringify(r.shifts)}`);
    assert.deepEqual(r.errors, []);
    assert.deepEqual(bad, [], 'embeds whose height was not their box (name, heights first..last, box)');
    assert.ok(r.cls < 0.01, `CLS ${r.cls} at ${width} px`);
  });
}

test('the runs cover every view at the default, controls=own, another method and the largest sizes, both embeds, three fonts', () => {
  const seen = new Set();
  for (const run of RUNS) for (const c of post(run).cases) seen.add(`${c.view} ${c.setting}`);
  for (const v of VIEWS)
    for (const s of settingsOf(v).map((x) => x.name)) assert.ok(seen.has(`${v} ${s}`), `${v} at ${s} is in no run`);
  assert.deepEqual(new Set(RUNS.map((r) => r.font)).size, 3);
  assert.ok(Math.min(...RUNS.map((r) => r.size)) <= 14 && Math.max(...RUNS.map((r) => r.size)) >= 22);
  // and the snippet a run carries is the button's
  assert.match(embedCode({ view: 'rotation', controls: 'own' }, '/').element, /controls="own"/);
});

test('the Shuffle lab element draws a sentence of one long word (ellipsized on the axes, never markup)', {
  skip,
  timeout: 120000,
}, async () => {
  const sentences = ['javascript:window.__pwn=4', 'A'.repeat(120), '<img src=/x-img onerror="window.__pwn=1">'];
  const esc = (s) => s.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');
  // a blog's column and a phone's
  const html = `<!doctype html><meta charset=utf-8><body style="margin:0">${[680, 288]
    .map(
      (w) =>
        `<div style="width:${w}px">${sentences.map((s) => `<posenc-view view="shuffle" sentence="${esc(s)}"></posenc-view>`).join('')}</div>`,
    )
    .join('')}<script type=module src="/posenc-view.js"></script>`;
  const srv = await serve({ pages: { '/long.html': html } });
  const ctx = await browser.newContext({ viewport: { width: 800, height: 900 } });
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  try {
    await page.goto(`${srv.origin}/long.html`);
    await page.waitForFunction(
      () => [...document.querySelectorAll('posenc-view')].every((e) => e.dataset.ready || e.dataset.error),
      null,
      {
        timeout: 100000,
      },
    );
    const seen = await page.evaluate(() =>
      [...document.querySelectorAll('posenc-view')].map((e) => ({
        notes: [...e.shadowRoot.querySelectorAll('.error, .unavailable')].map((n) => n.textContent),
        canvases: [...e.shadowRoot.querySelectorAll('.mats canvas')].map((c) => [c.width, c.height, c.dataset.yticks]),
        injected: e.shadowRoot.querySelectorAll('.mats img, .tokens img').length,
      })),
    );
    for (const [i, s] of seen.entries()) {
      assert.deepEqual(s.notes, [], `sentence ${JSON.stringify(sentences[i % 3])}: a note instead of the figure`);
      assert.ok(s.canvases.length >= 2 && s.canvases.every(([w, h]) => w > 0 && h > 0), JSON.stringify(s.canvases));
      assert.equal(s.injected, 0);
    }
    assert.equal(await page.evaluate(() => globalThis.__pwn), undefined);
    assert.deepEqual(errors, []);
  } finally {
    await ctx.close();
    srv.close();
  }
});
