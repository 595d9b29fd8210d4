// posenc/worker (js/worker.js) under Node's worker_threads: the same answers as the API on the main
// thread, bit for bit; a KV cache that lives in the worker; PosencErrors named as on the main
// thread; results transferred, not copied. tests/bundlers.test.js runs it in Chromium.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';
import { init, PosencError, Status } from '../js/index.js';
import { connect } from '../js/worker.js';

const THREAD = `import { parentPort } from 'node:worker_threads';
import { serve } from ${JSON.stringify(new URL('../js/worker.js', import.meta.url).href)};
serve(parentPort);`;

test('posenc/worker: the API in a worker, asynchronous, equal to the main thread bit for bit', async () => {
  const pe = await connect(new Worker(THREAD, { eval: true }));
  try {
    const direct = await init();
    assert.equal(pe.backend, direct.backend);
    const opts = { length: 40, dim: 64, base: 500 };
    const table = await pe.sinusoidal(opts);
    assert.ok(table instanceof Float32Array);
    assert.deepEqual(table, direct.sinusoidal(opts));
    const x = Float32Array.from({ length: 4 * 2 * 16 }, (_, i) => Math.sin(i));
    const ro = { length: 4, heads: 2, dim: 16, offset: 9 };
    assert.deepEqual(await pe.applyRope(x, ro), direct.applyRope(x.slice(), ro));
    assert.equal(x[1], Math.fround(Math.sin(1)), 'the caller’s array is copied to the worker, not rotated');
    // a decode loop whose cache lives in the worker
    const spec = { heads: 4, kvHeads: 2, dim: 8, capacity: 16, encoding: { type: 'rope' } };
    const cache = await pe.kvCache(spec);
    const mine = direct.kvCache(spec);
    assert.deepEqual([cache.length, cache.capacity, cache.heads, cache.kvHeads], [0, 16, 4, 2]);
    for (let t = 0; t < 5; t++) {
      const k = Float32Array.from({ length: 16 }, (_, i) => Math.sin(i + t));
      const q = Float32Array.from({ length: 32 }, (_, i) => Math.cos(i * t));
      assert.equal(await cache.append(k, k, { tokens: 1 }), cache, 'append resolves to the cache');
      mine.append(k, k);
      assert.equal(cache.length, t + 1);
      assert.deepEqual((await cache.attend(q)).output, mine.attend(q).output);
    }
    assert.deepEqual((await cache.exportPresent()).key, mine.exportPresent().key);
    // errors are PosencErrors naming the argument, as on the main thread
    const err = await pe.sinusoidal({ seqLen: 4, dim: 8 }).catch((e) => e);
    assert.ok(err instanceof PosencError);
    assert.equal(err.argument, 'seqLen');
    assert.match(err.message, /did you mean "length"/);
    const bad = await cache.append(new Float32Array(64), new Float32Array(64), { tokens: 1 }).catch((e) => e);
    assert.equal(bad.argument, 'k');
    assert.equal(bad.code, Status.E_SCRATCH);
    // a function cannot be sent to a worker: refused by name, not a DataCloneError
    const fnArg = await cache.attend(new Float32Array(32), { queryScale: () => 1 }).catch((e) => e);
    assert.ok(fnArg instanceof PosencError && fnArg.argument === 'arguments', String(fnArg));
    // only the API's functions can be called
    const nope = await pe.notAFunction().catch((e) => e);
    assert.ok(nope instanceof PosencError && nope.argument === 'method');
    await cache.free();
    const freed = await cache.attend(new Float32Array(32)).catch((e) => e);
    assert.ok(freed instanceof PosencError && freed.argument === 'handle');
    mine.free();
  } finally {
    pe.terminate();
  }
});

test('posenc/worker: connect refuses what is not a worker', async () => {
  for (const w of [undefined, {}, 'worker']) {
    const e = await connect(w).catch((x) => x);
    assert.ok(e instanceof PosencError && e.argument === 'worker');
  }
});
