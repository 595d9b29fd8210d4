import { ALL, formulaW, HEAD, keysOf, matrixH, matSide } from './layout.js';

export const view = {
  id: 'heatmap',
  module: 'heatmap',
  label: 'Heatmap',
  title: 'Heatmap',
  needs: [],
  controls: ['method', ...ALL, 'palette'],
  // RoPE angles always take the cyclic map, so the palette choice does not apply to them.
  controlsFor: (st) => ['method', ...keysOf(st.method, st), ...(st.method === 'rope' ? [] : ['palette'])],
  panels: [],
  height: {
    estimate: (st, width) => {
      const fw = formulaW(width);
      const side = matSide(st, st.method);
      const rows = side ?? st.length,
        cols = side ?? st.dim;
      return HEAD + 20 + matrixH(width - fw, rows, cols) + (fw ? 0 : 260);
    },
    fit: [-81.9, 74.8],
  },
};
