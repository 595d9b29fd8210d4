// RoPE scaling with real models' settings: each pair's wavelength before and after the scaling,
// against the context the model was trained on and the one it is extended to. Frequencies come
// from pe.ropeFrequencies with the published configuration; wavelength = 2π / ω is display work.
import { createPlot, fmt, stackFigures } from '../draw.js';
import { need } from '../methods.js';
import { ropeOptions } from '../state.js';
import { shell } from './common.js';
import { createFormula, pairFormula } from '../formula.js';

const TAU = 2 * Math.PI;

/** The preset in force: the state still holds its base, head size, scaling type and factor. */
function activePreset(st) {
  const p = MODEL_PRESETS.find((x) => x.id === st.preset);
  if (!p) return null;
  const type = p.scaling?.type ?? 'none';
  const ok = st.base === p.base && st.dim === p.dim && st.scaling === type && (!p.scaling || st.factor === p.scaling.factor);
  return ok ? p : null;
}

export function setupScaling(el, ctx) {
  const v = shell(el, 'RoPE scaling: how real models stretch their context',
    'A pair whose wavelength is longer than the training context never completed a turn in training; past that context it meets angles it has never seen. Scalings slow those pairs down (and leave the fast ones alone). Pick a real model’s published settings, or set your own with the controls.');
  v.body.innerHTML = `<div class="presets" role="group" aria-label="model presets"></div><p class="cite"></p><div class="scroll"><table class="numbers params"></table></div><div class="plots with-formula"><div class="figs"></div></div>`;
  const box = v.body.querySelector('.presets');
  for (const p of [{ id: '', label: 'Your controls' }, ...MODEL_PRESETS]) {
    const b = document.createElement('button');
    b.type = 'button';
    b.dataset.preset = p.id;
    b.textContent = p.label;
    box.append(b);
  }
  box.addEventListener('click', (e) => {
    const id = e.target.closest('[data-preset]')?.dataset.preset;
    if (id === undefined) return;
    const p = MODEL_PRESETS.find((x) => x.id === id);
    if (!p) return ctx.setState({ preset: '' });
    ctx.setState({ preset: id, base: p.base, dim: p.dim, scaling: p.scaling?.type ?? 'none', factor: p.scaling?.factor ?? 2, rope: 'half' });
  });
  const cite = v.body.querySelector('.cite');
  const params = v.body.querySelector('.params');
  const plots = v.body.querySelector('.plots');
  const figs = plots.querySelector('.figs');
  const waves = createPlot(figs, { height: 260 });
  const ratio = createPlot(figs, { height: 220 });
  const formula = createFormula(plots);
  let cur = null; // { opts, original } drawn
  const fill = (x) => {
    if (!cur) return formula.clear();
    const i = Math.max(0, Math.min(cur.opts.dim / 2 - 1, Math.round(x)));
    try {
      formula.set(pairFormula(ctx.pe, cur.opts, i, cur.original), 'Point at either plot (or focus it and use ←/→) to pick a pair.');
    } catch (e) {
      formula.clear(e.message);
    }
  };
  let lastX = null;
  waves.onCursor = ratio.onCursor = (x) => fill((lastX = x));
  let exported = null;

  function draw(st) {
    const pe = ctx.pe;
    need(pe, 'ropeFrequencies');
    const p = activePreset(st);
    for (const b of box.children) b.setAttribute('aria-pressed', String((p?.id ?? '') === b.dataset.preset));
    const opts = p ? { dim: p.dim, base: p.base, ...(p.scaling ? { scaling: p.scaling } : {}) } : ropeOptions(st);
    const original = p ? (p.scaling?.originalMaxPositions ?? p.original) : st.train;
    const target = p ? p.context : Math.round(st.train * (st.scaling === 'none' ? 1 : st.factor));
    cur = { opts, original };
    const before = pe.ropeFrequencies({ dim: opts.dim, base: opts.base }).invFreq64;
    const { invFreq64: after, attentionScale } = pe.ropeFrequencies(opts);
    cite.textContent = p ? `Settings: ${p.source}.` : st.preset ? 'Edited from a preset: using the controls (train length stands in for the original context).' : 'Using the controls: train length stands in for the model’s original context.';
    const sc = opts.scaling;
    params.innerHTML = `<tr><th>base</th><th>head size d</th><th>pairs</th><th>scaling</th><th>original context</th><th>extended to</th><th>attention scale</th></tr>
      <tr><td>${opts.base}</td><td>${opts.dim}</td><td>${opts.dim / 2}</td><td>${sc ? `${sc.type} ×${sc.factor}${sc.lowFreqFactor ? `, low ${sc.lowFreqFactor}, high ${sc.highFreqFactor}` : ''}${sc.betaFast ? `, β ${sc.betaFast}/${sc.betaSlow}, mscale ${sc.mscale}/${sc.mscaleAllDim}` : ''}` : 'none'}</td><td>${original}</td><td>${target}</td><td>${attentionScale.toFixed(4)}</td></tr>`;
    const wl = (w) => Float64Array.from(w, (x) => TAU / x);
    const series = [{ y: wl(before), label: 'no scaling', colour: 0, dots: opts.dim <= 128 }];
    if (sc) series.push({ y: wl(after), label: `${sc.type} ×${sc.factor}`, colour: 2, dots: opts.dim <= 128 });
    series.push({ y: new Float64Array(before.length).fill(original), label: `original context ${original}`, colour: 'bad', dash: true });
    if (target !== original) series.push({ y: new Float64Array(before.length).fill(target), label: `extended context ${target}`, colour: 'muted', dash: true });
    waves.setTitle(`${p ? p.label : 'RoPE'}: wavelength of each pair, positions per full turn (log scale)`);
    waves.draw(series, { xLabel: 'pair i (fast → slow)', yLabel: 'wavelength 2π/ωᵢ (tokens)', yLog: true, integerX: true });
    waves.setNote(attentionScale !== 1 ? `The scaling also multiplies cos and sin by the attention scale ${attentionScale.toFixed(4)} (q·k grows by its square); the wavelengths above do not include it.` : '');
    ratio.setTitle('How much slower each pair turns: ω before / ω after');
    ratio.draw([{ y: Float64Array.from(before, (b, i) => b / after[i]), label: 'frequency divided by', colour: 2, dots: opts.dim <= 128 }],
      { xLabel: 'pair i (fast → slow)', yLabel: 'ω / ω scaled', integerX: true });
    // before any pointer: the first pair whose wavelength passes the original context
    if (lastX === null) {
      const k = before.findIndex((w) => TAU / w > original);
      fill(k >= 0 ? k : opts.dim / 4);
    }
    exported = { kind: 'series', name: 'rope wavelengths', xLabel: 'pair', series: series.map((s) => ({ label: s.label, x: Array.from(s.y, (_, i) => i), y: Array.from(s.y) })) };
  }

  return {
    update(st) {
      v.clear();
      cur = null;
      v.guard(() => draw(st), 'RoPE scaling');
      if (!cur) formula.clear();
      else if (lastX !== null) fill(lastX);
    },
    exportData: () => exported,
    figure: (o) => stackFigures([waves.figure(o), ratio.figure(o)], o),
    svg: () => waves.svg(),
    canvas: () => waves.canvas,
  };
}

