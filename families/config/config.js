// fromConfig: a Hugging Face config.json (parsed) to the positional scheme of one layer, in
// posenc's own option names, so ropeFrequencies / ropeCache / applyRope / attention / kvCache take
// the result as is. It reads keys; through the API (configFamily) it also computes each RoPE
// result's frequencies once with the core, as its consumers will, to refuse what they would refuse.
//
// Which model types it maps, and what each one's Hugging Face code does with positions, is the
// table in models.js (one row per model_type, with the file and function it follows); a type
// outside the table is refused by name. The RoPE scaling rules follow transformers
// modeling_rope_utils.py (rope_config_validation, _compute_*_parameters: which keys each rope_type
// reads and their defaults). families/config/models.md lists every row.
import { ENCODINGS } from '../../js/encodings.js';
import { ropeFreqsOnHeap } from '../rope/rope.js';
import { PosencError, Status } from '../../js/errors.js';
import { closestTypes, MODELS, REFUSED, UNVERIFIED } from './models.js';
import { bool, fail, int, notPromise, options, show } from '../../js/validate.js';
import { FLT_MAX, yarnMscale } from '../../js/maths.js';
import { HF_TYPES, SCALINGS } from '../../js/scalings.js';

const FN = 'fromConfig';
const F32_MAX = 3e38; // the largest softmax scale attention() and kvCache() take
const MAX_WIDTH = 2 ** 20; // heads · head width of one layer (the widest published layer is 128 · 192)

/** Keys of rope_scaling / rope_parameters: each type's own (js/scalings.js, the keys with `hf`), or
 * positional but read elsewhere (theta, partial factor, M-RoPE, Ministral 3's query scale), or inert. */
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

/** Top-level keys fromConfig reads for some model type (models.js says which). Another key whose
 * name speaks of positions (POSITIONAL) is noted as ignored when the row's Hugging Face code does not
 * read it, and refused for remote code. */
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
  'attention_multiplier',
  'full_attention_interval',
  'window_size',
  'attention_types',
  'multi_query',
  'sinusoidal_pos_embds',
  'encoder_attention_type',
  'max_source_positions',
  'max_target_positions',
  'global_rope_theta',
  'local_rope_theta',
]);
// Context lengths: read for caches and masks, they move no position under most rope types.
const QUIET = new Set([
  'max_position_embeddings',
  'n_positions',
  'n_ctx',
  'seq_length',
  'max_seq_len',
  'max_source_positions',
  'max_target_positions',
]);
const POSITIONAL = /rope|rotary|posit|alibi|sliding|window|chunk|relative_attention|logn|ntk|temperature|pos_emb/i;
// Keys that match POSITIONAL but move nothing (flags of an implementation, not of the maths).
// chunk_size_feed_forward and temperature are PretrainedConfig's (feed-forward chunking, sampling).
const INERT = new Set([
  'fused_rope',
  'flash_rotary',
  'use_flash_attn',
  'rotary',
  'learned_pos_emb',
  'chunk_size_feed_forward',
  'temperature',
]);

// Top-level keys whose None the Hugging Face code computes with (base ** x, int(head_dim * None),
// x ** -0.5, (i + 1) % None): present with null, they are refused, not defaulted
const NULL_FAILS = new Set([
  'rope_theta',
  'rotary_emb_base',
  'partial_rotary_factor',
  'rotary_pct',
  'rope_local_base_freq',
  'query_pre_attn_scalar',
  'sliding_window_pattern',
  'global_rope_theta',
  'local_attention',
  'global_attn_every_n_layers',
  'theta', // Lfm2Config: kwargs.get("theta", ...) returns the None
  'full_attention_interval', // Qwen3_5TextConfig, Qwen3NextConfig: kwargs.pop("full_attention_interval", 4) returns the None
  // sizes: hidden_size // heads, range(num_hidden_layers), qk_nope_head_dim + qk_rope_head_dim fail on None
  'hidden_size',
  'num_hidden_layers',
  'n_layer',
  'num_layers',
  'n_layers',
  'qk_rope_head_dim',
  'qk_nope_head_dim',
  'v_head_dim',
  'max_window_layers', // Qwen2Config: i >= max_window_layers, once a window is on
]);
const NO_KEYS = new Set();

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

/** A config value for a note: JSON, cut at 80 characters. */
function brief(v) {
  const j = JSON.stringify(v) ?? String(v);
  return j.length > 80 ? `${j.slice(0, 80)}...` : j;
}

/** Python's truth value of a JSON value, as HF tests a switch (`if config.x:`): None, False, 0,
 * '', [] and {} are false, anything else true. */
function truthy(v) {
  if (Array.isArray(v)) return v.length > 0;
  if (isObj(v)) return Object.keys(v).length > 0;
  return Boolean(v);
}

/**
 * A reader over one config object: get(key) records what it read in `source`; a key the config
 * omits takes the config class's default (`defaults`, recorded in `used`). A key present with null
 * is Python's None: no default.
 */
