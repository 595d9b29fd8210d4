// The extrapolation lab: training, evaluation past the training length, determinism across the
// SIMD, scalar and native builds, serialisation and argument errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { init, PosencError, Status } from '../../js/index.js';
import { C_SOURCES } from '../../tests/paths.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const simd = await init({ simd: true, lab: true });
// The package ships the SIMD lab only; the scalar lab build.sh writes keeps the SIMD/scalar check.
const scalar = await init({ simd: false, lab: { wasm: new URL('../../dist/posenc-lab.wasm', import.meta.url) } });
const METHODS = ['none', 'learned', 'sinusoidal', 'rope', 'alibi', 't5'];

const tail = (losses) => losses.slice(-20).reduce((a, b) => a + b, 0) / 20;

function throwsCode(fn, code, pattern) {
  assert.throws(fn, (e) => {
    assert.ok(e instanceof PosencError, `PosencError expected, got ${e}`);
    assert.equal(e.code, code, e.message);
    if (pattern) assert.match(e.message, pattern);
    return true;
  });
}

const models = {};
// The default run (copy the previous token, 4 heads, length 32, 300 steps, seed 0): every method
// with positional information learns the task at the training length (accuracy >= 0.9, the page's
// "learned" rule), ALiBi included (with 2 heads it stayed at 0.22). NoPE has only the causal mask.
test('default run: every method with positional information learns the default task', { timeout: 600_000 }, () => {
  for (const method of METHODS) {
    const { model, losses } = simd.train({ method });
    assert.equal(losses.length, 300);
    assert.ok(losses.every(Number.isFinite));
    assert.ok(tail(losses) < losses[0], `${method}: the loss fell`);
    models[method] = model;
    if (method === 'none') continue;
    const a = simd.evaluate(model, { lengths: [32], count: 32 }).accuracy[0];
    assert.ok(a >= 0.9, `${method}: accuracy ${a} at the training length`);
  }
});

// A model whose every output is the bias bout (all other parameters 0: every layer adds 0 and the
// final norm of a zero vector is 0) predicts argmax(bout) everywhere with probabilities
// softmax(bout). Its accuracy and loss, over all scored positions and over those past the
// training length, are counted here in float64 from the evaluation's own sequences.
test('beyond: accuracy and loss past the training length match a float64 hand count', () => {
  for (const [task, method] of [
    ['copy', 'rope'],
    ['ngram', 'alibi'],
    ['first', 't5'],
    ['periodic', 'none'],
  ]) {
    const { model } = simd.train({
      task,
      method,
      steps: 1,
      length: 16,
      dim: 8,
      heads: 2,
      layers: 1,
      hidden: 8,
      batch: 2,
    });
    const bout = [0.3, -1, 2.5, 0, 1, -2, 0.5, 2, 0.25, -0.5, 1.5, 0, 0.75, -1.25, 1, 2.25];
    const params = new Float32Array(model.params.length);
    params.set(bout, params.length - 16); // bout is the last parameter block
    const fixed = { ...model, params };
    const best = bout.indexOf(Math.max(...bout));
    const z = Math.log(bout.reduce((a, b) => a + Math.exp(Math.fround(b)), 0));
    const lengths = [16, 40, 64];
    const ev = simd.evaluate(fixed, { lengths, count: 5, seed: 9 });
    assert.equal(ev.trainLength, 16);
    lengths.forEach((L, li) => {
      const { tokens, targets } = simd.labSequences(fixed, { length: L, count: 5, seed: 9 });
      assert.equal(tokens.length, 5 * L);
      let n = 0,
        ok = 0,
        loss = 0,
        nb = 0,
        okb = 0,
        lossb = 0;
      for (let i = 0; i < targets.length; i++) {
        const y = targets[i];
        if (y < 0) continue;
        const l = z - Math.fround(bout[y]);
        n++;
        ok += y === best;
        loss += l;
        if (i % L >= 16) {
          nb++;
          okb += y === best;
          lossb += l;
        }
      }
      assert.ok(n > 0, `${task}: scored positions`);
      assert.equal(ev.accuracy[li], ok / n, `${task} at ${L}: accuracy`);
      assert.ok(Math.abs(ev.loss[li] - loss / n) < 1e-5, `${task} at ${L}: loss ${ev.loss[li]} vs ${loss / n}`);
      if (L === 16) {
        assert.equal(ev.beyond[li], null, `${task}: nothing past the training length at 1x`);
      } else {
        assert.ok(nb > 0);
        assert.equal(ev.beyond[li], okb / nb, `${task} at ${L}: beyond`);
        assert.ok(Math.abs(ev.beyondLoss[li] - lossb / nb) < 1e-5, `${task} at ${L}: beyond loss`);
      }
    });
  }
});

