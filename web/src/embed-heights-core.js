// The arithmetic of embed-heights.js (which says what the box is) without the tables of steps:
// each embed loads only its own kind's (the element embed-heights-element.js, the embed page
// embed-heights-iframe.js). The extras per state are embed-heights-settings.js's.
import { BUCKETS, DEFAULTS, SETTINGS } from './embed-heights-settings.js';

/** Column width (px) below which the WALL cap applies (a bucket's start in the settings table). */
export const NARROW = 480;
/** The tallest box (px) in a column narrower than NARROW. */
export const WALL = 1700;
/** The keys of a snippet that are the embed's trims, not the view's state. */
export const TRIMS = new Set(['view', 'embed', 'theme', 'background', 'hide', 'step']);

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
 * '100vw' in the embed page): the last step's height plus, for each breakpoint, a steep ramp
 * that adds the height difference below it. '' without steps.
 */
export function heightCss(steps, width = '100cqw') {
  const s = valid(steps);
  if (!s) return '';
  const last = s[s.length - 1][1];
  const terms = [];
  for (let i = 1; i < s.length; i++) {
    const d = s[i - 1][1] - s[i][1]; // what the height below this breakpoint adds
    const at = s[i][0];
    // steep: a step of up to 5,000 px is done within 0.05 px of its breakpoint
    if (d > 0) terms.push(`clamp(0px, (${at}px - ${width}) * 100000, ${d}px)`);
    else if (d < 0) terms.push(`clamp(${d}px, (${width} - ${at}px) * 100000, 0px)`);
  }
  return terms.length ? `calc(${last}px + ${terms.join(' + ')})` : `${last}px`;
}

/**
 * Whether a probe of the settings table stands for `params` (both filled with the defaults): a
 * size key larger than the default's, or another value of a key the probe sets (the probe's own
 * value, or one no probe measured: the largest of its kind holds).
 */
function covers(probe, params, base, probes) {
  return Object.entries(probe.params).some(([k, v]) => {
    const now = String(params[k] ?? DEFAULTS[k] ?? '');
    const was = String(base[k] ?? DEFAULTS[k] ?? '');
    if (now === was) return false;
    if (/^\d+$/.test(v)) return Number(now) > Number(was);
    return now === v || !probes.some((q) => String(q.params[k]) === now);
  });
}

/** What `params` add to the view's default height in each of BUCKETS (settings table): the view's
 * own controls and a panel add theirs; of the other probes that stand for params, the largest. */
function extraFor(view, params) {
  const set = SETTINGS[view];
  const sum = BUCKETS.map(() => 0);
  const most = BUCKETS.map(() => 0);
  for (const probe of set?.probes ?? []) {
    const [key] = Object.keys(probe.params);
    if (key === 'controls' || key === 'panel') {
      if (params[key] === probe.params[key] || (key === 'controls' && params.controls === 'all'))
        probe.extra.forEach((x, i) => (sum[i] += x));
    } else if (covers(probe, params, set.base, set.probes))
      probe.extra.forEach((x, i) => (most[i] = Math.max(most[i], x)));
  }
  return sum.map((x, i) => x + most[i]);
}

/** Index of the bucket column width `w` falls in. */
const bucketOf = (w) => BUCKETS.findLastIndex((from) => w >= from);

/**
 * The steps (as heightAt reads them) of one embed from `table` (its kind's: ELEMENT or IFRAME):
 * the view's steps, its state's extras, the wall.
 */
export function stepsFor(table, { view, params = {} }) {
  const base = valid(table[view]);
  if (!base) throw new TypeError(`embedHeight: unknown view ${JSON.stringify(view)}`);
  const mine = Object.fromEntries(Object.entries(params ?? {}).filter(([k]) => !TRIMS.has(k)));
  const extra = extraFor(view, mine);
  // Every bucket's start is a breakpoint, so each extra keeps to its own widths.
  const at = [...new Set([...base.map(([w]) => w), ...BUCKETS])].sort((a, b) => a - b);
  const out = [];
  for (const w of at) {
    const h = Math.max(120, heightAt(base, w) + extra[bucketOf(w)]);
    const held = w < NARROW ? Math.min(h, WALL) : h;
    if (out.length && out[out.length - 1][1] === held) continue;
    out.push([w, held]);
  }
  return out;
}
