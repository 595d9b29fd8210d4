// The model types fromConfig maps, one row each: what the Hugging Face code of that type does with
// positions. A model_type that is not a key here is refused by name (fromConfig's `as` option maps
// it to a row explicitly, and the result's notes say so). Paths are under
// huggingface/transformers src/transformers/models/ unless the row says "remote code" (the
// modeling file the checkpoint ships, run with trust_remote_code).
//
// Fields of a row:
//   config   the HF config class; `defaults` are its __init__ defaults for the keys fromConfig
//            reads, used when the config.json omits the key (a key present with null is None)
//   hf       the modeling file and function whose rules the row follows
//   family   'rope' | 'alibi' | 't5' | 'learned' | 'none' (no positional encoding at all)
//   layout   RoPE pairing: 'half' (rotate_half) or 'interleaved' (adjacent pairs)
//   layers   the per-layer rule (a key of config.js LAYER_RULES): 'full', 'sliding' (sliding_window
//            on every layer), 'qwen2', 'qwen2_moe', 'qwen_all', 'gemma2', 'pattern', 'alternate',
//            'llama4', 'smollm3', 'jamba', 'qwen3_5'; layer_types, when the config has it,
//            wins wherever the config class reads it (`layerTypes: true`)
//   useSliding  sliding_window counts only with use_sliding_window (Qwen2/3 configs, SmolLM3)
//   nope     which RoPE layers skip the rotation: 'full_if_sliding'
//            (full-attention layers when sliding_window is set), 'no_rope_layers'
//   local    what sliding layers rotate with: 'local_base' (rope_local_base_freq, no scaling)
//   scale    the softmax scale: 'head_dim' (head_dim^-0.5), 'query_pre_attn_scalar',
//            'attention_multiplier', 'one', 'mla', 'gpt2', 'mpt'
//   text     a multimodal wrapper: the text model's config is text_config, of this model type
//            unless text_config.model_type says otherwise
//   ignores  keys whose names speak of positions that the HF code of this type does not read,
//            with why (fromConfig notes them and goes on)
//   remote   remote code: a positional key the row does not know is refused, not ignored
//   base     the modeling file's own RoPE base, whatever the config says (GPT-J, CodeGen, Baichuan)
//   scalingTypes  remote code: the rope_scaling types its config class accepts (exactly { type,
//            factor }); a remote row without it refuses rope_scaling; scalingFactorMin: the least factor
//   rotaryDim  false: a `base` row that rotates the whole head (no rotary_dim key)
//   wholeHead  apply_rotary_pos_emb multiplies the whole head by cos / sin: a rotated width other
//            than head_dim (partial_rotary_factor) fails in the HF code and is refused
//   kinds    the layer kinds the decoder layer builds, when fewer than layer_types may name
//   fixedText  a wrapper whose config class builds text_config (and vision_config) with its own
//            classes (sub_configs["text_config"](**text_config)): their model_type is not read
//   nullTextType  a wrapper whose config class looks text_config.model_type up as given: null fails
//   nullFails  keys that, present with null, make the Hugging Face code fail (refused by name), beyond
//            the keys every row refuses so
//   bidirectionalKey  the class reads use_bidirectional_attention (EmbeddingGemma): no causal mask
//
// families/config/config.test.js checks the rows against real config.json files and float64 references;
// families/config/models.md lists them.

const D = { rope_theta: 10000 };
const OWN_TEXT = { fixedText: true };
// Baichuan 7B's remote RotaryEmbedding is built with its default base 10000 and nothing else
const BAICHUAN_ROPE = Object.fromEntries(
  ['rope_theta', 'rope_scaling', 'rope_parameters', 'partial_rotary_factor', 'rotary_pct', 'rotary_dim'].map((k) => [
    k,
    'the remote RotaryEmbedding(head_dim, max_position_embeddings) uses base 10000, no scaling, the whole head',
  ]),
);

// GPT-J and CodeGen build their table with create_sinusoidal_positions(max_positions, rotary_dim):
// base 10000, no scaling, whatever the config carries
const NOT_READ = 'create_sinusoidal_positions uses base 10000, no scaling, and rotary_dim only';
const FIXED_ROPE = Object.fromEntries(
  ['rope_theta', 'rope_scaling', 'rope_parameters', 'partial_rotary_factor', 'rotary_pct', 'rotary_emb_base'].map(
    (k) => [k, NOT_READ],
  ),
);

// BartConfig / MBartConfig: the stacks' keys and __init__ defaults (the same for both classes)
const BART_STACKS = {
  encoder: { layers: 'encoder_layers', heads: 'encoder_attention_heads', rows: 'max_position_embeddings' },
  decoder: { layers: 'decoder_layers', heads: 'decoder_attention_heads', rows: 'max_position_embeddings' },
};
const BART_DEFAULTS = {
  max_position_embeddings: 1024,
  d_model: 1024,
  encoder_layers: 12,
  encoder_attention_heads: 16,
  decoder_layers: 12,
  decoder_attention_heads: 16,
};

// RobertaConfig / XLMRobertaConfig.__init__: BERT-base sizes, pad_token_id 1 (the first position's row is 2)
const ROBERTA_DEFAULTS = {
  max_position_embeddings: 512,
  hidden_size: 768,
  num_attention_heads: 12,
  num_hidden_layers: 12,
  pad_token_id: 1,
};

/** The T5 family's config classes, the attention class whose bucket function each calls, and the
 * class's size defaults (d_model, d_kv, num_heads, num_layers; num_decoder_layers None -> num_layers). */
const T5_FAMILY = {
  t5: ['T5Config', 't5/modeling_t5.py T5Attention', [512, 64, 8, 6]],
  mt5: ['MT5Config', 'mt5/modeling_mt5.py MT5Attention', [512, 64, 6, 8]],
  umt5: ['UMT5Config', 'umt5/modeling_umt5.py UMT5Attention', [512, 64, 6, 8]],
  longt5: ['LongT5Config', 'longt5/modeling_longt5.py LongT5Attention', [512, 64, 8, 6]],
};

