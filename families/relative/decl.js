// The relative family (ALiBi, T5, Shaw, Transformer-XL), declared: its functions, the C entry
// points each calls, their options, its docs.
// tools/gen_decls.js writes every list of functions and options from the families/*/decl.js files
// (families/sinusoidal/decl.js says what each field means); tests/decls.test.js checks them against the
// running API.
const INT32 = 2 ** 31 - 1;
const size = (doc) => ({ type: 'integer', min: 1, required: true, doc });
const queries = size('query rows');
const keys = { type: 'integer', min: 1, defaultIs: 'queries', doc: 'key columns' };
const heads = size('heads');
const offset = { type: 'integer', min: -INT32, max: INT32, default: 0, doc: 'query i sits at position i + offset' };
const outF32 = { type: 'F32', generic: 'O', doc: 'a buffer the result is written into (and returned)' };
const outI32 = { type: 'I32', generic: 'O', doc: 'a buffer the result is written into (and returned)' };
// T5's bucket options: the registry's T5 parser (js/encodings.js); no mask here, so bidirectional
const bucket = {
  bidirectional: {
    type: 'boolean',
    default: true,
    doc: 'encoder (true); false = decoder self-attention (future keys collapse to bucket 0)',
  },
  numBuckets: {
    type: 'integer',
    min: 4,
    max: 2 ** 20,
    default: 32,
    doc: 'buckets (HF relative_attention_num_buckets); at least 2 when not bidirectional',
  },
  maxDistance: {
    type: 'integer',
    min: 2,
    boundWith: { numBuckets: 4 },
    default: 128,
    rangeIs: '> numBuckets/4 (bidirectional) or numBuckets/2',
    doc: 'the distance of the last bucket (HF relative_attention_max_distance)',
  },
  offset,
};
const f32 = (doc) => ({ type: 'F32', required: true, doc });

