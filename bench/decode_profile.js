#!/usr/bin/env node
// Where a GQA decode step's time goes (docs/benchmark.md "Decode: where the step's time goes").
// One new token, 32 q / 8 kv heads × 128, RoPE, against a cache of N keys, split into the parts
// the API call is made of, each timed in interleaved rounds (so machine load hits every part
// alike) in one process:
//   step          kvCache append + attend + truncate through the API (what bench/decode.js times)
//   append        the API's append + truncate alone (RoPE of the new key, the store)
//   attend        the API's attend alone (q copied and rotated, scratch, the C call)
//   C attend      posenc_kvcache_attend called directly on the same cache: the kernel alone
//   C rope q      posenc_rope_apply on one token's 32 query heads (what attend adds before it)
//   C store       posenc_kvcache_store of one token
// The API rows minus the C rows is the JS around them. Inside the C attend, a sampling profile
// (perf record -e cpu-clock with node --perf-basic-prof, on a build linked with --profiling-funcs)
// splits the kernel into scores, softmax and the V pass: run with --loop to give it a long loop.
//
//   node bench/decode_profile.js [--keys 4096] [--rounds 31] [--wasm file.wasm] [--loop seconds [--part name]]
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { init } from '../js/index.js';

const args = process.argv.slice(2);
const flag = (name, def) => {
  const i = args.indexOf(name);
  return i < 0 ? def : args[i + 1];
};
const N = Number(flag('--keys', 4096));
const rounds = Number(flag('--rounds', 31));
const wasmFile = flag('--wasm', undefined);
const loop = Number(flag('--loop', 0));
const H = 32,
  KVH = 8,
  D = 128;

const pe = await init(wasmFile ? { wasm: readFileSync(wasmFile) } : { simd: true });

let seed = 12;
const rnd = () => {
  seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
  return seed / 2 ** 31 - 1;
};
const k0 = Float32Array.from({ length: N * KVH * D }, rnd);
const v0 = Float32Array.from({ length: N * KVH * D }, rnd);
const q1 = Float32Array.from({ length: H * D }, rnd);
const cache = pe.kvCache({ heads: H, kvHeads: KVH, dim: D, capacity: N, encoding: { type: 'rope' } });
for (let t0 = 0; t0 < N - 1; t0 += 1024) {
  const n = Math.min(1024, N - 1 - t0);
  cache.append(k0.subarray(t0 * KVH * D, (t0 + n) * KVH * D), v0.subarray(t0 * KVH * D, (t0 + n) * KVH * D));
}
const kN = k0.subarray((N - 1) * KVH * D),
  vN = v0.subarray((N - 1) * KVH * D);
const qbuf = pe.alloc(H * D),
  obuf = pe.alloc(H * D);
qbuf.array.set(q1);
cache.append(kN, vN);
cache.attend(qbuf, { out: obuf });
cache.truncate(N - 1);
// the same N tokens in a second cache, for the attend part alone
const full = pe.kvCache({ heads: H, kvHeads: KVH, dim: D, capacity: N, encoding: { type: 'rope' } });
full.append(k0, v0);

// The C entry points called directly, on a second instance of the same wasm with a cache of
// its own holding the same keys and values (stored by the same posenc_kvcache_store).
const bytes = readFileSync(wasmFile ?? new URL('../dist/posenc.simd.wasm', import.meta.url));
const mod = await WebAssembly.compile(bytes);
const imports = {};
for (const imp of WebAssembly.Module.imports(mod))
  if (imp.kind === 'function') (imports[imp.module] ??= {})[imp.name] = () => {};
const inst = await WebAssembly.instantiate(mod, imports);
inst.exports._initialize?.();
const X = inst.exports;
const heap = () => X.memory.buffer;
const f32 = (n) => {
  const p = X.malloc(n * 4);
  new Float32Array(heap(), p, n).fill(0);
  return p;
};
const sz = X.malloc(8);
X.posenc_kvcache_size(sz, sz + 4, KVH, D, D, N);
const [nk, nv] = new Int32Array(heap(), sz, 2);
const kc = f32(nk),
  vc = f32(nv),
  state = f32(2);
const kin = f32(N * KVH * D),
  vin = f32(N * KVH * D);
