// The relative family (ALiBi, T5, Shaw, Transformer-XL), declared: its functions, the C entry
// points each calls, its docs.
// tools/gen_decls.js writes every list of functions from the families/*/decl.js files (families/sinusoidal/decl.js
// says what each field means); tests/decls.test.js checks them against the running API.
export const declare = {
  family: 'relativeFamily',
  module: 'relative',
  api: 'Omit<RelativeApi, keyof LearnedApi>',
  apiDoc: 'ALiBi, T5, Shaw and Transformer-XL.',
  page: true,
  readme: [
    { label: 'ALiBi', functions: ['alibiSlopes', 'alibiBias'], pages: ['families/relative/alibi.md'] },
    { label: 'T5 relative bias', functions: ['t5Buckets', 't5Bias'], pages: ['families/relative/t5.md'] },
    {
      label: 'Shaw et al., Transformer-XL',
      functions: ['shawIndices', 'xlPositions', 'relShift', 'xlScores'],
      pages: ['families/relative/relative.md'],
    },
  ],
  functions: [
    {
      name: 'alibiSlopes',
      c: ['posenc_alibi_slopes'],
      docs: 'families/relative/alibi.md#slopes',
      result: 'Float32Array [heads]',
    },
    {
      name: 'alibiBias',
      c: ['posenc_alibi_bias'],
      docs: 'families/relative/alibi.md#bias',
      result: 'Float32Array [heads][queries][keys]',
    },
    {
      name: 't5Buckets',
      c: ['posenc_t5_buckets'],
      docs: 'families/relative/t5.md#bucket-function',
      result: 'Int32Array [queries][keys]',
    },
    {
      name: 't5Bias',
      c: ['posenc_t5_bias'],
      docs: 'families/relative/t5.md#options-and-defaults',
      result: 'Float32Array [heads][queries][keys]',
    },
    {
      name: 'shawIndices',
      c: ['posenc_shaw_indices'],
      docs: 'families/relative/relative.md#shaw-et-al-clipped-relative-embeddings',
      result: 'Int32Array [queries][keys]',
    },
    {
      name: 'xlPositions',
      c: ['posenc_xl_positions'],
      docs: 'families/relative/relative.md#transformer-xl',
      result: 'Float32Array [klen][dim]',
    },
    {
      name: 'relShift',
      c: ['posenc_xl_rel_shift'],
      docs: 'families/relative/relative.md#transformer-xl',
      result: 'Float32Array [queries][queries + memory]',
    },
    {
      name: 'xlScores',
      c: ['posenc_xl_scores'],
      docs: 'families/relative/relative.md#transformer-xl',
      result: 'Float32Array [heads][queries][keys]',
    },
  ],
};
