// fromConfig against the Hugging Face code of each row, where the code's own rules matter:
// GPT-Neo, GPTBigCode, LongT5, GPT-J / CodeGen, DistilBERT; Python's truthiness for switches and
// None; non-finite numbers; keys the consumers would refuse; wrapper top-level keys; and every
// result of every fixture (and of seeded mutations of them) taken by ropeFrequencies, ropeCache,
// applyRope, attention and kvCache, or refused by fromConfig itself naming a config key.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { load, NAMES } from '../../tests/config_fixtures.js';
import { closestTypes } from './models.js';
import { assertThrowsPosenc, backends, randomF32 } from '../../tests/helpers.js';

/** Python's bool() of a JSON value, written out independently of config.js. */
function pyBool(v) {
  if (v === null || v === undefined || v === false || v === 0 || v === '') return false;
  if (Array.isArray(v)) return v.length !== 0;
  if (typeof v === 'object') return Object.keys(v).length !== 0;
  return true;
}
const SWITCH_VALUES = [true, false, 0, 1, 2, null, '', 'no', [], [0], {}, { a: 1 }];

test('GPT-Neo: raw q·kᵀ (scale 1), local layers of attention_types attend within window_size', async () => {
  const [{ pe }] = await backends();
  // GPTNeoConfig defaults alone: 24 layers, [[global, local], 12], window_size 256, 16 heads, 2048 wide
  const d = pe.fromConfig({ model_type: 'gpt_neo' });
  assert.equal(d.attention.scale, 1, 'GPTNeoSelfAttention._attn: no 1/sqrt(head_dim)');
  assert.equal(d.attention.heads, 16);
  assert.equal(d.attention.dim, 128);
  assert.equal(d.layers, 24);
  assert.equal(d.attention.window, undefined, 'layer 0 is global');
  assert.equal(d.layerType, 'full_attention');
  const l1 = pe.fromConfig({ model_type: 'gpt_neo' }, { layer: 1 });
  assert.equal(l1.attention.window, 256, 'layer 1 is local: bias ^ tril(bias, -window_size)');
  assert.equal(l1.layerType, 'sliding_attention');
  assert.ok(!l1.notes.some((n) => /window_size.*ignored/.test(n)), 'window_size is read, not noted as ignored');
  // the 125M layout, 12 layers of [global, local] x 6, window 256, scale 1 on every layer
  const neo = { model_type: 'gpt_neo', hidden_size: 768, num_heads: 12, num_layers: 12 };
  const types = { ...neo, attention_types: [[['global', 'local'], 6]], window_size: 256 };
  for (let layer = 0; layer < 12; layer++) {
    const s = pe.fromConfig(types, { layer });
    assert.equal(s.attention.window, layer % 2 ? 256 : undefined, `layer ${layer}`);
    assert.equal(s.attention.scale, 1);
  }
  // a window the config sets reaches the attention
  assert.equal(pe.fromConfig({ ...types, window_size: 3 }, { layer: 3 }).attention.window, 3);
  // GPTNeoConfig raises unless attention_types expands to num_layers entries of 'global' / 'local'
  for (const at of [[[['global', 'local'], 5]], [[['global', 'lsh'], 6]], 'global', [[['global'], 1.5]]]) {
    assertThrowsPosenc(() => pe.fromConfig({ ...neo, attention_types: at }), [/attention_types must be/]);
  }
  assertThrowsPosenc(() => pe.fromConfig({ ...types, window_size: 0 }, { layer: 1 }), [/window_size must be/]);
});

