// The registry of the encodings attention, selfAttention and kvCache take: each is listed once,
// with the options it accepts in each of those calls, their defaults (parse), the tables it
// reads and, for a bias fused into the attention loop, its C kind (posenc.h POSENC_BIAS_KINDS;
// families/attention/attention.test.js checks that the two lists agree) and the posenc_bias fields its C
// arguments fill (cArgs, in the order families/attention/attention.js's parsers produce them).
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
import { Status } from './errors.js';
import { allowOnly, bool, choice, fail, int, isArray, num, snapshot } from './validate.js';
import { parseMrope, parseRopeFrequencyOptions, ROPE_LAYOUT } from '../families/rope/rope.js';
import { t5MaxExact } from './maths.js';

/** ALiBi bias forms: posenc.h posenc_alibi_form. */
export const ALIBI_FORM = Object.freeze({ relative: 0, symmetric: 1, reference: 2 });

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
    bias: 0,
    cArgs: ['table'], // a dense bias array, or 0
    hosts: { attention: [], selfAttention: [], kvCache: [] },
    parse: () => ({ type: 'none' }),
    tables: () => [],
    params: () => [],
    addsTable: true, // its table is added to the logits (attention's float32 bound names it)
  },

  /** ALiBi (Press et al. 2022): slope m_h times the relative position; families/relative/alibi.md. */
  alibi: {
    bias: 1,
    cArgs: ['form'],
    hosts: { attention: ['form'], selfAttention: ['form'], kvCache: ['form'] },
    // 'relative' m (j - i); an encoder's bias (selfAttention without a causal mask) defaults to
    // 'symmetric' -m |j - i|, since 'relative' would favour the farthest future keys. Under a
    // causal mask the two are the same numbers.
    parse(o, ctx) {
      const def = ctx.host === 'selfAttention' && !ctx.causal ? 'symmetric' : 'relative';
      const form = choice(ctx.fn, `${ctx.prefix}form`, o.form, ALIBI_FORM, def);
      return { type: 'alibi', form: Object.keys(ALIBI_FORM).find((k) => ALIBI_FORM[k] === form), formCode: form };
    },
    tables: () => [],
    params: (p) => [p.formCode],
  },

  /** T5 relative buckets (Raffel et al. 2020): a learned scalar per bucket and head; families/relative/t5.md. */
  t5: {
    bias: 2,
    cArgs: ['table', 'bidirectional', 'num_buckets', 'max_distance'],
    hosts: {
      attention: ['weights', 'bidirectional', 'numBuckets', 'maxDistance'],
      selfAttention: ['weights', 'bidirectional', 'numBuckets', 'maxDistance'],
      kvCache: ['weights', 'bidirectional', 'numBuckets', 'maxDistance'],
    },
    // bidirectional defaults to !causal: the T5 encoder (unmasked) is bidirectional, the decoder
    // (causal, and every KV cache) is not: HF T5Attention passes bidirectional=not is_decoder.
    parse(o, ctx) {
      const bidirectional = bool(ctx.fn, `${ctx.prefix}bidirectional`, o.bidirectional, !ctx.causal);
      const numBuckets = int(ctx.fn, `${ctx.prefix}numBuckets`, o.numBuckets, {
        min: bidirectional ? 4 : 2,
        max: 2 ** 20,
        def: 32,
      });
      const maxExact = t5MaxExact(bidirectional, numBuckets);
      const maxDistance = int(ctx.fn, `${ctx.prefix}maxDistance`, o.maxDistance, { min: 1, def: 128 });
      if (maxDistance <= maxExact) {
        throw fail(
          ctx.fn,
          `${ctx.prefix}maxDistance`,
          Status.E_PARAM,
          `greater than the exact range ${maxExact} (numBuckets/${bidirectional ? 4 : 2}) ` +
            'so the log-spaced buckets are defined',
          maxDistance,
        );
      }
      return { type: 't5', bidirectional, numBuckets, maxDistance, weights: o.weights };
    },
    tables: (p, { heads }) => [
      { key: 'weights', length: p.numBuckets * heads, product: 'numBuckets * heads', shape: '[numBuckets][heads]' },
    ],
    params: (p) => [p.bidirectional ? 1 : 0, p.numBuckets, p.maxDistance],
    addsTable: true,
    // T5 folds 1/sqrt(d) into its initialisation: its logits are q.k + bias (families/relative/t5.md)
    defaultScale: 1,
  },

  /** Shaw et al. 2018: learned key and value vectors per clipped relative position; families/relative/relative.md. */
  shaw: {
    bias: 3,
    cArgs: ['a_k', 'a_v', 'max_relative'],
    hosts: {
      attention: ['aK', 'aV', 'maxRelative'],
      selfAttention: ['aK', 'aV', 'maxRelative'],
      kvCache: ['aK', 'aV', 'maxRelative'],
    },
    parse(o, ctx) {
      const maxRelative = int(ctx.fn, `${ctx.prefix}maxRelative`, o.maxRelative, { min: 1, max: 2 ** 26 });
      return { type: 'shaw', maxRelative, aK: o.aK, aV: o.aV };
    },
    tables: (p, { dim, dimV = dim }) => [
      { key: 'aK', length: (2 * p.maxRelative + 1) * dim, product: '(2 * maxRelative + 1) * dim' },
      { key: 'aV', length: (2 * p.maxRelative + 1) * dimV, product: '(2 * maxRelative + 1) * dimV' },
    ],
    params: (p) => [p.maxRelative],
    rel: (p) => p.maxRelative,
    // the float32 bound of a logit and of the output (posenc.h POSENC_ATTENTION_ARGS): aK joins
    // the dot products, aV the weighted sum
    bound: (mq, mk, [aK, aV]) => ({ dots: mq * mk + mq * aK, extraV: aV, terms: 1 }),
  },

  /** Transformer-XL (Dai et al. 2019): content and position terms with u, v; families/relative/relative.md.
   * attention takes the projected r [rRows][heads][dim]; selfAttention builds it from wr. */
  xl: {
    bias: 4,
    cArgs: ['u', 'vb', 'r', 'r_rows'],
    hosts: { attention: ['u', 'v', 'r'], selfAttention: ['u', 'v', 'wr'] },
    parse: (o) => ({ type: 'xl', u: o.u, v: o.v, r: o.r, wr: o.wr }),
    tables: (p, { heads, dim, dModel = heads * dim, rRows = 0 }) => [
      { key: 'u', length: heads * dim, product: 'heads * dim' },
      { key: 'v', length: heads * dim, product: 'heads * dim' },
      ...(p.r !== undefined ? [{ key: 'r', length: rRows * heads * dim, product: 'rRows * heads * dim' }] : []),
      ...(p.wr !== undefined ? [{ key: 'wr', length: dModel * dModel, product: 'dModel * dModel' }] : []),
    ],
    // attention's r [rRows][heads][dim]: its length sets rRows, the row count C reads (r_rows)
    rows: { key: 'r', shape: '[rRows][heads][dim]', width: 'heads * dim' },
    params: (p, rRows) => [rRows],
    bound: (mq, mk, [u, vb, r]) => ({ dots: (mq + u) * mk + (mq + vb) * r, extraV: 0, terms: 3 }),
  },

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
