import { HEAD, plotH } from './layout.js';

const CONTROLS = ['dim', 'base', 'scaling', 'factor', 'train'];

export const view = {
  id: 'scaling',
  module: 'scaling',
  label: 'RoPE scaling',
  title: 'RoPE scaling',
  needs: [],
  controls: CONTROLS,
  // the original context stays (its line is drawn either way); a factor needs a scaling
  controlsFor: (st) => CONTROLS.filter((k) => k !== 'factor' || st.scaling !== 'none'),
  panels: [],
  height: {
    estimate: (st, width) => HEAD + 200 + plotH(260) + plotH(220) + (width < 600 ? 160 : 0),
    fit: [-229.5, 404.6],
  },
};