/** Real models' RoPE settings, as published in their Hugging Face config.json. */
export const MODEL_PRESETS = [
  { id: 'llama31-8b', label: 'Llama-3.1 8B', source: 'meta-llama/Llama-3.1-8B, config.json: rope_theta 500000, head_dim 128 (4096 / 32 heads), rope_scaling {rope_type "llama3", factor 8.0, low_freq_factor 1.0, high_freq_factor 4.0, original_max_position_embeddings 8192}',
    base: 500000, dim: 128, scaling: { type: 'llama3', factor: 8, lowFreqFactor: 1, highFreqFactor: 4, originalMaxPositions: 8192 }, context: 131072 },
  { id: 'qwen2-7b', label: 'Qwen2-7B (as shipped)', source: 'Qwen/Qwen2-7B-Instruct, config.json: rope_theta 1000000, head_dim 128 (3584 / 28 heads), no rope_scaling, max_position_embeddings 32768',
    base: 1000000, dim: 128, scaling: null, original: 32768, context: 32768 },
  { id: 'qwen2-7b-yarn', label: 'Qwen2-7B + YaRN ×4', source: 'Qwen/Qwen2-7B-Instruct model card, long-context recipe: add rope_scaling {type "yarn", factor 4.0, original_max_position_embeddings 32768} to config.json',
    base: 1000000, dim: 128, scaling: { type: 'yarn', factor: 4, originalMaxPositions: 32768 }, context: 131072 },
  { id: 'deepseek-v2-lite', label: 'DeepSeek-V2-Lite (YaRN ×40)', source: 'deepseek-ai/DeepSeek-V2-Lite, config.json: rope_theta 10000, qk_rope_head_dim 64, rope_scaling {type "yarn", factor 40, original_max_position_embeddings 4096, beta_fast 32, beta_slow 1, mscale 0.707, mscale_all_dim 0.707}',
    base: 10000, dim: 64, scaling: { type: 'yarn', factor: 40, originalMaxPositions: 4096, betaFast: 32, betaSlow: 1, mscale: 0.707, mscaleAllDim: 0.707 }, context: 163840 },
];