test('ngram: the source is reproducible from its seed, and is the order-k source it claims', () => {
  const a = simd.train({ task: 'ngram', method: 'alibi', steps: 1, seed: 5 }).model;
  const b = simd.train({ task: 'ngram', method: 'rope', steps: 1, seed: 5 }).model;
  const c = simd.train({ task: 'ngram', method: 'alibi', steps: 1, seed: 6 }).model;
  assert.equal(a.k, 3);
  const sa = simd.labSequences(a, { length: 256, count: 64 });
  assert.deepEqual(simd.labSequences(a, { length: 256, count: 64 }), sa, 'same seed, same sequences');
  assert.deepEqual(scalar.labSequences(a, { length: 256, count: 64 }), sa, 'same on the scalar build');
  assert.deepEqual(simd.labSequences(b, { length: 256, count: 64 }), sa, 'the method does not change the data');
  const sc = simd.labSequences(c, { length: 256, count: 64 });
  assert.notDeepEqual(sc.tokens, sa.tokens, 'another seed, another source');
  // each context (the last two tokens) has one most frequent next token, about 3/4 + 1/64 of the time
  const table = (s) => {
    const counts = new Map();
    for (let q = 0; q < s.count; q++) {
      for (let i = 2; i < s.length; i++) {
        const t = s.tokens.subarray(q * s.length, (q + 1) * s.length);
        assert.equal(s.targets[q * s.length + i - 1], t[i], 'the target is the next token');
        const key = t[i - 2] * 16 + t[i - 1];
        const row = counts.get(key) ?? new Array(16).fill(0);
        row[t[i]]++;
        counts.set(key, row);
      }
    }
    let top = 0,
      all = 0;
    const mode = new Map();
    for (const [key, row] of counts) {
      top += Math.max(...row);
      all += row.reduce((x, y) => x + y, 0);
      mode.set(key, row.indexOf(Math.max(...row)));
    }
    return { share: top / all, mode };
  };
  const ta = table(sa),
    tc = table(sc);
  assert.ok(Math.abs(ta.share - (0.75 + 1 / 64)) < 0.03, `most frequent next token: ${ta.share}`);
  let same = 0;
  for (const [key, m] of ta.mode) same += tc.mode.get(key) === m;
  assert.ok(same < 64, `another seed draws another table (${same} of 256 contexts agree)`);
  const ev = simd.evaluate(a, { lengths: [32], count: 64 });
  assert.ok(Math.abs(ev.oracle[0] - (0.75 + 1 / 64)) < 0.03, `oracle ${ev.oracle[0]}`);
  throwsCode(() => simd.train({ task: 'ngram', k: 4 }), Status.E_SIZE, /k/);
});

test('seeds: each method reproduces bit for bit from its seed, evaluation included', { timeout: 300_000 }, () => {
  for (const method of METHODS) {
    const opts = { method, task: 'ngram', steps: 6, seed: 2, length: 16, dim: 16, batch: 4 };
    const a = simd.train(opts),
      b = simd.train(opts);
    assert.deepEqual(new Uint8Array(a.model.params.buffer), new Uint8Array(b.model.params.buffer), method);
    assert.deepEqual(a.losses, b.losses);
    const lengths = method === 'learned' ? [16] : [16, 64];
    assert.deepEqual(
      simd.evaluate(a.model, { lengths, count: 4 }),
      scalar.evaluate(b.model, { lengths, count: 4 }),
      method,
    );
  }
});

