// A mutation soak of fromConfig over the real config.json fixtures, against Python's semantics:
// a switch key set to a Python-falsy or -truthy value gives what the canonical False / True gives
// (HF tests switches with `if config.x:`), a size set to a value no config class could compute
// with is refused naming the key or gives a result every consumer accepts; and hostile objects
// (Proxies, throwing getters, prototype keys, cycles, huge strings) are refused by name.
// Deterministic: fixed value lists and a seeded generator, no timing.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { load, NAMES } from '../../tests/config_fixtures.js';
import { backends, rng } from '../../tests/helpers.js';

// The switches some mapped type's HF code tests with `if`: GPT-2 / GPTBigCode / Falcon / Qwen /
// DeepSeek-V3 / Llama 4 / DistilBERT / Whisper-BART / remote-code rows
const SWITCHES = [
  'use_sliding_window',
  'multi_query',
  'new_decoder_architecture',
  'alibi',
  'scale_attn_weights',
  'scale_attn_by_inverse_layer_idx',
  'rope_interleave',
  'attn_temperature_tuning',
  'sinusoidal_pos_embds',
  'scale_embedding',
  'use_logn_attn',
  'use_dynamic_ntk',
  'multi_query_attention',
  'rope_traditional',
  'use_bidirectional_attention',
];
// [value, Python's bool(value)]
const SWITCH_VALUES = [
  [0, false],
  [1, true],
  ['', false],
  [null, false],
  [[], false],
  [{}, false],
  ['false', true], // a non-empty str is true in Python, whatever it says
  [[0], true],
  [{ a: 0 }, true],
  [0.5, true],
];

// Sizes and bases; every value below is one no config class computes a working model from
const SIZES = [
  'hidden_size',
  'num_attention_heads',
  'num_key_value_heads',
  'head_dim',
  'num_hidden_layers',
  'rope_theta',
  'partial_rotary_factor',
  'rotary_pct',
  'rotary_dim',
  'sliding_window',
  'max_position_embeddings',
  'n_head',
  'n_embd',
  'd_model',
  'd_kv',
  'num_heads',
  'query_pre_attn_scalar',
  'attention_multiplier',
  'qk_rope_head_dim',
  'qk_nope_head_dim',
  'v_head_dim',
  'rope_local_base_freq',
  'sliding_window_pattern',
  'attention_chunk_size',
  'relative_attention_num_buckets',
  'relative_attention_max_distance',
  'n_positions',
  'kv_channels',
  'multi_query_group_num',
];
const SIZE_VALUES = [NaN, Infinity, -Infinity, -1, -64, 0.5, 63.5, 1e300, 1e-300, 2 ** 53, -0, 7];
const SCALING_KEYS = ['factor', 'original_max_position_embeddings', 'low_freq_factor', 'high_freq_factor', 'beta_fast'];

/** The wrapped text model's object when the fixture has one (the keys its rows read), else the config. */
const target = (c) => (c.text_config && typeof c.text_config === 'object' ? c.text_config : c);

/** Everything of a result but its notes and source, functions by their formula. */
function digest(s) {
  const { notes, source, defaults, ...rest } = s;
  return JSON.stringify(rest, (_, v) => (typeof v === 'function' ? `fn:${v.formula ?? v}` : v));
}

function outcome(pe, cfg, layer) {
  try {
    return { s: pe.fromConfig(cfg, { layer }) };
  } catch (e) {
    assert.equal(e.name, 'PosencError', `not a PosencError: ${e.stack}`);
    return { e };
  }
}

/** The layers worth asking for: 0, and 1 where it is of another kind (the alternating patterns). */
function layersOf(pe, cfg) {
  const kind = (l) => {
    const s = outcome(pe, cfg, l).s;
    return s && JSON.stringify([s.layerType, s.family, s.attention?.window, s.rope?.base]);
  };
  const s = outcome(pe, cfg, 0).s;
  return (s?.layers ?? 1) > 1 && kind(1) !== kind(0) ? [0, 1] : [0];
}

