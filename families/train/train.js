// The extrapolation lab (families/train/train.c): train a tiny causal transformer with one positional
// method, then measure its accuracy at lengths past the training length.
//
//   const { model, losses } = pe.train({ task: 'copy', method: 'rope', seed: 1 }, (p) => { ... });
//   pe.evaluate(model, { lengths: [32, 64, 128, 256] })   // -> { lengths, accuracy, loss }
//
// A model is a plain object (configuration + Float32Array params); saveModel / loadModel turn
// it into JSON and back, bit for bit. Training is synchronous: the page runs it in a worker.
import { PosencError, Status } from '../../js/errors.js';
import { bool, choice, fail, int, list, num, options, show, snapshot, threw, typedArray } from '../../js/validate.js';
import { ropeFamily } from '../rope/rope.js';

export const TASKS = Object.freeze({ copy: 0, periodic: 1, first: 2, ngram: 3 });
export const METHODS = Object.freeze({ none: 0, learned: 1, sinusoidal: 2, rope: 3, alibi: 4, t5: 5 });
const EVAL_SCALINGS = ['none', 'linear', 'ntk', 'yarn'];
const FORMAT = 'posenc-lab-1';
const MAX_EVAL_LENGTH = 1024;

/** The default run: a 2-layer, width-32 model with 4 heads trained for 300 steps at length 32.
 * Four heads give ALiBi slopes 1/4 .. 1/256 (with two, 1/16 and 1/256 are too shallow for it to
 * single out the previous token, and it never learns the default task; families/train/lab.md). */
export const TRAIN_DEFAULTS = Object.freeze({
  task: 'copy',
  method: 'rope',
  length: 32,
  steps: 300,
  seed: 0,
  dim: 32,
  heads: 4,
  layers: 2,
  hidden: 64,
  batch: 16,
  lr: 3e-3,
  weightDecay: 0.01,
  clip: 1,
  beta1: 0.9,
  beta2: 0.99,
  eps: 1e-8,
});
const K_DEFAULT = { copy: 1, periodic: 6, first: 0, ngram: 3 };
// posenc_train_evaluate's result (c_src/posenc.h posenc_train_rkey)
const R = { accuracy: 0, loss: 1, beyond: 2, beyondLoss: 3, scored: 4, beyondScored: 5, oracle: 6, n: 7 };
const CONFIG_KEYS = [
  'task',
  'method',
  'length',
  'steps',
  'seed',
  'dim',
  'heads',
  'layers',
  'hidden',
  'batch',
  'k',
  'lr',
  'weightDecay',
  'clip',
  'beta1',
  'beta2',
  'eps',
];

const I = {
  task: 0,
  method: 1,
  length: 2,
  dim: 3,
  heads: 4,
  layers: 5,
  hidden: 6,
  batch: 7,
  steps: 8,
  seed: 9,
  maxLength: 10,
  k: 11,
  n: 12,
};
const F = { lr: 0, weightDecay: 1, clip: 2, beta1: 3, beta2: 4, eps: 5, n: 6 };