new Float32Array(heap(), kin, N * KVH * D).set(k0);
new Float32Array(heap(), vin, N * KVH * D).set(v0);
if (X.posenc_kvcache_store(kc, vc, state, kin, vin, N, 0, N, KVH, D, D)) throw new Error('store');
const qp = f32(H * D),
  op = f32(H * D);
new Float32Array(heap(), qp, H * D).set(q1);
X.posenc_kvcache_scratch_size(sz, 1, N, H, KVH, D, D, 0);
const sfl = new Int32Array(heap(), sz, 1)[0];
const scratch = f32(sfl);
const inv = X.malloc(64 * 8);
new Float64Array(heap(), inv, 64).set(Array.from({ length: 64 }, (_, i) => 10000 ** (-(2 * i) / D)));
const rlen = X.posenc_rope_scratch_size(D);
const rscratch = f32(rlen);
const scale = 1 / Math.sqrt(D);
const cAttend = () => {
  if (X.posenc_kvcache_attend(op, qp, kc, vc, state, N, N, 1, H, KVH, D, D, scale, 0, scratch, sfl, 0))
    throw new Error('attend');
};
const cRope = () => {
  if (X.posenc_rope_apply(qp, 1, H, D, D, 0, 0, inv, 1, N - 1, rscratch, rlen)) throw new Error('rope');
};
const cStore = () => {
  if (X.posenc_kvcache_store(kc, vc, state, kin, vin, 1, N - 1, N, KVH, D, D)) throw new Error('store');
};

const parts = {
  step: () => {
    cache.append(kN, vN);
    cache.attend(qbuf, { out: obuf });
    cache.truncate(N - 1);
  },
  append: () => {
    cache.append(kN, vN);
    cache.truncate(N - 1);
  },
  attend: () => full.attend(qbuf, { out: obuf }),
  'C attend': cAttend,
  'C rope q': cRope,
  'C store': cStore,
};

if (loop > 0) {
  // a long loop of one part (--part, default the C attend), for a sampling profiler
  const name = flag('--part', 'C attend');
  // named, so a profile can keep only the samples under it (perf report --parent profiledLoop)
  const profiledLoop = (f) => {
    const end = performance.now() + 1000 * loop;
    let n = 0;
    while (performance.now() < end) {
      f();
      n++;
    }
    return n;
  };
  const n = profiledLoop(parts[name]);
  console.log(`${n} calls of ${name}, ${N} keys, in ${loop} s`);
  process.exit(0);
}

const load0 = loadavg()[0].toFixed(2);
const samples = Object.fromEntries(Object.keys(parts).map((k) => [k, []]));
for (let r = 0; r < rounds + 3; r++) {
  const order = Object.keys(parts);
  if (r % 2) order.reverse();
  for (const k of order) {
    const reps = k.startsWith('C rope') || k.startsWith('C store') ? 50 : 1;
    const t0 = performance.now();
    for (let i = 0; i < reps; i++) parts[k]();
    if (r >= 3) samples[k].push((performance.now() - t0) / reps);
  }
}
cache.truncate(N - 1);
const med = (a) => a.sort((x, y) => x - y)[a.length >> 1];
const t = Object.fromEntries(Object.entries(samples).map(([k, a]) => [k, med(a)]));
console.log(
  `decode step parts, ${N} keys, 32 q / 8 kv heads × 128, RoPE; ${rounds} interleaved rounds, median ms; ` +
    `node ${process.version}, CPU ${cpus()[0]?.model.trim()} × ${cpus().length}, ${pe.backend}${wasmFile ? ` (${wasmFile})` : ''}, ` +
    `load average ${load0} before / ${loadavg()[0].toFixed(2)} after\n`,
);
console.log('| part | ms | of the step |\n|---|---:|---:|');
for (const [k, ms] of Object.entries(t))
  console.log(`| ${k} | ${ms.toFixed(4)} | ${((100 * ms) / t.step).toFixed(1)}% |`);
const js = t.step - t['C attend'] - t['C rope q'] - t['C store'];
console.log(
  `| JS and what the C parts above leave out (step - C attend - C rope q - C store) | ${js.toFixed(4)} | ${((100 * js) / t.step).toFixed(1)}% |`,
);
