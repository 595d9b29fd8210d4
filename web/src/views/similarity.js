// Similarity: PE·PEᵀ (cosine) for absolute tables; for RoPE the score q·k of one vector (all ones)
// rotated to two positions, which with the same content everywhere depends on the offset only, and
// RoFormer's long-term decay curve drawn as its Fig. 2 draws it (on its own axis, not rescaled).
import { createMatrixPanel, createPlot, f32, fmt, stackFigures } from '../draw.js';
import { paletteFor } from '../palette.js';
import { drawMethod, keptFormula } from './heatmap.js';
import { cellFormula } from '../formula.js';
import { readTheme } from '../theme.js';
import { METHODS, ropeOptions } from '../methods.js';

const src = (o) =>
  JSON.stringify(o)
    .replace(/"(\w+)":/g, '$1: ')
    .replace(/"/g, "'")
    .replace(/,/g, ', ')
    .replace(/^{/, '{ ')
    .replace(/}$/, ' }');

/** The filled-in formula of one Gram entry, with a call that recomputes it from the API. */
function gramFormula({ st, L, S }, i, j) {
  const d = st.dim;
  const value = S[i * L + j];
  if (st.method === 'rope') {
    const ro = { length: L, heads: 1, dim: d, layout: st.rope, ...ropeOptions(st) };
    delete ro.dim;
    const call = `((x) => (pe.applyRope(x, ${src({ dim: d, ...ro })}), pe.similarity(x, { length: ${L}, dim: ${d} })[${i * L + j}]))(new Float32Array(${L * d}).fill(1))`;
    return {
      value,
      call,
      html: `<div class="fl"><var>q</var><sub>i</sub>·<var>k</var><sub>j</sub> = (R<sub>${i}</sub>𝟙)·(R<sub>${j}</sub>𝟙) = Σ<sub><var>p</var></sub> 2 cos((<var>j</var> − <var>i</var>)·ω<sub><var>p</var></sub>)</div>
      <div class="fl"><var>i</var> = ${i}, <var>j</var> = ${j}, offset ${j - i}: <b class="exact">${f32(value)}</b> <small>(float32<span data-after-predict>; the same for every pair at distance |j − i|</span>)</small></div>`,
    };
  }
  const table =
    st.method === 'learned'
      ? `pe.learnedInit({ length: ${L}, dim: ${d}, seed: 0 })`
      : `pe.sinusoidal({ length: ${L}, dim: ${d}, base: ${st.base}, layout: '${st.layout}' })`;
  return {
    value,
    call: `pe.similarity(${table}, { length: ${L}, dim: ${d}, normalize: true })[${i * L + j}]`,
    html: `<div class="fl">cos(PE<sub><var>i</var></sub>, PE<sub><var>j</var></sub>) = PE<sub><var>i</var></sub>·PE<sub><var>j</var></sub> / (‖PE<sub><var>i</var></sub>‖ ‖PE<sub><var>j</var></sub>‖)</div>
      <div class="fl"><var>i</var> = ${i}, <var>j</var> = ${j}: <b class="exact">${f32(value)}</b> <small>(float32)</small></div>`,
  };
}
import { SIM_CAP } from '../jobs.js';
import { matrixExport, plotExport, shell } from './common.js';

export function setupSimilarity(el, ctx) {
  const v = shell(
    el,
    'Similarity',
    `How alike two positions look to attention. Absolute tables: cosine of PE[i] and PE[j]. RoPE ` +
      `(<a href="https://arxiv.org/abs/2104.09864">RoFormer</a>): q·k of <b>one vector</b> (all ones) ` +
      `rotated to positions i and j.<span data-after-predict> With the same content at every position the ` +
      `score depends on the distance |j − i| only (cos is even), so every diagonal is constant and the ` +
      `matrix symmetric.</span> Real queries and keys differ, and their score depends on their ` +
      `content and on the signed offset as well (see Rotation). Lengths above ${SIM_CAP} are cut to ` +
      `${SIM_CAP}; large matrices are computed in a worker.`,
  );
  v.body.classList.add('pair');
  const panel = createMatrixPanel(v.body, { rowLabel: 'position i', colLabel: 'position j' });
  const plots = document.createElement('div');
  v.body.append(plots);
  const plot = createPlot(plots, { height: 260 });
  // RoFormer §3.4.3, Fig. 2: the relative upper bound (1/(d/2))·Σⱼ|Sⱼ| against the distance.
  const decayPlot = createPlot(plots, { height: 200 });
  const formula = keptFormula(v.section);
  const status = document.createElement('p');
  status.className = 'status';
  v.section.append(status);
  // The view's state in one object, which the functions below take.
  const s = { ctx, v, panel, plot, decayPlot, formula, status };
  s.cur = null; // { st, L, S } of the drawn Gram matrix
  s.rel = null; // { st, m } of a relative method's matrix
  s.relative = false;
  panel.onCursor = (i, j) => {
    try {
      if (s.rel) formula.set(cellFormula(ctx.pe, s.rel.st, s.rel.st.method, i, j, s.rel.m));
      else if (s.cur) formula.set(gramFormula(s.cur, i, j));
    } catch (e) {
      formula.clear(e.message);
    }
  };
  return {
    update: (st) => updateSimilarity(s, st),
    exportData: () => ({
      kind: 'group',
      parts: [
        matrixExport(panel, 'similarity'),
        s.relative ? null : plotExport(plot, 'by offset'),
        decayPlot.fig.hidden ? null : plotExport(decayPlot, 'RoFormer decay'),
      ].filter(Boolean),
    }),
    figure: (o) =>
      plot.fig.hidden
        ? panel.figure(o)
        : stackFigures([panel.figure(o), plot.figure(o), ...(decayPlot.fig.hidden ? [] : [decayPlot.figure(o)])], o),
    canvas: () => panel.canvas,
  };
}

/** The Gram matrix: cosines of the rows (or RoPE's q·k of one vector), its colours from its range. */
function drawScores(s, st, r, L, rope) {
  const { panel } = s;
  panel.setTitle(
    rope ? `RoPE, one vector (all ones) at every position: q·k, ${L} × ${L}` : `${st.method}: ${r.kind}, ${L} × ${L}`,
  );
  panel.describe = (i, j, x) => `i = ${i}, j = ${j} (offset ${j - i}): ${fmt(x)}`;
  panel.rowAxis = 'position i (tokens)';
  panel.colAxis = 'position j (tokens)';
  // Cosines of sinusoidal rows are all positive: a sequential map from the smallest one to 1.
  let lo = r.lo,
    kind = 'signed';
  if (!rope) {
    let mn = Infinity;
    for (let k = 0; k < r.S.length; k++) if (r.S[k] < mn) mn = r.S[k];
    if (mn >= 0) (lo = Math.floor(mn * 100) / 100), (kind = 'onesided');
  }
  s.cur = { st: { ...st }, L, S: r.S };
  panel.draw(r.S, L, L, {
    lo,
    hi: r.hi,
    palette: paletteFor(kind, st.palette),
    note: rope ? 'q·k' : 'cosine',
  });
  const at = panel.cursor();
  panel.onCursor(Math.min(at.r, L - 1), Math.min(at.c, L - 1));
}

/** Row 0 of the matrix against the offset; returns it. */
function drawRow0({ plot }, r, L, rope) {
  const row0 = r.S.subarray(0, L);
  plot.setTitle(
    rope ? 'The same vector at 0 and at j: q·k against the offset' : 'Similarity of position 0 with every position',
  );
  plot.draw([{ y: row0, label: rope ? 'q·k of the all-ones vector, by offset (row 0)' : 'cos(PE₀, PEⱼ)' }], {
    xLabel: 'offset j − i (tokens)',
    yLabel: rope ? 'q·k' : 'cosine',
  });
  plot.setNote('');
  return row0;
}

/** RoPE: RoFormer's long-term decay curve, and how far it stays above the score (the margin). */
function drawDecay({ decayPlot }, st, r, L, row0) {
  const d = st.dim;
  decayPlot.setTitle(`RoFormer’s long-term decay (its Fig. 2), d = ${d}, base ${st.base}`);
  decayPlot.draw([{ y: r.decay, label: 'relative upper bound (1/(d/2))·Σⱼ|Sⱼ|' }], {
    xLabel: 'relative distance (tokens)',
    yLabel: 'relative upper bound',
  });
  // The bound on |q·k| is maxᵢ|hᵢ₊₁ − hᵢ|·Σⱼ|Sⱼ| with hᵢ = qᵢ·conj(kᵢ) (pair i as a complex
  // number, h_(d/2) = 0): for the all-ones vectors every hᵢ = 2, so it is 2·(d/2)·curve.
  const bound = (k) => d * r.decay[k];
  let margin = Infinity;
  for (let k = 0; k < L && k < r.decay.length; k++) margin = Math.min(margin, bound(k) - Math.abs(row0[k]));
  if (st.scaling === 'none') {
    decayPlot.fig.dataset.margin = String(margin);
    decayPlot.setNote(
      `RoFormer §3.4.3 bounds |q·k| by maxᵢ|hᵢ₊₁ − hᵢ| · Σⱼ|Sⱼ|, with hᵢ the product of pair i of q and k. ` +
        `For the all-ones vector above every hᵢ = 2, so the bound is ${d} × this curve: ${fmt(bound(0))} at ` +
        `offset 0, above |q·k| at every offset (by at least ${margin.toFixed(1)}). The curve falls with ` +
        `distance; the score follows it for aligned vectors like this one, not for every q and k (Barbero et ` +
        `al. 2024, arXiv:2410.06205).`,
    );
  } else {
    decayPlot.setNote(
      `The paper’s curve uses the unscaled frequencies; the ${st.scaling} scaling changes the score’s ` +
        `frequencies, so this curve does not bound the score above. The curve falls with distance; the score ` +
        `follows it for aligned vectors, not for every q and k (Barbero et al. 2024, arXiv:2410.06205).`,
    );
  }
}

/** Draw state `st`: a relative method's bias matrix, or the Gram matrix (from the worker) with its
 * row 0 and, for RoPE, RoFormer's decay curve. */
function updateSimilarity(s, st) {
  const { ctx, v, panel, plot, decayPlot, formula, status } = s;
  s.relative = !METHODS[st.method]?.table;
  // A relative method draws in this frame: the theme is read before its DOM writes (drawMethod's
  // comment). A Gram matrix is drawn when the worker answers, in a later task.
  if (s.relative) readTheme(panel.fig);
  v.clear();
  s.cur = null;
  s.rel = null;
  if (decayPlot.fig.hidden !== (st.method !== 'rope')) decayPlot.fig.hidden = st.method !== 'rope';
  if (s.relative) {
    // Relative methods have no vectors to compare: their bias matrix is the similarity.
    if (!plot.fig.hidden) plot.fig.hidden = true;
    // the cursor's cell fills the formula in; cleared only when nothing was drawn
    const drawn = v.guard(() => {
      const m = drawMethod(
        ctx,
        panel,
        st,
        st.method,
        {},
        (mm) => `${mm.title} (a relative method scores offsets directly)`,
      );
      s.rel = { st: { ...st }, m };
      const { r, c } = panel.cursor();
      panel.onCursor(r, c);
      return true;
    }, st.method);
    if (!drawn) formula.clear('Point at a cell of the matrix (or focus it and use the arrow keys).');
    return;
  }
  formula.clear('Point at a cell of the matrix (or focus it and use the arrow keys).');
  plot.fig.hidden = false;
  const L = Math.min(st.length, SIM_CAP);
  const heavy = L * L * st.dim > 4e6;
  status.textContent = heavy ? `computing ${L}×${L} in ${ctx.compute.inWorker ? 'a worker' : 'the page'}…` : '';
  const t0 = performance.now();
  return v.guard(
    () =>
      ctx.compute.run('similarity', st, { heavy }).then((r) => {
        if (!r) return; // superseded by a newer request
        status.textContent = heavy
          ? `${L}×${L}×${st.dim} in ${(performance.now() - t0).toFixed(0)} ms (${ctx.compute.inWorker ? 'worker' : 'main thread'})`
          : '';
        const rope = st.method === 'rope';
        drawScores(s, st, r, L, rope);
        const row0 = drawRow0(s, r, L, rope);
        decayPlot.fig.dataset.margin = '';
        if (rope && r.decay) drawDecay(s, st, r, L, row0);
      }),
    st.method,
  );
}
