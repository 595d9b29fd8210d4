// The RoPE frequency scalings, declared once (families/rope/rope.md "Frequency scaling"). Each type names
// its C enum value (posenc.h posenc_rope_type), the Hugging Face rope_type / type spellings
// fromConfig reads as it, and its keys in the order they are validated. Read by families/rope/rope.js
// (applyRope / ropeCache / ropeFrequencies: parsing and the C struct), families/config/config.js (fromConfig's
// rope_scaling / rope_parameters), the page (web/src/methods.js) and tools/gen_scalings.js (the
// .d.ts union and families/rope/rope.md's table, generated and committed); tests/scalings.test.js probes
// families/rope/rope.c check_scaling with the same rules, so C and JS cannot drift.
//
// A key:
//   name      posenc's option (camelCase); the C field is its snake_case (posenc_rope_scaling)
//   kind      'number', 'bool', or 'factors' (one positive number per rotated pair)
//   required  posenc refuses its absence (E_MISSING); else `def` fills it, or it stays unset (NaN)
//   gt / min / max  the range of a number; gtKey: it must exceed that key's value instead
//   hf        its key in rope_scaling / rope_parameters (none: posenc's own), hfRequired: Hugging
//             Face's code requires it though posenc has a default (_compute_*_parameters)
//   context   fromConfig may take it from the top level (max_position_embeddings, ...): its own
//             rule in families/config/config.js, which records where it came from
// A type:
//   c         its value of posenc_rope_type
//   hf        the rope_type / type spellings that mean it (notes: how a spelling differs)
//   (its doc line and formula are in SCALING_DOCS below, which only the generator reads)
//   rule      a check across keys, after each key's own: check(v, { fail }), and probes on both
//             sides of it (tests/scalings.test.js runs them through JS and C)
import { FLT_MAX, yarnMscale } from './maths.js';

const factor = { name: 'factor', kind: 'number', required: true, gt: 0, hf: 'factor' };
const seqLen = { name: 'seqLen', kind: 'number', min: 0 };
const original = { name: 'originalMaxPositions', required: true, kind: 'number', gt: 0 };
const attentionFactor = { name: 'attentionFactor', kind: 'number', gt: 0, max: FLT_MAX, hf: 'attention_factor' };

export const SCALINGS = Object.freeze({
  default: {
    c: 0,
    hf: ['default', 'mrope', 'gptj'],
    // 'mrope' is Qwen2-VL's name (Qwen2VLConfig turns it into 'default'), 'gptj' mlc-llm's, with the GPT-J pairing
    notes: { gptj: "with layout: 'interleaved'" },
    keys: [],
  },
  linear: {
    c: 1,
    hf: ['linear'],
    keys: [factor],
  },
  ntk: {
    c: 2,
    hf: [],
    keys: [factor],
  },
  dynamic: {
    c: 3,
    hf: ['dynamic'],
    keys: [
      factor,
      {
        name: 'maxPositions',
        kind: 'number',
        required: true,
        gt: 0,
        hf: 'original_max_position_embeddings',
        context: true,
      },
      seqLen,
    ],
  },
  yarn: {
    c: 4,
    hf: ['yarn'],
    keys: [
      factor,
      { ...original, hf: 'original_max_position_embeddings', context: true },
      { name: 'betaFast', kind: 'number', gt: 0, def: 32, hf: 'beta_fast' },
      { name: 'betaSlow', kind: 'number', gt: 0, def: 1, hf: 'beta_slow' },
      attentionFactor,
      { name: 'mscale', kind: 'number', hf: 'mscale' },
      { name: 'mscaleAllDim', kind: 'number', hf: 'mscale_all_dim' },
      { name: 'truncate', kind: 'bool', def: true, hf: 'truncate' },
    ],
    // the attention factor's ratio mscale(factor, mscale) / mscale(factor, mscaleAllDim) needs a
    // positive denominator (mscale and mscaleAllDim count when non-zero, as HF's truthiness)
    rule: {
      check: (v, { fail }) => {
        if (v.mscale && v.mscaleAllDim && v.factor > 1 && !(yarnMscale(v.factor, v.mscaleAllDim) > 0)) {
          throw fail('mscaleAllDim', 'such that 0.1 * mscaleAllDim * ln(factor) + 1 > 0', v.mscaleAllDim);
        }
      },
      // keys set over the type's valid baseline, on both sides of the rule
      probes: [
        { set: { factor: 4, mscale: 1, mscaleAllDim: -10 }, ok: false },
        { set: { factor: 4, mscale: 1, mscaleAllDim: -5 }, ok: true },
        { set: { factor: 4, mscale: 0, mscaleAllDim: -10 }, ok: true },
      ],
    },
  },
  longrope: {
    c: 5,
    hf: ['longrope', 'su'],
    // 'su' is Phi-3's first name for longrope
    keys: [
      { name: 'shortFactor', kind: 'factors', required: true, hf: 'short_factor' },
      { name: 'longFactor', kind: 'factors', required: true, hf: 'long_factor' },
      // ln(originalMaxPositions) is a denominator
      { ...original, gt: 1, hf: 'original_max_position_embeddings', context: true },
      { name: 'factor', kind: 'number', gt: 0, hf: 'factor', context: true },
      { name: 'maxPositions', kind: 'number', gt: 0, context: true },
      attentionFactor,
      seqLen,
    ],
  },
  llama3: {
    c: 6,
    hf: ['llama3'],
    keys: [
      { name: 'factor', kind: 'number', gt: 0, def: 8, hf: 'factor', hfRequired: true },
      { name: 'lowFreqFactor', kind: 'number', gt: 0, def: 1, hf: 'low_freq_factor', hfRequired: true },
      // the smoothing band's width, highFreqFactor - lowFreqFactor, is a denominator
      {
        name: 'highFreqFactor',
        kind: 'number',
        gt: 0,
        gtKey: 'lowFreqFactor',
        def: 4,
        hf: 'high_freq_factor',
        hfRequired: true,
      },
      { ...original, required: false, def: 8192, hf: 'original_max_position_embeddings', hfRequired: true },
    ],
  },
});