function reader(cfg, source, prefix = '', defaults = {}, used = {}, nullFails = NO_KEYS) {
  const get = (k) => {
    let v = Object.hasOwn(cfg, k) ? cfg[k] : undefined;
    if (v === undefined && defaults[k] !== undefined) {
      v = defaults[k];
      used[`${prefix}${k}`] = v;
    } else if (v !== undefined && v !== null) source[`${prefix}${k}`] = v;
    return v ?? undefined;
  };
  const number = (k, { int: isInt = false, gt = -Infinity, max = isInt ? 2 ** 31 - 1 : Infinity } = {}) => {
    const v = get(k);
    if (v === undefined && nullFails.has(k) && Object.hasOwn(cfg, k) && cfg[k] === null) {
      throw bad(
        `${prefix}${k}`,
        'a number: a key present with null is None, not the config class default, and the Hugging Face code computes with it (it fails)',
        null,
      );
    }
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
  const has = (k) => (Object.hasOwn(cfg, k) ? cfg[k] !== null && cfg[k] !== undefined : defaults[k] !== undefined);
  return {
    get,
    number,
    has,
    flag: (k) => truthy(get(k)),
    key: (k) => `${prefix}${k}`,
    raw: (k) => (Object.hasOwn(cfg, k) ? cfg[k] : undefined),
  };
}

/** rope_scaling / rope_parameters (already chosen for the layer) -> posenc scaling ('default' when absent). */
function parseScaling(rs, where, r, source, notes, origin, aliases = {}) {
  if (rs === undefined || rs === null) return { type: 'default' };
  if (!isObj(rs)) throw bad(where, 'an object or null', rs);
  const s = reader(rs, source, `${where}.`);
  const { name, type } = scalingType(s, where, notes, aliases);
  const reads = SCALINGS[type].keys.filter((k) => k.hf).map((k) => k.hf);
  const allowed = [...reads, ...SCALING_ELSEWHERE, ...SCALING_INERT];
  for (const key of Object.keys(rs)) {
    if (!allowed.includes(key) && rs[key] !== null && rs[key] !== undefined) {
      // modeling_rope_utils.py _check_received_keys logs unrecognised keys and goes on: so does posenc
      notes.push(
        `${where}.${key} = ${show(rs[key])} is not read for rope type '${name}' ` +
          `(modeling_rope_utils.py reads ${reads.join(', ') || 'nothing'}): ignored, as Hugging Face does`,
      );
    }
  }
  const maxPos = r.number('max_position_embeddings', { gt: 0 });
  // Phi-3 keeps it at the top level (Phi3Config; _compute_longrope_parameters reads it there first)
  const topOrig = r.number('original_max_position_embeddings', { gt: 0 });
  const orig = s.number('original_max_position_embeddings', { gt: 0 });
  const need = (k, v) => {
    if (v === undefined) {
      throw perr(Status.E_MISSING, `${where}.${k} is required for rope type '${name}'`, `${where}.${k}`);
    }
    return v;
  };
  return scalingFromHf(type, { s, need, where, r, origin, maxPos, topOrig, orig });
}

/** The rope type a scaling names (rope_type, or the older type), as posenc's scaling type. */
function scalingType(s, where, notes, aliases) {
  const rt = s.get('rope_type');
  const t = s.get('type');
  const name = rt ?? t ?? 'default';
  if (rt !== undefined && t !== undefined && HF_TYPES[rt] !== HF_TYPES[t]) {
    throw bad(`${where}.type`, `the same as ${where}.rope_type = ${show(rt)}`, t);
  }
  // a config class that renames a rope type (Phi3Config.convert_rope_params_to_dict: 'su', 'yarn' -> longrope)
  const type = Object.hasOwn(aliases, name) ? aliases[name] : HF_TYPES[name];
  if (Object.hasOwn(aliases, name))
    notes.push(`${where} type ${show(name)} is read as '${aliases[name]}', as the config class does`);
  if (type === undefined) {
    throw perr(
      Status.E_ENUM,
      `${where}.${rt !== undefined ? 'rope_type' : 'type'} ${show(name)} is not a ` +
        `rope type posenc knows (${Object.keys(HF_TYPES)
          .map((k) => `'${k}'`)
          .join(', ')})`,
      `${where}.rope_type`,
    );
  }
  return { name, type };
}

/** A scaling's keys in posenc's names (js/scalings.js), in the table's order: each read where
 * Hugging Face reads it (FROM_TOP: keys that may come from the top level, with their own rules),
 * then the type's own check (AFTER). origin records the key each option came from, for messages. */
function scalingFromHf(type, p) {
  const { where, origin } = p;
  const sc = { type };
  for (const k of SCALINGS[type].keys) {
    if (k.hf) origin[`scaling.${k.name}`] ??= `${where}.${k.hf}`;
    const own = FROM_TOP[type]?.[k.name];
    const v = own ? own(p) : k.hf ? hfValue(k, p) : undefined;
    if (v !== undefined) sc[k.name] = v;
  }
  AFTER[type]?.(sc, p);
  return sc;
}

/** One key of rope_scaling as Hugging Face's code reads it (required: the table's rule). */
function hfValue(k, { s, need, where }) {
  if (k.kind === 'factors') {
    const l = s.get(k.hf);
    if (!Array.isArray(l)) throw bad(`${where}.${k.hf}`, 'an array of numbers (one per rotated pair)', l);
    return l.slice();
  }
  if (k.kind === 'bool') {
    const v = s.get(k.hf);
    return v === undefined ? undefined : bool(FN, `${where}.${k.hf}`, v);
  }
  const v = s.number(k.hf, { gt: k.gt ?? -Infinity });
  return k.required || k.hfRequired ? need(k.hf, v) : v;
}

/** The context keys (js/scalings.js `context`) as each _compute_*_parameters finds them. */
const FROM_TOP = {
  // _compute_dynamic_ntk_parameters: max_position_embeddings (original_max_position_embeddings in v5)
  dynamic: {
    maxPositions: ({ need, where, r, origin, maxPos, orig }) => {
      origin['scaling.maxPositions'] =
        orig !== undefined ? `${where}.original_max_position_embeddings` : r.key('max_position_embeddings');
      return need('max_position_embeddings', orig ?? maxPos);
    },
  },
  yarn: {
    originalMaxPositions: ({ need, where, r, origin, maxPos, topOrig, orig }) => {
      const v = need('original_max_position_embeddings', orig ?? topOrig ?? maxPos);
      origin['scaling.originalMaxPositions'] =
        orig !== undefined
          ? `${where}.original_max_position_embeddings`
          : r.key(topOrig !== undefined ? 'original_max_position_embeddings' : 'max_position_embeddings');
      return v;
    },
  },
  // _compute_longrope_parameters: a top-level original_max_position_embeddings wins and sets
  // factor = max_position_embeddings / original; else the scaling's own keys
  longrope: {
    originalMaxPositions: ({ need, where, r, origin, maxPos, topOrig, orig }) => {
      const v = need('original_max_position_embeddings', topOrig ?? orig ?? maxPos);
      origin['scaling.originalMaxPositions'] =
        topOrig !== undefined
          ? r.key('original_max_position_embeddings')
          : orig !== undefined
            ? `${where}.original_max_position_embeddings`
            : r.key('max_position_embeddings');
      if (topOrig !== undefined && maxPos !== undefined)
        origin['scaling.maxPositions'] = r.key('max_position_embeddings');
      return v;
    },
    factor: ({ s, maxPos, topOrig }) =>
      topOrig !== undefined && maxPos !== undefined ? undefined : s.number('factor', { gt: 0 }),
    maxPositions: ({ maxPos, topOrig }) => (topOrig !== undefined ? maxPos : undefined),
  },
};

const AFTER = {
  // _compute_yarn_parameters: attention_factor, else mscale(factor, mscale) / mscale(factor,
  // mscale_all_dim) when both are set, else mscale(factor): q and k carry it, so it must be a float
  yarn: (sc, { where }) => {
    let af = sc.attentionFactor;
    let afKey = 'attention_factor';
    if (af === undefined && sc.mscale && sc.mscaleAllDim) {
      af = yarnMscale(sc.factor, sc.mscale) / yarnMscale(sc.factor, sc.mscaleAllDim);
      afKey = Math.abs(yarnMscale(sc.factor, sc.mscale)) > FLT_MAX ? 'mscale' : 'mscale_all_dim';
    }
    if (af !== undefined && !(Number.isFinite(af) && Math.abs(af) <= FLT_MAX && af !== 0)) {
      throw perr(
        Status.E_RANGE,
        `${where}.${afKey} gives a YaRN attention factor of ${af} (modeling_rope_utils.py ` +
          `_compute_yarn_parameters), which must be a non-zero float32 (|x| <= ${FLT_MAX})`,
        `${where}.${afKey}`,
      );
    }
  },
};

/** The attention kind of every layer ('full_attention', 'sliding_attention', 'chunked_attention',
 * 'linear_attention', 'mamba'), from layer_types where the config class reads it, else the row's
 * rule (models.js `layers`, a key of LAYER_RULES). */
function layerKinds(row, r, layers) {
  const kinds = new Set(
    row.kinds ?? [
      ...LAYER_TYPES,
      ...(row.layers === 'qwen3_5' ? ['linear_attention'] : []),
      ...Object.keys(row.otherLayers ?? {}),
    ],
  );
  if (row.layerTypes && r.has('layer_types')) {
    const given = r.get('layer_types');
    if (!Array.isArray(given) || given.length !== layers || !given.every((t) => kinds.has(t))) {
      const names = [...kinds].map((t) => `'${t}'`).join(', ');
      const odd = Array.isArray(given) ? given.find((t) => !kinds.has(t)) : undefined;
      throw bad(
        r.key('layer_types'),
        `an array of num_hidden_layers = ${layers} entries from ${names}` +
          (odd !== undefined ? ` (${show(odd)} is not one ${row.config} reads)` : ''),
        given,
      );
    }
    return given;
  }
  const by = (f) => Array.from({ length: layers }, (_, i) => f(i));
  const slides = r.get('sliding_window') !== undefined;
  return (LAYER_RULES[row.layers] ?? LAYER_RULES.full)({ row, r, layers, by, all: (t) => by(() => t), slides });
}

/** The rules that give every layer the same kind, whatever the layer count. */
const UNIFORM_RULES = new Set(['full', 'sliding', 'qwen_all']);

/** models.js `layers` -> every layer's kind, as the config class computes layer_types. A rule gets
 * the row, the reader, the layer count, by(i => kind), all(kind) and whether sliding_window is set. */
const LAYER_RULES = {
  full: ({ all }) => all('full_attention'),
  // Mistral, Mixtral, Starcoder2, Phi-3: one window on every layer
  sliding: ({ all, slides }) => all(slides ? 'sliding_attention' : 'full_attention'),
  qwen2: ({ r, by, all, slides }) => {
    // Qwen2Config: sliding_window counts only with use_sliding_window; layers from max_window_layers slide
    if (!slides || !r.flag('use_sliding_window')) return all('full_attention');
    const m = r.number('max_window_layers', { int: true, gt: -1 }) ?? 0;
    return by((i) => (i >= m ? 'sliding_attention' : 'full_attention'));
  },
  qwen2_moe: ({ r, by, all }) => {
    // Qwen2MoeConfig.layer_types: with use_sliding_window, layers i < max_window_layers with (i + 1) % 2 slide
    if (!r.flag('use_sliding_window')) return all('full_attention');
    const m = r.number('max_window_layers', { int: true, gt: -1 }) ?? 0;
    return by((i) => ((i + 1) % 2 && i < m ? 'sliding_attention' : 'full_attention'));
  },
  // Qwen3MoeConfig: sliding_window counts only with use_sliding_window, then on every layer
  qwen_all: ({ r, all, slides }) =>
    all(slides && r.flag('use_sliding_window') ? 'sliding_attention' : 'full_attention'),
  // Gemma2Config.layer_types: even layers slide
  gemma2: ({ by }) => by((i) => (i % 2 ? 'full_attention' : 'sliding_attention')),
  // GptOssConfig.layer_types: (i + 1) % 2 slides
  alternate: ({ by }) => by((i) => ((i + 1) % 2 ? 'sliding_attention' : 'full_attention')),
  pattern: ({ row, r, by, all, slides }) => {
    // Gemma3TextConfig / Exaone4Config: every sliding_window_pattern-th layer full;
    // Exaone4Config sets the pattern to 0 when sliding_window is None, and then (i + 1) % 0 raises:
    // only a layer_types list (as the published files carry) says what the layers are
    if (row.nope === 'full_if_sliding' && !slides) {
      throw bad(
        r.key('sliding_window'),
        `a window, or layer_types given (${row.config} sets sliding_window_pattern = 0 for a None ` +
          'sliding_window and computes (i + 1) % 0, which fails)',
        null,
      );
    }
    const p = r.get('sliding_window_pattern');
    if (!Number.isInteger(p) || p < 1) {
      throw bad(
        r.key('sliding_window_pattern'),
        `a positive integer (${row.config} computes (i + 1) % sliding_window_pattern), or layer_types given`,
        p,
      );
    }
    return by((i) => ((i + 1) % p ? 'sliding_attention' : 'full_attention'));
  },
  llama4: ({ r, layers }) => {
    // Llama4TextConfig: RoPE layers attend in chunks, NoPE layers see everything
    const rope = noRopeLayers(r, layers);
    const chunk = r.get('attention_chunk_size');
    return rope.map((u) => (u && chunk ? 'chunked_attention' : 'full_attention'));
  },
  smollm3: ({ r, layers, slides }) => {
    // SmolLM3Config.layer_types: only NoPE layers slide, and only with use_sliding_window
    const rope = noRopeLayers(r, layers);
    const on = r.flag('use_sliding_window') && slides;
    return rope.map((u) => (on && !u ? 'sliding_attention' : 'full_attention'));
  },
  gpt_neo: ({ r, layers }) => {
    // GPTNeoConfig.expand_attention_types_params: [[kinds, n], ...] -> kinds repeated n times, one per layer
    const at = r.get('attention_types');
    const out = [];
    const ok =
      Array.isArray(at) &&
      at.every(
        (it) =>
          Array.isArray(it) &&
          it.length === 2 &&
          Array.isArray(it[0]) &&
          it[0].every((t) => t === 'global' || t === 'local') &&
          Number.isInteger(it[1]) &&
          it[1] >= 0 &&
          it[1] * it[0].length <= layers,
      );
    if (ok) for (const [kinds, n] of at) for (let i = 0; i < n; i++) out.push(...kinds);
    if (!ok || out.length !== layers) {
      throw bad(
        r.key('attention_types'),
        `[[['global' | 'local', ...], repeat], ...] expanding to num_layers = ${layers} layers (GPTNeoConfig)`,
        at,
      );
    }
    return out.map((t) => (t === 'local' ? 'sliding_attention' : 'full_attention'));
  },
  jamba: ({ r, by }) => {
    // JambaConfig.layers_block_type: attention where i % attn_layer_period == attn_layer_offset
    const period = r.number('attn_layer_period', { int: true, gt: 0 });
    const offset = r.number('attn_layer_offset', { int: true, gt: -1 });
    if (offset >= period) {
      throw bad(r.key('attn_layer_offset'), `smaller than attn_layer_period = ${period} (JambaConfig)`, offset);
    }
    return by((i) => (i % period === offset ? 'full_attention' : 'mamba'));
  },
  modernbert: ({ r, by }) => {
    // ModernBertAttention: layer_id % global_attn_every_n_layers != 0 is a local (sliding) layer
    const n = r.number('global_attn_every_n_layers', { int: true, gt: 0 });
    return by((i) => (i % n ? 'sliding_attention' : 'full_attention'));
  },
  lfm2: ({ r, by, all }) => {
    // Lfm2Config: layer_types, else full_attn_idxs (None: every layer attends), the rest 'conv'
    const idx = r.get('full_attn_idxs');
    if (idx === undefined) return all('full_attention');
    if (!Array.isArray(idx) || !idx.every((i) => Number.isInteger(i))) {
      throw bad(r.key('full_attn_idxs'), 'an array of layer indices (Lfm2Config)', idx);
    }
    return by((i) => (idx.includes(i) ? 'full_attention' : 'conv'));
  },
  qwen3_5: ({ r, by }) => {
    // Qwen3_5TextConfig: every full_attention_interval-th layer is softmax attention
    const every = r.number('full_attention_interval', { int: true, gt: 0 }) ?? 4;
    return by((i) => ((i + 1) % every ? 'linear_attention' : 'full_attention'));
  },
};

/** 1 = the layer rotates: no_rope_layers (Llama4TextConfig, SmolLM3Config), else every
 * no_rope_layer_interval-th layer (default 4) is NoPE. */
function noRopeLayers(r, layers) {
  const given = r.get('no_rope_layers');
  if (Array.isArray(given) && given.length) {
    // SmolLM3Config: "at least the same length as the number of layers"
    // use_rope = no_rope_layers[layer_idx], tested with `if`: any number or boolean, by its truth value
    if (given.length < layers || !given.every((v) => typeof v === 'number' || typeof v === 'boolean')) {
      throw bad(
        r.key('no_rope_layers'),
        `an array of at least num_hidden_layers = ${layers} numbers or booleans (0 / false: no RoPE)`,
        given,
      );
    }
    return given.slice(0, layers).map(truthy);
  }
  const every = r.number('no_rope_layer_interval', { int: true, gt: 0 }) ?? 4;
  return Array.from({ length: layers }, (_, i) => (i + 1) % every !== 0);
}

/** A per-query scale as a function of the query's absolute position, with its formula. */
function queryScaleFn(formula, f) {
  return Object.defineProperty(f, 'formula', { value: formula, enumerable: true });
}

/** The row of a config: its model_type, a multimodal wrapper's text_config, or `as`. */
function resolve(config, as, notes, source, tower) {
  const { row, modelType } = mappedRow(config, as, notes, source);
  const text = config.text_config;
  if (tower !== undefined && tower !== 'text' && tower !== 'vision') {
    throw bad('tower', "'text' or 'vision' (a dual-tower config's text_config or vision_config)", tower);
  }
  // a dual-tower config has both; a tower's own config is that tower
  if (tower === 'vision' && !row.vision && !row.patches) {
    throw bad('tower', `'text' or omitted: ${show(modelType)} has no vision tower fromConfig maps`, tower);
  }
  if (tower === 'text' && row.patches) {
    throw bad('tower', `'vision' or omitted: ${show(modelType)} is a vision tower`, tower);
  }
  if (row.family === 'wrapper') return wrappedText(config, row, notes, source, tower);
  if (isObj(text) && typeof text.model_type === 'string' && Object.hasOwn(MODELS, text.model_type)) {
    // a text config nested under a type that is itself a text model (a converted copy): its keys
    source.text_config = '(read from text_config)';
    const tt = text.model_type;
    if (MODELS[tt].family !== 'wrapper') return { row: MODELS[tt], modelType: tt, c: text, prefix: 'text_config.' };
  }
  return { row, modelType, c: config, prefix: '' };
}

/** The row model_type names (or text_config.model_type when the top level has none), else `as`'s. */
function mappedRow(config, as, notes, source) {
  const root = reader(config, source);
  const text = config.text_config;
  let modelType = root.get('model_type');
  let where = 'model_type';
  if (modelType === undefined && isObj(text) && typeof text.model_type === 'string') {
    modelType = text.model_type;
    where = 'text_config.model_type';
  }
  if (typeof modelType !== 'string') {
    throw bad('model_type', 'a string (every config.json names its model type)', modelType);
  }
  if (as !== undefined && (typeof as !== 'string' || !Object.hasOwn(MODELS, as))) {
    const near = typeof as === 'string' ? ` (closest: ${closestTypes(as).join(', ')})` : '';
    throw perr(Status.E_ENUM, `as must be a model type fromConfig maps${near} (got ${show(as)})`, 'as');
  }
  let row = Object.hasOwn(MODELS, modelType) ? MODELS[modelType] : undefined;
  if (!row && Object.hasOwn(UNVERIFIED, modelType)) {
    throw perr(
      Status.E_ENUM,
      `${where} ${show(modelType)} is not mapped: no published config.json of it could be found to verify a ` +
        `row against (${UNVERIFIED[modelType]}), and posenc does not guess, with or without as`,
      where,
    );
  }
  if (!row && Object.hasOwn(REFUSED, modelType)) {
    // refused even with `as`: no mapped row computes these positions
    throw perr(
      Status.E_ENUM,
      `${where} ${show(modelType)}: its positions are ${REFUSED[modelType]}, which posenc does not model`,
      where,
    );
  }
  if (!row) {
    if (as === undefined) {
      const near = closestTypes(modelType)
        .map((t) => `'${t}'`)
        .join(', ');
      throw perr(
        Status.E_ENUM,
        `${where} ${show(modelType)} is not a model type fromConfig maps (closest: ${near}). ` +
          'Its Hugging Face code decides the positions, and posenc does not guess them: if that code does ' +
          "exactly what a mapped type's does, say so with fromConfig(config, { as: 'llama' }) (the result's " +
          'notes record the assumption); families/config/models.md lists the mapped types',
        where,
      );
    }
    row = MODELS[as];
    notes.push(
      `model_type ${show(modelType)} is not mapped; read as '${as}' because fromConfig's as option said so ` +
        `(${row.hf}): the result is right only if the model's code does what that file does`,
    );
    modelType = as;
  } else if (as !== undefined && as !== modelType) {
    notes.push(`as '${as}' is not used: model_type ${show(modelType)} is mapped, and its own row applies`);
  }
  return { row, modelType };
}

/** A multimodal config: the text model's own config class reads text_config. */
function wrappedText(config, row, notes, source, tower) {
  const part = tower === 'vision' ? 'vision_config' : 'text_config';
  const text = config[part];
  if (text !== undefined && text !== null && !isObj(text)) {
    throw bad(part, `an object (${row.config} reads the ${tower ?? 'text'} model's config from it)`, text);
  }
  if (tower === 'vision') return visionTower(config, row, notes, source);
  if (row.vision) notes.push(`${row.config}: text tower (text_config); { tower: 'vision' } reads vision_config`);
  let c = isObj(text) ? text : {};
  let prefix = 'text_config.';
  if (!isObj(text) && row.fromRoot) {
    // the config class builds its text config from the top-level keys (an older flat file)
    c = config;
    prefix = '';
    notes.push(`no text_config: ${row.config} builds its text model from the top-level keys`);
  } else if (!isObj(text)) {
    if (row.textDefaults) c = { ...row.textDefaults };
    notes.push(
      `no text_config: ${row.config} builds its text model from ` +
        (row.textDefaults ? `its own values (${JSON.stringify(row.textDefaults)})` : 'the defaults'),
    );
  }
  if (row.nullTextType && c !== config && Object.hasOwn(c, 'model_type') && c.model_type === null) {
    // LlavaNextConfig: text_config["model_type"] (present, None) picks CONFIG_MAPPING[None]: a KeyError
    throw bad('text_config.model_type', `a model type name or absent (${row.config} looks None up and fails)`, null);
  }
  const given = c === config ? undefined : c.model_type;
  if (row.fixedText && given !== undefined && given !== row.text) {
    notes.push(
      `text_config.model_type ${show(given)} is not read: ${row.config} builds its text model with its own ` +
        `text class ('${row.text}', sub_configs["text_config"]), whatever the key says`,
    );
  }
  const tt = row.fixedText ? row.text : (given ?? row.text);
  if (typeof tt !== 'string' || !Object.hasOwn(MODELS, tt) || MODELS[tt].family === 'wrapper') {
    throw perr(
      Status.E_ENUM,
      `text_config.model_type ${show(tt)} is not a text model type fromConfig maps ` +
        `(closest: ${closestTypes(String(tt), 3, (t) => MODELS[t].family !== 'wrapper').join(', ')}; ` +
        `${row.config}'s own text model is '${row.text}')`,
      'text_config.model_type',
    );
  }
  source.text_config = '(read from text_config)';
  return { row: MODELS[tt], modelType: tt, c, prefix };
}

/** A dual-tower config's vision_config (CLIPConfig, SiglipConfig): its own class, whose defaults
 * apply when the file has none. */
function visionTower(config, row, notes, source) {
  const v = config.vision_config;
  // CLIPConfig / SiglipConfig: vision_config becomes CLIPVisionConfig(**vision_config), its model_type unread
  if (isObj(v) && v.model_type !== undefined && v.model_type !== row.vision) {
    notes.push(
      `vision_config.model_type ${show(v.model_type)} is not read: ${row.config} builds its vision model ` +
        `with its own vision class ('${row.vision}'), whatever the key says`,
    );
  }
  const vt = row.vision;
  if (!isObj(v)) notes.push(`no vision_config: ${row.config} builds its vision model from the defaults`);
  source.vision_config = '(read from vision_config)';
  return { row: MODELS[vt], modelType: vt, c: isObj(v) ? v : {}, prefix: 'vision_config.' };
}

/**
 * The positional scheme of one layer of a Hugging Face model.
 * @param {object} config the parsed config.json (a multimodal wrapper's text_config is read)
 * @param {{ layer?: number, decoder?: boolean, as?: string }} [opts] layer index; decoder: T5's
 *   decoder stack; as: read an unmapped model_type as this mapped one (recorded in notes)
 */
export function fromConfig(config, opts) {
  return build(config, opts, null);
}

function build(config, opts, core) {
  const o = options(FN, opts, ['layer', 'decoder', 'as', 'tower']);
  config = plainConfig(config);
  const source = {};
  const notes = [];
  const { row, modelType, c, prefix } = resolve(config, o.as, notes, source, o.tower);
  const defaults = {};
  // a row's own None-failing keys (models.js `nullFails`: head_dim where the class has no None fallback)
  const nullFails = row.nullFails ? new Set([...NULL_FAILS, ...row.nullFails]) : NULL_FAILS;
  const r = reader(c, source, prefix, row.defaults, defaults, nullFails);
  const decoder = bool(FN, 'decoder', o.decoder, false);
  // an encoder-decoder's stack (models.js `stacks`): its layer count, heads and table
  const stack = row.stacks?.[decoder ? 'decoder' : 'encoder'];
  const { layers, layer } = layerIndex(row, r, decoder, o.layer, stack);
  const sizes = headSizes(r, modelType, c, source, prefix, stack?.heads, row.hiddenOnly);
  const { heads, kvHeads, dim } = sizes;
  const attention = { heads, kvHeads, dim, scale: 1 / Math.sqrt(dim) };
  const result = { model: modelType, layer, layers, family: 'none', attention, notes, source, defaults };
  const x = {
    result,
    row,
    r,
    c,
    prefix,
    mt: modelType,
    layer,
    layers,
    decoder,
    ...sizes,
    attention,
    notes,
    source,
    core,
    stack,
  };
  x.origin = {}; // posenc option path -> the config key it came from, for messages
  softmaxScale(x);
  // each step settles the layer (returns true) or leaves it to the next
  if (stack) result.stack = decoder ? 'decoder' : 'encoder';
  for (const step of [
    t5Layer,
    attentionKind,
    sinusoidalLayer,
    learnedLayer,
    jambaLayer,
    alibiLayer,
    nopeLayer,
    ropeLayer,
  ]) {
    if (step(x)) break;
  }
  checkKeys(row, c, prefix, notes, source, layer);
  if (c !== config) outerKeys(config, notes);
  const used = Object.entries(defaults);
  if (used.length) {
    notes.push(
      `${row.config} defaults for keys the config omits: ` +
        used.map(([k, v]) => `${k} = ${typeof v === 'object' ? JSON.stringify(v) : v}`).join(', '),
    );
  }
  return result;
}

function plainConfig(config) {
  try {
    notPromise(FN, 'config', config); // a fetch(...).then(r => r.json()) not awaited
  } catch (e) {
    // a prototype that cannot be read (a revoked Proxy): the JSON reading below refuses it
    if (e.cause === undefined) throw e;
  }
  if (config === null || typeof config !== 'object') throw bad('config', 'the parsed config.json object', config);
  try {
    // one read of everything (a getter runs here, once); what follows sees plain JSON data.
    // JSON.stringify writes NaN and ±Infinity as null (None): refused here, naming the key
    // (each object remembers its holder and key: the path is built only for a refusal)
    const parents = new WeakMap();
    config = JSON.parse(
      JSON.stringify(config, function (k, v) {
        if (typeof v === 'number' && !Number.isFinite(v)) {
          throw bad(pathOf(parents, this, k), 'a finite number (JSON has no NaN or Infinity)', v);
        }
        // JSON.stringify would drop a function or symbol (the key read as omitted: its default)
        if (typeof v === 'function' || typeof v === 'symbol' || typeof v === 'bigint') {
          throw bad(pathOf(parents, this, k), 'JSON data: a number, string, boolean, null, array or object', v);
        }
        if (v !== null && typeof v === 'object') parents.set(v, [this, k]);
        return v;
      }),
    );
  } catch (e) {
    if (e instanceof PosencError) throw e;
    throw perr(
      Status.E_PARAM,
      `config must be JSON data, the parsed config.json ` +
        `(reading it threw ${e instanceof Error ? `${e.name}: ${e.message}` : show(e)})`,
      'config',
    );
  }
  if (!isObj(config)) throw bad('config', 'the parsed config.json object', config);
  return config;
}

/** The path of key k of holder (rope_scaling.factor, layer_types[1]) from JSON.stringify's walk;
 * the root is the holder under the key ''. */
function pathOf(parents, holder, k) {
  let path = '';
  for (let h = holder, key = k; parents.has(h); [h, key] = parents.get(h)) {
    path = Array.isArray(h) ? `[${key}]${path}` : `.${key}${path}`;
  }
  return path.replace(/^\./, '');
}

/** The layer count (T5: of the stack asked for) and the layer index the options ask for. */
function layerIndex(row, r, decoder, asked, stack) {
  const layersKey = row.family === 't5' ? (decoder ? 'num_decoder_layers' : 'num_layers') : (stack?.layers ?? null);
  const L = { int: true, gt: 0, max: 2 ** 16 };
  const layers =
    (layersKey ? (r.number(layersKey, L) ?? r.number('num_layers', L)) : undefined) ??
    r.number('num_hidden_layers', L) ??
    r.number('n_layer', L) ??
    r.number('num_layers', L) ??
    r.number('n_layers', L);
  const layer = int(FN, 'layer', asked, { min: 0, max: layers !== undefined ? layers - 1 : 2 ** 20, def: 0 });
  return { layers, layer };
}

// The attention classes that size a head hidden_size // num_attention_heads and read no head_dim key:
// GPT2Attention, GPTBigCodeAttention, GPTNeoSelfAttention, OPTAttention, BertSelfAttention (RoBERTa's,
// XLM-R's, MPNetSelfAttention), DistilBERT's MultiHeadSelfAttention, BloomAttention, MptAttention,
// GPTJAttention / CodeGenAttention (rotary_dim sizes the rotation) and the remote code of Baichuan,
// InternLM2 and MiniCPM
const HEAD_DIM_UNREAD = new Set([
  'gpt2',
  'gpt_bigcode',
  'gpt_neo',
  'opt',
  'bert',
  'roberta',
  'xlm-roberta',
  'mpnet',
  'distilbert',
  'bloom',
  'mpt',
  'gptj',
  'codegen',
  'baichuan',
  'internlm2',
  'minicpm',
]);
// StableLmAttention, GPTNeoXAttention, FalconAttention: hidden_size // num_attention_heads, while
// modeling_rope_utils.py _compute_default_rope_parameters sizes the rotation by getattr(config,
// 'head_dim', None) or hidden // heads; FalconConfig.head_dim is a read-only property (a head_dim key
// fails to load); Qwen's remote QWenAttention splits heads hidden_size // num_heads and rotates
// kv_channels · rotary_pct: a width key that disagrees gives two widths, refused as OLMoE's is
const HEAD_DIM_TWICE = new Set(['stablelm', 'gpt_neox', 'falcon', 'qwen']);
// head_dim None, kept: GemmaConfig, Gemma2Config, Gemma3TextConfig, Qwen3Config and Qwen3MoeConfig store
// head_dim as given; Qwen2Config, Qwen2MoeConfig, Phi3Config, PhiConfig, Olmo2Config, GraniteConfig,
// CohereConfig and Starcoder2Config have no head_dim parameter, so PretrainedConfig sets it to None and
// the attention's getattr(config, 'head_dim', hidden // heads) returns that None (LlamaConfig and
// MistralConfig turn None into hidden_size // num_attention_heads)
const HEAD_DIM_NONE_KEPT = new Set([
  'gemma',
  'gemma2',
  'gemma3_text',
  'qwen3',
  'qwen3_moe',
  'qwen2',
  'qwen2_moe',
  'phi3',
  'phi',
  'olmo2',
  'granite',
  'cohere',
  'starcoder2',
]);
const GEMMA_TYPES = new Set(['gemma', 'gemma2', 'gemma3_text']);
// The key that sizes a head where it is not head_dim: ChatGLM's SelfAttention and Qwen's rotary
// (kv_channels), T5Attention and its family (key_value_proj_dim = d_kv)
const HEAD_KEY = {
  chatglm: 'kv_channels',
  qwen: 'kv_channels',
  t5: 'd_kv',
  mt5: 'd_kv',
  umt5: 'd_kv',
  longt5: 'd_kv',
  switch_transformers: 'd_kv',
};

/** Heads, hidden size, head width (dimKey: its key) and key-value heads, under each family's names. */
function headSizes(r, mt, c, source, prefix, headsKey, hiddenOnly = false) {
  const heads =
    (headsKey ? r.number(headsKey, { int: true, gt: 0 }) : undefined) ??
    r.number('num_attention_heads', { int: true, gt: 0 }) ??
    r.number('n_head', { int: true, gt: 0 }) ??
    r.number('num_heads', { int: true, gt: 0 }) ??
    r.number('n_heads', { int: true, gt: 0 });
  if (heads === undefined) {
    throw perr(
      Status.E_MISSING,
      `${r.key(headsKey ?? 'num_attention_heads')} (or n_head) is required`,
      r.key(headsKey ?? 'num_attention_heads'),
    );
  }
  // DistilBertConfig: dim
  const hiddenKeys = ['hidden_size', 'n_embd', 'd_model', 'n_embed', ...(mt === 'distilbert' ? ['dim'] : [])];
  const hiddenKey = r.key(hiddenKeys.find((k) => r.has(k)) ?? 'hidden_size');
  let hidden;
  for (const k of hiddenKeys) hidden ??= r.number(k, { int: true, gt: 0 });
  // JambaAttention, WhisperAttention, CLIPAttention... (HEAD_DIM_UNREAD): embed_dim // num_heads,
  // whatever head_dim says; only ChatGLM reads kv_channels and only the T5 family d_kv (HEAD_KEY)
  const headKey = mt === 'jamba' || hiddenOnly || HEAD_DIM_UNREAD.has(mt) ? undefined : (HEAD_KEY[mt] ?? 'head_dim');
  let dimKey = r.key(headKey ?? 'head_dim');
  if (headKey === 'head_dim' && r.raw('head_dim') === null && HEAD_DIM_NONE_KEPT.has(mt)) {
    throw bad(
      r.key('head_dim'),
      `an integer > 0: ${MODELS[mt].config} keeps None and the attention sizes its heads by it`,
      null,
    );
  }
  let dim = headKey && r.number(headKey, { int: true, gt: 0 });
  if (dim === undefined) {
    if (hidden === undefined) {
      throw perr(Status.E_MISSING, `${r.key('head_dim')} or ${hiddenKey} is required`, r.key('head_dim'));
    }
    const headsName = r.key(
      [headsKey, 'num_attention_heads', 'n_head', 'num_heads', 'n_heads'].find((k) => k && r.has(k)) ??
        'num_attention_heads',
    );
    if (hidden % heads) {
      throw bad(hiddenKey, `a multiple of ${headsName} = ${heads}${hiddenOnly ? '' : ' (no head_dim given)'}`, hidden);
    }
    dim = hidden / heads;
    dimKey = `${hiddenKey} / ${headsName}`;
  } else if (
    (MODELS[mt]?.headDimFromHidden || HEAD_DIM_TWICE.has(mt)) &&
    hidden !== undefined &&
    dim * heads !== hidden
  ) {
    // OlmoeAttention sizes its heads hidden_size // num_attention_heads while its rotary embedding
    // reads head_dim: a head_dim that disagrees gives two widths, and posenc does not pick one
    throw bad(dimKey, `hidden_size / num_attention_heads (${MODELS[mt].hf})`, dim);
  }
  if (heads * dim > MAX_WIDTH) {
    // attention and kvCache hold queries · heads · head width floats: a wider layer fits no call
    throw bad(
      dimKey.split(' ')[0],
      `such that num_attention_heads · head width <= ${MAX_WIDTH} (posenc's attention sizes; got ${heads} · ${dim})`,
      dim,
    );
  }
  return { heads, hidden, dim, dimKey, kvHeads: kvHeadCount(r, mt, c, source, prefix, heads) };
}

/** Key-value heads: num_key_value_heads, or the family's own keys (Falcon, ChatGLM, MPT). */
function kvHeadCount(r, mt, c, source, prefix, heads) {
  if (r.raw('num_key_value_heads') === null && GEMMA_TYPES.has(mt)) {
    // GemmaConfig / Gemma2Config / Gemma3TextConfig store it as given (v5: an int field): the attention
    // divides num_attention_heads by None
    throw bad(r.key('num_key_value_heads'), `an integer > 0: ${MODELS[mt].config} keeps None`, null);
  }
  // a row that ignores num_key_value_heads (Baichuan's W_pack: one K/V head per head) keeps the heads
  const unread = MODELS[mt]?.ignores && Object.hasOwn(MODELS[mt].ignores, 'num_key_value_heads');
  let kvHeads = unread ? undefined : r.number('num_key_value_heads', { int: true, gt: 0 });
  let kvKey = 'num_key_value_heads';
  if (mt === 'falcon') {
    // FalconAttention: num_kv_heads if (new_decoder_architecture or not multi_query) else 1;
    // FalconConfig: num_kv_heads None -> num_attention_heads
    kvHeads =
      r.flag('new_decoder_architecture') || !r.flag('multi_query')
        ? (r.number('num_kv_heads', { int: true, gt: 0 }) ?? r.number('n_head_kv', { int: true, gt: 0 }) ?? heads)
        : 1;
  } else if (mt === 'phi-msft') {
    // remote _find_mha_dims: n_head_kv = getattr(config, "n_head_kv", None) or n_head
    kvHeads = r.flag('n_head_kv') ? r.number('n_head_kv', { int: true, gt: 0 }) : heads;
    kvKey = 'n_head_kv';
  } else if (mt === 'gpt_bigcode') {
    kvHeads = r.flag('multi_query') ? 1 : heads; // GPTBigCodeAttention: kv_heads = 1 if multi_query
  } else if (mt === 'chatglm') {
    if (r.flag('multi_query_attention')) {
      kvHeads = r.number('multi_query_group_num', { int: true, gt: 0 });
      kvKey = 'multi_query_group_num';
    }
  } else if (mt === 'mpt') {
    // MptAttention (transformers) has no KV grouping: kv_n_heads is the checkpoint's remote code's
    const ac = isObj(c.attn_config) ? reader(c.attn_config, source, `${prefix}attn_config.`) : null;
    const kv = ac?.number('kv_n_heads', { int: true, gt: 0 });
    if (kv !== undefined && kv !== heads) {
      throw bad(
        `${prefix}attn_config.kv_n_heads`,
        `n_heads = ${heads} (transformers' MptAttention has one K/V head per query head; grouped K/V ` +
          'heads are the remote code of the checkpoint, which posenc does not map)',
        kv,
      );
    }
  }
  kvHeads ??= heads;
  if (heads % kvHeads) {
    throw bad(r.key(kvKey), `a divisor of num_attention_heads = ${heads}`, kvHeads);
  }
  return kvHeads;
}

/** The softmax scale (models.js `scale`), and notes on scale keys posenc does not apply. */
function softmaxScale({ row, r, layer, attention, notes }) {
  if (row.scale === 'attention_multiplier') {
    // GraniteAttention: self.scaling = config.attention_multiplier
    attention.scale = r.number('attention_multiplier', { gt: 0, max: F32_MAX });
  } else if (row.scale === 'query_pre_attn_scalar') {
    // Gemma2/3Attention: scaling = query_pre_attn_scalar ** -0.5 (attention takes a float32 scale)
    attention.scale = 1 / Math.sqrt(r.number('query_pre_attn_scalar', { gt: 0 }));
    if (!(attention.scale <= F32_MAX)) {
      throw bad(
        r.key('query_pre_attn_scalar'),
        'a number whose ** -0.5 is a float32 scale',
        r.get('query_pre_attn_scalar'),
      );
    }
  } else if (row.scale === 'one') {
    // T5 folds 1/sqrt(d) into the initialisation; GPTNeoSelfAttention._attn takes raw q·kᵀ
    attention.scale = 1;
  } else if (row.scale === 'gpt2' || row.scale === 'bigcode') {
    // GPT2Attention / GPTBigCodeAttention: `if self.scale_attn_weights:` divide by sqrt(head_dim);
    // GPT-2 alone reads scale_attn_by_inverse_layer_idx (GPTBigCode's layer_idx unscale cancels)
    if (!r.flag('scale_attn_weights')) attention.scale = 1;
    if (row.scale === 'gpt2' && r.flag('scale_attn_by_inverse_layer_idx')) attention.scale /= layer + 1;
  }
  if (r.has('attention_multiplier') && row.scale !== 'attention_multiplier') {
    notes.push(
      `${r.key('attention_multiplier')} is read only by Granite's attention; ${row.hf} does not read it: ignored`,
    );
  }
  const cap = r.get('attn_logit_softcapping');
  if (cap) {
    notes.push(
      `attn_logit_softcapping ${cap}: ${row.config} caps logits with cap·tanh(logit/cap); posenc's attention does not`,
    );
  }
}

/** T5: relative buckets (modeling_t5.py T5Attention._relative_position_bucket). */
function t5Layer(x) {
  const { result, row, r, mt, layer, decoder, notes } = x;
  if (row.family !== 't5') return false;
  if (row.mpnet) return mpnetLayer(x);
  if (mt === 'longt5' && !decoder) {
    // LongT5Block: the encoder's self-attention is LongT5LocalAttention or
    // LongT5TransientGlobalAttention (encoder_attention_type, default 'local'): blocks of local_radius
    // plus transient global tokens, which posenc does not model; the decoder is plain T5 attention
    const t = r.get('encoder_attention_type') ?? 'local';
    throw perr(
      Status.E_PARAM,
      `${r.key('encoder_attention_type')} ${show(t)}: the LongT5 encoder attends within local_radius blocks` +
        `${t === 'transient-global' ? ' plus transient global tokens' : ''} (modeling_longt5.py ` +
        'LongT5LocalAttention / LongT5TransientGlobalAttention), which posenc does not model; ' +
        '{ decoder: true } maps the decoder, whose self-attention is full T5 attention',
      r.key('encoder_attention_type'),
    );
  }
  const numBuckets = r.number('relative_attention_num_buckets', { int: true, gt: 0 });
  const maxDistance = r.number('relative_attention_max_distance', { int: true, gt: 0 });
  // the encoder's self-attention is bidirectional, the decoder's causal (T5Attention.is_decoder)
  let t5;
  try {
    t5 = ENCODINGS.t5.parse({ numBuckets, maxDistance }, { fn: FN, causal: decoder });
  } catch (e) {
    const why = e.message.replace(/^posenc\.fromConfig: /, '');
    throw perr(
      e.code,
      `${r.key('relative_attention_num_buckets')} / relative_attention_max_distance: ${why}`,
      r.key('relative_attention_max_distance'),
    );
  }
  result.family = 't5';
  result.t5 = { numBuckets: t5.numBuckets, maxDistance: t5.maxDistance, bidirectional: t5.bidirectional };
  result.stack = decoder ? 'decoder' : 'encoder';
  result.encoding = { type: 't5', ...result.t5 };
  if (mt !== 'umt5' && layer > 0) {
    notes.push('T5 computes the bias in layer 0 of each stack and every layer reuses it (has_relative_attention_bias)');
  }
  return true;
}

/** MPNet (modeling_mpnet.py): a learned table from padding_idx + 1 (MPNetEmbeddings.padding_idx
 * = 1, whatever pad_token_id says) and a T5 bucket bias that MPNetEncoder computes once
 * (compute_position_bias(x): num_buckets = 32, relative_position_bucket: max_distance = 128) and
 * every layer adds to q·kᵀ / √d. */
function mpnetLayer({ result, row, r, layer, decoder, notes }) {
  if (decoder) throw bad('decoder', `false: ${row.config} is an encoder, it has no decoder stack`, true);
  const n = r.number('relative_attention_num_buckets', { int: true, gt: 0 });
  if (n !== 32) {
    throw bad(
      r.key('relative_attention_num_buckets'),
      '32: MPNetEncoder.compute_position_bias buckets into 32 whatever the key says, so its bias table must have 32 rows',
      n ?? null,
    );
  }
  const rows = r.number('max_position_embeddings', { int: true, gt: 2 });
  if (rows === undefined)
    throw perr(Status.E_MISSING, 'max_position_embeddings is required', r.key('max_position_embeddings'));
  result.family = 't5';
  result.t5 = { numBuckets: 32, maxDistance: 128, bidirectional: true };
  result.stack = 'encoder';
  result.encoding = { type: 't5', ...result.t5 };
  result.learned = { rows, offset: 2 };
  notes.push(
    'MPNet adds a learned table to the tokens (learned: positions from row 2, padding_idx + 1) and a T5 bucket bias to ' +
      'every layer (t5: one relative_attention_bias table of 32 × heads, computed once in MPNetEncoder)' +
      (layer > 0 ? '; this layer reuses it' : ''),
  );
  return true;
}

/** Learned absolute tables: the row count and the offset positions start at. */
function learnedLayer(x) {
  const { result, row, r } = x;
  if (row.family !== 'learned') return false;
  const pet = r.get('position_embedding_type');
  if (row.absolute && pet !== undefined && pet !== 'absolute') {
    throw perr(
      Status.E_PARAM,
      `${r.key('position_embedding_type')} ${show(pet)} is not mapped by posenc ` +
        `(only 'absolute', a learned table; ${row.hf} reads it)`,
      r.key('position_embedding_type'),
    );
  }
  const keys = x.stack ? [x.stack.rows] : (row.rows ?? []);
  let rows = row.patches ? patchRows(x) : undefined;
  for (const k of keys) rows ??= r.number(k, { int: true, gt: 0 });
  if (rows === undefined) throw perr(Status.E_MISSING, `${keys.join(' or ')} is required`, r.key(keys[0]));
  let offset = row.offset ?? 0;
  if (row.padOffset) offset = (r.number('pad_token_id', { int: true, gt: -1 }) ?? 1) + 1;
  if (x.mt === 'distilbert' && r.flag('sinusoidal_pos_embds')) {
    x.notes.push(
      'sinusoidal_pos_embds: the table rows are fixed sinusoids (create_sinusoidal_embeddings), looked up by position',
    );
  }
  result.family = 'learned';
  result.learned = offset ? { rows: rows + (row.offset ?? 0), offset } : { rows };
  result.encoding = { type: 'none' };
  towerNotes(x);
  return true;
}

/** A vision tower's table (CLIPVisionEmbeddings / SiglipVisionEmbeddings): (image_size //
 * patch_size)² patch rows, plus the class token's row for CLIP. */
function patchRows({ row, r }) {
  const image = r.number('image_size', { int: true, gt: 0 });
  const patch = r.number('patch_size', { int: true, gt: 0 });
  const side = Math.floor(image / patch);
  if (side < 1 || side * side + row.patches.cls > 2 ** 31 - 1) {
    throw bad(r.key('image_size'), `at least patch_size = ${patch} and at most 46340 patches a side`, image);
  }
  return side * side + row.patches.cls;
}

/** What an encoder, a decoder stack or a vision tower does that the result's fields do not say. */
function towerNotes({ row, r, stack, notes }) {
  if (row.patches) {
    notes.push(
      `row i of the table is ${row.patches.cls ? 'the class token (i = 0), then ' : ''}patch ` +
        `${row.patches.cls ? 'i - 1' : 'i'} in row-major order; ${row.config.replace('Config', 'Embeddings')} ` +
        'resamples the table bicubically when interpolate_pos_encoding is passed at run time (not modelled)',
    );
  }
  if (row.causal) notes.push(`${row.hf.split(' ')[0]}: the text model attends causally (a causal mask)`);
  else if (stack) {
    notes.push(
      stack === row.stacks.decoder
        ? 'the decoder self-attention is causal; its cross-attention sees the encoder output without positions'
        : 'the encoder self-attention is bidirectional (no mask)',
    );
  }
  if (stack && r.flag('scale_embedding')) {
    notes.push(
      `scale_embedding: the token embeddings are multiplied by sqrt(${r.key('d_model')}) before the positions are added`,
    );
  }
}

/** Whisper's encoder: a fixed sinusoid table (modeling_whisper.py sinusoids(), which
 * WhisperPreTrainedModel._init_weights copies into embed_positions), added to the tokens. */
function sinusoidalLayer({ result, row, r, stack, hidden }) {
  if (stack?.table !== 'sinusoidal') return false;
  const rows = r.number(stack.rows, { int: true, gt: 0 });
  // sinusoids(): channels % 2 raises, and channels // 2 - 1 = 0 divides by zero
  if (hidden === undefined || hidden % 2 || hidden < 4) {
    throw bad(r.key('d_model'), 'an even integer >= 4 (sinusoids() divides log(10000) by d_model / 2 - 1)', hidden);
  }
  result.family = 'sinusoidal';
  result.sinusoidal = { dim: hidden, base: 10000, layout: 'split', spacing: 't2t' };
  result.rows = rows;
  result.encoding = { type: 'none' };
  towerNotes({ row, r, stack, notes: result.notes });
  result.notes.push(
    `the encoder adds all ${r.key(stack.rows)} = ${rows} rows: WhisperEncoder requires input features of exactly that many positions after its stride-2 convolution`,
  );
  return true;
}

/** The layer's kind: attention with or without positions (its window or chunk), or no attention at
 * all (settled here). Sets x.kind for the steps after it. */
function attentionKind(x) {
  const { result, row, r, layer, layers, attention } = x;
  if (layers === undefined && !UNIFORM_RULES.has(row.layers ?? 'full')) {
    // the config class builds layer_types from num_hidden_layers: without it (and without a class
    // default in models.js) no layer's kind is known
    throw perr(
      Status.E_MISSING,
      `${r.key('num_hidden_layers')} is required: ${row.config} decides each layer's kind from the layer count`,
      r.key('num_hidden_layers'),
    );
  }
  const kind = layerKinds(row, r, layers ?? layer + 1)[layer];
  x.kind = kind;
  result.layerType = kind;
  const other = row.otherLayers && Object.hasOwn(row.otherLayers, kind) ? row.otherLayers[kind] : undefined;
  if (kind === 'mamba' || kind === 'linear_attention' || other) {
    result.family = 'none';
    result.attention = null;
    result.encoding = null;
    result.reason =
      kind === 'mamba'
        ? `layer ${layer} is a Mamba layer (${row.config}.layers_block_type): no attention and no positions`
        : kind === 'linear_attention'
          ? `layer ${layer} is a linear_attention layer (Gated DeltaNet, ${row.config}.layer_types): no softmax attention and no positions`
          : `layer ${layer} is a '${kind}' layer (${other}): no attention and no positions`;
    return true;
  }
  // Gemma / Gemma3TextConfig: `if self.use_bidirectional_attention:` no causal mask, and Gemma 3's
  // sliding_window = sliding_window // 2 + 1 (keys with |p - j| < it, as ModernBERT's)
  const bidi = row.bidirectionalKey && r.flag('use_bidirectional_attention');
  if (bidi) x.notes.push(`use_bidirectional_attention: ${row.config} attends both ways (attention with causal: false)`);
  if (kind === 'sliding_attention' && (!row.useSliding || r.flag('use_sliding_window'))) {
    const w = r.number(row.windowKey ?? 'sliding_window', { int: true, gt: 0 });
    if (w === undefined && !row.windowKey) {
      // masking_utils.py create_sliding_window_causal_mask: "Could not find a `sliding_window`
      // argument in the config, or it is not set" (a ValueError) for a sliding layer with None
      throw bad(r.key('sliding_window'), `an integer > 0: layer ${layer} is a sliding_attention layer`, null);
    }
    // ModernBERT: keys with |p - j| <= local_attention // 2, i.e. posenc's bidirectional window + 1
    if (w !== undefined) attention.window = row.halfWindow || bidi ? Math.floor(w / 2) + 1 : w;
  } else if (kind === 'chunked_attention') {
    attention.chunk = r.number('attention_chunk_size', { int: true, gt: 0 });
  }
  return false;
}

// no positional encoding: Jamba
function jambaLayer({ result, row, r }) {
  if (row.family !== 'none') return false;
  if (r.has('sliding_window')) {
    // modeling_jamba.py passes sliding_window to flash attention only; eager and sdpa attend fully
    throw perr(
      Status.E_PARAM,
      `${r.key('sliding_window')} = ${show(r.get('sliding_window'))}: modeling_jamba.py applies it only under ` +
        'flash attention (JambaFlashAttention2), so what the layer sees depends on the attention backend; ' +
        'posenc does not map it (set it to null for the eager / sdpa model)',
      r.key('sliding_window'),
    );
  }
  result.family = 'none';
  result.reason = `${row.config}: attention layers have no positional encoding (${row.hf})`;
  result.encoding = { type: 'none' };
  return true;
}

/** ALiBi: BLOOM, MPT, Falcon-RW, Baichuan 13B (MPT without ALiBi: a learned table). */
function alibiLayer(x) {
  const { result, r, mt, heads, hidden, dim, notes } = x;
  let alibi = null;
  if (mt === 'bloom') alibi = {};
  if (mt === 'mpt') {
    alibi = mptAlibi(x);
  }
  if (mt === 'falcon' && r.flag('alibi')) {
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
      throw bad(r.key('hidden_size'), '4096 (Baichuan 7B, RoPE) or 5120 (Baichuan 13B, ALiBi)', hidden);
    }
  }
  if (!alibi) return false;
  result.family = 'alibi';
  result.alibi = { heads, ...alibi };
  result.encoding = { type: 'alibi' };
  return true;
}

