// T5's relative buckets fused into attention (Raffel et al. 2020; t5.md): one declaration,
// read by js/encodings.js (the hosts build the kind from it) and by tools/gen_kinds.js, which
// writes the lists that cannot import it. Its C steps are fused_t5.h beside this file.
//
// The fields of a kind's declaration (CONTRIBUTING.md "Adding a bias kind fused into attention"):
//   type      the JS type; its C name is it in upper snake case (POSENC_BIAS_T5), its C steps
//             check_<type>, values_<type>, add_<type> in fused_<type>.h
//   bias      its index in posenc.h POSENC_BIAS_KINDS (the C enum): the kinds are 1, 2, ... in order
//   fields    the posenc_bias fields it fills, in params order after its tables: name, C type
//             (int32_t, float, double or const float * for a table), fuzz (the C expression
//             tests/fuzz/fuzz_core.c draws it with; a table is drawn by fuzzTables). A field two
//             kinds share (none's and T5's table) is declared by each with the same type.
//   fuzzRel   the C expression of its relative-row count (rel) in the fuzzer, and relField, the
//             field that takes it; fuzzTables the C statements that draw its tables (b, d, h,
//             dim, dv, rel in scope; return 0 when they do not fit CAP)
//   scratch   its scratch buffers [C type, name] (a plan offset, a ctx pointer); rowState its
//             per-row state [C type, name] (ctx arrays of the block's 4 rows)
//   hosts     the options each host accepts (a host left out refuses the kind)
//   parse, tables, params, rel, rows, bound, addsTable, defaultScale: js/encodings.js says
//   types     its .d.ts keys ('name?' optional) and a doc line per host (js/index.d.ts)
//   docs      its families/attention/attention.md rows: the option as written, its logit in attention and in
//             the KV cache (omitted when the cache refuses it)
//   nativeRef omitted: ref_<type>.h beside it is its double reference for tests/native/test_gqa.c
//             (fixture_<type>, ref_bias_<type>, optional REF_VALUE_<TYPE>); a string: why it has none
//   ref       the float64 reference the tests compare with: random(sizes, seed, randomF32), a
//             descriptor; bias(b, at), its logit bias; value(b, at, c), a term added to the
//             value sum (Shaw's) (at: h, i, j, ip, rp = j - ip, Q, K, H, D, DV, qi, k, kj, scale,
//             causal)
import { Status } from '../../js/errors.js';
import { t5MaxExact } from '../../js/maths.js';
import { bool, fail, int } from '../../js/validate.js';

/** T5's relative-position bucket (Raffel et al. 2020, mesh-tensorflow's _relative_position_bucket). */
export function refBucket(rp, bidirectional, B, D) {
  // in float64 the boundary points 16/32/64 are exact integers, so round first
  let ret = 0;
  let n;
  if (bidirectional) {
    B = Math.floor(B / 2);
    if (rp > 0) ret += B;
    n = Math.abs(rp);
  } else n = Math.max(-rp, 0);
  const maxExact = Math.floor(B / 2);
  if (n < maxExact) return ret + n;
  let x = (Math.log(n / maxExact) / Math.log(D / maxExact)) * (B - maxExact);
  if (Math.abs(x - Math.round(x)) < 1e-9) x = Math.round(x);
  return ret + Math.min(maxExact + Math.trunc(x), B - 1);
}

export const kind = {
  type: 't5',
  bias: 2,
  fields: [
    { name: 'table', c: 'const float *' },
    { name: 'bidirectional', c: 'int32_t', fuzz: 'u8(c) & 1' },
    { name: 'num_buckets', c: 'int32_t', fuzz: '2 + u8(c) % 40' },
    { name: 'max_distance', c: 'int32_t', fuzz: 'size(c)' },
  ],
  fuzzTables: 'b->table = IN(prod(b->num_buckets, h));',
  scratch: [
    ['const int32_t', 't5b'],
    ['float', 't5'],
  ],
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
  // T5 folds 1/sqrt(d) into its initialisation: its logits are q.k + bias (t5.md)
  defaultScale: 1,
  types: {
    keys: { weights: 'F32', 'bidirectional?': 'boolean', 'numBuckets?': 'number', 'maxDistance?': 'number' },
    doc: {
      attention: 'T5: `weights` is relative_attention_bias [numBuckets][heads]; bidirectional defaults to !causal.',
      selfAttention: 'weights [numBuckets][heads]; bidirectional defaults to !causal; logits are unscaled (T5).',
    },
  },
  docs: {
    option: "`{ type: 't5', weights, bidirectional = !causal, numBuckets = 32, maxDistance = 128 }`",
    attention: '`weights[bucket(rp)][h]` ([T5](../relative/t5.md))',
    kvOption: "`{ type: 't5', weights, bidirectional = false, numBuckets = 32, maxDistance = 128 }`",
    kvCache:
      'logit `+= weights[bucket(j − p_i)][h]`, buckets from the true relative positions (decoder default: not bidirectional)',
  },
  ref: {
    random(sizes, seed, randomF32) {
      const numBuckets = 8 + 2 * (seed % 5),
        bidirectional = seed % 2 === 0;
      return {
        type: 't5',
        weights: randomF32(numBuckets * sizes.heads, seed),
        bidirectional,
        numBuckets,
        maxDistance: 20,
      };
    },
    bias: (b, { h, rp, H, causal }) =>
      b.weights[refBucket(rp, b.bidirectional ?? !causal, b.numBuckets ?? 32, b.maxDistance ?? 128) * H + h],
  },
};
