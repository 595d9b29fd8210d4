// Colour maps as 256-entry lookup tables of packed RGBA (little-endian ABGR words), so painting a
// pixel is one table read and one 32-bit store. Maps are chosen by the kind of quantity drawn:
//   signed    diverging, centred on 0 (blue - neutral - orange, distinct for the common dichromacies;
//             its three stops come from the theme: --pal-neg --pal-mid --pal-pos)
//   onesided  sequential (viridis / cividis, perceptually uniform, readable in greyscale)
//   cyclic    an angle map whose ends meet, with no near-white stretch (every stop is at least
//             ~2:1 against white paper, so no part of a block looks empty)
import { toRgb } from './theme.js';

const STOPS = {
  viridis: [
    '#440154',
    '#482878',
    '#3e4989',
    '#31688e',
    '#26828e',
    '#1f9e89',
    '#35b779',
    '#6ece58',
    '#b5de2b',
    '#fde725',
  ],
  cividis: [
    '#00224e',
    '#123570',
    '#3b496c',
    '#575d6d',
    '#707173',
    '#8a8779',
    '#a69d75',
    '#c4b56c',
    '#e4cf5b',
    '#fee838',
  ],
  gray: ['#111111', '#e8e8e8'],
  cyclic: ['#2e4a9e', '#6a5bc0', '#b064b0', '#d9707a', '#d9904a', '#a9a53c', '#4f9a5a', '#2f7f8f', '#2e4a9e'],
};
/** Which palettes are which kind; the reader's choice applies where it fits the quantity. */
const KIND_DEFAULT = { signed: 'bo', onesided: 'viridis', cyclic: 'cyclic' };
const FITS = { signed: ['bo', 'gray'], onesided: ['viridis', 'cividis', 'gray'], cyclic: ['cyclic'] };
export function paletteFor(kind, chosen) {
  return FITS[kind]?.includes(chosen) ? chosen : (KIND_DEFAULT[kind] ?? 'viridis');
}

const hex = (h) => toRgb(h);
const cache = new Map();

function stopsOf(name, theme) {
  if (name === 'bo') {
    const t = theme ?? { palNeg: '#2166ac', palMid: '#f7f7f7', palPos: '#b35806' };
    return [t.palNeg, t.palMid, t.palPos];
  }
  return STOPS[name] ?? STOPS.viridis;
}

/** 256 packed colours for palette `name`; index 256 is the mask colour (theme --mask). */
export function lut(name, theme) {
  const key = `${name}|${theme?.key ?? ''}`;
  if (cache.has(key)) return cache.get(key);
  const stops = stopsOf(name, theme).map(hex);
  const out = new Uint32Array(257);
  for (let i = 0; i < 256; i++) {
    const t = (i / 255) * (stops.length - 1);
    const k = Math.min(stops.length - 2, Math.floor(t));
    const f = t - k;
    const [r, g, b] = [0, 1, 2].map((c) => Math.round(stops[k][c] + (stops[k + 1][c] - stops[k][c]) * f));
    out[i] = (255 << 24) | (b << 16) | (g << 8) | r;
  }
  const [r, g, b] = toRgb(theme?.mask ?? '#c8c8c8');
  out[256] = (255 << 24) | (b << 16) | (g << 8) | r;
  cache.set(key, out);
  return out;
}

/** CSS colour stops for a legend bar. */
export function gradientStops(name, theme) {
  return stopsOf(name, theme);
}