/** A complete, validated configuration (every key present) from user options. */
function parseConfig(fn, o) {
  const d = TRAIN_DEFAULTS;
  const cfg = {};
  choice(fn, 'task', o.task, TASKS, d.task);
  choice(fn, 'method', o.method, METHODS, d.method);
  cfg.task = o.task ?? d.task;
  cfg.method = o.method ?? d.method;
  cfg.length = int(fn, 'length', o.length, { min: 8, max: 512, def: d.length });
  cfg.steps = int(fn, 'steps', o.steps, { min: 1, max: 1e6, def: d.steps });
  cfg.seed = int(fn, 'seed', o.seed, { min: 0, max: 2 ** 31 - 1, def: d.seed });
  cfg.dim = int(fn, 'dim', o.dim, { min: 4, max: 256, def: d.dim });
  cfg.heads = int(fn, 'heads', o.heads, { min: 1, max: 16, def: d.heads });
  if (cfg.dim % cfg.heads || (cfg.dim / cfg.heads) % 2) {
    throw fail(fn, 'heads', Status.E_ODD, `a divisor of dim (${cfg.dim}) leaving an even head width`, cfg.heads);
  }
  cfg.layers = int(fn, 'layers', o.layers, { min: 1, max: 4, def: d.layers });
  cfg.hidden = int(fn, 'hidden', o.hidden, { min: 1, max: 1024, def: d.hidden });
  cfg.batch = int(fn, 'batch', o.batch, { min: 1, max: 256, def: d.batch });
  if (cfg.task === 'copy') {
    cfg.k = int(fn, 'k', o.k, { min: 1, max: cfg.length - 1, def: Math.min(K_DEFAULT.copy, cfg.length - 1) });
  } else if (cfg.task === 'ngram') {
    cfg.k = int(fn, 'k', o.k, { min: 2, max: 3, def: K_DEFAULT.ngram });
  } else if (cfg.task === 'periodic') {
    cfg.k = int(fn, 'k', o.k, {
      min: 2,
      max: Math.min(16, Math.ceil(cfg.length / 2) - 1),
      def: Math.min(K_DEFAULT.periodic, Math.ceil(cfg.length / 2) - 1),
    });
  } else {
    if (o.k !== undefined) throw fail(fn, 'k', Status.E_PARAM, "absent for task 'first' (it has no k)", o.k);
    cfg.k = 0;
  }
  cfg.lr = num(fn, 'lr', o.lr, { gt: 0, max: 1, def: d.lr, f32: true });
  cfg.weightDecay = num(fn, 'weightDecay', o.weightDecay, { min: 0, max: 1, def: d.weightDecay });
  cfg.clip = num(fn, 'clip', o.clip, { gt: 0, max: 1e6, def: d.clip, f32: true });
  cfg.beta1 = num(fn, 'beta1', o.beta1, { min: 0, lt: 1, def: d.beta1, f32: true });
  cfg.beta2 = num(fn, 'beta2', o.beta2, { min: 0, lt: 1, def: d.beta2, f32: true });
  cfg.eps = num(fn, 'eps', o.eps, { gt: 0, max: 1, def: d.eps, f32: true });
  return cfg;
}

// What saveModel writes and loadModel requires (and checksum)
const SAVED_KEYS = ['format', ...CONFIG_KEYS, 'stepsDone', 'params'];
const TA = Object.getPrototypeOf(Float32Array.prototype); // not the caller's own slice

/** A model's configuration and parameters, checked (a reloaded or hand-made model goes through
 * this). The model is read once into a snapshot: nothing of the caller's runs after the checks.
 * saved ('model' | 'file'): only SAVED_KEYS; a file's hold their parsed values. */
function checkModel(fn, model, saved = '') {
  const m = snapshot(fn, model, 'model');
  if (m.format !== FORMAT) {
    throw fail(
      fn,
      'model',
      Status.E_PARAM,
      `a model from posenc.train or posenc.loadModel (format '${FORMAT}')`,
      model,
    );
  }
  const o = {};
  for (const k of CONFIG_KEYS) o[k] = m[k];
  if (o.task === 'first') {
    if (o.k !== undefined && o.k !== 0) throw fail(fn, 'model.k', Status.E_PARAM, "0 or absent for task 'first'", o.k);
    delete o.k;
  }
  const cfg = parseConfig(fn, o);
  if (saved) {
    for (const k of Object.keys(m)) {
      if (!SAVED_KEYS.includes(k))
        throw fail(fn, `model.${k}`, Status.E_PARAM, `absent (a saved model holds ${SAVED_KEYS})`, m[k]);
    }
    for (const k of saved === 'file' ? CONFIG_KEYS : []) {
      if (m[k] !== cfg[k]) {
        throw fail(fn, `model.${k}`, Status.E_PARAM, `${show(cfg[k])} as saved (the text was changed)`, m[k]);
      }
    }
  }
  const ta = typedArray(m.params);
  if (!ta || ta.Type !== Float32Array || ta.detached)
    throw fail(fn, 'model.params', Status.E_PARAM, 'a Float32Array', m.params);
  return { cfg, params: m.params, count: ta.length, snap: m };
}

