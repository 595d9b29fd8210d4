// Heatmap: the method as a matrix (positions × dimensions, RoPE angles mod 2π, or the bias
// matrix for relative methods). Compare: two methods side by side under the same controls.
import { createMatrixPanel, fmt } from '../draw.js';
import { encodingMatrix } from '../methods.js';
import { METHODS } from '../state.js';
import { matrixExport, shell } from './common.js';

const label = (m) => METHODS.find(([k]) => k === m)?.[1] ?? m;

function drawMethod(ctx, panel, st, method, extra = {}, shortTitle = null) {
  const m = encodingMatrix(ctx.pe, st, method, ctx.pool, extra);
  panel.rowLabel = m.rowLabel;
  panel.colLabel = m.colLabel;
  panel.setTitle(shortTitle ? shortTitle(m) : m.title);
  panel.exact = m.exact ?? null; // exports use exact values where the picture used a fast path
  panel.describe = m.describe ?? ((r, c, v) => `${m.rowLabel} ${r}, ${m.colLabel} ${c}: ${fmt(v)}`);
  // A cyclic quantity gets the cyclic map unless the reader picked a palette.
  const palette = m.palette && st.palette === 'bo' ? m.palette : st.palette;
  panel.draw(m.values, m.rows, m.cols, { lo: m.lo, hi: m.hi, palette, source: m.source, marker: extra.marker });
  return m;
}

export function setupHeatmap(el, ctx) {
  const v = shell(el, 'Heatmap',
    'Rows are positions, columns are dimensions (RoPE: the rotation angle of each pair, mod 2π; relative methods: the query × key matrix). Focus the picture and walk it with the arrow keys (Shift = 10 cells).');
  const panel = createMatrixPanel(v.body, { title: '' });
  return {
    update(st) {
      v.clear();
      v.guard(() => drawMethod(ctx, panel, st, st.method), label(st.method));
    },
    exportData: () => matrixExport(panel, 'heatmap'),
    canvas: () => panel.canvas,
  };
}

export function setupCompare(el, ctx) {
  const v = shell(el, 'Compare', 'Two methods under the same controls, side by side (choose the second with “compare with”).');
  v.body.classList.add('pair');
  const a = createMatrixPanel(v.body);
  const b = createMatrixPanel(v.body);
  return {
    update(st) {
      v.clear();
      v.guard(() => drawMethod(ctx, a, st, st.method), label(st.method));
      // Both panels may share pool buffers: under one state a method always draws the same picture.
      v.guard(() => drawMethod(ctx, b, st, st.vs, {}), label(st.vs));
    },
    exportData: () => ({ kind: 'group', parts: [matrixExport(a, 'left'), matrixExport(b, 'right')] }),
    canvas: () => a.canvas,
  };
}
export { drawMethod };
