import { HEAD, plotH } from './layout.js';

export const view = {
  id: 'recap',
  module: 'recap',
  label: 'Recap',
  title: 'Recap',
  needs: [],
  controls: ['dim', 'length', 'base', 'train'],
  panels: [],
  height: {
    // the plot, then the table: seven rows, or seven stacked cards in a narrow column
    estimate: (st, width) => HEAD + plotH(220) * (width > 600 ? 1 : 2) + 60 + (width <= 600 ? 7 * 190 : 7 * 52 + 40),
    fit: [535.6, -44.6],
  },
};
