// Transformer-XL fused into attention (Dai et al. 2019; relative.md): one declaration, read
// by js/encodings.js and tools/gen_kinds.js (families/relative/kind_t5.js explains the fields).
// Its C steps are fused_xl.h beside this file. attention takes the projected r
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
  // against the float64 one (ref below) in families/attention/attention.test.js
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
  ref: {
    random(sizes, seed, randomF32) {
      const { heads, dim, keys, queries, dModel } = sizes;
      const rows = keys + (seed % 2 ? queries - 1 : 0);
      return {
        type: 'xl',
        u: randomF32(heads * dim, seed),
        v: randomF32(heads * dim, seed + 1),
        r: randomF32(rows * heads * dim, seed + 2),
        ...(dModel && { wr: randomF32(dModel * dModel, seed + 3) }), // selfAttention's: r = wr · positions
      };
    },
    bias(b, { qi, k, kj, h, ip, j, K, H, D, scale }) {
      const rows = b.r.length / (H * D);
      const row = Math.max(0, Math.min(rows - 1, K - 1 - (ip - j)));
      let t = 0;
      for (let d = 0; d < D; d++)
        t += b.u[h * D + d] * k[kj + d] + (qi[d] + b.v[h * D + d]) * b.r[(row * H + h) * D + d];
      return scale * t;
    },
  },
};
