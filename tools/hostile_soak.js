// A hostile-input soak of the public API: valid calls to every function (and the KV cache's
// methods), each mutated with 1-3 hostile values (odd numbers, BigInt, boxed numbers, revoked and
// throwing Proxies, throwing getters, detached, resizable, out-of-bounds, shared, cross-realm and
// heap-view arrays, freed or foreign posenc buffers, aliased arguments), for a while. It checks
// that only PosencError escapes, that each one names its argument (and is not the API's last-resort
// guard), that no call leaks wasm heap, and (from a parent process) that no call hangs.
//
//   node tools/hostile_soak.js [seconds = 60] [seed = 1] [calls = Infinity]
//
// With a call budget the run is the same calls every time (tests/reliability.test.js runs one).
// Exits 1 on any finding, printing each kind once with a call that shows it.
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

const [seconds = 60, seed = 1, budget = Infinity] = process.argv.slice(2, 5).map(Number);
const HANG_MS = 90_000; // a legal slow call (a default train run) takes 20-35 s on a loaded machine

if (process.env.POSENC_SOAK_CHILD !== '1') {
  const child = fork(fileURLToPath(import.meta.url), [String(seconds), String(seed), String(budget)], {
    env: { ...process.env, POSENC_SOAK_CHILD: '1' },
  });
  let last = null;
  let at = Date.now();
  let done = false;
  child.on('message', (m) => {
    if (m.call) {
      last = m.call;
      at = Date.now();
    }
    if (m.summary) {
      done = true;
      console.log(m.summary);
    }
  });
  const timer = setInterval(() => {
    if (Date.now() - at > HANG_MS) {
      console.log(`HANG: no return after ${HANG_MS / 1000} s from ${last}`);
      child.kill('SIGKILL');
      process.exitCode = 1;
    }
  }, 1000);
  child.on('exit', (code) => {
    clearInterval(timer);
    if (!done) console.log(`the soak process ended with code ${code}, during ${last}`);
    if (code !== 0) process.exitCode = 1;
  });
} else {
  await soak();
}

