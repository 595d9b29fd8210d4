// The height an embedded view takes, as a function of its column width alone, so a post can
// reserve it before any posenc script runs and nothing moves when the view arrives. The tables
// (embed-heights-element.js for <posenc-view>, embed-heights-iframe.js for the embed page, apart so
// each embed loads only its own) hold per view steps [fromWidth, height] (px): from that width on
// (up to the next step's) the view is at most that tall. Measured in headless Chromium at every
// 8 px of column width from 256 to 1280, two host fonts, method=rope dim=32, with a margin for a
// first load's layout pass (tools/embed_heights.js writes the tables; tests/embed_code.test.js and
// tests/browser_embed_cls.test.js check them). The element holds that height as its min-height,
// the embed page its document's: the view's own layout steps at its breakpoints, the held height
// steps with it. Other settings can make a view taller: it then grows.
//
// The same function is written in CSS (heightCss): a sum of steep clamp() ramps in container
// width units, so an inline style (the snippet's) reserves it with no script and no media query.

/** Usable steps, or null. */
const valid = (s) => (Array.isArray(s) && s.length ? s : null);

/** The reserved height (px) at column width `w` for `steps` (a table's entry), or 0 without. */
export function heightAt(steps, w) {
  const s = valid(steps);
  if (!s) return 0;
  let h = s[0][1];
  for (const [from, height] of s) if (w >= from) h = height;
  return h;
}

/**
 * The same function as a CSS length of `width` (a CSS length: '100cqw' inside a size container,
 * '100vw' in the embed page): the last step's height plus, for each breakpoint, a ramp 1/1000 px
 * wide that adds the height difference below it. '' without steps.
 */
export function heightCss(steps, width = '100cqw') {
  const s = valid(steps);
  if (!s) return '';
  const last = s[s.length - 1][1];
  const terms = [];
  for (let i = 1; i < s.length; i++) {
    const d = s[i - 1][1] - s[i][1]; // what the height below this breakpoint adds
    const at = s[i][0];
    if (d > 0) terms.push(`clamp(0px, (${at}px - ${width}) * 1000, ${d}px)`);
    else if (d < 0) terms.push(`clamp(${d}px, (${width} - ${at}px) * 1000, 0px)`);
  }
  return terms.length ? `calc(${last}px + ${terms.join(' + ')})` : `${last}px`;
}
