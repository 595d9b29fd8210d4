// Transformer-XL's float64 reference for the tests (tests/ref64.js reads it through the
// generated tests/ref_kinds.js): a random descriptor and the content and position terms.

/** random(sizes, seed, randomF32): a descriptor as attention takes it; bias(b, at): its logit
 * bias (at: h, i, j, ip, rp = j - ip, Q, K, H, D, DV, qi, k, kj, scale, causal). */
export const ref = {
  random(sizes, seed, randomF32) {
    const { heads, dim, keys, queries, dModel } = sizes;
    const rows = keys + (seed % 2 ? queries - 1 : 0);
    return {
      type: 'xl',
      u: randomF32(heads * dim, seed),
      v: randomF32(heads * dim, seed + 1),
      r: randomF32(rows * heads * dim, seed + 2),
      ...(dModel && { wr: randomF32(dModel * dModel, seed + 3) }), // selfAttention's: r = wr · positions
    };
  },
  bias(b, { qi, k, kj, h, ip, j, K, H, D, scale }) {
    const rows = b.r.length / (H * D);
    const row = Math.max(0, Math.min(rows - 1, K - 1 - (ip - j)));
    let t = 0;
    for (let d = 0; d < D; d++) t += b.u[h * D + d] * k[kj + d] + (qi[d] + b.v[h * D + d]) * b.r[(row * H + h) * D + d];
    return scale * t;
  },
};
