// Float64 references shared by the attention tests, written from the papers' definitions and
// independent of the C code.

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
