// The embed snippets (web/src/embed-code.js) and the height table they carry (web/src/embed-heights*.js),
// without a browser: every view has steps for both kinds, the CSS rule computes the same height as
// heightAt at every width (the rule is evaluated here as arithmetic), and a state's text is
// escaped in the markup.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { embedCode } from '../web/src/embed-code.js';
import { heightAt, heightCss } from '../web/src/embed-heights.js';
import { ELEMENT } from '../web/src/embed-heights-element.js';
import { IFRAME } from '../web/src/embed-heights-iframe.js';

const HEIGHTS = { element: ELEMENT, iframe: IFRAME };
import { VIEW_INFO } from '../web/src/views/info.js';

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
  assert.match(code.element, /min-height:calc\(\d+px \+ clamp/);
  assert.match(code.iframe, /<iframe src="https:\/\/h\.example\/posenc\/\?embed=1&#38;view=shuffle/);
  assert.match(code.iframe, /height="\d+"[^>]* style="display:block;width:100%;border:0;height:calc\(/);
  assert.equal((code.element.match(/<\/posenc-view>/g) ?? []).length, 1, 'the element closes once');
});
