// Learned table and extrapolation. A learned table has rows only up to the training length; past
// it there is nothing to look up. The fixed methods keep going, some more gracefully than others.
import { createMatrixPanel, createPlot, fmt, stackFigures } from '../draw.js';
import { paletteFor } from '../palette.js';
import { createFormula, cellFormula } from '../formula.js';
import { need } from '../methods.js';
import { ropeOptions } from '../state.js';
import { drawMethod } from './heatmap.js';
import { describeMatrix, matrixExport, plotExport, shell } from './common.js';

export function setupLearned(el, ctx) {
  const v = shell(el, 'Learned table',
    'BERT and GPT-2 learn one vector per position. Before training it is noise (normal, std 0.02). Positions from the train length on have no row: grey here, an error from pe.gather.');
  v.body.classList.add('with-formula');
  const panel = createMatrixPanel(v.body, { rowLabel: 'position', colLabel: 'dim' });
  const formula = createFormula(v.body);
  let cur = null;
  panel.onCursor = (r, c) => {
    if (!cur) return;
    if (r >= cur.T) return formula.clear(`Position ${r} has no row: the table stops at ${cur.T - 1}. pe.gather(table, { positions: [${r}], outOfRange: 'error' }) throws.`);
    formula.set(cellFormula(ctx.pe, cur.st, 'learned', r, c, { values: cur.rows }));
  };
  const msg = document.createElement('p');
  let positions = new Int32Array(0);
  msg.className = 'status';
  v.section.append(msg);
  return {
    update(st) {
      v.clear();
      v.guard(() => {
        const pe = ctx.pe;
        need(pe, 'learnedInit', 'gather');
        const T = Math.min(st.train, st.length);
        const L = Math.max(st.length, T);
        const table = ctx.pool.learned(T, st.dim).slice();
        if (positions.length !== L) positions = Int32Array.from({ length: L }, (_, i) => i);
        const rows = pe.gather(table, { rows: T, dim: st.dim, positions, outOfRange: 'zero' });
        panel.setTitle(`Learned table: ${T} trained rows, looked up for ${L} positions`);
        panel.describe = (r, c, x) => (r >= T ? `position ${r}: no row (past the train length ${T})` : `position ${r}, dim ${c}: ${fmt(x)}`);
        panel.rowAxis = 'position p (tokens)';
        panel.colAxis = 'dimension';
        cur = { st: { ...st }, T, rows };
        panel.draw(rows, L, st.dim, { lo: -0.06, hi: 0.06, palette: paletteFor('signed', st.palette), maskFromRow: T, marker: T, markerLabel: `train length ${T}: no rows below`, note: '±3σ; grey = no row' });
        try {
          // the first position past the table is enough to show the error
          pe.gather(table, { rows: T, dim: st.dim, positions: [L - 1], outOfRange: 'error' });
          msg.textContent = `All ${L} positions are inside the table.`;
        } catch (e) {
          msg.textContent = `pe.gather(…, { outOfRange: 'error' }) → ${e.name}: ${e.message}`;
        }
        const at = panel.cursor();
        panel.onCursor(at.r, at.c);
      }, 'learned');
    },
    exportData: () => matrixExport(panel, 'learned'),
    figure: (o) => panel.figure(o),
    canvas: () => panel.canvas,
  };
}

