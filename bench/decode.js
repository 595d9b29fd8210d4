// Grouped-query attention as LLM runtimes run it (Llama 3 / Mistral shapes: 32 query heads
// sharing 8 key/value heads, head dim 128), posenc against onnxruntime-web's wasm backend (one
// thread) and against the limit of the machine, all measured in the same run:
//   prefill  1024 tokens, causal, RoPE: the f32x4 mul+add peak for the multiply-adds a causal
//            kernel must do (QK and PV over the lower triangle);
//   decode   one new token against a cache of N keys: two limits, an f32x4 load stream over the
//            cache's bytes (every key and value read once) and the f32x4 mul+add peak for the
//            step's multiply-adds; the slower of the two binds (which one depends on the
//            machine), and the rows' % of limit is against it.
import { interleaved, maxAbsErr } from './harness.js';
import { rng } from '../tests/helpers.js';
import { gqaContribModel, gqaStandardModel } from './onnx_attention.js';

const H = 32,
  KVH = 8,
  G = H / KVH,
  D = 128,
  SCALE = 1 / Math.sqrt(D);

/** RoPE (half layout, base 10000) at positions p0 .. p0 + T - 1 of [T][nh][D], float64 angles. */
function ropeJs(x, T, nh, p0 = 0) {
  const y = new Float64Array(x.length),
    h = D / 2;
  for (let t = 0; t < T; t++) {
    for (let i = 0; i < h; i++) {
      const a = (p0 + t) * 10000 ** (-(2 * i) / D),
        c = Math.cos(a),
        s = Math.sin(a);
      for (let n = 0; n < nh; n++) {
        const o = (t * nh + n) * D;
        y[o + i] = x[o + i] * c - x[o + i + h] * s;
        y[o + i + h] = x[o + i + h] * c + x[o + i] * s;
      }
    }
  }
  return y;
}

/** float64 causal GQA (bottom-right) of S queries at the end of N keys, rows [t][head][D]. */
function refGqa(q, k, v, S, N, heads = H) {
  const out = new Float64Array(S * heads * D),
    s = new Float64Array(N);
  for (let i = 0; i < S; i++) {
    for (let h = 0; h < heads; h++) {
      const g = Math.floor(h / (heads / KVH)),
        lim = i + N - S;
      let m = -Infinity;
      for (let j = 0; j <= lim; j++) {
        let d = 0;
        for (let c = 0; c < D; c++) d += q[(i * heads + h) * D + c] * k[(j * KVH + g) * D + c];
        s[j] = d * SCALE;
        if (s[j] > m) m = s[j];
      }
      let sum = 0;
      for (let j = 0; j <= lim; j++) sum += s[j] = Math.exp(s[j] - m);
      for (let j = 0; j <= lim; j++) {
        const p = s[j] / sum;
        for (let c = 0; c < D; c++) out[(i * heads + h) * D + c] += p * v[(j * KVH + g) * D + c];
      }
    }
  }
  return out;
}

/** [T][nh][D] -> [nh][T][D] (ORT's standard graph takes heads first). */
function headsFirst(x, T, nh) {
  const y = new Float32Array(x.length);
  for (let t = 0; t < T; t++)
    for (let n = 0; n < nh; n++) y.set(x.subarray((t * nh + n) * D, (t * nh + n + 1) * D), (n * T + t) * D);
  return y;
}

async function loadOrt() {
  try {
    const ort = await import('onnxruntime-web');
    ort.env.wasm.numThreads = 1;
    ort.env.logLevel = 'error';
    return ort;
  } catch (e) {
    return { error: String(e.message ?? e).slice(0, 60) };
  }
}

async function session(ort, bytes) {
  return ort.InferenceSession.create(bytes, { executionProviders: ['wasm'], graphOptimizationLevel: 'all' });
}

