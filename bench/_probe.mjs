import { init } from '../js/index.js';
import { time } from './harness.js';
const pe = await init({ simd: true });
const L = 1024;
const r = () => Math.random() * 2 - 1;
const buf = (n) => { const b = pe.alloc(n); b.array.set(Float32Array.from({ length: n }, r)); return b; };
for (const [D, DV] of [[64, 64], [64, 8], [8, 64], [8, 8], [64, 1]]) {
  const q = buf(L * D), k = buf(L * D), v = buf(L * DV), o = pe.alloc(L * DV);
  const t = time(() => pe.attention({ q, k, v, queries: L, dim: D, dimV: DV, out: o }), { minMs: 800 });
  console.log(D, DV, t.toFixed(2));
}
