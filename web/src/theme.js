// Every colour a view paints comes from the page's CSS custom properties, read at render time from
// the view's host element, so a theme change (light, dark, a blog's own palette) reaches canvases
// too. The fallbacks are only for a host that defines none of the properties (style.css always
// does): readable colours, not a copy of the light theme.
const FALLBACK = {
  ink: '#1d2330',
  muted: '#5b6475',
  line: '#d9dee7',
  paper: '#ffffff',
  bg: '#f5f6f8',
  accent: '#0b62a4',
  good: '#116b3a',
  bad: '#a4410b',
  mask: '#c8c8c8',
  focus: '#e69f00',
  'pal-neg': '#2166ac',
  'pal-mid': '#f7f7f7',
  'pal-pos': '#b35806',
  'series-1': '#0072B2',
  'series-2': '#D55E00',
  'series-3': '#009E73',
  'series-4': '#CC79A7',
  'series-5': '#E69F00',
  'series-6': '#56B4E9',
  'series-7': '#000000',
  'series-8': '#F0E442',
};

// Read once per task and theme host: a view paints several panels per render, and each
// getComputedStyle read after a DOM change forces a style recalculation (measured at ~20 ms a frame
// over the shuffle lab's six figures). The cache is dropped at the end of the task, so a theme
// change is seen by the next render.
let cache = null;
/**
 * The theme as plain colour strings: { ink, muted, line, paper, bg, accent, good, bad, mask,
 * focus, palNeg, palMid, palPos, series: [8 colours], key }; `key` changes whenever any colour does.
 */
export function readTheme(el) {
  // The nearest ancestor carrying a theme (the app root sets data-theme; inside <posenc-view> it
  // is in the shadow root): views under different hosts may differ.
  const host = el?.closest?.('[data-theme]') ?? null;
  const root = el?.getRootNode?.() ?? null;
  if (cache && cache.root === root && cache.host === host) return cache.t;
  const t = readNow(el);
  if (!cache) queueMicrotask(() => (cache = null));
  cache = { root, host, t };
  return t;
}

function readNow(el) {
  const cs = el && typeof getComputedStyle === 'function' ? getComputedStyle(el) : null;
  const get = (name) => cs?.getPropertyValue(`--${name}`).trim() || FALLBACK[name];
  const t = {
    ink: get('ink'),
    muted: get('muted'),
    line: get('line'),
    paper: get('paper'),
    bg: get('bg'),
    accent: get('accent'),
    good: get('good'),
    bad: get('bad'),
    mask: get('mask'),
    focus: get('focus'),
    palNeg: get('pal-neg'),
    palMid: get('pal-mid'),
    palPos: get('pal-pos'),
    series: Array.from({ length: 8 }, (_, i) => get(`series-${i + 1}`)),
  };
  t.key = JSON.stringify(t); // every colour above, the series included: the caches' key
  return t;
}

/** [r, g, b] of any CSS colour string (hex, rgb(), named), through a 1-pixel canvas. */
const rgbCache = new Map();
export function toRgb(colour) {
  if (rgbCache.has(colour)) return rgbCache.get(colour);
  let out = [128, 128, 128];
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(colour);
  if (m) {
    const h = m[1].length === 3 ? [...m[1]].map((c) => c + c).join('') : m[1];
    out = [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16));
  } else if (typeof OffscreenCanvas !== 'undefined' || typeof document !== 'undefined') {
    const c =
      typeof OffscreenCanvas !== 'undefined'
        ? new OffscreenCanvas(1, 1)
        : Object.assign(document.createElement('canvas'), { width: 1, height: 1 });
    const g = c.getContext('2d');
    g.fillStyle = colour;
    g.fillRect(0, 0, 1, 1);
    out = [...g.getImageData(0, 0, 1, 1).data.slice(0, 3)];
  }
  rgbCache.set(colour, out);
  return out;
}

/**
 * The host page's own theme, where it shows one on <html>: a `dark` or `light` class, a data-theme
 * of dark or light, else a color-scheme of only dark or only light; 'auto' when it shows none
 * (the reader's prefers-color-scheme then decides). web/public/posenc-embed.js applies the same
 * rule for iframes.
 */
export function hostTheme(doc = globalThis.document) {
  const h = doc?.documentElement;
  if (!h) return 'auto';
  const t = (h.getAttribute('data-theme') ?? '').toLowerCase();
  if (h.classList.contains('dark') || t === 'dark') return 'dark';
  if (h.classList.contains('light') || t === 'light') return 'light';
  const cs = (getComputedStyle(h).colorScheme ?? '').trim().split(/\s+/);
  return cs.length === 1 && (cs[0] === 'dark' || cs[0] === 'light') ? cs[0] : 'auto';
}

/**
 * A `background` option (URL key or element attribute) as a CSS colour, or '' when it is none:
 * `transparent`, a hex colour, a colour function (rgb(), hsl(), oklch(), ...) or a colour name. No
 * var(), url() or anything the browser does not parse as a colour.
 */
export function backgroundOf(value) {
  const v = String(value ?? '')
    .trim()
    .toLowerCase();
  if (!v || v.length > 64) return '';
  if (!/^(#[0-9a-f]{3,8}|(rgba?|hsla?|hwb|lab|lch|oklab|oklch)\([\d\s.,%/+-]*\)|[a-z]+)$/.test(v)) return '';
  return globalThis.CSS?.supports?.('color', v) ? v : '';
}
