import { HEAD, keysOf, matrixH, plotH } from './layout.js';

// The similarity is a cosine or q·k: it does not depend on which column holds which pair, so the
// layouts are not among its controls.
export const view = {
  id: 'similarity',
  module: 'similarity',
  label: 'Similarity',
  title: 'Similarity',
  needs: [],
  controls: [
    'method',
    'dim',
    'length',
    'base',
    'scaling',
    'factor',
    'train',
    'heads',
    'head',
    'buckets',
    'maxdist',
    't5dir',
    'shawk',
    'palette',
  ],
  controlsFor: (st) => ['method', ...keysOf(st.method, st).filter((k) => k !== 'layout' && k !== 'rope'), 'palette'],
  panels: [],
  height: {
    estimate: (st, width) => {
      const L = Math.min(st.length, 1024);
      const half = width > 600 ? (width - 16) / 2 : width;
      // RoPE adds RoFormer's decay plot under the score plot
      const plots = plotH(260) + (st.method === 'rope' ? plotH(200) + 90 : 0);
      return HEAD + 40 + Math.max(matrixH(half, L, L), width > 600 ? plots : 0) + (width > 600 ? 0 : plots);
    },
    fit: [224.7, 65.6],
  },
};
