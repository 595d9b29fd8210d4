// The learned-absolute family, declared: its functions, the C entry points each calls, their
// options, its docs.
// tools/gen_decls.js writes every list of functions and options from the families/*/decl.js files
// (families/sinusoidal/decl.js says what each field means); tests/decls.test.js checks them against the
// running API.
const out = { type: 'F32', generic: 'O', doc: 'a buffer the result is written into (and returned)' };
const rows = { type: 'integer', min: 1, defaultIs: 'table.length / dim', doc: 'rows of the table' };
const offset = { type: 'integer', min: 0, default: 0, doc: 'x row i gets table row offset + i' };
const table = new Float32Array(6 * 4).fill(0.5);

export const declare = {
  family: 'learnedFamily',
  order: 40, // its place in every list (decl/index.js sorts the families by it)
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
      sweep: (pe) => pe.learnedInit({ length: 40, dim: 32, seed: 3 }),
      c: ['posenc_learned_init'],
      docs: 'families/learned/learned.md#functions-and-defaults',
      result: 'Float32Array [length][dim], a seeded initial table',
      tsDoc: '[length][dim] ~ N(0, std²) (truncated: redrawn beyond 2·std), bit-identical on every build.',
      returns: 'Returned<O, Float32Array>',
      example: { opts: { length: 4, dim: 8 } },
      options: {
        length: { type: 'integer', min: 1, required: true, doc: 'rows (positions)' },
        dim: { type: 'integer', min: 1, required: true, doc: 'columns' },
        std: { type: 'number', min: 0, max: 1e37, default: 0.02, doc: 'standard deviation (BERT, GPT-2: 0.02)' },
        seed: { type: 'integer', min: 0, max: 2 ** 32 - 1, default: 0, doc: 'the generator seed' },
        truncated: { type: 'boolean', default: false, doc: 'draws beyond 2 std are redrawn' },
        out,
      },
    },
    {
      name: 'gather',
      sweep: (pe, { r }) =>
        pe.gather(r(40 * 16, 9), { dim: 16, positions: Int32Array.from({ length: 30 }, (_, i) => (i * 7) % 40) }),
      c: ['posenc_learned_gather'],
      docs: 'families/learned/learned.md#functions-and-defaults',
      result: 'Float32Array [positions.length][dim], the rows of the table at the given positions',
      tsDoc: 'Rows of table [rows][dim] at `positions`.',
      args: { table: 'F32' },
      returns: 'Returned<O, Float32Array>',
      example: { args: [table], opts: { dim: 4, positions: [0, 2, 5] } },
      options: {
        rows,
        dim: { type: 'integer', min: 1, required: true, doc: 'columns of the table' },
        positions: {
          ts: 'Int32Array | PosencBuffer<Int32Array> | number[]',
          required: true,
          doc: 'the rows to read (at least one)',
        },
        outOfRange: {
          type: ['error', 'clamp', 'zero'],
          default: 'error',
          doc: 'a position outside the table: refused, clamped to the nearest row, or a zero row (tensor2tensor)',
        },
        out,
      },
    },
    {
      name: 'addTo',
      sweep: (pe, { r }) => pe.addTo(r(20 * 16, 1), r(40 * 16, 2), { length: 20, dim: 16, offset: 3 }),
      c: ['posenc_learned_add'],
      docs: 'families/learned/learned.md#functions-and-defaults',
      result: 'Float32Array, x plus the table rows (x, in place)',
      tsDoc: 'x[p] += table[offset + p], in place; returns x.',
      args: { x: 'F32', table: 'F32' },
      inPlace: 'x',
      example: { args: [new Float32Array(3 * 4), table], opts: { length: 3, dim: 4 } },
      options: {
        length: { type: 'integer', min: 1, required: true, doc: 'rows of x' },
        dim: { type: 'integer', min: 1, required: true, doc: 'columns of x and of the table' },
        offset,
        rows,
      },
    },
    {
      name: 'concat',
      sweep: (pe, { r }) => pe.concat(r(20 * 16, 1), r(40 * 8, 2), { length: 20, dimX: 16, dimP: 8, offset: 2 }),
      c: ['posenc_learned_concat'],
      docs: 'families/learned/learned.md#functions-and-defaults',
      result: 'Float32Array [length][dimX + dimP]',
      tsDoc: '[length][dimX + dimP] = [x[p], table[offset + p]].',
      args: { x: 'F32', table: 'F32' },
      returns: 'Returned<O, Float32Array>',
      example: { args: [new Float32Array(3 * 2), table], opts: { length: 3, dimX: 2, dimP: 4 } },
      options: {
        length: { type: 'integer', min: 1, required: true, doc: 'rows of x' },
        dimX: { type: 'integer', min: 1, required: true, doc: 'columns of x' },
        dimP: { type: 'integer', min: 1, required: true, doc: 'columns of the table' },
        offset: { ...offset, doc: 'row i gets table row offset + i' },
        rows: { ...rows, defaultIs: 'table.length / dimP' },
        out,
      },
    },
  ],
};
