// ALiBi fused into attention (Press et al. 2022; alibi.md), declared (tools/gen_kinds.js says
// what each field means); beside it: fused_alibi.h, ref_alibi.js, ref_alibi.h.
import { choice } from '../../js/validate.js';

/** ALiBi bias forms: posenc.h posenc_alibi_form. */
export const ALIBI_FORM = Object.freeze({ relative: 0, symmetric: 1, reference: 2 });

export const kind = {
  type: 'alibi',
  bias: 1,
  fields: [{ name: 'form', c: 'int32_t', fuzz: 'u8(c) % 4' }],
  rowState: [
    ['double', 'slope'],
    ['int64_t', 'aref'],
  ],
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
  types: {
    keys: { 'form?': "'relative' | 'symmetric' | 'reference'" },
    doc: {
      attention: 'ALiBi with the slopes of `heads` heads: relative m·(j−i′), symmetric −m·|j−i′|, reference m·j.',
      selfAttention: "Default form: 'relative' when causal, else 'symmetric'.",
    },
  },
  docs: {
    option: "`{ type: 'alibi', form = 'relative' }`",
    attention: "`m_h·rp`, `'symmetric'` `−m_h·\\|rp\\|`, `'reference'` `m_h·j` ([ALiBi](../relative/alibi.md))",
    kvCache:
      "logit `+= m_h · (j − p_i)` (`'symmetric'`: `−m_h · \\|j − p_i\\|`) from the true positions, with the slope of query head `h`",
  },
};
