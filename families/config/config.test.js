// fromConfig over the real config.json files in tests/fixtures/configs (SOURCES.json says where
// each comes from). Every value is checked against float64 numbers this file derives from the
// raw config with the Hugging Face formulas written out again here (transformers
// modeling_rope_utils.py _compute_*_parameters, modeling_bloom.py build_alibi_tensor,
// modeling_t5.py _relative_position_bucket, the model files' per-layer rules), not with config.js.
// Then the result drives ropeFrequencies, ropeCache, applyRope, attention and kvCache as is.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { load, NAMES, refRotate, SOURCES } from '../../tests/config_fixtures.js';
import { Status } from '../../js/index.js';
import { assertClose, assertThrowsPosenc, backends, maxAbsDiff, randomF32 } from '../../tests/helpers.js';

// ---- Hugging Face's formulas, float64 ----
const hfDefault = (base, d) => Array.from({ length: d / 2 }, (_, i) => 1 / base ** ((2 * i) / d));
const getMscale = (s, m = 1) => (s <= 1 ? 1 : 0.1 * m * Math.log(s) + 1);

/** _compute_llama3_parameters */
function hfLlama3(base, d, rs) {
  const inv = hfDefault(base, d);
  const lowW = rs.original_max_position_embeddings / rs.low_freq_factor;
  const highW = rs.original_max_position_embeddings / rs.high_freq_factor;
  return inv.map((f) => {
    const wl = (2 * Math.PI) / f;
    const l = wl > lowW ? f / rs.factor : f;
    const smooth =
      (rs.original_max_position_embeddings / wl - rs.low_freq_factor) / (rs.high_freq_factor - rs.low_freq_factor);
    const medium = !(wl < highW) && !(wl > lowW);
    return medium ? ((1 - smooth) * l) / rs.factor + smooth * l : l;
  });
}

/** _compute_yarn_parameters: inv_freq and attention_factor */
function hfYarn(base, d, rs, maxPos) {
  const L0 = rs.original_max_position_embeddings ?? maxPos;
  const f = rs.factor;
  const corr = (r) => (d * Math.log(L0 / (r * 2 * Math.PI))) / (2 * Math.log(base));
  // find_correction_range: floor / ceil unless truncate is false (gpt-oss)
  const trunc = rs.truncate !== false;
  let low = trunc ? Math.floor(corr(rs.beta_fast ?? 32)) : corr(rs.beta_fast ?? 32);
  let high = trunc ? Math.ceil(corr(rs.beta_slow ?? 1)) : corr(rs.beta_slow ?? 1);
  low = Math.max(low, 0);
  high = Math.min(high, d - 1);
  if (low === high) high += 0.001;
  const inv = hfDefault(base, d).map((ext, i) => {
    const ramp = Math.min(1, Math.max(0, (i - low) / (high - low)));
    const extrapolationFactor = 1 - ramp;
    return (ext / f) * (1 - extrapolationFactor) + ext * extrapolationFactor;
  });
  let att = rs.attention_factor;
  if (att === undefined) {
    att = rs.mscale && rs.mscale_all_dim ? getMscale(f, rs.mscale) / getMscale(f, rs.mscale_all_dim) : getMscale(f);
  }
  return { inv, att };
}

/** _compute_longrope_parameters at a sequence length L */
function hfLongrope(base, d, rs, cfg, L) {
  const orig = cfg.original_max_position_embeddings ?? cfg.max_position_embeddings;
  const factor = cfg.original_max_position_embeddings ? cfg.max_position_embeddings / orig : (rs.factor ?? 1);
  const ext = L > orig ? rs.long_factor : rs.short_factor;
  const inv = Array.from({ length: d / 2 }, (_, i) => 1 / (ext[i] * base ** ((2 * i) / d)));
  const att = rs.attention_factor ?? (factor <= 1 ? 1 : Math.sqrt(1 + Math.log(factor) / Math.log(orig)));
  return { inv, att };
}

/** _compute_dynamic_ntk_parameters at a sequence length L */
function hfDynamic(base, d, rs, maxPos, L) {
  const b = base * ((rs.factor * Math.max(L, maxPos)) / maxPos - (rs.factor - 1)) ** (d / (d - 2));
  return hfDefault(b, d);
}

/** modeling_bloom.py build_alibi_tensor's slopes */
function hfAlibiSlopes(n) {
  const closest = 2 ** Math.floor(Math.log2(n));
  const base = 2 ** -(2 ** -(Math.log2(closest) - 3));
  const slopes = Array.from({ length: closest }, (_, i) => base ** (i + 1));
  if (closest !== n) {
    const extraBase = 2 ** -(2 ** -(Math.log2(2 * closest) - 3));
    const remaining = Math.min(closest, n - closest);
    for (let i = 0; i < remaining; i++) slopes.push(extraBase ** (2 * i + 1));
  }
  return slopes;
}

/** modeling_t5.py T5Attention._relative_position_bucket */
function hfT5Bucket(rp, bidirectional, numBuckets, maxDistance) {
  let buckets = 0;
  let n = numBuckets;
  if (bidirectional) {
    n = Math.floor(n / 2);
    if (rp > 0) buckets += n;
    rp = Math.abs(rp);
  } else {
    rp = -Math.min(rp, 0);
  }
  const maxExact = Math.floor(n / 2);
  if (rp < maxExact) return buckets + rp;
  const large = maxExact + Math.trunc((Math.log(rp / maxExact) / Math.log(maxDistance / maxExact)) * (n - maxExact));
  return buckets + Math.min(large, n - 1);
}

function maxRel(actual, expected) {
  let m = 0;
  for (let i = 0; i < expected.length; i++)
    m = Math.max(m, Math.abs(actual[i] - expected[i]) / Math.max(1e-300, Math.abs(expected[i])));
  return m;
}