test('GPTBigCode: multi_query (class default True) gives one KV head; scale_attn_weights, no layer-index scaling', async () => {
  const [{ pe }] = await backends();
  const sc = load('gpt-bigcode-santacoder');
  const s = pe.fromConfig(sc);
  assert.equal(s.attention.kvHeads, 1);
  assert.equal(s.attention.heads, 16);
  assert.equal(s.learned.rows, 2048);
  const { multi_query: _, ...noMq } = sc;
  assert.equal(pe.fromConfig(noMq).attention.kvHeads, 1, 'GPTBigCodeConfig(multi_query=True)');
  for (const v of SWITCH_VALUES) {
    assert.equal(pe.fromConfig({ ...sc, multi_query: v }).attention.kvHeads, pyBool(v) ? 1 : 16, `multi_query ${v}`);
    const scale = pe.fromConfig({ ...sc, scale_attn_weights: v }).attention.scale;
    assert.equal(scale, pyBool(v) ? 1 / Math.sqrt(128) : 1, `scale_attn_weights ${JSON.stringify(v)}`);
  }
  // GPTBigCodeConfig has no scale_attn_by_inverse_layer_idx; the layer_idx unscale of the fp32 softmax cancels
  const l5 = pe.fromConfig({ ...sc, scale_attn_by_inverse_layer_idx: true }, { layer: 5 });
  assert.equal(l5.attention.scale, 1 / Math.sqrt(128));
});

test('GPT-2 (BioMedLM): scale_attn_by_inverse_layer_idx divides layer i by i + 1', async () => {
  const [{ pe }] = await backends();
  const c = load('biomedlm');
  for (const layer of [0, 1, 31]) {
    assert.equal(pe.fromConfig(c, { layer }).attention.scale, 1 / Math.sqrt(128) / (layer + 1), `layer ${layer}`);
  }
  for (const v of SWITCH_VALUES) {
    const s = pe.fromConfig({ ...c, scale_attn_by_inverse_layer_idx: v }, { layer: 3 }).attention.scale;
    assert.equal(s, (pyBool(v) ? 1 / 4 : 1) / Math.sqrt(128), `scale_attn_by_inverse_layer_idx ${JSON.stringify(v)}`);
  }
});

test('LongT5: the encoder (local / transient-global) is refused naming encoder_attention_type; the decoder maps', async () => {
  const [{ pe }] = await backends();
  const t5 = { ...load('t5-small'), model_type: 'longt5' };
  for (const [v, re] of [
    [undefined, /"local"/],
    ['local', /"local"/],
    ['transient-global', /transient global tokens/],
  ]) {
    const c = v === undefined ? t5 : { ...t5, encoder_attention_type: v };
    assert.throws(
      () => pe.fromConfig(c),
      (e) => e.name === 'PosencError' && e.argument === 'encoder_attention_type' && re.test(e.message),
    );
  }
  const dec = pe.fromConfig({ ...t5, encoder_attention_type: 'transient-global' }, { decoder: true });
  assert.equal(dec.family, 't5');
  assert.equal(dec.t5.bidirectional, false);
  assert.equal(dec.attention.scale, 1);
});

test('GPT-J and CodeGen: base 10000, no scaling, rotary_dim only; rope keys are noted as unread', async () => {
  const [{ pe }] = await backends();
  const gptj = load('gpt-j-6b');
  for (const mt of ['gptj', 'codegen']) {
    const base = { ...gptj, model_type: mt };
    for (const [k, v] of [
      ['rope_theta', 500000],
      ['rope_scaling', { rope_type: 'linear', factor: 4 }],
      ['rope_parameters', { rope_type: 'yarn', factor: 4, rope_theta: 1e6 }],
      ['partial_rotary_factor', 0.5],
      ['rotary_pct', 0.5],
    ]) {
      const s = pe.fromConfig({ ...base, [k]: v });
      assert.equal(s.rope.base, 10000, `${mt} + ${k}`);
      assert.equal(s.rope.scaling, undefined, `${mt} + ${k}`);
      assert.equal(s.rope.rotaryDim, 64, `${mt} + ${k}: rotary_dim`);
      assert.ok(
        s.notes.some((n) => n.startsWith(`${k} = `) && n.includes('create_sinusoidal_positions')),
        `${mt} + ${k} noted`,
      );
    }
    // GPTJConfig / CodeGenConfig rotary_dim defaults to 64; None would build a hidden_size-wide table
    const { rotary_dim: _, ...noRot } = base;
    assert.equal(pe.fromConfig(noRot).rope.rotaryDim, 64);
    assertThrowsPosenc(() => pe.fromConfig({ ...base, rotary_dim: null }), [/rotary_dim must be/]);
    assert.equal(pe.fromConfig({ ...base, rotary_dim: 32 }).rope.rotaryDim, 32);
  }
});

