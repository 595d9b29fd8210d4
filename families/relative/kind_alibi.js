// ALiBi fused into attention (Press et al. 2022; alibi.md): one declaration, read by
// js/encodings.js (the hosts build the kind from it) and by tools/gen_kinds.js, which writes the
// lists that cannot import it (posenc.h, status.c, bias_kinds.h, the fuzz rows, the .d.ts unions,
// families/attention/attention.md's table). Its C steps are fused_alibi.h beside this file. The fields are
// explained in families/relative/kind_t5.js.
import { choice } from '../../js/validate.js';

/** ALiBi bias forms: posenc.h posenc_alibi_form. */
export const ALIBI_FORM = Object.freeze({ relative: 0, symmetric: 1, reference: 2 });

/** ALiBi head slopes (Press et al. 2022, the reference implementation's recursive definition). */
export function refSlopes(n) {
  const pow2 = (m) => {
    const start = 2 ** -(2 ** -(Math.log2(m) - 3));
    return Array.from({ length: m }, (_, k) => start * start ** k);
  };
  if (Number.isInteger(Math.log2(n))) return pow2(n);
  const c = 2 ** Math.floor(Math.log2(n));
  return [
    ...pow2(c),
    ...pow2(2 * c)
      .filter((_, i) => i % 2 === 0)
      .slice(0, n - c),
  ];
}

const slopesOf = new Map();

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
  ref: {
    /** A random descriptor (seed varies it), as attention takes it. */
    random: (sizes, seed) => ({ type: 'alibi', form: ['relative', 'symmetric', 'reference'][seed % 3] }),
    /** The float64 logit bias of query head h at key j (rp = j - (i + offset)). */
    bias(b, { h, j, rp, H }) {
      if (!slopesOf.has(H)) slopesOf.set(H, refSlopes(H));
      const f = b.form ?? 'relative';
      return slopesOf.get(H)[h] * (f === 'relative' ? rp : f === 'symmetric' ? -Math.abs(rp) : j);
    },
  },
};