/** MPT's attn_config: ALiBi ({}), or null (a learned table); its softmax_scale. */
function mptAlibi({ c, prefix, heads, attention, source }) {
  let alibi = null;
  const ac = isObj(c.attn_config) ? c.attn_config : {};
  const a = reader(ac, source, `${prefix}attn_config.`);
  if (a.flag('rope')) {
    throw bad(`${prefix}attn_config.rope`, 'false (MPT with RoPE is not mapped by posenc)', true);
  }
  if (a.flag('alibi')) {
    const max = a.number('alibi_bias_max', { gt: 0 }) ?? 8;
    // modeling_mpt.py build_mpt_alibi_tensor: slopes 2^(-max*k/n') with n' = next power of two;
    // equal to alibiSlopes only for max 8 and a power-of-two head count
    if (max !== 8 || (heads & (heads - 1)) !== 0) {
      throw bad(
        `${prefix}attn_config.alibi_bias_max`,
        `8 with a power-of-two head count (what alibiSlopes computes; heads = ${heads})`,
        max,
      );
    }
    alibi = {};
  } else {
    // transformers' MptModel builds the ALiBi tensor whatever attn_config.alibi says and has no
    // position table; the checkpoint's remote code uses a learned table instead: two answers
    throw bad(
      `${prefix}attn_config.alibi`,
      "true (transformers' MptModel always adds ALiBi (build_mpt_alibi_tensor) and has no position " +
        "table, while the checkpoint's remote code would use a learned one: posenc does not choose)",
      a.get('alibi') ?? null,
    );
  }
  const ss = a.number('softmax_scale', { gt: 0, max: F32_MAX });
  if (ss !== undefined) attention.scale = ss;
  return alibi;
}

