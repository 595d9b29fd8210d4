// fromConfig on the decoder block of families/config/models.js (the popular decoders Hugging Face implements
// natively), each against a real config.json in tests/fixtures/configs and the float64 formulas of
// the Hugging Face files the row cites (paths under transformers src/transformers/models/), written
// out here again, not taken from config.js. Every result then drives ropeCache, applyRope,
// attention and kvCache as is.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { load, refRotate } from '../../tests/config_fixtures.js';
import { assertThrowsPosenc, backends, randomF32 } from '../../tests/helpers.js';

/** modeling_rope_utils.py _compute_default_rope_parameters: dim = int(head_dim * partial_rotary_factor),
 * inv_freq = 1 / base ** (arange(0, dim, 2) / dim) */
const hfInvFreq = (base, dim) => Array.from({ length: dim / 2 }, (_, i) => 1 / base ** ((2 * i) / dim));

function maxRel(actual, expected) {
  assert.equal(actual.length, expected.length, 'pair count');
  let m = 0;
  for (let i = 0; i < expected.length; i++) m = Math.max(m, Math.abs(actual[i] - expected[i]) / Math.abs(expected[i]));
  return m;
}

/** apply_rotary_pos_emb on x [length][heads][dim], float64: the first 2 · inv.length components
 * rotate, position t + offset; 'half' is rotate_half (cat(-x2, x1)), 'interleaved' GLM-4's
 * repeat_interleave cos / sin with x[..., 0::2], x[..., 1::2] (adjacent pairs). */
const hfRotate = (x, { offset, ...o }) => refRotate(x, { ...o, angle: (t) => t + offset });

/** The result as its consumers take it: applyRope against hfRotate, ropeCache, attention, kvCache. */
async function drive(s, inv, what) {
  for (const { name, pe } of await backends()) {
    const { heads, kvHeads, dim } = s.attention;
    const length = 3;
    const x = randomF32(length * heads * dim, 11);
    const got = pe.applyRope(Float32Array.from(x), { length, heads, offset: 7, ...s.rope });
    const want = hfRotate(x, { length, heads, dim, inv, layout: s.rope.layout, offset: 7 });
    let err = 0;
    for (let i = 0; i < want.length; i++) err = Math.max(err, Math.abs(got[i] - want[i]));
    assert.ok(err < 2e-5, `${name} ${what}: applyRope max err ${err}`);
    const c = pe.ropeCache({ length: 4, ...s.rope });
    assert.equal(c.cos.length, (4 * (s.rope.rotaryDim ?? s.rope.dim)) / 2, `${name} ${what}: ropeCache pairs`);
    const q = randomF32(length * heads * dim, 3);
    const k = randomF32(length * kvHeads * dim, 4);
    const v = randomF32(length * kvHeads * dim, 5);
    const out = pe.attention({ q, k, v, queries: length, keys: length, causal: true, ...s.attention }).output;
    assert.ok(out.length === length * heads * dim && out.every(Number.isFinite), `${name} ${what}: attention`);
    const cache = pe.kvCache({ ...s.attention, capacity: 8, encoding: s.encoding });
    try {
      cache.append(k, v);
      assert.ok(cache.attend(q).output.every(Number.isFinite), `${name} ${what}: kvCache`);
    } finally {
      cache.free();
    }
  }
}

test('OLMoE (allenai/OLMoE-1B-7B-0125-Instruct): rotate_half on hidden_size / heads, base 10000, every layer full', async () => {
  const [{ pe }] = await backends();
  const cfg = load('olmoe-1b-7b-0125-instruct');
  const inv = hfInvFreq(10000, 2048 / 16);
  for (let layer = 0; layer < cfg.num_hidden_layers; layer++) {
    const s = pe.fromConfig(cfg, { layer });
    assert.equal(s.family, 'rope');
    assert.equal(s.layerType, 'full_attention');
    // OlmoeAttention: head_dim = hidden_size // num_heads; scores / sqrt(head_dim); no window
    assert.deepEqual(s.attention, { heads: 16, kvHeads: 16, dim: 128, scale: 1 / Math.sqrt(128) });
    assert.deepEqual(s.rope, { dim: 128, base: 10000, layout: 'half' });
    assert.ok(maxRel(pe.ropeFrequencies(s.rope).invFreq64, inv) < 1e-12, `layer ${layer} inv_freq`);
  }
  await drive(pe.fromConfig(cfg), inv, 'olmoe');
});

