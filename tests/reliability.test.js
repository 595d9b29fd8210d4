// Hostile input reaches every public call as a PosencError that names its argument: revoked
// Proxies, out-of-bounds views on resizable buffers, values JSON cannot write, callbacks that
// throw or change the cache under a call, float32 underflow, edited model files, odd families,
// and a working directory whose name is not URL-safe.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { init, PosencError, Status } from '../js/index.js';
import * as lite from '../js/lite.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const pe = await init({ lab: true });

/** fn() throws a PosencError with `code` (when given) whose .argument is `arg` (string or RegExp). */
function refuses(fn, arg, code) {
  let err;
  try {
    fn();
  } catch (e) {
    err = e;
  }
  assert.ok(
    err instanceof PosencError,
    `expected a PosencError, got ${err ? `${err.name}: ${err.message}` : 'a result'}`,
  );
  if (code !== undefined) assert.equal(err.codeName, code, err.message);
  if (arg !== undefined)
    assert.match(
      String(err.argument),
      typeof arg === 'string' ? new RegExp(`^${arg.replace(/[.[\]]/g, '\\$&')}$`) : arg,
      err.message,
    );
  assert.ok(err.message.includes(String(err.argument)), `the message names ${err.argument}: ${err.message}`);
  return err;
}

const revoked = () => {
  const r = Proxy.revocable({}, {});
  r.revoke();
  return r.proxy;
};
const f32 = (n, s = 0.3) => Float32Array.from({ length: n }, (_, i) => Math.sin(i * s + 1));

test('a revoked Proxy as bias, encoding or config is E_PARAM naming it', () => {
  const q = f32(4);
  refuses(() => pe.attention({ q, k: q, v: q, queries: 1, dim: 4, bias: revoked() }), 'bias', 'POSENC_E_PARAM');
  const w = f32(16);
  const tokens = f32(8);
  refuses(
    () => pe.selfAttention({ tokens, dModel: 4, wq: w, wk: w, wv: w, encoding: revoked() }),
    'encoding',
    'POSENC_E_PARAM',
  );
  refuses(() => pe.kvCache({ dim: 4, capacity: 4, encoding: revoked() }), 'encoding', 'POSENC_E_PARAM');
  // fromConfig's own check comes first where it has one; the API's guard names the argument else
  refuses(() => pe.fromConfig(revoked()), /^(config|arguments\[0\])$/, 'POSENC_E_PARAM');
  refuses(() => pe.applyRope(q, { length: 1, dim: 4, scaling: revoked() }), 'scaling', 'POSENC_E_PARAM');
});

test('a DataView as an options object is refused, not read as empty options', () => {
  const view = new DataView(new ArrayBuffer(8));
  refuses(() => pe.train(view), 'options', 'POSENC_E_PARAM');
  refuses(() => pe.sinusoidal(view), 'options', 'POSENC_E_PARAM');
  refuses(() => pe.applyRope(f32(8), { length: 1, dim: 8, scaling: view }), 'scaling', 'POSENC_E_PARAM');
});

test('init refuses a revoked Proxy as lab or wasm, naming it', async () => {
  for (const [opts, arg] of [
    [{ lab: revoked() }, 'lab'],
    [{ wasm: revoked() }, 'wasm'],
    [revoked(), 'options'],
  ]) {
    await assert.rejects(
      init(opts),
      (e) => e instanceof PosencError && e.code === Status.E_PARAM && e.argument === arg,
    );
  }
});

