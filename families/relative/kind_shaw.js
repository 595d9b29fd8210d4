// Shaw et al. 2018 fused into attention (relative.md), declared (tools/gen_kinds.js says what
// each field means), what the library reads (kind_shaw.gen.js: what only the generator reads);
// beside it: fused_shaw.h, ref_shaw.js, ref_shaw.h. Its value term (Σ p·aV)
// is run_block's (families/attention/attention.c).
import { int } from '../../js/validate.js';

export const kind = {
  type: 'shaw',
  bias: 3,
  fields: [
    { name: 'a_k', c: 'const float *' },
    { name: 'a_v', c: 'const float *' },
    { name: 'max_relative', c: 'int32_t' },
  ],
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
};
