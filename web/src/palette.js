// Colour maps as 256-entry lookup tables of packed RGBA (little-endian ABGR words), so painting a
// pixel is one table read and one 32-bit store. Every default is colour-blind safe: the diverging
// map runs blue - white - orange (distinct for all three common dichromacies), viridis and cividis
// are perceptually uniform and readable in greyscale. Line colours are Okabe-Ito.

const STOPS = {
  bo: ['#2166ac', '#67a9cf', '#d1e5f0', '#f7f7f7', '#fee0b6', '#f1a340', '#b35806'],
  viridis: ['#440154', '#482878', '#3e4989', '#31688e', '#26828e', '#1f9e89', '#35b779', '#6ece58', '#b5de2b', '#fde725'],
  cividis: ['#00224e', '#123570', '#3b496c', '#575d6d', '#707173', '#8a8779', '#a69d75', '#c4b56c', '#e4cf5b', '#fee838'],
  gray: ['#111111', '#f4f4f4'],
  // cyclic (twilight-like): an angle of 2π looks like 0
  twilight: ['#e2d9e2', '#a3bccd', '#6381be', '#5d479c', '#3b1f52', '#6b2347', '#a85050', '#c99475', '#e2d9e2'],
};
export const LINE_COLOURS = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000', '#F0E442'];
/** Colour for masked cells (-Infinity bias, undefined learned rows). */
export const MASK_RGB = [200, 200, 200];

const hex = (h) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16));
const cache = new Map();

/** 256 packed colours for palette `name`; index 256 is the mask colour. */
export function lut(name) {
  if (cache.has(name)) return cache.get(name);
  const stops = (STOPS[name] ?? STOPS.bo).map(hex);
  const out = new Uint32Array(257);
  for (let i = 0; i < 256; i++) {
    const t = (i / 255) * (stops.length - 1);
    const k = Math.min(stops.length - 2, Math.floor(t));
    const f = t - k;
    const [r, g, b] = [0, 1, 2].map((c) => Math.round(stops[k][c] + (stops[k + 1][c] - stops[k][c]) * f));
    out[i] = (255 << 24) | (b << 16) | (g << 8) | r;
  }
  const [r, g, b] = MASK_RGB;
  out[256] = (255 << 24) | (b << 16) | (g << 8) | r;
  cache.set(name, out);
  return out;
}

/** CSS gradient for a legend bar. */
export function gradientCss(name) {
  const stops = STOPS[name] ?? STOPS.bo;
  return `linear-gradient(to right, ${stops.join(', ')})`;
}