// ---- what each model is, from its model file (independent of config.js's tables) ----
// family, layout, rotated width, per-layer pattern, heads / kvHeads, softmax scale.
const EXPECT = {
  'baichuan2-7b': { family: 'rope', layout: 'half', dim: 128, rot: 128, heads: 32, kv: 32 },
  'bert-base-uncased': { family: 'learned', rows: 512, heads: 12, dim: 64 },
  'chatglm3-6b': { family: 'rope', layout: 'interleaved', dim: 128, rot: 64, heads: 32, kv: 2 },
  'codellama-7b': { family: 'rope', layout: 'half', dim: 128, rot: 128, heads: 32, kv: 32, base: 1e6 },
  'deepseek-v2-lite': {
    family: 'rope',
    layout: 'interleaved',
    dim: 64,
    rot: 64,
    heads: 16,
    kv: 16,
    attDim: 192,
    // transformers' DeepseekV2Attention: scaling = qk_head_dim^-0.5, no mscale² (the remote code has it)
    scale: 1 / Math.sqrt(192),
  },
  'falcon-7b-instruct': { family: 'rope', layout: 'half', dim: 64, rot: 64, heads: 71, kv: 1 },
  'gemma-2-2b': { family: 'rope', layout: 'half', dim: 256, rot: 256, heads: 8, kv: 4, scale: 1 / 16, window: 4096 },
  'gemma-3-1b': { family: 'rope', layout: 'half', dim: 256, rot: 256, heads: 4, kv: 1, scale: 1 / 16, window: 512 },
  'gpt-j-6b': { family: 'rope', layout: 'interleaved', dim: 256, rot: 64, heads: 16, kv: 16 },
  gpt2: { family: 'learned', rows: 1024, heads: 12, dim: 64 },
  'internlm2.5-7b': { family: 'rope', layout: 'half', dim: 128, rot: 128, heads: 32, kv: 8 },
  'llama-3.1-8b': { family: 'rope', layout: 'half', dim: 128, rot: 128, heads: 32, kv: 8 },
  'llama-3.2-1b': { family: 'rope', layout: 'half', dim: 64, rot: 64, heads: 32, kv: 8 },
  'llama-3.2-3b': { family: 'rope', layout: 'half', dim: 128, rot: 128, heads: 24, kv: 8 },
  'llama-4-scout': { family: 'rope', layout: 'interleaved', dim: 128, rot: 128, heads: 40, kv: 8 },
  'minicpm-2b': { family: 'rope', layout: 'half', dim: 64, rot: 64, heads: 36, kv: 36 },
  'ministral-3-3b': { family: 'rope', layout: 'half', dim: 128, rot: 128, heads: 32, kv: 8 },
  'mistral-7b-v0.1': { family: 'rope', layout: 'half', dim: 128, rot: 128, heads: 32, kv: 8, window: 4096 },
  'mpt-7b-instruct': { family: 'alibi', heads: 32, dim: 128 },
  'phi-2': { family: 'rope', layout: 'half', dim: 80, rot: 32, heads: 32, kv: 32 },
  'phi-3.5-mini': { family: 'rope', layout: 'half', dim: 96, rot: 96, heads: 32, kv: 32, window: 262144 },
  'phi-4-mini': { family: 'rope', layout: 'half', dim: 128, rot: 96, heads: 24, kv: 8, window: 262144 },
  'qwen-1.8b': { family: 'rope', layout: 'half', dim: 128, rot: 128, heads: 16, kv: 16 },
  'qwen2.5-3b': { family: 'rope', layout: 'half', dim: 128, rot: 128, heads: 16, kv: 2 },
  'qwen2.5-vl-7b': { family: 'rope', layout: 'half', dim: 128, rot: 128, heads: 28, kv: 4, mrope: [16, 24, 24] },
  'qwen2-vl-7b-instruct': { family: 'rope', layout: 'half', dim: 128, rot: 128, heads: 28, kv: 4, mrope: [16, 24, 24] },
  // LlavaNextConfig.text_config: a mistral config (MistralConfig defaults: 4096 wide, 32 heads); sliding_window null
  'llava-v1.6-mistral-7b': { family: 'rope', layout: 'half', dim: 128, rot: 128, heads: 32, kv: 8, base: 1e6 },
  'redpajama-3b': { family: 'rope', layout: 'half', dim: 80, rot: 80, heads: 32, kv: 32 },
  'snowflake-arctic-embed-m': { family: 'learned', rows: 512, heads: 12, dim: 64 },
  'stablelm-2-zephyr-1.6b': { family: 'rope', layout: 'half', dim: 64, rot: 16, heads: 32, kv: 32 },
  't5-small': { family: 't5', heads: 8, dim: 64, scale: 1 },
  'tinyllama-1.1b': { family: 'rope', layout: 'half', dim: 64, rot: 64, heads: 32, kv: 4 },
  // modeling_gpt_oss.py: _apply_rotary_emb halves, layer 0 slides (layer_types), YaRN truncate false
  'gpt-oss-20b': { family: 'rope', layout: 'half', dim: 64, rot: 64, heads: 64, kv: 8, window: 128 },
  // MixtralConfig: sliding_window null in the file
  'mixtral-8x7b': { family: 'rope', layout: 'half', dim: 128, rot: 128, heads: 32, kv: 8, base: 1e6 },
  'qwen3-1.7b': { family: 'rope', layout: 'half', dim: 128, rot: 128, heads: 16, kv: 8, base: 1e6 },
  // Starcoder2Attention: sliding_window on every layer
  'starcoder2-15b': { family: 'rope', layout: 'half', dim: 128, rot: 128, heads: 36, kv: 4, window: 4096 },
  // modeling_cohere.py rotate_half: x[..., ::2], x[..., 1::2] (adjacent pairs)
  'aya-23-8b': { family: 'rope', layout: 'interleaved', dim: 128, rot: 128, heads: 32, kv: 8 },
  'olmo-2-7b': { family: 'rope', layout: 'half', dim: 128, rot: 128, heads: 32, kv: 32, base: 5e5 },
  // Gemma3TextConfig defaults: 8 heads, 4 KV heads, head_dim 256, query_pre_attn_scalar 256,
  // rope_local_base_freq 1e4 on the local layer 0
  // DeepseekV3Attention: rope_interleave (default True) pairs, qk_rope_head_dim 64 of a 192-wide head, YaRN ×40
  'deepseek-v3': {
    family: 'rope',
    layout: 'interleaved',
    dim: 64,
    rot: 64,
    heads: 128,
    kv: 128,
    attDim: 192,
    mla: true,
  },
  'deepseek-r1': {
    family: 'rope',
    layout: 'interleaved',
    dim: 64,
    rot: 64,
    heads: 128,
    kv: 128,
    attDim: 192,
    mla: true,
  },
  // BloomAttention: ALiBi (build_alibi_tensor), inv_norm_factor 1/sqrt(head_dim); offset_alibi read by nothing
  'bloom-560m': { family: 'alibi', heads: 16, kv: 16, dim: 64 },
  // JambaConfig.layers_block_type: layer 4 is attention (no positional encoding), layer 0 Mamba
  'jamba-1.5-mini': { family: 'none', heads: 32, kv: 8, dim: 128, layer: 4 },
  // google/gemma-3-27b-it: query_pre_attn_scalar 168 (not head_dim 128), local layer 0 at rope_local_base_freq
  'gemma-3-27b': {
    family: 'rope',
    layout: 'half',
    dim: 128,
    rot: 128,
    heads: 32,
    kv: 16,
    scale: 1 / Math.sqrt(168),
    window: 1024,
  },
  'gemma-3-4b': { family: 'rope', layout: 'half', dim: 256, rot: 256, heads: 8, kv: 4, scale: 1 / 16, window: 1024 },
  // GPTBigCodeAttention: kv_heads = 1 if multi_query
  'gpt-bigcode-santacoder': { family: 'learned', rows: 2048, heads: 16, kv: 1, dim: 128 },
  'gemma-2b': { family: 'rope', layout: 'half', dim: 256, rot: 256, heads: 8, kv: 1 },
  'qwen1.5-moe-a2.7b': { family: 'rope', layout: 'half', dim: 128, rot: 128, heads: 16, kv: 16, base: 1e6 },
  // LlavaConfig: text_config is a LlamaConfig; its omitted keys take LlamaConfig's defaults (32 heads, 4096 wide)
  'llava-1.5-7b': { family: 'rope', layout: 'half', dim: 128, rot: 128, heads: 32, kv: 32, base: 1e4 },
  // DistilBertConfig: dim, n_heads, n_layers
  clinicalbert: { family: 'learned', rows: 512, heads: 12, kv: 12, dim: 64 },
  // GPT2Attention: layer 0 of scale_attn_by_inverse_layer_idx divides by 1
  biomedlm: { family: 'learned', rows: 1024, heads: 20, kv: 20, dim: 128 },
  // PhiAttention: rotary_ndims = int(head_dim * partial_rotary_factor) = int(80 · 0.4) = 32, rotate_half
  'phi-2-hf': { family: 'rope', layout: 'half', dim: 80, rot: 32, heads: 32, kv: 32 },
  // GPTNeoSelfAttention: no 1/sqrt(head_dim); layer 0 global, layer 1 local (window_size 256)
  'tinystories-8m': { family: 'learned', rows: 2048, heads: 16, kv: 16, dim: 16, scale: 1 },
  // OPTLearnedPositionalEmbedding: a table of max_position_embeddings + 2 rows, positions start at 2
  'opt-125m': { family: 'learned', rows: 2050, offset: 2, heads: 12, kv: 12, dim: 64 },
  // XLMRobertaEmbeddings: create_position_ids_from_input_ids, positions from padding_idx + 1 = 2 in a 514-row table
  'xlm-roberta-large-qa-ru': { family: 'learned', rows: 514, offset: 2, heads: 16, kv: 16, dim: 64 },
  // MT5Config default relative_attention_max_distance 128 (the file omits it); T5Attention: no 1/sqrt(d)
  'mt5-base': { family: 't5', heads: 12, kv: 12, dim: 64, scale: 1 },
  // UMT5Config default relative_attention_max_distance 128; UMT5Attention: every layer has its own bias table, no 1/sqrt(d)
  'umt5-xxl-comfyui': { family: 't5', heads: 64, kv: 64, dim: 64, scale: 1 },
  // RobertaEmbeddings: positions from padding_idx + 1 = 2 in a 514-row table
  'roberta-large-32k': { family: 'learned', rows: 514, offset: 2, heads: 16, kv: 16, dim: 64 },
  // SmolLM3Attention: use_rope = no_rope_layers[layer_idx] (layer 3 of every 4 is NoPE); no window (use_sliding_window false)
  'smollm3-3b': { family: 'rope', layout: 'half', dim: 128, rot: 128, heads: 16, kv: 4, base: 5e6 },
  // Exaone4Attention: sliding_window null, so every layer rotates (rope when sliding_window is None or the layer slides); llama3 ×16
  'exaone-4.0-1.2b-w4': { family: 'rope', layout: 'half', dim: 64, rot: 64, heads: 32, kv: 8, base: 1e6 },
  // GraniteAttention: self.scaling = config.attention_multiplier (1/128, not 128^-0.5)
  'granite-3.3-8b-instruct': {
    family: 'rope',
    layout: 'half',
    dim: 128,
    rot: 128,
    heads: 32,
    kv: 8,
    base: 1e7,
    scale: 0.0078125,
  },
  // Mistral3Config: text_config a MistralConfig; sliding_window null, head_dim 128, rope_theta 1e9
  'mistral-small-3-flux2-te': { family: 'rope', layout: 'half', dim: 128, rot: 128, heads: 32, kv: 8, base: 1e9 },
  // encoders, encoder-decoders, vision towers: layer 0 of the encoder / text tower (families/config/config_encoders.test.js has the rest)
  'bart-large-cnn': { family: 'learned', rows: 1026, offset: 2, heads: 16, kv: 16, dim: 64 },
  'camembert-base-emotexttokids': { family: 'learned', rows: 514, offset: 2, heads: 12, kv: 12, dim: 64 },
  'clip-vit-base-patch32': { family: 'learned', rows: 77, heads: 8, kv: 8, dim: 64 },
  'mbart-cc25-mytran': { family: 'learned', rows: 1026, offset: 2, heads: 8, kv: 8, dim: 128 },
  'siglip-image-classifier': { family: 'learned', rows: 64, heads: 12, kv: 12, dim: 64 },
  'whisper-large-v3': { family: 'sinusoidal', heads: 20, kv: 20, dim: 64 },
  // layer 0 is global: global_rope_theta (ModernBertAttention)
  // MPNet: a T5 bucket bias (32, 128) in every layer and a learned table from row 2
  'all-mpnet-base-v2': { family: 't5', heads: 12, kv: 12, dim: 64, scale: 0.125 },
  'modernbert-large-zeroshot-v2': { family: 'rope', layout: 'half', dim: 64, rot: 64, heads: 16, kv: 16, base: 160000 },
  // OlmoeAttention: head_dim = hidden_size // num_heads = 128, rotate_half, every layer full
  'olmoe-1b-7b-0125-instruct': { family: 'rope', layout: 'half', dim: 128, rot: 128, heads: 16, kv: 16, base: 1e4 },
  // Glm4MoeAttention: rotate_half on the first int(128 · 0.5) = 64 of each head (GPT-NeoX apply_rotary_pos_emb)
  'glm-4.5-air-mlx-4bit': { family: 'rope', layout: 'half', dim: 128, rot: 64, heads: 96, kv: 8, base: 1e6 },
  // Lfm2Config.layer_types: layer 2 is full_attention (layer 0 a conv layer); LlamaAttention rotate_half, theta 1e6
  'lfm2-2.6b': { family: 'rope', layout: 'half', dim: 64, rot: 64, heads: 32, kv: 8, base: 1e6, layer: 2 },
  // CodeGenAttention: rotate_every_two over rotary_dim 32 of head_dim 64, create_sinusoidal_positions base 10000
  'codegen-350m-mono': { family: 'rope', layout: 'interleaved', dim: 64, rot: 32, heads: 16, kv: 16, base: 1e4 },
  // Qwen3MoeAttention: head_dim 128 from the file, sliding_window None (use_sliding_window false)
  'qwen3-30b-a3b': { family: 'rope', layout: 'half', dim: 128, rot: 128, heads: 32, kv: 4, base: 1e6 },
  // Glm4vMoeTextAttention: apply_multimodal_rotary_pos_emb, rotate_half over head_dim · partial_rotary_factor = 64
  'glm-4.5v': { family: 'rope', layout: 'half', dim: 128, rot: 64, heads: 96, kv: 8, base: 1e4, mrope: [8, 12, 12] },
  // Qwen3_5TextConfig.layer_types: layer 3 is the first full_attention layer; 64 of 256 dims, interleaved M-RoPE
  'qwen3.5-0.8b-base': {
    family: 'rope',
    layout: 'half',
    dim: 256,
    rot: 64,
    heads: 8,
    kv: 2,
    base: 1e7,
    mrope: [11, 11, 10],
    layer: 3,
  },
  // Qwen3NextConfig.layer_types (full_attention_interval 4): layer 3 is the first full_attention layer; 64 of 256 dims
  'qwen3-next-80b-a3b-instruct': {
    family: 'rope',
    layout: 'half',
    dim: 256,
    rot: 64,
    heads: 16,
    kv: 2,
    base: 1e7,
    layer: 3,
  },
  // LongT5: the transient-global encoder is refused (encoder_attention_type); the decoder is LongT5Attention
  'long-t5-tglobal-base-book-summary': {
    family: 't5',
    heads: 12,
    kv: 12,
    dim: 64,
    scale: 1,
    opts: { decoder: true },
    t5: { numBuckets: 32, maxDistance: 128, bidirectional: false },
  },
  // Ernie4_5Attention: apply_rotary_pos_emb on adjacent pairs (repeat_interleave cos / sin) over the whole head
  'ernie-4.5-0.3b-pt': { family: 'rope', layout: 'interleaved', dim: 128, rot: 128, heads: 16, kv: 2, base: 5e5 },
  // unseen real configs of mapped types (families/config/config_unseen.test.js checks every layer of each)
  'codellama-34b': { family: 'rope', layout: 'half', dim: 128, rot: 128, heads: 64, kv: 8, base: 1e6 },
  'gemma-2-27b': { family: 'rope', layout: 'half', dim: 128, rot: 128, heads: 32, kv: 16, scale: 1 / 12, window: 4096 },
  'gemma-2-2b-jpn': {
    family: 'rope',
    layout: 'half',
    dim: 256,
    rot: 256,
    heads: 8,
    kv: 4,
    scale: 224 ** -0.5,
    window: 4096,
  },
  'gemma-2-9b': { family: 'rope', layout: 'half', dim: 256, rot: 256, heads: 16, kv: 8, scale: 1 / 16, window: 4096 },
  'gpt2-medium': { family: 'learned', rows: 1024, heads: 16, dim: 64 },
  'internlm2-7b': { family: 'rope', layout: 'half', dim: 128, rot: 128, heads: 32, kv: 8, base: 1e6 },
  'llama-2-70b': { family: 'rope', layout: 'half', dim: 128, rot: 128, heads: 64, kv: 8, base: 1e4 },
  'llama-3.1-70b': { family: 'rope', layout: 'half', dim: 128, rot: 128, heads: 64, kv: 8, base: 5e5 },
  'minicpm-2b-sft': { family: 'rope', layout: 'half', dim: 64, rot: 64, heads: 36, kv: 36, base: 1e4 },
  'mistral-7b-v0.3': { family: 'rope', layout: 'half', dim: 128, rot: 128, heads: 32, kv: 8, base: 1e6 },
  'olmo-2-13b': { family: 'rope', layout: 'half', dim: 128, rot: 128, heads: 40, kv: 40, base: 5e5 },
  'olmo-2-32b': { family: 'rope', layout: 'half', dim: 128, rot: 128, heads: 40, kv: 8, base: 5e5 },
  'phi-3-mini-4k': { family: 'rope', layout: 'half', dim: 96, rot: 96, heads: 32, kv: 32, window: 2047 },
  'qwen2-0.5b': { family: 'rope', layout: 'half', dim: 64, rot: 64, heads: 14, kv: 2, base: 1e6 },
  'qwen2-7b': { family: 'rope', layout: 'half', dim: 128, rot: 128, heads: 28, kv: 4, base: 1e6 },
  'qwen3-0.6b': { family: 'rope', layout: 'half', dim: 128, rot: 128, heads: 16, kv: 8, base: 1e6 },
  'smollm-135m': { family: 'rope', layout: 'half', dim: 64, rot: 64, heads: 9, kv: 3, base: 1e4 },
  'smollm2-360m': { family: 'rope', layout: 'half', dim: 64, rot: 64, heads: 15, kv: 5, base: 1e5 },
  'stablelm-3b-4e1t': { family: 'rope', layout: 'half', dim: 80, rot: 20, heads: 32, kv: 32, base: 1e4 },
  'tinyllama-1.1b-v0.4': { family: 'rope', layout: 'half', dim: 64, rot: 64, heads: 32, kv: 4, base: 1e4 },
  'falcon-40b-instruct': { family: 'rope', layout: 'half', dim: 64, rot: 64, heads: 128, kv: 8, base: 1e4 },
  'pythia-14m': { family: 'rope', layout: 'half', dim: 32, rot: 8, heads: 4, kv: 4, base: 1e4 },
  'gemma-7b': { family: 'rope', layout: 'half', dim: 256, rot: 256, heads: 16, kv: 16, base: 1e4 },
};

