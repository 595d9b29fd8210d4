// Learned table and extrapolation. A learned table has rows only up to its size
// (max_position_embeddings); past it there is nothing to look up. The table is shown as initialised
// (posenc ships no trained weights), with the cosine of its rows. The fixed methods keep going past
// a training length, some more gracefully than others.
import { createMatrixPanel, createPlot, fmt, stackFigures } from '../draw.js';
import { paletteFor } from '../palette.js';
import { createFormula, cellFormula } from '../formula.js';
import { ropeOptions } from '../state.js';
import { drawMethod } from './heatmap.js';
import { describeMatrix, matrixExport, plotExport, shell } from './common.js';

const SIM_ROWS = 512; // the similarity of the first rows only: a longer table is the same noise

export function setupLearned(el, ctx) {
  const v = shell(
    el,
    'Learned table',
    'BERT and GPT-2 learn one vector per position, for a fixed number of positions ' +
      '(<code>max_position_embeddings</code>: 512 in BERT, 1024 in GPT-2). Shown here is the table ' +
      '<b>before training</b>: noise (normal, std 0.02: Hugging Face’s <code>initializer_range</code> for ' +
      'BERT and GPT-2; BERT’s own code draws a truncated normal of std 0.02, OpenAI’s GPT-2 code a normal ' +
      'of std 0.01 for its position table), and the cosine of every pair of its rows, which for noise is about 0 off the diagonal: ' +
      'each position resembles only itself. Trained tables grow smooth, wave-like columns and a band of ' +
      'similar neighbours around this diagonal (<a href="https://arxiv.org/abs/2010.04903">Wang and Chen ' +
      '2020</a>); posenc ships no trained weights, so none is drawn here. Positions past the table’s last ' +
      'row have no row: grey here, an error from pe.gather.',
  );
  const top = document.createElement('div');
  top.className = 'with-formula';
  const below = document.createElement('div');
  v.body.append(top, below);
  const panel = createMatrixPanel(top, { rowLabel: 'position', colLabel: 'dim' });
  const formula = createFormula(top);
  const simPanel = createMatrixPanel(below, { rowLabel: 'position i', colLabel: 'position j', square: true });
  simPanel.rowAxis = 'position i (tokens)';
  simPanel.colAxis = 'position j (tokens)';
  let cur = null;
  panel.onCursor = (r, c) => {
    if (!cur) return;
    if (r >= cur.T)
      return formula.clear(
        `Position ${r} has no row: the table stops at ${cur.T - 1}. pe.gather(table, { positions: [${r}], outOfRange: 'error' }) throws.`,
      );
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
        const T = Math.min(st.train, st.length);
        const L = Math.max(st.length, T);
        const table = ctx.pool.learned(T, st.dim).slice();
        if (positions.length !== L) positions = Int32Array.from({ length: L }, (_, i) => i);
        const rows = pe.gather(table, { rows: T, dim: st.dim, positions, outOfRange: 'zero' });
        panel.setTitle(`Learned table before training (noise): ${T} rows, looked up for ${L} positions`);
        panel.describe = (r, c, x) =>
          r >= T ? `position ${r}: no row (past the table's ${T} rows)` : `position ${r}, dim ${c}: ${fmt(x)}`;
        panel.rowAxis = 'position p (tokens)';
        panel.colAxis = 'dimension';
        cur = { st: { ...st }, T, rows };
        panel.draw(rows, L, st.dim, {
          lo: -0.06,
          hi: 0.06,
          palette: paletteFor('signed', st.palette),
          maskFromRow: T,
          marker: T,
          markerLabel: `${T} rows: none below`,
          note: '±3σ; grey = no row',
        });
        const S = Math.min(T, SIM_ROWS);
        const sim = pe.similarity(table.subarray(0, S * st.dim), { length: S, dim: st.dim, normalize: true });
        simPanel.setTitle(
          `Cosine of rows i and j of the untrained table${S < T ? ` (first ${S} rows)` : ''}: 1 on the diagonal, noise elsewhere`,
        );
        simPanel.describe = (i, j, x) => `rows ${i} and ${j}: cosine ${fmt(x)}`;
        simPanel.draw(sim, S, S, { lo: -1, hi: 1, palette: paletteFor('signed', st.palette), note: 'cosine' });
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
    exportData: () => ({
      kind: 'group',
      parts: [matrixExport(panel, 'learned'), matrixExport(simPanel, 'cosine of rows')].filter(Boolean),
    }),
    figure: (o) => stackFigures([panel.figure(o), simPanel.figure(o)], o),
    canvas: () => panel.canvas,
  };
}

