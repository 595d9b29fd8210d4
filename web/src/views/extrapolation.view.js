import { HEAD, matrixH, plotH } from './layout.js';

const CONTROLS = ['dim', 'length', 'base', 'heads', 'head', 'rope', 'scaling', 'factor', 'train', 'palette'];

export const view = {
  id: 'extrapolation',
  module: 'learned',
  label: 'Extrapolation',
  title: 'Extrapolation',
  needs: [],
  controls: CONTROLS,
  // the red line is the view's own train length; a factor means nothing without a scaling
  controlsFor: (st) => CONTROLS.filter((k) => k !== 'factor' || st.scaling !== 'none'),
  panels: [],
  height: {
    estimate: (st, width) => {
      const per = Math.max(1, Math.floor(width / 200));
      return (
        HEAD +
        Math.ceil(4 / per) *
          matrixH(width / per - 12, Math.min(Math.max(st.length, st.train + 1), 1024), st.dim, { small: true }) +
        plotH(220)
      );
    },
    fit: [384.5, 105.5],
  },
};
