// Shared by the fromConfig tests: the real config.json fixtures (tests/fixtures/configs/, their
// sources in SOURCES.json) and the float64 rotation of Hugging Face's apply_rotary_pos_emb.
import { readdirSync, readFileSync } from 'node:fs';

const DIR = new URL('./fixtures/configs/', import.meta.url);

/** Every fixture's name (its file without .json), sorted. */
export const NAMES = readdirSync(DIR)
  .filter((f) => f.endsWith('.json') && f !== 'SOURCES.json')
  .map((f) => f.slice(0, -5))
  .sort();

/** The parsed config.json of fixture `name`. */
export const load = (name) => JSON.parse(readFileSync(new URL(`${name}.json`, DIR), 'utf8'));

/** SOURCES.json's entries: fixture name -> { repository, path, commit?, note, ... }. */
export const SOURCES = JSON.parse(readFileSync(new URL('SOURCES.json', DIR), 'utf8')).configs;

/** The rotation of x [length][heads][dim] by angles angle(t, i) · inv[i] on the first
 * 2 · inv.length components, float64; 'half' pairs i with i + n (rotate_half: cat(-x2, x1)),
 * 'interleaved' pairs 2i with 2i + 1 (GPT-J's rotate_every_two, GLM's repeat_interleave); cos and
 * sin times att (an attention factor folded into them). */
export function refRotate(x, { length, heads, dim, layout, inv, att = 1, angle }) {
  const n = inv.length;
  const out = Float64Array.from(x);
  for (let t = 0; t < length; t++) {
    for (let h = 0; h < heads; h++) {
      const o = (t * heads + h) * dim;
      for (let i = 0; i < n; i++) {
        const a = angle(t, i) * inv[i];
        const [p, q] = layout === 'half' ? [o + i, o + i + n] : [o + 2 * i, o + 2 * i + 1];
        const u = x[p];
        const v = x[q];
        out[p] = (u * Math.cos(a) - v * Math.sin(a)) * att;
        out[q] = (v * Math.cos(a) + u * Math.sin(a)) * att;
      }
    }
  }
  return out;
}
