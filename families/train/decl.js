// The extrapolation lab's family, declared: its functions, the C entry points of the lab's own
// module (c_src/exports_lab.txt) each calls, its docs.
// tools/gen_decls.js writes every list of functions from the families/*/decl.js files (families/sinusoidal/decl.js
// says what each field means); tests/decls.test.js checks them against the running API.
export const declare = {
  family: 'trainFamily',
  module: 'train',
  api: "Omit<TrainApi, 'loadLab' | 'labLoaded'>",
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
      result: 'Promise of a LabModel',
      heap: "the lab's instance (families/train/train.test.js checks its leaks)",
    },
    {
      name: 'evaluate',
      c: ['posenc_train_evaluate'],
      docs: 'families/train/lab.md#what-was-measured',
      result: 'Evaluation: accuracy per length',
      heap: "the lab's instance",
    },
    {
      name: 'labSequences',
      c: ['posenc_train_sequences'],
      docs: 'families/train/lab.md#the-tasks',
      result: '{ tokens, targets } Int32Array [count][length]',
      heap: "the lab's instance",
    },
    {
      name: 'attentionMap',
      c: ['posenc_train_attention'],
      docs: 'families/train/lab.md#the-model',
      result: 'Float32Array [heads][length][length]',
      heap: "the lab's instance",
    },
    {
      name: 'positionTable',
      c: [],
      docs: 'families/train/lab.md#the-model',
      result: 'Float32Array [length][dim], or null',
      heap: "the lab's instance",
    },
    {
      name: 'saveModel',
      c: [],
      docs: 'families/train/lab.md#exact-and-reproducible',
      result: 'string (JSON)',
      heap: 'pure JS: serialises a trained model',
    },
    {
      name: 'loadModel',
      c: [],
      docs: 'families/train/lab.md#exact-and-reproducible',
      result: 'LabModel',
      heap: 'pure JS: parses a saved model',
    },
  ],
};
