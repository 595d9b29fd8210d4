// Relative-position family (families/relative/alibi.md, families/relative/t5.md, families/relative/relative.md): ALiBi, T5 buckets and bias, Shaw
// indices, Transformer-XL (R, rel-shift, four-term score). Bias matrices are Float32Array
// [heads][queries][keys] with masked entries -Infinity; index maps are Int32Array [queries][keys].
// Query i sits at position i + offset, key j at j: rp = j - (i + offset).
import { Status } from '../../js/errors.js';
import { ALIBI_FORM, ENCODINGS } from '../../js/encodings.js';
import { bool, choice, elements, fail, int, MAX_INT32, num, options } from '../../js/validate.js';
import { callNamed, LOGIT_LIMIT } from '../../js/values.js';

const OFFSET = { min: -MAX_INT32, max: MAX_INT32, def: 0 };

/** numBuckets / maxDistance / bidirectional from the registry (js/encodings.js: T5's one parser;
 * these calls have no mask, so bidirectional defaults to true), and the offset. */
function bucketOptions(fn, o) {
  const t5 = ENCODINGS.t5.parse(
    { bidirectional: o.bidirectional, numBuckets: o.numBuckets, maxDistance: o.maxDistance },
    { fn, causal: false },
  );
  const offset = int(fn, 'offset', o.offset, OFFSET);
  return { bidirectional: t5.bidirectional ? 1 : 0, numBuckets: t5.numBuckets, maxDistance: t5.maxDistance, offset };
}