/** Gemma3TextConfig.__init__ defaults (configuration_gemma3.py), for configs that omit them. */
const GEMMA3_TEXT = { rope_theta: 1e6, rope_local_base_freq: 1e4, sliding_window_pattern: 6, head_dim: 256 };

/** The text part of a config (a nested text_config when present). */
const textOf = (cfg) => (cfg.text_config && typeof cfg.text_config === 'object' ? cfg.text_config : cfg);

/** HF inv_freq and attention factor of layer 0 of a RoPE fixture at sequence length L, from the raw config. */
function hfRope(name, cfg, L = 1) {
  const c = textOf(cfg);
  const e = EXPECT[name];
  let base = c.rope_parameters?.rope_theta ?? c.rope_theta ?? c.rotary_emb_base ?? 10000;
  let rs = c.rope_parameters ?? c.rope_scaling ?? null;
  if (name.startsWith('gemma-3-')) {
    base = c.rope_local_base_freq ?? GEMMA3_TEXT.rope_local_base_freq;
    rs = null;
  } // layer 0 is local
  if (name.startsWith('modernbert')) base = c.global_rope_theta; // layer 0 is global
  const d = e.rot;
  const type = rs ? (rs.rope_type ?? rs.type) : 'default';
  switch (type) {
    case 'llama3':
      return { inv: hfLlama3(base, d, rs), att: 1 };
    case 'yarn':
      return hfYarn(base, d, rs, c.max_position_embeddings);
    case 'longrope':
      return hfLongrope(base, d, rs, c, L);
    case 'dynamic':
      return { inv: hfDynamic(base, d, rs, c.max_position_embeddings, L), att: 1 };
    default:
      return { inv: hfDefault(base, d), att: 1 };
  }
}

test('fixtures: every config.json has its source recorded, and at least 20 are here', () => {
  assert.ok(NAMES.length >= 20, `${NAMES.length} fixtures`);
  for (const n of NAMES) {
    assert.ok(SOURCES[n]?.repository && SOURCES[n]?.path, `${n}: SOURCES.json names its repository and path`);
    assert.ok(EXPECT[n], `${n}: an expectation in this test`);
  }
});

test('every fixture goes through fromConfig as is: family, widths, heads, layout, frequencies against HF float64', async () => {
  const [{ pe }] = await backends();
  for (const name of NAMES) {
    const cfg = load(name);
    const e = EXPECT[name];
    const s = pe.fromConfig(cfg, { layer: e.layer ?? 0, ...e.opts });
    assert.equal(s.family, e.family, `${name}: family`);
    assert.equal(s.attention.heads, e.heads, `${name}: heads`);
    if (e.kv) assert.equal(s.attention.kvHeads, e.kv, `${name}: kvHeads`);
    const attDim = e.attDim ?? e.dim;
    assert.equal(s.attention.dim, attDim, `${name}: attention.dim`);
    if (e.scale !== undefined) assert.equal(s.attention.scale, e.scale, `${name}: scale`);
    else if (e.mla) {
      // modeling_deepseek_v3.py: softmax_scale = qk_head_dim^-0.5 · mscale(factor, mscale_all_dim)^2
      const rs = cfg.rope_scaling;
      const m = getMscale(rs.factor, rs.mscale_all_dim);
      assert.ok(Math.abs(s.attention.scale - (m * m) / Math.sqrt(attDim)) < 1e-15, `${name}: MLA scale`);
    } else assert.equal(s.attention.scale, 1 / Math.sqrt(attDim), `${name}: scale 1/sqrt(head_dim)`);
    assert.equal(s.attention.window, e.window, `${name}: window of layer 0`);
    assert.ok(Object.keys(s.source).length > 0, `${name}: source lists the keys read`);
    if (e.family === 'learned') {
      // the table's row count and the position of the first token (OPT's offset 2, RoBERTa's padding_idx + 1)
      assert.equal(s.learned.rows, e.rows, `${name}: learned.rows`);
      assert.equal(s.learned.offset, e.offset, `${name}: learned.offset`);
    }
    if (e.family === 't5') {
      assert.deepEqual(s.t5, e.t5 ?? { numBuckets: 32, maxDistance: 128, bidirectional: true }, `${name}: t5 buckets`);
    }
    if (e.family !== 'rope') continue;
    assert.equal(s.rope.dim, e.dim, `${name}: rope.dim`);
    assert.equal(s.rope.rotaryDim ?? s.rope.dim, e.rot, `${name}: rotated width`);
    assert.equal(s.rope.layout, e.layout, `${name}: layout`);
    assert.deepEqual(s.rope.mropeSections, e.mrope, `${name}: mropeSections`);
    if (e.base) assert.equal(s.rope.base, e.base, `${name}: base`);
    // frequencies and attention factor at initialisation (short factors, no dynamic growth)
    const f = pe.ropeFrequencies(s.rope);
    const ref = hfRope(name, cfg);
    assert.ok(maxRel(f.invFreq64, ref.inv) < 1e-12, `${name}: inv_freq rel err ${maxRel(f.invFreq64, ref.inv)}`);
    assert.ok(
      Math.abs(f.attentionScale - ref.att) < 1e-12,
      `${name}: attention factor ${f.attentionScale} vs ${ref.att}`,
    );
  }
});

test("Llama 3.1: the smoothed band and the divided pairs are HF's (pairs 0-28 kept, 29-34 smoothed, 35-63 / 8)", async () => {
  const [{ pe }] = await backends();
  const s = pe.fromConfig(load('llama-3.1-8b'));
  const f = pe.ropeFrequencies(s.rope).invFreq64;
  const plain = hfDefault(500000, 128);
  for (let i = 0; i <= 28; i++) assert.equal(f[i], plain[i], `pair ${i} kept`);
  for (let i = 35; i < 64; i++) assert.ok(Math.abs(f[i] - plain[i] / 8) <= 1e-15 * plain[i], `pair ${i} divided`);
  for (let i = 29; i <= 34; i++) assert.ok(f[i] < plain[i] && f[i] > plain[i] / 8, `pair ${i} smoothed`);
});

test('Phi-3.5 / Phi-4-mini: long factors past original_max_position_embeddings, attention factor sqrt(1 + ln 32 / ln 4096)', async () => {
  const [{ pe }] = await backends();
  for (const name of ['phi-3.5-mini', 'phi-4-mini']) {
    const cfg = load(name);
    const s = pe.fromConfig(cfg);
    const L = 5000;
    const ref = hfLongrope(s.rope.base, EXPECT[name].rot, cfg.rope_scaling, cfg, L);
    const c = pe.ropeCache({ length: 1, offset: L - 1, ...s.rope });
    const n = EXPECT[name].rot / 2;
    for (let i = 0; i < n; i++) {
      const a = (L - 1) * ref.inv[i];
      assert.ok(Math.abs(c.cos[i] - Math.cos(a) * ref.att) < 3e-6, `${name} pair ${i} at ${L - 1}`);
    }
    assert.ok(Math.abs(ref.att - Math.sqrt(1 + Math.log(32) / Math.log(4096))) < 1e-15);
    assert.ok(Math.abs(c.attentionScale - ref.att) < 1e-12);
  }
});