/** One row, with the fields every RoPE decoder shares filled in. */
const rope = (config, hf, more = {}) => ({
  config,
  hf,
  family: 'rope',
  layout: 'half',
  layers: 'full',
  scale: 'head_dim',
  ...more,
  defaults: { ...D, ...more.defaults },
});

export const MODELS = {
  // ---- RoPE, rotate_half, every layer full attention ----
  llama: rope('LlamaConfig', 'llama/modeling_llama.py LlamaAttention, apply_rotary_pos_emb (rotate_half)', {
    ignores: { sliding_window: 'LlamaAttention has no sliding window' },
    // LlamaConfig.__init__ (num_key_value_heads None -> num_attention_heads, head_dim None -> hidden / heads)
    defaults: { hidden_size: 4096, num_attention_heads: 32, num_hidden_layers: 32 },
  }),
  olmo2: rope('Olmo2Config', 'olmo2/modeling_olmo2.py Olmo2Attention, apply_rotary_pos_emb (rotate_half)', {
    defaults: { hidden_size: 4096, num_attention_heads: 32, num_hidden_layers: 32 },
  }),
  granite: rope(
    'GraniteConfig',
    'granite/modeling_granite.py GraniteAttention (self.scaling = config.attention_multiplier)',
    {
      scale: 'attention_multiplier',
      defaults: { attention_multiplier: 1, hidden_size: 4096, num_attention_heads: 32, num_hidden_layers: 32 },
    },
  ),
  phi: rope('PhiConfig', 'phi/modeling_phi.py PhiAttention (rotary_ndims = head_dim · partial_rotary_factor)', {
    defaults: { partial_rotary_factor: 0.5, hidden_size: 2048, num_attention_heads: 32, num_hidden_layers: 24 },
  }),
  gemma: rope('GemmaConfig', 'gemma/modeling_gemma.py GemmaAttention, apply_rotary_pos_emb (rotate_half)', {
    bidirectionalKey: true, // GemmaConfig.use_bidirectional_attention: is_causal = not it
    // GemmaConfig: num_key_value_heads 16, not None
    nullFails: ['head_dim'], // the class keeps head_dim = None, and head_dim**-0.5 fails
    defaults: {
      head_dim: 256,
      hidden_size: 3072,
      num_attention_heads: 16,
      num_key_value_heads: 16,
      num_hidden_layers: 28,
    },
  }),
  stablelm: rope('StableLmConfig', 'stablelm/modeling_stablelm.py StableLmAttention (partial_rotary_factor)', {
    defaults: {
      partial_rotary_factor: 0.25,
      hidden_size: 2560,
      num_attention_heads: 32,
      num_key_value_heads: 32,
      num_hidden_layers: 32,
    },
  }),
  gpt_neox: rope('GPTNeoXConfig', 'gpt_neox/modeling_gpt_neox.py GPTNeoXAttention (rotary_pct, rotary_emb_base)', {
    defaults: {
      rope_theta: undefined,
      rotary_emb_base: 10000,
      rotary_pct: 0.25,
      hidden_size: 6144,
      num_attention_heads: 64,
      num_hidden_layers: 44,
    },
  }),
  falcon: rope('FalconConfig', 'falcon/modeling_falcon.py FalconAttention (rotate_half; alibi: build_alibi_tensor)', {
    alibiKey: 'alibi',
    defaults: { num_attention_heads: 71, hidden_size: 4544, multi_query: true, new_decoder_architecture: false },
  }),
  deepseek_v2: rope(
    'DeepseekV2Config',
    'deepseek_v2/modeling_deepseek_v2.py DeepseekV2Attention (freqs_cis, view_as_complex; scaling = qk_head_dim^-0.5)',
    {
      layout: 'interleaved',
      scale: 'mla',
      // DeepseekV2Config (num_key_value_heads None -> num_attention_heads)
      defaults: {
        hidden_size: 4096,
        num_attention_heads: 32,
        num_hidden_layers: 32,
        qk_rope_head_dim: 64,
        qk_nope_head_dim: 128,
        v_head_dim: 128,
      },
    },
  ),
  deepseek_v3: rope(
    'DeepseekV3Config',
    'deepseek_v3/modeling_deepseek_v3.py DeepseekV3Attention (apply_rotary_pos_emb_interleave when rope_interleave)',
    {
      layout: 'interleaved',
      interleaveKey: 'rope_interleave',
      scale: 'mla',
      mlaMscale: true, // DeepseekV3Attention: scaling *= mscale(factor, mscale_all_dim)²
      defaults: {
        qk_rope_head_dim: 64,
        qk_nope_head_dim: 128,
        v_head_dim: 128,
        rope_interleave: true,
        hidden_size: 7168,
        num_attention_heads: 128,
        num_key_value_heads: 128,
        num_hidden_layers: 61,
      },
    },
  ),
  cohere: rope('CohereConfig', 'cohere/modeling_cohere.py rotate_half (x[..., ::2], x[..., 1::2]: adjacent pairs)', {
    layout: 'interleaved',
    defaults: { hidden_size: 8192, num_attention_heads: 64, num_hidden_layers: 40 },
  }),
  gptj: rope(
    'GPTJConfig',
    'gptj/modeling_gptj.py create_sinusoidal_positions (base 10000), rotate_every_two, GPTJAttention (rotary_dim)',
    { layout: 'interleaved', base: 10000, ignores: FIXED_ROPE, defaults: { rope_theta: undefined, rotary_dim: 64 } },
  ),
  codegen: rope(
    'CodeGenConfig',
    'codegen/modeling_codegen.py create_sinusoidal_positions (base 10000), rotate_every_two, CodeGenAttention (rotary_dim)',
    { layout: 'interleaved', base: 10000, ignores: FIXED_ROPE, defaults: { rope_theta: undefined, rotary_dim: 64 } },
  ),
  ministral3: rope('Ministral3Config', 'ministral3/modeling_ministral3.py (get_llama_4_attn_scale; sliding_window)', {
    layers: 'sliding',
    llama4Beta: true,
    defaults: {
      head_dim: 128,
      rope_parameters: {
        type: 'yarn',
        rope_theta: 1e6,
        factor: 16,
        original_max_position_embeddings: 16384,
        beta_fast: 32,
        beta_slow: 1,
        mscale_all_dim: 1,
        mscale: 1,
        llama_4_scaling_beta: 0.1,
      },
    },
  }),

  // ---- RoPE with a sliding window on every layer when sliding_window is set ----
  mistral: rope('MistralConfig', 'mistral/modeling_mistral.py MistralAttention (sliding_window on every layer)', {
    layers: 'sliding',
    // MistralConfig.__init__ (num_key_value_heads 8; None -> num_attention_heads)
    defaults: {
      sliding_window: 4096,
      hidden_size: 4096,
      num_hidden_layers: 32,
      num_attention_heads: 32,
      num_key_value_heads: 8,
    },
  }),
  mixtral: rope('MixtralConfig', 'mixtral/modeling_mixtral.py MixtralAttention (sliding_window on every layer)', {
    layers: 'sliding',
    // MixtralConfig (num_key_value_heads 8; None -> num_attention_heads)
    defaults: {
      rope_theta: 1e6,
      hidden_size: 4096,
      num_hidden_layers: 32,
      num_attention_heads: 32,
      num_key_value_heads: 8,
    },
  }),
  starcoder2: rope('Starcoder2Config', 'starcoder2/modeling_starcoder2.py Starcoder2Attention (sliding_window)', {
    layers: 'sliding',
    // Starcoder2Config
    defaults: { hidden_size: 3072, num_hidden_layers: 30, num_attention_heads: 24, num_key_value_heads: 2 },
  }),
  phi3: rope(
    'Phi3Config',
    "phi3/modeling_phi3.py Phi3Attention (partial_rotary_factor, sliding_window); Phi3Config reads rope type 'yarn' as longrope",
    {
      layers: 'sliding',
      ropeTypes: { yarn: 'longrope', su: 'longrope' },
      // Phi3Config.validate_rope raises for any other rope type
      onlyRopeTypes: ['default', 'longrope'],
      defaults: {
        original_max_position_embeddings: 4096,
        hidden_size: 3072,
        num_attention_heads: 32,
        num_hidden_layers: 32,
      },
    },
  ),

  // ---- Qwen: use_sliding_window, max_window_layers ----
  qwen2: rope(
    'Qwen2Config',
    'qwen2/modeling_qwen2.py Qwen2Attention (layer_types from use_sliding_window, max_window_layers)',
    {
      layers: 'qwen2',
      layerTypes: true,
      useSliding: true,
      // Qwen2Config (num_key_value_heads 32; None -> num_attention_heads)
      defaults: {
        sliding_window: 4096,
        use_sliding_window: false,
        max_window_layers: 28,
        hidden_size: 4096,
        num_hidden_layers: 32,
        num_attention_heads: 32,
        num_key_value_heads: 32,
      },
    },
  ),
  qwen2_moe: rope(
    'Qwen2MoeConfig',
    'qwen2_moe/modeling_qwen2_moe.py Qwen2MoeAttention (layer_types: with use_sliding_window, even layers below max_window_layers slide)',
    {
      layers: 'qwen2_moe',
      layerTypes: true,
      useSliding: true,
      defaults: {
        sliding_window: 4096,
        use_sliding_window: false,
        max_window_layers: 28,
        hidden_size: 2048,
        num_attention_heads: 16,
        num_key_value_heads: 16,
        num_hidden_layers: 24,
      },
    },
  ),
  qwen3: rope('Qwen3Config', 'qwen3/modeling_qwen3.py Qwen3Attention (as Qwen2, head_dim 128)', {
    layers: 'qwen2',
    layerTypes: true,
    useSliding: true,
    // Qwen3Config (num_key_value_heads 32; None -> num_attention_heads)
    nullFails: ['head_dim'], // the class keeps head_dim = None, and head_dim**-0.5 fails
    defaults: {
      head_dim: 128,
      sliding_window: 4096,
      use_sliding_window: false,
      max_window_layers: 28,
      hidden_size: 4096,
      num_attention_heads: 32,
      num_key_value_heads: 32,
      num_hidden_layers: 32,
    },
  }),
  qwen3_moe: rope(
    'Qwen3MoeConfig',
    'qwen3_moe/modeling_qwen3_moe.py Qwen3MoeAttention (sliding_window on every layer when use_sliding_window; no max_window_layers, no head_dim default)',
    {
      layers: 'qwen_all',
      useSliding: true,
      // Qwen3MoeConfig
      defaults: {
        sliding_window: 4096,
        use_sliding_window: false,
        hidden_size: 2048,
        num_hidden_layers: 24,
        num_attention_heads: 32,
        num_key_value_heads: 4,
      },
    },
  ),
  qwen2_vl_text: rope('Qwen2VLTextConfig', 'qwen2_vl/modeling_qwen2_vl.py apply_multimodal_rotary_pos_emb', {
    layers: 'qwen2',
    layerTypes: true,
    useSliding: true,
    // Qwen2VLTextConfig / Qwen2_5_VLTextConfig.__init__ (num_key_value_heads 8; None -> num_attention_heads)
    defaults: {
      rope_theta: 1e6,
      sliding_window: 4096,
      use_sliding_window: false,
      max_window_layers: 80,
      hidden_size: 8192,
      num_hidden_layers: 80,
      num_attention_heads: 64,
      num_key_value_heads: 8,
    },
  }),
  qwen2_5_vl_text: rope('Qwen2_5_VLTextConfig', 'qwen2_5_vl/modeling_qwen2_5_vl.py apply_multimodal_rotary_pos_emb', {
    layers: 'qwen2',
    layerTypes: true,
    useSliding: true,
    // Qwen2VLTextConfig / Qwen2_5_VLTextConfig.__init__ (num_key_value_heads 8; None -> num_attention_heads)
    defaults: {
      rope_theta: 1e6,
      sliding_window: 4096,
      use_sliding_window: false,
      max_window_layers: 80,
      hidden_size: 8192,
      num_hidden_layers: 80,
      num_attention_heads: 64,
      num_key_value_heads: 8,
    },
  }),
  qwen3_5_text: rope(
    'Qwen3_5TextConfig',
    'qwen3_5/modeling_qwen3_5.py Qwen3_5Attention (full_attention layers; linear_attention layers are Gated DeltaNet)',
    {
      layers: 'qwen3_5',
      layerTypes: true,
      // Qwen3_5TextConfig.__init__
      defaults: {
        head_dim: 256,
        partial_rotary_factor: 0.25,
        num_attention_heads: 16,
        num_key_value_heads: 4,
        hidden_size: 4096,
        num_hidden_layers: 32,
      },
    },
  ),

  // ---- Gemma 2 / 3: local and global layers ----
  gemma2: rope('Gemma2Config', 'gemma2/modeling_gemma2.py Gemma2Attention (even layers slide, query_pre_attn_scalar)', {
    layers: 'gemma2',
    layerTypes: true,
    scale: 'query_pre_attn_scalar',
    nullFails: ['head_dim'], // the class keeps head_dim = None, and head_dim**-0.5 fails
    // Gemma2Config
    defaults: {
      head_dim: 256,
      query_pre_attn_scalar: 256,
      sliding_window: 4096,
      attn_logit_softcapping: 50,
      hidden_size: 2304,
      num_hidden_layers: 26,
      num_attention_heads: 8,
      num_key_value_heads: 4,
    },
  }),
  gemma3_text: rope(
    'Gemma3TextConfig',
    'gemma3/modeling_gemma3.py Gemma3Attention (local layers: rope_local_base_freq; every sliding_window_pattern-th layer global)',
    {
      layers: 'pattern',
      layerTypes: true,
      local: 'local_base',
      nullFails: ['head_dim'], // Gemma3TextConfig keeps head_dim = None, and head_dim**-0.5 fails
      bidirectionalKey: true, // use_bidirectional_attention: no causal mask, window // 2 + 1
      scale: 'query_pre_attn_scalar',
      defaults: {
        rope_theta: 1e6,
        rope_local_base_freq: 1e4,
        sliding_window_pattern: 6,
        sliding_window: 4096,
        head_dim: 256,
        num_attention_heads: 8,
        num_key_value_heads: 4,
        hidden_size: 2304,
        num_hidden_layers: 26,
        query_pre_attn_scalar: 256,
      },
    },
  ),
  exaone4: rope(
    'Exaone4Config',
    'exaone4/modeling_exaone4.py Exaone4Attention (RoPE if sliding_window is None or the layer slides)',
    {
      layers: 'pattern',
      layerTypes: true,
      nope: 'full_if_sliding',
      defaults: { sliding_window: 4096, sliding_window_pattern: 4, num_attention_heads: 32, num_key_value_heads: 32 },
    },
  ),
  gpt_oss: rope(
    'GptOssConfig',
    'gpt_oss/modeling_gpt_oss.py GptOssAttention, _apply_rotary_emb (torch.chunk halves), attention sinks',
    {
      layers: 'alternate',
      layerTypes: true,
      defaults: {
        rope_theta: 150000,
        sliding_window: 128,
        head_dim: 64,
        hidden_size: 2880,
        num_hidden_layers: 36,
        num_attention_heads: 64,
        num_key_value_heads: 8,
        rope_scaling: {
          rope_type: 'yarn',
          factor: 32,
          beta_fast: 32,
          beta_slow: 1,
          truncate: false,
          original_max_position_embeddings: 4096,
        },
      },
    },
  ),

  // ---- NoPE layers ----
  llama4_text: rope(
    'Llama4TextConfig',
    'llama4/modeling_llama4.py Llama4TextAttention (freqs_cis; use_rope = no_rope_layers[i]; temperature tuning)',
    {
      layout: 'interleaved',
      layers: 'llama4',
      nope: 'no_rope_layers',
      // Llama4TextConfig.__init__
      defaults: {
        rope_theta: 500000,
        num_hidden_layers: 48,
        num_attention_heads: 40,
        num_key_value_heads: 8,
        head_dim: 128,
        hidden_size: 5120,
        no_rope_layer_interval: 4,
        attention_chunk_size: 8192,
        attn_temperature_tuning: true,
        floor_scale: 8192,
        attn_scale: 0.1,
      },
    },
  ),
  smollm3: rope(
    'SmolLM3Config',
    'smollm3/modeling_smollm3.py SmolLM3Attention (use_rope = no_rope_layers[layer_idx]; a window only with use_sliding_window)',
    {
      layers: 'smollm3',
      layerTypes: true,
      useSliding: true,
      nope: 'no_rope_layers',
      defaults: {
        rope_theta: 2e6,
        use_sliding_window: false,
        num_attention_heads: 16,
        num_key_value_heads: 4,
        hidden_size: 2048,
        num_hidden_layers: 36,
      },
    },
  ),
  glm4v_moe_text: rope(
    'Glm4vMoeTextConfig',
    'glm4v_moe/modeling_glm4v_moe.py Glm4vMoeTextAttention (gpt_neox apply_rotary_pos_emb: halves of the rotated part; recomposition_frequencies: M-RoPE sections)',
    { defaults: { partial_rotary_factor: 0.5 } },
  ),

  // ---- remote code ----
  // Baichuan 7B's remote Attention: RotaryEmbedding(head_dim, max_position_embeddings), its own
  // base=10000 default, no scaling; W_pack projects 3 · hidden_size (one K/V head per head)
  baichuan: rope(
    'BaichuanConfig',
    'remote code modeling_baichuan.py Attention (7B: RotaryEmbedding base 10000, rotate_half; 13B: ALiBi)',
    {
      remote: true,
      base: 10000,
      rotaryDim: false,
      ignores: {
        ...BAICHUAN_ROPE,
        num_key_value_heads: 'the remote Attention packs q, k, v in W_pack (3 · hidden_size): one K/V head per head',
      },
      defaults: { rope_theta: undefined },
    },
  ),
  chatglm: rope(
    'ChatGLMConfig',
    'remote code modeling_chatglm.py apply_rotary_pos_emb (pairs reshape(..., rot/2, 2))',
    {
      layout: 'interleaved',
      remote: true,
    },
  ),
  // QWenAttention: c_attn = nn.Linear(hidden_size, 3 * projection_size), split into num_heads each
  qwen: rope('QWenConfig', 'remote code modeling_qwen.py QWenAttention (rotary_pct, logn_list, dynamic NTK)', {
    remote: true,
    ignores: {
      num_key_value_heads: 'QWenAttention splits c_attn into num_attention_heads keys and values (no grouping)',
      scale_attn_weights: 'QWenAttention sets self.scale_attn_weights = True itself',
    },
  }),
  // InternLM2Config: num_key_value_heads None -> heads, rope_theta 10000, max_position_embeddings 2048
  internlm2: rope(
    'InternLM2Config',
    'remote code modeling_internlm2.py InternLM2Attention._init_rope (linear / dynamic only)',
    {
      remote: true,
      scalingTypes: ['linear', 'dynamic'],
      scalingFactorMin: 1,
      defaults: { rope_theta: 10000, max_position_embeddings: 2048 },
    },
  ),
  minicpm: rope('MiniCPMConfig', 'remote code modeling_minicpm.py MiniCPMAttention._init_rope (linear / dynamic)', {
    remote: true,
    scalingTypes: ['linear', 'dynamic'],
  }),
  // phi-msft's remote MHA: ParallelBlock builds MHA(config) with its rotary_base=10000.0 default;
  // n_head_kv = getattr(config, 'n_head_kv', None) or n_head
  'phi-msft': rope(
    'PhiConfig (remote)',
    'remote code modeling_phi.py MHA (rotary_dim, rotary_base 10000, halves; n_head_kv)',
    {
      remote: true,
      base: 10000,
      ignores: Object.fromEntries(
        ['rope_theta', 'rotary_base', 'rope_scaling', 'rope_parameters', 'partial_rotary_factor', 'rotary_pct'].map(
          (k) => [k, 'ParallelBlock builds MHA(config) with rotary_base 10000 and rotary_dim only'],
        ),
      ),
      defaults: { rope_theta: undefined },
    },
  ),

  // ---- no positional encoding ----
  jamba: {
    config: 'JambaConfig',
    hf: 'jamba/modeling_jamba.py JambaAttention (no positional encoding), JambaMambaMixer; layers_block_type',
    family: 'none',
    layers: 'jamba',
    scale: 'head_dim',
    defaults: {
      num_attention_heads: 32,
      num_key_value_heads: 8,
      hidden_size: 4096,
      num_hidden_layers: 32,
      attn_layer_period: 8,
      attn_layer_offset: 4,
    },
  },

  // ---- ALiBi ----
  bloom: {
    config: 'BloomConfig',
    hf: 'bloom/modeling_bloom.py build_alibi_tensor',
    family: 'alibi',
    layers: 'full',
    scale: 'head_dim',
    defaults: { n_head: 8, hidden_size: 64, n_layer: 2 },
    ignores: { offset_alibi: 'no BloomConfig parameter reads it and modeling_bloom.py never does' },
  },
  mpt: {
    config: 'MptConfig',
    hf: 'mpt/modeling_mpt.py MptModel (build_mpt_alibi_tensor always; no position table), MptAttention (softmax_scale)',
    family: 'alibi',
    layers: 'full',
    scale: 'mpt',
    defaults: {},
  },

  // ---- T5 relative buckets ----
  ...Object.fromEntries(
    ['t5', 'mt5', 'umt5', 'longt5'].map((t) => [
      t,
      {
        config: T5_FAMILY[t][0],
        hf: `${T5_FAMILY[t][1]}._relative_position_bucket (no 1/sqrt(d) scaling)`,
        family: 't5',
        layers: 'full',
        scale: 'one',
        defaults: {
          relative_attention_num_buckets: 32,
          relative_attention_max_distance: 128,
          ...Object.fromEntries(['d_model', 'd_kv', 'num_heads', 'num_layers'].map((k, i) => [k, T5_FAMILY[t][2][i]])),
        },
      },
    ]),
  ),

  // ---- learned absolute tables ----
  gpt2: learned('GPT2Config', 'gpt2/modeling_gpt2.py GPT2Model.wpe, GPT2Attention (scale_attn_weights)', {
    rows: ['n_positions', 'max_position_embeddings'],
    scale: 'gpt2',
    defaults: { n_positions: 1024, scale_attn_weights: true },
  }),
  gpt_bigcode: learned(
    'GPTBigCodeConfig',
    'gpt_bigcode/modeling_gpt_bigcode.py GPTBigCodeModel.wpe, GPTBigCodeAttention (kv_heads = 1 if multi_query; scale_attn_weights)',
    {
      rows: ['n_positions', 'max_position_embeddings'],
      scale: 'bigcode',
      defaults: { n_positions: 1024, multi_query: true, scale_attn_weights: true },
    },
  ),
  gpt_neo: learned(
    'GPTNeoConfig',
    'gpt_neo/modeling_gpt_neo.py GPTNeoModel.wpe, GPTNeoSelfAttention (no 1/sqrt(d); local layers: window_size)',
    {
      rows: ['max_position_embeddings'],
      scale: 'one',
      layers: 'gpt_neo',
      windowKey: 'window_size',
      defaults: {
        max_position_embeddings: 2048,
        hidden_size: 2048,
        num_layers: 24,
        num_heads: 16,
        window_size: 256,
        attention_types: [[['global', 'local'], 12]],
      },
    },
  ),
  bert: learned('BertConfig', 'bert/modeling_bert.py BertEmbeddings (position_embedding_type absolute)', {
    rows: ['max_position_embeddings'],
    absolute: true,
    defaults: { max_position_embeddings: 512, hidden_size: 768, num_attention_heads: 12, num_hidden_layers: 12 },
  }),
  distilbert: learned(
    'DistilBertConfig',
    'distilbert/modeling_distilbert.py Embeddings.position_embeddings (sinusoidal_pos_embds: fixed sinusoid rows)',
    {
      rows: ['max_position_embeddings'],
      defaults: { max_position_embeddings: 512, dim: 768, n_heads: 12, n_layers: 6 },
    },
  ),
  opt: learned('OPTConfig', 'opt/modeling_opt.py OPTLearnedPositionalEmbedding (offset 2)', {
    rows: ['max_position_embeddings'],
    offset: 2,
    // OPTConfig (its width is hidden_size, or d_model in older files: no default for it)
    defaults: { max_position_embeddings: 2048, num_attention_heads: 12, num_hidden_layers: 12 },
  }),
  roberta: learned('RobertaConfig', 'roberta/modeling_roberta.py RobertaEmbeddings (padding_idx + 1)', {
    rows: ['max_position_embeddings'],
    absolute: true,
    padOffset: true,
    nullFails: ['pad_token_id'], // input_ids.ne(None) fails
    defaults: ROBERTA_DEFAULTS,
  }),
  'xlm-roberta': learned('XLMRobertaConfig', 'xlm_roberta/modeling_xlm_roberta.py (as RoBERTa)', {
    rows: ['max_position_embeddings'],
    absolute: true,
    padOffset: true,
    nullFails: ['pad_token_id'],
    defaults: ROBERTA_DEFAULTS,
  }),

  // ---- multimodal wrappers: the text model lives in text_config ----
  // OWN_TEXT: Gemma3Config, Llama4Config and the Qwen-VL / GLM-4.5V classes build text_config with
  // their own text class, whatever text_config.model_type says; the LLaVA classes and Mistral3Config
  // look text_config.model_type up in CONFIG_MAPPING
  gemma3: wrapper('Gemma3Config', 'gemma3_text', OWN_TEXT),
  // LlavaConfig: text_config.model_type defaults to 'llama'; no text_config: LlamaConfig()
  llava: wrapper('LlavaConfig', 'llama', { nullTextType: true }),
  llama4: wrapper('Llama4Config', 'llama4_text', OWN_TEXT),
  // Mistral3Config.__init__: without text_config, a 'mistral' config with these values
  mistral3: wrapper('Mistral3Config', 'mistral', {
    nullTextType: true,
    textDefaults: {
      model_type: 'mistral',
      head_dim: 128,
      hidden_size: 5120,
      max_position_embeddings: 131072,
      num_attention_heads: 32,
      num_hidden_layers: 40,
      num_key_value_heads: 8,
      rope_theta: 1e9,
      sliding_window: null,
    },
  }),
  // these build the text config from the top-level keys when text_config is absent (older files)
  glm4v_moe: wrapper('Glm4vMoeConfig', 'glm4v_moe_text', { ...OWN_TEXT, fromRoot: true }),
  qwen2_vl: wrapper('Qwen2VLConfig', 'qwen2_vl_text', { ...OWN_TEXT, fromRoot: true }),
  qwen2_5_vl: wrapper('Qwen2_5_VLConfig', 'qwen2_5_vl_text', { ...OWN_TEXT, fromRoot: true }),
  qwen3_5: wrapper('Qwen3_5Config', 'qwen3_5_text', OWN_TEXT),
  // LlavaNextConfig.__init__: text_config without model_type -> 'llama'; no text_config: LlamaConfig()
  llava_next: wrapper('LlavaNextConfig', 'llama', { nullTextType: true }),

  // ---- encoders, encoder-decoders and vision towers ----
  // `stacks`: an encoder-decoder's layer count, heads and table per stack (fromConfig's decoder
  // option picks one); `patches`: a vision tower's table, one row per patch (+ CLIP's class token)
  whisper: tower(
    'WhisperConfig',
    'whisper/modeling_whisper.py WhisperEncoder.embed_positions (sinusoids(): t2t spacing, sines then cosines), WhisperPositionalEmbedding (decoder), WhisperAttention (head_dim^-0.5)',
    {
      stacks: {
        encoder: {
          layers: 'encoder_layers',
          heads: 'encoder_attention_heads',
          rows: 'max_source_positions',
          table: 'sinusoidal',
        },
        decoder: { layers: 'decoder_layers', heads: 'decoder_attention_heads', rows: 'max_target_positions' },
      },
      // WhisperConfig.__init__ (whisper-tiny sizes)
      defaults: {
        d_model: 384,
        encoder_layers: 4,
        encoder_attention_heads: 6,
        decoder_layers: 4,
        decoder_attention_heads: 6,
        max_source_positions: 1500,
        max_target_positions: 448,
      },
    },
  ),
  bart: tower(
    'BartConfig',
    'bart/modeling_bart.py BartLearnedPositionalEmbedding (offset 2), BartAttention (head_dim^-0.5)',
    { stacks: BART_STACKS, offset: 2, defaults: BART_DEFAULTS },
  ),
  mbart: tower(
    'MBartConfig',
    'mbart/modeling_mbart.py MBartLearnedPositionalEmbedding (offset 2), MBartAttention (head_dim^-0.5)',
    { stacks: BART_STACKS, offset: 2, defaults: BART_DEFAULTS },
  ),
  camembert: tower(
    'CamembertConfig',
    'camembert/modeling_camembert.py CamembertEmbeddings (as RoBERTa: padding_idx + 1)',
    { rows: ['max_position_embeddings'], absolute: true, padOffset: true },
  ),
  clip: wrapper('CLIPConfig', 'clip_text_model', { ...OWN_TEXT, vision: 'clip_vision_model' }),
  clip_text_model: tower(
    'CLIPTextConfig',
    'clip/modeling_clip.py CLIPTextEmbeddings.position_embedding, CLIPAttention (head_dim^-0.5; the text model is causal)',
    {
      rows: ['max_position_embeddings'],
      causal: true,
      defaults: { hidden_size: 512, num_attention_heads: 8, num_hidden_layers: 12, max_position_embeddings: 77 },
    },
  ),
  clip_vision_model: tower(
    'CLIPVisionConfig',
    'clip/modeling_clip.py CLIPVisionEmbeddings (num_patches + 1 rows: class token, then patches), CLIPAttention (head_dim^-0.5)',
    {
      patches: { cls: 1 },
      defaults: { hidden_size: 768, num_attention_heads: 12, num_hidden_layers: 12, image_size: 224, patch_size: 32 },
    },
  ),
  modernbert: rope(
    'ModernBertConfig',
    'modernbert/modeling_modernbert.py ModernBertAttention (layer_id % global_attn_every_n_layers: local layers see |p - j| <= local_attention // 2 and rotate with local_rope_theta), rotate_half, head_dim^-0.5',
    {
      layers: 'modernbert',
      layerTypes: true,
      local: 'modernbert',
      windowKey: 'local_attention',
      halfWindow: true,
      hiddenOnly: true,
      ignores: { position_embedding_type: 'ModernBertEmbeddings has no position table (RoPE in every layer)' },
      // ModernBertConfig.__init__
      defaults: {
        hidden_size: 768,
        num_attention_heads: 12,
        num_hidden_layers: 22,
        global_attn_every_n_layers: 3,
        local_attention: 128,
        global_rope_theta: 160000,
        local_rope_theta: 10000,
      },
    },
  ),
  mpnet: {
    config: 'MPNetConfig',
    hf: 'mpnet/modeling_mpnet.py MPNetEmbeddings (padding_idx 1), MPNetEncoder.compute_position_bias (32 buckets, max_distance 128), MPNetSelfAttention (q·kᵀ / sqrt(d) + position_bias)',
    family: 't5',
    mpnet: true,
    layers: 'full',
    scale: 'head_dim',
    hiddenOnly: true,
    ignores: {
      relative_attention_max_distance:
        'MPNetEncoder.relative_position_bucket uses max_distance 128 whatever the config says',
    },
    // MPNetConfig.__init__
    defaults: {
      hidden_size: 768,
      num_attention_heads: 12,
      num_hidden_layers: 12,
      max_position_embeddings: 512,
      relative_attention_num_buckets: 32,
    },
  },
  siglip: wrapper('SiglipConfig', 'siglip_text_model', { ...OWN_TEXT, vision: 'siglip_vision_model' }),
  siglip_text_model: tower(
    'SiglipTextConfig',
    'siglip/modeling_siglip.py SiglipTextEmbeddings.position_embedding, SiglipAttention (head_dim^-0.5; no causal mask)',
    {
      rows: ['max_position_embeddings'],
      defaults: { hidden_size: 768, num_attention_heads: 12, num_hidden_layers: 12, max_position_embeddings: 64 },
    },
  ),
  siglip_vision_model: tower(
    'SiglipVisionConfig',
    'siglip/modeling_siglip.py SiglipVisionEmbeddings (num_patches rows, no class token), SiglipAttention (head_dim^-0.5)',
    {
      patches: { cls: 0 },
      defaults: { hidden_size: 768, num_attention_heads: 12, num_hidden_layers: 12, image_size: 224, patch_size: 16 },
    },
  ),
  // ---- decoders Hugging Face implements natively, mapped with their config classes ----
  olmoe: rope(
    'OlmoeConfig',
    'olmoe/modeling_olmoe.py OlmoeAttention (head_dim = hidden_size // num_attention_heads), apply_rotary_pos_emb (rotate_half)',
    {
      headDimFromHidden: true,
      ignores: { sliding_window: 'OlmoeAttention has no sliding window' },
      // OlmoeConfig: num_key_value_heads None -> num_attention_heads
      defaults: { hidden_size: 2048, num_attention_heads: 16, num_hidden_layers: 16 },
    },
  ),
  glm4_moe: rope(
    'Glm4MoeConfig',
    'glm4_moe/modeling_glm4_moe.py Glm4MoeAttention (scaling = head_dim^-0.5), apply_rotary_pos_emb (rotate_half on the first head_dim · partial_rotary_factor)',
    {
      ignores: { sliding_window: 'Glm4MoeAttention has no sliding window' },
      // Glm4MoeConfig.__init__: no head_dim parameter (Glm4MoeAttention: getattr(config, 'head_dim', hidden // heads))
      defaults: {
        partial_rotary_factor: 0.5,
        hidden_size: 4096,
        num_attention_heads: 96,
        num_key_value_heads: 8,
        num_hidden_layers: 46,
      },
    },
  ),
  lfm2: rope(
    'Lfm2Config',
    'lfm2/modeling_lfm2.py Lfm2Attention (LlamaAttention: head_dim^-0.5, rotate_half) on full_attention layers; conv layers are Lfm2ShortConv',
    {
      layers: 'lfm2',
      layerTypes: true,
      otherLayers: { conv: 'Lfm2ShortConv, a gated short convolution' },
      // Lfm2Config: rope_theta = kwargs.get('theta', kwargs.get('rope_theta', 1e6))
      baseKey: 'theta',
      ignores: { sliding_window: 'Lfm2Attention has no sliding window' },
      defaults: {
        rope_theta: 1e6,
        hidden_size: 2560,
        num_attention_heads: 32,
        num_key_value_heads: 8,
        num_hidden_layers: 32,
      },
    },
  ),
  ernie4_5: rope(
    'Ernie4_5Config',
    'ernie4_5/modeling_ernie4_5.py Ernie4_5Attention (scaling = head_dim^-0.5), apply_rotary_pos_emb (cos / sin repeat_interleave(2), rotate_half on x[..., 0::2], x[..., 1::2]: adjacent pairs over the whole head)',
    {
      layout: 'interleaved',
      // apply_rotary_pos_emb multiplies the whole head by cos / sin: a narrower table does not broadcast
      wholeHead: true,
      ignores: {
        sliding_window: 'Ernie4_5Attention has no sliding window',
        rotary_dim: 'Ernie4_5Config has no rotary_dim; the rotation spans head_dim',
        rotary_pct: 'Ernie4_5Config has no rotary_pct; the rotation spans head_dim',
        rotary_emb_base: 'Ernie4_5Config reads rope_theta (default 500000), not rotary_emb_base',
        rotary_base: 'Ernie4_5Config reads rope_theta (default 500000), not rotary_base',
      },
      // Ernie4_5Config: head_dim None -> hidden_size // num_attention_heads,
      // num_key_value_heads None -> num_attention_heads
      defaults: {
        rope_theta: 500000,
        hidden_size: 1024,
        num_attention_heads: 16,
        num_key_value_heads: 2,
        num_hidden_layers: 18,
        head_dim: 128,
      },
    },
  ),
  qwen3_next: rope(
    'Qwen3NextConfig',
    'qwen3_next/modeling_qwen3_next.py Qwen3NextAttention (Qwen3MoeAttention with its sliding_window deleted: head_dim^-0.5, rotate_half on the first head_dim · partial_rotary_factor) on full_attention layers; linear_attention layers are Qwen3NextGatedDeltaNet',
    {
      layers: 'qwen3_5',
      layerTypes: true,
      // Qwen3NextDecoderLayer builds linear_attn or self_attn, nothing else
      kinds: ['full_attention', 'linear_attention'],
      // Qwen3NextConfig has no None -> default conversion for these: Qwen3MoeAttention computes with the None
      nullFails: ['num_key_value_heads', 'head_dim'],
      ignores: { sliding_window: 'Qwen3NextAttention deletes the sliding_window Qwen3MoeAttention sets: no window' },
      // Qwen3NextConfig: its fields' defaults; __post_init__: partial_rotary_factor 0.25, full_attention_interval 4
      defaults: {
        head_dim: 256,
        partial_rotary_factor: 0.25,
        hidden_size: 2048,
        num_attention_heads: 16,
        num_key_value_heads: 2,
        num_hidden_layers: 48,
      },
    },
  ),
};