/** Every consumer takes the result as is: ropeCache, applyRope, attention, kvCache. */
function consume(pe, s, what) {
  const T = 2;
  const positions = s.rope?.mropeSections ? Int32Array.from([0, 1, 0, 1, 0, 1]) : undefined;
  const pos = positions ? { positions } : { offset: 3 };
  if (s.rope) {
    const c = pe.ropeCache({ length: T, ...s.rope, ...pos });
    assert.ok(c.cos.every(Number.isFinite), `${what}: ropeCache finite`);
    const x = new Float32Array(T * s.attention.heads * s.rope.dim).fill(0.25);
    const y = pe.applyRope(x, { length: T, heads: s.attention.heads, ...s.rope, ...pos });
    assert.ok(y.every(Number.isFinite), `${what}: applyRope finite`);
  }
  if (!s.attention) return;
  const { heads, kvHeads, dim } = s.attention;
  const dimV = s.attention.dimV ?? dim;
  const q = new Float32Array(T * heads * dim).fill(0.125);
  const k = new Float32Array(T * kvHeads * dim).fill(0.125);
  const v = new Float32Array(T * kvHeads * dimV).fill(0.5);
  const out = pe.attention({ q, k, v, queries: T, keys: T, causal: true, ...s.attention }).output;
  assert.ok(out.every(Number.isFinite), `${what}: attention finite`);
  if (s.encoding?.type === 't5' || s.encoding === 't5') return; // the cache needs the model's bucket weights
  const cache = pe.kvCache({ ...s.attention, capacity: 4, encoding: s.encoding });
  try {
    cache.append(k, v, positions ? { positions } : undefined);
    const o = cache.attend(q, positions ? { positions } : undefined).output;
    assert.ok(o.every(Number.isFinite), `${what}: kvCache finite`);
  } finally {
    cache.free();
  }
}

test('soak: a switch set to any Python-falsy or -truthy value gives what False or True gives', async () => {
  const [{ pe }] = await backends();
  let compared = 0;
  for (const name of NAMES) {
    const base = load(name);
    const layers = layersOf(pe, base);
    for (const key of SWITCHES) {
      // the canonical False and True, per layer
      const wants = [false, true].map((py) => {
        const canonical = structuredClone(base);
        target(canonical)[key] = py;
        return layers.map((layer) => {
          const o = outcome(pe, canonical, layer);
          return o.e ? o : { s: digest(o.s) };
        });
      });
      for (const [value, py] of SWITCH_VALUES) {
        const mutated = structuredClone(base);
        target(mutated)[key] = structuredClone(value);
        for (const [i, layer] of layers.entries()) {
          const got = outcome(pe, mutated, layer);
          const want = wants[Number(py)][i];
          const what = `${name} ${key} = ${JSON.stringify(value)} layer ${layer}`;
          if (want.e || got.e) {
            assert.equal(got.e?.message, want.e?.message, `${what}: refused alike`);
            continue;
          }
          assert.equal(digest(got.s), want.s, `${what}: as ${py ? 'True' : 'False'}`);
          compared++;
        }
      }
    }
  }
  assert.ok(compared > 5000, `${compared} comparisons`);
});

/** The config keys a refusal may name for a mutation of `key` (its path; the wrapper's prefix). */
function namesKey(e, key) {
  return e.message.includes(key) || String(e.argument ?? '').includes(key);
}

test('soak: a size or base no config class computes with is refused naming it, or every consumer takes the result', async () => {
  const [{ pe }] = await backends();
  let refused = 0;
  let taken = 0;
  const consumed = new Set();
  for (const name of NAMES) {
    const base = load(name);
    const t = target(base);
    for (const key of SIZES) {
      // mutate the keys the fixture has, and a few it omits (where the class default would apply)
      if (!Object.hasOwn(t, key) && !['num_key_value_heads', 'head_dim', 'sliding_window'].includes(key)) continue;
      for (const value of SIZE_VALUES) {
        const c = structuredClone(base);
        target(c)[key] = value;
        for (const layer of [0, 1]) {
          const what = `${name} ${key} = ${value} layer ${layer}`;
          const o = outcome(pe, c, layer);
          if (o.e) {
            // a layer the fixture itself has not (a one-layer model) or refuses (LongT5's encoder)
            if (/layer must be/.test(o.e.message) || outcome(pe, base, layer).e?.message === o.e.message) continue;
            assert.ok(namesKey(o.e, key), `${what}: the refusal names ${key}: ${o.e.message}`);
            refused++;
            continue;
          }
          const d = digest(o.s);
          if (!consumed.has(d)) consume(pe, o.s, what); // each distinct result once
          consumed.add(d);
          taken++;
        }
      }
    }
  }
  assert.ok(refused > 1000 && taken > 10, `${refused} refused, ${taken} taken`);
});

