// Bias: the relative methods, which add a number to each attention logit instead of touching the
// vectors. ALiBi per head (slopes and matrices), T5's bucket function and matrix, Shaw's indices.
import { createMatrixPanel, createPlot, fmt, stackFigures } from '../draw.js';
import { createFormula, cellFormula } from '../formula.js';
import { need, t5Config, t5Opts } from '../methods.js';
import { paletteFor } from '../palette.js';
import { matrixExport, plotExport, shell } from './common.js';

const SMALL = 32;

export function setupBias(el, ctx) {
  const v = shell(el, 'Attention biases',
    `Added to the query × key scores before the softmax; −∞ (grey) is the causal mask. Matrices show ${SMALL} queries × ${SMALL} keys.`);
  const alibi = document.createElement('div');
  // Each panel's controls go in its slot in a narrow column (app.js), right above its figures.
  alibi.innerHTML = '<h3>ALiBi</h3><div class="control-slot" data-keys="heads"></div><div class="pair"></div><div class="multiples"></div><div class="pair soft"></div>';
  const t5 = document.createElement('div');
  t5.innerHTML = '<h3>T5 buckets</h3><div class="control-slot" data-keys="buckets,maxdist,t5dir"></div><div class="pair"></div><div class="with-formula"></div>';
  const shaw = document.createElement('div');
  shaw.innerHTML = '<h3>Shaw et al. (clipped relative positions)</h3><div class="control-slot" data-keys="shawk"></div><div class="with-formula"></div>';
  v.body.append(alibi, t5, shaw);
  const slopes = createPlot(alibi.querySelector('.pair'), { height: 200 });
  const soft = createPlot(alibi.querySelector('.soft'), { height: 200 });
  const heads = [];
  const bucketPlot = createPlot(t5.querySelector('.pair'), { height: 200 });
  const bucketMat = createMatrixPanel(t5.querySelector('.with-formula'), { rowLabel: 'query', colLabel: 'key', square: true });
  const t5Formula = createFormula(t5.querySelector('.with-formula'));
  const shawMat = createMatrixPanel(shaw.querySelector('.with-formula'), { rowLabel: 'query', colLabel: 'key', square: true });
  const shawFormula = createFormula(shaw.querySelector('.with-formula'));
  for (const p of [bucketMat, shawMat]) {
    p.rowAxis = 'query position i';
    p.colAxis = 'key position j';
  }
  let cur = null;
  const link = (panel, formula, method) => {
    panel.onCursor = (r, c) => {
      if (!cur) return;
      try {
        formula.set(cellFormula(ctx.pe, cur, method, r, c, { values: panel.data().values, rows: SMALL, cols: SMALL }));
      } catch (e) {
        formula.clear(e.message);
      }
    };
  };
  link(bucketMat, t5Formula, 't5');
  link(shawMat, shawFormula, 'shaw');
  const refill = (panel) => {
    const { r, c } = panel.cursor();
    panel.onCursor(r, c);
  };

  return {
    update(st) {
      v.clear();
      cur = { ...st };
      const pe = ctx.pe;
      const on = (p) => !st.panel || st.panel === p;
      alibi.hidden = !on('alibi');
      t5.hidden = !on('t5');
      shaw.hidden = !on('shaw');
      if (on('alibi')) v.guard(() => {
        need(pe, 'alibiSlopes', 'alibiBias');
        const m = pe.alibiSlopes(st.heads);
        slopes.setTitle(`ALiBi slopes for ${st.heads} heads (geometric: 2^(−8h/n))`);
        slopes.draw([{ x: Float32Array.from(m, (_, h) => h + 1), y: m, label: 'slope mₕ', dots: true }], { xLabel: 'head (from 1)', yLabel: 'slope mₕ', integerX: true });
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
          p.rowAxis = 'query i';
          p.colAxis = 'key j';
          p.draw(vals, n, n, { lo: -m[h] * (n - 1), hi: 0, palette: paletteFor('onesided', st.palette) });
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
          { xLabel: 'key − query (tokens)', yLabel: 'attention weight' });
      }, 'ALiBi');
      if (on('t5')) v.guard(() => {
        need(pe, 't5Buckets');
        const R = 200;
        const x = Float32Array.from({ length: 2 * R + 1 }, (_, j) => j - R);
        const numBuckets = st.buckets;
        const cfg = (bidirectional) => t5Opts(t5Config(st, bidirectional));
        const bi = pe.t5Buckets({ queries: 1, keys: 2 * R + 1, offset: R, ...cfg(true) });
        const uni = pe.t5Buckets({ queries: 1, keys: 2 * R + 1, offset: R, ...cfg(false) });
        bucketPlot.setTitle(`Bucket function (${numBuckets} buckets, max distance ${t5Config(st).maxDistance}): exact near 0, logarithmic beyond`);
        const sel = st.t5dir === 'causal';
        bucketPlot.draw([{ x, y: bi, label: `bidirectional${sel ? '' : ' (selected)'}`, dash: sel }, { x, y: uni, label: `causal${sel ? ' (selected)' : ''}`, dash: !sel }], { xLabel: 'key − query (tokens)', yLabel: 'bucket index' });
        const n = SMALL;
        bucketMat.setTitle(`Bucket matrix, ${st.t5dir}, ${n} × ${n}`);
        bucketMat.draw(pe.t5Buckets({ queries: n, keys: n, ...cfg(!sel) }), n, n, { lo: 0, hi: numBuckets - 1, palette: paletteFor('onesided', st.palette), note: 'bucket index' });
        refill(bucketMat);
      }, 'T5');
      if (on('shaw')) v.guard(() => {
        need(pe, 'shawIndices');
        const n = SMALL;
        const k = st.shawk;
        shawMat.setTitle(`Index matrix, k = ${k}, ${n} × ${n}: clip(j − i, −k, k) + k`);
        shawMat.draw(pe.shawIndices({ queries: n, keys: n, maxRelative: k }), n, n, { lo: 0, hi: 2 * k, palette: paletteFor('onesided', st.palette), note: 'row of aᴷ, aⱽ' });
        refill(shawMat);
      }, 'Shaw');
    },
    exportData: () => ({ kind: 'group', parts: [plotExport(slopes, 'alibi slopes'), plotExport(soft, 'alibi softmax of last row'), ...heads.filter((p) => !p.fig.hidden).map((p, h) => matrixExport(p, `alibi head ${h + 1}`)), plotExport(bucketPlot, 't5 buckets'), matrixExport(bucketMat, 't5 matrix'), matrixExport(shawMat, 'shaw')].filter(Boolean) }),
    figure: (o) => stackFigures([
      ...(alibi.hidden ? [] : [slopes.figure(o), ...heads.filter((p) => !p.fig.hidden).map((p) => p.figure({ ...o })), soft.figure(o)]),
      ...(t5.hidden ? [] : [bucketPlot.figure(o), bucketMat.figure(o)]),
      ...(shaw.hidden ? [] : [shawMat.figure(o)]),
    ], o),
    canvas: () => bucketMat.canvas,
  };
}