test('OLMoE: OlmoeConfig defaults, KV heads, head_dim read as OlmoeAttention sizes it, scaling and ignored keys', async () => {
  const [{ pe }] = await backends();
  const cfg = load('olmoe-1b-7b-0125-instruct');
  // OlmoeConfig(): hidden 2048, 16 heads, 16 layers, num_key_value_heads None -> num_attention_heads
  const d = pe.fromConfig({ model_type: 'olmoe' });
  assert.deepEqual([d.layers, d.attention.heads, d.attention.kvHeads, d.attention.dim], [16, 16, 16, 128]);
  assert.equal(d.rope.base, 10000);
  const { num_key_value_heads: _, ...noKv } = cfg;
  assert.equal(pe.fromConfig(noKv).attention.kvHeads, 16);
  assert.equal(pe.fromConfig({ ...cfg, num_key_value_heads: 4 }).attention.kvHeads, 4);
  // a head_dim equal to hidden_size / heads changes nothing; another one is refused by name
  assert.equal(pe.fromConfig({ ...cfg, head_dim: 128 }).attention.dim, 128);
  for (const hd of [64, 256]) {
    assertThrowsPosenc(
      () => pe.fromConfig({ ...cfg, head_dim: hd }),
      [/head_dim must be hidden_size \/ num_attention_heads/],
    );
  }
  // OlmoeRotaryEmbedding is LlamaRotaryEmbedding: rope_scaling through ROPE_INIT_FUNCTIONS (linear: inv / factor)
  const lin = pe.fromConfig({ ...cfg, rope_scaling: { rope_type: 'linear', factor: 4 } });
  const inv = hfInvFreq(10000, 128).map((f) => f / 4);
  assert.ok(maxRel(pe.ropeFrequencies(lin.rope).invFreq64, inv) < 1e-12, 'linear ×4');
  // OlmoeAttention has no sliding window: a sliding_window key is noted and ignored
  const sw = pe.fromConfig({ ...cfg, sliding_window: 1024 });
  assert.equal(sw.attention.window, undefined);
  assert.ok(sw.notes.some((n) => /sliding_window = 1024 is ignored: OlmoeAttention has no sliding window/.test(n)));
  assertThrowsPosenc(() => pe.fromConfig({ ...cfg, rope_theta: null }), [/rope_theta must be a number/]);
});

test('GLM-4.5-Air (glm4_moe): rotate_half on the first head_dim · 0.5 = 64 of 128, base 1e6, 96/8 heads', async () => {
  const [{ pe }] = await backends();
  const cfg = load('glm-4.5-air-mlx-4bit');
  // _compute_default_rope_parameters: dim = int(head_dim * partial_rotary_factor) = 64
  const inv = hfInvFreq(1e6, 64);
  for (const layer of [0, 1, 45]) {
    const s = pe.fromConfig(cfg, { layer });
    assert.equal(s.layerType, 'full_attention');
    // Glm4MoeAttention: head_dim from the config, scaling = head_dim^-0.5, no window
    assert.deepEqual(s.attention, { heads: 96, kvHeads: 8, dim: 128, scale: 128 ** -0.5 });
    assert.deepEqual(s.rope, { dim: 128, rotaryDim: 64, base: 1e6, layout: 'half' });
    assert.ok(maxRel(pe.ropeFrequencies(s.rope).invFreq64, inv) < 1e-12, `layer ${layer} inv_freq`);
  }
  await drive(pe.fromConfig(cfg), inv, 'glm4_moe');
  // Glm4MoeConfig has no head_dim parameter: without one, hidden_size // heads = 4096 // 96 is no
  // whole head (HF would build 42-wide heads with a 21-wide rotation), so posenc refuses by name
  const { head_dim: _, ...noHead } = cfg;
  assertThrowsPosenc(() => pe.fromConfig(noHead), [/hidden_size must be a multiple of num_attention_heads = 96/]);
  // Glm4MoeConfig(partial_rotary_factor=0.5) when the file omits it; another factor is read
  const { partial_rotary_factor: __, ...noPrf } = cfg;
  const d = pe.fromConfig(noPrf);
  assert.equal(d.rope.rotaryDim, 64);
  assert.equal(d.defaults.partial_rotary_factor, 0.5);
  assert.equal(pe.fromConfig({ ...cfg, partial_rotary_factor: 1 }).rope.rotaryDim, undefined);
  assert.equal(pe.fromConfig({ ...cfg, partial_rotary_factor: 0.25 }).rope.rotaryDim, 32);
  const sw = pe.fromConfig({ ...cfg, sliding_window: 4096 });
  assert.equal(sw.attention.window, undefined);
  assert.ok(sw.notes.some((n) => /sliding_window = 4096 is ignored: Glm4MoeAttention has no sliding window/.test(n)));
});

