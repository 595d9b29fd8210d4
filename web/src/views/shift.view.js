import { HEAD, plotH } from './layout.js';

export const view = {
  id: 'shift',
  module: 'shift',
  label: 'Shift identity',
  title: 'The shift identity PE(p+k) = M_k · PE(p)',
  needs: [],
  controls: ['dim', 'base'],
  panels: [],
  height: { estimate: (st, width) => HEAD + 200 + plotH(240) + (width < 600 ? 120 : 0), fit: [25.5, 319.7] },
};
