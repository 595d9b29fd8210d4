// fromConfig, declared: pure JS (it reads a config, calls no C), its options, its docs.
// tools/gen_decls.js writes every list of functions and options from the families/*/decl.js files
// (families/sinusoidal/decl.js says what each field means); tests/decls.test.js checks them against the
// running API.
import { readdirSync, readFileSync } from 'node:fs';
import { MODELS } from './models.js';

// the README's counts, from the allow-list and the real configs the tests check
// (tools/gen_models.js writes the same counts into README.md's fromConfig paragraph)
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

// The words of families/config/models.md's model-type tables that a MODELS row's fields do not
// say (tools/gen_models.js derives the rest from the row): per type and cell, a clause appended to
// the derived text (`more`) or the cell's own words (`is`); `hide`: defaults the row carries that
// the type's code never reaches (ModernBERT reads global_rope_theta / local_rope_theta). Cells:
// family, pairing, layer, scale, defaults.
export const MODEL_DOCS = {
  gemma: {
    more: {
      layer: '; use_bidirectional_attention: no causal mask (noted)',
    },
  },
  deepseek_v2: {
    more: {
      scale: " (the remote code's mscale² noted)",
    },
  },
  gemma3_text: {
    more: {
      layer:
        '; use_bidirectional_attention (EmbeddingGemma): window sliding_window // 2 + 1 both ways, no causal mask (noted)',
    },
  },
  exaone4: {
    more: {
      layer: '; no sliding_window and no layer_types: refused (Exaone4Config fails)',
    },
  },
  llama4_text: {
    more: {
      scale: ' (NoPE layers: × temperature when attn_temperature_tuning)',
    },
  },
  baichuan: {
    more: {
      layer: '; one K/V head per head (num_key_value_heads not read)',
    },
  },
  qwen: {
    more: {
      layer: '; one K/V head per head (num_key_value_heads not read)',
      scale: ' always (scale_attn_weights not read)',
    },
  },
  'phi-msft': {
    more: {
      layer: '; n_head_kv K/V heads (absent or 0: n_head)',
    },
  },
  mpt: {
    more: {
      layer:
        "; attn_config.alibi must be true and kv_n_heads absent or n_heads (else refused: transformers' MptModel always adds ALiBi and has no KV grouping, the checkpoint's remote code differs)",
    },
  },
  longt5: {
    is: {
      layer: 'decoder: every layer full; the encoder (local / transient-global, `encoder_attention_type`) is refused',
    },
  },
  gpt_bigcode: {
    more: {
      layer: '; 1 KV head if multi_query',
    },
  },
  gpt_neo: {
    more: {
      scale: ' (raw q·kᵀ)',
    },
  },
  whisper: {
    more: {
      layer: '; the encoder bidirectional, the decoder causal',
    },
  },
  clip_text_model: {
    more: {
      layer: ' (causal)',
    },
  },
  modernbert: {
    hide: ['rope_theta'],
    more: {
      layer: '; local: local_rope_theta, window local_attention // 2 + 1 (bidirectional)',
    },
  },
  mpnet: {
    more: {
      family: ' (32 buckets, max 128, bidirectional) + learned (`max_position_embeddings` rows from row 2)',
      layer: '; one bias for all layers',
      scale: ' (the bias is added unscaled)',
    },
  },
  siglip_text_model: {
    more: {
      layer: ' (no causal mask)',
    },
  },
  glm4_moe: {
    more: {
      defaults: ' (no head_dim default: 4096 / 96 is refused)',
    },
  },
  ernie4_5: {
    more: {
      defaults: ' (None → hidden_size / num_attention_heads); a partial rotation is refused',
    },
  },
  qwen3_next: {
    more: {
      layer: '; `linear_attention` layers: no attention (`attention: null`); no window (sliding_window ignored: noted)',
    },
  },
};
