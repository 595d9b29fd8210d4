// Robustness net over the whole public API: every function, fed random option objects built
// from its own allowed keys and a pool of valid and invalid values, must either return or
// throw a PosencError - never another exception, a NaN in a float result, or a heap leak.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ENCODINGS } from '../js/encodings.js';
import { init, PosencBuffer, PosencError } from '../js/index.js';
import { rng } from './helpers.js';

const SKIP = new Set(['alloc']);

function allowedKeys(pe, name) {
  // every function rejects an unknown option and lists the allowed ones in the message
  for (const args of [
    [{ zzzUnknown: 1 }],
    [new Float32Array(4), { zzzUnknown: 1 }],
    [new Float32Array(4), new Float32Array(4), { zzzUnknown: 1 }],
  ]) {
    try {
      pe[name](...args);
    } catch (e) {
      const m = /allowed: ([^)]*)\)/.exec(e.message);
      if (m) return { keys: m[1].split(', '), arity: args.length - 1 };
    }
  }
  return { keys: [], arity: 0 };
}

/** JSON-ish text of arguments that may hold Proxies and throwing getters. */
function describe(args) {
  try {
    return JSON.stringify(args, (k, x) =>
      ArrayBuffer.isView(x) ? `${x.constructor.name}(${x.length})` : typeof x === 'function' ? 'fn' : x,
    );
  } catch {
    return '(arguments with Proxies or throwing getters)';
  }
}

test('every API function returns or throws PosencError on random input, without leaking', () => {
  return (async () => {
    const pe = await init({ lab: true });
    const r = rng(12345);
    const pick = (a) => a[Math.floor(((r() + 1) / 2) * a.length) % a.length];
    const f32 = (n) => Float32Array.from({ length: n }, () => r());
    const scalars = [
      0,
      -1,
      1,
      2,
      3,
      4,
      7,
      8,
      16,
      33,
      64,
      1.5,
      -0.5,
      NaN,
      Infinity,
      -Infinity,
      2 ** 31,
      1e12,
      10000,
      0.02,
    ];
    const others = [
      undefined,
      null,
      true,
      false,
      'x',
      'half',
      'interleaved',
      'split',
      'relative',
      'error',
      'clamp',
      [],
      [1, 2],
      {},
      () => 1,
    ];
    // hostile values: Proxies, revoked Proxies, throwing getters, detached arrays, typed arrays
    // whose own length lies, views of the wasm heap, freed and live heap buffers
    const live = [];
    const hostile = () => {
      const n = pick([1, 4, 16, 64]);
      switch (Math.floor(((r() + 1) / 2) * 10)) {
        case 0:
          return new Proxy(f32(n), {});
        case 1: {
          const { proxy, revoke } = Proxy.revocable({}, {});
          revoke();
          return proxy;
        }
        case 2:
          return {
            get type() {
              throw new Error('getter');
            },
            get length() {
              throw new Error('getter');
            },
          };
        case 3: {
          const a = f32(n);
          structuredClone(a.buffer, { transfer: [a.buffer] });
          return a;
        }
        case 4: {
          const a = f32(n);
          Object.defineProperty(a, 'length', { value: n * 64 });
          return a;
        }
        case 5: {
          const b = pe.alloc(n);
          live.push(b);
          return b.array;
        }
        case 6: {
          const b = pe.alloc(n);
          b.free();
          return b;
        }
        case 7: {
          const b = pe.alloc(n, pick(['float32', 'int32']));
          live.push(b);
          return b;
        }
        case 8:
          return Object.create(null);
        default:
          return new Proxy(
            {},
            {
              get() {
                throw new Error('trap');
              },
              ownKeys() {
                throw new Error('trap');
              },
              getPrototypeOf() {
                throw new Error('trap');
              },
            },
          );
      }
    };
    const value = () => {
      const k = r();
      if (k > 0.93) return hostile();
      if (k < 0.55) return pick(scalars);
      if (k < 0.75) return f32(pick([0, 1, 3, 4, 8, 16, 64, 256]));
      if (k < 0.8) return Int32Array.from({ length: pick([1, 4, 16]) }, () => Math.floor(r() * 8));
      if (k < 0.85)
        return {
          // every encoding of the registry (js/encodings.js), RoPE scaling types and a bogus one
          type: pick([...Object.keys(ENCODINGS), 'linear', 'ntk', 'yarn', 'llama3', 'dynamic', 'longrope', 'bogus']),
          factor: pick(scalars),
        };
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
        let opts = {};
        for (const k of keys) {
          if (r() >= 0.6) continue;
          const v = value();
          // some options arrive through getters (each must run at most once)
          if (r() < 0.15) {
            let reads = 0;
            Object.defineProperty(opts, k, {
              enumerable: true,
              get() {
                if (++reads > 1) throw new assert.AssertionError({ message: `${name}: option ${k} read twice` });
                return v;
              },
            });
          } else {
            opts[k] = v;
          }
        }
        if (r() < 0.03) opts = new Proxy(opts, {});
        const lead = Array.from({ length: arity }, () => (r() < 0.8 ? f32(pick([1, 4, 8, 16, 64, 256])) : value()));
        const args = r() < 0.05 ? [value()] : [...lead, opts];
        calls++;
        try {
          const out = pe[name](...args);
          returned++;
          for (const v of [
            out,
            ...(out && typeof out === 'object' && !ArrayBuffer.isView(out) ? Object.values(out) : []),
          ]) {
            if (v instanceof Float32Array || v instanceof Float64Array) {
              assert.ok(!v.some(Number.isNaN), `${name} returned NaN for ${describe([opts])}`);
            }
            if (v instanceof PosencBuffer) v.free?.();
          }
        } catch (e) {
          if (e instanceof assert.AssertionError) throw e;
          assert.ok(e instanceof PosencError, `${name} threw ${e?.name}: ${e?.message}\nargs: ${describe(args)}`);
        }
      }
    }
    for (const b of live) b.free();
    assert.ok(returned > 0, 'some random calls should succeed');
    // the instance is still healthy
    assert.equal(pe.sinusoidal({ length: 2, dim: 2 })[2], Math.fround(Math.sin(1)));
    assert.equal(pe.heapInUse, before, `heap leaked over ${calls} calls`);
  })();
});
