// The sinusoidal family, declared: its functions, the C entry points each calls, their options
// (type, range, default) and docs. Fields: family, order (its place in every list), module
// (families/MODULE/MODULE.js), api (its type in the .d.ts; apiInterface: { name, extends, doc }
// when that is not an interface of its own), lean
// (all its C in posenc/lite's lean core), page (in the page's cores: true, or 'attention' for the
// attention core only), readme (its rows of README's table), optionTypes (option groups with a
// .d.ts interface of their own), and per function:
//   name, c (every C entry point it calls), docs (page#anchor), result (in words), sweep (its
//   call in tests/robust_heap.test.js's heap sweep: (pe, inputs) => result, or { Variant: call })
//   or heap (why the heap sweep cannot reach it);
//   the .d.ts signature: args ({ name: TS type } before the options; `name?` optional), inPlace
//   (the arg it returns: typed T extends F32), after (args after the options), returns (the TS
//   result; an option's `generic` letter stands for the type of the value passed), overloads
//   ([{ with, returns }]: an earlier signature for options & `with`), tsDoc, types (the name of
//   its options' interface; inline without it);
//   example ({ args, opts }: a valid call tests/decls.test.js probes the options from);
//   options: { name: { type ('integer', 'number', 'boolean', 'F32', 'I32', 'object' with fields,
//   or a list of strings), ts (its TS type when not one of those), min, max, gt, lt, multipleOf,
//   rangeIs (a range that depends on other options, in words), boundWith (the options under
//   which the bounds hold, for the probes), default, defaultIs (a default that depends on other
//   options, in words), required, generic (its letter in the signature), doc } }.
// tools/gen_decls.js writes every list of functions and options from the families/*/decl.js files
// (index.js forwards, the .d.ts, export lists, fuzz rows, README and docs tables);
// tests/decls.test.js checks the declarations against the running API.
const base = { type: 'number', gt: 1, default: 10000, doc: 'the frequency base' };
const spacing = { type: ['paper', 't2t'], default: 'paper', doc: 'frequency spacing' };
const oddDim = { type: ['error', 'pad', 'xlm'], default: 'error', doc: 'what an odd `dim` means' };
// an odd dim is refused unless oddDim says what it means
const dimOdd = {
  type: 'integer',
  min: 1,
  rangeIs: "even unless oddDim is 'pad' or 'xlm'",
  boundWith: { oddDim: 'pad' },
  required: true,
};
const out = { type: 'F32', generic: 'O', doc: 'a buffer the result is written into (and returned)' };

export const declare = {
  family: 'sinusoidalFamily',
  order: 10, // its place in every list (decl/index.js sorts the families by it)
  module: 'sinusoidal',
  api: 'SinusoidalApi',
  lean: true,
  page: true,
  readme: [
    {
      label: 'Sinusoidal (paper, tensor2tensor, fairseq, XLM, Marian, MAE 2-D)',
      functions: ['sinusoidal', 'sinusoidalFrequencies', 'sinusoidal2d', 'similarity'],
      pages: ['families/sinusoidal/sinusoidal.md'],
    },
  ],
  functions: [
    {
      name: 'sinusoidal',
      sweep: (pe) => pe.sinusoidal({ length: 40, dim: 64 }),
      c: ['posenc_sinusoidal_fill'],
      docs: 'families/sinusoidal/sinusoidal.md#options-and-defaults',
      result: 'Float32Array [length][dim]',
      returns: 'Returned<O, Float32Array>',
      types: 'SinusoidalOptions',
      example: { opts: { length: 4, dim: 8 } },
      options: {
        length: { type: 'integer', min: 1, required: true, doc: 'rows (positions)' },
        dim: { ...dimOdd, doc: 'columns' },
        base,
        layout: { type: ['interleaved', 'split'], default: 'interleaved', doc: 'sin/cos pairing' },
        spacing,
        offset: {
          type: 'number',
          default: 0,
          rangeIs: '|offset| + length ≤ 2^31',
          doc: 'the first row is position `offset`',
        },
        oddDim,
        out,
      },
    },
    {
      name: 'sinusoidalFrequencies',
      sweep: (pe) => pe.sinusoidalFrequencies({ dim: 512 }),
      c: ['posenc_sinusoidal_freqs'],
      docs: 'families/sinusoidal/sinusoidal.md#options-and-defaults',
      result: 'Float64Array, ceil(dim / 2) frequencies (radians per position)',
      returns: 'Float64Array',
      example: { opts: { dim: 8 } },
      options: {
        dim: { ...dimOdd, max: 2 ** 28, doc: 'the table width' },
        base,
        spacing,
        oddDim,
      },
    },
    {
      name: 'sinusoidal2d',
      sweep: (pe) => pe.sinusoidal2d({ height: 6, width: 7, dim: 64 }),
      c: ['posenc_sinusoidal2d_fill'],
      docs: 'families/sinusoidal/sinusoidal.md#2-d-tables-vit--mae',
      result: 'Float32Array [height · width (+1 with clsToken)][dim]',
      returns: 'Returned<O, Float32Array>',
      types: 'Sinusoidal2dOptions',
      example: { opts: { height: 2, width: 2, dim: 8 } },
      options: {
        height: { type: 'integer', min: 1, required: true, doc: 'grid rows' },
        width: { type: 'integer', min: 1, required: true, doc: 'grid columns' },
        dim: { type: 'integer', min: 4, multipleOf: 4, required: true, doc: 'columns' },
        base,
        clsToken: { type: 'boolean', default: false, doc: 'a leading all-zero row' },
        out,
      },
    },
    {
      name: 'similarity',
      sweep: (pe, { r }) => pe.similarity(r(40 * 32, 5), { length: 40, dim: 32, normalize: true }),
      c: ['posenc_similarity'],
      docs: 'families/sinusoidal/sinusoidal.md',
      result: 'Float32Array [length][length], the Gram matrix of the rows',
      args: { table: 'F32' },
      returns: 'Returned<O, Float32Array>',
      example: { args: [Float32Array.from({ length: 32 }, (_, i) => Math.sin(i))], opts: { length: 4, dim: 8 } },
      options: {
        length: { type: 'integer', min: 1, required: true, doc: 'rows of the table' },
        dim: { type: 'integer', min: 1, required: true, doc: 'columns of the table' },
        normalize: { type: 'boolean', default: false, doc: 'cosine similarity instead of dot products' },
        out,
      },
    },
  ],
};
