// Shaw et al.'s float64 reference for the tests (tests/ref64.js reads it through the generated
// tests/ref_kinds.js): a random descriptor, the logit term and the value term.

const clip = (b, rp) => Math.max(-b.maxRelative, Math.min(b.maxRelative, rp)) + b.maxRelative;

/** random(sizes, seed, randomF32): a descriptor as attention takes it; bias(b, at): its logit
 * bias (at: h, i, j, ip, rp = j - ip, Q, K, H, D, DV, qi, k, kj, scale, causal);
 * value(b, at, c): its term in value column c. */
export const ref = {
  random(sizes, seed, randomF32) {
    const maxRelative = 1 + (seed % 4);
    return {
      type: 'shaw',
      maxRelative,
      aK: randomF32((2 * maxRelative + 1) * sizes.dim, seed),
      aV: randomF32((2 * maxRelative + 1) * (sizes.dimV ?? sizes.dim), seed + 1),
    };
  },
  bias(b, { qi, rp, D, scale }) {
    let t = 0;
    for (let d = 0; d < D; d++) t += qi[d] * b.aK[clip(b, rp) * D + d];
    return scale * t;
  },
  value: (b, { rp, DV }, c) => b.aV[clip(b, rp) * DV + c],
};
