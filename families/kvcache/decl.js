// The KV cache family, declared: its function, the C entry points its cache calls, its options,
// its docs. The `encoding` option is typed by the registry's .d.ts union (KvCacheEncoding); the
// cache's methods (append, attend, ...) are the KvCache interface of the .d.ts.
// tools/gen_decls.js writes every list of functions and options from the families/*/decl.js files
// (families/sinusoidal/decl.js says what each field means); tests/decls.test.js checks them against the
// running API.
export const declare = {
  family: 'kvCacheFamily',
  order: 60, // its place in every list (decl/index.js sorts the families by it)
  module: 'kvcache',
  api: 'KvCacheApi',
  readme: [
    {
      label: 'Grouped-query attention, the KV cache for decoding',
      functions: ['kvCache'],
      extra: ['attention({ kvHeads })'],
      pages: ['families/attention/attention.md'],
    },
  ],
  fuzzRows: { posenc_kvcache_attend: 4 },
  functions: [
    {
      name: 'kvCache',
      sweep: {
        None: (pe, { kvSteps }) => kvSteps(pe, { type: 'none' }),
        Rope: (pe, { kvSteps }) => kvSteps(pe, { type: 'rope' }),
        Mrope: (pe, { kvSteps }) => kvSteps(pe, { type: 'rope', mropeSections: [2, 1, 1] }, true),
      },
      c: [
        'posenc_kvcache_size',
        'posenc_kvcache_store',
        'posenc_kvcache_scratch_size',
        'posenc_kvcache_attend',
        'posenc_rope_freqs',
        'posenc_rope_mrope_fill',
        'posenc_rope_scratch_size',
        'posenc_rope_apply',
        'posenc_rope_apply_cached',
      ],
      docs: 'families/attention/attention.md#the-kv-cache',
      result: 'KvCache: append, attend, importPast, exportPresent, truncate, free',
      returns: 'KvCache',
      types: 'KvCacheOptions',
      example: { opts: { dim: 4, capacity: 8 } },
      options: {
        heads: { type: 'integer', min: 1, default: 1, doc: 'query heads' },
        kvHeads: {
          type: 'integer',
          min: 1,
          defaultIs: 'heads',
          rangeIs: 'a divisor of heads',
          doc: 'key/value heads stored (grouped-query attention)',
        },
        dim: { type: 'integer', min: 1, required: true, doc: 'head size of q and k' },
        dimV: { type: 'integer', min: 1, defaultIs: 'dim', doc: 'head size of v' },
        capacity: {
          type: 'integer',
          min: 1,
          max: 2 ** 28,
          required: true,
          doc: 'the most tokens the cache holds; appending past it throws (E_RANGE)',
        },
        encoding: { ts: 'KvCacheEncoding', doc: "how positions enter (default { type: 'none' })" },
        window: {
          type: 'integer',
          min: 0,
          default: 0,
          doc: 'sliding window (Mistral): a query sees only the window newest keys up to itself; 0 = none',
        },
        scale: { type: 'number', min: -3e38, max: 3e38, defaultIs: '1/sqrt(dim) (1 for T5)', doc: 'the logit scale' },
        chunk: {
          type: 'integer',
          min: 0,
          default: 0,
          doc: 'chunked local attention over the true positions, as in attention; 0 = none',
        },
        queryScale: {
          ts: '(position: number) => number',
          doc: 'the factor of each query as a function of its position (attend may pass a Float32Array instead)',
        },
      },
    },
  ],
};