test("dynamic NTK (InternLM 2.5, MiniCPM): past max_position_embeddings the base grows as HF's dynamic update", async () => {
  const [{ pe }] = await backends();
  for (const name of ['internlm2.5-7b', 'minicpm-2b']) {
    const cfg = load(name);
    const s = pe.fromConfig(cfg);
    const L = cfg.max_position_embeddings + 1000;
    const inv = hfDynamic(s.rope.base, s.rope.dim, cfg.rope_scaling, cfg.max_position_embeddings, L);
    const c = pe.ropeCache({ length: 1, offset: L - 1, ...s.rope });
    for (let i = 0; i < inv.length; i++) {
      assert.ok(Math.abs(c.sin[i] - Math.sin((L - 1) * inv[i])) < 3e-6, `${name} pair ${i}`);
    }
  }
});

test("DeepSeek-V2-Lite: YaRN factor 40 on the 64-wide rope part, softmax scale 192^-0.5 (transformers' DeepseekV2Attention; the remote code's mscale(40, 0.707)^2 ≈ 1.59 noted)", async () => {
  const [{ pe }] = await backends();
  const cfg = load('deepseek-v2-lite');
  const s = pe.fromConfig(cfg);
  const m = getMscale(40, 0.707);
  assert.ok(Math.abs(m * m - 1.5896) < 1e-4);
  // modeling_deepseek_v2.py DeepseekV2Attention.__init__: self.scaling = self.qk_head_dim ** (-0.5), nothing more
  assert.equal(s.attention.scale, 1 / Math.sqrt(192));
  assert.ok(
    s.notes.some((n) => n.includes('modeling_deepseek.py') && n.includes(String(m * m))),
    'remote code noted',
  );
  // DeepSeek-V3 (DeepseekV3Attention) multiplies by mscale(factor, mscale_all_dim)^2 whatever the rope type
  const v3 = pe.fromConfig({ ...load('deepseek-v3'), rope_scaling: { type: 'linear', factor: 40, mscale_all_dim: 1 } });
  const m3 = getMscale(40, 1);
  assert.ok(Math.abs(v3.attention.scale - (m3 * m3) / Math.sqrt(192)) < 1e-15);
  assert.equal(s.attention.dimV, 128);
  const f = pe.ropeFrequencies(s.rope);
  assert.equal(f.attentionScale, 1); // mscale / mscale_all_dim = 0.707 / 0.707
});

test('per-layer schemes: Gemma 2/3 local and global layers, Llama 4 chunked RoPE and NoPE with temperature tuning', async () => {
  const [{ pe }] = await backends();
  const g3 = load('gemma-3-1b');
  for (let layer = 0; layer < g3.num_hidden_layers; layer++) {
    const s = pe.fromConfig(g3, { layer });
    const global = (layer + 1) % g3.sliding_window_pattern === 0; // Gemma3Config layer_types
    assert.equal(s.rope.base, global ? g3.rope_theta : g3.rope_local_base_freq, `gemma 3 layer ${layer} base`);
    assert.equal(s.attention.window, global ? undefined : g3.sliding_window, `gemma 3 layer ${layer} window`);
  }
  const g2 = load('gemma-2-2b');
  for (let layer = 0; layer < 4; layer++) {
    assert.equal(pe.fromConfig(g2, { layer }).attention.window, layer % 2 ? undefined : 4096, `gemma 2 layer ${layer}`);
  }
  const l4 = load('llama-4-scout');
  const t = l4.text_config;
  for (let layer = 0; layer < t.num_hidden_layers; layer++) {
    const s = pe.fromConfig(l4, { layer });
    const rope = t.no_rope_layers[layer] === 1;
    assert.equal(s.family, rope ? 'rope' : 'none', `llama 4 layer ${layer}`);
    assert.equal(s.attention.chunk, rope ? 8192 : undefined, `llama 4 layer ${layer} chunk`);
    if (!rope) {
      // modeling_llama4.py: attn_scales = log1p(floor((cache_position + 1) / floor_scale)) * attn_scale + 1
      for (const p of [0, 8190, 8191, 100000]) {
        assert.equal(s.attention.queryScale(p), Math.log1p(Math.floor((p + 1) / t.floor_scale)) * t.attn_scale + 1);
      }
      assert.equal(s.attention.queryScale(8190), 1);
      assert.ok(s.attention.queryScale(8191) > 1);
    } else {
      assert.equal(s.attention.queryScale, undefined);
    }
  }
});

test('Qwen 1 logn and Ministral 3 llama_4_scaling_beta are per-query scales of the position', async () => {
  const [{ pe }] = await backends();
  const q = pe.fromConfig(load('qwen-1.8b'));
  for (const p of [0, 8190, 8191, 20000]) {
    assert.equal(q.attention.queryScale(p), p + 1 > 8192 ? Math.log(p + 1) / Math.log(8192) : 1);
  }
  assert.ok(q.notes.some((n) => /use_dynamic_ntk/.test(n)));
  const m = pe.fromConfig(load('ministral-3-3b'));
  for (const p of [0, 16383, 16384, 70000])
    assert.equal(m.attention.queryScale(p), 1 + 0.1 * Math.log(1 + Math.floor(p / 16384)));
});

test('ALiBi (MPT) slopes and T5 buckets (encoder bidirectional, decoder causal) against HF', async () => {
  const [{ pe }] = await backends();
  const s = pe.fromConfig(load('mpt-7b-instruct'));
  const slopes = pe.alibiSlopes(s.alibi.heads);
  const ref = hfAlibiSlopes(32);
  for (let h = 0; h < 32; h++) assert.ok(Math.abs(slopes[h] - ref[h]) <= 1e-7 * ref[h], `slope ${h}`);
  // a non-power-of-two head count, as BLOOM-style configs have: same rule
  const bloomLike = { model_type: 'bloom', n_head: 12, hidden_size: 768, n_layer: 2 };
  const b = pe.fromConfig(bloomLike);
  const s12 = pe.alibiSlopes(b.alibi.heads);
  hfAlibiSlopes(12).forEach((v, h) => assert.ok(Math.abs(s12[h] - v) <= 1e-7 * v, `bloom slope ${h}`));
  const cfg = load('t5-small');
  for (const decoder of [false, true]) {
    const t = pe.fromConfig(cfg, { decoder });
    assert.equal(t.t5.bidirectional, !decoder);
    const buckets = pe.t5Buckets({ queries: 40, keys: 200, ...t.t5 });
    for (let i = 0; i < 40; i++) {
      for (let j = 0; j < 200; j++) {
        assert.equal(
          buckets[i * 200 + j],
          hfT5Bucket(j - i, !decoder, 32, 128),
          `bucket q${i} k${j} decoder=${decoder}`,
        );
      }
    }
  }
});

test('the result drives applyRope (float64 HF rotation), attention and kvCache with no glue', async () => {
  for (const { name: backend, pe } of await backends()) {
    for (const name of NAMES) {
      const cfg = load(name);
      const s = pe.fromConfig(cfg, { layer: EXPECT[name].layer ?? 0, ...EXPECT[name].opts });
      const heads = s.attention.heads;
      const kvHeads = s.attention.kvHeads;
      const dim = s.attention.dim;
      const dimV = s.attention.dimV ?? dim;
      const length = 3;
      if (s.rope) {
        const x = randomF32(length * heads * s.rope.dim, 7);
        const positions = s.rope.mropeSections ? Int32Array.from([0, 1, 2, 0, 5, 9, 0, 3, 11]) : undefined;
        const got = pe.applyRope(Float32Array.from(x), {
          length,
          heads,
          ...s.rope,
          ...(positions ? { positions } : { offset: 5 }),
        });
        const ref = hfRope(name, cfg, 8);
        let angle = (t) => t + 5;
        if (positions) {
          // Qwen2-VL: pair i turns with the stream whose section holds it; Qwen3.5's
          // apply_interleaved_mrope: pairs 1, 4, 7, ... below 3·sections[1] take h, 2, 5, ... below 3·sections[2] w
          const [a, b2, c3] = s.rope.mropeSections;
          const stream = s.rope.mropeInterleaved
            ? (i) => (i % 3 === 1 && i < 3 * b2 ? 1 : i % 3 === 2 && i < 3 * c3 ? 2 : 0)
            : (i) => (i < a ? 0 : i < a + b2 ? 1 : 2);
          angle = (t, i) => positions[stream(i) * length + t];
        }
        const want = refRotate(x, {
          length,
          heads,
          dim: s.rope.dim,
          layout: s.rope.layout,
          inv: ref.inv,
          att: ref.att,
          angle,
        });
        let err = 0;
        for (let i = 0; i < want.length; i++) err = Math.max(err, Math.abs(got[i] - want[i]));
        assert.ok(err < 2e-5, `${backend} ${name}: applyRope max err ${err}`);
      }
      // s.attention as is: heads, kvHeads, dim, scale, and the layer's window, chunk and queryScale
      const q = randomF32(length * heads * dim, 3);
      const k = randomF32(length * kvHeads * dim, 4);
      const v = randomF32(length * kvHeads * dimV, 5);
      const out = pe.attention({ q, k, v, queries: length, keys: length, causal: true, ...s.attention }).output;
      assert.equal(out.length, length * heads * dimV, `${name}: attention output`);
      assert.ok(out.every(Number.isFinite), `${name}: attention output finite`);
      if (s.encoding.type === 't5') continue; // the cache needs the model's bucket weights
      const cache = pe.kvCache({ ...s.attention, capacity: 8, encoding: s.encoding });
      const mpos = s.encoding.mropeSections ? { positions: Int32Array.from([0, 1, 2, 0, 5, 9, 0, 3, 11]) } : undefined;
      try {
        cache.append(k, v, mpos);
        const o = cache.attend(q, mpos).output;
        assert.ok(o.every(Number.isFinite), `${name}: kvCache output finite`);
      } finally {
        cache.free();
      }
    }
  }
});