/** RoPE layers that do not rotate (NoPE), with Llama 4's query temperature on them. */
function nopeLayer({ result, row, r, mt, kind, layer, layers, attention }) {
  let useRope = true;
  let noRopeWhy = '';
  if (row.nope === 'no_rope_layers') {
    useRope = noRopeLayers(r, layers)[layer];
    noRopeWhy = `no_rope_layers[${layer}] is 0 (${row.hf})`;
  } else if (row.nope === 'full_if_sliding' && kind === 'full_attention' && r.has('sliding_window')) {
    useRope = false;
    noRopeWhy = `with sliding_window set, full-attention layers do not rotate (${row.hf})`;
  }
  if (mt === 'llama4_text' && !useRope && r.flag('attn_temperature_tuning')) {
    // modeling_llama4.py Llama4TextAttention.forward: on NoPE layers
    // q *= log1p(floor((position + 1) / floor_scale)) * attn_scale + 1
    const floor = r.number('floor_scale', { gt: 0 }) ?? 8192;
    const as = r.number('attn_scale') ?? 0.1;
    attention.queryScale = queryScaleFn(
      `1 + ${as} · ln(1 + floor((p + 1) / ${floor}))`,
      (p) => 1 + as * Math.log1p(Math.floor((p + 1) / floor)),
    );
  }
  if (useRope) return false;
  result.family = 'none';
  result.reason = `layer ${layer} has no positional encoding: ${noRopeWhy}`;
  result.encoding = { type: 'none' };
  return true;
}