/** Model types whose positions posenc does not model: refused with the reason, naming the HF code. */
export const REFUSED = {
  deberta:
    'disentangled attention (deberta/modeling_deberta.py DisentangledSelfAttention): ' +
    'content-to-position and position-to-content scores from learned relative position embeddings',
  'deberta-v2':
    'disentangled attention (deberta_v2/modeling_deberta_v2.py DisentangledSelfAttention): ' +
    'content-to-position and position-to-content scores from log-bucketed relative position embeddings',
  longformer:
    'sliding-window attention plus global tokens chosen per input (longformer/modeling_longformer.py LongformerSelfAttention)',
  big_bird: 'block-sparse attention with random blocks (big_bird/modeling_big_bird.py BigBirdBlockSparseAttention)',
  reformer: 'LSH and chunked local attention with axial position embeddings (reformer/modeling_reformer.py)',
  xlnet:
    'two-stream attention with relative sinusoidal positions and segment terms (xlnet/modeling_xlnet.py rel_attn_core)',
  // remote code (nomic-ai's modeling_hf_nomic_bert.py): NomicBertConfig defaults rotary_scaling_factor to 1.0
  nomic_bert:
    'decided by remote code (modeling_hf_nomic_bert.py NomicBertAttention): with rotary_scaling_factor set ' +
    '(NomicBertConfig default 1.0) NomicBertDynamicNTKRotaryEmbedding raises the RoPE base past ' +
    'max_trained_positions and keeps the raised table for every later call (register_buffer), so a ' +
    "position's rotation depends on the lengths run before it",
};