export function setupExtrapolation(el, ctx) {
  const v = shell(el, 'Extrapolation',
    'Each method past its training length (red line). Sinusoids and RoPE keep turning; learned rows simply do not exist; ALiBi’s penalty keeps growing linearly. Raise “length” above “train length” and try a RoPE scaling.');
  v.body.classList.add('with-formula');
  const figs = document.createElement('div');
  figs.className = 'figs';
  v.body.append(figs);
  const grid = document.createElement('div');
  grid.className = 'grid';
  figs.append(grid);
  const methods = ['sinusoidal', 'rope', 'learned', 'alibi'];
  const panels = methods.map(() => createMatrixPanel(grid, { small: true }));
  const plot = createPlot(figs, { height: 220 });
  const formula = createFormula(figs.parentElement);
  // One formula panel for the four matrices: it follows the one the cursor was last on.
  const drawn = methods.map(() => null); // { m, st, method } per panel
  let active = 0;
  const fill = (k, r, c) => {
    const cur = drawn[k];
    if (!cur) return formula.clear('Point at a cell of any matrix (or focus one and use the arrow keys).');
    active = k;
    try {
      const past = cur.method === 'learned' && r >= cur.st.train;
      if (past) return formula.clear(`Row ${r} is past the training length ${cur.st.train}: a learned table has no such row (a model would index out of range).`);
      formula.set(cellFormula(ctx.pe, cur.st, cur.method, r, c, cur.m));
    } catch (e) {
      formula.clear(e.message);
    }
  };
  panels.forEach((p, k) => (p.onCursor = (r, c) => fill(k, r, c)));
  return {
    update(st) {
      v.clear();
      const T = st.train;
      const L = Math.min(Math.max(st.length, T + 1), 1024);
      methods.forEach((m, k) =>
        v.guard(() => {
          drawn[k] = null;
          if (m === 'learned') {
            need(ctx.pe, 'learnedInit');
            const t = ctx.pool.learned(L, st.dim);
            panels[k].setTitle(`Learned: rows ≥ ${T} undefined`);
            panels[k].rowAxis = 'position p';
            panels[k].colAxis = 'dimension';
            drawn[k] = { m: { get values() { return ctx.pool.learned(L, st.dim); }, rows: L }, st: { ...st }, method: m };
            panels[k].draw(t, L, st.dim, { lo: -0.06, hi: 0.06, palette: paletteFor('signed', st.palette), maskFromRow: T, marker: T, note: 'grey = no row' });
          } else {
            const names = { sinusoidal: 'Sinusoidal', rope: `RoPE angles${st.scaling === 'none' ? '' : ` (${st.scaling} ×${st.factor})`}`, alibi: `ALiBi, head ${Math.min(st.head, st.heads - 1) + 1}` };
            drawn[k] = { m: null, st: { ...st }, method: m };
            drawn[k].m = drawMethod(ctx, panels[k], st, m, { length: L, marker: T, markerLabel: `train ${T}` }, () => names[m]);
          }
        }, m),
      );
      v.guard(() => {
        need(ctx.pe, 'ropeCache');
        // The slowest pair is where extrapolation bites: past T it reaches angles never seen in training.
        // Both caches are written into reusable heap buffers (no copy out); one column is read.
        const ro = ropeOptions(st);
        const half = (ro.rotaryDim ?? st.dim) / 2;
        const cb = ctx.pool.f32('extCos', L * st.dim / 2), sb = ctx.pool.f32('extSin', L * st.dim / 2);
        const i = Math.max(0, Math.floor(half / 2));
        const col = (c, h) => Float32Array.from({ length: L }, (_, r) => c[r * h + i]);
        ctx.pe.ropeCache({ length: L, dim: st.dim, base: st.base, cos: cb, sin: sb });
        const series = [{ y: col(cb.array, st.dim / 2), label: `cos θ${i}, no scaling` }];
        const scaled = st.scaling !== 'none' ? ctx.pe.ropeCache({ length: L, ...ro, cos: cb, sin: sb }) : {};
        if (st.scaling !== 'none') series.push({ y: col(cb.array, half), label: `cos θ${i}, ${st.scaling} ×${st.factor}`, dash: true });
        plot.setTitle(`RoPE pair ${i} across the train length`);
        plot.draw(series, { xLabel: 'position p (tokens)', yLabel: 'cos θ', markers: [{ x: T, label: `train length ${T}` }] });
        plot.setNote(scaled.attentionScale && scaled.attentionScale !== 1 ? `The dashed curve includes the ${st.scaling} attention scale ${scaled.attentionScale.toFixed(4)} folded into cos.` : '');
      }, 'RoPE scaling');
      const at = panels[active].cursor();
      fill(active, at.r, at.c);
    },
    exportData: () => ({ kind: 'group', parts: [...panels.map((p, k) => matrixExport(p, methods[k])), plotExport(plot, 'rope')].filter(Boolean) }),
    describe: () => panels.map((p, k) => describeMatrix(p, methods[k]) ?? '').join(' '),
    figure: (o) => stackFigures([...panels.map((p) => p.figure(o)), plot.figure(o)], o),
    canvas: () => panels[0].canvas,
  };
}
