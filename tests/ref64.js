// Float64 references shared by the attention tests, written from the papers' definitions and
// independent of the C code, and random biases of every kind of the registry (js/encodings.js):
// a fused kind's own reference and random descriptor are its folder's ref_<type>.js (REFS).
import { ENCODINGS } from '../js/encodings.js';
import { randomF32 } from './helpers.js';
import { REFS } from './ref_kinds.js';

export { refSlopes } from '../families/relative/ref_alibi.js';
export { refBucket } from '../families/relative/ref_t5.js';

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
  const kind = bias?.type ? REFS[bias.type] : undefined;
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
          scale * dot(qi, 0, k, kj, D) +
          refBias(bias, { qi, k, kj, h, i, j, ip, rp: j - ip, Q, K, H, D, scale, causal });
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
          if (kind?.value) val += kind.value(bias, { h, i, j, ip, rp: j - ip, DV }, c);
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

/** The logit bias of query i (head h) at key j, rp = j - ip, in float64, for every kind. */
function refBias(bias, at) {
  if (bias === undefined) return 0;
  if (bias instanceof Float32Array) return bias[(at.h * at.Q + at.i) * at.K + at.j];
  if (bias.type === 'none') return 0;
  const ref = REFS[bias.type];
  if (!ref)
    throw new Error(`tests/ref64.js refBias: the bias '${bias.type}' has no float64 reference (its ref_<type>.js)`);
  return ref.bias(bias, at);
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
    case undefined:
    case 'none': // attention's "no bias" (kvCache and selfAttention take it as { type: 'none' })
      return undefined;
    default: {
      const ref = REFS[type];
      if (!ref) throw new Error(`tests/ref64.js randomBias: the bias '${type}' has no ref_<type>.js with random`);
      return ref.random({ heads, dim, dimV, keys, queries, dModel }, seed, randomF32);
    }
  }
}
