import { ALL, HEAD, keysOf, plotH } from './layout.js';

// Waves follow one column per pair: they do not depend on which column holds which pair, so the
// layouts are not among their controls.
export const view = {
  id: 'waves',
  module: 'waves',
  label: 'Waves',
  title: 'Waves',
  needs: [],
  controls: ['method', ...ALL.filter((k) => k !== 'layout' && k !== 'rope')],
  controlsFor: (st) => ['method', ...keysOf(st.method, st).filter((k) => k !== 'layout' && k !== 'rope')],
  panels: [],
  height: {
    estimate: (st) => HEAD + plotH(300) + (st.method === 'rope' ? plotH(240) : 0),
    fit: [-113.8, 276.6],
  },
};
