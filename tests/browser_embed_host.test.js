// posenc-embed.js and the host page: only frames from an origin the page registered are resized (a
// cross-origin "ad" frame posting { type: 'posenc:height' } is ignored, whatever its link says), and a frame with
// theme=auto follows the host page's own dark-mode switch (a `dark` class or data-theme on <html>),
// canvases included.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { frames, launch, rendered, serve, skip } from './browser_embed_harness.js';

const AD = `<!doctype html><html><body><script>parent.postMessage({ type: 'posenc:height', height: 20000, tag: location.search ? 'ad-embed' : 'ad' }, '*');</script></body></html>`;
let browser, srv, ads;
before(async () => {
  if (skip) return;
  browser = await launch();
  // The ads' server also serves the built page: a posenc deployment on a second origin.
  ads = await serve({ pages: { '/ad.html': AD } });
  const post = (body) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>post</title>
<style>iframe { width: 100%; border: 0; display: block; } html.dark { background: #111; }</style></head><body>${body}</body></html>`;
  srv = await serve({
    pages: {
      // The helper first, then the page's own listener: both see each message in that order, so
      // when the page has seen the ad's message the helper has already handled it. The second ad
      // carries posenc's own link keys (embed=1, view=): a link is no credential.
      '/post.html': post(`<iframe id="ad" title="ad" src="${ads.origin}/ad.html" height="250"></iframe>
        <iframe id="same" title="same" src="${ads.origin}/ad.html?embed=1&view=heatmap" height="250"></iframe>
        <iframe id="f" title="posenc" src="/?embed=1&view=heatmap&dim=32&length=48"></iframe>
        <script src="/posenc-embed.js"></script>
        <script>window.seen = []; addEventListener('message', (e) => seen.push(e.data?.tag ?? e.data?.type));</script>`),
      // posenc served from a second origin the page registers (data-origins), the helper from this one.
      '/other.html':
        post(`<iframe id="g" title="posenc" src="${ads.origin}/?embed=1&view=heatmap&dim=32&length=48" height="250"></iframe>
        <script src="/posenc-embed.js" data-origins="${ads.origin}"></script>`),
      '/element.html': post(`<posenc-view id="e" view="heatmap" dim="32" length="48"></posenc-view>
        <posenc-view id="l" view="heatmap" dim="32" length="48" theme="light"></posenc-view>
        <posenc-view id="t" view="waves" dim="32" length="48" background="transparent"></posenc-view>
        <posenc-view id="c" view="waves" dim="32" length="48" background="#faf8f1"></posenc-view>
        <posenc-view id="x" view="waves" dim="32" length="48" background="url(/x.png)"></posenc-view>
        <iframe id="f" title="posenc" src="/?embed=1&view=waves&dim=32&length=48&background=%23faf8f1"></iframe>
        <script src="/posenc-embed.js"></script><script type="module" src="/posenc-view.js"></script>`),
    },
  });
});
after(async () => {
  await browser?.close();
  srv?.close();
  ads?.close();
});

test('posenc-embed.js resizes posenc frames only: messages from other frames are ignored', { skip }, async () => {
  const ctx = await browser.newContext({ serviceWorkers: 'block' });
  const page = await ctx.newPage();
  await page.goto(`${srv.origin}/post.html`);
  await page.waitForFunction(
    () =>
      seen.includes('ad') &&
      seen.includes('ad-embed') &&
      Number(document.getElementById('f').dataset.posencHeight) > 200,
    null,
    { timeout: 60000 },
  );
  const h = await page.evaluate(() =>
    Object.fromEntries(
      ['ad', 'same', 'f'].map((id) => [id, document.getElementById(id).getBoundingClientRect().height]),
    ),
  );
  assert.equal(h.ad, 250, 'the cross-origin ad frame keeps its height');
  assert.equal(h.same, 250, 'a cross-origin frame whose link carries embed=1 keeps its height');
  assert.ok(h.f > 200, `the posenc frame is sized (${h.f}px)`);
  await ctx.close();
});

test('posenc-embed.js resizes frames from an origin the page registered with data-origins', { skip }, async () => {
  const ctx = await browser.newContext({ serviceWorkers: 'block' });
  const page = await ctx.newPage();
  await page.goto(`${srv.origin}/other.html`);
  await page.waitForFunction(() => Number(document.getElementById('g').dataset.posencHeight) > 200, null, {
    timeout: 60000,
  });
  const h = await page.evaluate(() => document.getElementById('g').getBoundingClientRect().height);
  assert.ok(h > 300, `the frame from the registered origin is sized (${h}px)`);
  // A bad origin is refused by name, not stored as a pattern.
  const err = await page.evaluate(() => {
    try {
      window.posencEmbed.register('javascript:alert(1)');
      return '';
    } catch (e) {
      return e.message;
    }
  });
  assert.match(err, /not an http\(s\) origin/);
  await ctx.close();
});

/** Paper colour and a canvas pixel's luminance inside the posenc frame. */
const look = (frame) =>
  frame.evaluate(() => {
    const c = document.querySelector('.host canvas');
    const g = c.getContext('2d');
    const d = g.getImageData(c.width - 2, 1, 1, 1).data;
    return {
      theme: document.documentElement.dataset.theme,
      paper: getComputedStyle(document.body).backgroundColor,
      lum: 0.2126 * d[0] + 0.7152 * d[1] + 0.0722 * d[2],
    };
  });

test("theme=auto in a frame follows the host page's dark class and data-theme, canvases included", {
  skip,
}, async () => {
  const ctx = await browser.newContext({ serviceWorkers: 'block', colorScheme: 'light' });
  const page = await ctx.newPage();
  await page.goto(`${srv.origin}/post.html`);
  const frame = page.frame({ url: /\/\?embed=1/ }); // the posenc frame, not the ad whose link says embed=1
  await rendered(frame);
  const light = await look(frame);
  await page.evaluate(() => document.documentElement.classList.add('dark'));
  await frame.waitForFunction(() => document.documentElement.dataset.theme === 'dark', null, { timeout: 60000 });
  await frames(frame);
  const dark = await look(frame);
  assert.ok(
    light.lum > 200 && dark.lum < 60,
    `canvas pixel ${light.lum} in light, ${dark.lum} after the host went dark`,
  );
  assert.notEqual(light.paper, dark.paper);
  // data-theme="light" on the host wins over the reader's dark OS.
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.evaluate(() => {
    document.documentElement.classList.remove('dark');
    document.documentElement.dataset.theme = 'light';
  });
  await frame.waitForFunction(() => document.documentElement.dataset.theme === 'light', null, { timeout: 60000 });
  await frames(frame);
  assert.ok((await look(frame)).lum > 200, 'light again under a dark OS');
  await ctx.close();
});

/** Theme, paper and a canvas pixel's luminance inside an element. */
const lookEl = (page, id) =>
  page.evaluate((id) => {
    const el = document.getElementById(id);
    const c = el.shadowRoot.querySelector('.host canvas');
    const d = c.getContext('2d').getImageData(c.width - 2, 1, 1, 1).data;
    return {
      host: el.dataset.hostTheme ?? '',
      paper: getComputedStyle(el.shadowRoot.querySelector('.host')).getPropertyValue('--paper').trim(),
      lum: 0.2126 * d[0] + 0.7152 * d[1] + 0.0722 * d[2],
    };
  }, id);

test("<posenc-view theme=auto> follows the host page's dark class and data-theme and repaints; background matches the blog", {
  skip,
}, async () => {
  const ctx = await browser.newContext({ serviceWorkers: 'block', colorScheme: 'light' });
  const page = await ctx.newPage();
  await page.goto(`${srv.origin}/element.html`);
  await page.waitForFunction(() => [...document.querySelectorAll('posenc-view')].every((e) => e.dataset.ready), null, {
    timeout: 60000,
  });
  const before = await lookEl(page, 'e');
  // The host's dark-mode button: a class on <html>. The element repaints (a render event).
  const repainted = page.evaluate(
    () => new Promise((r) => document.getElementById('e').addEventListener('posenc-render', r, { once: true })),
  );
  await page.evaluate(() => document.documentElement.classList.add('dark'));
  await repainted;
  await frames(page);
  const dark = await lookEl(page, 'e');
  assert.equal(dark.host, 'dark');
  assert.ok(
    before.lum > 200 && dark.lum < 60,
    `canvas pixel ${before.lum} in light, ${dark.lum} after the host went dark`,
  );
  assert.ok((await lookEl(page, 'l')).lum > 200, 'theme="light" stays light');
  // data-theme="light" under a dark OS: light.
  await page.emulateMedia({ colorScheme: 'dark' });
  const again = page.evaluate(
    () => new Promise((r) => document.getElementById('e').addEventListener('posenc-render', r, { once: true })),
  );
  await page.evaluate(() => {
    document.documentElement.classList.remove('dark');
    document.documentElement.dataset.theme = 'light';
  });
  await again;
  await frames(page);
  assert.ok((await lookEl(page, 'e')).lum > 200, 'light again under a dark OS');
  // background: transparent or a colour; anything else is ignored.
  assert.equal((await lookEl(page, 't')).paper, 'transparent');
  assert.equal((await lookEl(page, 'c')).paper, '#faf8f1');
  assert.match((await lookEl(page, 'x')).paper, /^#fff(fff)?$/, 'url() is no background');
  const frame = page.frame({ url: /embed=1/ });
  await rendered(frame);
  assert.equal(await frame.evaluate(() => getComputedStyle(document.body).backgroundColor), 'rgb(250, 248, 241)');
  await ctx.close();
});

test('formula panels below the figure grow with their text: nothing cut off at a 680 or a 358 px column', {
  skip,
  timeout: 300000,
}, async () => {
  const cut = [];
  for (const width of [700, 390]) {
    const ctx = await browser.newContext({ serviceWorkers: 'block', viewport: { width, height: 900 } });
    const page = await ctx.newPage();
    for (const view of ['waves', 'rotation', 'heatmap', 'similarity', 'scaling', 'worked']) {
      await page.goto(`${srv.origin}/?embed=1&view=${view}&method=rope`);
      await rendered(page);
      const over = await page.evaluate(() =>
        [...document.querySelectorAll('.formula')].map((f) => f.scrollHeight - f.clientHeight).filter((d) => d > 1),
      );
      if (over.length) cut.push(`${view} at ${width}px: ${over.join(', ')} px hidden`);
    }
    await ctx.close();
  }
  assert.deepEqual(cut, []);
});

test('sandboxed frames: posenc-embed.js sizes an allow-scripts frame (origin null) and an allow-same-origin one', {
  skip,
}, async () => {
  // An opaque-origin frame fetches its module scripts in CORS mode: the host sends the header.
  const cors = await serve({
    headers: { 'access-control-allow-origin': '*' },
    pages: {
      '/sandbox.html': `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>s</title></head><body>
      <iframe id="a" title="a" sandbox="allow-scripts" src="/?embed=1&view=heatmap&dim=16&length=32" height="100"></iframe>
      <iframe id="b" title="b" sandbox="allow-scripts allow-same-origin" src="/?embed=1&view=waves&dim=16&length=32" height="100"></iframe>
      <script src="/posenc-embed.js"></script></body></html>`,
    },
  });
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  await page.goto(`${cors.origin}/sandbox.html`);
  await page.waitForFunction(
    () => ['a', 'b'].every((id) => Number(document.getElementById(id).dataset.posencHeight) > 200),
    null,
    { timeout: 60000 },
  );
  const b = page.frame({ url: /view=waves/ });
  await rendered(b);
  // allow-same-origin keeps the frame's own origin: its service worker registers.
  await b.waitForFunction(() => document.documentElement.dataset.offline === 'ready', null, { timeout: 60000 });
  await ctx.close();
  cors.close();
});