test('soak: seeded mutations of rope_scaling / rope_parameters keys are refused by name or consumed', async () => {
  const [{ pe }] = await backends();
  const r = rng(41);
  const values = [NaN, Infinity, -Infinity, -1, 0, 0.5, 1, 1e300, 1e-300, 2 ** 53, null, '', [], {}, true];
  let n = 0;
  for (const name of NAMES) {
    const base = load(name);
    const holderKey = ['rope_scaling', 'rope_parameters'].find(
      (k) => target(base)[k] && typeof target(base)[k] === 'object',
    );
    if (!holderKey) continue;
    for (let i = 0; i < 40; i++) {
      const c = structuredClone(base);
      const h = target(c)[holderKey];
      const inner = h.full_attention && typeof h.full_attention === 'object' ? h.full_attention : h;
      const key = SCALING_KEYS[Math.floor(((r() + 1) / 2) * SCALING_KEYS.length)];
      const value = values[Math.floor(((r() + 1) / 2) * values.length)];
      inner[key] = value;
      const what = `${name} ${holderKey}.${key} = ${JSON.stringify(value) ?? value}`;
      const o = outcome(pe, c, 0);
      if (o.e) {
        assert.ok(namesKey(o.e, key) || namesKey(o.e, holderKey), `${what}: ${o.e.message}`);
        continue;
      }
      consume(pe, o.s, what);
      n++;
    }
  }
  assert.ok(n > 20, `${n} consumed`);
});

