// Transformer-XL fused into attention (Dai et al. 2019; relative.md), declared (tools/gen_kinds.js
// says what each field means), what the library reads (kind_xl.gen.js: what only the generator
// reads); beside it: fused_xl.h, ref_xl.js. attention takes the projected r
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
};