test('an out-of-bounds view on a shrunk resizable buffer is refused like a detached one', (t) => {
  if (typeof ArrayBuffer.prototype.resize !== 'function') return t.skip('no resizable ArrayBuffer here');
  const oob = () => {
    const rab = new ArrayBuffer(16, { maxByteLength: 32 });
    const a = new Float32Array(rab, 0, 4);
    rab.resize(0);
    return a;
  };
  const scaling = () => ({ type: 'longrope', shortFactor: oob(), longFactor: [1, 1, 1, 1], originalMaxPositions: 8 });
  refuses(() => pe.ropeFrequencies({ dim: 8, scaling: scaling() }), 'scaling.shortFactor');
  refuses(() => pe.ropeCache({ length: 2, dim: 8, scaling: scaling() }), 'scaling.shortFactor');
  refuses(() => pe.applyRope(new Float32Array(8), { length: 1, dim: 8, scaling: scaling() }), 'scaling.shortFactor');
  refuses(
    () => pe.kvCache({ dim: 8, capacity: 4, encoding: { type: 'rope', scaling: scaling() } }),
    'encoding.scaling.shortFactor',
  );
  const w = new Float32Array(64);
  refuses(
    () =>
      pe.selfAttention({
        tokens: new Float32Array(8),
        dModel: 8,
        wq: w,
        wk: w,
        wv: w,
        encoding: { type: 'rope', scaling: scaling() },
      }),
    'encoding.scaling.shortFactor',
  );
  // a factor list that is a Proxy whose every trap throws is refused without running a trap
  const boom = () => {
    throw new RangeError('trap');
  };
  const traps = { get: boom, has: boom, ownKeys: boom, getOwnPropertyDescriptor: boom, getPrototypeOf: boom };
  const longFactor = new Proxy(new Float32Array(4), traps);
  const longrope = { type: 'longrope', shortFactor: [1, 1, 1, 1], longFactor, originalMaxPositions: 8 };
  refuses(() => pe.ropeFrequencies({ dim: 8, scaling: longrope }), 'scaling.longFactor', 'POSENC_E_PARAM');
  const e = refuses(() => pe.sinusoidal({ length: 1, dim: 4, out: oob() }), 'out', 'POSENC_E_SCRATCH');
  assert.match(e.message, /out of bounds/);
});

const small = { method: 'rope', length: 8, steps: 2, dim: 8, heads: 2, layers: 1, hidden: 8, batch: 2 };

test('saveModel refuses a key it would not write back, by name, instead of a TypeError', () => {
  const { model } = pe.train({ ...small, task: 'first' });
  const cycle = {};
  cycle.self = cycle;
  refuses(() => pe.saveModel({ ...model, note: 1n }), 'model.note', 'POSENC_E_PARAM');
  refuses(() => pe.saveModel({ ...model, note: cycle }), 'model.note', 'POSENC_E_PARAM');
  refuses(() => pe.saveModel({ ...model, k: 4n }), 'model.k', 'POSENC_E_PARAM');
  refuses(() => pe.evaluate({ ...model, k: 'x' }, { lengths: [8] }), 'model.k', 'POSENC_E_PARAM');
  refuses(() => pe.saveModel({ ...model, stepsDone: 3 }), 'model.stepsDone', 'POSENC_E_SIZE');
  // a hand-made model without its default-valued keys saves as the full configuration
  const { clip, weightDecay, ...lean } = model;
  assert.deepEqual(JSON.parse(pe.saveModel(lean)), JSON.parse(pe.saveModel(model)));
});

test('loadModel refuses every edit of the text, whether or not the checksum covers it', () => {
  const { model } = pe.train({ ...small, task: 'first', clip: 1 });
  const text = pe.saveModel(model);
  assert.deepEqual(pe.loadModel(text).params, model.params);
  const obj = JSON.parse(text);
  const { clip, ...noClip } = obj;
  const edits = [
    [{ ...obj, note: '<img src=x onerror=alert(1)>' }, 'model.note'],
    [{ ...obj, k: 'x' }, 'model.k'],
    [{ ...obj, k: -1 }, 'model.k'],
    [{ ...noClip, ciip: clip }, 'model.ciip'],
    [noClip, 'model.clip'],
    [{ ...obj, pad: 'x'.repeat(1 << 20) }, 'model.pad'],
    [JSON.parse(`{"__proto__": 1, ${text.slice(1)}`), 'model.__proto__'],
    [{ ...obj, lr: String(obj.lr) }, 'lr'],
  ];
  for (const [edited, arg] of edits) {
    refuses(() => pe.loadModel(JSON.stringify(edited)), arg);
    refuses(() => pe.loadModel(edited), arg);
  }
});

