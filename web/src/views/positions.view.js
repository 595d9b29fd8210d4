import { HEAD, plotH } from './layout.js';

export const view = {
  id: 'positions',
  module: 'positions',
  label: 'Position ids',
  title: 'Position ids',
  needs: ['attention'],
  // padding and the cache are fixed examples; only the encoding's size and base are read
  controls: ['dim', 'base'],
  panels: [],
  height: {
    estimate: (st, width) =>
      HEAD + 300 + (width < 600 ? 200 : 0) + plotH(220) + plotH(200) + 2 * (width < 600 ? 140 : 60),
    // measured as the embed's height at 680 and 358 px against scaling's (whose fit is its own)
    fit: [-272.5, 246.5],
  },
};