test('multimodal RoPE: ropeCache and applyRope against Qwen2-VL and Qwen3-VL (interleaved) float64', async () => {
  for (const { name: backend, pe } of await backends()) {
    const length = 5;
    const pos = Int32Array.from([0, 1, 2, 3, 4, /* h */ 0, 0, 1, 1, 7, /* w */ 0, 1, 0, 1, 9]);
    for (const interleaved of [false, true]) {
      const sections = interleaved ? [24, 20, 20] : [16, 24, 24];
      const opts = { dim: 128, base: 1e6, mropeSections: sections, ...(interleaved ? { mropeInterleaved: true } : {}) };
      const inv = hfDefault(1e6, 128);
      // which stream turns pair i: Qwen2-VL cos.split(mrope_section * 2) takes chunk i % 3;
      // Qwen3-VL apply_interleaved_mrope writes h into 1::3 below 3·h, w into 2::3 below 3·w
      const stream = (i) => {
        if (!interleaved) return i < sections[0] ? 0 : i < sections[0] + sections[1] ? 1 : 2;
        if (i % 3 === 1 && i < 3 * sections[1]) return 1;
        if (i % 3 === 2 && i < 3 * sections[2]) return 2;
        return 0;
      };
      const c = pe.ropeCache({ length, positions: pos, ...opts });
      for (let t = 0; t < length; t++) {
        for (let i = 0; i < 64; i++) {
          const a = pos[stream(i) * length + t] * inv[i];
          assert.ok(
            Math.abs(c.cos[t * 64 + i] - Math.cos(a)) < 1e-6 && Math.abs(c.sin[t * 64 + i] - Math.sin(a)) < 1e-6,
            `${backend} interleaved=${interleaved} token ${t} pair ${i}`,
          );
        }
      }
      for (const layout of ['half', 'interleaved']) {
        const x = randomF32(length * 2 * 128, 11);
        const got = pe.applyRope(Float32Array.from(x), { length, heads: 2, layout, positions: pos, ...opts });
        const want = refRotate(x, {
          length,
          heads: 2,
          dim: 128,
          layout,
          inv,
          angle: (t, i) => pos[stream(i) * length + t],
        });
        let err = 0;
        for (let i = 0; i < want.length; i++) err = Math.max(err, Math.abs(got[i] - want[i]));
        assert.ok(err < 2e-5, `${backend} ${layout} interleaved=${interleaved}: ${err}`);
      }
      // text tokens (all three streams equal) rotate exactly as plain RoPE at those positions
      const x = randomF32(length * 128, 12);
      const same = Int32Array.from([...pos.slice(0, 5), ...pos.slice(0, 5), ...pos.slice(0, 5)]);
      const a = pe.applyRope(Float32Array.from(x), { length, positions: same, ...opts });
      const b = pe.applyRope(Float32Array.from(x), { length, dim: 128, base: 1e6, positions: pos.slice(0, 5) });
      for (let i = 0; i < a.length; i++) assert.ok(Math.abs(a[i] - b[i]) < 2e-6);
    }
  }
});

test('M-RoPE errors name the argument: sections that do not sum, positions not 3 × length, offset', async () => {
  const [{ pe }] = await backends();
  const x = new Float32Array(2 * 8);
  assertThrowsPosenc(
    () => pe.applyRope(x, { length: 2, dim: 8, mropeSections: [1, 1, 1], positions: new Int32Array(6) }),
    [/mropeSections must be \[t, h, w\]: three non-negative integers summing to rotaryDim\/2 = 4/],
  );
  assertThrowsPosenc(
    () => pe.applyRope(x, { length: 2, dim: 8, mropeSections: [2, 1, 1], positions: new Int32Array(2) }),
    [/positions must be a Int32Array or posenc buffer of 3 × length = 3 × 2 = 6 elements \(got Int32Array\(2\)\)/],
    Status.E_SCRATCH,
  );
  assertThrowsPosenc(
    () => pe.applyRope(new Float32Array(10), { length: 3, heads: 2, dim: 8 }),
    [
      /x must be a Float32Array or posenc buffer of length × heads × dim = 3 × 2 × 8 = 48 elements \(got Float32Array\(10\)\)/,
    ],
    Status.E_SCRATCH,
  );
  assertThrowsPosenc(
    () => pe.applyRope(x, { length: 2, dim: 8, mropeSections: [2, 1, 1] }),
    [/positions is required with mropeSections/],
  );
  assertThrowsPosenc(
    () => pe.applyRope(x, { length: 2, dim: 8, mropeSections: [2, 1, 1], positions: new Int32Array(6), offset: 1 }),
    [/offset must be omitted with mropeSections/],
  );
  assertThrowsPosenc(
    () => pe.ropeCache({ length: 2, dim: 8, positions: new Int32Array(2) }),
    [/positions must be omitted without mropeSections/],
  );
});

test('one options object for all three RoPE functions: ropeFrequencies and ropeCache accept layout', async () => {
  const [{ pe }] = await backends();
  const rope = { dim: 8, base: 10000, layout: 'interleaved' };
  assert.equal(pe.ropeFrequencies(rope).invFreq64.length, 4);
  assert.equal(pe.ropeCache({ length: 2, ...rope }).cos.length, 8);
  assertThrowsPosenc(
    () => pe.ropeFrequencies({ dim: 8, layout: 'sideways' }),
    [/layout must be one of 'half', 'interleaved'/],
    Status.E_ENUM,
  );
});

