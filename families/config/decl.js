// fromConfig, declared: pure JS (it reads a config, calls no C), its options, its docs.
// tools/gen_decls.js writes every list of functions and options from the families/*/decl.js files
// (families/sinusoidal/decl.js says what each field means); tests/decls.test.js checks them against the
// running API.
import { readdirSync, readFileSync } from 'node:fs';
import { MODELS } from './models.js';

// the README's counts, from the allow-list and the real configs the tests check
// (families/config/config.test.js asserts both in README.md)
const models = Object.keys(MODELS).length;
const configs = readdirSync(new URL('../../tests/fixtures/configs/', import.meta.url)).filter(
  (f) => f.endsWith('.json') && f !== 'SOURCES.json',
).length;

const clip = JSON.parse(
  readFileSync(new URL('../../tests/fixtures/configs/clip-vit-base-patch32.json', import.meta.url), 'utf8'),
);

export const declare = {
  family: 'configFamily',
  order: 80, // its place in every list (decl/index.js sorts the families by it)
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
      tsDoc: 'The positional scheme of one layer of a Hugging Face config.json (parsed).',
      args: { config: 'object' },
      returns: 'ModelSpec',
      // a dual-tower config, so both towers are a valid choice
      example: { args: [clip] },
      options: {
        layer: {
          type: 'integer',
          min: 0,
          default: 0,
          rangeIs: '< the number of layers (else ≤ 2^20)',
          doc: 'the layer whose scheme is returned',
        },
        decoder: { type: 'boolean', default: false, doc: 'the decoder stack of T5, Whisper, BART, mBART' },
        as: {
          ts: 'string',
          doc: 'read a model_type fromConfig does not map as this mapped one (recorded in notes); without it an unmapped model_type is refused',
        },
        tower: {
          type: ['text', 'vision'],
          defaultIs: "'text' (a vision config: its own tower)",
          doc: "a dual-tower config's (CLIP, SigLIP) text_config or vision_config",
        },
      },
    },
  ],
};