/** CRC-32 (IEEE) of the configuration, steps done and parameter bytes, as 8 hex digits. */
let crcTable = null;
function checksum(cfg, stepsDone, bytes) {
  if (!crcTable) {
    crcTable = new Int32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c;
    }
  }
  const head = new TextEncoder().encode(JSON.stringify([...CONFIG_KEYS.map((k) => cfg[k]), stepsDone]));
  let c = -1;
  for (const part of [head, bytes])
    for (let i = 0; i < part.length; i++) c = crcTable[(c ^ part[i]) & 0xff] ^ (c >>> 8);
  return ((c ^ -1) >>> 0).toString(16).padStart(8, '0');
}

/** The largest |parameter| `steps` AdamW steps can reach from the initialisation (uniform within
 * sqrt(3) of zero; gains 1): each step moves a parameter by at most lr * |m^| / sqrt(v^), and by
 * Cauchy-Schwarz |m^| / sqrt(v^) <= sqrt(S / (1 - beta2)) with S = sum_{i<steps} q^i,
 * q = beta1^2 / beta2 (the bias corrections only shrink it); weight decay only shrinks. S is the
 * geometric sum itself: below 1 / (1 - q) when q < 1, and growing like q^steps when q > 1
 * (beta1 0.9 with beta2 0.5), where the bound may be Infinity: a true bound, refusing nothing.
 * With a margin of 1.5 for float32 rounding. */
function paramBound(cfg, steps) {
  const q = cfg.beta1 === 0 ? 0 : (cfg.beta1 * cfg.beta1) / cfg.beta2; // beta2 0: Infinity
  const S = q === 1 ? steps : (1 - q ** steps) / (1 - q);
  return 1.5 * (Math.sqrt(3) + cfg.lr * steps * Math.sqrt(S / (1 - cfg.beta2)));
}

/**
 * The lab's functions. Frequencies come from the main core; training runs in the lab's own wasm
 * module (`lab.core`, loaded by pe.loadLab() or init({ lab: true })): the trainer is a third of
 * the core's size and most users never train, so it is not part of the core download.
 */
