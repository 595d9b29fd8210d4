// What an embed is made of, for the package's components (react.js, PosencView.astro,
// PosencFrame.astro) and for anyone writing their own: the same markup as the posenc page's "Copy
// embed code", from the view and its attributes. Bundled into the package as embed.js: it runs in
// Node (server rendering, static builds) and in browsers, and loads no view and no wasm.
import { FIELDS } from '../../../web/src/state.js';
import { VIEW_IDS, VIEW_INFO } from '../../../web/src/views/registry.js';
import { embedHeight, embedHeightCss } from './height.js';

export { embedHeight, embedHeightCss };

/** Every attribute <posenc-view> reads (the page's URL keys but the page-only `embed`, plus `background`). */
export const ATTRIBUTES = [...Object.keys(FIELDS).filter((k) => k !== 'embed'), 'background'];
/** Every view, in the page's tab order. */
export const VIEWS = VIEW_IDS;

/** `attrs` as the element's attributes: strings, in the order given; an unknown name or a value
 * that is not a string, number or boolean is refused by name. */
function attributes(attrs) {
  const out = [];
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (!ATTRIBUTES.includes(k))
      throw new Error(`posenc-view: unknown attribute ${JSON.stringify(k)} (one of: ${ATTRIBUTES.join(', ')})`);
    if (!['string', 'number', 'boolean'].includes(typeof v))
      throw new Error(`posenc-view: attribute ${k} must be a string or a number (got ${typeof v})`);
    out.push([k, String(v)]);
  }
  return out;
}

/**
 * The parts of one embed: `embed` 'element' (<posenc-view>) or 'iframe' (the posenc page's embed
 * mode, served from `page`). `page`: the posenc page's folder URL (ending in '/'), where the
 * fallback link (and the iframe) point. Returns { view, attrs: [[name, value]], title, fallback,
 * link, height (a CSS length of the column's width), frameSrc, frameHeight (px at a 680 px
 * column, the iframe's height attribute) }.
 */
export function posencEmbed({ view = 'heatmap', embed = 'element', page = '/posenc/', ...rest }) {
  if (!VIEWS.includes(view))
    throw new Error(`posenc-view: unknown view ${JSON.stringify(view)} (one of: ${VIEWS.join(', ')})`);
  if (typeof page !== 'string' || !page.endsWith('/'))
    throw new Error(
      `posenc-view: page must be the posenc page's folder URL, ending in '/' (got ${JSON.stringify(page)})`,
    );
  const attrs = [['view', view], ...attributes(rest)];
  // a view of many panels embeds one unless asked (web/src/embed-code.js keysOf: the same rule)
  const panels = VIEW_INFO[view].panels ?? [];
  if (panels.length && !attrs.some(([k]) => k === 'panel'))
    attrs.push(['panel', (panels.find((x) => x.id === rest.method) ?? panels[0]).id]);
  const params = Object.fromEntries(attrs);
  const q = new URLSearchParams(attrs).toString();
  const title = `posenc: ${VIEW_INFO[view].title}`;
  return {
    view,
    attrs,
    title,
    fallback: `${title} (interactive)`,
    link: `${page}?${q}`,
    height: embedHeightCss({ view, embed, params }),
    frameSrc: `${page}?embed=1&${q}`,
    frameHeight: embed === 'iframe' ? embedHeight({ view, embed, params, width: 680 }) : 0,
  };
}
