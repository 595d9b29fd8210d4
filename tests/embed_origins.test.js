// posenc-embed.js decides which frames are posenc's: those on its own origin and on the absolute
// http(s) origins the page lists (data-origins, posencEmbed.register), never the host page's own
// origin by default (a comments widget or an upload in a same-origin frame would size itself), and
// it leaves alone the height of a frame whose snippet reserved its box (data-posenc-box). Run in
// node:vm with a DOM stand-in small enough to see every message the helper acts on.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import vm from 'node:vm';

const src = readFileSync(new URL('../web/public/posenc-embed.js', import.meta.url), 'utf8');
const PAGE = 'https://blog.example/post/1';
const HELPER = 'https://static.posenc.example/posenc/posenc-embed.js';

const frame = (url, attrs = {}) => ({
  getAttribute: (n) => (n === 'src' ? url : (attrs[n] ?? null)),
  hasAttribute: (n) => n in attrs,
  sandbox: { contains: () => false },
  contentWindow: { postMessage() {} },
  style: {},
  dataset: {},
});

/** The helper loaded into a page holding `frames`, its script tag carrying `origins` (or none). */
function load(origins, frames) {
  const listeners = {};
  const warned = [];
  const ctx = {
    URL,
    console: { warn: (m) => warned.push(m) },
    location: { href: PAGE },
    document: {
      currentScript: { src: HELPER, dataset: origins === undefined ? {} : { origins } },
      querySelectorAll: () => frames,
      documentElement: { getAttribute: () => null, classList: { contains: () => false } },
    },
    getComputedStyle: () => ({ colorScheme: 'normal', boxSizing: 'content-box' }),
    addEventListener: (t, f) => {
      listeners[t] = f;
    },
    MutationObserver: class {
      observe() {}
    },
    matchMedia: () => ({ addEventListener() {} }),
  };
  ctx.window = ctx;
  vm.runInNewContext(src, ctx);
  const post = (f, origin, height = 9000) =>
    listeners.message({ data: { type: 'posenc:height', height }, source: f.contentWindow, origin });
  return { post, warned, api: ctx.window.posencEmbed };
}

test("posenc-embed.js: no data-origins registers only the helper's own origin, not the host page's", () => {
  const posenc = frame('https://static.posenc.example/posenc/?embed=1&view=rotation');
  const widget = frame('https://blog.example/comments/widget.html');
  const { post } = load(undefined, [posenc, widget]);
  post(widget, 'https://blog.example');
  assert.equal(widget.style.height, undefined, 'a frame on the host page origin is not resized');
  post(posenc, 'https://static.posenc.example', 1234);
  assert.equal(posenc.style.height, '1234px', "a frame on the helper's origin is resized");
});

test('posenc-embed.js: data-origins registers absolute http(s) origins only; other entries are ignored by name', () => {
  for (const entry of ['posenc.example', 'null', 'posenc.example/posenc/', '/posenc/', 'javascript:alert(1)']) {
    const widget = frame('https://blog.example/comments/widget.html');
    const other = frame('https://posenc.example/posenc/?embed=1');
    const { post, warned, api } = load(entry, [widget, other]);
    post(widget, 'https://blog.example');
    post(other, 'https://posenc.example');
    assert.equal(widget.style.height, undefined, `data-origins="${entry}" registers the host page origin`);
    assert.equal(other.style.height, undefined, `data-origins="${entry}" registers an origin it does not spell`);
    assert.match(warned.join('\n'), new RegExp(`not an http\\(s\\) origin: ${entry.replace(/[()/.]/g, '\\$&')}`));
    assert.throws(() => api.register(entry), /not an http\(s\) origin/, `register(${JSON.stringify(entry)})`);
  }
  const listed = frame('https://posenc.example/posenc/?embed=1');
  const { post, warned } = load('https://posenc.example https://b.example/', [listed]);
  post(listed, 'https://posenc.example', 800);
  assert.equal(listed.style.height, '800px');
  assert.deepEqual(warned, []);
});

test('posenc-embed.js: a frame whose snippet reserved its box keeps its height; a bare frame is sized', () => {
  const boxed = frame('https://static.posenc.example/posenc/?embed=1&view=bias', { 'data-posenc-box': '' });
  const bare = frame('https://static.posenc.example/posenc/?embed=1&view=bias');
  const { post } = load(undefined, [boxed, bare]);
  post(boxed, 'https://static.posenc.example', 5000);
  post(bare, 'https://static.posenc.example', 5000);
  assert.equal(boxed.style.height, undefined, 'the reserved box is the contract');
  assert.equal(boxed.dataset.posencHeight, '5000', 'its content height is still recorded');
  assert.equal(bare.style.height, '5000px');
});
