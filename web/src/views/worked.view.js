import { HEAD } from './layout.js';

export const view = {
  id: 'worked',
  module: 'worked',
  label: 'Worked example',
  title: 'Sinusoidal by hand: a 4-dimensional example',
  needs: [],
  controls: ['base'],
  panels: [],
  height: { estimate: (st, width) => HEAD + 620 + (width < 600 ? 160 : 0), fit: [-129.3, 321] },
};
