import { ALL, forMethods, HEAD, matrixH, matSide, uniq } from './layout.js';

export const view = {
  id: 'compare',
  module: 'heatmap',
  label: 'Compare',
  title: 'Compare',
  needs: [],
  controls: ['method', 'vs', ...ALL, 'palette'],
  controlsFor: (st) => uniq(['method', 'vs', ...forMethods(st, st.method, st.vs), 'palette']),
  panels: [],
  height: {
    estimate: (st, width) => {
      const half = width > 600 ? (width - 16) / 2 : width;
      const h = (m) => {
        const s = matSide(st, m);
        return matrixH(half, s ?? st.length, s ?? st.dim);
      };
      return HEAD + 60 + (width > 600 ? Math.max(h(st.method), h(st.vs)) : h(st.method) + h(st.vs));
    },
    fit: [-189.2, 272.7],
  },
};
