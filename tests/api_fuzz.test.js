// Robustness net over the whole public API: every function, fed random option objects built
// from its own allowed keys and a pool of valid and invalid values, must either return or
// throw a PosencError - never another exception, a NaN in a float result, or a heap leak.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { init, PosencBuffer, PosencError } from '../js/index.js';
import { rng } from './helpers.js';

const SKIP = new Set(['alloc']);

function allowedKeys(pe, name) {
  // every function rejects an unknown option and lists the allowed ones in the message
  for (const args of [[{ zzzUnknown: 1 }], [new Float32Array(4), { zzzUnknown: 1 }], [new Float32Array(4), new Float32Array(4), { zzzUnknown: 1 }]]) {
    try {
      pe[name](...args);
    } catch (e) {
      const m = /allowed: ([^)]*)\)/.exec(e.message);
      if (m) return { keys: m[1].split(', '), arity: args.length - 1 };
    }
  }
  return { keys: [], arity: 0 };
}

test('every API function returns or throws PosencError on random input, without leaking', () => {
  return (async () => {
    const pe = await init();
    const r = rng(12345);
    const pick = (a) => a[Math.floor(((r() + 1) / 2) * a.length) % a.length];
    const f32 = (n) => Float32Array.from({ length: n }, () => r());
    const scalars = [0, -1, 1, 2, 3, 4, 7, 8, 16, 33, 64, 1.5, -0.5, NaN, Infinity, -Infinity, 2 ** 31, 1e12, 10000, 0.02];
    const others = [undefined, null, true, false, 'x', 'half', 'interleaved', 'split', 'relative', 'error', 'clamp', [], [1, 2], {}, () => 1];
    const value = () => {
      const k = r();
      if (k < 0.55) return pick(scalars);
      if (k < 0.75) return f32(pick([0, 1, 3, 4, 8, 16, 64, 256]));
      if (k < 0.8) return Int32Array.from({ length: pick([1, 4, 16]) }, () => Math.floor(r() * 8));
      if (k < 0.85) return { type: pick(['none', 'rope', 'alibi', 't5', 'xl', 'shaw', 'linear', 'yarn', 'llama3', 'dynamic', 'longrope', 'bogus']), factor: pick(scalars) };
      return pick(others);
    };
    const names = Object.keys(pe).filter((k) => typeof pe[k] === 'function' && !SKIP.has(k));
    assert.ok(names.length >= 20, `found ${names.length} functions`);
    const before = pe.heapInUse;
    let calls = 0;
    let returned = 0;
    for (const name of names) {
      const { keys, arity } = allowedKeys(pe, name);
      for (let t = 0; t < 150; t++) {
        const opts = {};
        for (const k of keys) if (r() < 0.6) opts[k] = value();
        const lead = Array.from({ length: arity }, () => (r() < 0.8 ? f32(pick([1, 4, 8, 16, 64, 256])) : value()));
        const args = r() < 0.05 ? [value()] : [...lead, opts];
        calls++;
        try {
          const out = pe[name](...args);
          returned++;
          for (const v of [out, ...(out && typeof out === 'object' && !ArrayBuffer.isView(out) ? Object.values(out) : [])]) {
            if (v instanceof Float32Array || v instanceof Float64Array) {
              assert.ok(!v.some(Number.isNaN), `${name} returned NaN for ${JSON.stringify(opts, (k, x) => (ArrayBuffer.isView(x) ? `${x.constructor.name}(${x.length})` : x))}`);
            }
            if (v instanceof PosencBuffer) v.free?.();
          }
        } catch (e) {
          if (e instanceof assert.AssertionError) throw e;
          assert.ok(e instanceof PosencError, `${name} threw ${e?.name}: ${e?.message}\nargs: ${JSON.stringify(args, (k, x) => (ArrayBuffer.isView(x) ? `${x.constructor.name}(${x.length})` : typeof x === 'function' ? 'fn' : x))}`);
        }
      }
    }
    assert.ok(returned > 0, 'some random calls should succeed');
    assert.equal(pe.heapInUse, before, `heap leaked over ${calls} calls`);
  })();
});
