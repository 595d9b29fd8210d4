// The learned-absolute family, declared: its functions, the C entry points each calls, its docs.
// tools/gen_decls.js writes every list of functions from the families/*/decl.js files (families/sinusoidal/decl.js
// says what each field means); tests/decls.test.js checks them against the running API.
export const declare = {
  family: 'learnedFamily',
  module: 'learned',
  api: 'LearnedApi',
  lean: true,
  page: true,
  readme: [
    {
      label: 'Learned absolute (BERT, GPT-2)',
      functions: ['learnedInit', 'gather', 'addTo', 'concat'],
      pages: ['families/learned/learned.md'],
    },
  ],
  functions: [
    {
      name: 'learnedInit',
      c: ['posenc_learned_init'],
      docs: 'families/learned/learned.md#functions-and-defaults',
      result: 'Float32Array [length][dim], a seeded initial table',
      options: {
        length: { type: 'integer', min: 1, required: true, doc: 'rows (positions)' },
        dim: { type: 'integer', min: 1, required: true, doc: 'columns' },
        std: { type: 'number', min: 0, max: 1e37, default: 0.02, doc: 'standard deviation (BERT, GPT-2: 0.02)' },
        seed: { type: 'integer', min: 0, max: 2 ** 32 - 1, default: 0, doc: 'the generator seed' },
        truncated: { type: 'boolean', default: false, doc: 'draws beyond 2 std are redrawn' },
        out: { type: 'F32', doc: 'a buffer the result is written into (and returned)' },
      },
    },
    {
      name: 'gather',
      c: ['posenc_learned_gather'],
      docs: 'families/learned/learned.md#functions-and-defaults',
      result: 'Float32Array, the rows of the table at the given positions',
    },
    {
      name: 'addTo',
      c: ['posenc_learned_add'],
      docs: 'families/learned/learned.md#functions-and-defaults',
      result: 'Float32Array, x plus the table rows',
      args: ['x', 'table'],
      options: {
        length: { type: 'integer', min: 1, required: true, doc: 'rows of x' },
        dim: { type: 'integer', min: 1, required: true, doc: 'columns of x and of the table' },
        offset: { type: 'integer', min: 0, default: 0, doc: 'x row i gets table row offset + i' },
        rows: { type: 'integer', min: 1, doc: 'rows of the table (default: its length / dim)' },
      },
    },
    {
      name: 'concat',
      c: ['posenc_learned_concat'],
      docs: 'families/learned/learned.md#functions-and-defaults',
      result: 'Float32Array [length][dimX + dimP]',
    },
  ],
};
