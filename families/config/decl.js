// fromConfig, declared: pure JS (it reads a config, calls no C), its docs.
// tools/gen_decls.js writes every list of functions from the families/*/decl.js files (families/sinusoidal/decl.js
// says what each field means); tests/decls.test.js checks them against the running API.
import { readdirSync } from 'node:fs';
import { MODELS } from './models.js';

// the README's counts, from the allow-list and the real configs the tests check
// (families/config/config.test.js asserts both in README.md)
const models = Object.keys(MODELS).length;
const configs = readdirSync(new URL('../../tests/fixtures/configs/', import.meta.url)).filter(
  (f) => f.endsWith('.json') && f !== 'SOURCES.json',
).length;

export const declare = {
  family: 'configFamily',
  module: 'config',
  api: 'ConfigApi',
  apiDoc: "fromConfig: a Hugging Face config.json to one layer's scheme.",
  readme: [
    {
      label: `From a Hugging Face \`config.json\` to one layer's exact scheme (${models} model types, ${configs} real configs checked), and onnxruntime-web interop`,
      functions: ['fromConfig'],
      pages: ['families/config/models.md', 'docs/interop.md'],
    },
  ],
  functions: [
    {
      name: 'fromConfig',
      c: [],
      docs: 'families/config/models.md#what-it-returns',
      result: 'ModelSpec',
      heap: 'pure JS: reads a config, calls no C (families/config/config.js)',
    },
  ],
};
