// Waves: a few chosen dimensions over position (absolute methods), or the bias as a function of
// distance (relative methods). Shows the geometric ladder of wavelengths at a glance.
import { createPlot } from '../draw.js';
import { MATRIX_CAP, SHAW_K, need } from '../methods.js';
import { ropeOptions } from '../state.js';
import { plotExport, shell } from './common.js';

/** Up to five distinct indices spread over 0..n-1, from fast to slow. */
export function spread(n) {
  return [...new Set([0, 1, Math.floor(n / 8), Math.floor(n / 4), n - 1].filter((i) => i >= 0 && i < n))];
}

function column(values, rows, cols, c) {
  const y = new Float32Array(rows);
  for (let r = 0; r < rows; r++) y[r] = values[r * cols + c];
  return y;
}

export function setupWaves(el, ctx) {
  const v = shell(el, 'Waves', 'A few dimensions followed along position: each pair of a sinusoidal table or RoPE turns at its own speed, from one turn every 2π positions down to one every 2π·base.');
  const plot = createPlot(v.body, { height: 300 });
  // RoPE only: what a scaling does to each pair, against the context the model was trained on
  const waves = createPlot(v.body, { height: 240 });
  return {
    update(st) {
      v.clear();
      v.guard(() => draw(ctx.pe, st, plot), st.method);
      waves.fig.hidden = st.method !== 'rope';
      if (st.method === 'rope') v.guard(() => drawWavelengths(ctx.pe, st, waves), 'wavelengths');
    },
    exportData: () => plotExport(plot, 'waves'),
    canvas: () => plot.canvas,
  };
}

function draw(pe, st, plot) {
  const L = st.length;
  const d = st.dim;
  switch (st.method) {
    case 'sinusoidal': {
      need(pe, 'sinusoidal');
      const t = pe.sinusoidal({ length: L, dim: d, base: st.base, layout: st.layout });
      // Column of the sine of pair i: 2i when interleaved, i when split.
      const series = spread(d / 2).map((i) => {
        const c = st.layout === 'split' ? i : 2 * i;
        return { y: column(t, L, d, c), label: `dim ${c} (sin of pair ${i})` };
      });
      plot.setTitle(`Sinusoidal (${st.layout}): sine components over position`);
      plot.draw(series, { xLabel: 'position', yLabel: 'value', yRange: [-1.05, 1.05] });
      return;
    }
    case 'rope': {
      need(pe, 'ropeCache');
      const { cos } = pe.ropeCache({ length: L, ...ropeOptions(st) });
      const half = cos.length / L;
      const series = spread(half).map((i) => ({ y: column(cos, L, half, i), label: `cos θ${i}(p)` }));
      plot.setTitle(`RoPE: cos of the rotation angle of chosen pairs${st.scaling === 'none' ? '' : ` (${st.scaling} ×${st.factor})`}`);
      plot.draw(series, { xLabel: 'position', yLabel: 'cos θ', markers: st.scaling === 'none' ? [] : [{ x: st.train, label: 'train length' }] });
      return;
    }
    case 'learned': {
      need(pe, 'learnedInit');
      const t = pe.learnedInit({ length: L, dim: d, seed: 0 });
      const series = spread(d).map((c) => ({ y: column(t, L, d, c), label: `dim ${c}` }));
      plot.setTitle('Learned table at initialisation: no structure until training puts it there');
      plot.draw(series, { xLabel: 'position', yLabel: 'value' });
      return;
    }
    case 'alibi': {
      need(pe, 'alibiBias');
      const n = Math.min(L, MATRIX_CAP);
      const b = pe.alibiBias({ heads: st.heads, queries: n, causal: true });
      const x = Float32Array.from({ length: n }, (_, j) => j - (n - 1));
      const series = [];
      for (let h = 0; h < Math.min(st.heads, 8); h++) series.push({ x, y: b.subarray(h * n * n + (n - 1) * n, (h + 1) * n * n), label: `head ${h + 1}` });
      plot.setTitle('ALiBi: bias of the last query against each key, per head (a straight line of slope mₕ)');
      plot.draw(series, { xLabel: 'key − query', yLabel: 'bias' });
      return;
    }
    case 't5': {
      need(pe, 't5Buckets');
      const R = Math.max(8, Math.min(L, 256));
      const x = Float32Array.from({ length: 2 * R + 1 }, (_, j) => j - R);
      const bi = pe.t5Buckets({ queries: 1, keys: 2 * R + 1, offset: R, bidirectional: true });
      const uni = pe.t5Buckets({ queries: 1, keys: 2 * R + 1, offset: R, bidirectional: false });
      plot.setTitle('T5: bucket of each relative position (exact near 0, logarithmic up to max distance 128)');
      plot.draw([{ x, y: bi, label: 'bidirectional' }, { x, y: uni, label: 'causal', dash: true }], { xLabel: 'key − query', yLabel: 'bucket' });
      return;
    }
    case 'shaw': {
      need(pe, 'shawIndices');
      const n = Math.max(2, Math.min(L, 128));
      const idx = pe.shawIndices({ queries: n, keys: n, maxRelative: SHAW_K });
      const q = Math.floor(n / 2);
      const x = Float32Array.from({ length: n }, (_, j) => j - q);
      plot.setTitle(`Shaw: relative embedding index of query ${q} against each key (clipped to ±${SHAW_K})`);
      plot.draw([{ x, y: idx.subarray(q * n, (q + 1) * n), label: 'index into aᴷ, aⱽ' }], { xLabel: 'key − query', yLabel: 'index' });
      return;
    }
  }
}

/** Per-pair wavelength 2π/w_i before and after the chosen scaling, on a log scale, with the
 * original context length (the page's train length) as a level line: pairs whose wavelength
 * exceeds it never completed a turn in training, which is where the scalings intervene. */
function drawWavelengths(pe, st, plot) {
  need(pe, 'ropeFrequencies');
  const before = pe.ropeFrequencies({ dim: st.dim, base: st.base }).invFreq64;
  const after = pe.ropeFrequencies(ropeOptions(st)).invFreq64;
  const log = (w) => Float64Array.from(w, (x) => Math.log10((2 * Math.PI) / x));
  const series = [{ y: log(before), label: 'no scaling' }];
  if (st.scaling !== 'none') series.push({ y: log(after), label: `${st.scaling} ×${st.factor}`, dash: true });
  series.push({ y: new Float64Array(before.length).fill(Math.log10(st.train)), label: `original context (train length ${st.train})`, colour: '#b00', dash: true });
  plot.setTitle(`RoPE wavelength of each pair, log₁₀ positions per turn${st.scaling === 'none' ? ' (pick a scaling to compare)' : ''}`);
  plot.draw(series, { xLabel: 'pair i', yLabel: 'log₁₀ wavelength', integerX: true });
}