export function setupExtrapolation(el, ctx) {
  const v = shell(
    el,
    'Extrapolation',
    'Each method past the length it was trained on (red line). A learned table has no rows past its last ' +
      'one. The fast pairs of the sinusoids and of RoPE turn through every angle many times within the ' +
      'training length; only the pairs whose wavelength is longer than it meet angles there that training ' +
      'never reached, so every sinusoidal vector past the line is a combination of angles never seen together ' +
      '(the curve follows one slow pair). For RoPE and ALiBi, which read only the distance between query and ' +
      'key, a new position alone is nothing new: a query past the line looking a few tokens back scores as ' +
      'in training. What is new to them is a distance longer than training’s: RoPE’s slow pairs then meet ' +
      'angle differences never seen, and ALiBi’s penalty, growing linearly with the distance, reaches values never ' +
      'seen in training (<a href="https://arxiv.org/abs/2108.12409">Press et al. 2022</a>). The ALiBi matrix ' +
      'below draws the bias by distance. A RoPE scaling, where ' +
      'one is chosen, adds the scaled pair as a dashed curve.',
  );
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
      if (past)
        return formula.clear(
          `Row ${r} is past the training length ${cur.st.train}: a learned table has no such row (a model would index out of range).`,
        );
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
            const t = ctx.pool.learned(L, st.dim);
            panels[k].setTitle(`Learned: rows ≥ ${T} undefined`);
            panels[k].rowAxis = 'position p';
            panels[k].colAxis = 'dimension';
            drawn[k] = {
              m: {
                get values() {
                  return ctx.pool.learned(L, st.dim);
                },
                rows: L,
              },
              st: { ...st },
              method: m,
            };
            panels[k].draw(t, L, st.dim, {
              lo: -0.06,
              hi: 0.06,
              palette: paletteFor('signed', st.palette),
              maskFromRow: T,
              marker: T,
              note: 'grey = no row',
            });
          } else {
            const names = {
              sinusoidal: 'Sinusoidal',
              rope: `RoPE angles${st.scaling === 'none' ? '' : ` (${st.scaling} ×${st.factor})`}`,
              alibi: `ALiBi, head ${Math.min(st.head, st.heads - 1) + 1}`,
            };
            drawn[k] = { m: null, st: { ...st }, method: m };
            drawn[k].m = drawMethod(
              ctx,
              panels[k],
              st,
              m,
              { length: L, marker: T, markerLabel: `train ${T}` },
              () => names[m],
            );
          }
        }, m),
      );
      v.guard(() => {
        // The slowest pair is where extrapolation bites: past T it reaches angles never seen in training.
        // Both caches are written into reusable heap buffers (no copy out); one column is read.
        const ro = ropeOptions(st);
        const half = (ro.rotaryDim ?? st.dim) / 2;
        const cb = ctx.pool.f32('extCos', (L * st.dim) / 2),
          sb = ctx.pool.f32('extSin', (L * st.dim) / 2);
        const i = Math.max(0, Math.floor(half / 2));
        const col = (c, h) => Float32Array.from({ length: L }, (_, r) => c[r * h + i]);
        ctx.pe.ropeCache({ length: L, dim: st.dim, base: st.base, cos: cb, sin: sb });
        const series = [{ y: col(cb.array, st.dim / 2), label: `cos θ${i}, no scaling` }];
        const scaled = st.scaling !== 'none' ? ctx.pe.ropeCache({ length: L, ...ro, cos: cb, sin: sb }) : {};
        if (st.scaling !== 'none')
          series.push({ y: col(cb.array, half), label: `cos θ${i}, ${st.scaling} ×${st.factor}`, dash: true });
        // What the pair reached inside the training length and past it, read from the cache.
        const first = series[0].y;
        let inLo = Infinity,
          pastLo = Infinity;
        for (let r = 0; r < L; r++)
          if (r < T) inLo = Math.min(inLo, first[r]);
          else pastLo = Math.min(pastLo, first[r]);
        const wave = (2 * Math.PI) / ctx.pe.ropeFrequencies({ dim: st.dim, base: st.base }).invFreq64[i];
        plot.setTitle(`RoPE pair ${i} (wavelength ${wave.toFixed(0)} tokens) across the train length`);
        plot.draw(series, {
          xLabel: 'position p (tokens)',
          yLabel: 'cos θ',
          markers: [{ x: T, label: `train length ${T}` }],
        });
        const reach =
          wave > T && pastLo < inLo - 1e-3
            ? `Unscaled, this pair's cos θ goes no lower than ${inLo.toFixed(3)} before position ${T}; past it, it falls to ${pastLo.toFixed(3)}: angles training never reached.`
            : `Unscaled, this pair turns through ${(T / wave).toFixed(1)} wavelengths before position ${T}: every angle it meets later was seen in training.`;
        plot.setNote(
          `${reach}${
            scaled.attentionScale && scaled.attentionScale !== 1
              ? ` The dashed curve includes the ${st.scaling} attention scale ${scaled.attentionScale.toFixed(4)} folded into cos.`
              : ''
          }`,
        );
      }, 'RoPE scaling');
      const at = panels[active].cursor();
      fill(active, at.r, at.c);
    },
    exportData: () => ({
      kind: 'group',
      parts: [...panels.map((p, k) => matrixExport(p, methods[k])), plotExport(plot, 'rope')].filter(Boolean),
    }),
    describe: () => panels.map((p, k) => describeMatrix(p, methods[k]) ?? '').join(' '),
    figure: (o) => stackFigures([...panels.map((p) => p.figure(o)), plot.figure(o)], o),
    canvas: () => panels[0].canvas,
  };
}