/** What families/rope/rope.md and the declarations say of each type (tools/gen_scalings.js alone reads it,
 * so the bundles leave it out): doc, one line for the .d.ts; formula, the frequencies. */
export const SCALING_DOCS = {
  default: {
    doc: 'The base frequencies.',
    formula: '`w_i`',
  },
  linear: {
    doc: 'Position interpolation: inv_freq / factor.',
    formula: '`w_i / factor` (position interpolation; Chen et al. 2023, arXiv:2306.15595)',
  },
  ntk: {
    doc: 'Static NTK-aware: base * factor^(d/(d-2)).',
    formula: "static NTK-aware: `base' = base · factor^(d/(d−2))`",
  },
  dynamic: {
    doc: 'Dynamic NTK; seqLen absent: ropeFrequencies uses maxPositions (= default), ropeCache/applyRope the largest position + 1.',
    formula: "`base' = base · (factor·L/M − (factor − 1))^(d/(d−2))`, `L = max(seqLen, M)`, `M = maxPositions`",
  },
  yarn: {
    doc: 'YaRN: a ramp between w and w / factor over the pairs, and an attention scale.',
    formula: 'a ramp between `w_i` and `w_i / factor` (below)',
  },
  longrope: {
    doc: 'Long factors when seqLen > originalMaxPositions; factor absent: maxPositions / originalMaxPositions, else 1.',
    formula: '`1 / (ext_i · base^(2i/d))`',
  },
  llama3: {
    doc: "Llama 3.1: keep the fast pairs, divide the slow ones by factor, smooth between (Meta's apply_scaling).",
    formula: 'keep / smooth / divide by wavelength (below)',
  },
};

/** The fields of posenc.h posenc_rope_scaling after `type`, in its order (snake_case there): every
 * key of the table, each once. A new key appends, so no existing field's offset moves. */
export const C_FIELDS = [
  'truncate',
  'shortFactor',
  'longFactor',
  'factor',
  'originalMaxPositions',
  'maxPositions',
  'seqLen',
  'betaFast',
  'betaSlow',
  'attentionFactor',
  'mscale',
  'mscaleAllDim',
  'lowFreqFactor',
  'highFreqFactor',
];

/** Where families/rope/rope.md explains the scalings. */
export const SCALINGS_DOC = 'families/rope/rope.md#frequency-scaling-long-context';

/** Every Hugging Face rope_type / type spelling -> posenc's scaling type, in the table's order. No
 * prototype: a config's rope_type of 'constructor' or 'toString' is no rope type. */
export const HF_TYPES = Object.freeze(
  Object.assign(
    Object.create(null),
    Object.fromEntries(Object.entries(SCALINGS).flatMap(([type, t]) => t.hf.map((h) => [h, type]))),
  ),
);

/** The keys of the table that hold one number per rotated pair (copied when read). */
export const FACTOR_KEYS = Object.freeze([
  ...new Set(
    Object.values(SCALINGS)
      .flatMap((t) => t.keys)
      .filter((k) => k.kind === 'factors')
      .map((k) => k.name),
  ),
]);
