// Work that can be slow (Gram matrices are length² × dim) runs through these pure functions, in a
// worker when one is available and on the main thread otherwise (file://, single-file build).
import { ropeOptions } from './state.js';

export const SIM_CAP = 1024;

export const JOBS = {
  similarity(pe, st) {
    const L = Math.min(st.length, SIM_CAP);
    const d = st.dim;
    if (st.method === 'rope') {
      // The same vector (all ones, as in RoFormer's decay argument) at every position, rotated:
      // the Gram matrix is q·R(j−i)k, so every diagonal is constant and row 0 is q·k by offset.
      const x = new Float32Array(L * d).fill(1);
      pe.applyRope(x, { length: L, heads: 1, dim: d, layout: st.rope, ...ropeOptions(st) });
      const S = pe.similarity(x, { length: L, dim: d });
      const decay = typeof pe.ropeDecay === 'function' ? pe.ropeDecay({ dim: d, base: st.base, maxDistance: L }) : null;
      return { S, L, lo: -d, hi: d, kind: 'q·k of rotated all-ones vectors', decay };
    }
    if (st.method === 'sinusoidal' || st.method === 'learned') {
      const table =
        st.method === 'learned'
          ? pe.learnedInit({ length: L, dim: d, seed: 0 })
          : pe.sinusoidal({ length: L, dim: d, base: st.base, layout: st.layout });
      const S = pe.similarity(table, { length: L, dim: d, normalize: true });
      return { S, L, lo: -1, hi: 1, kind: 'cosine similarity PE·PEᵀ' };
    }
    return null;
  },
};