export const declare = {
  family: 'relativeFamily',
  order: 30, // its place in every list (decl/index.js sorts the families by it)
  module: 'relative',
  api: 'Omit<RelativeApi, keyof LearnedApi>',
  apiDoc: 'ALiBi, T5, Shaw and Transformer-XL.',
  // the .d.ts interface: the relative family and the learned tables (registered together, issue 4)
  apiInterface: {
    name: 'RelativeApi',
    extends: 'LearnedApi',
    doc: 'The relative family and the learned tables (registered together, issue 4).',
  },
  // option groups with their own .d.ts interface (T5's bucket options, shared by both T5 calls)
  optionTypes: { T5BucketOptions: bucket },
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
      sweep: (pe) => pe.alibiSlopes(300),
      c: ['posenc_alibi_slopes'],
      docs: 'families/relative/alibi.md#slopes',
      result: 'Float32Array [heads]',
      tsDoc: "ALiBi slopes (closed form with exp2) as float32; equal to Python's float64 list after float32 rounding.",
      args: { heads: 'number' },
      returns: 'Returned<O, Float32Array>',
      example: { args: [4] },
      options: { out: outF32 },
    },
    {
      name: 'alibiBias',
      sweep: (pe) => pe.alibiBias({ heads: 4, queries: 20, keys: 24 }),
      c: ['posenc_alibi_bias'],
      docs: 'families/relative/alibi.md#bias',
      result: 'Float32Array [heads][queries][keys], masked entries −Infinity',
      tsDoc: '[heads][queries][keys], masked = −Infinity.',
      returns: 'Returned<O, Float32Array>',
      types: 'AlibiBiasOptions',
      example: { opts: { heads: 2, queries: 3 } },
      options: {
        heads,
        queries,
        keys,
        form: {
          type: ['relative', 'symmetric', 'reference'],
          ts: 'AlibiForm',
          default: 'relative',
          doc: "'relative' m·(j−i), 'symmetric' −m·|j−i| (encoders), 'reference' m·j (fairseq)",
        },
        causal: { type: 'boolean', default: true, doc: 'keys with rp > 0 (j > i + offset) get −Infinity' },
        offset: { ...offset, doc: 'query i sits at position i + offset (decoding with a cache: keys − queries)' },
        out: outF32,
      },
    },
    {
      name: 't5Buckets',
      sweep: (pe) => pe.t5Buckets({ queries: 30, keys: 40 }),
      c: ['posenc_t5_buckets'],
      docs: 'families/relative/t5.md#bucket-function',
      result: 'Int32Array [queries][keys]',
      tsDoc: 'Exact T5 buckets of rp = j − (i + offset): Int32Array [queries][keys].',
      returns: 'Returned<O, Int32Array>',
      example: { opts: { queries: 3 } },
      options: { queries, keys, ...bucket, out: outI32 },
    },
    {
      name: 't5Bias',
      sweep: (pe, { r }) => pe.t5Bias({ weights: r(32 * 4, 7), heads: 4, queries: 20, keys: 24 }),
      c: ['posenc_t5_bias'],
      docs: 'families/relative/t5.md#options-and-defaults',
      result: 'Float32Array [heads][queries][keys]',
      tsDoc: '[heads][queries][keys] = weights[bucket][h]; weights is [numBuckets][heads] and finite.',
      returns: 'Returned<O, Float32Array>',
      example: { opts: { weights: new Float32Array(32 * 2), heads: 2, queries: 3 } },
      options: {
        weights: f32("[numBuckets][heads], finite (HF relative_attention_bias's weight)"),
        heads,
        queries,
        keys,
        ...bucket,
        out: outF32,
      },
    },
    {
      name: 'shawIndices',
      sweep: (pe) => pe.shawIndices({ queries: 30, keys: 40, maxRelative: 8 }),
      c: ['posenc_shaw_indices'],
      docs: 'families/relative/relative.md#shaw-et-al-clipped-relative-embeddings',
      result: 'Int32Array [queries][keys]',
      tsDoc:
        'Shaw et al. indices clip(rp, −maxRelative, maxRelative) + maxRelative, Int32Array [queries][keys]; ' +
        'offset defaults to keys − queries: the queries are the last `queries` key positions (tensor2tensor).',
      returns: 'Returned<O, Int32Array>',
      example: { opts: { queries: 3, maxRelative: 2 } },
      options: {
        queries,
        keys,
        maxRelative: { type: 'integer', min: 1, max: 2 ** 28, required: true, doc: 'the clipping distance k' },
        offset: { ...offset, default: undefined, defaultIs: 'keys − queries' },
        out: outI32,
      },
    },
    {
      name: 'xlPositions',
      sweep: (pe) => pe.xlPositions({ klen: 40, dim: 32 }),
      c: ['posenc_xl_positions'],
      docs: 'families/relative/relative.md#transformer-xl',
      result: 'Float32Array [klen][dim]',
      tsDoc:
        'Transformer-XL R [klen][dim]: row t = [sin(p·w) | cos(p·w)], p = klen−1−t (≤ clampLen when clampLen > 0; ' +
        "≤ 0, e.g. XL's −1, means no clamp).",
      returns: 'Returned<O, Float32Array>',
      example: { opts: { klen: 3, dim: 4 } },
      options: {
        klen: size('rows (key positions)'),
        dim: { ...size('columns'), multipleOf: 2 },
        base: { type: 'number', gt: 1, default: 10000, doc: 'the frequency base' },
        clampLen: {
          type: 'integer',
          min: -INT32,
          default: 0,
          doc: "positions above it are clamped to it when > 0; ≤ 0 (XL's −1) means no clamp",
        },
        out: outF32,
      },
    },
    {
      name: 'relShift',
      sweep: (pe, { r }) => pe.relShift(r(20 * 28, 8), { queries: 20, memory: 8 }),
      c: ['posenc_xl_rel_shift'],
      docs: 'families/relative/relative.md#transformer-xl',
      result: 'Float32Array [queries][queries + memory]',
      tsDoc:
        'Rel-shift by indexing: out[i][j] = scores[i][j + queries−1−i] for j ≤ i + memory, 0 elsewhere; ' +
        'keys = queries + memory (either may be given). Pass out: scores (a PosencBuffer) to shift in place.',
      args: { scores: 'F32' },
      returns: 'Returned<O, Float32Array>',
      example: { args: [new Float32Array(9)], opts: { queries: 3 } },
      options: {
        queries,
        keys: { ...keys, defaultIs: 'queries + memory', rangeIs: '≥ queries', boundWith: { queries: 1 } },
        memory: { type: 'integer', min: 0, defaultIs: 'keys − queries', doc: 'cached positions before the queries' },
        out: outF32,
      },
    },
    {
      name: 'xlScores',
      sweep: (pe, { r }) =>
        pe.xlScores({
          q: r(20 * 32, 1),
          k: r(28 * 32, 2),
          r: r(28 * 32, 3),
          u: r(32, 4),
          v: r(32, 5),
          queries: 20,
          keys: 28,
          dim: 32,
        }),
      c: ['posenc_xl_scores'],
      docs: 'families/relative/relative.md#transformer-xl',
      result: 'Float32Array [heads][queries][keys], masked entries −Infinity',
      tsDoc:
        'Transformer-XL score [heads][queries][keys]: scale·((q+u)·k_j + (q+v)·r_{j+queries−1−i}) for ' +
        'j ≤ i + (keys − queries), −Infinity elsewhere.',
      returns: 'Returned<O, Float32Array>',
      example: {
        opts: {
          q: new Float32Array(3 * 4),
          k: new Float32Array(3 * 4),
          r: new Float32Array(3 * 4),
          u: new Float32Array(4),
          v: new Float32Array(4),
          queries: 3,
          dim: 4,
        },
      },
      options: {
        q: f32('queries [queries][heads][dim]'),
        k: f32('keys [keys][heads][dim]'),
        r: f32('the projected relative positions [keys][heads][dim]'),
        u: f32('the content bias [heads][dim] (r_w_bias)'),
        v: f32('the position bias [heads][dim] (r_r_bias)'),
        queries,
        keys: { ...keys, rangeIs: '≥ queries', boundWith: { queries: 1 } },
        heads: { type: 'integer', min: 1, default: 1, doc: 'heads' },
        dim: size('head size'),
        scale: { type: 'number', defaultIs: '1/sqrt(dim)', doc: 'the score scale' },
        out: outF32,
      },
    },
  ],
};
