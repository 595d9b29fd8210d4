// Real models for the Scaling view's "pick a model": each config is the keys fromConfig reads from
// the model's config.json (tests/fixtures/configs/ holds the whole files, SOURCES.json where each
// comes from; "fixture x" below is tests/fixtures/configs/x). The page passes them to fromConfig
// exactly as it passes a pasted config.json.
export const MODELS = [
  {
    id: 'llama31-8b',
    label: 'Llama 3.1 8B',
    source:
      'meta-llama/Llama-3.1-8B config.json (' +
      'quoted in mlc-ai/mlc-llm python/mlc_llm/model/model_preset.py; fixture llama-3.1-8b.json)',
    config: {
      model_type: 'llama',
      num_hidden_layers: 32,
      num_attention_heads: 32,
      hidden_size: 4096,
      num_key_value_heads: 8,
      rope_scaling: {
        factor: 8,
        low_freq_factor: 1,
        high_freq_factor: 4,
        original_max_position_embeddings: 8192,
        rope_type: 'llama3',
      },
      rope_theta: 500000,
      max_position_embeddings: 131072,
    },
  },
  {
    id: 'llama32-1b',
    label: 'Llama 3.2 1B',
    source:
      'meta-llama/Llama-3.2-1B config.json (' +
      'quoted in MatthewGoldsberry/LLM-Projects Llama-3.2-1B/config.json; fixture llama-3.2-1b.json)',
    config: {
      model_type: 'llama',
      num_hidden_layers: 16,
      num_attention_heads: 32,
      hidden_size: 2048,
      head_dim: 64,
      num_key_value_heads: 8,
      rope_scaling: {
        factor: 32,
        high_freq_factor: 4,
        low_freq_factor: 1,
        original_max_position_embeddings: 8192,
        rope_type: 'llama3',
      },
      rope_theta: 500000,
      max_position_embeddings: 131072,
    },
  },
  {
    id: 'llama4-scout',
    label: 'Llama 4 Scout',
    source:
      'meta-llama/Llama-4-Scout-17B-16E config.json (' +
      'quoted in a public GitHub page (see SOURCES.json); fixture llama-4-scout.json)',
    config: {
      text_config: {
        model_type: 'llama4_text',
        num_hidden_layers: 48,
        num_attention_heads: 40,
        hidden_size: 5120,
        head_dim: 128,
        num_key_value_heads: 8,
        no_rope_layers: [
          1, 1, 1, 0, 1, 1, 1, 0, 1, 1, 1, 0, 1, 1, 1, 0, 1, 1, 1, 0, 1, 1, 1, 0, 1, 1, 1, 0, 1, 1, 1, 0, 1, 1, 1, 0, 1,
          1, 1, 0, 1, 1, 1, 0, 1, 1, 1, 0,
        ],
        attention_chunk_size: 8192,
        attn_temperature_tuning: 4,
        rope_scaling: {
          factor: 8,
          high_freq_factor: 4,
          low_freq_factor: 1,
          original_max_position_embeddings: 8192,
          rope_type: 'llama3',
        },
        rope_theta: 500000,
        max_position_embeddings: 262144,
        floor_scale: 8192,
        attn_scale: 0.1,
      },
      model_type: 'llama4',
    },
  },
  {
    id: 'codellama-7b',
    label: 'CodeLlama 7B',
    source:
      'codellama/CodeLlama-7b-hf config.json (' +
      'quoted in mlc-ai/mlc-llm python/mlc_llm/model/model_preset.py; fixture codellama-7b.json)',
    config: {
      model_type: 'llama',
      num_hidden_layers: 32,
      num_attention_heads: 32,
      hidden_size: 4096,
      num_key_value_heads: 32,
      rope_theta: 1000000,
    },
  },
  {
    id: 'mistral-7b',
    label: 'Mistral 7B v0.1',
    source:
      'mistralai/Mistral-7B-v0.1 config.json (' +
      'quoted in mlc-ai/mlc-llm python/mlc_llm/model/model_preset.py; fixture mistral-7b-v0.1.json)',
    config: {
      model_type: 'mistral',
      num_hidden_layers: 32,
      num_attention_heads: 32,
      hidden_size: 4096,
      num_key_value_heads: 8,
      sliding_window: 4096,
      rope_theta: 10000,
    },
  },
  {
    id: 'ministral3-3b',
    label: 'Ministral 3 3B',
    source:
      'mistralai/Ministral-3-3B (2512) config.json (' +
      'quoted in mlc-ai/mlc-llm python/mlc_llm/model/model_preset.py; fixture ministral-3-3b.json)',
    config: {
      text_config: {
        model_type: 'ministral3',
        num_hidden_layers: 26,
        num_attention_heads: 32,
        hidden_size: 3072,
        head_dim: 128,
        num_key_value_heads: 8,
        rope_parameters: {
          beta_fast: 32,
          beta_slow: 1,
          factor: 16,
          llama_4_scaling_beta: 0.1,
          mscale: 1,
          mscale_all_dim: 1,
          original_max_position_embeddings: 16384,
          rope_theta: 1000000,
          rope_type: 'yarn',
          type: 'yarn',
        },
        max_position_embeddings: 262144,
      },
      model_type: 'ministral3',
    },
  },
  {
    id: 'phi35-mini',
    label: 'Phi-3.5-mini',
    source:
      'microsoft/Phi-3.5-mini-instruct config.json (' +
      'quoted in mlc-ai/mlc-llm python/mlc_llm/model/model_preset.py; fixture phi-3.5-mini.json)',
    config: {
      model_type: 'phi3',
      num_hidden_layers: 32,
      num_attention_heads: 32,
      hidden_size: 3072,
      num_key_value_heads: 32,
      sliding_window: 262144,
      rope_scaling: {
        long_factor: [
          1.0800000429153442, 1.1100000143051147, 1.1399999856948853, 1.340000033378601, 1.5899999141693115,
          1.600000023841858, 1.6200000047683716, 2.620000123977661, 3.2300000190734863, 3.2300000190734863,
          4.789999961853027, 7.400000095367432, 7.700000286102295, 9.09000015258789, 12.199999809265137,
          17.670000076293945, 24.46000099182129, 28.57000160217285, 30.420001983642578, 30.840002059936523,
          32.590003967285156, 32.93000411987305, 42.320003509521484, 44.96000289916992, 50.340003967285156,
          50.45000457763672, 57.55000305175781, 57.93000411987305, 58.21000289916992, 60.1400032043457,
          62.61000442504883, 62.62000274658203, 62.71000289916992, 63.1400032043457, 63.1400032043457,
          63.77000427246094, 63.93000411987305, 63.96000289916992, 63.970001220703125, 64.02999877929688,
          64.06999969482422, 64.08000183105469, 64.12000274658203, 64.41000366210938, 64.4800033569336,
          64.51000213623047, 64.52999877929688, 64.83999633789062,
        ],
        short_factor: [
          1, 1.0199999809265137, 1.0299999713897705, 1.0299999713897705, 1.0499999523162842, 1.0499999523162842,
          1.0499999523162842, 1.0499999523162842, 1.0499999523162842, 1.0699999332427979, 1.0999999046325684,
          1.1099998950958252, 1.1599998474121094, 1.1599998474121094, 1.1699998378753662, 1.2899998426437378,
          1.339999794960022, 1.679999828338623, 1.7899998426437378, 1.8199998140335083, 1.8499997854232788,
          1.8799997568130493, 1.9099997282028198, 1.9399996995925903, 1.9899996519088745, 2.0199997425079346,
          2.0199997425079346, 2.0199997425079346, 2.0199997425079346, 2.0199997425079346, 2.0199997425079346,
          2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914,
          2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0799996852874756,
          2.0899996757507324, 2.189999580383301, 2.2199995517730713, 2.5899994373321533, 2.729999542236328,
          2.749999523162842, 2.8399994373321533,
        ],
        type: 'longrope',
      },
      rope_theta: 10000,
      max_position_embeddings: 131072,
      original_max_position_embeddings: 4096,
    },
  },
  {
    id: 'phi4-mini',
    label: 'Phi-4-mini',
    source:
      'microsoft/Phi-4-mini-instruct config.json (' +
      'quoted in mlc-ai/mlc-llm python/mlc_llm/model/model_preset.py; fixture phi-4-mini.json)',
    config: {
      model_type: 'phi3',
      num_hidden_layers: 32,
      num_attention_heads: 24,
      hidden_size: 3072,
      num_key_value_heads: 8,
      sliding_window: 262144,
      rope_scaling: {
        long_factor: [
          1, 1.118320672, 1.250641126, 1.398617824, 1.564103225, 1.74916897, 1.956131817, 2.187582649, 2.446418898,
          2.735880826, 3.059592084, 3.421605075, 3.826451687, 4.279200023, 4.785517845, 5.351743533, 5.984965424,
          6.693110555, 7.485043894, 8.370679318, 9.36110372, 10.4687158, 11.70738129, 13.09260651, 14.64173252,
          16.37415215, 18.31155283, 20.47818807, 22.90118105, 25.61086418, 28.64115884, 32.03, 32.1, 32.13, 32.23, 32.6,
          32.61, 32.64, 32.66, 32.7, 32.71, 32.93, 32.97, 33.28, 33.49, 33.5, 44.16, 47.77,
        ],
        short_factor: [
          1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
          1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
        ],
        type: 'longrope',
      },
      rope_theta: 10000,
      max_position_embeddings: 131072,
      original_max_position_embeddings: 4096,
      partial_rotary_factor: 0.75,
    },
  },
  {
    id: 'qwen25-vl-7b',
    label: 'Qwen2.5-VL 7B',
    source:
      'Qwen/Qwen2.5-VL-7B-Instruct config.json (' +
      'quoted in modelscope/DiffSynth-Studio diffsynth/models/qwen_image_text_encoder.py; fixture qwen2.5-vl-7b.json)',
    config: {
      text_config: {
        model_type: 'qwen2_5_vl_text',
        num_hidden_layers: 28,
        num_attention_heads: 28,
        hidden_size: 3584,
        num_key_value_heads: 4,
        layer_types: [
          'full_attention',
          'full_attention',
          'full_attention',
          'full_attention',
          'full_attention',
          'full_attention',
          'full_attention',
          'full_attention',
          'full_attention',
          'full_attention',
          'full_attention',
          'full_attention',
          'full_attention',
          'full_attention',
          'full_attention',
          'full_attention',
          'full_attention',
          'full_attention',
          'full_attention',
          'full_attention',
          'full_attention',
          'full_attention',
          'full_attention',
          'full_attention',
          'full_attention',
          'full_attention',
          'full_attention',
          'full_attention',
        ],
        rope_scaling: { mrope_section: [16, 24, 24], rope_type: 'default', type: 'default' },
        rope_theta: 1000000,
        max_position_embeddings: 128000,
      },
      model_type: 'qwen2_5_vl',
    },
  },
  {
    id: 'deepseek-v2-lite',
    label: 'DeepSeek-V2-Lite',
    source:
      'deepseek-ai/DeepSeek-V2-Lite config.json (' +
      'quoted in mlc-ai/mlc-llm python/mlc_llm/model/model_preset.py; fixture deepseek-v2-lite.json)',
    config: {
      model_type: 'deepseek_v2',
      num_hidden_layers: 27,
      num_attention_heads: 16,
      hidden_size: 2048,
      num_key_value_heads: 16,
      rope_scaling: {
        beta_fast: 32,
        beta_slow: 1,
        factor: 40,
        mscale: 0.707,
        mscale_all_dim: 0.707,
        original_max_position_embeddings: 4096,
        type: 'yarn',
      },
      rope_theta: 10000,
      max_position_embeddings: 163840,
      qk_rope_head_dim: 64,
      qk_nope_head_dim: 128,
      v_head_dim: 128,
    },
  },
  {
    id: 'gemma2-2b',
    label: 'Gemma 2 2B',
    source:
      'google/gemma-2-2b config.json (' +
      'quoted in mlc-ai/mlc-llm python/mlc_llm/model/model_preset.py; fixture gemma-2-2b.json)',
    config: {
      model_type: 'gemma2',
      num_hidden_layers: 26,
      num_attention_heads: 8,
      hidden_size: 2304,
      head_dim: 256,
      num_key_value_heads: 4,
      sliding_window: 4096,
      query_pre_attn_scalar: 256,
      attn_logit_softcapping: 50,
      rope_theta: 10000,
    },
  },
  {
    id: 'gemma3-1b',
    label: 'Gemma 3 1B',
    source:
      'google/gemma-3-1b-it config.json (' +
      'quoted in mlc-ai/mlc-llm python/mlc_llm/model/model_preset.py; fixture gemma-3-1b.json)',
    config: {
      model_type: 'gemma3_text',
      num_hidden_layers: 26,
      num_attention_heads: 4,
      hidden_size: 1152,
      head_dim: 256,
      num_key_value_heads: 1,
      sliding_window: 512,
      sliding_window_pattern: 6,
      query_pre_attn_scalar: 256,
      rope_theta: 1000000,
      rope_local_base_freq: 10000,
    },
  },
  {
    id: 'chatglm3-6b',
    label: 'ChatGLM3 6B',
    source:
      'THUDM/chatglm3-6b config.json (' +
      'quoted in mlc-ai/mlc-llm python/mlc_llm/model/model_preset.py; fixture chatglm3-6b.json)',
    config: {
      model_type: 'chatglm',
      num_layers: 28,
      num_attention_heads: 32,
      hidden_size: 4096,
      kv_channels: 128,
      multi_query_attention: true,
      multi_query_group_num: 2,
    },
  },
  {
    id: 'internlm25-7b',
    label: 'InternLM 2.5 7B',
    source:
      'internlm/internlm2_5-7b config.json (' +
      'quoted in mlc-ai/mlc-llm python/mlc_llm/model/model_preset.py; fixture internlm2.5-7b.json)',
    config: {
      model_type: 'internlm2',
      num_hidden_layers: 32,
      num_attention_heads: 32,
      hidden_size: 4096,
      num_key_value_heads: 8,
      rope_scaling: { type: 'dynamic', factor: 2 },
      rope_theta: 1000000,
      max_position_embeddings: 32768,
    },
  },
  {
    id: 'minicpm-2b',
    label: 'MiniCPM 2B',
    source:
      'openbmb/MiniCPM-2B config.json (' +
      'quoted in mlc-ai/mlc-llm python/mlc_llm/model/model_preset.py; fixture minicpm-2b.json)',
    config: {
      model_type: 'minicpm',
      num_hidden_layers: 40,
      num_attention_heads: 36,
      hidden_size: 2304,
      num_key_value_heads: 36,
      rope_scaling: { type: 'dynamic', factor: 4 },
      rope_theta: 1000000,
      max_position_embeddings: 65536,
    },
  },
  {
    id: 'gptj-6b',
    label: 'GPT-J 6B',
    source:
      'EleutherAI/gpt-j-6b config.json (' +
      'quoted in mlc-ai/mlc-llm python/mlc_llm/model/model_preset.py; fixture gpt-j-6b.json)',
    config: {
      model_type: 'gptj',
      n_layer: 28,
      n_head: 16,
      n_embd: 4096,
      rope_scaling: { rope_type: 'gptj' },
      rotary_dim: 64,
    },
  },
  {
    id: 'stablelm2-1.6b',
    label: 'StableLM 2 1.6B',
    source:
      'stabilityai/stablelm-2-zephyr-1_6b config.json (' +
      'quoted in mlc-ai/mlc-llm python/mlc_llm/model/model_preset.py; fixture stablelm-2-zephyr-1.6b.json)',
    config: {
      model_type: 'stablelm',
      num_hidden_layers: 24,
      num_attention_heads: 32,
      hidden_size: 2048,
      num_key_value_heads: 32,
      rope_theta: 10000,
      partial_rotary_factor: 0.25,
    },
  },
];
