// The sinusoidal family, declared: its functions, the C entry points each calls, their options
// (type, range, default) and docs. Fields: family, module (js/MODULE.js), api (its type in the
// .d.ts), lean (all its C in posenc/lite's lean core), page (in the page's cores: true, or
// 'attention' for the attention core only), readme (its rows of README's table), and per function
// name, c (every C entry point it calls), docs (page#anchor), result, heap (why the heap sweep
// cannot reach it, if so), types (the .d.ts interface of its options) and options.
// tools/gen_decls.js writes every list of functions and options from the families/*/decl.js files
// (index.js forwards, the .d.ts, export lists, fuzz rows, README and docs tables);
// tests/decls.test.js checks the declarations against the running API.
const base = { type: 'number', gt: 1, default: 10000, doc: 'the frequency base' };
const spacing = { type: ['paper', 't2t'], default: 'paper', doc: 'frequency spacing' };
const oddDim = { type: ['error', 'pad', 'xlm'], default: 'error', doc: 'what an odd `dim` means' };
const out = { type: 'F32', doc: 'a buffer the result is written into (and returned)' };

export const declare = {
  family: 'sinusoidalFamily',
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
      c: ['posenc_sinusoidal_fill'],
      docs: 'families/sinusoidal/sinusoidal.md#options-and-defaults',
      result: 'Float32Array [length][dim]',
      types: 'SinusoidalOptions',
      options: {
        length: { type: 'integer', min: 1, required: true, doc: 'rows (positions)' },
        dim: { type: 'integer', min: 1, required: true, doc: 'columns' },
        base,
        layout: { type: ['interleaved', 'split'], default: 'interleaved', doc: 'sin/cos pairing' },
        spacing,
        offset: { type: 'number', default: 0, doc: 'the first row is position `offset`' },
        oddDim,
        out,
      },
    },
    {
      name: 'sinusoidalFrequencies',
      c: ['posenc_sinusoidal_freqs'],
      docs: 'families/sinusoidal/sinusoidal.md#options-and-defaults',
      result: 'Float64Array, ceil(dim / 2) frequencies (radians per position)',
      options: {
        dim: { type: 'integer', min: 1, max: 2 ** 28, required: true, doc: 'the table width' },
        base,
        spacing,
        oddDim,
      },
    },
    {
      name: 'sinusoidal2d',
      c: ['posenc_sinusoidal2d_fill'],
      docs: 'families/sinusoidal/sinusoidal.md#2-d-tables-vit--mae',
      result: 'Float32Array [height · width (+1 with clsToken)][dim]',
      types: 'Sinusoidal2dOptions',
      options: {
        height: { type: 'integer', min: 1, required: true, doc: 'grid rows' },
        width: { type: 'integer', min: 1, required: true, doc: 'grid columns' },
        dim: { type: 'integer', min: 1, required: true, doc: 'multiple of 4' },
        base,
        clsToken: { type: 'boolean', default: false, doc: 'a leading all-zero row' },
        out,
      },
    },
    {
      name: 'similarity',
      c: ['posenc_similarity'],
      docs: 'families/sinusoidal/sinusoidal.md',
      result: 'Float32Array [length][length], the Gram matrix of the rows',
      args: ['table'],
      options: {
        length: { type: 'integer', min: 1, required: true, doc: 'rows of the table' },
        dim: { type: 'integer', min: 1, required: true, doc: 'columns of the table' },
        normalize: { type: 'boolean', default: false, doc: 'cosine similarity instead of dot products' },
        out,
      },
    },
  ],
};