/** The RoPE part of a layer: base, scaling, rotated width, layout, M-RoPE, per-query scales. */
function ropeLayer(x) {
  const at = ropeSource(x);
  const { base, scaling } = ropeBase(x, at);
  const { ropeDim, rotaryDim } = rotatedWidth(x, at, scaling);
  const rope = ropeSpec(x, at, { dim: ropeDim, base, layout: ropeLayout(x, at.rs) }, rotaryDim, scaling);
  ropeQueryScales(x, at, scaling, rope);
  return true;
}

/** Where the layer's rope keys live: rs (rope_parameters or rope_scaling), where (its path), rpr
 * (a reader over rope_parameters), perType (rope_parameters has one entry per layer type). */
function ropeSource({ row, r, prefix, kind, layer, source, notes }) {
  if (row.remote && !row.base) remoteRopeKeys(row, r, notes);
  // rope_parameters (transformers v5): flat, or one entry per layer type
  // a config class's default rope_parameters / rope_scaling applies only when the file has neither
  if (row.base) return { rs: undefined, rpr: null, where: `${prefix}rope_scaling`, perType: false };
  const hasRp = r.raw('rope_parameters') !== undefined;
  const hasRs = r.raw('rope_scaling') !== undefined;
  let rp = hasRp || !hasRs ? r.get('rope_parameters') : undefined;
  let where = `${prefix}rope_parameters`;
  const perType = isObj(rp) && Object.keys(rp).some((k) => LAYER_TYPES.has(k));
  if (perType) {
    const entry = rp[kind] ?? (kind === 'chunked_attention' ? rp.full_attention : undefined);
    if (!isObj(entry)) throw bad(`${where}.${kind}`, `the rope parameters of layer ${layer} ('${kind}')`, entry);
    rp = entry;
    where = `${where}.${kind}`;
  }
  const rpr = isObj(rp) ? reader(rp, source, `${where}.`) : null;
  let rs = rp;
  if (!isObj(rp)) {
    rs = hasRs || !hasRp ? r.get('rope_scaling') : undefined;
    where = `${prefix}rope_scaling`;
  }
  return { rs, rpr, where, perType };
}

