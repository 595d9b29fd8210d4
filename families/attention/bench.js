// Single-head attention with RoPE on q and k, 1024 x 64, non-causal:
// posenc (SIMD, scalar) vs the obvious JS loops vs onnxruntime-web (wasm backend, one thread)
// vs the f32x4 mul+add peak. % of limit = time the peak needs for the same multiply-adds / time.
import { interleaved, maxAbsErr } from '../../bench/harness.js';
import { rng } from '../../tests/helpers.js';
import { attentionModel } from '../../bench/onnx_attention.js';

const L = 1024,
  D = 64;
const MADDS = 2 * L * L * D; // Q K^T and P V

/** RoPE, half layout, base 10000, positions 0..L-1 (float64 angles), into a copy. */
function ropeJs(x) {
  const y = new Float32Array(x.length),
    h = D / 2;
  for (let p = 0; p < L; p++) {
    for (let i = 0; i < h; i++) {
      const a = p * 10000 ** (-(2 * i) / D),
        c = Math.cos(a),
        s = Math.sin(a);
      const x0 = x[p * D + i],
        x1 = x[p * D + i + h];
      y[p * D + i] = x0 * c - x1 * s;
      y[p * D + i + h] = x1 * c + x0 * s;
    }
  }
  return y;
}

/** The obvious loops: scores row, max-subtracted softmax, weighted sum of V. */
function attentionJs(q, k, v, out, F = Float32Array) {
  const s = new F(L),
    scale = 1 / Math.sqrt(D);
  for (let i = 0; i < L; i++) {
    let m = -Infinity;
    for (let j = 0; j < L; j++) {
      let d = 0;
      for (let c = 0; c < D; c++) d += q[i * D + c] * k[j * D + c];
      s[j] = d * scale;
      if (s[j] > m) m = s[j];
    }
    let sum = 0;
    for (let j = 0; j < L; j++) sum += s[j] = Math.exp(s[j] - m);
    for (let c = 0; c < D; c++) {
      let o = 0;
      for (let j = 0; j < L; j++) o += s[j] * v[j * D + c];
      out[i * D + c] = o / sum;
    }
  }
  return out;
}

export default async function attention(h) {
  const r = rng(7);
  const q0 = Float32Array.from({ length: L * D }, r);
  const k0 = Float32Array.from({ length: L * D }, r);
  const v0 = Float32Array.from({ length: L * D }, r);
  const qr = ropeJs(q0),
    kr = ropeJs(k0);
  const ref = attentionJs(
    Float64Array.from(qr),
    Float64Array.from(kr),
    Float64Array.from(v0),
    new Float64Array(L * D),
    Float64Array,
  );

  const CASE = `attention + RoPE 1 head ${L}×${D}`;
  // the peak loop doing exactly the attention's multiply-adds (32 per iteration)
  const peak = () => h.limits.bench_peak_madd(MADDS / 32, 1.0001);

  const jsOut = new Float32Array(L * D);
  const tJs = h.time(() => attentionJs(ropeJs(q0), ropeJs(k0), v0, jsOut), { minMs: 2000, minReps: 3 });

  const impls = { peak };
  const errs = {};
  const bufs = [];
  for (const [name, pe] of [
    ['posenc simd', h.simd],
    ['posenc scalar', h.scalar],
  ]) {
    const qb = pe.alloc(L * D),
      kb = pe.alloc(L * D),
      vb = pe.alloc(L * D),
      ob = pe.alloc(L * D);
    bufs.push(qb, kb, vb, ob);
    vb.array.set(v0);
    const hasRope = typeof pe.applyRope === 'function';
    const label = `${name} (applyRope ×2 + attention${hasRope ? '' : '; RoPE family absent, rope precomputed'})`;
    impls[label] = () => {
      if (hasRope) {
        qb.array.set(q0);
        kb.array.set(k0);
        pe.applyRope(qb, { length: L, dim: D });
        pe.applyRope(kb, { length: L, dim: D });
      } else {
        qb.array.set(qr);
        kb.array.set(kr);
      }
      pe.attention({ q: qb, k: kb, v: vb, queries: L, dim: D, out: ob });
    };
    errs[label] = () => maxAbsErr(ob.array, ref);
  }

  let ortNote = null;
  try {
    const ort = await import('onnxruntime-web');
    ort.env.wasm.numThreads = 1;
    ort.env.logLevel = 'error';
    const sess = await ort.InferenceSession.create(attentionModel(L, L, D, D, 1 / Math.sqrt(D)), {
      executionProviders: ['wasm'],
      graphOptimizationLevel: 'all',
    });
    const feeds = {
      q: new ort.Tensor('float32', qr, [L, D]),
      k: new ort.Tensor('float32', kr, [L, D]),
      v: new ort.Tensor('float32', v0, [L, D]),
    };
    let out;
    const label = 'onnxruntime-web wasm, 1 thread (Transpose/MatMul/Mul/Softmax/MatMul; rope precomputed)';
    impls[label] = async () => {
      out = (await sess.run(feeds)).out.data;
    };
    errs[label] = () => maxAbsErr(out, ref);
  } catch (e) {
    ortNote = `onnxruntime-web unavailable: ${String(e.message ?? e).slice(0, 60)}`;
  }

  const t = await interleaved(impls);
  const tPeak = t.peak;
  const rows = [
    {
      case: CASE,
      impl: 'plain JS loops (rope + scores + softmax + PV)',
      ms: tJs,
      vsJs: 1,
      ofLimit: tPeak / tJs,
      err: maxAbsErr(jsOut, ref),
    },
  ];
  for (const label of Object.keys(impls)) {
    if (label === 'peak') continue;
    rows.push({
      case: CASE,
      impl: label,
      ms: t[label],
      vsJs: tJs / t[label],
      ofLimit: tPeak / t[label],
      err: errs[label](),
    });
  }
  if (ortNote) rows.push({ case: CASE, impl: ortNote, ms: NaN });
  for (const b of bufs) b.free();
  rows.push({
    case: CASE,
    impl: `limit: f32x4 mul+add peak for the same ${MADDS / 1e6}M multiply-adds`,
    ms: tPeak,
    vsJs: tJs / tPeak,
    ofLimit: 1,
  });
  return rows;
}
