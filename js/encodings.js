// The registry of the encodings attention, selfAttention and kvCache take: each is listed once,
// with the options it accepts in each of those calls, their defaults (parse), the tables it
// reads and, for a bias fused into the attention loop, its C kind (bias: its index in posenc.h
// POSENC_BIAS_KINDS) and the posenc_bias fields its C arguments fill (fields, in the order
// families/attention/attention.js's parsers produce them: cArgs). The fused kinds are declared one per file,
// families/<family>/kind_<type>.js; tools/gen_kinds.js writes the C, type and docs lists from
// them.
//
//   ENCODINGS.t5.parse({ numBuckets: 32, maxDistance: 128 }, { causal: true })
//     -> { type: 't5', bidirectional: false, numBuckets: 32, maxDistance: 128, weights: undefined }
//
// parse(opts, ctx) validates the scalar options and fills the defaults; it throws a PosencError
// naming `${ctx.prefix}key` for a bad one. ctx: { fn = 'encoding', prefix = '', causal = false,
// host ('attention' | 'selfAttention' | 'kvCache'; omitted: any key of any host is allowed),
// dim (the head width: RoPE needs it) }. Tables (Float32Arrays) are passed through untouched:
// tables(parsed, { heads, dim, dimV }) lists the ones the call needs: { key, length, product }
// (product: how the length is computed, and shape: its layout, for messages) and may state a
// constraint on its values beyond "finite" (a key of VALUE_RULES below, e.g. positive: true);
// every host refuses a violating element by name from that alone. A fused kind
// also says what follows its tables in its C arguments: params(parsed, rel) (the scalars of
// cArgs), rel(parsed) (its relative-position count, for the scratch plan) and rows (a table
// whose length sets a row count, Transformer-XL's r); every host builds the kind from these.
import { KINDS, NONE } from './bias_kinds.js';
import { Status } from './errors.js';
import { parseMrope, parseRopeFrequencyOptions, ROPE_LAYOUT } from '../families/rope/rope.js';
import { allowOnly, choice, fail, int, isArray, num, snapshot } from './validate.js';

export { ALIBI_FORM } from '../families/relative/kind_alibi.js';

const OFFSET_MAX = 2 ** 30;
const union = (hosts) => [...new Set(Object.values(hosts).flat())];

/** Keys an entry allows for ctx.host (all of them when there is no host). */
function allowed(entry, ctx) {
  if (ctx.host === undefined) return union(entry.hosts);
  return entry.hosts[ctx.host];
}

const ENTRIES = {
  /** No positional information (NoPE); attention may still take a dense bias array. */
  none: {
    ...NONE, // its C index, its field (a dense bias array, or 0) and hosts: tools/gen_kinds.js declares them
    parse: () => ({ type: 'none' }),
    tables: () => [],
    params: () => [],
    addsTable: true, // its table is added to the logits (attention's float32 bound names it)
  },

  // the fused bias kinds, each declared in families/<family>/kind_<type>.js (js/bias_kinds.js lists them)
  ...Object.fromEntries(KINDS.map((k) => [k.type, { ...k }])),

  /** The sinusoidal table added to the tokens before the projections; families/sinusoidal/sinusoidal.md. */
  sinusoidal: {
    hosts: { selfAttention: ['base', 'offset'] },
    parse: (o, ctx) => ({
      type: 'sinusoidal',
      base: num(ctx.fn, `${ctx.prefix}base`, o.base, { gt: 1, def: 10000 }),
      offset: int(ctx.fn, `${ctx.prefix}offset`, o.offset, { min: -OFFSET_MAX, max: OFFSET_MAX, def: 0 }),
    }),
    tables: () => [],
  },

  /** A learned table added to the tokens before the projections; families/learned/learned.md. */
  learned: {
    hosts: { selfAttention: ['table', 'offset'] },
    parse: (o, ctx) => ({
      type: 'learned',
      table: o.table,
      offset: int(ctx.fn, `${ctx.prefix}offset`, o.offset, { min: 0, max: OFFSET_MAX, def: 0 }),
    }),
    tables: () => [],
  },

  /** RoPE on queries and keys (applyRope's frequency options); families/rope/rope.md. */
  rope: {
    bias: 0,
    hosts: {
      selfAttention: ['base', 'offset', 'layout', 'rotaryDim', 'scaling'],
      kvCache: ['base', 'rotaryDim', 'scaling', 'layout', 'mropeSections', 'mropeInterleaved'],
    },
    parse(o, ctx) {
      if (!Number.isInteger(ctx.dim))
        throw fail(ctx.fn, 'dim', Status.E_MISSING, "given to parse encoding 'rope' (the head width)");
      if (ctx.dim % 2) throw fail(ctx.fn, ctx.dimName ?? 'dim', Status.E_ODD, "even for encoding 'rope'", ctx.dim);
      const freq = parseRopeFrequencyOptions(ctx.fn, o, ctx.dim, ctx.prefix);
      return {
        type: 'rope',
        freq,
        layout: choice(ctx.fn, `${ctx.prefix}layout`, o.layout, ROPE_LAYOUT, 'half'),
        offset: int(ctx.fn, `${ctx.prefix}offset`, o.offset, { min: -OFFSET_MAX, max: OFFSET_MAX, def: 0 }),
        // multimodal RoPE (kvCache): positions come with each append and attend
        mrope: parseMrope(ctx.fn, o, freq.rotaryDim),
      };
    },
    tables: () => [],
  },
};