test('evaluation: learned is not defined past its table, the others evaluate at 8x', { timeout: 300_000 }, () => {
  const lengths = [32, 64, 128, 256];
  for (const method of METHODS) {
    const model = models[method] ?? simd.train({ method, steps: 20 }).model;
    const ev = simd.evaluate(model, { lengths, count: 16 });
    assert.deepEqual(ev.lengths, lengths);
    if (method === 'learned') {
      assert.ok(ev.accuracy[0] > 0.9, `learned in-distribution accuracy ${ev.accuracy[0]}`);
      assert.deepEqual(ev.accuracy.slice(1), [null, null, null]);
      assert.deepEqual(ev.loss.slice(1), [null, null, null]);
      throwsCode(() => simd.evaluate(model, { lengths, strict: true }), Status.E_RANGE, /lengths\[1\].*at most 32/);
      throwsCode(() => simd.attentionMap(model, { length: 33 }), Status.E_RANGE, /length/);
    } else {
      for (const a of ev.accuracy) assert.ok(a >= 0 && a <= 1, `${method}: accuracy ${a}`);
    }
  }
  // the solved methods are near perfect at the training length
  for (const m of ['sinusoidal', 'rope']) {
    if (models[m]) assert.ok(simd.evaluate(models[m], { lengths: [32], count: 16 }).accuracy[0] > 0.95, m);
  }
});

test('RoPE scaling at evaluation: factor 1 is the trained model, longer lengths run', () => {
  const model = models.rope ?? simd.train({ method: 'rope', steps: 40 }).model;
  const plain = simd.evaluate(model, { lengths: [32, 128], count: 8 });
  for (const scaling of ['linear', 'ntk', 'yarn']) {
    const ev = simd.evaluate(model, { lengths: [32, 128], count: 8, scaling });
    assert.equal(ev.scaling, scaling);
    if (scaling !== 'yarn') assert.equal(ev.accuracy[0], plain.accuracy[0], `${scaling} with factor 1`);
    assert.ok(ev.accuracy[1] >= 0 && ev.accuracy[1] <= 1);
  }
  const fixed = simd.evaluate(model, { lengths: [128], count: 8, scaling: 'linear', factor: 4 });
  const auto = simd.evaluate(model, { lengths: [128], count: 8, scaling: 'linear' });
  assert.equal(fixed.accuracy[0], auto.accuracy[0]);
});

test('attention map: rows are causal distributions', () => {
  const model = models.alibi ?? simd.train({ method: 'alibi', steps: 10 }).model;
  const { weights, tokens, heads, length } = simd.attentionMap(model, { length: 100, layer: 1 });
  assert.equal(weights.length, heads * length * length);
  assert.equal(tokens.length, 100);
  for (let h = 0; h < heads; h++) {
    for (let i = 0; i < length; i++) {
      let s = 0;
      for (let j = 0; j < length; j++) {
        const w = weights[(h * length + i) * length + j];
        if (j > i) assert.equal(w, 0);
        s += w;
      }
      assert.ok(Math.abs(s - 1) < 1e-5, `row ${i} sums to ${s}`);
    }
  }
});

function fnv64(f32) {
  const bytes = new Uint8Array(f32.buffer, f32.byteOffset, f32.byteLength);
  let h = 0xcbf29ce484222325n;
  for (const b of bytes) h = BigInt.asUintN(64, (h ^ BigInt(b)) * 0x100000001b3n);
  return h.toString(16).padStart(16, '0');
}

// The configuration tests/native/test_train.c uses for --dump.
const DUMP = {
  length: 16,
  dim: 16,
  heads: 2,
  layers: 2,
  hidden: 32,
  batch: 4,
  k: 3,
  lr: 3e-3,
  weightDecay: 0.01,
  clip: 1,
  beta1: 0.9,
  beta2: 0.99,
  eps: 1e-8,
};
const CASES = [
  ['rope', 'copy'],
  ['t5', 'copy'],
  ['learned', 'periodic'],
  ['sinusoidal', 'first'],
  ['alibi', 'periodic'],
  ['none', 'copy'],
  ['alibi', 'ngram'],
];

