// T5's float64 reference for the tests (tests/ref64.js reads it through the generated
// tests/ref_kinds.js): a random descriptor and the logit bias, from mesh-tensorflow's definition.

/** T5's relative-position bucket (Raffel et al. 2020, mesh-tensorflow's _relative_position_bucket). */
export function refBucket(rp, bidirectional, B, D) {
  // in float64 the boundary points 16/32/64 are exact integers, so round first
  let ret = 0;
  let n;
  if (bidirectional) {
    B = Math.floor(B / 2);
    if (rp > 0) ret += B;
    n = Math.abs(rp);
  } else n = Math.max(-rp, 0);
  const maxExact = Math.floor(B / 2);
  if (n < maxExact) return ret + n;
  let x = (Math.log(n / maxExact) / Math.log(D / maxExact)) * (B - maxExact);
  if (Math.abs(x - Math.round(x)) < 1e-9) x = Math.round(x);
  return ret + Math.min(maxExact + Math.trunc(x), B - 1);
}

/** random(sizes, seed, randomF32): a descriptor as attention takes it; bias(b, at): its logit
 * bias (at: h, i, j, ip, rp = j - ip, Q, K, H, D, DV, qi, k, kj, scale, causal). */
export const ref = {
  random(sizes, seed, randomF32) {
    const numBuckets = 8 + 2 * (seed % 5),
      bidirectional = seed % 2 === 0;
    return {
      type: 't5',
      weights: randomF32(numBuckets * sizes.heads, seed),
      bidirectional,
      numBuckets,
      maxDistance: 20,
    };
  },
  bias: (b, { h, rp, H, causal }) =>
    b.weights[refBucket(rp, b.bidirectional ?? !causal, b.numBuckets ?? 32, b.maxDistance ?? 128) * H + h],
};
