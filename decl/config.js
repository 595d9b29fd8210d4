// fromConfig, declared: pure JS (it reads a config, calls no C), its docs.
// tools/gen_decls.js writes every list of functions from the decl/*.js files (decl/sinusoidal.js
// says what each field means); tests/decls.test.js checks them against the running API.
export const declare = {
  family: 'configFamily',
  module: 'config',
  api: 'ConfigApi',
  apiDoc: "fromConfig: a Hugging Face config.json to one layer's scheme.",
  readme: [
    {
      label:
        "From a Hugging Face `config.json` to one layer's exact scheme (79 model types, 75 real configs checked), and onnxruntime-web interop",
      functions: ['fromConfig'],
      pages: ['docs/models.md', 'docs/interop.md'],
    },
  ],
  functions: [
    {
      name: 'fromConfig',
      c: [],
      docs: 'docs/models.md#what-it-returns',
      result: 'ModelSpec',
      heap: 'pure JS: reads a config, calls no C (js/config.js)',
    },
  ],
};
