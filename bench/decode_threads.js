// Measurement prototype, not an API: the 2-thread speed-up a threaded decode step could reach
// on this machine. posenc does not ship threads (see families/attention/attention.md, "Threads"); this script
// shows what works and measures it.
//
// It needs a shared-memory build of the unchanged C core, which Debian's Emscripten 3.1.6 makes
// only without its pthread runtime (-pthread with -sSTANDALONE_WASM is refused):
//   emcc -Ic_src c_src/*.c families/*/*.c -O3 -std=c11 -ffp-contract=off --no-entry -sSTANDALONE_WASM -sALLOW_MEMORY_GROWTH=1 \
//     -sINITIAL_MEMORY=16MB -sMAXIMUM_MEMORY=2GB -sEXPORTED_FUNCTIONS=<c_src/exports.txt, with _> \
//     -msimd128 -matomics -mbulk-memory -Wl,--shared-memory -Wl,--import-memory -o build/bench/posenc.mt.wasm
// Then: node bench/decode_threads.js
//
// Two instances of that module share one WebAssembly.Memory; the worker gets its own 1 MiB stack
// (stackRestore) and never allocates (the allocator is not thread-safe). The cache stores each
// kv head contiguously and a decode step's q/out rows of a head range are contiguous, so each
// thread runs posenc_kvcache_attend unchanged on its half of the kv heads (pointer offsets).
// The main thread spins on an Atomics counter while the worker runs, as a browser main thread
// would have to (Atomics.wait is not allowed there).
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { existsSync, readFileSync } from 'node:fs';

const WASM = new URL('../build/bench/posenc.mt.wasm', import.meta.url);

function instantiate(module, memory) {
  const imports = { env: { memory, emscripten_notify_memory_growth: () => {} } };
  for (const imp of WebAssembly.Module.imports(module)) {
    if (imp.module !== 'env') (imports[imp.module] ??= {})[imp.name] = () => 0;
  }
  return new WebAssembly.Instance(module, imports).exports;
}

if (!isMainThread) {
  const { module, memory, ctl, args } = workerData;
  const X = instantiate(module, memory);
  const stack = args[17];
  X.stackRestore(stack + (1 << 20));
  parentPort.postMessage('ready');
  let seen = 0;
  for (;;) {
    Atomics.wait(ctl, 0, seen);
    seen = Atomics.load(ctl, 0);
    if (seen < 0) break;
    X.posenc_kvcache_attend(...Array.from(args.subarray(0, 17))); // the last: bias NULL
    Atomics.add(ctl, 1, 1);
  }
} else {
  if (!existsSync(WASM)) {
    console.error(`${WASM.pathname} is missing: build it with the emcc line at the top of this file`);
    process.exit(2);
  }
  const module = new WebAssembly.Module(readFileSync(WASM));
  const memory = new WebAssembly.Memory({ initial: 256, maximum: 32768, shared: true });
  const X = instantiate(module, memory);
  X._initialize?.();
  const H = 32,
    KVH = 8,
    D = 128,
    G = H / KVH,
    half = KVH / 2,
    scale = 1 / Math.sqrt(D);
  const f32 = (p, n) => new Float32Array(memory.buffer, p, n);
  const ctl = new Int32Array(new SharedArrayBuffer(16));
  const args = new Float64Array(new SharedArrayBuffer(8 * 18));
  args[17] = X.malloc(1 << 20); // the worker's stack
  const worker = new Worker(new URL(import.meta.url), { workerData: { module, memory, ctl, args } });
  await new Promise((r) => worker.once('message', r));
  console.log('| keys | 1 thread ms | 2 threads ms | speed-up | max diff |\n|---:|---:|---:|---:|---:|');
  for (const N of [1024, 4096, 16384]) {
    const sz = X.malloc(8);
    X.posenc_kvcache_size(sz, sz + 4, KVH, D, D, N);
    const [nk, nv] = new Int32Array(memory.buffer, sz, 2);
    const kc = X.malloc(nk * 4),
      vc = X.malloc(nv * 4),
      st = X.malloc(8);
    f32(kc, nk).fill(0);
    f32(vc, nv).fill(0);
    f32(st, 2).fill(0);
    const chunk = 256,
      kin = X.malloc(chunk * KVH * D * 4);
    f32(kin, chunk * KVH * D).forEach((_, i, a) => {
      a[i] = Math.sin(i * 0.37);
    });
    for (let t = 0; t < N; t += chunk) X.posenc_kvcache_store(kc, vc, st, kin, kin, chunk, t, N, KVH, D, D);
    const q = X.malloc(H * D * 4),
      o1 = X.malloc(H * D * 4),
      o2 = X.malloc(H * D * 4),
      scr = X.malloc(4);
    f32(q, H * D).forEach((_, i, a) => {
      a[i] = Math.cos(i);
    });
    X.posenc_kvcache_scratch_size(scr, 1, N, H, KVH, D, D, 0 /* bias NULL */);
    const nfl = new Int32Array(memory.buffer, scr, 1)[0];
    const s0 = X.malloc(nfl * 4),
      s1 = X.malloc(nfl * 4);
    const capt = Math.ceil(N / 256) * 256;
    const part = (out, g0, s) => [
      out + g0 * G * D * 4,
      q + g0 * G * D * 4,
      kc + g0 * capt * D * 4,
      vc + g0 * capt * D * 4,
      st,
      N,
      N,
      1,
      half * G,
      half,
      D,
      D,
      scale,
      0,
      s,
      nfl,
      0 /* bias NULL */,
    ];
    const one = () =>
      X.posenc_kvcache_attend(o1, q, kc, vc, st, N, N, 1, H, KVH, D, D, scale, 0, s0, nfl, 0 /* bias NULL */);
    args.set(part(o2, half, s1));
    const two = () => {
      Atomics.add(ctl, 0, 1);
      Atomics.notify(ctl, 0);
      X.posenc_kvcache_attend(...part(o2, 0, s0));
      while (Atomics.load(ctl, 1) !== Atomics.load(ctl, 0)) {
        /* spin */
      }
    };
    one();
    two();
    let d = 0;
    const a = f32(o1, H * D),
      b = f32(o2, H * D);
    for (let i = 0; i < H * D; i++) d = Math.max(d, Math.abs(a[i] - b[i]));
    const ts = { one: [], two: [] };
    for (let r = 0; r < 40; r++) {
      for (const [k, f] of [
        ['one', one],
        ['two', two],
      ]) {
        const t0 = performance.now();
        f();
        ts[k].push(performance.now() - t0);
      }
    }
    const med = (x) => x.sort((u, v) => u - v)[x.length >> 1];
    console.log(
      `| ${N} | ${med(ts.one).toFixed(3)} | ${med(ts.two).toFixed(3)} | ${(med(ts.one) / med(ts.two)).toFixed(2)}× | ${d} |`,
    );
    for (const p of [kc, vc, st, kin, q, o1, o2, scr, s0, s1, sz]) X.free(p);
  }
  ctl[0] = -1;
  Atomics.notify(ctl, 0);
  await worker.terminate();
}