test('DistilBERT: dim, n_heads, n_layers (ClinicalBERT); sinusoidal_pos_embds is noted', async () => {
  const [{ pe }] = await backends();
  const c = load('clinicalbert');
  const s = pe.fromConfig(c);
  assert.equal(s.family, 'learned');
  assert.deepEqual(s.learned, { rows: 512 });
  assert.equal(s.attention.heads, 12);
  assert.equal(s.attention.dim, 64);
  assert.equal(s.layers, 6);
  assert.equal(s.source.dim, 768);
  const sin = pe.fromConfig({ ...c, sinusoidal_pos_embds: true });
  assert.ok(sin.notes.some((n) => n.includes('fixed sinusoids')));
  assert.ok(!s.notes.some((n) => n.includes('sinusoidal_pos_embds')));
  // DistilBertConfig defaults: dim 768, n_heads 12
  assert.equal(pe.fromConfig({ model_type: 'distilbert' }).attention.dim, 64);
});

test("switches follow Python's truthiness (`if config.x:`), None is falsy", async () => {
  const [{ pe }] = await backends();
  const ds = load('deepseek-v3');
  const qwen = load('qwen2.5-3b');
  const falcon = load('falcon-7b-instruct');
  const gpt2 = load('gpt2');
  const scout = load('llama-4-scout');
  for (const v of SWITCH_VALUES) {
    const t = pyBool(v);
    const what = JSON.stringify(v);
    assert.equal(
      pe.fromConfig({ ...ds, rope_interleave: v }).rope.layout,
      t ? 'interleaved' : 'half',
      `rope_interleave ${what}`,
    );
    const q = pe.fromConfig(
      { ...qwen, use_sliding_window: v, sliding_window: 512, max_window_layers: 0 },
      { layer: 1 },
    );
    assert.equal(q.attention.window, t ? 512 : undefined, `use_sliding_window ${what}`);
    assert.equal(
      pe.fromConfig({ ...gpt2, scale_attn_weights: v }).attention.scale,
      t ? 0.125 : 1,
      `scale_attn_weights ${what}`,
    );
    assert.equal(pe.fromConfig({ ...falcon, multi_query: v }).attention.kvHeads, t ? 1 : 71, `multi_query ${what}`);
    const tt = { ...scout, text_config: { ...scout.text_config, attn_temperature_tuning: v } };
    assert.equal(Boolean(pe.fromConfig(tt, { layer: 3 }).attention.queryScale), t, `attn_temperature_tuning ${what}`);
  }
  // an absent switch takes the config class's default: DeepseekV3Config rope_interleave=True, GPT2Config scale_attn_weights=True
  const { rope_interleave: _r, ...dsNo } = ds;
  assert.equal(pe.fromConfig(dsNo).rope.layout, 'interleaved');
  const { scale_attn_weights: _s, ...gNo } = gpt2;
  assert.equal(pe.fromConfig(gNo).attention.scale, 0.125);
});

test('NaN and ±Infinity anywhere in the config are refused naming the key (JSON has neither)', async () => {
  const [{ pe }] = await backends();
  const llama = load('llama-3.1-8b');
  const gemma = load('gemma-3-4b');
  const cases = [
    [{ ...llama, num_key_value_heads: NaN }, 'num_key_value_heads'],
    [{ ...llama, rope_theta: Infinity }, 'rope_theta'],
    [{ ...llama, rope_theta: -Infinity }, 'rope_theta'],
    [{ ...llama, rope_scaling: { ...llama.rope_scaling, factor: NaN } }, 'rope_scaling.factor'],
    [{ ...gemma, text_config: { ...gemma.text_config, sliding_window: NaN } }, 'text_config.sliding_window'],
    [{ ...llama, layer_types: [0, NaN] }, 'layer_types[1]'],
    [{ ...llama, initializer_range: NaN }, 'initializer_range'],
  ];
  for (const [c, key] of cases) {
    assert.throws(
      () => pe.fromConfig(c),
      (e) => e.name === 'PosencError' && e.argument === key && /finite number/.test(e.message),
      key,
    );
  }
});