for (const [type, e] of Object.entries(ENTRIES)) {
  const entry = e;
  if (entry.fields) entry.cArgs = entry.fields.map((f) => f.name);
  const raw = entry.parse;
  /** parse(opts, ctx): a snapshot of opts (each key read once), unknown keys refused, defaults filled. */
  entry.parse = (opts = {}, ctx = {}) => {
    const c = { fn: 'encoding', prefix: '', causal: false, ...ctx };
    const what = c.prefix ? c.prefix.replace(/\.$/, '') : 'options';
    const snap = snapshot(c.fn, opts, what);
    if (snap.type !== undefined && snap.type !== type) {
      throw fail(c.fn, `${c.prefix}type`, Status.E_ENUM, `'${type}'`, snap.type);
    }
    allowOnly(c.fn, snap, ['type', ...allowed(entry, c)], what);
    return raw(snap, c);
  };
  entry.type = type;
  Object.freeze(entry.hosts);
  Object.freeze(entry);
}

/**
 * Constraints a table of a row may state on its values (as `key: true` in its tables() entry),
 * beyond the finiteness every table needs. The C core is the guard (the kind's values_<name> in
 * families/attention/attention.c returns E_PARAM); each host names the first violating element from the row
 * alone, as `bias.r1[3] must be finite and > 0 (got 0)`. A rule's probes are values on both sides
 * of its bounds: tests/value_rules.test.js puts each into every constrained table of every host.
 */
export const VALUE_RULES = Object.freeze({
  positive: Object.freeze({
    allowed: 'finite and > 0',
    ok: (x) => Number.isFinite(x) && x > 0,
    probes: Object.freeze([0, -0, -1, -3e38, Number.NaN, 0.5, 1]),
  }),
});

/** The fields of a tables() entry other than a VALUE_RULES key. */
const TABLE_FIELDS = ['key', 'length', 'product', 'shape'];

/** The VALUE_RULES entry a table (an entry of a row's tables()) states, or undefined. */
export function valueRule(table) {
  const named = Object.keys(table).filter((k) => !TABLE_FIELDS.includes(k));
  const unknown = named.filter((k) => !Object.hasOwn(VALUE_RULES, k));
  if (unknown.length)
    throw new Error(
      `posenc internal: table ${table.key} states ${unknown.join(', ')}, neither a field ` +
        `(${TABLE_FIELDS.join(', ')}) nor a rule of VALUE_RULES (js/encodings.js)`,
    );
  const keys = named.filter((k) => table[k]);
  if (keys.length > 1)
    throw new Error(`posenc internal: table ${table.key} states ${keys.join(' and ')}; one rule each`);
  return VALUE_RULES[keys[0]];
}

/** Every encoding by type. */
export const ENCODINGS = Object.freeze(ENTRIES);

/** The types `host` accepts, in registry order. */
export function typesFor(host) {
  return Object.keys(ENCODINGS).filter((t) => ENCODINGS[t].hosts[host]);
}

/**
 * An { type, ... } option of `host` -> its parsed entry (parse above), with unknown types named
 * against the list this host accepts. `why` adds a hint for a type the host refuses.
 */
export function parseEncoding(host, value, ctx, why = () => '') {
  const fn = ctx.fn;
  const name = ctx.prefix.replace(/\.$/, '');
  const types = typesFor(host);
  const list = types.map((t) => `'${t}'`);
  if (value === null || typeof value !== 'object' || isArray(fn, name, value) || ArrayBuffer.isView(value)) {
    throw fail(fn, name, Status.E_PARAM, `an object { type: ${list.join(' | ')}, ... }`, value);
  }
  const snap = snapshot(fn, value, name);
  const type = snap.type ?? 'none';
  if (typeof type !== 'string' || !types.includes(type)) {
    throw fail(fn, `${name}.type`, Status.E_ENUM, `one of ${list.join(', ')}${why(type)}`, type);
  }
  return ENCODINGS[type].parse(snap, { ...ctx, host });
}

/** The C bias kind (posenc.h POSENC_BIAS_*) of a parsed encoding, for the attention call. */
export function biasKind(parsed) {
  return ENCODINGS[parsed.type].bias ?? 0;
}
