// The page's own cores (build.sh: posenc-page*.simd.wasm, compiled -O2 without unrolling, emmalloc)
// against the npm SIMD core on the work the page does per frame at its largest sizes. Interleaved
// rounds in one run; output buffers live on each core's heap, so the C kernels are what is timed.
// The ratio page/npm is the figure to read (1.00 = same speed).
import { readFile } from 'node:fs/promises';
import { init as pageInit, use } from '../web/src/api.js';
import { interleaved } from './harness.js';

/** The page's API (web/src/api.js) on a wasm file of dist/, with attention when it has it. */
async function apiOf(file, attention) {
  const pe = await pageInit({ wasm: await readFile(new URL(`../dist/${file}`, import.meta.url)) });
  return attention ? use(pe, 'attention') : pe;
}

/** One case on one API: a function that runs the kernel into buffers made once. */
const CASES = {
  'sinusoidal 4096 × 1024': (pe) => {
    const out = pe.alloc(4096 * 1024);
    return () => pe.sinusoidal({ length: 4096, dim: 1024, out });
  },
  'applyRope 4096 × 1024 (half)': (pe) => {
    const x = pe.alloc(4096 * 1024);
    x.array.fill(0.5);
    return () => pe.applyRope(x, { length: 4096, heads: 1, dim: 1024 });
  },
  'ropeCache 4096 × 512 pairs, YaRN': (pe) => {
    const [cos, sin] = [pe.alloc(4096 * 512), pe.alloc(4096 * 512)];
    return () =>
      pe.ropeCache({
        length: 4096,
        dim: 1024,
        scaling: { type: 'yarn', factor: 8, originalMaxPositions: 512 },
        cos,
        sin,
      });
  },
  'similarity 1024 × 1024 × 64, cosine': (pe) => {
    const t = pe.sinusoidal({ length: 1024, dim: 64 });
    const out = pe.alloc(1024 * 1024);
    return () => pe.similarity(t, { length: 1024, dim: 64, normalize: true, out });
  },
  'alibiBias 8 heads × 512 × 512': (pe) => {
    const out = pe.alloc(8 * 512 * 512);
    return () => pe.alibiBias({ heads: 8, queries: 512, out });
  },
  't5Bias 8 heads × 512 × 512': (pe) => {
    const out = pe.alloc(8 * 512 * 512);
    const weights = Float32Array.from({ length: 32 * 8 }, (_, i) => Math.sin(i));
    return () => pe.t5Bias({ weights, heads: 8, queries: 512, out });
  },
  'attention 512 × 512, 8 heads × 64, causal': (pe) => {
    if (typeof pe.attention !== 'function') return null;
    const n = 512 * 8 * 64;
    const [q, k, v, out] = [pe.alloc(n), pe.alloc(n), pe.alloc(n), pe.alloc(n)];
    for (const b of [q, k, v]) b.array.forEach((_, i, a) => (a[i] = Math.sin(i * 0.37)));
    return () => pe.attention({ q, k, v, queries: 512, heads: 8, dim: 64, causal: true, out });
  },
  'attention 512 × 512, 8 heads × 64, ALiBi': (pe) => {
    if (typeof pe.attention !== 'function') return null;
    const n = 512 * 8 * 64;
    const [q, k, v, out] = [pe.alloc(n), pe.alloc(n), pe.alloc(n), pe.alloc(n)];
    for (const b of [q, k, v]) b.array.forEach((_, i, a) => (a[i] = Math.cos(i * 0.29)));
    return () => pe.attention({ q, k, v, queries: 512, heads: 8, dim: 64, causal: true, bias: { type: 'alibi' }, out });
  },
};

export default async function pageCores(h) {
  const npm = h.simd; // the npm package's API on its SIMD core
  const lean = await apiOf('posenc-page.simd.wasm', false);
  const attn = await apiOf('posenc-page-attention.simd.wasm', true);
  const lines = [
    '**Page cores vs the npm SIMD core** (`node bench/index.js page-cores`; median ms of interleaved rounds; page/npm: 1.00 = same speed)',
    '',
    '| case | npm SIMD core | page core (lean) | page/npm | page core (attention) | page/npm |',
    '|---|---:|---:|---:|---:|---:|',
  ];
  for (const [name, make] of Object.entries(CASES)) {
    const impls = { npm: make(npm) };
    const l = make(lean);
    const a = make(attn);
    if (l) impls.lean = l;
    if (a) impls.attn = a;
    const t = await interleaved(impls, { rounds: 15, minMs: 2000 });
    const cell = (k) => (t[k] === undefined ? ['—', '—'] : [t[k].toFixed(2), (t[k] / t.npm).toFixed(2)]);
    lines.push(`| ${name} | ${t.npm.toFixed(2)} | ${cell('lean').join(' | ')} | ${cell('attn').join(' | ')} |`);
  }
  return [{ markdown: lines.join('\n') }];
}