test('hostile configs: Proxies, throwing getters, prototype keys, cycles, deep nesting and huge strings are refused by name', async () => {
  const [{ pe }] = await backends();
  const L = load('llama-3.1-8b');
  const big = 'x'.repeat(1e6);
  const refuses = (config, key, what, opts) => {
    let err;
    try {
      pe.fromConfig(config, opts);
    } catch (e) {
      err = e;
    }
    assert.equal(err?.name, 'PosencError', `${what}: ${err?.stack ?? 'nothing thrown'}`);
    assert.equal(err.argument, key, `${what}: names ${key}: ${err.message}`);
    assert.ok(err.message.length < 2000, `${what}: the message quotes a bounded part of the input`);
  };
  const getter = (o, k, get) => Object.defineProperty({ ...o }, k, { enumerable: true, get });
  const cycle = { model_type: 'gemma3' };
  cycle.text_config = { model_type: 'gemma3_text', rope_scaling: cycle };
  let deep = { model_type: 'gemma3_text' };
  for (let i = 0; i < 100000; i++) deep = { model_type: 'gemma3', text_config: deep };
  const cases = [
    [
      new Proxy(
        { ...L },
        {
          get: () => {
            throw new Error('trap');
          },
        },
      ),
      'config',
      'a Proxy whose get throws',
    ],
    [
      new Proxy(
        { ...L },
        {
          ownKeys: () => {
            throw new Error('trap');
          },
        },
      ),
      'config',
      'a Proxy whose ownKeys throws',
    ],
    [
      new Proxy({ ...L }, { get: (t, k) => (k === 'num_attention_heads' ? NaN : t[k]) }),
      'num_attention_heads',
      'a Proxy that invents NaN',
    ],
    [
      getter(L, 'hidden_size', () => {
        throw new Error('boom');
      }),
      'config',
      'a getter that throws',
    ],
    [
      getter(L, 'hidden_size', () => {
        throw 42;
      }),
      'config',
      'a getter that throws a non-Error',
    ],
    [
      {
        ...L,
        rope_scaling: getter({}, 'factor', () => {
          throw new RangeError('x');
        }),
      },
      'config',
      'a nested getter that throws',
    ],
    [JSON.parse('{"model_type":"__proto__"}'), 'model_type', 'model_type __proto__'],
    [{ ...L, model_type: 'constructor' }, 'model_type', 'model_type constructor'],
    [{ ...L, model_type: 'toString' }, 'model_type', 'model_type toString'],
    [JSON.parse('{"__proto__":{"model_type":"llama"}}'), 'model_type', 'the model type under __proto__'],
    [Object.create(L), 'model_type', 'inherited keys (JSON has none)'],
    [
      { model_type: 'llava', text_config: { model_type: 'constructor' } },
      'text_config.model_type',
      'text model constructor',
    ],
    [
      JSON.parse('{"model_type":"llava","text_config":{"model_type":"__proto__"}}'),
      'text_config.model_type',
      'text model __proto__',
    ],
    [
      { ...L, rope_scaling: { rope_type: 'constructor', factor: 2 } },
      'rope_scaling.rope_type',
      'rope_type constructor',
    ],
    [{ ...L, rope_scaling: { rope_type: '__proto__', factor: 2 } }, 'rope_scaling.rope_type', 'rope_type __proto__'],
    [{ ...L, rope_scaling: { type: 'hasOwnProperty', factor: 2 } }, 'rope_scaling.rope_type', 'type hasOwnProperty'],
    [
      { model_type: 'gemma2', num_hidden_layers: 2, layer_types: ['__proto__', 'constructor'] },
      'layer_types',
      'layer kinds from the prototype',
    ],
    [cycle, 'config', 'a text_config cycle'],
    [deep, 'config', '100000 nested text_configs'],
    [
      { model_type: 'llava', text_config: { model_type: 'llava', text_config: L } },
      'text_config.model_type',
      'a wrapper in a wrapper',
    ],
    [{ ...L, model_type: big }, 'model_type', 'a 1e6-character model_type'],
    [{ model_type: 'llava', text_config: { model_type: big } }, 'text_config.model_type', 'a 1e6-character text model'],
    [{ ...L, rope_scaling: { rope_type: big, factor: 2 } }, 'rope_scaling.rope_type', 'a 1e6-character rope_type'],
    [
      { model_type: 'gemma2', num_hidden_layers: 2, layer_types: [big, 'full_attention'] },
      'layer_types',
      'a 1e6-character layer kind',
    ],
    [{ ...L, rope_theta: big }, 'rope_theta', 'a 1e6-character rope_theta'],
    [
      { ...load('qwen-1.8b'), [`rope_${big}`]: 1 },
      `rope_${big}`,
      'a 1e6-character positional key of a remote-code row',
    ],
    [{ ...L, hidden_size: 4096n }, 'hidden_size', 'a BigInt'],
    [{ ...L, rope_theta: () => 500000 }, 'rope_theta', 'a function (JSON.stringify would drop it)'],
    [{ ...L, rope_scaling: { ...L.rope_scaling, factor: Symbol('8') } }, 'rope_scaling.factor', 'a symbol'],
    [[L], 'config', 'an array'],
  ];
  for (const [config, key, what] of cases) {
    if (key.length > 1000) {
      // the key's own name is the argument: compare its length, not a 1e6-character assert message
      assert.throws(
        () => pe.fromConfig(config),
        (e) => e.name === 'PosencError' && e.argument === key,
        what,
      );
      continue;
    }
    refuses(config, key, what);
  }
  for (const as of ['__proto__', 'constructor', 'toString', big]) {
    refuses({ ...L, model_type: 'zzz' }, 'as', `as ${as.slice(0, 20)}`, { as });
  }
  // a plain Proxy over JSON data reads as its data
  assert.equal(pe.fromConfig(new Proxy({ ...L }, {})).rope.base, 500000);
});