test('no spec its consumers refuse: llama_4_scaling_beta, YaRN mscale overflow, named by config key', async () => {
  const [{ pe }] = await backends();
  const min = load('ministral-3-3b');
  const tc = min.text_config ?? min;
  const rp = tc.rope_parameters;
  const { original_max_position_embeddings: _o, ...rpNoOrig } = rp;
  const patch = (p) => (min.text_config ? { ...min, text_config: { ...tc, ...p } } : { ...min, ...p });
  const pre = min.text_config ? 'text_config.' : '';
  assert.throws(
    () => pe.fromConfig(patch({ rope_parameters: rpNoOrig })),
    (e) => e.argument === `${pre}rope_parameters.original_max_position_embeddings`,
  );
  // Ministral 3: 1 + beta · ln(1 + floor(p / original_max_position_embeddings))
  const qs = pe.fromConfig(min).attention.queryScale;
  const m = rp.original_max_position_embeddings;
  for (const p of [0, m - 1, m, 5 * m]) {
    assert.equal(qs(p), 1 + rp.llama_4_scaling_beta * Math.log(1 + Math.floor(p / m)));
  }
  // modeling_llama.py never reads llama_4_scaling_beta: no query scale, a note
  const llama = load('llama-3.1-8b');
  const l = pe.fromConfig({ ...llama, rope_scaling: { ...llama.rope_scaling, llama_4_scaling_beta: 0.1 } });
  assert.equal(l.attention.queryScale, undefined);
  assert.ok(l.notes.some((n) => n.startsWith('rope_scaling.llama_4_scaling_beta = 0.1 is not read')));
  const ds = load('deepseek-v2-lite');
  for (const [k, v] of [
    ['mscale', 1e308],
    ['mscale_all_dim', 1e308],
    ['attention_factor', 1e300],
  ]) {
    assert.throws(
      () => pe.fromConfig({ ...ds, rope_scaling: { ...ds.rope_scaling, [k]: v } }),
      (e) => e.name === 'PosencError' && e.argument === `rope_scaling.${k}`,
      k,
    );
  }
});

test('wrappers: positional keys at the top level next to text_config are noted as not read', async () => {
  const [{ pe }] = await backends();
  for (const n of ['gemma-3-4b', 'llama-4-scout', 'qwen2.5-vl-7b', 'llava-1.5-7b']) {
    const c = load(n);
    const before = pe.fromConfig(c);
    for (const [k, v] of [
      ['rope_theta', 3],
      ['rope_scaling', { rope_type: 'linear', factor: 8 }],
      ['sliding_window', 5],
    ]) {
      const s = pe.fromConfig({ ...c, [k]: v });
      assert.deepEqual(s.rope, before.rope, `${n} + ${k}: the text config decides`);
      assert.ok(
        s.notes.some((t) => t.startsWith(`${k} = `) && t.includes('at the top level is not read')),
        `${n} + ${k}: noted`,
      );
    }
  }
});

test('LLaVA: text_config is a LlamaConfig; its omitted keys take LlamaConfig defaults', async () => {
  const [{ pe }] = await backends();
  const c = load('llava-1.5-7b');
  const s = pe.fromConfig(c);
  assert.equal(s.model, 'llama');
  assert.deepEqual(s.defaults, {
    'text_config.hidden_size': 4096,
    'text_config.num_attention_heads': 32,
    'text_config.num_hidden_layers': 32,
    'text_config.rope_theta': 10000,
  });
  const { text_config: _, ...bare } = c;
  assert.equal(pe.fromConfig(bare).attention.heads, 32, 'no text_config: LlamaConfig()');
});