export function relativeFamily(core) {
  return {
    /** ALiBi slopes (families/relative/alibi.md closed form, exp2), float32. Python's float64 list differs in the last bits only. */
    alibiSlopes(heads, opts) {
      const fn = 'alibiSlopes';
      const o = options(fn, opts, ['out']);
      const h = int(fn, 'heads', heads, { max: 2 ** 28 });
      return core.run(fn, (s) => {
        const out = s.out('out', o.out, Float32Array, h);
        s.call('posenc_alibi_slopes', out.ptr, h);
        return out.take();
      });
    },

    alibiBias(opts) {
      const fn = 'alibiBias';
      const o = options(fn, opts, ['heads', 'queries', 'keys', 'form', 'causal', 'offset', 'out']);
      const heads = int(fn, 'heads', o.heads);
      const queries = int(fn, 'queries', o.queries);
      const keys = int(fn, 'keys', o.keys, { def: queries });
      const form = choice(fn, 'form', o.form, ALIBI_FORM, 'relative');
      const causal = bool(fn, 'causal', o.causal, true);
      const offset = int(fn, 'offset', o.offset, OFFSET);
      const n = elements(fn, 'heads * queries * keys', heads, queries, keys);
      return core.run(fn, (s) => {
        const out = s.out('out', o.out, Float32Array, n);
        s.call('posenc_alibi_bias', out.ptr, heads, queries, keys, form, causal ? 1 : 0, offset);
        return out.take();
      });
    },

    t5Buckets(opts) {
      const fn = 't5Buckets';
      const o = options(fn, opts, ['queries', 'keys', 'bidirectional', 'numBuckets', 'maxDistance', 'offset', 'out']);
      const queries = int(fn, 'queries', o.queries);
      const keys = int(fn, 'keys', o.keys, { def: queries });
      const b = bucketOptions(fn, o);
      const n = elements(fn, 'queries * keys', queries, keys);
      return core.run(fn, (s) => {
        const out = s.out('out', o.out, Int32Array, n);
        s.call('posenc_t5_buckets', out.ptr, queries, keys, b.bidirectional, b.numBuckets, b.maxDistance, b.offset);
        return out.take();
      });
    },

    /** weights: [numBuckets][heads] (HF relative_attention_bias.weight). */
    t5Bias(opts) {
      const fn = 't5Bias';
      const o = options(fn, opts, [
        'weights',
        'heads',
        'queries',
        'keys',
        'bidirectional',
        'numBuckets',
        'maxDistance',
        'offset',
        'out',
      ]);
      const heads = int(fn, 'heads', o.heads);
      const queries = int(fn, 'queries', o.queries);
      const keys = int(fn, 'keys', o.keys, { def: queries });
      const b = bucketOptions(fn, o);
      const n = elements(fn, 'heads * queries * keys', heads, queries, keys);
      const nw = elements(fn, 'numBuckets * heads', b.numBuckets, heads);
      return core.run(fn, (s) => {
        const w = s.in('weights', o.weights, Float32Array, nw, { finite: 'all' });
        const out = s.out('out', o.out, Float32Array, n);
        s.call(
          'posenc_t5_bias',
          out.ptr,
          w,
          heads,
          queries,
          keys,
          b.bidirectional,
          b.numBuckets,
          b.maxDistance,
          b.offset,
        );
        return out.take();
      });
    },

    /** Shaw et al. indices clip(rp, -k, k) + k. Default offset keys - queries: the queries are
     * the last `queries` key positions, as in tensor2tensor. */
    shawIndices(opts) {
      const fn = 'shawIndices';
      const o = options(fn, opts, ['queries', 'keys', 'maxRelative', 'offset', 'out']);
      const queries = int(fn, 'queries', o.queries);
      const keys = int(fn, 'keys', o.keys, { def: queries });
      const maxRelative = int(fn, 'maxRelative', o.maxRelative, { max: 2 ** 28 });
      const offset = int(fn, 'offset', o.offset, { ...OFFSET, def: keys - queries });
      const n = elements(fn, 'queries * keys', queries, keys);
      return core.run(fn, (s) => {
        const out = s.out('out', o.out, Int32Array, n);
        s.call('posenc_shaw_indices', out.ptr, queries, keys, maxRelative, offset);
        return out.take();
      });
    },

    /** Transformer-XL R: [klen][dim], row t = [sin(p w) | cos(p w)] for p = klen-1-t (clamped at clampLen). */
    xlPositions(opts) {
      const fn = 'xlPositions';
      const o = options(fn, opts, ['klen', 'dim', 'base', 'clampLen', 'out']);
      const klen = int(fn, 'klen', o.klen);
      const dim = int(fn, 'dim', o.dim);
      const base = num(fn, 'base', o.base, { gt: 1, def: 10000 });
      // clampLen <= 0 means no clamp (Transformer-XL's default clamp_len = -1; it clamps only when > 0)
      const clampLen = int(fn, 'clampLen', o.clampLen, { min: -MAX_INT32, def: 0 });
      if (dim % 2) throw fail(fn, 'dim', Status.E_ODD, 'even (R is [sin | cos] halves)', dim);
      const n = elements(fn, 'klen * dim', klen, dim);
      return core.run(fn, (s) => {
        const out = s.out('out', o.out, Float32Array, n);
        s.call('posenc_xl_positions', out.ptr, klen, dim, base, clampLen);
        return out.take();
      });
    },

    /** out[i][j] = scores[i][j + queries-1-i] for j <= i + memory, 0 elsewhere (XL zero_triu). */
    relShift(scores, opts) {
      const fn = 'relShift';
      const o = options(fn, opts, ['queries', 'keys', 'memory', 'out']);
      const queries = int(fn, 'queries', o.queries);
      let memory;
      let keys;
      if (o.memory !== undefined) {
        memory = int(fn, 'memory', o.memory, { min: 0 });
        keys = int(fn, 'keys', o.keys, { def: queries + memory });
        if (keys !== queries + memory) {
          throw fail(
            fn,
            'keys',
            Status.E_PARAM,
            `queries + memory = ${queries + memory} (Transformer-XL klen = qlen + mlen)`,
            keys,
          );
        }
      } else {
        keys = int(fn, 'keys', o.keys, { min: queries, def: queries });
        memory = keys - queries;
      }
      const n = elements(fn, 'queries * keys', queries, keys);
      return core.run(fn, (s) => {
        const x = s.in('scores', scores, Float32Array, n, { finite: 'all' });
        // out may be scores itself (documented in place; C supports it), never a partial overlap
        const out = s.out('out', o.out, Float32Array, n, { same: 'scores' });
        s.call('posenc_xl_rel_shift', out.ptr, x, queries, memory);
        return out.take();
      });
    },

    /** Four-term Transformer-XL score, [heads][queries][keys], masked (j > i + memory) = -Infinity. */
    xlScores(opts) {
      const fn = 'xlScores';
      const o = options(fn, opts, ['q', 'k', 'r', 'u', 'v', 'queries', 'keys', 'heads', 'dim', 'scale', 'out']);
      const queries = int(fn, 'queries', o.queries);
      const keys = int(fn, 'keys', o.keys, { min: queries, def: queries });
      const heads = int(fn, 'heads', o.heads, { def: 1 });
      const dim = int(fn, 'dim', o.dim);
      const scale = num(fn, 'scale', o.scale, { def: 1 / Math.sqrt(dim) });
      const n = elements(fn, 'heads * queries * keys', heads, queries, keys);
      const nq = elements(fn, 'queries * heads * dim', queries, heads, dim);
      const nk = elements(fn, 'keys * heads * dim', keys, heads, dim);
      const nu = heads * dim;
      return core.run(fn, (s) => {
        const q = s.in('q', o.q, Float32Array, nq);
        const k = s.in('k', o.k, Float32Array, nk);
        const r = s.in('r', o.r, Float32Array, nk);
        const u = s.in('u', o.u, Float32Array, nu);
        const v = s.in('v', o.v, Float32Array, nu);
        const out = s.out('out', o.out, Float32Array, n);
        const arrays = [
          ['q', q, nq],
          ['k', k, nk],
          ['r', r, nk],
          ['u', u, nu],
          ['v', v, nu],
        ].map(([name, ptr, n]) => ({ name, ptr, n }));
        callNamed(
          s,
          core,
          'posenc_xl_scores',
          [out.ptr, q, k, r, u, v, queries, keys, heads, dim, scale],
          arrays,
          (m) => ({
            name: 'q, k, r, u, v',
            allowed: `small enough that the scores fit float32: dim · ((max|q| + max|u|) · max|k| + (max|q| + max|v|) · max|r|) · max(1, |scale|) <= ${LOGIT_LIMIT}`,
            got: dim * ((m.q + m.u) * m.k + (m.q + m.v) * m.r) * Math.max(1, Math.abs(scale)),
          }),
        );
        return out.take();
      });
    },
  };
}
relativeFamily.core = 'encodings'; // the smallest core with its C entry points (js/lite.js)