/** Remote code predates transformers 5 and reads rope_scaling alone, as its config class checks it
 * (InternLM2Config / MiniCPMConfig._rope_scaling_validation: exactly { type, factor }). */
function remoteRopeKeys(row, r, notes) {
  const rp = r.get('rope_parameters');
  if (rp !== undefined && rp !== null) {
    throw bad(r.key('rope_parameters'), `absent: ${row.hf} is remote code that reads rope_scaling only`, rp);
  }
  const rs = r.get('rope_scaling');
  if (rs === undefined || rs === null) return;
  const k = r.key('rope_scaling');
  if (!row.scalingTypes) {
    throw bad(k, `null: ${row.hf} is remote code that posenc has not seen read rope_scaling`, rs);
  }
  if (!isObj(rs) || Object.keys(rs).length !== 2) {
    throw bad(k, `null or { type, factor } (${row.config}._rope_scaling_validation raises otherwise)`, rs);
  }
  if (!row.scalingTypes.includes(rs.type)) {
    const types = row.scalingTypes.map((t) => `'${t}'`).join(', ');
    throw bad(`${k}.type`, `one of ${types} (${row.config}._rope_scaling_validation reads 'type' alone)`, rs.type);
  }
  if (row.scalingFactorMin !== undefined && !(typeof rs.factor === 'number' && rs.factor >= row.scalingFactorMin)) {
    throw bad(`${k}.factor`, `a number >= ${row.scalingFactorMin} (${row.config}._rope_scaling_validation)`, rs.factor);
  }
  if (rs.type === 'dynamic') {
    notes.push(
      `${k}.type 'dynamic': ${row.hf} rebuilds its table only for a sequence longer than any before and keeps ` +
        'it (register_buffer), so after a run past max_position_embeddings shorter sequences use the raised base; ' +
        "posenc's dynamic scaling computes each length's own",
    );
  }
}

