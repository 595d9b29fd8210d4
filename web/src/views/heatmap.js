// Heatmap: the method as a matrix (positions × dimensions, RoPE angles mod 2π, or the bias
// matrix for relative methods), with a formula panel filled in for the cell under the cursor.
// Compare: two methods under the same controls, drawn as the same quantity where one exists.
import { createMatrixPanel, fmt, stackFigures } from '../draw.js';
import { createFormula, cellFormula } from '../formula.js';
import { encodingMatrix } from '../matrices.js';
import { paletteFor } from '../palette.js';
import { readTheme } from '../theme.js';
import { METHODS, methodLabel as label } from '../methods.js';
import { describeMatrix, matrixExport, shell } from './common.js';

/** Draw `method` into `panel`; returns the matrix description. */
function drawMethod(ctx, panel, st, method, extra = {}, shortTitle = null) {
  // The theme is read before this draw's DOM writes (the title): read after them it forces a
  // style and layout pass in the middle of the frame. It is kept for the rest of the task.
  readTheme(panel.fig);
  const m = encodingMatrix(ctx.pe, st, method, ctx.pool, extra);
  panel.rowLabel = m.rowLabel;
  panel.colLabel = m.colLabel;
  panel.rowAxis = m.rowAxis ?? null;
  panel.colAxis = m.colAxis ?? null;
  panel.setTitle(shortTitle ? shortTitle(m) : m.title);
  panel.exact = m.exact ?? null; // exports use exact values where the picture used a fast path
  panel.describe = m.describe ?? ((r, c, v) => `${m.rowLabel} ${r}, ${m.colLabel} ${c}: ${fmt(v)}`);
  panel.draw(m.values, m.rows, m.cols, {
    lo: m.lo,
    hi: m.hi,
    palette: paletteFor(m.kind, st.palette),
    source: m.source,
    stable: m.stable,
    reduce: m.reduce,
    valueAt: m.valueAt,
    note: m.note,
    marker: extra.marker,
    markerLabel: extra.markerLabel,
  });
  return m;
}

/** A formula panel (formula.js) that leaves its markup alone when asked to show what it shows
 * already: a drag that keeps the cursor's cell would otherwise rebuild and re-shape it per frame. */
function keptFormula(parent) {
  const formula = createFormula(parent);
  let shown = null;
  const once = (key, write) => {
    if (key === shown) return;
    shown = key;
    write();
  };
  return {
    el: formula.el,
    set: (f, hint = '', where = null) =>
      once(JSON.stringify(['set', f.html, String(f.value), f.call, hint, where]), () => formula.set(f, hint, where)),
    clear: (msg = '') => once(JSON.stringify(['clear', msg]), () => formula.clear(msg)),
  };
}

/** Wire a formula panel to a matrix panel: the cursor's cell fills the formula in. */
function linkFormula(ctx, panel, formula, get) {
  const fill = (r, c) => {
    const cur = get();
    if (!cur?.m) return formula.clear('Point at a cell (or focus the picture and use the arrow keys).');
    try {
      formula.set(
        cellFormula(ctx.pe, cur.st, cur.method, r, c, cur.m),
        cur.m.rows < cur.st.length ? `Matrices show the first ${cur.m.rows} positions.` : '',
      );
    } catch (e) {
      formula.clear(e.message);
    }
  };
  panel.onCursor = (r, c) => fill(r, c);
  return () => {
    const { r, c } = panel.cursor();
    fill(r, c);
  };
}

