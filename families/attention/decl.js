// The attention family, declared: its functions, the C entry points each calls, their options,
// its docs. The bias kinds are the registry's (js/encodings.js ENCODINGS), not listed here: the
// `bias` and `encoding` options are typed by the registry's .d.ts unions (AttentionBias,
// SelfAttentionEncoding).
// tools/gen_decls.js writes every list of functions and options from the families/*/decl.js files
// (families/sinusoidal/decl.js says what each field means); tests/decls.test.js checks them against the
// running API.
const f32 = (doc) => ({ type: 'F32', required: true, doc });
const heads = { type: 'integer', min: 1, default: 1, doc: 'query heads' };
const kvHeads = {
  type: 'integer',
  min: 1,
  defaultIs: 'heads',
  rangeIs: 'a divisor of heads',
  doc: 'key/value heads (grouped-query attention; 1 = multi-query)',
};
const causal = { type: 'boolean', default: false, doc: 'mask the keys after each query' };
// per-query scale, chunks and sliding windows: attention and selfAttention (and kvCache) alike
const local = {
  queryScale: {
    ts: 'QueryScale',
    doc: "a factor per query: Float32Array [queries], or a function of the query's absolute position (Llama 4, Qwen 1 logn)",
  },
  chunk: {
    type: 'integer',
    min: 0,
    default: 0,
    doc: 'chunked local attention (Llama 4 attention_chunk_size): a query sees the keys of its own chunk; 0 = none',
  },
  window: {
    type: 'integer',
    min: 0,
    default: 0,
    doc: 'sliding window (HF sliding_window): a query at p sees keys j with |p − j| < window; 0 = none',
  },
};
const n = (d) => Float32Array.from({ length: d }, (_, i) => Math.sin(i + 1) / 2);

export const declare = {
  family: 'attentionFamily',
  order: 50, // its place in every list (decl/index.js sorts the families by it)
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
      sweep: (pe, { r }) =>
        Object.values(
          pe.attention({
            q: r(20 * 32, 1),
            k: r(24 * 32, 2),
            v: r(24 * 32, 3),
            queries: 20,
            keys: 24,
            dim: 32,
            returnWeights: true,
          }),
        ),
      c: ['posenc_attention_gqa_scratch_size', 'posenc_attention_gqa'],
      docs: 'families/attention/attention.md#attention',
      result: '{ output [queries][heads][dimV], weights [heads][queries][keys] or null }',
      overloads: [
        { with: '{ returnWeights: true }', returns: 'AttentionResult<Float32Array, Returned<O, Float32Array>>' },
      ],
      returns: 'AttentionResult<Float32Array | null, Returned<O, Float32Array>>',
      types: 'AttentionOptions',
      example: { opts: { q: n(3 * 4), k: n(3 * 4), v: n(3 * 4), queries: 3, dim: 4 } },
      options: {
        q: f32('queries [queries][heads][dim]'),
        k: f32('keys [keys][kvHeads][dim]'),
        v: f32('values [keys][kvHeads][dimV]'),
        queries: { type: 'integer', min: 1, required: true, doc: 'query rows' },
        keys: { type: 'integer', min: 1, defaultIs: 'queries', doc: 'key rows' },
        dim: { type: 'integer', min: 1, required: true, doc: 'head size of q and k' },
        dimV: { type: 'integer', min: 1, defaultIs: 'dim', doc: 'head size of v' },
        heads,
        kvHeads,
        scale: { type: 'number', min: -3e38, max: 3e38, defaultIs: '1/sqrt(dim)', doc: 'the logit scale' },
        causal,
        align: {
          type: ['top-left', 'bottom-right'],
          default: 'top-left',
          doc: 'causal mask: j ≤ i (torch SDPA) or j ≤ i + keys − queries (KV cache); required with causal when queries < keys',
        },
        offset: {
          type: 'integer',
          min: -(2 ** 30),
          max: 2 ** 30,
          defaultIs: "keys − queries with 'bottom-right', else 0",
          doc: 'query i sits at position i + offset for positional biases (key j at j)',
        },
        bias: { ts: 'AttentionBias', doc: 'a positional bias fused into the loop (never materialised)' },
        returnWeights: {
          type: 'boolean',
          default: false,
          doc: 'return the softmax weights [heads][queries][keys] (else none is made: online softmax)',
        },
        out: { type: 'F32', generic: 'O', doc: 'a buffer the output is written into (and returned)' },
        ...local,
      },
    },
    {
      name: 'matmul',
      sweep: (pe, { r }) => pe.matmul(r(20 * 24, 1), r(24 * 28, 2), { m: 20, k: 24, n: 28 }),
      c: ['posenc_matmul'],
      docs: 'families/attention/attention.md#why-positions-are-needed',
      result: 'Float32Array [m][n]',
      tsDoc: 'out[m][n] = a[m][k] · b[k][n]',
      args: { a: 'F32', b: 'F32' },
      returns: 'Returned<O, Float32Array>',
      example: { args: [n(6), n(6)], opts: { m: 2, k: 3, n: 2 } },
      options: {
        m: { type: 'integer', min: 1, required: true, doc: 'rows of a' },
        k: { type: 'integer', min: 1, required: true, doc: 'columns of a, rows of b' },
        n: { type: 'integer', min: 1, required: true, doc: 'columns of b' },
        out: { type: 'F32', generic: 'O', doc: 'a buffer the result is written into (and returned)' },
      },
    },
    {
      name: 'selfAttention',
      sweep: {
        None: (pe, { sa }) => Object.values(pe.selfAttention(sa)),
        Sinusoidal: (pe, { sa }) => Object.values(pe.selfAttention({ ...sa, encoding: { type: 'sinusoidal' } })),
        Learned: (pe, { r, sa, D }) =>
          Object.values(pe.selfAttention({ ...sa, encoding: { type: 'learned', table: r(20 * D, 9), offset: 2 } })),
        Rope: (pe, { sa }) => Object.values(pe.selfAttention({ ...sa, encoding: { type: 'rope' } })),
      },
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
      result: '{ output [length][dModel], weights [heads][length][length] or null, pooled [dModel] }',
      returns: 'SelfAttentionResult',
      types: 'SelfAttentionOptions',
      example: { opts: { tokens: n(3 * 4), dModel: 4, wq: n(16), wk: n(16), wv: n(16) } },
      options: {
        tokens: f32('context-free token vectors [length][dModel]'),
        length: { type: 'integer', min: 1, defaultIs: 'tokens.length / dModel', doc: 'tokens' },
        dModel: { type: 'integer', min: 1, required: true, doc: 'the model width' },
        wq: f32('[dModel][dModel], q = x · wq (row-major, input index first)'),
        wk: f32('[dModel][kvHeads · dModel / heads]'),
        wv: f32('[dModel][kvHeads · dModel / heads]'),
        heads: { ...heads, rangeIs: 'a divisor of dModel' },
        kvHeads,
        encoding: { ts: 'SelfAttentionEncoding', doc: "how positions enter (default { type: 'none' })" },
        causal,
        returnWeights: { type: 'boolean', default: true, doc: 'return the softmax weights [heads][length][length]' },
        ...local,
      },
    },
  ],
};