export async function prefill(h) {
  const L = 1024;
  const CASE = `GQA prefill ${H} q / ${KVH} kv heads × ${L} × ${D}, causal, RoPE`;
  const r = rng(11);
  const q0 = Float32Array.from({ length: L * H * D }, r);
  const k0 = Float32Array.from({ length: L * KVH * D }, r);
  const v0 = Float32Array.from({ length: L * KVH * D }, r);
  const qr = ropeJs(q0, L, H),
    kr = ropeJs(k0, L, KVH);
  const ref = refGqa(qr, kr, v0, L, L);
  const qr32 = Float32Array.from(qr),
    kr32 = Float32Array.from(kr);
  // the multiply-adds of QK and PV over the causal triangle, at 32 per peak-loop iteration
  const MADDS = (2 * H * D * (L * (L + 1))) / 2;
  const impls = { peak: () => h.limits.bench_peak_madd(Math.round(MADDS / 32), 1.0001) };
  const errs = {};
  const bufs = [];
  for (const [name, pe] of [
    ['posenc simd', h.simd],
    ['posenc scalar', h.scalar],
  ]) {
    const qb = pe.alloc(L * H * D),
      kb = pe.alloc(L * KVH * D),
      vb = pe.alloc(L * KVH * D),
      ob = pe.alloc(L * H * D);
    bufs.push(qb, kb, vb, ob);
    vb.array.set(v0);
    const label = `${name} (applyRope ×2 + attention kvHeads ${KVH})`;
    impls[label] = () => {
      qb.array.set(q0);
      kb.array.set(k0);
      pe.applyRope(qb, { length: L, heads: H, dim: D });
      pe.applyRope(kb, { length: L, heads: KVH, dim: D });
      pe.attention({ q: qb, k: kb, v: vb, queries: L, dim: D, heads: H, kvHeads: KVH, causal: true, out: ob });
    };
    errs[label] = () => maxAbsErr(ob.array, ref);
  }
  const ort = await loadOrt();
  const notes = [];
  if (ort.error) notes.push(`onnxruntime-web unavailable: ${ort.error}`);
  else {
    try {
      const sess = await session(ort, gqaStandardModel({ H, KVH, S: L, N: L, D, scale: SCALE, causal: true }));
      const feeds = {
        q: new ort.Tensor('float32', headsFirst(qr32, L, H), [KVH, G, L, D]),
        k: new ort.Tensor('float32', headsFirst(kr32, L, KVH), [KVH, 1, L, D]),
        v: new ort.Tensor('float32', headsFirst(v0, L, KVH), [KVH, 1, L, D]),
      };
      const want = headsFirst(Float32Array.from(ref), L, H);
      let out;
      const label =
        'onnxruntime-web wasm 1 thread, standard ops (MatMul/Mul/Add mask/Softmax/MatMul; RoPE precomputed)';
      impls[label] = async () => {
        out = (await sess.run(feeds)).out.data;
      };
      errs[label] = () => maxAbsErr(out, want);
    } catch (e) {
      notes.push(`onnxruntime-web standard graph failed: ${String(e.message ?? e).slice(0, 60)}`);
    }
    try {
      const sess = await session(ort, gqaContribModel({ H, KVH, S: L, P: 0, D, scale: SCALE, maxSeq: L }));
      const feeds = {
        query: new ort.Tensor('float32', q0, [1, L, H * D]),
        key: new ort.Tensor('float32', k0, [1, L, KVH * D]),
        value: new ort.Tensor('float32', v0, [1, L, KVH * D]),
        past_key: new ort.Tensor('float32', new Float32Array(0), [1, KVH, 0, D]),
        past_value: new ort.Tensor('float32', new Float32Array(0), [1, KVH, 0, D]),
        seqlens_k: new ort.Tensor('int32', Int32Array.of(L - 1), [1]),
        total_sequence_length: new ort.Tensor('int32', Int32Array.of(L), []),
      };
      let out;
      const label = 'onnxruntime-web wasm 1 thread, com.microsoft.GroupQueryAttention (RoPE inside, do_rotary)';
      impls[label] = async () => {
        out = (await sess.run(feeds)).out.data;
      };
      errs[label] = () => maxAbsErr(out, ref);
    } catch (e) {
      notes.push(`onnxruntime-web GroupQueryAttention failed: ${String(e.message ?? e).slice(0, 60)}`);
    }
  }
  const t = await interleaved(impls, { rounds: 7, minMs: 0 });
  const rows = [];
  for (const label of Object.keys(impls)) {
    if (label === 'peak') continue;
    rows.push({ case: CASE, impl: label, ms: t[label], ofLimit: t.peak / t[label], err: errs[label]() });
  }
  for (const n of notes) rows.push({ case: CASE, impl: n, ms: NaN });
  rows.push({
    case: CASE,
    impl: `limit: f32x4 mul+add peak for the causal ${(MADDS / 1e9).toFixed(2)}G multiply-adds`,
    ms: t.peak,
    ofLimit: 1,
  });
  annotate(rows, 'posenc simd');
  for (const b of bufs) b.free();
  return rows;
}

