// The attention family, declared: its functions, the C entry points each calls, its docs. The
// bias kinds are the registry's (js/encodings.js ENCODINGS), not listed here.
// tools/gen_decls.js writes every list of functions from the families/*/decl.js files (families/sinusoidal/decl.js
// says what each field means); tests/decls.test.js checks them against the running API.
export const declare = {
  family: 'attentionFamily',
  module: 'attention',
  api: 'AttentionApi',
  // the page's attention core (c_src/exports_page_attention.txt)
  page: 'attention',
  readme: [
    {
      label: 'Attention with fused positional biases',
      functions: ['attention', 'selfAttention', 'matmul'],
      pages: ['families/attention/attention.md'],
    },
  ],
  // the fuzz target's rows per entry point: one per bias kind group, so attention keeps the share
  // of the runs the per-kind entry points had
  fuzzRows: { posenc_attention_gqa: 5 },
  functions: [
    {
      name: 'attention',
      c: ['posenc_attention_gqa_scratch_size', 'posenc_attention_gqa'],
      docs: 'families/attention/attention.md#attention',
      result: '{ output, weights }',
    },
    {
      name: 'matmul',
      c: ['posenc_matmul'],
      docs: 'families/attention/attention.md#why-positions-are-needed',
      result: 'Float32Array [m][n]',
    },
    {
      name: 'selfAttention',
      c: [
        'posenc_matmul',
        'posenc_attention_gqa_scratch_size',
        'posenc_attention_gqa',
        'posenc_sinusoidal_fill',
        'posenc_rope_freqs',
        'posenc_rope_scratch_size',
        'posenc_rope_apply',
      ],
      docs: 'families/attention/attention.md#selfattention',
      result: '{ output, weights, q, k, v }',
    },
  ],
};
