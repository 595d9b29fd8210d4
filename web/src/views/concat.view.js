import { HEAD, plotH } from './layout.js';

export const view = {
  id: 'concat',
  module: 'concat',
  label: 'Add vs concat',
  title: 'Add or concatenate?',
  needs: [],
  controls: ['dim', 'base'],
  panels: [],
  height: { estimate: (st, width) => HEAD + 180 + 2 * plotH(200) + (width < 600 ? 200 : 0), fit: [-65.7, 188.3] },
};
