// Float64 references shared by the attention tests, written from the papers' definitions and
// independent of the C code, and random biases of every kind of the registry (js/encodings.js).
import { ENCODINGS } from '../js/encodings.js';
import { randomF32 } from './helpers.js';

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

/**
 * Attention, the definition: logits = scale (f_i q).k + bias, masked -> -inf, row softmax (all
 * masked -> 0), P V. Grouped heads: query head h reads kv head floor(h / (heads / kvHeads)).
 * Query i sits at position i + offset (offset defaults to the alignment's: keys - queries for
 * 'bottom-right', else 0). The causal mask is the alignment's when `align` is given, else the
 * offset's; window W keeps |j - (i + offset)| < W (HF sliding_window), chunk C keeps keys in the
 * query's chunk (Llama 4); qscale[i] multiplies query i (HF query_states * attn_scales).
 * bias: undefined | Float32Array [heads][queries][keys] | { type, ... } as the API takes it.
 */
export function refAttention({
  q,
  k,
  v,
  queries: Q,
  keys: K = Q,
  dim: D,
  dimV: DV = D,
  heads: H = 1,
  kvHeads: KVH = H,
  scale = 1 / Math.sqrt(D),
  causal = false,
  align,
  offset,
  window = 0,
  chunk = 0,
  qscale,
  bias,
}) {
  offset ??= align === 'bottom-right' ? K - Q : 0;
  const maskAt = align === undefined ? offset : align === 'bottom-right' ? K - Q : 0;
  const G = H / KVH;
  const out = new Float64Array(Q * H * DV),
    w = new Float64Array(H * Q * K);
  const slopes = bias?.type === 'alibi' ? refSlopes(H) : null;
  for (let h = 0; h < H; h++) {
    const g = Math.floor(h / G);
    for (let i = 0; i < Q; i++) {
      const f = qscale ? qscale[i] : 1;
      const qi = Array.from({ length: D }, (_, d) => f * q[(i * H + h) * D + d]);
      const ip = i + offset;
      const s = new Float64Array(K).fill(-Infinity);
      for (let j = 0; j < K; j++) {
        if (causal && j > i + maskAt) continue;
        if (window > 0 && Math.abs(j - ip) >= window) continue;
        if (chunk > 0 && Math.floor(j / chunk) !== Math.floor(ip / chunk)) continue;
        const kj = (j * KVH + g) * D;
        s[j] =
          scale * dot(qi, 0, k, kj, D) + refBias(bias, { qi, k, kj, h, i, j, ip, Q, K, H, D, scale, causal, slopes });
      }
      const m = Math.max(...s);
      if (m === -Infinity) continue; // a fully masked row: zeros
      let sum = 0;
      for (let j = 0; j < K; j++) sum += s[j] = Math.exp(s[j] - m);
      for (let j = 0; j < K; j++) {
        const p = s[j] / sum;
        w[(h * Q + i) * K + j] = p;
        if (!p) continue;
        for (let c = 0; c < DV; c++) {
          let val = v[(j * KVH + g) * DV + c];
          if (bias?.type === 'shaw') val += bias.aV[shawIndex(bias, j - ip) * DV + c];
          out[(i * H + h) * DV + c] += p * val;
        }
      }
    }
  }
  return { output: out, weights: w };
}

function dot(a, ai, b, bi, n) {
  let s = 0;
  for (let d = 0; d < n; d++) s += a[ai + d] * b[bi + d];
  return s;
}

const shawIndex = (bias, rp) => Math.max(-bias.maxRelative, Math.min(bias.maxRelative, rp)) + bias.maxRelative;

/** The logit bias of query i (head h) at key j, rp = j - ip, in float64, for every kind. */
function refBias(bias, { qi, k, kj, h, i, j, ip, Q, K, H, D, scale, causal, slopes }) {
  const rp = j - ip;
  if (bias === undefined) return 0;
  if (bias instanceof Float32Array) return bias[(h * Q + i) * K + j];
  switch (bias.type) {
    case 'none':
      return 0;
    case 'alibi': {
      const f = bias.form ?? 'relative';
      return slopes[h] * (f === 'relative' ? rp : f === 'symmetric' ? -Math.abs(rp) : j);
    }
    case 't5':
      return bias.weights[
        refBucket(rp, bias.bidirectional ?? !causal, bias.numBuckets ?? 32, bias.maxDistance ?? 128) * H + h
      ];
    case 'shaw':
      return scale * dot(qi, 0, bias.aK, shawIndex(bias, rp) * D, D);
    case 'xl': {
      const rows = bias.r.length / (H * D);
      const row = Math.max(0, Math.min(rows - 1, K - 1 - (ip - j)));
      let t = 0;
      for (let d = 0; d < D; d++)
        t += bias.u[h * D + d] * k[kj + d] + (qi[d] + bias.v[h * D + d]) * bias.r[(row * H + h) * D + d];
      return scale * t;
    }
    default:
      throw new Error(`tests/ref64.js refBias: no float64 reference for the bias '${bias.type}'; add one`);
  }
}

/** `bias` with only the keys `host` takes (js/encodings.js ENCODINGS[type].hosts). */
export function forHost(host, bias) {
  const keys = ENCODINGS[bias.type].hosts[host];
  return Object.fromEntries(Object.entries(bias).filter(([key]) => key === 'type' || keys.includes(key)));
}

/**
 * A random bias of `type` for a problem (seed varies its form), as attention takes it; a kind of
 * the registry without one throws, naming this function.
 */
export function randomBias(type, { heads, dim, dimV = dim, keys, queries, dModel }, seed) {
  switch (type) {
    case 'dense': {
      const b = randomF32(heads * queries * keys, seed);
      for (let i = 0; i < b.length; i += 7) b[i] = -Infinity; // some blocked entries
      return b;
    }
    case 'alibi':
      return { type, form: ['relative', 'symmetric', 'reference'][seed % 3] };
    case 't5': {
      const numBuckets = 8 + 2 * (seed % 5),
        bidirectional = seed % 2 === 0;
      return { type, weights: randomF32(numBuckets * heads, seed), bidirectional, numBuckets, maxDistance: 20 };
    }
    case 'shaw': {
      const maxRelative = 1 + (seed % 4);
      return {
        type,
        maxRelative,
        aK: randomF32((2 * maxRelative + 1) * dim, seed),
        aV: randomF32((2 * maxRelative + 1) * dimV, seed + 1),
      };
    }
    case 'xl': {
      const rows = keys + (seed % 2 ? queries - 1 : 0);
      return {
        type,
        u: randomF32(heads * dim, seed),
        v: randomF32(heads * dim, seed + 1),
        r: randomF32(rows * heads * dim, seed + 2),
        ...(dModel && { wr: randomF32(dModel * dModel, seed + 3) }), // selfAttention's: r = wr · positions
      };
    }
    case undefined:
    case 'none': // attention's "no bias" (kvCache and selfAttention take it as { type: 'none' })
      return undefined;
    default:
      throw new Error(`tests/ref64.js randomBias: no random '${type}' bias; add one and its float64 reference`);
  }
}
