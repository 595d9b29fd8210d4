// The extrapolation lab's family, declared: its functions, the C entry points of the lab's own
// module (c_src/exports_lab.txt) each calls, their options, its docs. The defaults of a run are
// families/train/train.js's TRAIN_DEFAULTS (the trainer reads them), not copied here.
// tools/gen_decls.js writes every list of functions and options from the families/*/decl.js files
// (families/sinusoidal/decl.js says what each field means); tests/decls.test.js checks them against the
// running API. An example with `model: true` is called on a model tests/decls.test.js trains.
import { TRAIN_DEFAULTS as d } from './train.js';

const INT31 = 2 ** 31 - 1;
const int = (min, max, def, doc) => ({ type: 'integer', min, max, default: def, doc });
const num = (range, def, doc) => ({ type: 'number', ...range, default: def, doc });
const scaling = {
  type: ['none', 'linear', 'ntk', 'yarn'],
  default: 'none',
  doc: "RoPE scaling at evaluation (method 'rope' only)",
};
const factor = {
  type: 'number',
  min: 1,
  max: 1024,
  defaultIs: 'length / the training length',
  boundWith: { scaling: 'linear' },
  doc: "the scaling factor (scaling other than 'none' only)",
};
const seed = int(0, INT31, 1, 'the evaluation data seed');
// a small, fast run for the examples
const tiny = { length: 8, steps: 2, dim: 8, heads: 2, layers: 1, hidden: 8, batch: 2 };