test('non-finite values and float32 underflow name their argument and element', () => {
  for (const encoding of [undefined, { type: 'rope' }]) {
    const c = pe.kvCache({ dim: 4, capacity: 8, encoding });
    const k = f32(8);
    k[5] = Number.NaN;
    refuses(() => c.append(k, f32(8)), 'k[5]', 'POSENC_E_PARAM');
    c.append(f32(8), f32(8));
    const q = f32(4);
    q[2] = Number.POSITIVE_INFINITY;
    refuses(() => c.attend(q), 'q[2]', 'POSENC_E_PARAM');
    c.free();
    refuses(() => c.attend(f32(4)), 'cache', 'POSENC_E_NULL');
  }
  // M-RoPE: k, q and the positions are named too
  const m = pe.kvCache({ dim: 8, capacity: 4, encoding: { type: 'rope', mropeSections: [2, 1, 1] } });
  const at = (p) => ({ positions: Int32Array.of(p, p, p) });
  const k8 = f32(8);
  k8[3] = Number.NaN;
  refuses(() => m.append(k8, f32(8), at(0)), 'k[3]', 'POSENC_E_PARAM');
  refuses(() => m.append(f32(8), f32(8), { positions: Float32Array.of(0, Number.NaN, 0) }), 'positions[1]');
  m.append(f32(8), f32(8), at(0));
  const q8 = f32(8);
  q8[6] = Number.POSITIVE_INFINITY;
  refuses(() => m.attend(q8, at(0)), 'q[6]', 'POSENC_E_PARAM');
  refuses(() => m.append(new Float32Array(8).fill(3e38), f32(8), at(1)), 'k', 'POSENC_E_PARAM');
  m.free();
  const big = pe.kvCache({ dim: 4, capacity: 8, encoding: { type: 'rope' } });
  refuses(() => big.append(new Float32Array(4).fill(3e38), f32(4)), 'k', 'POSENC_E_PARAM');
  big.free();
  const { model } = pe.train({ ...small, task: 'copy' });
  const p = model.params.slice();
  p[100] = Number.NaN;
  refuses(
    () => pe.evaluate({ ...model, params: p }, { lengths: [8], count: 2 }),
    'model.params[100]',
    'POSENC_E_PARAM',
  );
  refuses(() => pe.attentionMap({ ...model, params: p }, { length: 8 }), 'model.params[100]', 'POSENC_E_PARAM');
  for (const key of ['lr', 'eps', 'clip']) refuses(() => pe.train({ ...small, [key]: 1e-50 }), key, 'POSENC_E_PARAM');
  for (const key of ['beta1', 'beta2']) refuses(() => pe.train({ ...small, [key]: 1 - 1e-9 }), key, 'POSENC_E_PARAM');
  refuses(() => pe.evaluate({ ...model, eps: 5e-324 }, { lengths: [8] }), 'eps', 'POSENC_E_PARAM');
});

test("train's onProgress exception leaves as a PosencError naming onProgress, the original as its cause", () => {
  const boom = new TypeError('boom');
  const e = refuses(
    () =>
      pe.train({ ...small, progressEvery: 1 }, () => {
        throw boom;
      }),
    'onProgress',
    'POSENC_E_PARAM',
  );
  assert.match(e.message, /onProgress threw \(TypeError: boom\)/);
  assert.equal(e.cause, boom);
});

