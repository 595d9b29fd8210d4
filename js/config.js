// fromConfig: a Hugging Face config.json (parsed) to the positional scheme of one layer, in
// posenc's own option names, so ropeFrequencies / ropeCache / applyRope / attention / kvCache take
// the result as is. Pure JS: it reads keys, it computes nothing with the core.
//
// The rules follow huggingface/transformers: modeling_rope_utils.py (rope_config_validation,
// _compute_*_parameters: which keys each rope_type reads and their defaults), the model files
// named below (head width, layout, per-layer pattern, softmax scale), and for remote-code models
// the modeling file the checkpoint ships. docs/models.md lists every model type and its source.
import { ENCODINGS } from './encodings.js';
import { PosencError, Status } from './errors.js';
import { bool, fail, int, options, show } from './validate.js';
import { yarnMscale } from './maths.js';

const FN = 'fromConfig';

/** Pairing layout by model type. HF Llama / NeoX and most decoders rotate halves (rotate_half);
 * these rotate adjacent pairs: GPT-J and CodeGen (rotate_every_two), ChatGLM 2/3
 * (x.reshape(..., rot/2, 2)), DeepSeek V2/V3 and Llama 4 (view_as_complex / freqs_cis). */
const INTERLEAVED = new Set([
  'gptj',
  'codegen',
  'chatglm',
  'glm',
  'deepseek_v2',
  'deepseek_v3',
  'llama4',
  'llama4_text',
]);

/** Model types whose only positional encoding is a learned table: rows, and the index of
 * position 0 (OPT: 2, modeling_opt.py OPTLearnedPositionalEmbedding; RoBERTa: padding_idx + 1). */
const LEARNED = {
  gpt2: { rows: ['n_positions', 'max_position_embeddings'] },
  gpt_bigcode: { rows: ['n_positions', 'max_position_embeddings'] },
  gpt_neo: { rows: ['max_position_embeddings'] },
  bert: { rows: ['max_position_embeddings'], absolute: true },
  distilbert: { rows: ['max_position_embeddings'] },
  opt: { rows: ['max_position_embeddings'], offset: 2 },
  roberta: { rows: ['max_position_embeddings'], absolute: true, padOffset: true },
  'xlm-roberta': { rows: ['max_position_embeddings'], absolute: true, padOffset: true },
};
const T5 = new Set(['t5', 'mt5', 'umt5', 'longt5', 'switch_transformers']);

/** rope_type / type spellings -> posenc scaling type. 'su' is Phi-3's first name for longrope,
 * 'mrope' Qwen2-VL's name for default frequencies (Qwen2VLConfig turns it into 'default'),
 * 'gptj' mlc-llm's name for default frequencies with the GPT-J pairing. */
const ROPE_TYPES = {
  default: 'default',
  mrope: 'default',
  gptj: 'default',
  linear: 'linear',
  dynamic: 'dynamic',
  yarn: 'yarn',
  longrope: 'longrope',
  su: 'longrope',
  llama3: 'llama3',
};
/** Keys of rope_scaling / rope_parameters by what they do: read per type, or positional but read
 * elsewhere (theta, partial factor, M-RoPE, Ministral 3's query scale), or inert. */
const SCALING_READ = {
  default: [],
  linear: ['factor'],
  dynamic: ['factor', 'original_max_position_embeddings'],
  yarn: [
    'factor',
    'original_max_position_embeddings',
    'beta_fast',
    'beta_slow',
    'attention_factor',
    'mscale',
    'mscale_all_dim',
    'truncate',
  ],
  longrope: ['short_factor', 'long_factor', 'factor', 'original_max_position_embeddings', 'attention_factor'],
  llama3: ['factor', 'low_freq_factor', 'high_freq_factor', 'original_max_position_embeddings'],
};
const SCALING_ELSEWHERE = [
  'rope_type',
  'type',
  'rope_theta',
  'partial_rotary_factor',
  'mrope_section',
  'mrope_interleaved',
  'llama_4_scaling_beta',
];
// 'finetuned' (YaRN checkpoints) is a training note that no transformers code reads.
const SCALING_INERT = ['finetuned'];

/** Top-level keys fromConfig reads or knows to be irrelevant to positions. Any other key whose
 * name speaks of positions (POSITIONAL) is refused: silently ignoring it would give wrong angles. */