export const declare = {
  family: 'trainFamily',
  order: 70, // its place in every list (decl/index.js sorts the families by it)
  module: 'train',
  api: "Omit<TrainApi, 'loadLab' | 'labLoaded'>",
  // the .d.ts interface: the lab's functions and its loader (decl/index.js loadLab)
  apiInterface: { name: 'TrainApi', members: ['loadLab', 'readonly labLoaded: boolean'] },
  lab: true,
  readme: [
    {
      label: 'Extrapolation lab: train a tiny transformer per method, measure accuracy past the training length',
      functions: ['train', 'evaluate', 'attentionMap', 'positionTable', 'labSequences', 'saveModel', 'loadModel'],
      pages: ['families/train/lab.md'],
    },
  ],
  functions: [
    {
      name: 'train',
      c: [
        'posenc_train_size',
        'posenc_train_init',
        'posenc_train_param_count',
        'posenc_train_params',
        'posenc_train_step',
      ],
      docs: 'families/train/lab.md#the-model',
      result: '{ model: LabModel, losses: Float32Array [steps] }',
      heap: "the lab's instance (families/train/train.test.js checks its leaks)",
      tsDoc:
        'Train one model; onProgress is called every progressEvery steps, and returning false from it stops training.',
      after: { 'onProgress?': '(p: TrainProgress) => boolean | void' },
      returns: '{ model: LabModel; losses: Float32Array }',
      types: 'TrainOptions',
      example: { opts: tiny },
      options: {
        task: { type: ['copy', 'periodic', 'first', 'ngram'], ts: 'LabTask', default: d.task, doc: 'the task' },
        method: {
          type: ['none', 'learned', 'sinusoidal', 'rope', 'alibi', 't5'],
          ts: 'LabMethod',
          default: d.method,
          doc: 'the positional method',
        },
        length: int(8, 512, d.length, 'the training length'),
        steps: int(1, 1e6, d.steps, 'optimiser steps'),
        seed: int(0, INT31, d.seed, 'the seed of the initial weights and the training data'),
        dim: int(4, 256, d.dim, 'the model width'),
        heads: {
          ...int(1, 16, d.heads, 'heads'),
          rangeIs: 'a divisor of dim leaving an even head width',
          boundWith: { dim: 32 },
        },
        layers: int(1, 4, d.layers, 'layers'),
        hidden: int(1, 1024, d.hidden, 'the feed-forward width'),
        batch: int(1, 256, d.batch, 'sequences per step'),
        k: {
          type: 'integer',
          defaultIs: 'copy 1, periodic 6, ngram 3 (absent for first)',
          rangeIs: 'copy 1 … length − 1, periodic 2 … min(16, ceil(length/2) − 1), ngram 2 … 3',
          doc: "the task's parameter: copy's offset, periodic's longest period, ngram's order",
        },
        lr: num({ gt: 0, max: 1 }, d.lr, 'the AdamW learning rate'),
        weightDecay: num({ min: 0, max: 1 }, d.weightDecay, 'the AdamW weight decay'),
        clip: num({ gt: 0, max: 1e6 }, d.clip, 'the gradient norm clip'),
        beta1: num({ min: 0, lt: 1 }, d.beta1, "AdamW's beta1"),
        beta2: num({ min: 0, lt: 1 }, d.beta2, "AdamW's beta2"),
        eps: num({ gt: 0, max: 1 }, d.eps, "AdamW's epsilon"),
        progressEvery: {
          type: 'integer',
          min: 1,
          max: 1e6,
          defaultIs: 'ceil(steps / 50)',
          doc: 'steps between onProgress calls',
        },
      },
    },
    {
      name: 'evaluate',
      c: ['posenc_train_evaluate'],
      docs: 'families/train/lab.md#what-was-measured',
      result: 'Evaluation: accuracy per length',
      heap: "the lab's instance",
      args: { model: 'LabModel' },
      returns: 'Evaluation',
      types: 'EvaluateOptions',
      example: { model: true },
      options: {
        lengths: {
          ts: 'number[]',
          defaultIs: '[1, 2, 4, 8] × the training length',
          rangeIs: '1 to 64 lengths, each ≤ 1024',
          doc: 'the lengths scored',
        },
        count: int(1, 4096, 64, 'sequences per length'),
        seed,
        scaling,
        factor,
        strict: {
          type: 'boolean',
          default: false,
          doc: 'throw (E_RANGE) instead of null for a learned model past its table',
        },
      },
    },
    {
      name: 'labSequences',
      c: ['posenc_train_sequences'],
      docs: 'families/train/lab.md#the-tasks',
      result: '{ tokens, targets } Int32Array [count][length]',
      heap: "the lab's instance",
      tsDoc: 'The sequences evaluate scores at `length`: tokens and targets [count][length] (-1: not scored).',
      args: { model: 'LabModel' },
      returns: '{ tokens: Int32Array; targets: Int32Array; length: number; count: number }',
      example: { model: true },
      options: {
        length: {
          type: 'integer',
          defaultIs: 'the training length',
          rangeIs: "the task's shortest … 1024 (learned: the training length)",
          doc: 'the sequence length',
        },
        count: int(1, 4096, 1, 'sequences'),
        seed,
      },
    },
    {
      name: 'attentionMap',
      c: ['posenc_train_attention'],
      docs: 'families/train/lab.md#the-model',
      result: '{ weights [heads][length][length], tokens, heads, length }',
      heap: "the lab's instance",
      args: { model: 'LabModel' },
      returns: '{ weights: Float32Array; tokens: Int32Array; heads: number; length: number }',
      example: { model: true },
      options: {
        length: {
          type: 'integer',
          max: 512,
          defaultIs: 'the training length',
          rangeIs: "≥ the task's shortest (learned: ≤ the training length)",
          doc: 'the input length',
        },
        layer: { type: 'integer', min: 0, default: 0, rangeIs: '< layers', doc: 'the layer' },
        seed,
        scaling,
        factor,
      },
    },
    {
      name: 'positionTable',
      c: [],
      docs: 'families/train/lab.md#the-model',
      result: "Float32Array [length][dim], a learned model's table (a view of its params; other methods are refused)",
      heap: "the lab's instance",
      args: { model: 'LabModel' },
      returns: 'Float32Array',
    },
    {
      name: 'saveModel',
      c: [],
      docs: 'families/train/lab.md#exact-and-reproducible',
      result: 'string (JSON)',
      heap: 'pure JS: serialises a trained model',
      args: { model: 'LabModel' },
      returns: 'string',
    },
    {
      name: 'loadModel',
      c: [],
      docs: 'families/train/lab.md#exact-and-reproducible',
      result: 'LabModel',
      heap: 'pure JS: parses a saved model',
      args: { text: 'string | object' },
      returns: 'LabModel',
    },
  ],
};