test('LFM2 (LiquidAI/LFM2-2.6B): layer_types picks attention or Lfm2ShortConv; attention layers rotate_half, base theta', async () => {
  const [{ pe }] = await backends();
  const cfg = load('lfm2-2.6b');
  // Lfm2Attention is LlamaAttention: head_dim = hidden_size // heads = 64, scaling 64^-0.5, rotate_half
  const inv = hfInvFreq(1e6, 64);
  for (let layer = 0; layer < cfg.num_hidden_layers; layer++) {
    const s = pe.fromConfig(cfg, { layer });
    assert.equal(s.layerType, cfg.layer_types[layer], `layer ${layer}`);
    if (cfg.layer_types[layer] === 'conv') {
      // Lfm2DecoderLayer: conv layers run Lfm2ShortConv, no attention and no positions
      assert.equal(s.family, 'none');
      assert.equal(s.attention, null);
      assert.equal(s.encoding, null);
      assert.match(s.reason, /Lfm2ShortConv/);
      continue;
    }
    assert.deepEqual(s.attention, { heads: 32, kvHeads: 8, dim: 64, scale: 0.125 });
    assert.deepEqual(s.rope, { dim: 64, base: 1e6, layout: 'half' });
    assert.ok(maxRel(pe.ropeFrequencies(s.rope).invFreq64, inv) < 1e-12, `layer ${layer} inv_freq`);
  }
  await drive(pe.fromConfig(cfg, { layer: 2 }), inv, 'lfm2');
});

test('LFM2: Lfm2Config reads theta before rope_theta (default 1e6); full_attn_idxs when layer_types is absent', async () => {
  const [{ pe }] = await backends();
  const cfg = load('lfm2-2.6b');
  // rope_theta = kwargs.get("theta", kwargs.get("rope_theta", 1000000.0))
  assert.equal(pe.fromConfig({ ...cfg, theta: 5e5 }, { layer: 2 }).rope.base, 5e5);
  const { theta: _, ...noTheta } = cfg;
  assert.equal(pe.fromConfig({ ...noTheta, rope_theta: 2e5 }, { layer: 2 }).rope.base, 2e5);
  const { rope_theta: __, ...bare } = noTheta;
  const d = pe.fromConfig(bare, { layer: 2 });
  assert.equal(d.rope.base, 1e6);
  assert.equal(d.defaults.rope_theta, 1e6);
  // no layer_types: full_attn_idxs lists the attention layers; neither: every layer attends
  const { layer_types: ___, ...noTypes } = cfg;
  const byIdx = { ...noTypes, full_attn_idxs: [2, 5] };
  assert.equal(pe.fromConfig(byIdx, { layer: 5 }).layerType, 'full_attention');
  assert.equal(pe.fromConfig(byIdx, { layer: 4 }).layerType, 'conv');
  assert.equal(pe.fromConfig(noTypes, { layer: 4 }).layerType, 'full_attention');
  assertThrowsPosenc(() => pe.fromConfig({ ...noTypes, full_attn_idxs: 'all' }), [/full_attn_idxs must be/]);
  assertThrowsPosenc(
    () => pe.fromConfig({ ...cfg, layer_types: cfg.layer_types.map((t) => (t === 'conv' ? 'mamba' : t)) }),
    [/layer_types must be/],
  );
});

