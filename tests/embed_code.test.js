// The embed snippets (web/src/embed-code.js) and the boxes they carry (web/src/embed-heights*.js),
// without a browser: every view has steps for both kinds, embedHeight is a pure function of the
// state and the column width that refuses bad input by name, the CSS rule computes the same height
// at every width (the rule is evaluated here as arithmetic), a state's text is escaped in the
// markup, and docs/embedding.md's snippets are the button's.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { DOCS_BASE, DOCS_STATE, embedCode } from '../web/src/embed-code.js';
import {
  embedHeight,
  embedHeightCss,
  embedSteps,
  heightAt,
  heightCss,
  NARROW,
  WALL,
} from '../web/src/embed-heights.js';
import { ELEMENT } from '../web/src/embed-heights-element.js';
import { IFRAME } from '../web/src/embed-heights-iframe.js';

const HEIGHTS = { element: ELEMENT, iframe: IFRAME };
import { VIEW_INFO } from '../web/src/views/registry.js';

/** Evaluate a heightCss() rule at column width w (px): calc/clamp/px as JS arithmetic. */
function evalCss(rule, w) {
  const js = rule
    .replaceAll('100cqw', `${w}`)
    .replaceAll('calc(', '(')
    .replaceAll('clamp(', 'clamp(')
    .replace(/(-?\d+(?:\.\d+)?)px/g, '$1');
  assert.match(js, /^[\d\s+\-*(),.clamp]+$/, `unexpected rule ${rule}`);
  const clamp = (a, b, c) => Math.min(Math.max(a, b), c);
  return Function('clamp', `return ${js};`)(clamp);
}

test('every view has height steps for the element and the iframe, from width 0, growing widths', () => {
  for (const kind of ['element', 'iframe'])
    for (const view of Object.keys(VIEW_INFO)) {
      const s = HEIGHTS[kind][view];
      assert.ok(Array.isArray(s) && s.length > 0, `${kind} ${view} has no steps`);
      assert.equal(s[0][0], 0, `${kind} ${view} starts at width 0`);
      for (let i = 1; i < s.length; i++) assert.ok(s[i][0] > s[i - 1][0], `${kind} ${view} widths grow`);
      for (const [, h] of s) assert.ok(Number.isInteger(h) && h > 200 && h < 10000, `${kind} ${view} height ${h}`);
    }
});

test('the CSS rule is the step function: the same height as heightAt at every width 300..1400', () => {
  for (const kind of ['element', 'iframe'])
    for (const view of Object.keys(HEIGHTS[kind])) {
      const rule = heightCss(HEIGHTS[kind][view]);
      const breaks = HEIGHTS[kind][view].map(([w]) => w);
      for (let w = 300; w <= 1400; w += 1) {
        if (breaks.some((b) => w > b - 1 && w < b)) continue; // inside a ramp (1/1000 px wide)
        assert.equal(
          Math.round(evalCss(rule, w)),
          heightAt(HEIGHTS[kind][view], w),
          `${kind} ${view} at ${w} px: ${rule}`,
        );
      }
    }
});

