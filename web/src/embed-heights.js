// The box is the contract: an embed's height is decided before any posenc script runs, from the
// state in its snippet and its column width alone (embedHeight), and the view lays itself out
// inside that box (element.js and the embed page hold it as a fixed height, contain: size, with
// their own scroll for what does not fit): nothing on the host page moves, whatever its fonts,
// font size or line height, or the settings.
//
// The heights come from measurements: per view steps [fromWidth, height] (px) at the view's
// default state (tools/embed_heights.js writes embed-heights-element.js for <posenc-view> and
// embed-heights-iframe.js for the embed page), and per view what other states add or take away
// (tools/embed_settings.js writes embed-heights-settings.js: the view's own controls, another
// method, the largest sizes, one panel) in a narrow column (below NARROW px) and a wide one. Below
// NARROW px no box is taller than WALL px (two phone screens): a taller view scrolls inside its box.
// The arithmetic is in embed-heights-core.js; this module adds both tables.
//
// The same function is written in CSS (heightCss): a sum of steep clamp() ramps in container
// width units, so an inline style (the snippet's) reserves it with no script and no media query.
import { heightCss, heightAt, stepsFor } from './embed-heights-core.js';
import { ELEMENT } from './embed-heights-element.js';
import { IFRAME } from './embed-heights-iframe.js';

export { heightAt, heightCss, NARROW, WALL } from './embed-heights-core.js';

/** The steps (as heightAt reads them) of one embed: the view's table, its state's extras, the wall. */
export function embedSteps({ view, embed = 'element', params = {} }) {
  if (embed !== 'element' && embed !== 'iframe')
    throw new TypeError(`embedHeight: embed must be 'element' or 'iframe', not ${JSON.stringify(embed)}`);
  return stepsFor(embed === 'iframe' ? IFRAME : ELEMENT, { view, embed, params });
}

/**
 * The reserved height (px) of an embed: `view`, `embed` ('element' or 'iframe'), `params` (the
 * snippet's attributes or URL keys as strings, e.g. { method: 'alibi', controls: 'own' }) and the
 * column `width` (px). A pure function: the same in a build tool, a component and the page.
 */
export function embedHeight({ view, embed = 'element', params = {}, width }) {
  if (!Number.isFinite(width) || width <= 0)
    throw new TypeError(`embedHeight: width must be a column width in px, not ${JSON.stringify(width)}`);
  return heightAt(embedSteps({ view, embed, params }), width);
}

/** embedHeight as a CSS length of the column width `width` (a CSS length, as heightCss). */
export function embedHeightCss({ view, embed = 'element', params = {} }, width = '100cqw') {
  return heightCss(embedSteps({ view, embed, params }), width);
}