test('decoder block: None and non-finite values as the config classes compute with them, refused naming the key', async () => {
  const [{ pe }] = await backends();
  const olmoe = load('olmoe-1b-7b-0125-instruct');
  const glm = load('glm-4.5-air-mlx-4bit');
  const lfm2 = load('lfm2-2.6b');
  // base ** (...) with None fails in _compute_default_rope_parameters: refused, not defaulted
  assertThrowsPosenc(() => pe.fromConfig({ ...olmoe, rope_theta: null }), [/rope_theta must be a number/]);
  // int(head_dim * None) fails: Glm4MoeConfig's 0.5 is not used for a key present with null
  assertThrowsPosenc(() => pe.fromConfig({ ...glm, partial_rotary_factor: null }), [/partial_rotary_factor must be/]);
  // Lfm2Config: kwargs.get("theta", ...) returns None when the key holds null: rope_theta is not consulted
  assertThrowsPosenc(() => pe.fromConfig({ ...lfm2, theta: null }, { layer: 2 }), [/theta must be a number/]);
  // layer_types None: Lfm2Config builds it from full_attn_idxs (None: every layer attends)
  assert.equal(pe.fromConfig({ ...lfm2, layer_types: null }, { layer: 0 }).layerType, 'full_attention');
  // layer_types [] is kept by Lfm2Config (not None) and the layers index past it: refused
  assertThrowsPosenc(() => pe.fromConfig({ ...lfm2, layer_types: [] }), [/layer_types must be/]);
  for (const [cfg, key] of [
    [olmoe, 'rope_theta'],
    [glm, 'partial_rotary_factor'],
    [lfm2, 'theta'],
    [glm, 'num_key_value_heads'],
  ]) {
    for (const v of [Number.NaN, Number.POSITIVE_INFINITY]) {
      assertThrowsPosenc(() => pe.fromConfig({ ...cfg, [key]: v }, { layer: 2 }), [new RegExp(`${key} must be`)]);
    }
  }
  // KV heads that do not divide the query heads: repeat_kv cannot group them
  assertThrowsPosenc(() => pe.fromConfig({ ...glm, num_key_value_heads: 7 }), [/num_key_value_heads must be/]);
});

/** modeling_ernie4_5.py apply_rotary_pos_emb, written out in float64 on x [length][heads][dim]:
 * emb = cat(freqs, freqs); cos = cos(emb)[..., :dim / 2].repeat_interleave(2) (sin likewise);
 * rotate_half(x) = stack((-x[..., 1::2], x[..., 0::2]), -1).flatten(-2); q · cos + rotate_half(q) · sin. */
function ernieRotate(x, { length, heads, dim, inv, offset }) {
  const out = Float64Array.from(x);
  for (let t = 0; t < length; t++) {
    const emb = [...inv, ...inv].map((f) => (t + offset) * f);
    const cos = emb.slice(0, dim / 2).flatMap((a) => [Math.cos(a), Math.cos(a)]);
    const sin = emb.slice(0, dim / 2).flatMap((a) => [Math.sin(a), Math.sin(a)]);
    for (let h = 0; h < heads; h++) {
      const o = (t * heads + h) * dim;
      const q = Array.from(x.subarray(o, o + dim));
      const rot = Array.from({ length: dim / 2 }, (_, i) => [-q[2 * i + 1], q[2 * i]]).flat();
      for (let j = 0; j < dim; j++) out[o + j] = q[j] * cos[j] + rot[j] * sin[j];
    }
  }
  return out;
}

test('ERNIE 4.5 (baidu/ERNIE-4.5-0.3B-PT): adjacent pairs over the whole 128-wide head, base 5e5, 16/2 heads', async () => {
  const [{ pe }] = await backends();
  const cfg = load('ernie-4.5-0.3b-pt');
  // Ernie4_5RotaryEmbedding: ROPE_INIT_FUNCTIONS['default'] over head_dim 128, base rope_theta 500000
  const inv = hfInvFreq(5e5, 128);
  for (let layer = 0; layer < cfg.num_hidden_layers; layer++) {
    const s = pe.fromConfig(cfg, { layer });
    assert.equal(s.family, 'rope');
    assert.equal(s.layerType, 'full_attention');
    // Ernie4_5Attention: head_dim from the config, scaling = head_dim**-0.5, no sliding window
    assert.deepEqual(s.attention, { heads: 16, kvHeads: 2, dim: 128, scale: 128 ** -0.5 });
    assert.deepEqual(s.rope, { dim: 128, base: 5e5, layout: 'interleaved' });
    assert.ok(maxRel(pe.ropeFrequencies(s.rope).invFreq64, inv) < 1e-12, `layer ${layer} inv_freq`);
  }
  const s = pe.fromConfig(cfg);
  assert.deepEqual(s.notes, []);
  await drive(s, inv, 'ernie4_5');
  // applyRope against apply_rotary_pos_emb as modeling_ernie4_5.py computes it (not refRotate)
  for (const { name, pe: p } of await backends()) {
    const x = randomF32(3 * 16 * 128, 21);
    const got = p.applyRope(Float32Array.from(x), { length: 3, heads: 16, offset: 5, ...s.rope });
    const want = ernieRotate(x, { length: 3, heads: 16, dim: 128, inv, offset: 5 });
    let err = 0;
    for (let i = 0; i < want.length; i++) err = Math.max(err, Math.abs(got[i] - want[i]));
    assert.ok(err < 2e-5, `${name}: applyRope against ernieRotate, max err ${err}`);
  }
});