test('kvCache.attend refuses a queryScale function that changes the cache under the call', () => {
  let calls = 0;
  let change = (c) => c.truncate(0);
  const cache = pe.kvCache({
    heads: 1,
    dim: 4,
    capacity: 8,
    queryScale: () => {
      if (calls++ === 0) change(cache);
      return 1;
    },
  });
  cache.append(f32(12), f32(12, 0.7));
  refuses(() => cache.attend(f32(4, 0.2)), 'queryScale', 'POSENC_E_PARAM');
  assert.equal(cache.length, 0);
  cache.append(f32(12), f32(12, 0.7));
  calls = 0;
  change = (c) => c.append(f32(4), f32(4));
  refuses(() => cache.attend(f32(4, 0.2)), 'queryScale', 'POSENC_E_PARAM');
  assert.equal(cache.length, 4);
  // a function that leaves the cache alone is called once per query, as before
  calls = 1;
  assert.equal(cache.attend(f32(8, 0.2)).output.length, 8);
  assert.equal(calls, 3);
  cache.free();
});

test('kvCache takes a Shaw encoding whose maxRelative exceeds its capacity, equal to attention', () => {
  const maxRelative = 16;
  const dim = 4;
  const T = 4;
  const aK = f32((2 * maxRelative + 1) * dim, 0.3);
  const aV = f32((2 * maxRelative + 1) * dim, 0.5);
  const q = f32(T * dim, 0.7);
  const k = f32(T * dim, 0.9);
  const v = f32(T * dim, 1.1);
  const bias = { type: 'shaw', maxRelative, aK, aV };
  const full = pe.attention({ q, k, v, queries: T, dim, causal: true, bias }).output;
  const c = pe.kvCache({ dim, capacity: T, encoding: bias });
  c.append(k, v);
  const out = c.attend(q).output;
  c.free();
  for (let i = 0; i < out.length; i++) assert.ok(Math.abs(out[i] - full[i]) <= 1e-6, `output[${i}]`);
});

test('posenc/lite init refuses anything that is not a family, naming its index', async () => {
  class NotAFamily {}
  const cases = [
    () => {
      throw new TypeError('not a family');
    },
    NotAFamily,
    Symbol,
    () => ({}),
    () => ({ sinusoidal: 1 }),
    'sinusoidalFamily',
  ];
  for (const bad of cases) {
    await assert.rejects(lite.init({ families: [lite.sinusoidalFamily, bad] }), (e) => {
      assert.ok(e instanceof PosencError, `${e?.name}: ${e?.message}`);
      assert.equal(e.code, Status.E_PARAM);
      assert.equal(e.argument, 'families[1]');
      return true;
    });
  }
  await assert.rejects(
    lite.init({ families: revoked() }),
    (e) => e instanceof PosencError && e.argument === 'families',
  );
  const ok = await lite.init({ families: [lite.sinusoidalFamily] });
  assert.equal(typeof ok.sinusoidal, 'function');
});

test("init({ wasm: 'relative/path' }) resolves against a working directory named with # and %41", async () => {
  const top = join(tmpdir(), `posenc-cwd-${process.pid}`);
  const here = process.cwd();
  rmSync(top, { recursive: true, force: true });
  try {
    for (const name of ['proj#1', 'pct%41']) {
      // the parent (or the decoded name) holds the scalar build, the directory itself the SIMD one
      mkdirSync(join(top, 'dist'), { recursive: true });
      mkdirSync(join(top, 'pctA', 'dist'), { recursive: true });
      mkdirSync(join(top, name, 'dist'), { recursive: true });
      cpSync(join(root, 'dist/posenc.wasm'), join(top, 'dist/posenc.wasm'));
      cpSync(join(root, 'dist/posenc.wasm'), join(top, 'pctA/dist/posenc.wasm'));
      cpSync(join(root, 'dist/posenc.simd.wasm'), join(top, name, 'dist/posenc.wasm'));
      process.chdir(join(top, name));
      const got = await init({ wasm: 'dist/posenc.wasm' });
      assert.equal(got.backend, 'simd', `from ${name}`);
    }
  } finally {
    process.chdir(here);
    rmSync(top, { recursive: true, force: true });
  }
});

test('a seeded hostile-input soak (tools/hostile_soak.js, 1500 calls) finds nothing', () => {
  const r = spawnSync(process.execPath, [join(root, 'tools/hostile_soak.js'), '3600', '7', '1500'], {
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
  assert.match(r.stdout, /^1500 calls .* 0 kinds of finding/m);
});