/** Adds "N× onnxruntime-web" to the posenc SIMD row's label (ratios from this run). */
function annotate(rows, who) {
  const me = rows.find((x) => x.impl.startsWith(who));
  const others = rows.filter((x) => x.impl.startsWith('onnxruntime-web') && Number.isFinite(x.ms));
  if (!me || !others.length) return;
  me.note = `${me.note ?? ''}; ${others.map((o) => `${(o.ms / me.ms).toFixed(2)}× faster than ORT ${o.impl.includes('GroupQuery') ? 'GroupQueryAttention' : 'standard ops'}`).join(', ')}`;
}

/**
 * A model decodes thousands of tokens per session, so V8 has optimised the API's JS around the
 * kernel long before most steps run; the rounds below are far fewer. Measured (process CPU time
 * per step on a 64-key cache, where the kernel is small, at load average ~20): about 690 µs
 * over calls 10-100, 335 over 100-1000, 150 from 1000 on. So the steps are warmed on a small
 * cache first (a fraction of a second), and every size's rows time the step a decoding model
 * runs.
 */
function warmSteps(pe, steps = 2000, N = 64) {
  const cache = pe.kvCache({ heads: H, kvHeads: KVH, dim: D, capacity: N, encoding: { type: 'rope' } });
  const k = new Float32Array(N * KVH * D).map((_, i) => Math.sin(i)),
    v = k.map((x) => 0.5 * x);
  cache.append(k.subarray(0, (N - 1) * KVH * D), v.subarray(0, (N - 1) * KVH * D));
  const kN = k.subarray((N - 1) * KVH * D),
    vN = v.subarray((N - 1) * KVH * D);
  const q = pe.alloc(H * D),
    out = pe.alloc(H * D);
  q.array.set(k.subarray(0, H * D));
  for (let i = 0; i < steps; i++) {
    cache.append(kN, vN);
    cache.attend(q, { out });
    cache.truncate(N - 1);
  }
  cache.free();
  q.free();
  out.free();
}