test('errors that speak Hugging Face: did you mean, rope_type first, su -> longrope', async () => {
  const [{ pe }] = await backends();
  assertThrowsPosenc(
    () => pe.ropeFrequencies({ dim: 8, rope_theta: 500000 }),
    [/unknown option "rope_theta"/, /did you mean "base"\?/],
  );
  assertThrowsPosenc(() => pe.ropeFrequencies({ dim: 8, head_dim: 8 }), [/did you mean "dim"\?/]);
  // Llama 3.1's rope_scaling pasted as is: the first error is about rope_type, not "factor"
  const llama = load('llama-3.1-8b').rope_scaling;
  const e = assertThrowsPosenc(
    () => pe.ropeFrequencies({ dim: 128, scaling: llama }),
    [/scaling.rope_type is Hugging Face's name/, /type: "llama3"/],
  );
  assert.equal(e.argument, 'scaling.rope_type');
  assertThrowsPosenc(
    () => pe.ropeFrequencies({ dim: 128, scaling: { type: 'llama3', original_max_position_embeddings: 8192 } }),
    [/unknown option "original_max_position_embeddings"/, /did you mean "originalMaxPositions"\?/],
  );
  assertThrowsPosenc(
    () => pe.ropeFrequencies({ dim: 128, scaling: { type: 'llama3', low_freq_factor: 1 } }),
    [/did you mean "lowFreqFactor"\?/],
  );
  assertThrowsPosenc(
    () => pe.ropeFrequencies({ dim: 128, scaling: { type: 'su' } }),
    [/did you mean 'longrope'\?/],
    Status.E_ENUM,
  );
  assertThrowsPosenc(
    () => pe.ropeFrequencies({ dim: 128, scaling: { factor: 8 } }),
    [/scaling.type is required when scaling has other keys \(got factor\)/],
    Status.E_MISSING,
  );
});

test('fromConfig refuses what it does not understand, naming the key; ignores what does not matter', async () => {
  const [{ pe }] = await backends();
  const base = load('llama-3.1-8b');
  assertThrowsPosenc(
    () => pe.fromConfig({ ...base, rope_scaling: { ...base.rope_scaling, rope_type: 'fancy' } }),
    [/rope_scaling.rope_type "fancy" is not a rope type posenc knows/],
    Status.E_ENUM,
  );
  // a key HF does not read is ignored as HF ignores it (modeling_rope_utils.py _check_received_keys
  // only warns), and the notes say so; the result is the same as without it
  const plain0 = pe.fromConfig(base);
  const extra = pe.fromConfig({ ...base, rope_scaling: { ...base.rope_scaling, beta_fast: 32 } });
  assert.deepEqual(extra.rope, plain0.rope);
  assert.ok(extra.notes.some((n) => /rope_scaling.beta_fast = 32 is not read for rope type 'llama3'/.test(n)));
  for (const k of ['rope_window_offset', 'sliding_window_size']) {
    const s = pe.fromConfig({ ...base, [k]: 3 });
    assert.deepEqual(s.rope, plain0.rope, k);
    assert.ok(
      s.notes.some((n) => n.includes(`${k} = 3 is not read by llama/modeling_llama.py`)),
      k,
    );
  }
  // remote code: such a key is refused by name (what that code reads varies by checkpoint)
  const e = assertThrowsPosenc(
    () => pe.fromConfig({ ...load('qwen-1.8b'), rope_window_offset: 3 }),
    [/rope_window_offset = 3 is a key posenc does not read/, /remote code/],
  );
  assert.equal(e.argument, 'rope_window_offset');
  assertThrowsPosenc(
    () => pe.fromConfig({ ...base, rope_scaling: null, partial_rotary_factor: 0.01 }),
    [/partial_rotary_factor gives a rotated width of 1, which must be even/],
  );
  assertThrowsPosenc(() => pe.fromConfig({ ...base, model_type: undefined }), [/model_type must be a string/]);
  assertThrowsPosenc(() => pe.fromConfig(base, { layer: 32 }), [/layer must be an integer in \[0, 31\]/]);
  assertThrowsPosenc(() => pe.fromConfig(base, { layr: 1 }), [/unknown option "layr"/]);
  assertThrowsPosenc(
    () => pe.fromConfig({ ...load('bert-base-uncased'), position_embedding_type: 'relative_key' }),
    [/position_embedding_type "relative_key" is not mapped/],
  );
  // irrelevant keys (vocabulary, dropout, MoE routing, a vision tower's own rope) change nothing
  const plain = pe.fromConfig(base);
  const noisy = pe.fromConfig({
    ...base,
    vocab_size: 7,
    attention_dropout: 0.5,
    num_local_experts: 8,
    vision_config: { rope_theta: 1 },
  });
  assert.deepEqual(noisy.rope, plain.rope);
  assert.deepEqual(noisy.attention, plain.attention);
  // transformers v5 rope_parameters, flat and per layer type, give what rope_scaling + rope_theta give
  const { rope_scaling: rsc, rope_theta: theta, ...rest } = base;
  const v5 = pe.fromConfig({ ...rest, rope_parameters: { ...rsc, rope_theta: theta } });
  assert.deepEqual(v5.rope, plain.rope);
  const g3 = load('gemma-3-1b');
  const perType = {
    ...g3,
    rope_theta: undefined,
    rope_local_base_freq: undefined,
    rope_parameters: {
      full_attention: { rope_type: 'linear', factor: 8, rope_theta: 1e6 },
      sliding_attention: { rope_type: 'default', rope_theta: 1e4 },
    },
  };
  assert.deepEqual(pe.fromConfig(perType, { layer: 5 }).rope.scaling, { type: 'linear', factor: 8 });
  assert.equal(pe.fromConfig(perType, { layer: 5 }).rope.base, 1e6);
  assert.equal(pe.fromConfig(perType, { layer: 0 }).rope.base, 1e4);
  // 'su' (Phi-3's first spelling) is longrope
  const phi = load('phi-3.5-mini');
  assert.deepEqual(
    pe.fromConfig({ ...phi, rope_scaling: { ...phi.rope_scaling, type: 'su' } }).rope,
    pe.fromConfig(phi).rope,
  );
});

test("kvCache with M-RoPE (fromConfig of Qwen2.5-VL): the same output as attention over applyRope'd q and k", async () => {
  for (const { name: backend, pe } of await backends()) {
    const s = pe.fromConfig(load('qwen2.5-vl-7b'));
    const { heads, kvHeads, dim, scale } = s.attention;
    const n = 5;
    const positions = Int32Array.from([0, 1, 2, 2, 2, /* h */ 0, 1, 2, 2, 3, /* w */ 0, 1, 2, 3, 3]);
    const q = randomF32(n * heads * dim, 21);
    const k = randomF32(n * kvHeads * dim, 22);
    const v = randomF32(n * kvHeads * dim, 23);
    const qr = pe.applyRope(Float32Array.from(q), { length: n, heads, ...s.rope, positions });
    const kr = pe.applyRope(Float32Array.from(k), { length: n, heads: kvHeads, ...s.rope, positions });
    const want = pe.attention({ q: qr, k: kr, v, queries: n, heads, kvHeads, dim, scale, causal: true }).output;
    const cache = pe.kvCache({ heads, kvHeads, dim, scale, capacity: 8, encoding: s.encoding });
    try {
      // two appends: the second's positions continue the streams
      cache.append(k.subarray(0, 3 * kvHeads * dim), v.subarray(0, 3 * kvHeads * dim), {
        positions: Int32Array.from([0, 1, 2, 0, 1, 2, 0, 1, 2]),
      });
      cache.append(k.subarray(3 * kvHeads * dim), v.subarray(3 * kvHeads * dim), {
        positions: Int32Array.from([2, 2, 2, 3, 3, 3]),
      });
      const got = cache.attend(q, { positions }).output;
      let err = 0;
      for (let i = 0; i < want.length; i++) err = Math.max(err, Math.abs(got[i] - want[i]));
      assert.ok(err < 1e-5, `${backend}: kvCache M-RoPE vs attention ${err}`);
      assertThrowsPosenc(() => cache.attend(q), [/positions is required with encoding.mropeSections/]);
    } finally {
      cache.free();
    }
    const plain = pe.kvCache({ heads, kvHeads, dim, capacity: 4 });
    try {
      assertThrowsPosenc(
        () => plain.append(k.subarray(0, kvHeads * dim), v.subarray(0, kvHeads * dim), { positions }),
        [/positions must be omitted unless encoding.mropeSections is set/],
      );
    } finally {
      plain.free();
    }
  }
});

test("fromConfig's attention (sliding window, chunk, queryScale) drives attention and kvCache alike", async () => {
  for (const { name: backend, pe } of await backends()) {
    // a window (2) and a chunk (4) small enough to bite in 9 tokens; Llama 4 layer 3 is a no-RoPE layer
    // with temperature tuning (queryScale), layer 0 chunked
    const cases = [
      ['mistral-7b-v0.1', { sliding_window: 2 }, 0],
      ['gemma-3-1b', { sliding_window: 3 }, 0],
      ['llama-4-scout', { attention_chunk_size: 4 }, 0],
      ['llama-4-scout', { floor_scale: 2 }, 3],
    ];
    for (const [name, patch, layer] of cases) {
      const cfg = load(name);
      const text = cfg.text_config ? { ...cfg, text_config: { ...cfg.text_config, ...patch } } : { ...cfg, ...patch };
      const a = pe.fromConfig(text, { layer }).attention;
      const what = `${backend} ${name} layer ${layer} ${JSON.stringify(patch)}`;
      assert.ok(a.window || a.chunk || a.queryScale, `${what}: the layer has a window, chunk or queryScale`);
      const T = 9,
        dimV = a.dimV ?? a.dim;
      const q = randomF32(T * a.heads * a.dim, 21),
        k = randomF32(T * a.kvHeads * a.dim, 22);
      const v = randomF32(T * a.kvHeads * dimV, 23);
      const one = pe.attention({ q, k, v, queries: T, causal: true, ...a }).output;
      const { window, chunk, queryScale, ...bare } = a;
      const none = pe.attention({ q, k, v, queries: T, causal: true, ...bare }).output;
      assert.ok(maxAbsDiff(one, none) > 1e-3, `${what}: the options change the output`);
      const cache = pe.kvCache({ ...a, capacity: T });
      try {
        cache.append(k, v);
        assertClose(cache.attend(q).output, one, 1e-6, `${what}: kvCache = attention`);
      } finally {
        cache.free();
      }
    }
  }
});

// ---- model types: the allow-list (families/config/models.js) against each type's Hugging Face code ----

test('an unmapped model_type or a typo is refused by name, with the closest types and the as option', async () => {
  const [{ pe }] = await backends();
  const llama = load('llama-3.1-8b');
  for (const [cfg, name, near] of [
    [{ ...llama, model_type: 'lama' }, 'lama', 'llama'],
    [{ ...llama, model_type: 'totally_new_arch' }, 'totally_new_arch', null],
    [
      { model_type: 'electra', hidden_size: 256, num_attention_heads: 4, position_embedding_type: 'absolute' },
      'electra',
      null,
    ],
    [{ model_type: 'vit', hidden_size: 768, num_attention_heads: 12 }, 'vit', null],
    [{ ...load('gpt2'), model_type: 'gpt_2' }, 'gpt_2', 'gpt2'],
  ]) {
    const e = assertThrowsPosenc(
      () => pe.fromConfig(cfg),
      [new RegExp(`model_type "${name}" is not a model type fromConfig maps \\(closest: `), /as: 'llama'/],
      Status.E_ENUM,
    );
    assert.equal(e.argument, 'model_type');
    if (near) assert.match(e.message, new RegExp(`closest: '${near}'`), name);
  }
  // a wrapper that looks its text model up (LlavaConfig: CONFIG_MAPPING) names text_config.model_type
  const g = load('llava-1.5-7b');
  const e = assertThrowsPosenc(
    () => pe.fromConfig({ ...g, text_config: { ...g.text_config, model_type: 'gemma9_text' } }),
    [/text_config.model_type "gemma9_text" is not a text model type fromConfig maps/],
    Status.E_ENUM,
  );
  assert.equal(e.argument, 'text_config.model_type');
  // the escape hatch: as names a mapped type, and the notes record the assumption
  const s = pe.fromConfig({ ...llama, model_type: 'my_llama' }, { as: 'llama' });
  assert.deepEqual(s.rope, pe.fromConfig(llama).rope);
  assert.ok(s.notes.some((n) => /model_type "my_llama" is not mapped; read as 'llama'/.test(n)));
  assertThrowsPosenc(() => pe.fromConfig(llama, { as: 'lama' }), [/as must be a model type fromConfig maps/]);
  // as changes nothing for a mapped type
  assert.deepEqual(pe.fromConfig(llama, { as: 'gpt2' }).rope, pe.fromConfig(llama).rope);
});

test('Cohere / Aya-23: adjacent pairs; Cohere 2, OLMo 3, Switch Transformers, Mllama and Gemma 3n are refused by name (no published config.json to verify a row against)', async () => {
  const [{ pe }] = await backends();
  // Aya-23 at position 1000: the interleaved pairing HF uses, not halves
  const aya = pe.fromConfig(load('aya-23-8b'));
  assert.equal(aya.rope.layout, 'interleaved');
  const types = [
    ['cohere2', /cohere2\/modeling_cohere2.py/],
    ['olmo3', /olmo3\/modeling_olmo3.py/],
    ['switch_transformers', /modeling_switch_transformers.py/],
    // mapped only with a real fixture, none found: refused with the code a row would follow
    ['mllama', /MllamaTextCrossAttention/],
    ['mllama_text_model', /mllama\/modeling_mllama.py/],
    ['gemma3n', /num_kv_shared_layers/],
    ['gemma3n_text', /gemma3n\/modeling_gemma3n.py/],
  ];
  for (const [type, file] of types) {
    for (const o of [undefined, { as: 'llama' }]) {
      assert.throws(
        () => pe.fromConfig({ model_type: type, hidden_size: 4096, num_attention_heads: 32 }, o),
        (e) =>
          e.name === 'PosencError' &&
          e.argument === 'model_type' &&
          file.test(e.message) &&
          /no published config\.json/.test(e.message),
        type,
      );
    }
  }
});

test('EXAONE 4.0: global layers skip RoPE when sliding_window is set; every layer rotates without it', async () => {
  const [{ pe }] = await backends();
  // Exaone4Attention: `if self.sliding_window is None or self.is_sliding: apply_rotary_pos_emb`
  const cfg = {
    model_type: 'exaone4',
    hidden_size: 5120,
    head_dim: 128,
    num_attention_heads: 40,
    num_key_value_heads: 8,
    num_hidden_layers: 64,
    rope_theta: 1000000,
    sliding_window: 4096,
    sliding_window_pattern: 'LLLG',
    layer_types: Array.from({ length: 64 }, (_, i) => ((i + 1) % 4 ? 'sliding_attention' : 'full_attention')),
  };
  let nope = 0;
  for (let layer = 0; layer < 64; layer++) {
    const s = pe.fromConfig(cfg, { layer });
    if (s.family === 'none') nope++;
    assert.equal(s.family, (layer + 1) % 4 ? 'rope' : 'none', `layer ${layer}`);
  }
  assert.equal(nope, 16);
  // a string pattern without layer_types: Exaone4Config computes (i + 1) % pattern, which fails on a string
  const { layer_types, ...noTypes } = cfg;
  assertThrowsPosenc(() => pe.fromConfig(noTypes), [/sliding_window_pattern must be a positive integer/]);
  // EXAONE 4.0 1.2B: no sliding window, every layer full and rotating (its file lists layer_types)
  const small = { ...noTypes, sliding_window: null, sliding_window_pattern: null, num_hidden_layers: 30 };
  const full = { ...small, layer_types: Array(30).fill('full_attention') };
  for (const layer of [0, 3, 29]) assert.equal(pe.fromConfig(full, { layer }).family, 'rope');
  // without layer_types, Exaone4Config sets sliding_window_pattern = 0 and computes (i + 1) % 0: it fails
  const e = assertThrowsPosenc(() => pe.fromConfig(small), [/\(i \+ 1\) % 0/]);
  assert.equal(e.argument, 'sliding_window');
});

test('SmolLM3 (no_rope_layers), Granite (attention_multiplier is the softmax scale)', async () => {
  const [{ pe }] = await backends();
  // SmolLM3Config: no_rope_layers[i] = 1 rotates; default every 4th layer NoPE; default_theta 2e6
  const smol = {
    model_type: 'smollm3',
    hidden_size: 2048,
    num_attention_heads: 16,
    num_key_value_heads: 4,
    num_hidden_layers: 36,
    rope_theta: 5000000,
  };
  for (let layer = 0; layer < 36; layer++) {
    const s = pe.fromConfig(smol, { layer });
    assert.equal(s.family, (layer + 1) % 4 ? 'rope' : 'none', `smollm3 layer ${layer}`);
  }
  const given = { ...smol, no_rope_layers: Array.from({ length: 36 }, (_, i) => (i === 5 ? 0 : 1)) };
  assert.equal(pe.fromConfig(given, { layer: 5 }).family, 'none');
  assert.equal(pe.fromConfig(given, { layer: 3 }).family, 'rope');
  const { rope_theta, ...noTheta } = smol;
  assert.equal(pe.fromConfig(noTheta).rope.base, 2e6);
  // GraniteAttention: self.scaling = config.attention_multiplier (ibm-granite/granite-3.3-8b-instruct: 0.0078125)
  const granite = {
    model_type: 'granite',
    hidden_size: 4096,
    num_attention_heads: 32,
    num_key_value_heads: 8,
    num_hidden_layers: 40,
    attention_multiplier: 0.0078125,
    rope_theta: 10000000,
  };
  const g = pe.fromConfig(granite);
  assert.equal(g.attention.scale, 0.0078125);
  assert.notEqual(g.attention.scale, 1 / Math.sqrt(128));
  const { attention_multiplier, ...noMult } = granite;
  assert.equal(pe.fromConfig(noMult).attention.scale, 1); // GraniteConfig default 1.0
  // a Llama config carrying attention_multiplier: modeling_llama.py does not read it
  const l = pe.fromConfig({ ...load('llama-3.2-1b'), attention_multiplier: 0.5 });
  assert.equal(l.attention.scale, 1 / 8);
  assert.ok(l.notes.some((n) => /attention_multiplier is read only by Granite/.test(n)));
});

test('Jamba: Mamba layers have no attention, attention layers no positional encoding', async () => {
  const [{ pe }] = await backends();
  // JambaConfig.layers_block_type: attention where i % attn_layer_period == attn_layer_offset (8, 4)
  const jamba = {
    model_type: 'jamba',
    hidden_size: 4096,
    num_attention_heads: 32,
    num_key_value_heads: 8,
    num_hidden_layers: 32,
    attn_layer_offset: 4,
    attn_layer_period: 8,
    sliding_window: null,
    max_position_embeddings: 262144,
  };
  for (let layer = 0; layer < 32; layer++) {
    const s = pe.fromConfig(jamba, { layer });
    assert.equal(s.family, 'none', `layer ${layer}`);
    assert.equal(s.rope, undefined);
    if (layer % 8 === 4) {
      assert.deepEqual(s.attention, { heads: 32, kvHeads: 8, dim: 128, scale: 1 / Math.sqrt(128) });
      assert.deepEqual(s.encoding, { type: 'none' });
      assert.match(s.reason, /no positional encoding/);
    } else {
      assert.equal(s.attention, null, `layer ${layer}`);
      assert.equal(s.encoding, null);
      assert.equal(s.layerType, 'mamba');
      assert.match(s.reason, /Mamba layer/);
    }
  }
  // AI21-Jamba-1.5-Mini's config.json: the same layers
  const mini = load('jamba-1.5-mini');
  assert.equal(pe.fromConfig(mini, { layer: 0 }).attention, null);
  assert.equal(pe.fromConfig(mini, { layer: 12 }).family, 'none');
  assert.equal(pe.fromConfig(mini, { layer: 12 }).attention?.dim, 128);
  // modeling_jamba.py uses sliding_window only under flash attention: refused, naming the key
  const e = assertThrowsPosenc(
    () => pe.fromConfig({ ...jamba, sliding_window: 4096 }, { layer: 4 }),
    [/sliding_window = 4096: modeling_jamba.py applies it only under flash attention/],
  );
  assert.equal(e.argument, 'sliding_window');
});

test('Qwen3.5: linear_attention layers have no attention positions; full layers rotate a quarter of the head', async () => {
  const [{ pe }] = await backends();
  // Qwen3_5TextConfig: head_dim 256, partial_rotary_factor 0.25, full_attention_interval 4
  const cfg = {
    model_type: 'qwen3_5',
    text_config: {
      model_type: 'qwen3_5_text',
      hidden_size: 4096,
      num_attention_heads: 16,
      num_key_value_heads: 4,
      num_hidden_layers: 32,
      layer_types: Array.from({ length: 32 }, (_, i) => ((i + 1) % 4 ? 'linear_attention' : 'full_attention')),
      rope_parameters: {
        rope_type: 'default',
        rope_theta: 10000000,
        partial_rotary_factor: 0.25,
        mrope_section: [11, 11, 10],
        mrope_interleaved: true,
      },
    },
  };
  const lin = pe.fromConfig(cfg, { layer: 0 });
  assert.equal(lin.family, 'none');
  assert.equal(lin.attention, null);
  assert.equal(lin.layerType, 'linear_attention');
  assert.match(lin.reason, /linear_attention layer/);
  const full = pe.fromConfig(cfg, { layer: 3 });
  assert.equal(full.family, 'rope');
  assert.equal(full.rope.dim, 256);
  assert.equal(full.rope.rotaryDim, 64);
  assert.deepEqual(full.rope.mropeSections, [11, 11, 10]);
  assert.equal(full.rope.mropeInterleaved, true);
  assert.equal(full.rope.base, 1e7);
  // a layer kind Qwen3_5TextConfig does not know is refused showing the value
  const bad = structuredClone(cfg);
  bad.text_config.layer_types[1] = 'mamba_attention';
  assertThrowsPosenc(() => pe.fromConfig(bad), [/"mamba_attention" is not one Qwen3_5TextConfig reads/]);
});

test('Gemma 3 (multimodal, 27B keys): Gemma3TextConfig defaults; global layers get rope_theta 1e6 and the scaling, local 1e4', async () => {
  const [{ pe }] = await backends();
  // google/gemma-3-27b-it's text_config keys; heads, rope_theta, rope_local_base_freq and the pattern omitted
  const cfg = {
    model_type: 'gemma3',
    text_config: {
      head_dim: 128,
      hidden_size: 5376,
      intermediate_size: 21504,
      model_type: 'gemma3_text',
      num_attention_heads: 32,
      num_hidden_layers: 62,
      num_key_value_heads: 16,
      query_pre_attn_scalar: 168,
      rope_scaling: { factor: 8.0, rope_type: 'linear' },
      sliding_window: 1024,
    },
  };
  for (let layer = 0; layer < 62; layer++) {
    const s = pe.fromConfig(cfg, { layer });
    const global = (layer + 1) % GEMMA3_TEXT.sliding_window_pattern === 0;
    assert.equal(s.rope.base, global ? GEMMA3_TEXT.rope_theta : GEMMA3_TEXT.rope_local_base_freq, `layer ${layer}`);
    assert.deepEqual(s.rope.scaling, global ? { type: 'linear', factor: 8 } : undefined, `layer ${layer}`);
    assert.equal(s.attention.window, global ? undefined : 1024);
    assert.equal(s.attention.scale, 1 / Math.sqrt(168));
    if (global) {
      const inv = pe.ropeFrequencies(s.rope).invFreq64;
      const ref = hfDefault(1e6, 128).map((f) => f / 8); // _compute_linear_scaling_rope_parameters
      assert.ok(maxRel(inv, ref) < 1e-12);
    }
  }
  // the real 27B file gives the same layers as the keys above
  const real = load('gemma-3-27b');
  for (const layer of [0, 5, 11, 61])
    assert.deepEqual(pe.fromConfig(real, { layer }).rope, pe.fromConfig(cfg, { layer }).rope);
  const s = pe.fromConfig(load('gemma-3-4b'), { layer: 5 });
  assert.equal(s.rope.base, 1e6);
  assert.deepEqual(s.defaults, {
    'text_config.num_attention_heads': 8,
    'text_config.head_dim': 256,
    'text_config.num_key_value_heads': 4,
    'text_config.query_pre_attn_scalar': 256,
    'text_config.sliding_window_pattern': 6,
    'text_config.rope_theta': 1e6,
  });
  assert.ok(s.notes.some((n) => /Gemma3TextConfig defaults for keys the config omits/.test(n)));
});

test('gpt-oss: per-layer windows, YaRN on every layer, sinks noted', async () => {
  const [{ pe }] = await backends();
  const oss = load('gpt-oss-20b');
  for (let layer = 0; layer < 4; layer++) {
    const s = pe.fromConfig(oss, { layer });
    assert.equal(s.attention.window, layer % 2 ? undefined : 128);
    assert.equal(s.rope.scaling.type, 'yarn');
    assert.equal(s.rope.scaling.truncate, false);
  }
  assert.ok(pe.fromConfig(oss).notes.some((n) => /sink/.test(n)));
});

test('DeepSeek-V3 rope_interleave, GLM-4.5V (partial rotary, halves, M-RoPE), Mistral 3 text_config, BLOOM offset_alibi', async () => {
  const [{ pe }] = await backends();
  // DeepseekV3Config: rope_interleave defaults to True (apply_rotary_pos_emb_interleave); False -> halves
  const ds = {
    model_type: 'deepseek_v3',
    hidden_size: 7168,
    num_attention_heads: 128,
    num_key_value_heads: 128,
    num_hidden_layers: 61,
    qk_nope_head_dim: 128,
    qk_rope_head_dim: 64,
    v_head_dim: 128,
    rope_theta: 10000,
    rope_scaling: {
      beta_fast: 32,
      beta_slow: 1,
      factor: 40,
      mscale: 1.0,
      mscale_all_dim: 1.0,
      original_max_position_embeddings: 4096,
      type: 'yarn',
    },
  };
  const d = pe.fromConfig(ds);
  assert.equal(d.rope.layout, 'interleaved');
  assert.equal(d.attention.dim, 192);
  const m = getMscale(40, 1);
  assert.ok(Math.abs(d.attention.scale - (m * m) / Math.sqrt(192)) < 1e-15);
  assert.equal(pe.fromConfig({ ...ds, rope_interleave: false }).rope.layout, 'half');
  // GLM-4.5V (zai-org/GLM-4.5V text_config keys): gpt_neox apply_rotary_pos_emb on the first half of the head
  const glm = {
    model_type: 'glm4v_moe',
    text_config: {
      model_type: 'glm4v_moe_text',
      hidden_size: 4096,
      head_dim: 128,
      num_attention_heads: 96,
      num_key_value_heads: 8,
      num_hidden_layers: 46,
      partial_rotary_factor: 0.5,
      rope_scaling: { rope_type: 'default', mrope_section: [8, 12, 12] },
      rope_theta: 10000,
    },
  };
  const gs = pe.fromConfig(glm);
  assert.equal(gs.rope.layout, 'half');
  assert.equal(gs.rope.rotaryDim, 64);
  assert.deepEqual(gs.rope.mropeSections, [8, 12, 12]);
  // Mistral3Config: text_config's model_type defaults to 'mistral'
  const ms = pe.fromConfig({
    model_type: 'mistral3',
    text_config: {
      hidden_size: 5120,
      head_dim: 128,
      num_attention_heads: 32,
      num_key_value_heads: 8,
      num_hidden_layers: 40,
      rope_theta: 1e9,
      sliding_window: null,
    },
  });
  assert.equal(ms.model, 'mistral');
  assert.equal(ms.rope.base, 1e9);
  assert.equal(ms.attention.window, undefined);
  // bigscience/bloom-560m: its slopes are HF's, and offset_alibi is noted as ignored
  const b560 = pe.fromConfig(load('bloom-560m'));
  const s16 = pe.alibiSlopes(b560.alibi.heads);
  hfAlibiSlopes(16).forEach((v, h) => assert.ok(Math.abs(s16[h] - v) <= 1e-7 * v, `bloom-560m slope ${h}`));
  assert.ok(b560.notes.some((n) => /offset_alibi = 100 is ignored/.test(n)));
  // BLOOM's Hub config carries offset_alibi, which no BloomConfig parameter reads: ignored, said in notes
  const bloom = {
    model_type: 'bloom',
    n_head: 16,
    hidden_size: 1024,
    n_layer: 24,
    offset_alibi: 100,
    apply_residual_connection_post_layernorm: false,
  };
  const b = pe.fromConfig(bloom);
  assert.equal(b.family, 'alibi');
  assert.equal(b.alibi.heads, 16);
  assert.ok(b.notes.some((n) => /offset_alibi = 100 is ignored: no BloomConfig parameter reads it/.test(n)));
});

test('every mapped type has a row naming its HF config class and file; fixtures cover the fixture types', async () => {
  const { MODELS } = await import('./models.js');
  for (const [type, row] of Object.entries(MODELS)) {
    assert.ok(row.config && row.hf, `${type}: config class and HF file`);
    assert.ok(['rope', 'alibi', 't5', 'learned', 'none', 'wrapper'].includes(row.family), type);
    if (row.family === 'rope') assert.ok(['half', 'interleaved'].includes(row.layout), type);
    if (row.family === 'wrapper') assert.ok(MODELS[row.text] && MODELS[row.text].family !== 'wrapper', type);
  }
  for (const n of NAMES) {
    const c = load(n);
    assert.ok(MODELS[c.model_type], `${n}: model_type ${c.model_type} is mapped`);
  }
});

test('hostile configs: only PosencErrors, and every result goes on to ropeCache and kvCache', async () => {
  const [{ pe }] = await backends();
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  assertThrowsPosenc(() => pe.fromConfig(proxy), [/config must be JSON data/]);
  assertThrowsPosenc(
    () => pe.fromConfig({ model_type: 'gemma3', text_config: [1] }),
    [/text_config must be an object/],
  );
  assertThrowsPosenc(() => pe.fromConfig([]), [/config must be the parsed config.json object/]);
  // seeded mutations of the fixtures' positional keys (values of every kind)
  let seed = 11;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const pick = (a) => a[Math.floor(rnd() * a.length)];
  const values = [
    null,
    0,
    -1,
    1,
    3,
    0.5,
    1e308,
    'x',
    'linear_attention',
    'mamba',
    true,
    [],
    [1, 0],
    {},
    'LLLG',
    2 ** 31,
  ];
  const keys = [
    'model_type',
    'layer_types',
    'sliding_window',
    'sliding_window_pattern',
    'no_rope_layers',
    'rope_scaling',
    'rope_parameters',
    'rope_theta',
    'head_dim',
    'num_attention_heads',
    'num_key_value_heads',
    'num_hidden_layers',
    'partial_rotary_factor',
    'attention_multiplier',
    'query_pre_attn_scalar',
    'attn_layer_period',
    'text_config',
  ];
  let results = 0;
  for (let n = 0; n < 600; n++) {
    const c = structuredClone(load(pick(NAMES)));
    const t = c.text_config && typeof c.text_config === 'object' && rnd() < 0.7 ? c.text_config : c;
    t[pick(keys)] = structuredClone(pick(values));
    let s;
    try {
      s = pe.fromConfig(c, { layer: Math.floor(rnd() * 4) });
    } catch (e) {
      assert.equal(e.name, 'PosencError', `${e.message}`);
      continue;
    }
    results++;
    if (s.family === 'none') assert.ok(s.reason, 'a layer without positions says why');
    if (s.attention === null) assert.equal(s.encoding, null);
    if (s.family !== 'rope' || s.rope.mropeSections) continue;
    pe.ropeCache({ length: 2, ...s.rope });
    pe.kvCache({ ...s.attention, capacity: 2, encoding: s.encoding }).free();
  }
  assert.ok(results > 100, `${results} results`);
});

test('Qwen3-MoE (one window on every layer, no head_dim default), Ministral 3 (default YaRN rope_parameters)', async () => {
  const [{ pe }] = await backends();
  // Qwen/Qwen3-30B-A3B's positional keys; Qwen3MoeAttention: head_dim = getattr(config, 'head_dim', hidden // heads)
  const moe = {
    model_type: 'qwen3_moe',
    hidden_size: 2048,
    head_dim: 128,
    num_attention_heads: 32,
    num_key_value_heads: 4,
    num_hidden_layers: 48,
    max_window_layers: 48,
    rope_theta: 1000000.0,
    rope_scaling: null,
    sliding_window: null,
    use_sliding_window: false,
  };
  const m = pe.fromConfig(moe, { layer: 47 });
  assert.deepEqual(m.rope, { dim: 128, base: 1e6, layout: 'half' });
  assert.equal(m.attention.window, undefined);
  const { head_dim, ...noHeadDim } = moe;
  assert.equal(pe.fromConfig(noHeadDim).attention.dim, 64);
  // Qwen3MoeConfig keeps sliding_window only with use_sliding_window, and then every layer slides
  const sw = { ...moe, sliding_window: 4096, use_sliding_window: true };
  for (const layer of [0, 47]) assert.equal(pe.fromConfig(sw, { layer }).attention.window, 4096);
  // Ministral3Config.__post_init__: rope_parameters default YaRN ×16 from 16384, llama_4_scaling_beta 0.1
  const bare = {
    model_type: 'ministral3',
    hidden_size: 3072,
    num_attention_heads: 32,
    num_key_value_heads: 8,
    num_hidden_layers: 26,
  };
  const s = pe.fromConfig(bare);
  assert.equal(s.attention.dim, 128);
  assert.equal(s.rope.scaling?.type, 'yarn');
  assert.equal(s.attention.queryScale?.(16384), 1 + 0.1 * Math.log(2));
  // a legacy rope_scaling in the file wins over the class's default rope_parameters
  assert.deepEqual(pe.fromConfig({ ...bare, rope_scaling: { rope_type: 'linear', factor: 2 } }).rope.scaling, {
    type: 'linear',
    factor: 2,
  });
});

test('a sliding layer of Qwen2/3 or SmolLM3 has a window only with use_sliding_window', async () => {
  const [{ pe }] = await backends();
  // Qwen2Config / SmolLM3Attention: sliding_window = sliding_window if use_sliding_window else None
  const q = load('qwen2.5-3b');
  const types = Array.from({ length: q.num_hidden_layers }, () => 'sliding_attention');
  assert.equal(pe.fromConfig({ ...q, layer_types: types, use_sliding_window: false }).attention.window, undefined);
  assert.equal(
    pe.fromConfig({ ...q, layer_types: types, use_sliding_window: true }).attention.window,
    q.sliding_window,
  );
  const smol = {
    model_type: 'smollm3',
    hidden_size: 2048,
    num_attention_heads: 16,
    num_hidden_layers: 4,
    sliding_window: 8,
  };
  const t = ['full_attention', 'full_attention', 'full_attention', 'sliding_attention'];
  assert.equal(pe.fromConfig({ ...smol, layer_types: t }, { layer: 3 }).attention.window, undefined);
  assert.equal(pe.fromConfig({ ...smol, layer_types: t, use_sliding_window: true }, { layer: 3 }).attention.window, 8);
  // without layer_types, SmolLM3Config slides only its NoPE layers (every 4th)
  const u = { ...smol, use_sliding_window: true };
  assert.deepEqual(
    [0, 1, 2, 3].map((layer) => pe.fromConfig(u, { layer }).attention?.window),
    [undefined, undefined, undefined, 8],
  );
});

test('wrappers without text_config: Qwen2.5-VL reads the top-level keys, Mistral 3 its own text values; Qwen2-MoE windows', async () => {
  const [{ pe }] = await backends();
  // Qwen2_5_VLConfig: text_config None -> Qwen2_5_VLTextConfig(**kwargs) (Qwen/Qwen2.5-VL-7B-Instruct's flat keys)
  const flat = {
    model_type: 'qwen2_5_vl',
    hidden_size: 3584,
    num_attention_heads: 28,
    num_key_value_heads: 4,
    num_hidden_layers: 28,
    rope_theta: 1000000.0,
    max_window_layers: 28,
    sliding_window: 32768,
    use_sliding_window: false,
    rope_scaling: { type: 'mrope', mrope_section: [16, 24, 24] },
  };
  const q = pe.fromConfig(flat);
  assert.equal(q.model, 'qwen2_5_vl_text');
  assert.deepEqual(q.rope, { dim: 128, base: 1e6, layout: 'half', mropeSections: [16, 24, 24] });
  assert.equal(q.attention.window, undefined);
  // Qwen2VLConfig does the same (Qwen/Qwen2-VL-7B-Instruct's flat keys give the same scheme)
  assert.deepEqual(pe.fromConfig({ ...flat, model_type: 'qwen2_vl' }).rope, q.rope);
  assert.equal(pe.fromConfig({ ...flat, model_type: 'qwen2_vl' }).model, 'qwen2_vl_text');
  // Mistral3Config: text_config None -> CONFIG_MAPPING['mistral'](head_dim 128, hidden 5120, rope_theta 1e9, ...)
  const m = pe.fromConfig({ model_type: 'mistral3' });
  assert.equal(m.model, 'mistral');
  assert.deepEqual(m.rope, { dim: 128, base: 1e9, layout: 'half' });
  assert.equal(m.attention.window, undefined);
  assert.equal(m.attention.heads, 32);
  // Qwen2MoeConfig.layer_types: with use_sliding_window, even layers below max_window_layers slide
  const moe = {
    model_type: 'qwen2_moe',
    hidden_size: 2048,
    num_attention_heads: 16,
    num_hidden_layers: 24,
    use_sliding_window: true,
    sliding_window: 4096,
    max_window_layers: 4,
  };
  assert.deepEqual(
    [0, 1, 2, 3, 4, 5].map((layer) => pe.fromConfig(moe, { layer }).attention?.window),
    [4096, undefined, 4096, undefined, undefined, undefined],
  );
  assert.equal(pe.fromConfig({ ...moe, use_sliding_window: false }).attention.window, undefined);
});

test("Phi3Config reads rope type 'yarn' / 'su' as longrope and defaults original_max_position_embeddings; Falcon's n_head_kv", async () => {
  const [{ pe }] = await backends();
  const phi = load('phi-3.5-mini');
  const plain = pe.fromConfig(phi).rope;
  // configuration_phi3.py convert_rope_params_to_dict: 'su' and 'yarn' become 'longrope'
  for (const t of ['yarn', 'su']) {
    const s = pe.fromConfig({ ...phi, rope_scaling: { ...phi.rope_scaling, type: t } });
    assert.deepEqual(s.rope, plain, t);
    assert.ok(
      s.notes.some((n) => n.includes(`"${t}" is read as 'longrope'`)),
      t,
    );
  }
  // Phi3Config.original_max_position_embeddings defaults to 4096 (the top-level key longrope reads)
  const { original_max_position_embeddings, ...noOrig } = phi;
  assert.deepEqual(pe.fromConfig(noOrig).rope, plain);
  // FalconConfig with new_decoder_architecture: the KV head count under its older name n_head_kv
  const falcon = {
    model_type: 'falcon',
    hidden_size: 8192,
    num_attention_heads: 128,
    num_hidden_layers: 60,
    new_decoder_architecture: true,
    n_head_kv: 8,
  };
  assert.equal(pe.fromConfig(falcon).attention.kvHeads, 8);
});
