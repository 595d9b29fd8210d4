// Shaw et al. 2018 fused into attention (relative.md), declared (tools/gen_kinds.js says what
// each field means); beside it: fused_shaw.h, ref_shaw.js, ref_shaw.h. Its value term (Σ p·aV)
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
  fuzzRel: '1 + u8(c) % 6',
  relField: 'max_relative',
  fuzzTables:
    'if (prod(2 * rel + 1, dim) > CAP || prod(2 * rel + 1, dv) > CAP) return 0;\n' +
    'b->a_k = IN(prod(2 * rel + 1, dim)), b->a_v = IN(prod(2 * rel + 1, dv));',
  scratch: [
    ['float', 'qak'],
    ['float', 'mass'],
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
  types: {
    keys: { aK: 'F32', aV: 'F32', maxRelative: 'number' },
    doc: {
      attention: 'Shaw et al.: aK [2k+1][dim], aV [2k+1][dimV] shared by all heads, k = maxRelative.',
      selfAttention: 'aK, aV [2k+1][dModel/heads]',
    },
  },
  docs: {
    option: "`{ type: 'shaw', aK, aV, maxRelative }`",
    attention: '`scale·q·aK[clip(rp)]`; output `+= Σ p·aV[clip(rp)]` ([Shaw](../relative/relative.md))',
    kvCache: 'logit `+= scale · q · aK[clip(j − p_i)]`, output `+= Σ_j p_ij · aV[clip(j − p_i)]`',
  },
};
