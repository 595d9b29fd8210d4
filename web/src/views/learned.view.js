import { HEAD, matrixH } from './layout.js';

// Here `train` is the table's number of rows (max_position_embeddings): named so, in the Encoding
// group, not among RoPE's settings.
export const view = {
  id: 'learned',
  module: 'learned',
  label: 'Learned',
  title: 'Learned table',
  needs: [],
  controls: ['dim', 'length', 'train', 'palette'],
  panels: [],
  groups: { train: 'Encoding' },
  labels: { train: 'table rows' },
  height: {
    estimate: (st, width) => {
      const S = Math.min(st.train, st.length, 512);
      return (
        HEAD +
        120 +
        matrixH(width, Math.max(st.length, Math.min(st.train, st.length)), st.dim) +
        matrixH(Math.min(420, width), S, S, { square: true })
      );
    },
    fit: [-213.4, 293.7],
  },
};