const KNOWN = new Set([
  'max_position_embeddings',
  'n_positions',
  'n_ctx',
  'seq_length',
  'max_seq_len',
  'rope_theta',
  'rope_scaling',
  'rope_parameters',
  'partial_rotary_factor',
  'rotary_pct',
  'rotary_dim',
  'rotary_emb_base',
  'rotary_base',
  'rope_local_base_freq',
  'sliding_window',
  'sliding_window_pattern',
  'use_sliding_window',
  'max_window_layers',
  'attention_chunk_size',
  'no_rope_layers',
  'no_rope_layer_interval',
  'use_logn_attn',
  'use_dynamic_ntk',
  'original_max_position_embeddings',
  'rope_ratio',
  'original_rope',
  'qk_rope_head_dim',
  'qk_nope_head_dim',
  'relative_attention_num_buckets',
  'relative_attention_max_distance',
  'position_embedding_type',
  'alibi',
  'alibi_bias_max',
  'learned_pos_emb',
  'rotary',
  'flash_rotary',
  'rope_traditional',
  'rope_interleave',
  'attn_temperature_tuning',
  'floor_scale',
  'attn_scale',
  'layer_types',
  'attn_logit_softcapping',
  'query_pre_attn_scalar',
  'scale_attn_weights',
  'scale_attn_by_inverse_layer_idx',
  'fused_rope',
  'use_flash_attn',
  'rope_scaling_factor',
]);
const POSITIONAL = /rope|rotary|posit|alibi|sliding|window|chunk|relative_attention|logn|ntk|temperature|pos_emb/i;
// Keys that match POSITIONAL but move nothing (flags of an implementation, not of the maths).
const INERT = new Set(['fused_rope', 'flash_rotary', 'use_flash_attn', 'rotary', 'learned_pos_emb']);

const LAYER_TYPES = new Set(['full_attention', 'sliding_attention', 'chunked_attention']);

/** A PosencError of fromConfig: the message after "posenc.fromConfig: ", the key it names. */
function perr(code, msg, key) {
  return new PosencError(code, `posenc.${FN}: ${msg}`, key);
}

function bad(key, allowed, value, code = Status.E_PARAM) {
  return fail(FN, key, code, allowed, value);
}