test('an unmapped model_type is compared by its first 64 characters only', async () => {
  const [{ pe }] = await backends();
  const long = `llama${'q'.repeat(1e6)}`;
  assert.deepEqual(closestTypes(long), closestTypes(long.slice(0, 64)));
  assert.throws(
    () => pe.fromConfig({ ...load('llama-3.1-8b'), model_type: long }),
    (e) => e.argument === 'model_type' && e.message.includes("closest: 'llama'"),
  );
});

/** Every consumer of a result: ropeFrequencies / ropeCache / applyRope (RoPE), attention and kvCache. */
function consume(pe, s, what) {
  if (s.attention === null) {
    assert.equal(s.encoding, null, what);
    return;
  }
  const { heads, kvHeads, dim } = s.attention;
  const dimV = s.attention.dimV ?? dim;
  const T = 3;
  const positions = s.rope?.mropeSections ? Int32Array.from([0, 1, 2, 0, 5, 9, 0, 3, 11]) : undefined;
  const at = positions ? { positions } : { offset: 2 };
  if (s.rope) {
    pe.ropeFrequencies(s.rope);
    pe.ropeCache({ length: T, ...s.rope, ...(positions ? { positions } : {}) });
    const x = pe.applyRope(randomF32(T * heads * s.rope.dim, 1), { length: T, heads, ...s.rope, ...at });
    assert.ok(x.every(Number.isFinite), `${what}: applyRope finite`);
  }
  const q = randomF32(T * heads * dim, 3);
  const k = randomF32(T * kvHeads * dim, 4);
  const v = randomF32(T * kvHeads * dimV, 5);
  const out = pe.attention({ q, k, v, queries: T, causal: true, ...s.attention }).output;
  assert.ok(out.every(Number.isFinite), `${what}: attention finite`);
  const encoding =
    s.encoding.type === 't5' ? { ...s.encoding, weights: randomF32(s.t5.numBuckets * heads, 6) } : s.encoding;
  const cache = pe.kvCache({ ...s.attention, capacity: 4, encoding });
  try {
    cache.append(k, v, positions ? { positions } : undefined);
    assert.ok(cache.attend(q, positions ? { positions } : undefined).output.every(Number.isFinite), what);
  } finally {
    cache.free();
  }
}

test('every layer of every fixture: the result goes to ropeFrequencies, ropeCache, applyRope, attention and kvCache', async () => {
  const [{ pe }] = await backends();
  let driven = 0;
  for (const name of NAMES) {
    const c = load(name);
    // a LongT5 local / transient-global encoder is refused by name (see the LongT5 test): its decoder only
    const longEncoder = c.model_type === 'longt5' && c.encoder_attention_type !== undefined;
    const opts = [...(longEncoder ? [] : [{}]), ...(c.model_type.includes('t5') ? [{ decoder: true }] : [])];
    for (const o of opts) {
      const layers = pe.fromConfig(c, o).layers ?? 1;
      const seen = new Set();
      for (let layer = 0; layer < layers; layer++) {
        const s = pe.fromConfig(c, { ...o, layer });
        const key = JSON.stringify([s.family, s.layerType, s.rope, s.attention, s.encoding, s.learned]);
        if (seen.has(key)) continue;
        seen.add(key);
        consume(pe, s, `${name} layer ${layer}`);
        driven++;
      }
    }
  }
  assert.ok(driven >= NAMES.length, `${driven} distinct layers driven`);
});