/** Model types whose rows were removed: no published config.json of them could be found to verify a
 * row against. Refused by name (even with `as`), naming the Hugging Face code a row would follow. */
export const UNVERIFIED = {
  cohere2: 'cohere2/modeling_cohere2.py Cohere2Attention (interleaved RoPE on sliding layers, none on full layers)',
  olmo3: 'olmo3/modeling_olmo3.py Olmo3Model.rotary_embs (sliding and full layers, YaRN on full layers)',
  switch_transformers:
    "switch_transformers/modeling_switch_transformers.py SwitchTransformersAttention (T5's relative buckets)",
  // not mapped for the same reason; `as` would be wrong on their own layers, so it is refused too
  mllama:
    'mllama/modeling_mllama.py MllamaTextModel (cross_attention_layers: MllamaTextCrossAttention over the ' +
    'vision states, no positions; the other layers MllamaTextSelfAttention with RoPE)',
  mllama_text_model: 'mllama/modeling_mllama.py MllamaTextModel (as mllama)',
  gemma3n:
    'gemma3n/modeling_gemma3n.py Gemma3nTextAttention (sliding layers: rope_local_base_freq and sliding_window; ' +
    "scaling 1.0; the last num_kv_shared_layers layers reuse an earlier layer of their kind's keys and values)",
  gemma3n_text: 'gemma3n/modeling_gemma3n.py Gemma3nTextAttention (as gemma3n)',
};

