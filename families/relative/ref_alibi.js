// ALiBi's float64 reference for the tests (tests/ref64.js reads it through the generated
// tests/ref_kinds.js): a random descriptor and the logit bias, from the paper's definition.

/** ALiBi head slopes (Press et al. 2022, the reference implementation's recursive definition). */
export function refSlopes(n) {
  const pow2 = (m) => {
    const start = 2 ** -(2 ** -(Math.log2(m) - 3));
    return Array.from({ length: m }, (_, k) => start * start ** k);
  };
  if (Number.isInteger(Math.log2(n))) return pow2(n);
  const c = 2 ** Math.floor(Math.log2(n));
  return [
    ...pow2(c),
    ...pow2(2 * c)
      .filter((_, i) => i % 2 === 0)
      .slice(0, n - c),
  ];
}

const slopesOf = new Map();

/** random(sizes, seed, randomF32): a descriptor as attention takes it; bias(b, at): its logit
 * bias (at: h, i, j, ip, rp = j - ip, Q, K, H, D, DV, qi, k, kj, scale, causal). */
export const ref = {
  /** A random descriptor (seed varies it), as attention takes it. */
  random: (sizes, seed) => ({ type: 'alibi', form: ['relative', 'symmetric', 'reference'][seed % 3] }),
  /** The float64 logit bias of query head h at key j (rp = j - (i + offset)). */
  bias(b, { h, j, rp, H }) {
    if (!slopesOf.has(H)) slopesOf.set(H, refSlopes(H));
    const f = b.form ?? 'relative';
    return slopesOf.get(H)[h] * (f === 'relative' ? rp : f === 'symmetric' ? -Math.abs(rp) : j);
  },
};