test('a scalar instance without { wasm } is told the package ships the SIMD lab only', async () => {
  const pe = await init({ simd: false });
  await assert.rejects(
    pe.loadLab(),
    (e) =>
      e instanceof PosencError &&
      e.code === Status.E_MISSING &&
      e.argument === 'wasm' &&
      /SIMD build only/.test(e.message),
  );
  assert.equal(pe.labLoaded, false);
});

test('same seed, same bits: SIMD and scalar wasm and a native build agree exactly', { timeout: 300_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'posenc-train-'));
  try {
    const exe = join(dir, 'test_train');
    const sources = C_SOURCES.map((f) => join(ROOT, f));
    // -O2 without sanitizers: a different optimiser than the ASan test build, same bits expected
    execFileSync('clang', [
      '-std=c11',
      '-O2',
      '-ffp-contract=off',
      '-I',
      join(ROOT, 'c_src'),
      ...sources,
      join(ROOT, 'tests/native/test_train.c'),
      '-lm',
      '-o',
      exe,
    ]);
    for (const [method, task] of CASES) {
      const opts = { ...DUMP, method, task, steps: 12, seed: 5 };
      if (task === 'first') delete opts.k;
      const a = simd.train(opts);
      const b = scalar.train(opts);
      assert.equal(simd.backend, 'simd');
      assert.equal(scalar.backend, 'scalar');
      assert.deepEqual(
        new Uint8Array(a.model.params.buffer),
        new Uint8Array(b.model.params.buffer),
        `${method}/${task}: SIMD vs scalar`,
      );
      assert.deepEqual(a.losses, b.losses);
      const m = METHODS.indexOf(method),
        t = ['copy', 'periodic', 'first', 'ngram'].indexOf(task);
      const [hash, loss] = execFileSync(exe, ['--dump', String(m), String(t), '12', '5'])
        .toString()
        .trim()
        .split(' ');
      assert.equal(fnv64(a.model.params), hash, `${method}/${task}: wasm vs native weights`);
      assert.equal(a.losses[11], Math.fround(Number(loss)), `${method}/${task}: last loss`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('seeds: the same seed reproduces, another seed differs', () => {
  const a = simd.train({ method: 'learned', steps: 5, seed: 3 });
  const b = simd.train({ method: 'learned', steps: 5, seed: 3 });
  const c = simd.train({ method: 'learned', steps: 5, seed: 4 });
  assert.deepEqual(a.model.params, b.model.params);
  assert.notDeepEqual(a.model.params, c.model.params);
});

test('progress: called in order with the learned table; returning false stops', () => {
  const seen = [];
  const { model, losses } = simd.train(
    { method: 'learned', steps: 30, progressEvery: 10, length: 16, dim: 16 },
    (p) => {
      seen.push(p.step);
      assert.equal(p.steps, 30);
      assert.equal(p.table.length, 16 * 16);
      assert.deepEqual(p.table, model0Table(p));
      return p.step < 20;
    },
  );
  function model0Table(p) {
    return p.table; // the table is a copy: its values are checked against the final model below
  }
  assert.deepEqual(seen, [10, 20]);
  assert.equal(losses.length, 20);
  assert.equal(model.stepsDone, 20);
  assert.deepEqual(simd.positionTable(model), model.params.subarray(0, 256));
  const none = [];
  simd.train({ method: 'rope', steps: 4, progressEvery: 2 }, (p) => none.push(p.table));
  assert.deepEqual(none, [null, null]);
});

test('saveModel / loadModel: JSON round trip is exact', () => {
  const { model } = simd.train({ method: 't5', task: 'periodic', steps: 10 });
  const text = simd.saveModel(model);
  const json = JSON.parse(text);
  assert.equal(json.method, 't5');
  const back = scalar.loadModel(text);
  assert.deepEqual(back.params, model.params);
  assert.deepEqual(
    scalar.evaluate(back, { lengths: [32, 64], count: 4 }),
    simd.evaluate(model, { lengths: [32, 64], count: 4 }),
  );
  throwsCode(() => simd.loadModel('{'), Status.E_PARAM, /text/);
  throwsCode(() => simd.loadModel(JSON.stringify({ ...json, params: 'AAA' })), Status.E_PARAM, /params/);
  throwsCode(
    () => simd.loadModel(JSON.stringify({ ...json, params: 'AAAAAAAAAAA=' })),
    Status.E_SCRATCH,
    /model.params/,
  );
  throwsCode(() => simd.evaluate({ ...model, params: model.params.subarray(1) }), Status.E_SCRATCH, /model.params/);
});

// A saved model carries a checksum over its configuration and parameter bytes; loadModel refuses
// a changed file, and parameters larger than the training steps can produce. A hand-made model
// with such parameters makes evaluate and attentionMap throw, never return NaN or numbers from a
// NaN forward pass (the reproduction: weights x 1e10 gave NaN attention and accuracy 0.06).
test('loadModel: checksum and parameter bounds; overflowing models are errors', () => {
  const { model } = simd.train({
    method: 'rope',
    steps: 20,
    length: 16,
    dim: 16,
    heads: 2,
    layers: 1,
    hidden: 16,
    batch: 4,
  });
  const text = simd.saveModel(model);
  const obj = JSON.parse(text);
  assert.match(obj.checksum, /^[0-9a-f]{8}$/);
  assert.deepEqual(simd.loadModel(text).params, model.params);
  const at = text.indexOf('"params":"') + 10 + 200;
  const flipped = text.slice(0, at) + (text[at] === 'A' ? 'B' : 'A') + text.slice(at + 1);
  throwsCode(() => simd.loadModel(flipped), Status.E_PARAM, /checksum/);
  for (const edit of [
    { method: 'alibi' },
    { heads: 4 },
    { task: 'periodic', k: 3 },
    { stepsDone: 19 },
    { checksum: undefined },
  ]) {
    throwsCode(() => simd.loadModel(JSON.stringify({ ...obj, ...edit })), Status.E_PARAM, /checksum/);
  }
  const big = { ...model, params: model.params.map((x) => x * 1e10) };
  throwsCode(() => simd.loadModel(simd.saveModel(big)), Status.E_RANGE, /params\[\d+\].*training steps/);
  throwsCode(() => simd.evaluate(big, { lengths: [16], count: 4 }), Status.E_PARAM, /model.params.*finite/);
  throwsCode(() => simd.attentionMap(big, { length: 16 }), Status.E_PARAM, /model.params.*finite/);
  // the bound is not tight enough to refuse what training does produce: a long run reloads
  const long = simd.train({
    method: 'alibi',
    steps: 200,
    length: 16,
    dim: 16,
    heads: 2,
    layers: 1,
    hidden: 16,
    batch: 4,
    lr: 0.05,
  }).model;
  assert.deepEqual(simd.loadModel(simd.saveModel(long)).params, long.params);
});

test('bad options give PosencErrors naming the argument', () => {
  throwsCode(() => simd.train({ task: 'sort' }), Status.E_ENUM, /task/);
  throwsCode(() => simd.train({ method: 'xpos' }), Status.E_ENUM, /method/);
  throwsCode(() => simd.train({ length: 4 }), Status.E_SIZE, /length/);
  throwsCode(() => simd.train({ length: 32.5 }), Status.E_PARAM, /length/);
  throwsCode(() => simd.train({ steps: 0 }), Status.E_SIZE, /steps/);
  throwsCode(() => simd.train({ heads: 3 }), Status.E_ODD, /heads/);
  throwsCode(() => simd.train({ dim: 12, heads: 4 }), Status.E_ODD, /heads/);
  throwsCode(() => simd.train({ k: 32 }), Status.E_SIZE, /k must be/);
  throwsCode(() => simd.labSequences(simd.train({ steps: 1 }).model, { length: 2000 }), Status.E_SIZE, /length/);
  throwsCode(() => simd.train({ task: 'first', k: 2 }), Status.E_PARAM, /k/);
  throwsCode(() => simd.train({ lr: 0 }), Status.E_PARAM, /lr/);
  throwsCode(() => simd.train({ lr: NaN }), Status.E_PARAM, /lr/);
  throwsCode(() => simd.train({ beta2: 1 }), Status.E_PARAM, /beta2/);
  throwsCode(() => simd.train({ stepz: 3 }), Status.E_PARAM, /unknown option "stepz"/);
  throwsCode(() => simd.train({ steps: 2 }, 'progress'), Status.E_PARAM, /onProgress/);
  throwsCode(() => simd.train(null), Status.E_PARAM, /options/);
  const { model } = simd.train({ method: 'sinusoidal', steps: 2 });
  throwsCode(() => simd.evaluate({}, {}), Status.E_PARAM, /model/);
  throwsCode(() => simd.evaluate(model, { lengths: [] }), Status.E_PARAM, /lengths/);
  throwsCode(() => simd.evaluate(model, { lengths: [4096] }), Status.E_SIZE, /lengths\[0\]/);
  throwsCode(() => simd.evaluate(model, { lengths: [1] }), Status.E_SIZE, /lengths\[0\]/);
  throwsCode(() => simd.evaluate(model, { scaling: 'ntk' }), Status.E_PARAM, /scaling.*rope/);
  throwsCode(() => simd.evaluate(model, { scaling: 'longrope' }), Status.E_ENUM, /scaling/);
  throwsCode(() => simd.evaluate(model, { count: 0 }), Status.E_SIZE, /count/);
  throwsCode(() => simd.evaluate({ ...model, method: 'nope' }), Status.E_ENUM, /method/);
  throwsCode(() => simd.evaluate({ ...model, params: [1, 2] }), Status.E_PARAM, /model.params/);
  throwsCode(() => simd.attentionMap(model, { layer: 2 }), Status.E_SIZE, /layer/);
  throwsCode(() => simd.positionTable(model), Status.E_PARAM, /learned/);
});

test('no heap leak across train and evaluate', () => {
  const before = simd.heapInUse;
  for (let i = 0; i < 3; i++) {
    const { model } = simd.train({ method: 'rope', steps: 2 });
    simd.evaluate(model, { lengths: [32, 256], count: 2 });
    simd.attentionMap(model, { length: 64 });
    try {
      simd.train({ heads: 3 });
    } catch {
      // expected
    }
  }
  assert.equal(simd.heapInUse, before);
});

test('the lab is its own wasm module: before loadLab() the trainer says how to load it; the core has no trainer', async () => {
  const pe = await init();
  assert.equal(pe.labLoaded, false);
  for (const call of [
    () => pe.train({ steps: 1 }),
    () => pe.evaluate({}),
    () => pe.attentionMap({}),
    () => pe.loadModel('{}'),
  ]) {
    assert.throws(call, (e) => e instanceof PosencError && e.code === Status.E_MISSING && /loadLab/.test(e.message));
  }
  const again = pe.loadLab();
  assert.equal(pe.loadLab(), again, 'one load, however often it is asked for');
  assert.equal(await again, pe);
  assert.equal(pe.labLoaded, true);
  const { model } = pe.train({ steps: 2, seed: 3 });
  assert.equal(model.stepsDone, 2);
  const { readFileSync } = await import('node:fs');
  const core = new WebAssembly.Module(readFileSync(new URL('../../dist/posenc.simd.wasm', import.meta.url)));
  assert.ok(!WebAssembly.Module.exports(core).some((e) => /train/.test(e.name)), 'the core wasm exports no trainer');
  await assert.rejects(
    (await init()).loadLab({ wasm: new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]) }),
    (e) => e instanceof PosencError && /loadLab/.test(e.message),
  );
});
