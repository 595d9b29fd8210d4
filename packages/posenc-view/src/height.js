// The height an embed reserves, as the package's components ask for it. Today's tables are per
// view (web/src/embed-heights-*.js); `params` (the embed's state) is taken so the components pass
// it already, for heights that depend on the settings.
import { heightAt, heightCss } from '../../../web/src/embed-heights.js';
import { ELEMENT } from '../../../web/src/embed-heights-element.js';
import { IFRAME } from '../../../web/src/embed-heights-iframe.js';

const TABLES = { element: ELEMENT, iframe: IFRAME };

function steps(view, embed) {
  const table = TABLES[embed];
  if (!table) throw new Error(`posenc-view: embed must be 'element' or 'iframe' (got ${JSON.stringify(embed)})`);
  if (!Object.hasOwn(table, view))
    throw new Error(`posenc-view: unknown view ${JSON.stringify(view)} (one of: ${Object.keys(table).join(', ')})`);
  return table[view];
}

/** The height (px) the embed takes in a column `width` px wide. */
export function embedHeight({ view, embed = 'element', params: _params = {}, width }) {
  if (!(Number.isFinite(width) && width > 0))
    throw new Error(`posenc-view: width must be a positive number of px (got ${JSON.stringify(width)})`);
  return heightAt(steps(view, embed), width);
}

/** The same height as a CSS length of the column's width (`100cqw` inside a size container),
 * for markup written before anyone knows the width (server rendering, static sites). */
export function embedHeightCss({ view, embed = 'element', params: _params = {} }) {
  return heightCss(steps(view, embed), '100cqw');
}
