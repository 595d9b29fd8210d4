// ALiBi fused into attention (Press et al. 2022; alibi.md), declared (tools/gen_kinds.js says
// what each field means), what the library reads (kind_alibi.gen.js: what only the generator
// reads); beside it: fused_alibi.h, ref_alibi.js, ref_alibi.h.
import { choice } from '../../js/validate.js';

/** ALiBi bias forms: posenc.h posenc_alibi_form. */
export const ALIBI_FORM = Object.freeze({ relative: 0, symmetric: 1, reference: 2 });

export const kind = {
  type: 'alibi',
  bias: 1,
  fields: [{ name: 'form', c: 'int32_t' }],
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
};
