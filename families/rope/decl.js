// The RoPE family, declared: its functions, the C entry points each calls, their options, its
// docs. The scaling types and keys are not here: they have their own home (js/scalings.js, the
// RopeScaling type its generator writes).
// tools/gen_decls.js writes every list of functions and options from the families/*/decl.js files
// (families/sinusoidal/decl.js says what each field means); tests/decls.test.js checks them against the
// running API.
const dim = { type: 'integer', min: 2, max: 2 ** 28, multipleOf: 2, required: true, doc: 'head size' };
const base = { type: 'number', gt: 1, default: 10000, doc: 'the frequency base (HF rope_theta)' };
const rotaryDim = {
  type: 'integer',
  min: 2,
  multipleOf: 2,
  maxIs: 'dim',
  defaultIs: 'dim',
  doc: 'the rotated width; frequencies use it (GPT-NeoX rotary_pct, HF partial_rotary_factor)',
};
const scaling = {
  ts: 'RopeScaling',
  doc: 'frequency scaling (families/rope/rope.md#frequency-scaling-long-context)',
};
const layout = {
  type: ['half', 'interleaved'],
  default: 'half',
  doc: "pairing: 'half' (x[i], x[i + r/2]) GPT-NeoX, HF Llama; 'interleaved' (x[2i], x[2i+1]) GPT-J, RoFormer, Meta",
};
const mropeSections = {
  ts: 'readonly [number, number, number] | number[]',
  doc: 'multimodal RoPE (Qwen2-VL): pairs turned by the t, h and w position streams, summing to rotaryDim/2',
};
const mropeInterleaved = {
  type: 'boolean',
  default: false,
  doc: "Qwen3-VL's interleaved M-RoPE: pairs 1, 4, 7... take h, 2, 5, 8... take w (needs mropeSections)",
};
// one options object serves ropeFrequencies, ropeCache and applyRope (fromConfig's `rope`)
const shared = { dim, base, rotaryDim, scaling, layout, mropeSections, mropeInterleaved };
const f32Out = (doc) => ({ type: 'F32', doc });