test('seeded mutations of every fixture: a PosencError naming a config key, or a result every consumer takes', async () => {
  const [{ pe }] = await backends();
  let seed = 41;
  const rnd = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const pick = (a) => a[Math.floor(rnd() * a.length)];
  const values = [null, 0, -1, 1, 2, 3, 0.5, 1.5, 64, 1e308, 1e-300, -1e308, 'x', true, false, [], [1], {}, 2 ** 31];
  const scalingKeys = ['factor', 'mscale', 'mscale_all_dim', 'attention_factor', 'beta_fast', 'beta_slow'];
  const more = ['original_max_position_embeddings', 'low_freq_factor', 'high_freq_factor', 'llama_4_scaling_beta'];
  let results = 0;
  let refused = 0;
  for (let n = 0; n < 900; n++) {
    const name = pick(NAMES);
    const c = structuredClone(load(name));
    const t = c.text_config && typeof c.text_config === 'object' && rnd() < 0.8 ? c.text_config : c;
    const rs = ['rope_scaling', 'rope_parameters'].find((k) => t[k] && typeof t[k] === 'object');
    const nested = rs && rnd() < 0.5;
    const keys = nested
      ? [...scalingKeys, ...more]
      : Object.keys(t).filter((k) => k !== 'model_type' && typeof t[k] !== 'object');
    if (!keys.length) continue;
    const key = pick(keys);
    (nested ? t[rs] : t)[key] = structuredClone(pick(values));
    const o = { layer: Math.floor(rnd() * 4), ...(rnd() < 0.2 ? { decoder: true } : {}) };
    let s;
    try {
      s = pe.fromConfig(c, o);
    } catch (e) {
      assert.equal(e.name, 'PosencError', `${name} ${key}: ${e.message}`);
      assert.ok(typeof e.argument === 'string' && e.argument.length > 0, `${name} ${key}: names an argument`);
      refused++;
      continue;
    }
    results++;
    consume(pe, s, `${name} ${nested ? `${rs}.` : ''}${key} mutated`);
  }
  assert.ok(results > 200 && refused > 50, `${results} results, ${refused} refusals`);
});

test('Llama4TextConfig defaults: temperature tuning on NoPE layers and 8192-token chunks when the file omits them', async () => {
  const [{ pe }] = await backends();
  const scout = load('llama-4-scout');
  const {
    attn_temperature_tuning: _t,
    floor_scale: _f,
    attn_scale: _a,
    attention_chunk_size: _c,
    ...tc
  } = scout.text_config;
  const bare = { ...scout, text_config: tc };
  const nope = pe.fromConfig(bare, { layer: 3 });
  assert.equal(nope.family, 'none');
  // modeling_llama4.py: q *= log1p(floor((p + 1) / floor_scale)) * attn_scale + 1, on NoPE layers
  for (const p of [0, 8190, 8191, 100000]) {
    assert.equal(nope.attention.queryScale(p), 1 + 0.1 * Math.log1p(Math.floor((p + 1) / 8192)), `p ${p}`);
  }
  assert.equal(pe.fromConfig(bare, { layer: 0 }).attention.chunk, 8192);
  for (const v of SWITCH_VALUES) {
    const s = pe.fromConfig({ ...scout, text_config: { ...tc, attn_temperature_tuning: v } }, { layer: 3 });
    assert.equal(Boolean(s.attention.queryScale), pyBool(v), JSON.stringify(v));
  }
});

test('types whose positions posenc does not model are refused with the reason, even with `as`', async () => {
  const [{ pe }] = await backends();
  const base = { hidden_size: 768, num_attention_heads: 12, num_hidden_layers: 12, max_position_embeddings: 512 };
  for (const [t, re] of [
    ['deberta', /disentangled attention/],
    ['deberta-v2', /disentangled attention/],
    ['longformer', /global tokens/],
    ['big_bird', /block-sparse/],
    ['reformer', /LSH/],
    ['xlnet', /two-stream/],
  ]) {
    for (const o of [undefined, { as: 'bert' }]) {
      assert.throws(
        () => pe.fromConfig({ ...base, model_type: t }, o),
        (e) => e.name === 'PosencError' && e.argument === 'model_type' && re.test(e.message),
        t,
      );
    }
  }
});

