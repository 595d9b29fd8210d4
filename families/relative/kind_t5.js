// T5's relative buckets fused into attention (Raffel et al. 2020; t5.md), declared
// (tools/gen_kinds.js says what each field means), what the library reads (kind_t5.gen.js: what
// only the generator reads); beside it: fused_t5.h, ref_t5.js, ref_t5.h.
import { Status } from '../../js/errors.js';
import { t5MaxExact } from '../../js/maths.js';
import { bool, fail, int } from '../../js/validate.js';

export const kind = {
  type: 't5',
  bias: 2,
  fields: [
    { name: 'table', c: 'const float *' },
    { name: 'bidirectional', c: 'int32_t' },
    { name: 'num_buckets', c: 'int32_t' },
    { name: 'max_distance', c: 'int32_t' },
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
};
