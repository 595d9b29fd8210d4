// What only tools/gen_kinds.js reads of ALiBi's fused kind (kind_alibi.js holds what the library
// reads; the package ships this file not): its fuzz draws, row state, .d.ts keys and docs rows.
export const gen = {
  fuzz: { form: 'u8(c) % 4' },
  rowState: [
    ['double', 'slope'],
    ['int64_t', 'aref'],
  ],
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