async function soak() {
  const { init, PosencError } = await import('../js/index.js');
  const { show } = await import('../js/validate.js');
  const lite = await import('../js/lite.js');
  const simd = await init({ lab: true });
  const scalar = await init({ simd: false });
  // the package ships the lab's SIMD build only; ./build.sh wasm writes the scalar one
  await scalar.loadLab({ wasm: readFileSync(fileURLToPath(new URL('../dist/posenc-lab.wasm', import.meta.url))) });
  const families = Object.entries(lite)
    .filter(([k]) => k.endsWith('Family'))
    .map(([, f]) => f);
  const light = await lite.init({ families, lab: true });
  const instances = [simd, scalar, light];

  let s = seed >>> 0 || 1;
  const rnd = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), s | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  const pick = (a) => a[Math.floor(rnd() * a.length)];
  const f32 = (n) => Float32Array.from({ length: n }, () => rnd() * 2 - 1);

  // ---- valid calls: [name, (pe) => args] ----
  const model = simd.train({
    task: 'copy',
    method: 'rope',
    length: 8,
    steps: 2,
    dim: 8,
    heads: 2,
    layers: 1,
    hidden: 8,
    batch: 2,
  }).model;
  const saved = simd.saveModel(model);
  const hf = {
    model_type: 'llama',
    hidden_size: 64,
    num_attention_heads: 4,
    rope_theta: 10000,
    max_position_embeddings: 128,
  };
  const CALLS = [
    ['sinusoidal', () => [{ length: 4, dim: 8 }]],
    ['sinusoidalFrequencies', () => [{ dim: 8 }]],
    ['sinusoidal2d', () => [{ height: 2, width: 2, dim: 8 }]],
    ['similarity', () => [f32(32), { length: 4, dim: 8 }]],
    ['ropeFrequencies', () => [{ dim: 8, scaling: { type: 'yarn', factor: 4, originalMaxPositions: 16 } }]],
    [
      'ropeFrequencies',
      () => [
        {
          dim: 8,
          scaling: {
            type: 'longrope',
            shortFactor: f32(4)
              .map(Math.abs)
              .map((x) => x + 1),
            longFactor: [1, 1, 1, 1],
            originalMaxPositions: 8,
          },
        },
      ],
    ],
    ['ropeCache', () => [{ length: 4, dim: 8, scaling: { type: 'linear', factor: 2 } }]],
    ['applyRope', () => [f32(16), { length: 2, dim: 8, offset: 3 }]],
    ['applyRope', () => [f32(16), { length: 2, dim: 8, xpos: { scaleBase: 512 } }]],
    ['applyRope', () => [f32(16), { length: 2, dim: 8, positions: Int32Array.of(5, 9) }]],
    ['ropeDecay', () => [{ dim: 8, maxDistance: 16 }]],
    ['alibiSlopes', () => [4]],
    ['alibiBias', () => [{ heads: 2, queries: 3, keys: 4, causal: true }]],
    ['t5Buckets', () => [{ queries: 3, keys: 4 }]],
    ['t5Bias', () => [{ weights: f32(64), heads: 2, queries: 3, keys: 4 }]],
    ['shawIndices', () => [{ queries: 3, keys: 4, maxRelative: 2 }]],
    ['xlPositions', () => [{ klen: 4, dim: 8 }]],
    ['relShift', () => [f32(12), { queries: 3, keys: 4 }]],
    ['xlScores', () => [{ q: f32(16), k: f32(16), r: f32(16), u: f32(8), v: f32(8), queries: 2, keys: 2, dim: 8 }]],
    ['learnedInit', () => [{ length: 4, dim: 8, seed: 3 }]],
    ['gather', () => [f32(32), { dim: 8, positions: [0, 3, 1] }]],
    ['addTo', () => [f32(16), f32(32), { length: 2, dim: 8, offset: 1 }]],
    ['concat', () => [f32(8), f32(16), { length: 2, dimX: 4, dimP: 8 }]],
    [
      'attention',
      () => [
        {
          q: f32(8),
          k: f32(12),
          v: f32(12),
          queries: 2,
          keys: 3,
          dim: 4,
          causal: true,
          align: 'bottom-right',
          bias: { type: 'alibi' },
        },
      ],
    ],
    [
      'attention',
      () => [
        {
          q: f32(8),
          k: f32(12),
          v: f32(12),
          queries: 2,
          keys: 3,
          dim: 4,
          bias: { type: 'shaw', maxRelative: 2, aK: f32(20), aV: f32(20) },
          returnWeights: true,
        },
      ],
    ],
    [
      'attention',
      () => [
        {
          q: f32(8),
          k: f32(12),
          v: f32(12),
          queries: 2,
          keys: 3,
          dim: 4,
          bias: { type: 't5', weights: f32(32) },
          queryScale: () => 1,
        },
      ],
    ],
    ['matmul', () => [f32(6), f32(6), { m: 2, k: 3, n: 2 }]],
    [
      'selfAttention',
      () => [{ tokens: f32(8), dModel: 4, wq: f32(16), wk: f32(16), wv: f32(16), encoding: { type: 'rope' } }],
    ],
    [
      'selfAttention',
      () => [
        {
          tokens: f32(8),
          dModel: 4,
          wq: f32(16),
          wk: f32(16),
          wv: f32(16),
          encoding: { type: 'learned', table: f32(8) },
        },
      ],
    ],
    ['kvCache', () => [{ dim: 4, capacity: 4, encoding: { type: 'rope', scaling: { type: 'ntk', factor: 2 } } }]],
    ['kvCache.append', () => [{ dim: 4, capacity: 4, encoding: { type: 'alibi' } }, f32(4), f32(4)]],
    [
      'kvCache.attend',
      () => [
        { dim: 4, capacity: 4, encoding: { type: 'rope' } },
        f32(4),
        f32(4),
        f32(4),
        { out: f32(4), queryScale: f32(1) },
      ],
    ],
    [
      'kvCache.attend',
      () => [
        {
          heads: 2,
          kvHeads: 1,
          dim: 4,
          capacity: 4,
          encoding: { type: 'shaw', maxRelative: 8, aK: f32(68), aV: f32(68) },
          queryScale: () => 2,
        },
        f32(8),
        f32(8),
        f32(8),
      ],
    ],
    [
      'kvCache.attend',
      () => [
        { dim: 8, capacity: 4, encoding: { type: 'rope', mropeSections: [2, 1, 1] } },
        f32(8),
        f32(8),
        f32(8),
        { positions: Int32Array.of(0, 0, 0) },
        { positions: Int32Array.of(0, 0, 0) },
      ],
    ],
    [
      'applyRope',
      () => [f32(16), { length: 2, dim: 8, mropeSections: [2, 1, 1], positions: Float32Array.of(0, 1, 0, 1, 0, 1) }],
    ],
    ['applyRope', () => [f32(32), { length: 4, dim: 8, axial: { height: 2, width: 2 } }]],
    ['ropeCache', () => [{ length: 2, dim: 8, offset: 3, cos: f32(8), sin: f32(8) }]],
    [
      'attention',
      () => [
        {
          q: f32(8),
          k: f32(12),
          v: f32(12),
          queries: 2,
          keys: 3,
          dim: 4,
          bias: { type: 'xl', u: f32(4), v: f32(4), r: f32(16) },
        },
      ],
    ],
    [
      'selfAttention',
      () => [
        {
          tokens: f32(8),
          dModel: 4,
          wq: f32(16),
          wk: f32(16),
          wv: f32(16),
          causal: true,
          encoding: { type: 'xl', u: f32(4), v: f32(4), wr: f32(16) },
        },
      ],
    ],
    ['kvCache.truncate', () => [{ dim: 4, capacity: 4 }, 1]],
    [
      'train',
      () => [
        {
          task: 'copy',
          method: pick(['rope', 'alibi', 'learned']),
          length: 8,
          steps: 2,
          dim: 8,
          heads: 2,
          layers: 1,
          hidden: 8,
          batch: 2,
        },
        () => true,
      ],
    ],
    ['evaluate', () => [{ ...model }, { lengths: [8, 16], count: 2 }]],
    ['labSequences', () => [{ ...model }, { length: 8 }]],
    ['attentionMap', () => [{ ...model }, { length: 8 }]],
    ['positionTable', () => [{ ...model, method: 'learned' }]],
    ['saveModel', () => [{ ...model }]],
    ['loadModel', () => [pick([saved, JSON.parse(saved)])]],
    ['fromConfig', () => [JSON.parse(JSON.stringify(hf)), { layer: 0 }]],
    ['alloc', () => [4, 'float32']],
    ['init', () => [{ families: [lite.sinusoidalFamily, lite.ropeFamily], simd: 'auto' }]],
  ];

  // ---- hostile values ----
  const other = instances[1];
  const hostile = (pe) => {
    const n = pick([1, 4, 8, 16]);
    const kinds = [
      () =>
        pick([
          NaN,
          Infinity,
          -Infinity,
          -0,
          2 ** 31 - 1,
          2 ** 31,
          -(2 ** 31),
          2 ** 32,
          2 ** 53,
          2 ** 53 + 2,
          1e308,
          5e-324,
          0.5,
          -1,
        ]),
      () => pick(['4', 4n, -1n, true, null, Symbol('s'), () => 4, [], [4], '']),
      () => new Number(4),
      () => ({ valueOf: () => 4, toString: () => '4' }),
      () => {
        const r = Proxy.revocable({}, {});
        r.revoke();
        return r.proxy;
      },
      () => {
        const boom = () => {
          throw new RangeError('trap');
        };
        return new Proxy(f32(n), {
          get: boom,
          has: boom,
          ownKeys: boom,
          getOwnPropertyDescriptor: boom,
          getPrototypeOf: boom,
        });
      },
      () => new Proxy(f32(n), {}),
      () =>
        Object.defineProperty({}, 'type', {
          enumerable: true,
          get() {
            throw new TypeError('getter');
          },
        }),
      () => {
        const a = f32(n);
        structuredClone(a.buffer, { transfer: [a.buffer] });
        return a;
      },
      () => {
        const rab = new ArrayBuffer(4 * n, { maxByteLength: 8 * n });
        const a = new Float32Array(rab, 0, n);
        rab.resize(0);
        return a;
      },
      () => new Float32Array(new ArrayBuffer(4 * n, { maxByteLength: 8 * n })),
      () => new Float32Array(new SharedArrayBuffer(4 * n)),
      () => f32(n + 3).subarray(3),
      () => new DataView(new ArrayBuffer(4 * n)),
      () => Array.from(f32(n)),
      () => Float64Array.from(f32(n)),
      () => Int32Array.from({ length: n }, (_, i) => i),
      () => {
        const a = f32(n);
        a[n - 1] = pick([NaN, Infinity, 3e38, -0]);
        return a;
      },
      () =>
        Object.defineProperty(f32(n), 'length', {
          get() {
            throw new TypeError('length');
          },
        }),
      () => vm.runInNewContext(`new Float32Array(${n})`),
      () => {
        const b = pe.alloc(n);
        b.free();
        return b;
      },
      () => pe.alloc(n, pick(['int32', 'float64'])),
      () => pe.alloc(n),
      () => pe.alloc(n).array,
      () => (pe === other ? instances[0] : other).alloc(n),
      () => Object.freeze(Object.create({ length: 4, dim: 8 })),
      () => Object.create(null),
      () => ({ [Symbol('k')]: 1 }),
      () => JSON.parse('{"__proto__": {"length": 4}}'),
    ];
    return pick(kinds)();
  };

  /** The arguments in words, for a report (getters are described, not run). */
  const describe = (x, d = 0) => {
    if (x === null || typeof x !== 'object' || ArrayBuffer.isView(x) || d > 2) return show(x);
    try {
      const parts = Reflect.ownKeys(x).map((k) => {
        const desc = Reflect.getOwnPropertyDescriptor(x, k);
        return `${String(k)}: ${desc && 'value' in desc ? describe(desc.value, d + 1) : 'a getter'}`;
      });
      return Array.isArray(x) ? parts.map((p) => p.replace(/^\d+: /, '')).join(', ') : `{ ${parts.join(', ')} }`;
    } catch {
      return show(x);
    }
  };

  // the soak's own walks over arguments it has already made hostile (Proxies, getters)
  const values = (o) => {
    try {
      return ArrayBuffer.isView(o) ? [] : Object.values(o);
    } catch {
      return [];
    }
  };

  /** Replace a random slot of args (an argument, or a key of an options object, nested) by a
   * hostile value; or alias two arrays; or turn an options key into a getter that meddles. */
  function mutate(pe, args) {
    const objs = [];
    const walk = (o, depth) => {
      if (depth > 2 || o === null || typeof o !== 'object' || ArrayBuffer.isView(o)) return;
      objs.push(o);
      for (const v of values(o)) walk(v, depth + 1);
    };
    walk(args, 0);
    const o = pick(objs);
    const keys = Object.keys(o);
    const extra = o === args ? [String(keys.length)] : ['zzz', 'length', 'out', 'scaling', 'type'];
    const k = keys.length && rnd() < 0.9 ? pick(keys) : pick(extra);
    const r = rnd();
    if (r < 0.7) o[k] = hostile(pe);
    else if (r < 0.8) delete o[k];
    else if (r < 0.9) {
      const arrays = [];
      const find = (x, d) => {
        if (d > 3 || x === null || typeof x !== 'object') return;
        if (ArrayBuffer.isView(x)) return arrays.push(x);
        for (const v of values(x)) find(v, d + 1);
      };
      find(args, 0);
      if (arrays.length) o[k] = pick(arrays);
    } else if (o !== args) {
      // (a getter on args itself would run in the spread of the call, outside posenc)
      const v = o[k];
      const meddle = pick([
        () => {
          // detach every array argument while options are read
          const find = (x, d) => {
            if (d > 3 || x === null || typeof x !== 'object') return;
            if (ArrayBuffer.isView(x) && !(x.buffer instanceof SharedArrayBuffer) && x.byteLength) {
              try {
                structuredClone(x.buffer, { transfer: [x.buffer] });
              } catch {}
              return;
            }
            for (const w of values(x)) find(w, d + 1);
          };
          find(args, 0);
        },
        () => {
          const b = pe.alloc(1 << 18); // grow the heap
          b.free();
        },
        () => {
          throw new TypeError('getter');
        },
      ]);
      let busy = false;
      Object.defineProperty(o, k, {
        enumerable: true,
        configurable: true,
        get() {
          if (busy) return v;
          busy = true;
          try {
            meddle();
          } finally {
            busy = false;
          }
          return v;
        },
      });
    }
  }

  async function invoke(pe, name, args) {
    if (name.startsWith('kvCache.')) {
      const method = name.slice(8);
      const [opts, ...rest] = args;
      const cache = pe.kvCache(opts);
      try {
        if (method === 'attend') {
          cache.append(rest[0], rest[1], rest[4]);
          return cache.attend(rest[2], rest[3]);
        }
        if (method === 'truncate') {
          cache.append(f32(8), f32(8));
          return cache.truncate(rest[0]);
        }
        return cache.append(rest[0], rest[1]);
      } finally {
        cache.free();
      }
    }
    if (name === 'init') return lite.init(...args); // posenc/lite's, with its families option
    return pe[name](...args);
  }

  // every valid call must succeed unmutated, or the soak would test only one refusal of it
  for (const [name, make] of CALLS) {
    for (const pe of instances) {
      try {
        const r = await invoke(pe, name, make());
        if (name === 'alloc') r.free();
      } catch (e) {
        console.log(`the soak's valid call ${name} fails: ${e.message}`);
        process.exit(2);
      }
    }
  }
  const findings = new Map();
  const note = (kind, call, detail) => {
    if (!findings.has(kind)) findings.set(kind, { count: 0, call, detail });
    findings.get(kind).count++;
  };
  const end = Date.now() + seconds * 1000;
  let calls = 0;
  let errors = 0;
  while (Date.now() < end && calls < budget) {
    const pe = pick(instances);
    const [name, make] = pick(CALLS);
    const args = make();
    const m = rnd() < 0.85 ? 1 + Math.floor(rnd() * 3) : 0;
    const before = pe.heapInUse;
    for (let i = 0; i < m; i++) {
      try {
        mutate(pe, args);
      } catch {
        // writing into an argument the soak already made hostile (a Proxy of a typed array)
      }
    }
    const made = pe.heapInUse - before; // posenc buffers the mutations allocated (args)
    const call = `#${calls} ${pe === simd ? 'simd' : pe === scalar ? 'scalar' : 'lite'}.${name}(${describe(args)}) (seed ${seed})`;
    process.send?.({ call });
    calls++;
    try {
      const r = await invoke(pe, name, args);
      if (name === 'alloc') r.free();
    } catch (e) {
      errors++;
      if (!(e instanceof PosencError)) note(`${name}: ${e?.name ?? typeof e} escaped`, call, String(e?.message ?? e));
      else if (e.argument === undefined) note(`${name}: PosencError without .argument`, call, e.message);
      else if (e.cause !== undefined && /could not be used/.test(e.message))
        note(`${name}: only the API guard caught it`, call, e.message);
    }
    if (pe.heapInUse - before !== made)
      note(`${name}: heap in use changed`, call, `${before + made} -> ${pe.heapInUse}`);
  }
  const lines = [`${calls} calls (seed ${seed}, ${seconds} s), ${errors} refused, ${findings.size} kinds of finding`];
  for (const [kind, f] of findings) lines.push(`  ${kind} x${f.count}: ${f.call}: ${f.detail.slice(0, 300)}`);
  const code = findings.size ? 1 : 0;
  if (process.send) process.send({ summary: lines.join('\n') }, () => process.exit(code));
  else {
    console.log(lines.join('\n'));
    process.exit(code);
  }
}
