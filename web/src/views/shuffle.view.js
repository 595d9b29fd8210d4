import { HEAD, keysOf, matrixH, plotH } from './layout.js';

export const view = {
  id: 'shuffle',
  module: 'shuffle',
  label: 'Shuffle lab',
  title: 'Why positions? The shuffle lab',
  needs: ['attention'],
  // sinusoidal: base only (the layer adds the paper's interleaved table)
  controls: [
    'method',
    'dim',
    'heads',
    'head',
    'base',
    'rope',
    'scaling',
    'factor',
    'train',
    'buckets',
    'maxdist',
    't5dir',
    'shawk',
    'palette',
  ],
  controlsFor: (st) => [
    'method',
    'dim',
    'heads',
    'head',
    ...keysOf(st.method, st).filter((k) => !['length', 'dim', 'heads', 'head', 'layout'].includes(k)),
    'palette',
  ],
  panels: [],
  height: {
    estimate: (st, width) => {
      const side = width > 700 ? (width - 40) / 2 : width - 20;
      const mat = matrixH((side - 30) / 2, 3, 3, { square: true, small: true, names: true });
      const one = 40 + 60 + mat + plotH(150) + 120;
      return HEAD + 140 + (width > 700 ? one : 2 * one);
    },
    fit: [-189.5, 275.5],
  },
};
