// What only tools/gen_kinds.js reads of Transformer-XL's fused kind (kind_xl.js holds what the
// library reads; the package ships this file not): its fuzz draws, scratch buffers, native
// reference, .d.ts keys and docs rows.
export const gen = {
  fuzzRel: 'size(c)',
  relField: 'r_rows',
  fuzzTables:
    'if (prod3(rel, h, dim) > CAP) return 0;\n' +
    'b->u = IN(prod(h, dim)), b->vb = IN(prod(h, dim)), b->r = IN(prod3(rel, h, dim));',
  scratch: [
    ['float', 'xr'],
    ['float', 'uk'],
    ['float', 'qv'],
    ['float', 'g'],
  ],
  // tests/native/test_gqa.c has no double reference of it: its r table and u, v terms are checked
  // against the float64 one (ref_xl.js) in families/attention/attention.test.js
  nativeRef: 'checked against ref in families/attention/attention.test.js',
  types: {
    keys: { u: 'F32', v: 'F32', r: 'F32', wr: 'F32' },
    doc: {
      attention: [
        'Transformer-XL: u, v [heads][dim] (r_w_bias, r_r_bias); r [rRows][heads][dim] = r_head_k in',
        "Transformer-XL's descending order: row c encodes distance keys−1−c (rRows = keys for causal",
        'attention; more rows continue into negative distances). Rows outside clamp to the nearest.',
      ],
      selfAttention: 'u, v [heads][dModel/heads]; wr [dModel][dModel] projects the sinusoid of relative distance.',
    },
  },
  docs: {
    option: "`{ type: 'xl', u, v, r }`",
    attention: 'logit `= scale·((q+u)·k + (q+v)·r[keys−1−(i+offset−j)])` ([Transformer-XL](../relative/relative.md))',
  },
};