function isObj(v) {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** A reader over one config object: get(key) records what it read in `source`. */
function reader(cfg, source, prefix = '') {
  const get = (k) => {
    const v = Object.prototype.hasOwnProperty.call(cfg, k) ? cfg[k] : undefined;
    if (v !== undefined && v !== null) source[`${prefix}${k}`] = v;
    return v ?? undefined;
  };
  const number = (k, { int: isInt = false, gt = -Infinity, max = isInt ? 2 ** 31 - 1 : Infinity } = {}) => {
    const v = get(k);
    if (v === undefined) return undefined;
    if (typeof v !== 'number' || !Number.isFinite(v) || !(v > gt) || v > max || (isInt && !Number.isInteger(v))) {
      throw bad(
        `${prefix}${k}`,
        `${isInt ? 'an integer' : 'a finite number'}${gt > -Infinity ? ` > ${gt}` : ''}` +
          `${max < Infinity ? ` and <= ${max}` : ''}`,
        v,
      );
    }
    return v;
  };
  return { get, number, has: (k) => cfg[k] !== undefined && cfg[k] !== null };
}

/** rope_scaling / rope_parameters (already chosen for the layer) -> posenc scaling, or undefined. */
function parseScaling(rs, where, c, r, source) {
  if (rs === undefined || rs === null) return { type: 'default' };
  if (!isObj(rs)) throw bad(where, 'an object or null', rs);
  const s = reader(rs, source, `${where}.`);
  const rt = s.get('rope_type');
  const t = s.get('type');
  const name = rt ?? t ?? 'default';
  if (rt !== undefined && t !== undefined && ROPE_TYPES[rt] !== ROPE_TYPES[t]) {
    throw bad(`${where}.type`, `the same as ${where}.rope_type = ${show(rt)}`, t);
  }
  const type = ROPE_TYPES[name];
  if (type === undefined) {
    throw perr(
      Status.E_ENUM,
      `${where}.${rt !== undefined ? 'rope_type' : 'type'} ${show(name)} is not a ` +
        `rope type posenc knows (${Object.keys(ROPE_TYPES)
          .map((k) => `'${k}'`)
          .join(', ')})`,
      `${where}.rope_type`,
    );
  }
  const allowed = [...SCALING_READ[type], ...SCALING_ELSEWHERE, ...SCALING_INERT];
  for (const k of Object.keys(rs)) {
    if (!allowed.includes(k) && rs[k] !== null && rs[k] !== undefined) {
      throw perr(
        Status.E_PARAM,
        `${where}.${k} is not read for rope type '${name}' and may change ` +
          `the positions; posenc refuses rather than ignore it (read for '${name}': ` +
          `${SCALING_READ[type].join(', ') || 'nothing'})`,
        `${where}.${k}`,
      );
    }
  }
  const num = (k, o) => s.number(k, o);
  const maxPos = r.number('max_position_embeddings', { gt: 0 });
  // Phi-3 keeps it at the top level (Phi3Config; _compute_longrope_parameters reads it there first)
  const topOrig = r.number('original_max_position_embeddings', { gt: 0 });
  const orig = num('original_max_position_embeddings', { gt: 0 });
  const need = (k, v) => {
    if (v === undefined) {
      throw perr(Status.E_MISSING, `${where}.${k} is required for rope type '${name}'`, `${where}.${k}`);
    }
    return v;
  };
  switch (type) {
    case 'default':
      return { type: 'default' };
    case 'linear':
      return { type: 'linear', factor: need('factor', num('factor', { gt: 0 })) };
    case 'dynamic': {
      // _compute_dynamic_ntk_parameters: max_position_embeddings (original_max_position_embeddings in v5)
      const m = orig ?? maxPos;
      const factor = need('factor', num('factor', { gt: 0 }));
      return { type: 'dynamic', factor, maxPositions: need('max_position_embeddings', m) };
    }
    case 'yarn': {
      const sc = { type: 'yarn', factor: need('factor', num('factor', { gt: 0 })) };
      sc.originalMaxPositions = need('original_max_position_embeddings', orig ?? topOrig ?? maxPos);
      const names = [
        ['beta_fast', 'betaFast'],
        ['beta_slow', 'betaSlow'],
        ['attention_factor', 'attentionFactor'],
        ['mscale', 'mscale'],
        ['mscale_all_dim', 'mscaleAllDim'],
      ];
      for (const [k, p] of names) {
        const v = num(k, { gt: k.startsWith('beta') || k === 'attention_factor' ? 0 : -Infinity });
        if (v !== undefined) sc[p] = v;
      }
      const tr = s.get('truncate');
      if (tr !== undefined) sc.truncate = bool(FN, `${where}.truncate`, tr);
      return sc;
    }
    case 'longrope': {
      const sc = { type: 'longrope' };
      for (const [k, p] of [
        ['short_factor', 'shortFactor'],
        ['long_factor', 'longFactor'],
      ]) {
        const l = s.get(k);
        if (!Array.isArray(l)) throw bad(`${where}.${k}`, 'an array of numbers (one per rotated pair)', l);
        sc[p] = l.slice();
      }
      // _compute_longrope_parameters: a top-level original_max_position_embeddings wins and sets
      // factor = max_position_embeddings / original; else the scaling's own keys
      sc.originalMaxPositions = need('original_max_position_embeddings', topOrig ?? orig ?? maxPos);
      if (topOrig !== undefined && maxPos !== undefined) sc.maxPositions = maxPos;
      else if (num('factor', { gt: 0 }) !== undefined) sc.factor = rs.factor;
      const af = num('attention_factor', { gt: 0 });
      if (af !== undefined) sc.attentionFactor = af;
      return sc;
    }
    case 'llama3': {
      const sc = { type: 'llama3' };
      const names = [
        ['factor', 'factor'],
        ['low_freq_factor', 'lowFreqFactor'],
        ['high_freq_factor', 'highFreqFactor'],
      ];
      for (const [k, p] of names) {
        sc[p] = need(k, num(k, { gt: 0 }));
      }
      sc.originalMaxPositions = need('original_max_position_embeddings', orig);
      return sc;
    }
    default:
      return { type: 'default' };
  }
}

/** Per-layer attention type ('full_attention' | 'sliding_attention' | 'chunked_attention') for
 * every layer, from layer_types or the model file's rule. */
function layerTypes(c, r, modelType, layers) {
  const given = r.get('layer_types');
  if (given !== undefined) {
    if (!Array.isArray(given) || given.length !== layers || !given.every((t) => LAYER_TYPES.has(t))) {
      const kinds = [...LAYER_TYPES].map((t) => `'${t}'`).join(', ');
      throw bad('layer_types', `an array of num_hidden_layers = ${layers} entries from ${kinds}`, given);
    }
    return given;
  }
  const sw = r.get('sliding_window');
  const all = (t) => Array.from({ length: layers }, () => t);
  if (modelType === 'llama4' || modelType === 'llama4_text') {
    // Llama4TextConfig: rope layers attend in chunks, NoPE layers see everything
    const rope = llama4RopeLayers(r, layers);
    const chunk = r.get('attention_chunk_size');
    return rope.map((u) => (u && chunk ? 'chunked_attention' : 'full_attention'));
  }
  if (sw === undefined || sw === null) return all('full_attention');
  if (modelType === 'gemma2') {
    // modeling_gemma2.py: even layers slide (is_sliding = not bool(layer_idx % 2))
    return Array.from({ length: layers }, (_, i) => (i % 2 ? 'full_attention' : 'sliding_attention'));
  }
  const pattern = r.number('sliding_window_pattern', { int: true, gt: 0 });
  if (pattern !== undefined) {
    // Gemma 3 / Cohere 2: every pattern-th layer is global
    return Array.from({ length: layers }, (_, i) => ((i + 1) % pattern ? 'sliding_attention' : 'full_attention'));
  }
  const use = r.get('use_sliding_window');
  if (use === false) return all('full_attention');
  if (use === true && r.has('max_window_layers')) {
    // Qwen2Config: layers from max_window_layers on slide
    const m = r.number('max_window_layers', { int: true, gt: -1 });
    return Array.from({ length: layers }, (_, i) => (i >= m ? 'sliding_attention' : 'full_attention'));
  }
  return all('sliding_attention'); // Mistral, Phi-3, Starcoder2: every layer
}

/** Llama 4: 1 = the layer rotates (Llama4TextConfig no_rope_layers; default every
 * no_rope_layer_interval-th layer is NoPE). */
function llama4RopeLayers(r, layers) {
  const given = r.get('no_rope_layers');
  if (Array.isArray(given) && given.length) {
    if (given.length !== layers || !given.every((v) => v === 0 || v === 1)) {
      throw bad('no_rope_layers', `an array of num_hidden_layers = ${layers} zeros and ones`, given);
    }
    return given.map((v) => v === 1);
  }
  const every = r.number('no_rope_layer_interval', { int: true, gt: 0 }) ?? 4;
  return Array.from({ length: layers }, (_, i) => (i + 1) % every !== 0);
}

/** A per-query scale as a function of the query's absolute position, with its formula. */
function queryScaleFn(formula, f) {
  return Object.defineProperty(f, 'formula', { value: formula, enumerable: true });
}

/**
 * The positional scheme of one layer of a Hugging Face model.
 * @param {object} config the parsed config.json (a nested text_config is used when present)
 * @param {{ layer?: number, decoder?: boolean }} [opts] layer index; decoder: T5's decoder stack
 */
export function fromConfig(config, opts) {
  const o = options(FN, opts, ['layer', 'decoder']);
  if (!isObj(config)) throw bad('config', 'the parsed config.json object', config);
  try {
    // one read of everything (a getter runs here, once); what follows sees plain JSON data
    config = JSON.parse(JSON.stringify(config));
  } catch (e) {
    throw perr(
      Status.E_PARAM,
      `config must be JSON data, the parsed config.json ` +
        `(reading it threw ${e instanceof Error ? `${e.name}: ${e.message}` : show(e)})`,
      'config',
    );
  }
  const source = {};
  const root = reader(config, source);
  const text = config.text_config;
  const nested = isObj(text);
  const c = nested ? text : config;
  if (nested) source.text_config = '(read from text_config)';
  const r = reader(c, source, nested ? 'text_config.' : '');
  const modelType = nested ? (r.get('model_type') ?? root.get('model_type')) : r.get('model_type');
  if (typeof modelType !== 'string') {
    throw bad('model_type', 'a string (every config.json names its model type)', modelType);
  }
  const mt = modelType.replace(/_text$/, '');
  const notes = [];

  for (const k of Object.keys(c)) {
    if (POSITIONAL.test(k) && !KNOWN.has(k) && c[k] !== null && c[k] !== undefined && c[k] !== false) {
      throw perr(
        Status.E_PARAM,
        `${nested ? 'text_config.' : ''}${k} = ${show(c[k])} is a key posenc ` +
          'does not read, and its name says it may change the positions; posenc refuses rather than ignore it',
        k,
      );
    }
  }

  const decoder = bool(FN, 'decoder', o.decoder, false);
  const layersKey = T5.has(mt) ? (decoder ? 'num_decoder_layers' : 'num_layers') : null;
  const L = { int: true, gt: 0, max: 2 ** 16 };
  const layers =
    (layersKey ? (r.number(layersKey, L) ?? r.number('num_layers', L)) : undefined) ??
    r.number('num_hidden_layers', L) ??
    r.number('n_layer', L) ??
    r.number('num_layers', L) ??
    r.number('n_layers', L);
  const layer = int(FN, 'layer', o.layer, { min: 0, max: layers !== undefined ? layers - 1 : 2 ** 20, def: 0 });

  const heads =
    r.number('num_attention_heads', { int: true, gt: 0 }) ??
    r.number('n_head', { int: true, gt: 0 }) ??
    r.number('num_heads', { int: true, gt: 0 }) ??
    r.number('n_heads', { int: true, gt: 0 });
  if (heads === undefined) {
    throw perr(Status.E_MISSING, 'num_attention_heads (or n_head) is required', 'num_attention_heads');
  }
  const hidden =
    r.number('hidden_size', { int: true, gt: 0 }) ??
    r.number('n_embd', { int: true, gt: 0 }) ??
    r.number('d_model', { int: true, gt: 0 }) ??
    r.number('n_embed', { int: true, gt: 0 });
  let dim =
    r.number('head_dim', { int: true, gt: 0 }) ??
    r.number('kv_channels', { int: true, gt: 0 }) ??
    r.number('d_kv', { int: true, gt: 0 });
  if (dim === undefined) {
    if (hidden === undefined) throw perr(Status.E_MISSING, `head_dim or hidden_size is required`, 'head_dim');
    if (hidden % heads) {
      throw bad('hidden_size', `a multiple of num_attention_heads = ${heads} (no head_dim given)`, hidden);
    }
    dim = hidden / heads;
  }
  let kvHeads = r.number('num_key_value_heads', { int: true, gt: 0 });
  if (mt === 'falcon') {
    // FalconConfig: num_kv_heads counts only with new_decoder_architecture, else multi_query -> 1
    kvHeads = r.get('new_decoder_architecture')
      ? (r.number('num_kv_heads', { int: true, gt: 0 }) ?? heads)
      : r.get('multi_query')
        ? 1
        : heads;
  } else if (mt === 'chatglm' || mt === 'glm') {
    if (r.get('multi_query_attention')) kvHeads = r.number('multi_query_group_num', { int: true, gt: 0 });
  } else if (mt === 'mpt') {
    const ac = isObj(c.attn_config) ? reader(c.attn_config, source, 'attn_config.') : null;
    kvHeads = ac?.number('kv_n_heads', { int: true, gt: 0 });
  }
  kvHeads ??= heads;
  if (heads % kvHeads) throw bad('num_key_value_heads', `a divisor of num_attention_heads = ${heads}`, kvHeads);
  const attention = { heads, kvHeads, dim, scale: 1 / Math.sqrt(dim) };
  const result = { model: modelType, layer, layers, family: 'none', attention, notes, source };

  // ---- T5: relative buckets (modeling_t5.py T5Attention._relative_position_bucket) ----
  if (T5.has(mt)) {
    const numBuckets = r.number('relative_attention_num_buckets', { int: true, gt: 0 }) ?? 32;
    const maxDistance = r.number('relative_attention_max_distance', { int: true, gt: 0 }) ?? 128;
    // the encoder's self-attention is bidirectional, the decoder's causal (T5Attention.is_decoder):
    // the encodings registry's default for a causal or unmasked call
    let t5;
    try {
      t5 = ENCODINGS.t5.parse({ numBuckets, maxDistance }, { fn: FN, causal: decoder });
    } catch (e) {
      const why = e.message.replace(/^posenc\.fromConfig: /, '');
      throw perr(
        e.code,
        `relative_attention_num_buckets / relative_attention_max_distance: ${why}`,
        'relative_attention_max_distance',
      );
    }
    result.family = 't5';
    result.t5 = { numBuckets: t5.numBuckets, maxDistance: t5.maxDistance, bidirectional: t5.bidirectional };
    result.stack = decoder ? 'decoder' : 'encoder';
    attention.scale = 1; // T5 folds 1/sqrt(d) into the initialisation: no scaling in T5Attention
    result.encoding = { type: 't5', ...result.t5 };
    if (mt !== 'umt5' && layer > 0) {
      notes.push(
        'T5 computes the bias in layer 0 of each stack and every layer reuses it ' + '(has_relative_attention_bias)',
      );
    }
    return result;
  }

  // ---- learned tables ----
  if (LEARNED[mt]) {
    const l = LEARNED[mt];
    const pet = r.get('position_embedding_type');
    if (l.absolute && pet !== undefined && pet !== 'absolute') {
      throw perr(
        Status.E_PARAM,
        `position_embedding_type ${show(pet)} is not mapped by posenc ` + "(only 'absolute', a learned table)",
        'position_embedding_type',
      );
    }
    let rows;
    for (const k of l.rows) rows ??= r.number(k, { int: true, gt: 0 });
    if (rows === undefined) throw perr(Status.E_MISSING, `${l.rows.join(' or ')} is required`, l.rows[0]);
    let offset = l.offset ?? 0;
    if (l.padOffset) offset = (r.number('pad_token_id', { int: true, gt: -1 }) ?? 1) + 1;
    result.family = 'learned';
    result.learned = offset ? { rows: rows + (l.offset ?? 0), offset } : { rows };
    if (mt === 'gpt2' || mt === 'gpt_bigcode') {
      // modeling_gpt2.py GPT2Attention: scale_attn_weights and scale_attn_by_inverse_layer_idx
      if (r.get('scale_attn_weights') === false) attention.scale = 1;
      if (r.get('scale_attn_by_inverse_layer_idx')) attention.scale /= layer + 1;
    }
    result.encoding = { type: 'none' };
    return result;
  }

  // ---- ALiBi: BLOOM, MPT, Falcon-RW, Baichuan 13B ----
  let alibi = null;
  if (mt === 'bloom') alibi = {};
  if (mt === 'mpt') {
    const ac = isObj(c.attn_config) ? c.attn_config : {};
    const a = reader(ac, source, 'attn_config.');
    if (a.get('rope')) throw bad('attn_config.rope', 'false (MPT with RoPE is not mapped by posenc)', true);
    if (a.get('alibi')) {
      const max = a.number('alibi_bias_max', { gt: 0 }) ?? 8;
      // llm-foundry / transformers modeling_mpt.py build_mpt_alibi_tensor: slopes 2^(-max*k/n') with
      // n' = next power of two; equal to alibiSlopes only for max 8 and a power-of-two head count
      if (max !== 8 || (heads & (heads - 1)) !== 0) {
        throw bad(
          'attn_config.alibi_bias_max',
          `8 with a power-of-two head count (what alibiSlopes computes; heads = ${heads})`,
          max,
        );
      }
      alibi = {};
    }
    const ss = a.number('softmax_scale', { gt: 0 });
    if (ss !== undefined) attention.scale = ss;
    if (!alibi) {
      result.family = 'learned';
      result.learned = { rows: r.number('max_seq_len', { int: true, gt: 0 }) };
      result.encoding = { type: 'none' };
      return result;
    }
  }
  if (mt === 'falcon' && r.get('alibi')) {
    // modeling_falcon.py FalconAttention.forward: (scores + alibi) * inv_norm_factor, so the bias
    // is scaled by 1/sqrt(head_dim) as well
    alibi = { biasScale: 1 / Math.sqrt(dim) };
    notes.push(
      'Falcon scales the ALiBi bias by 1/sqrt(head_dim) too: use alibiBias, multiply by alibi.biasScale, ' +
        'pass it as bias',
    );
  }
  if (mt === 'baichuan') {
    // Baichuan's remote code: the 13B model (hidden 5120) uses ALiBi, the 7B RoPE
    if (hidden === 5120) alibi = {};
    else if (hidden !== 4096) {
      throw bad('hidden_size', '4096 (Baichuan 7B, RoPE) or 5120 (Baichuan 13B, ALiBi)', hidden);
    }
  }
  if (alibi) {
    result.family = 'alibi';
    result.alibi = { heads, ...alibi };
    result.encoding = { type: 'alibi' };
    return result;
  }

  // ---- RoPE (and Llama 4's NoPE layers) ----
  const types = layers !== undefined ? layerTypes(c, r, mt, layers) : ['full_attention'];
  const layerType = types[layer];
  result.layerType = layerType;
  if (layerType === 'sliding_attention') {
    attention.window = r.number('sliding_window', { int: true, gt: 0 });
  } else if (layerType === 'chunked_attention') {
    attention.chunk = r.number('attention_chunk_size', { int: true, gt: 0 });
  }
  if (mt === 'gemma2' || mt === 'gemma3') {
    // modeling_gemma2/3.py: scaling = query_pre_attn_scalar ** -0.5
    const q = r.number('query_pre_attn_scalar', { gt: 0 });
    if (q !== undefined) attention.scale = 1 / Math.sqrt(q);
    const cap = r.get('attn_logit_softcapping');
    if (cap) {
      notes.push(
        `attn_logit_softcapping ${cap}: Gemma caps logits with cap·tanh(logit/cap); ` + "posenc's attention does not",
      );
    }
  }

  let useRope = true;
  if (mt === 'llama4') {
    useRope = llama4RopeLayers(r, layers)[layer];
    const tuning = r.get('attn_temperature_tuning');
    if (!useRope && tuning) {
      // modeling_llama4.py Llama4TextAttention.forward: on NoPE layers
      // q *= log1p(floor((position + 1) / floor_scale)) * attn_scale + 1
      const floor = r.number('floor_scale', { gt: 0 }) ?? 8192;
      const as = r.number('attn_scale') ?? 0.1;
      attention.queryScale = queryScaleFn(
        `1 + ${as} · ln(1 + floor((p + 1) / ${floor}))`,
        (p) => 1 + as * Math.log1p(Math.floor((p + 1) / floor)),
      );
    }
  }
  if (!useRope) {
    result.family = 'none';
    result.encoding = { type: 'none' };
    return result;
  }

  // rope_parameters (transformers v5): flat, or one entry per layer type
  let rp = r.get('rope_parameters');
  let where = nested ? 'text_config.rope_parameters' : 'rope_parameters';
  if (isObj(rp) && Object.keys(rp).some((k) => LAYER_TYPES.has(k))) {
    const entry = rp[layerType] ?? (layerType === 'chunked_attention' ? rp.full_attention : undefined);
    if (!isObj(entry)) {
      throw bad(`${where}.${layerType}`, `the rope parameters of layer ${layer} ('${layerType}')`, entry);
    }
    rp = entry;
    where = `${where}.${layerType}`;
  }
  const rpr = isObj(rp) ? reader(rp, source, `${where}.`) : null;
  let rs = rp;
  if (!isObj(rp)) {
    rs = r.get('rope_scaling');
    where = nested ? 'text_config.rope_scaling' : 'rope_scaling';
  }
  let base =
    rpr?.number('rope_theta', { gt: 1 }) ??
    r.number('rope_theta', { gt: 1 }) ??
    r.number('rotary_emb_base', { gt: 1 }) ??
    r.number('rotary_base', { gt: 1 }) ??
    10000;
  if (mt === 'chatglm' || mt === 'glm') base *= r.number('rope_ratio', { gt: 0 }) ?? 1; // ChatGLM: base * rope_ratio
  let scaling;
  if (mt === 'gemma3' && layerType === 'sliding_attention' && !isObj(r.get('rope_parameters'))) {
    // modeling_gemma3.py: local layers use rope_local_base_freq and no scaling
    base = r.number('rope_local_base_freq', { gt: 1 }) ?? 10000;
    scaling = { type: 'default' };
  } else {
    scaling = parseScaling(rs, where, c, r, source);
  }

  // rotated width: partial_rotary_factor (HF), rotary_pct (NeoX, Qwen 1), rotary_dim (GPT-J,
  // Phi-2 remote code), ChatGLM half the head, DeepSeek's separate qk_rope_head_dim part
  let ropeDim = dim;
  let rotaryDim = dim;
  const prf = rpr?.number('partial_rotary_factor', { gt: 0 }) ?? r.number('partial_rotary_factor', { gt: 0 });
  const pct = r.number('rotary_pct', { gt: 0 });
  if (prf !== undefined) rotaryDim = Math.floor(dim * prf);
  else if (pct !== undefined) rotaryDim = Math.floor(dim * pct);
  if (r.has('rotary_dim')) rotaryDim = r.number('rotary_dim', { int: true, gt: 0 });
  if (mt === 'chatglm' || mt === 'glm') rotaryDim = dim / 2;
  if (mt === 'deepseek_v2' || mt === 'deepseek_v3') {
    const ropeHd = r.number('qk_rope_head_dim', { int: true, gt: 0 });
    const nope = r.number('qk_nope_head_dim', { int: true, gt: -1 }) ?? 0;
    const vDim = r.number('v_head_dim', { int: true, gt: 0 });
    if (ropeHd !== undefined) {
      ropeDim = rotaryDim = ropeHd;
      attention.dim = nope + ropeHd;
      if (vDim !== undefined && vDim !== attention.dim) attention.dimV = vDim;
      attention.scale = 1 / Math.sqrt(attention.dim);
      notes.push(
        `DeepSeek MLA: rope applies to the separate qk_rope_head_dim = ${ropeHd} part of each q/k head ` +
          `(dim ${attention.dim} = qk_nope_head_dim ${nope} + ${ropeHd})`,
      );
    }
    // modeling_deepseek_v2.py DeepseekV2Attention: softmax_scale *= mscale(factor, mscale_all_dim)^2
    const msa = isObj(rs) ? reader(rs, source, `${where}.`).number('mscale_all_dim') : undefined;
    if (scaling.type === 'yarn' && msa) {
      const m = yarnMscale(scaling.factor, msa);
      attention.scale *= m * m;
      result.mscale2 = m * m;
    }
  }
  if (rotaryDim % 2 || rotaryDim < 2 || rotaryDim > ropeDim) {
    throw bad(
      prf !== undefined ? 'partial_rotary_factor' : pct !== undefined ? 'rotary_pct' : 'rotary_dim',
      `such that the rotated width is even and in [2, ${ropeDim}] (got width ${rotaryDim})`,
      prf ?? pct ?? rotaryDim,
    );
  }

  let layout = INTERLEAVED.has(mt) || (isObj(rs) && (rs.rope_type ?? rs.type) === 'gptj') ? 'interleaved' : 'half';
  if (r.get('rope_traditional') === true || r.get('rope_interleave') === true) layout = 'interleaved';

  const rope = { dim: ropeDim, base, layout };
  if (rotaryDim !== ropeDim) rope.rotaryDim = rotaryDim;
  if (scaling.type !== 'default') rope.scaling = scaling;
  if (scaling.type === 'longrope') {
    for (const k of ['shortFactor', 'longFactor']) {
      if (scaling[k].length !== rotaryDim / 2) {
        throw bad(
          `${where}.${k === 'shortFactor' ? 'short_factor' : 'long_factor'}`,
          `an array of rotated width / 2 = ${rotaryDim / 2} numbers`,
          scaling[k],
        );
      }
    }
  }
  const ms = isObj(rs) ? rs.mrope_section : undefined;
  if (ms !== undefined && ms !== null) {
    if (
      !Array.isArray(ms) ||
      ms.length !== 3 ||
      !ms.every((v) => Number.isInteger(v) && v >= 0) ||
      ms[0] + ms[1] + ms[2] !== rotaryDim / 2
    ) {
      throw bad(
        `${where}.mrope_section`,
        `three non-negative integers summing to rotated width / 2 = ${rotaryDim / 2}`,
        ms,
      );
    }
    rope.mropeSections = ms.slice();
    if (rs.mrope_interleaved === true) rope.mropeInterleaved = true;
  }
  result.family = 'rope';
  result.rope = rope;
  // kvCache's encoding rotates the first rotaryDim components of its dim-wide heads: for DeepSeek
  // put each head's rope part first ([q_pe, q_nope]; the score is the same under any common order)
  const encRot = attention.dim !== ropeDim ? ropeDim : rope.rotaryDim;
  result.encoding = {
    type: 'rope',
    base,
    layout,
    ...(encRot ? { rotaryDim: encRot } : {}),
    ...(rope.scaling ? { scaling } : {}),
    ...(rope.mropeSections ? { mropeSections: rope.mropeSections.slice() } : {}),
    ...(rope.mropeInterleaved ? { mropeInterleaved: true } : {}),
  };
  // what kvCache will check, checked now (the registry's rope entry), so a bad key names the config
  ENCODINGS.rope.parse(result.encoding, { fn: FN, prefix: 'encoding.', host: 'kvCache', dim: attention.dim });

  // per-query scales that positions drive
  const beta = isObj(rs) ? rs.llama_4_scaling_beta : undefined;
  if (typeof beta === 'number' && beta !== 0) {
    // modeling_ministral3.py get_llama_4_attn_scale: 1 + beta · ln(1 + floor(p / original_max_position_embeddings))
    const m = scaling.originalMaxPositions ?? r.number('max_position_embeddings', { gt: 0 });
    attention.queryScale = queryScaleFn(
      `1 + ${beta} · ln(1 + floor(p / ${m}))`,
      (p) => 1 + beta * Math.log1p(Math.floor(p / m)),
    );
  }
  if (mt === 'qwen') {
    const seq = r.number('seq_length', { int: true, gt: 1 }) ?? 2048;
    if (r.get('use_logn_attn')) {
      // Qwen 1 modeling_qwen.py: logn_list[i] = log_seq(i) for i > seq_length, the query at
      // position p is scaled by logn_list[p + 1]
      attention.queryScale = queryScaleFn(`p + 1 > ${seq} ? ln(p + 1) / ln(${seq}) : 1`, (p) =>
        p + 1 > seq ? Math.log(p + 1) / Math.log(seq) : 1,
      );
    }
    if (r.get('use_dynamic_ntk')) {
      notes.push(
        `use_dynamic_ntk: past seq_length = ${seq} tokens Qwen raises the base at run time: ` +
          'for a sequence of L ' +
          `tokens pass scaling { type: 'ntk', factor: 2^ceil(log2(L / ${seq}) + 1) - 1 } (1 up to ${seq})`,
      );
    }
  }
  if (!(attention.scale > 0 && Number.isFinite(attention.scale))) {
    throw perr(
      Status.E_RANGE,
      `the softmax scale of layer ${layer} is not a positive finite number ` +
        `(${attention.scale}) with these head sizes and scaling keys`,
      'head_dim',
    );
  }
  if (rope.mropeSections) {
    notes.push('multimodal RoPE: positions are 3 × length (t, then h, then w); text tokens repeat one position');
  }
  return result;
}

export function configFamily() {
  return { fromConfig };
}
