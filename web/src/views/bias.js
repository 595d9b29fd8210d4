// Bias: the relative methods, which add a number to each attention logit instead of touching the
// vectors. ALiBi per head (slopes and matrices), T5's bucket function and matrix, Shaw's indices.
import { createMatrixPanel, createPlot, fmt } from '../draw.js';
import { need } from '../methods.js';
import { matrixExport, plotExport, shell } from './common.js';

const SMALL = 32;

export function setupBias(el, ctx) {
  const v = shell(el, 'Attention biases',
    `Added to the query × key scores before the softmax; −∞ (grey) is the causal mask. Matrices show ${SMALL} queries × ${SMALL} keys.`);
  const alibi = document.createElement('div');
  alibi.innerHTML = '<h3>ALiBi</h3><div class="pair"></div><div class="multiples"></div><div class="pair soft"></div>';
  const t5 = document.createElement('div');
  t5.innerHTML = '<h3>T5 buckets</h3><div class="pair"></div>';
  const shaw = document.createElement('div');
  shaw.innerHTML = '<h3>Shaw et al. (clipped relative positions)</h3><div class="pair"></div>';
  v.body.append(alibi, t5, shaw);
  const slopes = createPlot(alibi.querySelector('.pair'), { height: 200 });
  const soft = createPlot(alibi.querySelector('.soft'), { height: 200 });
  const heads = [];
  const bucketPlot = createPlot(t5.querySelector('.pair'), { height: 200 });
  const bucketMat = createMatrixPanel(t5.querySelector('.pair'), { rowLabel: 'query', colLabel: 'key', square: true });
  const shawMat = createMatrixPanel(shaw.querySelector('.pair'), { rowLabel: 'query', colLabel: 'key', square: true });

  return {
    update(st) {
      v.clear();
      const pe = ctx.pe;
      v.guard(() => {
        need(pe, 'alibiSlopes', 'alibiBias');
        const m = pe.alibiSlopes(st.heads);
        slopes.setTitle(`ALiBi slopes for ${st.heads} heads (geometric: 2^(−8h/n))`);
        slopes.draw([{ x: Float32Array.from(m, (_, h) => h + 1), y: m, label: 'slope mₕ', dots: true }], { xLabel: 'head', yLabel: 'slope', integerX: true });
        const n = SMALL;
        const b = pe.alibiBias({ heads: st.heads, queries: n, causal: true });
        const show = Math.min(st.heads, 8);
        const box = alibi.querySelector('.multiples');
        while (heads.length < show) heads.push(createMatrixPanel(box, { small: true, rowLabel: 'query', colLabel: 'key' }));
        heads.forEach((p, h) => {
          p.fig.hidden = h >= show;
          if (h >= show) return;
          const vals = b.subarray(h * n * n, (h + 1) * n * n);
          p.setTitle(`h${h + 1} · m=${fmt(m[h])}`);
          p.draw(vals, n, n, { lo: -m[h] * (n - 1), hi: 0, palette: st.palette });
        });
        // What the bias alone does to attention: softmax of the last query's row, per head. With
        // q = k = 0 every logit is the bias, so the weights come straight from pe.attention.
        need(pe, 'attention');
        const H = show;
        const zeros = new Float32Array(n * H);
        const { weights } = pe.attention({ q: zeros, k: zeros, v: zeros, queries: n, dim: 1, heads: H, causal: true,
          bias: { type: 'alibi', form: 'relative' }, returnWeights: true });
        const x = Float32Array.from({ length: n }, (_, j) => j - (n - 1));
        soft.setTitle(`Softmax of the last query's row (bias only): steep slopes look only at the nearest keys`);
        soft.draw(Array.from({ length: H }, (_, h) => ({ x, y: weights.subarray(h * n * n + (n - 1) * n, (h + 1) * n * n), label: `h${h + 1}` })),
          { xLabel: 'key − query', yLabel: 'attention weight' });
      }, 'ALiBi');
      v.guard(() => {
        need(pe, 't5Buckets');
        const R = 200;
        const x = Float32Array.from({ length: 2 * R + 1 }, (_, j) => j - R);
        const numBuckets = st.buckets;
        // the bucket function needs max distance beyond its exact range (numBuckets/4 or /2)
        const exact = (d) => (d ? numBuckets >> 2 : numBuckets >> 1);
        const cfg = (bidirectional) => ({ numBuckets, maxDistance: Math.max(st.maxdist, exact(bidirectional) + 1), bidirectional });
        const bi = pe.t5Buckets({ queries: 1, keys: 2 * R + 1, offset: R, ...cfg(true) });
        const uni = pe.t5Buckets({ queries: 1, keys: 2 * R + 1, offset: R, ...cfg(false) });
        bucketPlot.setTitle(`Bucket function (${numBuckets} buckets, max distance ${st.maxdist}): exact near 0, logarithmic beyond`);
        const sel = st.t5dir === 'causal';
        bucketPlot.draw([{ x, y: bi, label: 'bidirectional', dash: sel }, { x, y: uni, label: 'causal', dash: !sel }], { xLabel: 'key − query', yLabel: 'bucket' });
        const n = SMALL;
        bucketMat.setTitle(`Bucket matrix, ${st.t5dir}, ${n} × ${n}`);
        bucketMat.draw(pe.t5Buckets({ queries: n, keys: n, ...cfg(!sel) }), n, n, { lo: 0, hi: numBuckets - 1, palette: st.palette });
      }, 'T5');
      v.guard(() => {
        need(pe, 'shawIndices');
        const n = SMALL;
        const k = st.shawk;
        shawMat.setTitle(`Index matrix, k = ${k}, ${n} × ${n}: clip(j − i, −k, k) + k`);
        shawMat.draw(pe.shawIndices({ queries: n, keys: n, maxRelative: k }), n, n, { lo: 0, hi: 2 * k, palette: st.palette });
      }, 'Shaw');
    },
    exportData: () => ({ kind: 'group', parts: [plotExport(slopes, 'alibi slopes'), plotExport(soft, 'alibi softmax of last row'), ...heads.filter((p) => !p.fig.hidden).map((p, h) => matrixExport(p, `alibi head ${h + 1}`)), plotExport(bucketPlot, 't5 buckets'), matrixExport(bucketMat, 't5 matrix'), matrixExport(shawMat, 'shaw')].filter(Boolean) }),
    canvas: () => bucketMat.canvas,
  };
}
