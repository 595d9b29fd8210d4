// The relative family (ALiBi, T5, Shaw, Transformer-XL), declared: its functions, the C entry
// points each calls, its docs.
// tools/gen_decls.js writes every list of functions from the decl/*.js files (decl/sinusoidal.js
// says what each field means); tests/decls.test.js checks them against the running API.
export const declare = {
  family: 'relativeFamily',
  module: 'relative',
  api: 'Omit<RelativeApi, keyof LearnedApi>',
  apiDoc: 'ALiBi, T5, Shaw and Transformer-XL.',
  page: true,
  readme: [
    { label: 'ALiBi', functions: ['alibiSlopes', 'alibiBias'], pages: ['docs/alibi.md'] },
    { label: 'T5 relative bias', functions: ['t5Buckets', 't5Bias'], pages: ['docs/t5.md'] },
    {
      label: 'Shaw et al., Transformer-XL',
      functions: ['shawIndices', 'xlPositions', 'relShift', 'xlScores'],
      pages: ['docs/relative.md'],
    },
  ],
  functions: [
    { name: 'alibiSlopes', c: ['posenc_alibi_slopes'], docs: 'docs/alibi.md#slopes', result: 'Float32Array [heads]' },
    {
      name: 'alibiBias',
      c: ['posenc_alibi_bias'],
      docs: 'docs/alibi.md#bias',
      result: 'Float32Array [heads][queries][keys]',
    },
    {
      name: 't5Buckets',
      c: ['posenc_t5_buckets'],
      docs: 'docs/t5.md#bucket-function',
      result: 'Int32Array [queries][keys]',
    },
    {
      name: 't5Bias',
      c: ['posenc_t5_bias'],
      docs: 'docs/t5.md#options-and-defaults',
      result: 'Float32Array [heads][queries][keys]',
    },
    {
      name: 'shawIndices',
      c: ['posenc_shaw_indices'],
      docs: 'docs/relative.md#shaw-et-al-clipped-relative-embeddings',
      result: 'Int32Array [queries][keys]',
    },
    {
      name: 'xlPositions',
      c: ['posenc_xl_positions'],
      docs: 'docs/relative.md#transformer-xl',
      result: 'Float32Array [klen][dim]',
    },
    {
      name: 'relShift',
      c: ['posenc_xl_rel_shift'],
      docs: 'docs/relative.md#transformer-xl',
      result: 'Float32Array [queries][queries + memory]',
    },
    {
      name: 'xlScores',
      c: ['posenc_xl_scores'],
      docs: 'docs/relative.md#transformer-xl',
      result: 'Float32Array [heads][queries][keys]',
    },
  ],
};