test('ERNIE 4.5: Ernie4_5Config defaults and None, keys its code does not read, rope_scaling, a partial rotation refused', async () => {
  const [{ pe }] = await backends();
  const cfg = load('ernie-4.5-0.3b-pt');
  // Ernie4_5Config(): hidden 1024, 16 heads, 2 KV heads, 18 layers, head_dim 128, rope_theta 500000
  const d = pe.fromConfig({ model_type: 'ernie4_5' });
  assert.deepEqual([d.layers, d.attention.heads, d.attention.kvHeads, d.attention.dim], [18, 16, 2, 128]);
  assert.equal(d.rope.base, 5e5);
  assert.equal(d.defaults.rope_theta, 5e5);
  // head_dim None -> hidden_size // num_attention_heads; num_key_value_heads None -> num_attention_heads
  const n = pe.fromConfig({ ...cfg, head_dim: null, num_key_value_heads: null });
  assert.deepEqual(n.attention, { heads: 16, kvHeads: 16, dim: 64, scale: 0.125 });
  assert.equal(n.rope.dim, 64);
  // _compute_default_rope_parameters reads partial_rotary_factor, but apply_rotary_pos_emb multiplies the
  // whole head by cos / sin, so a narrower table fails in HF: refused by name; 1 is the whole head
  assertThrowsPosenc(() => pe.fromConfig({ ...cfg, partial_rotary_factor: 0.5 }), [/partial_rotary_factor must be 1/]);
  assert.equal(pe.fromConfig({ ...cfg, partial_rotary_factor: 1 }).rope.rotaryDim, undefined);
  // keys Ernie4_5Config and Ernie4_5Attention never read: noted, nothing changes
  for (const [k, v] of [
    ['sliding_window', 128],
    ['rotary_dim', 64],
    ['rotary_pct', 0.5],
    ['rotary_emb_base', 1e4],
  ]) {
    const { rope_theta: _, ...noTheta } = cfg;
    const s = pe.fromConfig({ ...noTheta, [k]: v });
    assert.deepEqual(s.rope, { dim: 128, base: 5e5, layout: 'interleaved' }, k);
    assert.equal(s.attention.window, undefined, k);
    assert.ok(
      s.notes.some((t) => t.startsWith(`${k} = ${v} is ignored`)),
      `${k}: ${s.notes}`,
    );
  }
  // Ernie4_5RotaryEmbedding: rope_scaling through ROPE_INIT_FUNCTIONS (linear: inv / factor)
  const lin = pe.fromConfig({ ...cfg, rope_scaling: { rope_type: 'linear', factor: 4 } });
  const inv = hfInvFreq(5e5, 128).map((f) => f / 4);
  assert.ok(maxRel(pe.ropeFrequencies(lin.rope).invFreq64, inv) < 1e-12, 'linear ×4');
  // base ** x with None fails: refused, not defaulted; non-finite values refused naming the key
  assertThrowsPosenc(() => pe.fromConfig({ ...cfg, rope_theta: null }), [/rope_theta must be a number/]);
  for (const key of ['rope_theta', 'head_dim', 'num_key_value_heads', 'num_attention_heads']) {
    for (const v of [Number.NaN, Number.NEGATIVE_INFINITY]) {
      assertThrowsPosenc(() => pe.fromConfig({ ...cfg, [key]: v }), [new RegExp(`${key} must be`)]);
    }
  }
  assertThrowsPosenc(() => pe.fromConfig({ ...cfg, num_key_value_heads: 3 }), [/num_key_value_heads must be/]);
});