test("MPT: transformers' MptModel always adds ALiBi with one K/V head per head; what its remote code does differently is refused", async () => {
  const [{ pe }] = await backends();
  const mpt = load('mpt-7b-instruct');
  assert.equal(pe.fromConfig(mpt).family, 'alibi');
  for (const v of [false, 0, null]) {
    assert.throws(
      () => pe.fromConfig({ ...mpt, attn_config: { ...mpt.attn_config, alibi: v } }),
      (e) => e.argument === 'attn_config.alibi' && /build_mpt_alibi_tensor/.test(e.message),
    );
  }
  assert.throws(
    () => pe.fromConfig({ ...mpt, attn_config: { ...mpt.attn_config, kv_n_heads: 8 } }),
    (e) => e.argument === 'attn_config.kv_n_heads',
  );
  assert.equal(pe.fromConfig({ ...mpt, attn_config: { ...mpt.attn_config, kv_n_heads: 32 } }).attention.kvHeads, 32);
});

test('Falcon: num_kv_heads if new_decoder_architecture or not multi_query, else 1 (FalconAttention)', async () => {
  const [{ pe }] = await backends();
  const f = load('falcon-7b-instruct');
  for (const nda of SWITCH_VALUES) {
    for (const mq of [true, false, 0, null]) {
      const big = { ...f, num_attention_heads: 128, hidden_size: 8192, num_kv_heads: 8 };
      const s = pe.fromConfig({ ...big, new_decoder_architecture: nda, multi_query: mq });
      const want = pyBool(nda) || !pyBool(mq) ? 8 : 1;
      assert.equal(s.attention.kvHeads, want, `new_decoder_architecture ${JSON.stringify(nda)}, multi_query ${mq}`);
    }
  }
  // FalconConfig: num_kv_heads None -> num_attention_heads
  const { num_kv_heads: _, ...noKv } = f;
  assert.equal(pe.fromConfig({ ...noKv, multi_query: false }).attention.kvHeads, 71);
});

test('None (null) is the value, not the default: refused where the HF code computes with it, absent where it tests it', async () => {
  const [{ pe }] = await backends();
  const llama = load('llama-3.1-8b');
  const phi = load('phi-4-mini');
  const g2 = load('gemma-2-2b');
  const g3 = load('gemma-3-1b');
  for (const [c, key] of [
    [{ ...llama, rope_theta: null }, 'rope_theta'],
    [{ ...phi, partial_rotary_factor: null }, 'partial_rotary_factor'],
    [{ ...g2, query_pre_attn_scalar: null }, 'query_pre_attn_scalar'],
    [{ ...g3, rope_local_base_freq: null }, 'rope_local_base_freq'],
    [{ ...g3, sliding_window_pattern: null, layer_types: undefined }, 'sliding_window_pattern'],
  ]) {
    assert.throws(
      () => pe.fromConfig(c),
      (e) => e.name === 'PosencError' && e.argument === key,
      key,
    );
  }
  // None where the code tests it (`if sliding_window is not None`, `num_key_value_heads is None`)
  assert.equal(pe.fromConfig({ ...load('mistral-7b-v0.1'), sliding_window: null }).attention.window, undefined);
  assert.equal(pe.fromConfig({ ...llama, num_key_value_heads: null }).attention.kvHeads, 32);
  assert.equal(pe.fromConfig({ ...llama, head_dim: null }).attention.dim, 128);
  assert.equal(pe.fromConfig({ ...llama, rope_scaling: null }).rope.scaling, undefined);
});

test('no_rope_layers entries by their truth value (use_rope = no_rope_layers[i], tested with if)', async () => {
  const [{ pe }] = await backends();
  const scout = load('llama-4-scout');
  const n = scout.text_config.num_hidden_layers;
  for (const [on, off] of [
    [1, 0],
    [true, false],
    [2, 0.0],
  ]) {
    const nrl = Array.from({ length: n }, (_, i) => (i % 2 ? off : on));
    const c = { ...scout, text_config: { ...scout.text_config, no_rope_layers: nrl } };
    assert.equal(pe.fromConfig(c, { layer: 0 }).family, 'rope', `${on}`);
    assert.equal(pe.fromConfig(c, { layer: 1 }).family, 'none', `${off}`);
  }
  const bad = { ...scout, text_config: { ...scout.text_config, no_rope_layers: Array(n).fill('1') } };
  assertThrowsPosenc(() => pe.fromConfig(bad), [/no_rope_layers must be/]);
});