/** The base (origin.base: the key it came from) and the scaling. */
function ropeBase({ result, row, r, mt, kind, origin, notes, source }, { rs, rpr, where, perType }) {
  // the base: rope_parameters.rope_theta, rope_theta, rotary_emb_base (NeoX, Qwen 1), rotary_base,
  // else the config class's default
  if (row.base) {
    // GPT-J, CodeGen: the modeling file's own constant (models.js `base`), no scaling
    origin.base = r.key(row.rotaryDim === false ? 'hidden_size' : 'rotary_dim');
    return { base: row.base, scaling: { type: 'default' } };
  }
  let base;
  let baseKey;
  if (row.local === 'modernbert' && !rpr?.has('rope_theta')) {
    // ModernBertAttention (transformers 4.x): local layers local_rope_theta (None: global_rope_theta),
    // global layers global_rope_theta; 5.x moves them into rope_parameters per layer type
    const k = kind === 'sliding_attention' && r.has('local_rope_theta') ? 'local_rope_theta' : 'global_rope_theta';
    base = r.number(k, { gt: 1 });
    baseKey = r.key(k);
    if (!perType && rs !== undefined && rs !== null) {
      throw bad(
        where,
        "null: ModernBertAttention builds each layer's table from its base alone (rope_parameters per layer type carries scaling in transformers 5)",
        rs,
      );
    }
  }
  for (const [rd, k] of [
    [rpr, 'rope_theta'],
    ...(row.baseKey ? [[r, row.baseKey]] : []),
    [r, 'rope_theta'],
    [r, 'rotary_emb_base'],
    [r, 'rotary_base'],
  ]) {
    // a key the row's config class does not read (models.js `ignores`) is noted, not used
    const unread = rd === r && row.ignores && Object.hasOwn(row.ignores, k);
    if (base === undefined && !unread && rd?.raw(k) !== undefined && (rd.raw(k) !== null || rd === r)) {
      base = rd.number(k, { gt: 1 });
      baseKey = rd.key(k);
    }
  }
  if (base === undefined) {
    const k = row.defaults.rotary_emb_base !== undefined ? 'rotary_emb_base' : 'rope_theta';
    base = row.defaults[k] ?? 10000;
    baseKey = r.key(k);
    if (row.defaults[k] !== undefined) result.defaults[baseKey] = base;
  }
  if (mt === 'chatglm') base *= r.number('rope_ratio', { gt: 0 }) ?? 1; // ChatGLM: base * rope_ratio
  let scaling;
  if (row.local && kind === 'sliding_attention' && !perType) {
    if (row.local === 'local_base') {
      // modeling_gemma3.py: local layers use rope_local_base_freq and no scaling
      base = r.number('rope_local_base_freq', { gt: 1 });
      baseKey = r.key('rope_local_base_freq');
    }
    scaling = { type: 'default' };
  } else {
    scaling = parseScaling(rs, where, r, source, notes, origin, row.ropeTypes);
    if (row.onlyRopeTypes && !row.onlyRopeTypes.includes(scaling.type)) {
      // Phi3Config.validate_rope: "rope_parameters's type field must be one of ['longrope']"
      throw bad(
        `${where}.${isObj(rs) && rs.rope_type !== undefined ? 'rope_type' : 'type'}`,
        `one of ${row.onlyRopeTypes.map((t) => `'${t}'`).join(', ')} (${row.config} raises for any other)`,
        isObj(rs) ? (rs.rope_type ?? rs.type) : rs,
      );
    }
  }
  origin.base = baseKey;
  return { base, scaling };
}

/** The rotated width of the rope part (ropeDim wide) of each head. */
function rotatedWidth(x, { rs, rpr, where }, scaling) {
  const { row, r, mt, dim, dimKey, origin } = x;
  // rotated width: partial_rotary_factor (HF), rotary_pct (NeoX, Qwen 1), rotary_dim (GPT-J,
  // Phi-2 remote code), ChatGLM half the head, DeepSeek's separate qk_rope_head_dim part
  let ropeDim = dim;
  let rotaryDim = dim;
  let widthKey = dimKey;
  const reads = (k) => !row.ignores || !Object.hasOwn(row.ignores, k);
  const prf =
    rpr?.number('partial_rotary_factor', { gt: 0 }) ??
    (reads('partial_rotary_factor') ? r.number('partial_rotary_factor', { gt: 0 }) : undefined);
  const pct = reads('rotary_pct') ? r.number('rotary_pct', { gt: 0 }) : undefined;
  if (prf !== undefined) {
    rotaryDim = Math.floor(dim * prf);
    widthKey = rpr?.has('partial_rotary_factor') ? `${where}.partial_rotary_factor` : r.key('partial_rotary_factor');
  } else if (pct !== undefined) {
    rotaryDim = Math.floor(dim * pct);
    widthKey = r.key('rotary_pct');
  }
  if (reads('rotary_dim') && r.has('rotary_dim')) {
    rotaryDim = r.number('rotary_dim', { int: true, gt: 0 });
    widthKey = r.key('rotary_dim');
  } else if (row.base && row.rotaryDim !== false && x.heads > 1) {
    // GPTJAttention: rotary_dim None -> a table hidden_size wide on head_dim-wide heads (it fails)
    throw bad(r.key('rotary_dim'), `an even integer <= head_dim = ${dim} (${row.config} reads it; None fails)`, null);
  }
  if (mt === 'chatglm') rotaryDim = dim / 2;
  if (row.scale === 'mla') {
    const ropeHd = mlaWidth(x, rs, where, scaling);
    if (ropeHd !== undefined) {
      ropeDim = rotaryDim = ropeHd;
      widthKey = r.key('qk_rope_head_dim');
    }
  }
  if (rotaryDim % 2 || rotaryDim < 2 || rotaryDim > ropeDim) {
    throw perr(
      Status.E_PARAM,
      `${widthKey} gives a rotated width of ${rotaryDim}, which must be even and in [2, ${ropeDim}]` +
        `${widthKey === dimKey || ropeDim !== dim ? '' : ` (the head width, from ${dimKey})`}` +
        ` (got ${widthKey.includes('/') ? `${ropeDim}` : show(prf ?? pct ?? rotaryDim)})`,
      widthKey.split(' ')[0],
    );
  }
  if (row.wholeHead && rotaryDim !== ropeDim) {
    // Ernie 4.5's apply_rotary_pos_emb multiplies the whole head by the table: a narrower one fails
    const file = row.hf.split(' ')[0];
    throw bad(
      widthKey.split(' ')[0],
      `1 (${file} apply_rotary_pos_emb multiplies the whole head by cos / sin: a table ${rotaryDim} wide fails)`,
      prf,
    );
  }
  origin.rotaryDim = widthKey;
  origin.dim ??= dimKey;
  return { ropeDim, rotaryDim };
}

/** DeepSeek MLA: the qk_rope_head_dim part of each head rotates (returned); the head is
 * qk_nope_head_dim + that, and YaRN's mscale enters the softmax scale squared. */