export function setupHeatmap(el, ctx) {
  const v = shell(
    el,
    'Heatmap',
    'Rows are positions, columns are dimensions (RoPE: the rotation angle of each pair, mod 2π; relative ' +
      'methods: the query × key matrix). Point at a cell, or focus the picture and walk it with the arrow ' +
      'keys (Shift = 10 cells): the formula beside it fills in with that cell’s numbers.',
  );
  v.body.classList.add('with-formula');
  const panel = createMatrixPanel(v.body, { title: '' });
  const formula = keptFormula(v.body);
  let cur = null;
  const refill = linkFormula(ctx, panel, formula, () => cur);
  return {
    update(st) {
      v.clear();
      cur = null;
      v.guard(() => {
        const m = drawMethod(ctx, panel, st, st.method);
        cur = { m, st: { ...st }, method: st.method };
        refill();
      }, label(st.method));
    },
    exportData: () => matrixExport(panel, 'heatmap'),
    describe: () => describeMatrix(panel, 'heatmap'),
    figure: (o) => panel.figure(o),
    canvas: () => panel.canvas,
  };
}

const ABSOLUTE = new Set(Object.keys(METHODS).filter((m) => METHODS[m].table));

export function setupCompare(el, ctx) {
  const v = shell(
    el,
    'Compare',
    'Two methods under the same settings, side by side. Where both are tables of vectors, both are drawn as the same quantity on the same scale: RoPE as the sin θ and cos θ of each pair, which without a scaling is exactly what a sinusoidal table of the same base holds (RoPE turns q and k by these angles instead of adding them).',
  );
  v.body.classList.add('with-formula');
  const pairEl = document.createElement('div');
  pairEl.className = 'pair figs';
  v.body.append(pairEl);
  const a = createMatrixPanel(pairEl);
  const b = createMatrixPanel(pairEl);
  const formula = keptFormula(v.body);
  // One formula panel for both sides: it follows the side the cursor was last on.
  const drawn = [null, null];
  let active = 0;
  const fill = (k, r, c) => {
    const cur = drawn[k];
    active = k;
    if (!cur?.m) return formula.clear('Point at a cell of either side (or focus it and use the arrow keys).');
    try {
      formula.set(
        cellFormula(ctx.pe, cur.st, cur.method, r, c, cur.m),
        `${k ? 'Right' : 'Left'}: ${label(cur.method)}.`,
      );
    } catch (e) {
      formula.clear(e.message);
    }
  };
  a.onCursor = (r, c) => fill(0, r, c);
  b.onCursor = (r, c) => fill(1, r, c);
  const note = document.createElement('p');
  note.className = 'status compare-note';
  v.section.append(note);
  return {
    update(st) {
      v.clear();
      const same = ABSOLUTE.has(st.method) && ABSOLUTE.has(st.vs);
      const extra = same ? { quantity: 'sincos' } : {};
      [
        [a, st.method],
        [b, st.vs],
      ].forEach(([p, method], k) => {
        drawn[k] = { m: null, st: { ...st }, method };
        // Both panels may share pool buffers: under one state a method always draws the same picture.
        const m = v.guard(() => drawMethod(ctx, p, st, method, extra), label(method));
        drawn[k].m = m ? { ...m, quantity: extra.quantity } : null;
      });
      const at = (active ? b : a).cursor();
      fill(active, at.r, at.c);
      note.textContent = same
        ? 'Same quantity on both sides: value of each (position, dimension), colour scale −1 … 1 (RoPE’s scale grows by its attention factor under YaRN, noted under the panel).'
        : ABSOLUTE.has(st.method) !== ABSOLUTE.has(st.vs)
          ? 'Different quantities: a table of vectors (position × dimension) beside a bias or index per (query, key) pair; each has its own colour bar.'
          : 'Both are per (query, key) pair; each has its own colour bar and units.';
    },
    exportData: () => ({ kind: 'group', parts: [matrixExport(a, 'left'), matrixExport(b, 'right')] }),
    describe: () => `${describeMatrix(a, 'left') ?? ''} ${describeMatrix(b, 'right') ?? ''}`.trim(),
    figure: (o) => stackFigures([a.figure(o), b.figure(o)], o),
    canvas: () => a.canvas,
  };
}
export { drawMethod, keptFormula };
