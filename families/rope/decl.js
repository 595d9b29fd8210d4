// The RoPE family, declared: its functions, the C entry points each calls, its docs. The scaling
// types and keys are not here: they have their own home (the RoPE scaling declaration).
// tools/gen_decls.js writes every list of functions from the families/*/decl.js files (families/sinusoidal/decl.js
// says what each field means); tests/decls.test.js checks them against the running API.
export const declare = {
  family: 'ropeFamily',
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
      c: ['posenc_rope_freqs'],
      docs: 'families/rope/rope.md#options-and-defaults',
      result: '{ invFreq, attentionFactor, ... } (float64 frequencies)',
    },
    {
      name: 'ropeCache',
      c: ['posenc_rope_freqs', 'posenc_rope_cache_fill', 'posenc_rope_mrope_fill'],
      docs: 'families/rope/rope.md#options-and-defaults',
      result: '{ cos, sin } tables [length][dim / 2]',
    },
    {
      name: 'applyRope',
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
      result: 'Float32Array, the rotated activations (in place unless out is given)',
    },
    {
      name: 'ropeDecay',
      c: ['posenc_rope_decay'],
      docs: 'families/rope/rope.md#long-term-decay',
      result: "Float64Array, the paper's decay bound per distance",
    },
  ],
};