function mlaWidth({ result, row, r, origin, notes, source }, rs, where, scaling) {
  const { attention } = result;
  const cap = { int: true, max: Math.floor(MAX_WIDTH / 2 / attention.heads) };
  const ropeHd = r.number('qk_rope_head_dim', { ...cap, gt: 0 });
  const nope = r.number('qk_nope_head_dim', { ...cap, gt: -1 }) ?? 0;
  const vDim = r.number('v_head_dim', { ...cap, gt: 0, max: Math.floor(MAX_WIDTH / attention.heads) });
  if (ropeHd !== undefined) {
    attention.dim = nope + ropeHd;
    origin.dim = `${r.key('qk_nope_head_dim')} + qk_rope_head_dim`;
    if (vDim !== undefined && vDim !== attention.dim) attention.dimV = vDim;
    attention.scale = 1 / Math.sqrt(attention.dim);
    notes.push(
      `DeepSeek MLA: rope applies to the separate qk_rope_head_dim = ${ropeHd} part of each q/k head ` +
        `(dim ${attention.dim} = qk_nope_head_dim ${nope} + ${ropeHd})`,
    );
  }
  // DeepseekV3Attention: `if mscale_all_dim:` softmax_scale *= mscale(factor, mscale_all_dim)^2 (with a
  // rope_scaling); transformers' DeepseekV2Attention keeps qk_head_dim^-0.5 (the remote code multiplies)
  const msa = isObj(rs) ? reader(rs, source, `${where}.`).number('mscale_all_dim') : undefined;
  if (scaling.type !== 'default' && scaling.factor !== undefined && msa) {
    const m = yarnMscale(scaling.factor, msa);
    if (!(Number.isFinite(m * m) && m * m <= FLT_MAX)) {
      throw perr(
        Status.E_RANGE,
        `${where}.mscale_all_dim gives a softmax scale factor mscale² = ${m * m} (${row.hf}), ` +
          `which must be a float32 (<= ${FLT_MAX})`,
        `${where}.mscale_all_dim`,
      );
    }
    if (row.mlaMscale) {
      attention.scale *= m * m;
      result.mscale2 = m * m;
    } else if (m !== 1) {
      notes.push(
        `softmax scale qk_head_dim^-0.5 as transformers' DeepseekV2Attention computes it; the checkpoint's ` +
          `remote code (modeling_deepseek.py, trust_remote_code) multiplies it by mscale(factor, ` +
          `mscale_all_dim)² = ${m * m}: pass attention.scale · ${m * m} to match that code`,
      );
    }
  }
  return ropeHd;
}

/** RoPE pairing: the row's, a key that switches it, or mlc-llm's 'gptj' rope type. */
function ropeLayout({ row, r }, rs) {
  let layout = row.layout;
  if (row.interleaveKey) layout = r.flag(row.interleaveKey) ? 'interleaved' : 'half';
  if (isObj(rs) && (rs.rope_type ?? rs.type) === 'gptj') layout = 'interleaved';
  if (row.remote && (r.flag('rope_traditional') || r.flag('rope_interleave'))) layout = 'interleaved';
  return layout;
}

/** result.rope and the kvCache encoding, checked now as kvCache will check it. */
function ropeSpec({ result, origin, core }, { rs, where }, rope, rotaryDim, scaling) {
  const { attention } = result;
  const { dim: ropeDim, base, layout } = rope;
  if (rotaryDim !== ropeDim) rope.rotaryDim = rotaryDim;
  if (scaling.type !== 'default') rope.scaling = scaling;
  if (scaling.type === 'longrope') {
    for (const k of ['shortFactor', 'longFactor']) {
      if (scaling[k].length !== rotaryDim / 2) {
        throw bad(
          `${where}.${k === 'shortFactor' ? 'short_factor' : 'long_factor'}`,
          `an array of rotated width / 2 = ${rotaryDim / 2} numbers (the rotated width from ${origin.rotaryDim})`,
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
        `three non-negative integers summing to rotated width / 2 = ${rotaryDim / 2} (from ${origin.rotaryDim})`,
        ms,
      );
    }
    rope.mropeSections = ms.slice();
    if (truthy(rs.mrope_interleaved)) rope.mropeInterleaved = true;
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
  // what kvCache will check, checked now, with the message naming the config key it came from
  try {
    const enc = ENCODINGS.rope.parse(result.encoding, {
      fn: FN,
      prefix: 'encoding.',
      host: 'kvCache',
      dim: attention.dim,
    });
    // the frequencies and attention factor, as ropeFrequencies / applyRope / kvCache compute them
    if (typeof core?.exports?.posenc_rope_freqs === 'function') {
      core.run(FN, (s) => ropeFreqsOnHeap(core, s, FN, enc.freq, 1));
    }
  } catch (e) {
    throw renamed(e, origin, where);
  }
  return rope;
}

/** Per-query scales that positions drive, notes on what posenc's attention leaves out, and the
 * softmax scale's last check. */
function ropeQueryScales(x, { rs, where }, scaling, rope) {
  const { result, r, mt, layer, origin, notes } = x;
  const { attention } = result;
  llama4Beta(x, rs, where);
  if (mt === 'qwen') {
    const seq = r.number('seq_length', { int: true, gt: 1 }) ?? 2048;
    if (r.flag('use_logn_attn')) {
      // Qwen 1 modeling_qwen.py: logn_list[i] = log_seq(i) for i > seq_length, the query at
      // position p is scaled by logn_list[p + 1]
      attention.queryScale = queryScaleFn(`p + 1 > ${seq} ? ln(p + 1) / ln(${seq}) : 1`, (p) =>
        p + 1 > seq ? Math.log(p + 1) / Math.log(seq) : 1,
      );
    }
    if (r.flag('use_dynamic_ntk')) {
      notes.push(
        `use_dynamic_ntk: past seq_length = ${seq} tokens Qwen raises the base at run time: ` +
          'for a sequence of L ' +
          `tokens pass scaling { type: 'ntk', factor: 2^ceil(log2(L / ${seq}) + 1) - 1 } (1 up to ${seq})`,
      );
    }
  }
  if (mt === 'modernbert') {
    notes.push(
      'ModernBERT is an encoder: its attention is bidirectional (attention with causal: false)' +
        (attention.window ? `; a local layer sees keys with |p - j| <= ${attention.window - 1}` : ''),
    );
  }
  if (mt === 'gpt_oss') {
    notes.push(
      'GptOssAttention adds a learned per-head sink logit (module.sinks) to the softmax denominator: ' +
        "posenc's attention does not; multiply its output by 1 / (1 + exp(sink - logsumexp(scores))) per head and query",
    );
  }
  if (!(attention.scale > 0 && Number.isFinite(attention.scale))) {
    throw perr(
      Status.E_RANGE,
      `the softmax scale of layer ${layer} is not a positive finite number ` +
        `(${attention.scale}) with these head sizes and scaling keys`,
      origin.dim,
    );
  }
  if (rope.mropeSections) {
    notes.push('multimodal RoPE: positions are 3 × length (t, then h, then w); text tokens repeat one position');
  }
}

/** Ministral 3's query scale (modeling_ministral3.py get_llama_4_attn_scale): 1 + beta · ln(1 +
 * floor(p / m)), beta and m from rope_parameters; the other rows' code never reads the key. */
function llama4Beta({ row, result, notes, source }, rs, where) {
  const s = isObj(rs) ? reader(rs, source, `${where}.`) : null;
  if (!s?.has('llama_4_scaling_beta')) return;
  if (!row.llama4Beta) {
    notes.push(
      `${where}.llama_4_scaling_beta = ${show(rs.llama_4_scaling_beta)} is not read by ${row.hf}: ignored, as Hugging Face does`,
    );
    return;
  }
  const beta = s.number('llama_4_scaling_beta');
  const m = s.number('original_max_position_embeddings', { int: true, gt: 0 });
  if (m === undefined) {
    throw perr(
      Status.E_MISSING,
      `${where}.original_max_position_embeddings is required with llama_4_scaling_beta ` +
        '(modeling_ministral3.py divides the position by it)',
      `${where}.original_max_position_embeddings`,
    );
  }
  if (beta === 0) return;
  result.attention.queryScale = queryScaleFn(
    `1 + ${beta} · ln(1 + floor(p / ${m}))`,
    (p) => 1 + beta * Math.log1p(Math.floor(p / m)),
  );
}

/** posenc's option names in a kvCache-encoding error, turned into the config keys they came from. */
/** A scaling key whose bound is another key (js/scalings.js `gtKey`) -> that key's Hugging Face name. */
const EXCEEDS = Object.fromEntries(
  Object.values(SCALINGS).flatMap(({ keys }) =>
    keys.filter((k) => k.gtKey).map((k) => [`scaling.${k.name}`, keys.find((o) => o.name === k.gtKey).hf]),
  ),
);

function renamed(e, origin, where) {
  if (!(e instanceof PosencError) || typeof e.argument !== 'string') return e;
  const opt = e.argument.replace(/^encoding\./, '');
  const key = origin[opt];
  if (!key) return e;
  let msg = e.message.split(e.argument).join(key);
  if (EXCEEDS[opt]) msg += ` (it must exceed ${where}.${EXCEEDS[opt]})`;
  return new PosencError(e.code, msg, key);
}

/** A wrapper whose text model is read from text_config: positional keys at the top level are not
 * read (the wrapper's config class builds its text model from text_config alone). */
function outerKeys(config, notes) {
  const what = typeof config.model_type === 'string' ? `the ${show(config.model_type)} wrapper` : 'the wrapper';
  for (const k of Object.keys(config)) {
    const v = config[k];
    if (k === 'text_config' || v === null || v === false || !POSITIONAL.test(k) || INERT.has(k)) continue;
    notes.push(
      `${k} = ${brief(v)} at the top level is not read: ${what} builds its text model from text_config ` +
        '(its own keys apply), as Hugging Face does',
    );
  }
}

/** Keys whose names speak of positions that nothing above read: ignored with a note where the row's
 * Hugging Face code does not read them either, refused for remote code (whose reads vary). */
function checkKeys(row, c, prefix, notes, source, layer) {
  const unused = [];
  for (const k of Object.keys(c)) {
    const v = c[k];
    if (v === null || v === undefined || v === false) continue;
    if (row.ignores && Object.hasOwn(row.ignores, k)) {
      notes.push(`${prefix}${k} = ${brief(v)} is ignored: ${row.ignores[k]}`);
      continue;
    }
    if (!POSITIONAL.test(k) || INERT.has(k)) continue;
    if (KNOWN.has(k)) {
      if (!Object.hasOwn(source, `${prefix}${k}`) && !QUIET.has(k)) unused.push(`${prefix}${k}`);
      continue;
    }
    if (row.remote) {
      throw perr(
        Status.E_PARAM,
        `${prefix}${k} = ${show(v)} is a key posenc does not read, and its name says it may change the ` +
          `positions; ${row.hf} is remote code whose reads posenc cannot vouch for, so posenc refuses rather than ignore it`,
        `${prefix}${k}`,
      );
    }
    notes.push(`${prefix}${k} = ${show(v)} is not read by ${row.hf}: ignored, as Hugging Face does`);
  }
  if (unused.length) notes.push(`not used by layer ${layer} of this model type: ${unused.join(', ')}`);
}

/** The API's fromConfig: with the core, every RoPE result's frequencies are computed once as the
 * consumers will compute them, so a spec they would refuse is refused here naming the config key. */
export function configFamily(core) {
  return { fromConfig: (config, opts) => build(config, opts, core) };
}