test('snippets: the view, its height rule, a fallback link; hostile state text escaped', () => {
  const code = embedCode(
    { view: 'shuffle', sentence: '<img src=x onerror=alert(1)> "q" </posenc-view><script>' },
    'https://h.example/posenc/',
  );
  for (const s of [code.iframe, code.element]) {
    assert.doesNotMatch(s, /<img|<script>|"q"/);
    assert.match(s, /container-type:inline-size/);
    assert.match(s, /<a href="https:\/\/h\.example\/posenc\/\?view=shuffle&#38;sentence=/);
  }
  assert.match(code.element, /<posenc-view view="shuffle" sentence="&#60;img/);
  assert.match(code.element, /;height:calc\(\d+px \+ clamp/);
  assert.match(code.iframe, /<iframe src="https:\/\/h\.example\/posenc\/\?embed=1&#38;view=shuffle/);
  assert.match(code.iframe, /height="\d+"[^>]* data-posenc-box style="display:block;width:100%;border:0;height:calc\(/);
  assert.equal((code.element.match(/<\/posenc-view>/g) ?? []).length, 1, 'the element closes once');
});

const STATES = [
  ['rotation', {}],
  ['rotation', { controls: 'own' }],
  ['heatmap', { method: 'alibi', dim: '1024', length: '4096' }],
  ['bias', { panel: 't5' }],
  ['bias', {}],
  ['shuffle', { sentence: 'the quick brown fox jumps over the lazy dog', causal: '1' }],
  ['scaling', { scaling: 'yarn', factor: '64', controls: 'own' }],
];

test('embedHeight: the box of a state at a column width, a pure function; its CSS is the same function', () => {
  for (const embed of ['element', 'iframe'])
    for (const [view, params] of STATES) {
      const rule = embedHeightCss({ view, embed, params });
      const breaks = embedSteps({ view, embed, params }).map(([w]) => w);
      for (let w = 240; w <= 1400; w += 1) {
        if (breaks.some((b) => w > b - 1 && w < b)) continue;
        const h = embedHeight({ view, embed, params, width: w });
        assert.equal(Math.round(evalCss(rule, w)), h, `${embed} ${view} ${JSON.stringify(params)} at ${w} px`);
        assert.ok(h >= 120, `${embed} ${view} at ${w}: ${h}`);
        if (w < NARROW) assert.ok(h <= WALL, `${embed} ${view} at ${w} px: ${h} > ${WALL} (a wall)`);
      }
    }
});

test('embedHeight: the state counts (controls=own, the largest sizes, one panel), trims do not', () => {
  const at = (view, params, width = 1000, embed = 'element') => embedHeight({ view, embed, params, width });
  assert.ok(at('rotation', { controls: 'own' }) > at('rotation', {}), 'controls=own reserves its controls');
  assert.ok(at('bias', { panel: 'alibi' }) < at('bias', {}), 'one panel is shorter than three');
  assert.equal(at('rotation', { theme: 'dark', hide: 'title', background: 'transparent' }), at('rotation', {}));
  assert.ok(at('heatmap', { method: 'alibi' }) >= at('heatmap', {}));
});

test('embedHeight refuses what it cannot size, by name', () => {
  assert.throws(() => embedHeight({ view: 'nope', embed: 'element', width: 400 }), /unknown view "nope"/);
  assert.throws(
    () => embedHeight({ view: 'rotation', embed: 'frame', width: 400 }),
    /embed must be 'element' or 'iframe'/,
  );
  for (const width of [undefined, 0, -5, Number.NaN, '400'])
    assert.throws(() => embedHeight({ view: 'rotation', embed: 'iframe', width }), /width must be a column width/);
});

test('the button embeds one panel of a many-panel view unless the state names one; at default settings no box at 320-414 px is a wall', () => {
  assert.match(embedCode({ view: 'bias' }, '/').element, /<posenc-view view="bias" panel="alibi"/);
  assert.match(embedCode({ view: 'bias', panel: 'shaw' }, '/').element, /panel="shaw"/);
  for (const view of Object.keys(VIEW_INFO))
    for (const embed of ['element', 'iframe']) {
      const params = Object.fromEntries(new URLSearchParams(embedCode({ view }, '/').link.split('?')[1]));
      for (const width of [288, 310, 328, 358, 382, 414])
        assert.ok(embedHeight({ view, embed, params, width }) <= WALL, `${embed} ${view} at ${width}`);
    }
});

test("docs/embedding.md's snippets are what the button writes (node tools/embed_docs.js rewrites them)", () => {
  const md = readFileSync(new URL('../docs/embedding.md', import.meta.url), 'utf8');
  const code = embedCode(DOCS_STATE, DOCS_BASE);
  for (const kind of ['iframe', 'element']) {
    const m = md.match(new RegExp(`<!-- snippet:${kind} -->\n\`\`\`html\n([\\s\\S]*?)\n\`\`\``));
    assert.ok(m, `docs/embedding.md has no snippet:${kind} block`);
    assert.equal(m[1], code[kind], `docs/embedding.md's ${kind} snippet is stale: node tools/embed_docs.js`);
  }
});
