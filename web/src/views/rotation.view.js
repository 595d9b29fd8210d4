import { HEAD, live } from './layout.js';

export const view = {
  id: 'rotation',
  module: 'rotation',
  label: 'Rotation',
  title: 'Rotation',
  needs: [],
  controls: ['dim', 'base', 'rope', 'scaling', 'factor', 'train'],
  controlsFor: (st) => live(['dim', 'base', 'rope', 'scaling', 'factor', 'train'], st),
  panels: [],
  height: {
    estimate: (st, width) => {
      const perRow = Math.min(5, Math.max(2, Math.floor(width / 150)));
      const rows = Math.ceil(5 / perRow);
      const R = Math.min(66, width / perRow / 2 - 14);
      return HEAD + 130 + rows * (2 * R + 114) + 8 + 60 + 130; // circles, then the check's five rows
    },
    fit: [184.8, 262.8],
  },
};
