// The KV cache family, declared: its function, the C entry points its cache calls, its docs.
// tools/gen_decls.js writes every list of functions from the families/*/decl.js files (families/sinusoidal/decl.js
// says what each field means); tests/decls.test.js checks them against the running API.
export const declare = {
  family: 'kvCacheFamily',
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
    },
  ],
};