export const declare = {
  family: 'ropeFamily',
  order: 20, // its place in every list (decl/index.js sorts the families by it)
  module: 'rope',
  api: 'RopeApi',
  page: true,
  // exported for C callers (posenc.h); no JS function calls it
  cOnly: ['posenc_rope_scaling_init'],
  readme: [
    {
      label: 'RoPE, with linear, NTK, dynamic, YaRN, LongRoPE and Llama 3 scaling, xPos, 2-D',
      functions: ['ropeFrequencies', 'ropeCache', 'applyRope', 'ropeDecay'],
      pages: ['families/rope/rope.md'],
    },
  ],
  functions: [
    {
      name: 'ropeFrequencies',
      sweep: {
        '': (pe) =>
          Object.values(
            pe.ropeFrequencies({ dim: 256, scaling: { type: 'yarn', factor: 4, originalMaxPositions: 64 } }),
          ),
        Longrope: (pe) =>
          Object.values(
            pe.ropeFrequencies({
              dim: 64,
              scaling: {
                type: 'longrope',
                shortFactor: new Array(32).fill(1.5),
                longFactor: new Array(32).fill(3),
                originalMaxPositions: 64,
              },
            }),
          ),
      },
      c: ['posenc_rope_freqs'],
      docs: 'families/rope/rope.md#options-and-defaults',
      result: '{ invFreq, invFreq64, attentionScale } (rotaryDim / 2 frequencies)',
      tsDoc: 'invFreq: float64 results rounded once to float32; invFreq64: the float64 values.',
      returns: '{ invFreq: Float32Array; invFreq64: Float64Array; attentionScale: number }',
      types: 'RopeFrequencyOptions',
      example: { opts: { dim: 8 } },
      options: shared,
    },
    {
      name: 'ropeCache',
      sweep: {
        '': (pe) =>
          Object.values(
            pe.ropeCache({ length: 40, dim: 64, scaling: { type: 'dynamic', factor: 2, maxPositions: 16 } }),
          ),
        Mrope: (pe) =>
          Object.values(
            pe.ropeCache({
              length: 20,
              dim: 32,
              mropeSections: [6, 5, 5],
              mropeInterleaved: true,
              positions: Float32Array.from({ length: 60 }, (_, i) => 1.5 * i),
            }),
          ),
      },
      c: ['posenc_rope_freqs', 'posenc_rope_cache_fill', 'posenc_rope_mrope_fill'],
      docs: 'families/rope/rope.md#options-and-defaults',
      result: '{ cos, sin, attentionScale, dims }: cos and sin [length][rotaryDim / 2]',
      returns: 'RopeCache<Returned<C, Float32Array>, Returned<S, Float32Array>>',
      types: 'RopeCacheOptions',
      example: { opts: { length: 4, dim: 8 } },
      options: {
        length: { type: 'integer', min: 1, required: true, doc: 'rows (positions)' },
        offset: {
          type: 'number',
          default: 0,
          rangeIs: '|offset| + length ≤ 2^30',
          doc: 'row t is position offset + t (a fraction is allowed)',
        },
        positions: {
          ts: 'I32 | F32',
          doc: 'with mropeSections only: [3][length] positions (t, then h, then w); no offset then',
        },
        ...shared,
        cos: { ...f32Out('a buffer the cosines are written into (and returned)'), generic: 'C' },
        sin: { ...f32Out('a buffer the sines are written into (and returned)'), generic: 'S' },
      },
    },
    {
      name: 'applyRope',
      sweep: {
        '': (pe, { r }) => pe.applyRope(r(20 * 2 * 32, 6), { length: 20, heads: 2, dim: 32 }),
        Positions: (pe, { r }) =>
          pe.applyRope(r(20 * 32, 6), {
            length: 20,
            dim: 32,
            positions: Int32Array.from({ length: 20 }, (_, i) => 3 * i),
          }),
        F32: (pe, { r }) =>
          pe.applyRope(r(20 * 32, 6), {
            length: 20,
            dim: 32,
            positions: Float32Array.from({ length: 20 }, (_, i) => 0.5 * i),
          }),
        Xpos: (pe, { r }) => pe.applyRope(r(20 * 32, 6), { length: 20, dim: 32, xpos: { scaleBase: 64 } }),
        Axial: (pe, { r }) => pe.applyRope(r(20 * 32, 6), { dim: 32, axial: { height: 4, width: 5 } }),
        Cached: (pe, { r }) => {
          const c = pe.ropeCache({ length: 30, dim: 32 });
          return pe.applyRope(r(20 * 32, 6), { length: 20, dim: 32, offset: 5, cache: { cos: c.cos, sin: c.sin } });
        },
        // M-RoPE: positions [3][length] (t, h, w), tables from C (posenc_rope_mrope_fill)
        Mrope: (pe, { r }) =>
          pe.applyRope(r(20 * 2 * 32, 6), {
            length: 20,
            heads: 2,
            dim: 32,
            mropeSections: [4, 6, 6],
            positions: Int32Array.from({ length: 60 }, (_, i) => (i * 7) % 23),
          }),
      },
      c: [
        'posenc_rope_freqs',
        'posenc_rope_mrope_fill',
        'posenc_rope_scratch_size',
        'posenc_rope_apply',
        'posenc_rope_apply_positions',
        'posenc_rope_apply_positions_f32',
        'posenc_rope_apply_xpos',
        'posenc_rope_apply_axial',
        'posenc_rope_apply_cached',
      ],
      docs: 'families/rope/rope.md#options-and-defaults',
      result: 'Float32Array, the rotated activations (x, in place)',
      tsDoc: 'Rotates x ([length][heads][dim], or [heads][length][dim] with order htd) in place; returns x.',
      args: { x: 'F32' },
      inPlace: 'x',
      types: 'ApplyRopeOptions',
      example: { args: [new Float32Array(32)], opts: { length: 4, dim: 8 } },
      options: {
        length: {
          type: 'integer',
          min: 1,
          defaultIs: 'axial.height · axial.width with axial (else required)',
          doc: 'tokens',
        },
        heads: { type: 'integer', min: 1, default: 1, doc: 'heads per token' },
        positions: {
          ts: 'I32 | F32',
          doc: 'a position per token (Float32Array: interpolated positions); offset is then 0 or omitted. With mropeSections: 3 × length',
        },
        offset: {
          type: 'number',
          default: 0,
          rangeIs: '|offset| + length ≤ 2^30; an integer ≥ 0 with cache',
          doc: 'token t is at position offset + t (decoding with a KV cache)',
        },
        order: { type: ['thd', 'htd'], default: 'thd', doc: 'x is [length][heads][dim] (thd) or [heads][length][dim]' },
        ...shared,
        xpos: {
          type: 'object',
          doc: 'xPos: queries scaled by zeta^((p − center)/scaleBase), keys (key: true) by the inverse',
          example: {},
          fields: {
            scaleBase: {
              type: 'number',
              gt: 0,
              rangeIs: '≥ max |position − center| / 63.86 (past that the factor overflows float32)',
              default: 512,
              doc: 'the distance over which the scale grows by zeta',
            },
            center: { type: 'number', defaultIs: 'floor(length / 2)', doc: 'the position of scale 1' },
            key: { type: 'boolean', default: false, doc: 'keys: the inverse scale' },
          },
        },
        axial: {
          type: 'object',
          doc: '2-D axial RoPE: tokens are a row-major grid; the first rotaryDim/2 components rotate by row, the rest by column',
          example: { height: 2, width: 2 },
          fields: {
            height: { type: 'integer', min: 1, required: true, doc: 'grid rows' },
            width: { type: 'integer', min: 1, required: true, doc: 'grid columns' },
          },
        },
        cache: {
          type: 'object',
          doc: 'a ropeCache result ([rows][rotaryDim/2]); positions (Int32Array) or offset pick its rows',
          example: { cos: new Float32Array(4 * 4).fill(1), sin: new Float32Array(4 * 4) },
          fields: {
            cos: { type: 'F32', required: true, doc: 'cosines [rows][rotaryDim/2]' },
            sin: { type: 'F32', required: true, doc: 'sines [rows][rotaryDim/2]' },
            attentionScale: { type: 'number', doc: 'ignored: cos and sin already carry it' },
            dims: { ts: 'readonly number[]', doc: "ropeCache's [rows, rotaryDim / 2], checked against cos" },
          },
        },
      },
    },
    {
      name: 'ropeDecay',
      sweep: (pe) => pe.ropeDecay({ dim: 64, maxDistance: 300 }),
      c: ['posenc_rope_decay'],
      docs: 'families/rope/rope.md#long-term-decay',
      result: "Float64Array [maxDistance + 1], the paper's decay bound per distance",
      tsDoc: 'RoFormer long-term decay (families/rope/rope.md), distances 0..maxDistance.',
      returns: 'Float64Array',
      example: { opts: { dim: 8, maxDistance: 4 } },
      options: {
        dim: { ...dim, max: 2 ** 20 },
        base,
        maxDistance: { type: 'integer', min: 0, max: 2 ** 24, required: true, doc: 'the largest distance' },
      },
    },
  ],
};
