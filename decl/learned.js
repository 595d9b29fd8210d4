// The learned-absolute family, declared: its functions, the C entry points each calls, its docs.
// tools/gen_decls.js writes every list of functions from the decl/*.js files (decl/sinusoidal.js
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
      pages: ['docs/learned.md'],
    },
  ],
  functions: [
    {
      name: 'learnedInit',
      c: ['posenc_learned_init'],
      docs: 'docs/learned.md#functions-and-defaults',
      result: 'Float32Array [length][dim], a seeded initial table',
    },
    {
      name: 'gather',
      c: ['posenc_learned_gather'],
      docs: 'docs/learned.md#functions-and-defaults',
      result: 'Float32Array, the rows of the table at the given positions',
    },
    {
      name: 'addTo',
      c: ['posenc_learned_add'],
      docs: 'docs/learned.md#functions-and-defaults',
      result: 'Float32Array, x plus the table rows',
    },
    {
      name: 'concat',
      c: ['posenc_learned_concat'],
      docs: 'docs/learned.md#functions-and-defaults',
      result: 'Float32Array [length][dimX + dimP]',
    },
  ],
};