function learned(config, hf, more) {
  return { config, hf, family: 'learned', layers: 'full', scale: 'head_dim', ...more, defaults: { ...more.defaults } };
}

/** A row of the encoders / encoder-decoders / vision towers block: its attention class computes
 * head_dim = embed_dim // num_heads (a head_dim key is not read). */
function tower(config, hf, more) {
  return learned(config, hf, { hiddenOnly: true, ...more });
}

function wrapper(config, text, more = {}) {
  return { config, hf: `${config}.text_config`, text, family: 'wrapper', defaults: {}, ...more };
}

/** The known model types closest to a name (edit distance), nearest first. Only the name's first 64
 * characters are compared: no type name is longer, and the cost stays bounded for any input. */
export function closestTypes(name, n = 3, keep = () => true) {
  const s = String(name).slice(0, 64).toLowerCase();
  const dist = (a, b) => {
    const row = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
      let prev = row[0];
      row[0] = i;
      for (let j = 1; j <= b.length; j++) {
        const t = row[j];
        row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
        prev = t;
      }
    }
    return row[b.length];
  };
  return Object.keys(MODELS)
    .filter(keep)
    .map((k) => [k, dist(s, k)])
    .sort((x, y) => x[1] - y[1] || x[0].localeCompare(y[0]))
    .slice(0, n)
    .map(([k]) => k);
}