export default async function decode(h) {
  const rows = [];
  const ort = await loadOrt();
  const pe = h.simd;
  const sizes = [1024, 2048, 4096, 8192, 16384, 32768];
  const r = rng(12);
  const maxN = sizes[sizes.length - 1];
  const k0 = Float32Array.from({ length: maxN * KVH * D }, r);
  const v0 = Float32Array.from({ length: maxN * KVH * D }, r);
  const q1 = Float32Array.from({ length: H * D }, r);
  warmSteps(pe);
  for (const N of sizes) {
    const CASE = `GQA decode 1 query × ${H} q / ${KVH} kv heads × ${D}, cache of ${N} keys, RoPE`;
    process.stderr.write(`[bench] decode ${N}\n`);
    const withOrt = N <= 16384 && !ort.error;
    // posenc: a cache holding N - 1 tokens; a step appends the Nth, attends, truncates back
    const cache = pe.kvCache({ heads: H, kvHeads: KVH, dim: D, capacity: N, encoding: { type: 'rope' } });
    for (let t0 = 0; t0 < N - 1; t0 += 1024) {
      const n = Math.min(1024, N - 1 - t0);
      cache.append(k0.subarray(t0 * KVH * D, (t0 + n) * KVH * D), v0.subarray(t0 * KVH * D, (t0 + n) * KVH * D));
    }
    const kN = k0.subarray((N - 1) * KVH * D, N * KVH * D),
      vN = v0.subarray((N - 1) * KVH * D, N * KVH * D);
    const qbuf = pe.alloc(H * D),
      obuf = pe.alloc(H * D);
    qbuf.array.set(q1);
    const impls = {};
    const errs = {};
    // the limit: an f32x4 load stream over the bytes of the cache's keys and values
    const floats = 2 * N * KVH * D;
    const lp = h.limits.bench_alloc(floats * 4);
    new Float32Array(h.limits.memory.buffer, lp, floats).fill(0.5);
    impls.limit = () => h.limits.bench_load_stream(lp, floats);
    // the arithmetic limit: a step does H * N * D multiply-adds for the scores and as many for
    // P V (4 query heads share each cached key; SIMD128 has no FMA): the f32x4 mul+add peak
    const madds = 2 * H * N * D;
    impls.peak = () => h.limits.bench_peak_madd(Math.ceil(madds / 32), 1.0);
    const label = 'posenc simd kvCache (append + attend, RoPE at the running position)';
    impls[label] = () => {
      cache.append(kN, vN);
      cache.attend(qbuf, { out: obuf });
      cache.truncate(N - 1);
    };
    let ref = null;
    if (N <= 16384) {
      const kr = ropeJs(k0.subarray(0, N * KVH * D), N, KVH);
      const qr = ropeJs(q1, 1, H, N - 1);
      ref = refGqa(qr, kr, v0.subarray(0, N * KVH * D), 1, N);
      errs[label] = () => maxAbsErr(obuf.array, ref);
      if (withOrt) {
        const krh = headsFirst(Float32Array.from(kr), N, KVH),
          vh = headsFirst(v0.subarray(0, N * KVH * D), N, KVH);
        try {
          const sess = await session(ort, gqaStandardModel({ H, KVH, S: 1, N, D, scale: SCALE, causal: false }));
          const feeds = {
            q: new ort.Tensor('float32', Float32Array.from(qr), [KVH, G, 1, D]),
            k: new ort.Tensor('float32', krh, [KVH, 1, N, D]),
            v: new ort.Tensor('float32', vh, [KVH, 1, N, D]),
          };
          let out;
          const l2 = 'onnxruntime-web wasm 1 thread, standard ops (RoPE precomputed; the cache is an input)';
          impls[l2] = async () => {
            out = (await sess.run(feeds)).out.data;
          };
          errs[l2] = () => maxAbsErr(out, ref);
        } catch (e) {
          rows.push({
            case: CASE,
            impl: `onnxruntime-web standard graph failed: ${String(e.message ?? e).slice(0, 60)}`,
            ms: NaN,
          });
        }
        try {
          const P = N - 1;
          const sess = await session(ort, gqaContribModel({ H, KVH, S: 1, P, D, scale: SCALE, maxSeq: N }));
          // past keys as GroupQueryAttention keeps them: rotated, [1][KVH][P][D]
          const feeds = {
            query: new ort.Tensor('float32', q1, [1, 1, H * D]),
            key: new ort.Tensor('float32', Float32Array.from(kN), [1, 1, KVH * D]),
            value: new ort.Tensor('float32', Float32Array.from(vN), [1, 1, KVH * D]),
            past_key: new ort.Tensor('float32', headsFirst(Float32Array.from(kr.subarray(0, P * KVH * D)), P, KVH), [
              1,
              KVH,
              P,
              D,
            ]),
            past_value: new ort.Tensor('float32', headsFirst(v0.subarray(0, P * KVH * D), P, KVH), [1, KVH, P, D]),
            seqlens_k: new ort.Tensor('int32', Int32Array.of(N - 1), [1]),
            total_sequence_length: new ort.Tensor('int32', Int32Array.of(N), []),
          };
          let out;
          const l3 =
            'onnxruntime-web wasm 1 thread, com.microsoft.GroupQueryAttention (past_key/past_value in, present out)';
          impls[l3] = async () => {
            out = (await sess.run(feeds)).out.data;
          };
          errs[l3] = () => maxAbsErr(out, ref);
        } catch (e) {
          rows.push({
            case: CASE,
            impl: `onnxruntime-web GroupQueryAttention failed: ${String(e.message ?? e).slice(0, 60)}`,
            ms: NaN,
          });
        }
      }
    }
    const t = await interleaved(impls, { rounds: N >= 16384 ? 9 : 15, minMs: 1500 });
    // Two limits: a step must read the cache (the load stream) and do its multiply-adds (the
    // peak); the slower of the two binds, and every row's % of limit is against that one.
    const peakBinds = t.peak > t.limit;
    const bound = Math.max(t.peak, t.limit);
    const pct = (x) => `${(100 * x).toFixed(0)}%`;
    const mine = [];
    for (const l of Object.keys(impls)) {
      if (l === 'limit' || l === 'peak') continue;
      mine.push({
        case: CASE,
        impl: l,
        ms: t[l],
        ofLimit: bound / t[l],
        err: errs[l]?.(),
        note: `; ${pct(t.limit / t[l])} of the load stream, ${pct(t.peak / t[l])} of the mul+add peak: the ${peakBinds ? 'peak' : 'load stream'} binds`,
      });
    }
    mine.push({
      case: CASE,
      impl: `limit: f32x4 load stream over the cache's ${((floats * 4) / 2 ** 20).toFixed(0)} MiB of keys and values`,
      note: peakBinds ? '' : ' (binds)',
      ms: t.limit,
      ofLimit: t.limit / bound,
    });
    mine.push({
      case: CASE,
      impl: `limit: f32x4 mul+add peak for the step's ${(madds / 1e6).toFixed(1)}M multiply-adds`,
      note: peakBinds ? ' (binds)' : '',
      ms: t.peak,
      ofLimit: t.peak / bound,
    });
    annotate(mine, 'posenc simd');
    rows.push(...mine);
    h.limits.bench_free(lp);
    cache.free();
    qbuf.free();
    obuf.free();
  }
  return rows;
}
