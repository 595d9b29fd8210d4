// What only tools/gen_kinds.js reads of Shaw's fused kind (kind_shaw.js holds what the library
// reads; the package ships this file not): its fuzz draws, scratch buffers, .d.ts keys and docs rows.
export const gen = {
  fuzzRel: '1 + u8(c) % 6',
  relField: 'max_relative',
  fuzzTables:
    'if (prod(2 * rel + 1, dim) > CAP || prod(2 * rel + 1, dv) > CAP) return 0;\n' +
    'b->a_k = IN(prod(2 * rel + 1, dim)), b->a_v = IN(prod(2 * rel + 1, dv));',
  scratch: [
    ['float', 'qak'],
    ['float', 'mass'],
  ],
  types: {
    keys: { aK: 'F32', aV: 'F32', maxRelative: 'number' },
    doc: {
      attention: 'Shaw et al.: aK [2k+1][dim], aV [2k+1][dimV] shared by all heads, k = maxRelative.',
      selfAttention: 'aK, aV [2k+1][dModel/heads]',
    },
  },
  docs: {
    option: "`{ type: 'shaw', aK, aV, maxRelative }`",
    attention: '`scale·q·aK[clip(rp)]`; output `+= Σ p·aV[clip(rp)]` ([Shaw](../relative/relative.md))',
    kvCache: 'logit `+= scale · q · aK[clip(j − p_i)]`, output `+= Σ_j p_ij · aV[clip(j − p_i)]`',
  },
};