export function trainFamily(mainCore, lab = null) {
  const rope = ropeFamily(mainCore);
  let core = null; // the lab core of the call in progress (every call is synchronous)
  function labCore(fn) {
    core = lab?.core ?? null;
    if (!core) {
      throw new PosencError(
        Status.E_MISSING,
        `posenc.${fn}: the training lab is not loaded: call \`await pe.loadLab()\` (or init({ lab: true })) first`,
        'lab',
      );
    }
    return core;
  }
  /** Runs body(arena) on a fresh arena for cfg (maxLength: the longest sequence it will see). */
  function withArena(fn, cfg, maxLength, body) {
    return core.run(fn, (s) => {
      const ic = s.alloc(Int32Array, I.n);
      const fc = s.alloc(Float32Array, F.n);
      const iv = new Int32Array(I.n);
      for (const [k, idx] of Object.entries(I))
        if (k !== 'n' && k !== 'maxLength')
          iv[idx] = k === 'task' ? TASKS[cfg.task] : k === 'method' ? METHODS[cfg.method] : cfg[k];
      iv[I.maxLength] = maxLength;
      const fv = new Float32Array(F.n);
      for (const [k, idx] of Object.entries(F)) if (k !== 'n') fv[idx] = cfg[k];
      core.withView(Int32Array, ic, I.n, (v) => {
        v.set(iv);
      });
      core.withView(Float32Array, fc, F.n, (v) => {
        v.set(fv);
      });
      const bytes = s.call('posenc_train_size', ic, fc);
      const arena = s.alloc(Uint8Array, bytes, false);
      s.call('posenc_train_init', arena, bytes, ic, fc);
      const count = s.call('posenc_train_param_count', arena);
      return body(s, arena, count);
    });
  }

  /** A forward pass that is not finite (the frequencies were checked before: the parameters are
   * too large) is posenc_train_evaluate/attention's E_PARAM; it names the parameters. */
  function overflow(fn, model, call) {
    try {
      return call();
    } catch (e) {
      if (e instanceof PosencError && e.code === Status.E_PARAM) {
        throw fail(
          fn,
          'model.params',
          Status.E_PARAM,
          'parameters whose forward pass stays finite (these overflow float32)',
          model.params,
        );
      }
      throw e;
    }
  }

  function loadParams(s, arena, count, params, given) {
    if (given !== count) {
      throw fail(
        s.fn,
        'model.params',
        Status.E_SCRATCH,
        `a Float32Array of ${count} values for this configuration`,
        params,
      );
    }
    const p = s.in('model.params', params, Float32Array, count, { finite: 'all' });
    s.call('posenc_train_params', arena, p, count, 1);
  }

  /** RoPE frequencies for an evaluation at `length`: null (as trained) or { inv, scale }. */
  function evalFrequencies(cfg, scaling, factor, length) {
    if (scaling === 'none') return null;
    const f = factor ?? Math.max(1, length / cfg.length);
    const s = { type: scaling, factor: f };
    if (scaling === 'yarn') s.originalMaxPositions = cfg.length;
    const r = rope.ropeFrequencies({ dim: cfg.dim / cfg.heads, base: 10000, scaling: s });
    return { inv: r.invFreq64, scale: r.attentionScale };
  }

  function parseScaling(fn, cfg, o) {
    const scaling = o.scaling ?? 'none';
    if (!EVAL_SCALINGS.includes(scaling)) {
      throw fail(fn, 'scaling', Status.E_ENUM, `one of ${EVAL_SCALINGS.map((x) => `'${x}'`).join(', ')}`, scaling);
    }
    if (scaling !== 'none' && cfg.method !== 'rope') {
      throw fail(
        fn,
        'scaling',
        Status.E_PARAM,
        `'none' for a ${cfg.method} model (RoPE scaling needs method 'rope')`,
        scaling,
      );
    }
    const factor = o.factor === undefined ? undefined : num(fn, 'factor', o.factor, { min: 1, max: 1024 });
    if (factor !== undefined && scaling === 'none')
      throw fail(fn, 'factor', Status.E_PARAM, "absent when scaling is 'none'", factor);
    return { scaling, factor };
  }

  const api = {
    /**
     * Train one model. onProgress({ step, steps, loss, losses, table }) is called every
     * `progressEvery` steps (table: the learned position table [length][dim] for method
     * 'learned', else null); returning false from it stops training early.
     */
    train(opts, onProgress) {
      const fn = 'train';
      labCore(fn);
      const o = options(fn, opts, [...CONFIG_KEYS, 'progressEvery']);
      const cfg = parseConfig(fn, o);
      const every = int(fn, 'progressEvery', o.progressEvery, {
        min: 1,
        max: 1e6,
        def: Math.max(1, Math.ceil(cfg.steps / 50)),
      });
      if (onProgress !== undefined && typeof onProgress !== 'function') {
        throw fail(fn, 'onProgress', Status.E_PARAM, 'a function or undefined', onProgress);
      }
      return withArena(fn, cfg, cfg.length, (s, arena, count) => {
        const losses = new Float32Array(cfg.steps);
        const lossBuf = s.alloc(Float32Array, every);
        const paramBuf = s.alloc(Float32Array, count);
        const tableLen = cfg.method === 'learned' ? cfg.length * cfg.dim : 0;
        let done = 0;
        while (done < cfg.steps) {
          const n = Math.min(every, cfg.steps - done);
          s.call('posenc_train_step', arena, n, lossBuf);
          losses.set(core.read(Float32Array, lossBuf, n), done);
          done += n;
          if (onProgress) {
            let table = null;
            if (tableLen) {
              s.call('posenc_train_params', arena, paramBuf, count, 0);
              table = core.read(Float32Array, paramBuf, tableLen); // the table comes first
            }
            let more;
            try {
              more = onProgress({
                step: done,
                steps: cfg.steps,
                loss: losses[done - 1],
                losses: losses.subarray(0, done),
                table,
              });
            } catch (e) {
              throw threw(fn, 'onProgress', e, 'onProgress');
            }
            if (more === false) break;
          }
        }
        s.call('posenc_train_params', arena, paramBuf, count, 0);
        const params = core.read(Float32Array, paramBuf, count);
        const model = { format: FORMAT, ...cfg, stepsDone: done, params };
        return { model, losses: losses.slice(0, done) };
      });
    },

    /**
     * Accuracy (and mean loss) on `count` fresh sequences at each length. A learned model past
     * its table gives null there (not defined; never clamped), or throws with strict: true.
     * scaling ('none' | 'linear' | 'ntk' | 'yarn', RoPE models only) rescales the frequencies
     * at evaluation, by `factor` or by length / training length.
     */
    evaluate(model, opts) {
      const fn = 'evaluate';
      labCore(fn);
      const { cfg, params, count: given } = checkModel(fn, model);
      const o = options(fn, opts, ['lengths', 'count', 'seed', 'scaling', 'factor', 'strict']);
      const lengths = list(fn, 'lengths', o.lengths) ?? [1, 2, 4, 8].map((x) => x * cfg.length);
      if (!Array.isArray(lengths) || lengths.length < 1 || lengths.length > 64) {
        throw fail(fn, 'lengths', Status.E_PARAM, 'an array of 1 to 64 integer lengths', lengths);
      }
      const minLen =
        cfg.task === 'copy' || cfg.task === 'ngram' ? cfg.k + 1 : cfg.task === 'periodic' ? 2 * cfg.k + 1 : 2;
      lengths.forEach((L, i) => int(fn, `lengths[${i}]`, L, { min: minLen, max: MAX_EVAL_LENGTH }));
      const count = int(fn, 'count', o.count, { min: 1, max: 4096, def: 64 });
      const seed = int(fn, 'seed', o.seed, { min: 0, max: 2 ** 31 - 1, def: 1 });
      const strict = bool(fn, 'strict', o.strict, false);
      const { scaling, factor } = parseScaling(fn, cfg, o);
      const defined = (L) => cfg.method !== 'learned' || L <= cfg.length;
      const bad = lengths.findIndex((L) => !defined(L));
      if (strict && bad >= 0) {
        throw fail(
          fn,
          `lengths[${bad}]`,
          Status.E_RANGE,
          `at most ${cfg.length}: a learned position table has ${cfg.length} rows, so longer inputs are not defined`,
          lengths[bad],
        );
      }
      const maxLen = Math.max(cfg.length, ...lengths.filter(defined));
      const freqs = lengths.map((L) => (defined(L) ? evalFrequencies(cfg, scaling, factor, L) : null));
      return withArena(fn, cfg, maxLen, (s, arena, count0) => {
        loadParams(s, arena, count0, params, given);
        const res = s.alloc(Float64Array, R.n);
        const inv = s.alloc(Float64Array, cfg.dim / cfg.heads / 2);
        const out = { accuracy: [], loss: [], beyond: [], beyondLoss: [], oracle: [] };
        lengths.forEach((L, i) => {
          if (!defined(L)) {
            for (const k of Object.keys(out)) out[k].push(null);
            return;
          }
          if (freqs[i])
            core.withView(Float64Array, inv, freqs[i].inv.length, (v) => {
              v.set(freqs[i].inv);
            });
          overflow(fn, model, () =>
            s.call(
              'posenc_train_evaluate',
              arena,
              L,
              count,
              seed,
              freqs[i] ? inv : 0,
              freqs[i] ? freqs[i].scale : 1,
              res,
            ),
          );
          const r = core.read(Float64Array, res, R.n);
          out.accuracy.push(r[R.accuracy]);
          out.loss.push(r[R.loss]);
          // positions at or past the training length only; none at the training length itself
          const some = r[R.beyondScored] > 0;
          out.beyond.push(some ? r[R.beyond] : null);
          out.beyondLoss.push(some ? r[R.beyondLoss] : null);
          out.oracle.push(r[R.oracle]);
        });
        return { lengths: lengths.slice(), ...out, trainLength: cfg.length, scaling };
      });
    },

    /** The evaluation sequences evaluate scores at `length` (the first `count`; seed as in
     * evaluate): tokens and targets, [count][length] each (target -1: not scored). */
    labSequences(model, opts) {
      const fn = 'labSequences';
      labCore(fn);
      const { cfg } = checkModel(fn, model);
      const o = options(fn, opts, ['length', 'count', 'seed']);
      const minLen =
        cfg.task === 'copy' || cfg.task === 'ngram' ? cfg.k + 1 : cfg.task === 'periodic' ? 2 * cfg.k + 1 : 2;
      const max = cfg.method === 'learned' ? cfg.length : MAX_EVAL_LENGTH;
      const length = int(fn, 'length', o.length, { min: minLen, max, def: cfg.length });
      const count = int(fn, 'count', o.count, { min: 1, max: 4096, def: 1 });
      const seed = int(fn, 'seed', o.seed, { min: 0, max: 2 ** 31 - 1, def: 1 });
      return withArena(fn, cfg, Math.max(length, cfg.length), (s, arena) => {
        const t = s.alloc(Int32Array, count * length, false);
        const y = s.alloc(Int32Array, count * length, false);
        s.call('posenc_train_sequences', arena, length, count, seed, t, y);
        return {
          tokens: core.read(Int32Array, t, count * length),
          targets: core.read(Int32Array, y, count * length),
          length,
          count,
        };
      });
    },

    /** Attention weights [heads][length][length] of `layer` on one evaluation input, and its tokens. */
    attentionMap(model, opts) {
      const fn = 'attentionMap';
      labCore(fn);
      const { cfg, params, count: given } = checkModel(fn, model);
      const o = options(fn, opts, ['length', 'layer', 'seed', 'scaling', 'factor']);
      const length = int(fn, 'length', o.length, {
        min: cfg.task === 'periodic' ? 2 * cfg.k + 1 : cfg.k + 1,
        max: 512,
        def: cfg.length,
      });
      if (cfg.method === 'learned' && length > cfg.length) {
        throw fail(
          fn,
          'length',
          Status.E_RANGE,
          `at most ${cfg.length} (the learned table's rows; longer inputs are not defined)`,
          length,
        );
      }
      const layer = int(fn, 'layer', o.layer, { min: 0, max: cfg.layers - 1, def: 0 });
      const seed = int(fn, 'seed', o.seed, { min: 0, max: 2 ** 31 - 1, def: 1 });
      const { scaling, factor } = parseScaling(fn, cfg, o);
      const fr = evalFrequencies(cfg, scaling, factor, length);
      return withArena(fn, cfg, Math.max(length, cfg.length), (s, arena, count) => {
        loadParams(s, arena, count, params, given);
        const inv = s.alloc(Float64Array, cfg.dim / cfg.heads / 2);
        if (fr)
          core.withView(Float64Array, inv, fr.inv.length, (v) => {
            v.set(fr.inv);
          });
        const w = s.alloc(Float32Array, cfg.heads * length * length, false);
        const t = s.alloc(Int32Array, length, false);
        overflow(fn, model, () =>
          s.call('posenc_train_attention', arena, length, layer, seed, fr ? inv : 0, fr ? fr.scale : 1, w, t),
        );
        return {
          weights: core.read(Float32Array, w, cfg.heads * length * length),
          tokens: core.read(Int32Array, t, length),
          heads: cfg.heads,
          length,
        };
      });
    },

    /** The learned position table [length][dim] of a 'learned' model (a view of its params). */
    positionTable(model) {
      const { cfg, params } = checkModel('positionTable', model);
      if (cfg.method !== 'learned')
        throw fail('positionTable', 'model.method', Status.E_PARAM, "'learned' (only it has a table)", cfg.method);
      return TA.subarray.call(params, 0, cfg.length * cfg.dim);
    },

    /** JSON text of a model; params travel as base64 float32 bytes, so reloading is exact, with a
     * checksum over the configuration and the bytes that loadModel verifies. */
    saveModel(model) {
      const fn = 'saveModel';
      const { cfg, params, snap } = checkModel(fn, model, 'model');
      const stepsDone = int(fn, 'model.stepsDone', snap.stepsDone, { min: 1, max: cfg.steps });
      const bytes = new Uint8Array(TA.slice.call(params).buffer);
      let bin = '';
      for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
      const sum = checksum(cfg, stepsDone, bytes);
      return JSON.stringify({ format: FORMAT, ...cfg, stepsDone, params: btoa(bin), checksum: sum });
    },

    /** A model from saveModel's text (or its parsed object). */
    loadModel(text) {
      const fn = 'loadModel';
      labCore(fn);
      // a parsed object is read once through a snapshot: a Proxy or a throwing getter becomes a
      // PosencError, and no caller code runs after the checks
      let obj = typeof text === 'string' ? text : snapshot(fn, text, 'text');
      if (typeof text === 'string') {
        try {
          obj = JSON.parse(text);
        } catch {
          throw fail(fn, 'text', Status.E_PARAM, 'JSON text from posenc.saveModel', text.slice(0, 20));
        }
      }
      if (obj === null || typeof obj !== 'object' || typeof obj.params !== 'string') {
        throw fail(fn, 'text', Status.E_PARAM, 'JSON from posenc.saveModel (params as base64)', obj);
      }
      let bin;
      try {
        bin = atob(obj.params);
      } catch {
        throw fail(fn, 'params', Status.E_PARAM, 'base64 text', obj.params.slice(0, 20));
      }
      if (bin.length % 4) throw fail(fn, 'params', Status.E_PARAM, 'a whole number of float32 values', bin.length);
      const bytes = new Uint8Array(bin.length);
      for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
      const model = { ...obj, params: new Float32Array(bytes.buffer) };
      delete model.checksum;
      const { cfg } = checkModel(fn, model, 'file');
      const count = withArena(fn, cfg, cfg.length, (s, arena, n) => n);
      if (model.params.length !== count) {
        throw fail(
          fn,
          'model.params',
          Status.E_SCRATCH,
          `${count} float32 values for this configuration`,
          model.params,
        );
      }
      const stepsDone = int(fn, 'stepsDone', obj.stepsDone, { min: 1, max: cfg.steps });
      if (obj.checksum !== checksum(cfg, stepsDone, bytes)) {
        throw fail(
          fn,
          'checksum',
          Status.E_PARAM,
          'the checksum saveModel wrote for this configuration and these parameters (the text was changed or damaged)',
          obj.checksum,
        );
      }
      const bound = paramBound(cfg, stepsDone);
      for (let i = 0; i < model.params.length; i++) {
        const v = model.params[i];
        if (!Number.isFinite(v)) throw fail(fn, `params[${i}]`, Status.E_PARAM, 'finite', v);
        if (Math.abs(v) > bound) {
          throw fail(
            fn,
            `params[${i}]`,
            Status.E_RANGE,
            `at most ${bound.toPrecision(3)} in magnitude (more than ${stepsDone} training steps can produce)`,
            v,
          );
        }
      }
      return model;
    },
  };
  return api;
}
trainFamily.core = 'encodings'; // the smallest core with its C entry points (js/lite.js)

export { PosencError };
