// Transformer-XL fused into attention (Dai et al. 2019; relative.md), declared (tools/gen_kinds.js
// says what each field means); beside it: fused_xl.h, ref_xl.js. attention takes the projected r
// [rRows][heads][dim]; selfAttention builds it from wr (families/attention/attention.js).
export const kind = {
  type: 'xl',
  bias: 4,
  fields: [
    { name: 'u', c: 'const float *' },
    { name: 'vb', c: 'const float *' },
    { name: 'r', c: 'const float *' },
    { name: 'r_rows', c: 'int32_t' },
  ],
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
