// Every model type fromConfig maps has a real published config.json in tests/fixtures/configs/ (its
// source in SOURCES.json), derived from families/config/models.js, not from a hand list; and the fixtures added for
// the types that had none return what their Hugging Face code computes: float64 inverse frequencies
// (1e-12 relative), pairing, per-layer families, windows, KV heads and softmax scales. Paths below
// are under src/transformers/models/ of huggingface/transformers.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { load, NAMES, SOURCES } from '../../tests/config_fixtures.js';
import { MODELS } from './models.js';
import { backends } from '../../tests/helpers.js';

// Mapped types for which no published config.json could be found in any public source searched
// (GitHub code index: mirrors, vendored test fixtures, printed configs; stored web pages). Each
// entry must still be a mapped type without a fixture: the test fails once one gains a fixture, so
// the list can only shrink. Nothing here is invented to fill the gap.
const NO_REAL_FIXTURE = {};

/** The mapped types a fixture exercises: its model_type and, for a wrapper, the text model's, and
 * for a dual-tower one (CLIP, SigLIP) the vision model's ({ tower: 'vision' }; without a
 * vision_config its class defaults, as fromConfig reads it). */
function typesOf(config) {
  const out = [config.model_type];
  const row = MODELS[config.model_type];
  if (row?.family === 'wrapper') out.push(config.text_config?.model_type ?? row.text);
  if (row?.vision) out.push(config.vision_config?.model_type ?? row.vision);
  return out;
}

const maxRel = (a, b) => Math.max(...Array.from(a, (x, i) => Math.abs(x - b[i]) / Math.abs(b[i])));
/** HF's default rope init: inv_freq = 1 / base^(arange(0, dim, 2) / dim), in float64. */
const invFreq = (base, dim) => Array.from({ length: dim / 2 }, (_, i) => 1 / base ** ((2 * i) / dim));

test('every mapped model type has a real config.json fixture, or is listed as having none with the reason', () => {
  const covered = new Map();
  for (const name of NAMES) for (const t of typesOf(load(name))) covered.set(t, [...(covered.get(t) ?? []), name]);
  const missing = Object.keys(MODELS).filter((t) => !covered.has(t) && !(t in NO_REAL_FIXTURE));
  assert.deepEqual(missing, [], `mapped types without a real fixture: ${missing.join(', ')}`);
  for (const t of Object.keys(NO_REAL_FIXTURE)) {
    assert.ok(t in MODELS, `${t} is listed as lacking a fixture but is not a mapped type`);
    assert.ok(!covered.has(t), `${t} now has a fixture (${covered.get(t)}): remove it from NO_REAL_FIXTURE`);
  }
  for (const name of NAMES) assert.ok(typeof load(name).model_type === 'string', `${name}: model_type`);
});

test('SOURCES.json names the source of every fixture, and only of fixtures that exist', () => {
  assert.deepEqual(Object.keys(SOURCES).sort(), NAMES);
  for (const [name, s] of Object.entries(SOURCES)) {
    assert.ok(typeof s.repository === 'string' && s.repository.length > 0, `${name}: repository`);
    assert.ok(typeof s.path === 'string' && s.path.length > 0, `${name}: path`);
    assert.ok(typeof s.note === 'string' && s.note.length > 0, `${name}: note (what was converted, or verbatim)`);
  }
});

test('Qwen3-30B-A3B (qwen3_moe): 48 full layers, θ 1e6 over 128, 4 KV heads; a window on every layer only with use_sliding_window', async () => {
  const [{ pe }] = await backends();
  const c = load('qwen3-30b-a3b');
  // qwen3_moe/modeling_qwen3_moe.py Qwen3MoeAttention.__init__: head_dim = getattr(config, "head_dim", ...),
  // scaling = head_dim**-0.5, sliding_window = getattr(config, "sliding_window", None); rotate_half
  const ref = invFreq(1e6, 128);
  for (let layer = 0; layer < 48; layer++) {
    const s = pe.fromConfig(c, { layer });
    assert.equal(s.family, 'rope');
    assert.equal(s.layerType, 'full_attention');
    assert.deepEqual(s.attention, { heads: 32, kvHeads: 4, dim: 128, scale: 128 ** -0.5 });
    assert.equal(s.rope.layout, 'half');
    assert.equal(s.rope.rotaryDim, undefined);
    assert.equal(s.rope.scaling, undefined);
    if (layer === 0) assert.ok(maxRel(pe.ropeFrequencies(s.rope).invFreq64, ref) < 1e-12);
  }
  // configuration_qwen3_moe.py Qwen3MoeConfig: sliding_window = sliding_window if use_sliding_window else None
  // (Python truthiness); Qwen3MoeModel.forward picks the sliding mask for every layer; max_window_layers unread
  for (const [v, on] of [
    [true, true],
    [1, true],
    ['yes', true],
    [false, false],
    [0, false],
    [null, false],
    ['', false],
  ]) {
    const w = { ...c, use_sliding_window: v, sliding_window: 4096 };
    for (const layer of [0, 47]) {
      assert.equal(pe.fromConfig(w, { layer }).attention.window, on ? 4096 : undefined, `use_sliding_window ${v}`);
    }
  }
  assert.equal(pe.fromConfig({ ...c, use_sliding_window: true }, { layer: 5 }).attention.window, undefined);
});

test('GLM-4.5V (glm4v_moe): text_config, 64 of 128 dims rotated in halves, M-RoPE sections 8/12/12, 8 KV heads', async () => {
  const [{ pe }] = await backends();
  const c = load('glm-4.5v');
  // glm4v_moe/modeling_glm4v_moe.py Glm4vMoeTextAttention: scaling = head_dim**-0.5, no sliding window;
  // apply_multimodal_rotary_pos_emb: rotary_dim = cos.shape[-1] (head_dim · partial_rotary_factor = 64),
  // rotate_half over q[..., :rotary_dim], sections mrope_section * 2; Glm4vMoeTextRotaryEmbedding: default init
  const ref = invFreq(10000, 64);
  for (let layer = 0; layer < 46; layer++) {
    const s = pe.fromConfig(c, { layer });
    assert.equal(s.model, 'glm4v_moe_text');
    assert.equal(s.family, 'rope');
    assert.deepEqual(s.attention, { heads: 96, kvHeads: 8, dim: 128, scale: 128 ** -0.5 });
    assert.equal(s.rope.layout, 'half');
    assert.equal(s.rope.rotaryDim, 64);
    assert.deepEqual(s.rope.mropeSections, [8, 12, 12]);
    assert.equal(s.rope.mropeInterleaved, undefined);
    if (layer === 0) {
      const f = pe.ropeFrequencies(s.rope).invFreq64;
      assert.equal(f.length, 32);
      assert.ok(maxRel(f, ref) < 1e-12);
    }
  }
});

test('Qwen2-VL-7B-Instruct (qwen2_vl, flat file): text model from the top-level keys, 28 full layers, θ 1e6 over 128, M-RoPE 16/24/24, 4 KV heads', async () => {
  const [{ pe }] = await backends();
  const c = load('qwen2-vl-7b-instruct');
  // qwen2_vl/configuration_qwen2_vl.py Qwen2VLConfig.__init__: text_config None -> Qwen2VLTextConfig(**kwargs), the
  // top-level keys; Qwen2VLTextConfig: sliding_window only with use_sliding_window (false here), so every layer
  // is full_attention. modeling_qwen2_vl.py Qwen2VLAttention: scaling = head_dim**-0.5 (head_dim = 3584 // 28);
  // apply_multimodal_rotary_pos_emb: mrope_section * 2 chunks of cos/sin (t, h, w), rotate_half;
  // Qwen2VLRotaryEmbedding: the default inv_freq over head_dim
  const ref = invFreq(1e6, 128);
  for (let layer = 0; layer < 28; layer++) {
    const s = pe.fromConfig(c, { layer });
    assert.equal(s.model, 'qwen2_vl_text');
    assert.equal(s.layerType, 'full_attention');
    assert.deepEqual(s.attention, { heads: 28, kvHeads: 4, dim: 128, scale: 128 ** -0.5 });
    assert.deepEqual(s.rope, { dim: 128, base: 1e6, layout: 'half', mropeSections: [16, 24, 24] });
    if (layer === 0) assert.ok(maxRel(pe.ropeFrequencies(s.rope).invFreq64, ref) < 1e-12);
  }
  assert.ok(pe.fromConfig(c).notes.some((n) => n.includes('builds its text model from the top-level keys')));
  // with use_sliding_window the layers from max_window_layers (28 = all of them) keep full attention
  const w = pe.fromConfig({ ...c, use_sliding_window: true, max_window_layers: 20 }, { layer: 20 });
  assert.equal(w.attention.window, 32768);
  assert.equal(pe.fromConfig({ ...c, use_sliding_window: true }, { layer: 27 }).attention.window, undefined);
});

test('LLaVA-NeXT Mistral 7B (llava_next): the mistral text_config, MistralConfig defaults for the omitted sizes, θ 1e6, no window', async () => {
  const [{ pe }] = await backends();
  const c = load('llava-v1.6-mistral-7b');
  // llava_next/configuration_llava_next.py LlavaNextConfig.__init__: text_config dict ->
  // CONFIG_MAPPING[text_config["model_type"]] (default "llama"); here MistralConfig, whose __init__ defaults
  // give hidden_size 4096, num_attention_heads 32, num_hidden_layers 32. mistral/modeling_mistral.py
  // MistralAttention: head_dim = hidden_size // num_attention_heads, scaling = head_dim**-0.5,
  // sliding_window = config.sliding_window (None here: every layer full); apply_rotary_pos_emb (rotate_half)
  const ref = invFreq(1e6, 128);
  for (let layer = 0; layer < 32; layer++) {
    const s = pe.fromConfig(c, { layer });
    assert.equal(s.model, 'mistral');
    assert.equal(s.layers, 32);
    assert.deepEqual(s.attention, { heads: 32, kvHeads: 8, dim: 128, scale: 128 ** -0.5 });
    assert.deepEqual(s.rope, { dim: 128, base: 1e6, layout: 'half' });
    if (layer === 0) {
      assert.ok(maxRel(pe.ropeFrequencies(s.rope).invFreq64, ref) < 1e-12);
      assert.deepEqual(s.defaults, {
        'text_config.hidden_size': 4096,
        'text_config.num_hidden_layers': 32,
        'text_config.num_attention_heads': 32,
      });
    }
  }
  // a text_config without model_type is a LlamaConfig (LlamaAttention: no window, whatever sliding_window says)
  const { model_type: _, ...text } = c.text_config;
  const l = pe.fromConfig({ ...c, text_config: { ...text, sliding_window: 4096 } });
  assert.equal(l.model, 'llama');
  assert.equal(l.attention.window, undefined);
  // text_config.model_type present with null: LlavaNextConfig looks None up in CONFIG_MAPPING (KeyError)
  assert.throws(
    () => pe.fromConfig({ ...c, text_config: { ...c.text_config, model_type: null } }),
    (e) => e.name === 'PosencError' && e.argument === 'text_config.model_type',
  );
  // no text_config: LlamaConfig() (rope_theta 10000, 32 heads of 128)
  const { text_config: _t, ...bare } = c;
  const d = pe.fromConfig(bare);
  assert.equal(d.model, 'llama');
  assert.deepEqual(d.rope, { dim: 128, base: 10000, layout: 'half' });
});

test('Qwen3.5-0.8B-Base (qwen3_5): linear_attention layers have no positions; every 4th layer θ 1e7, 64 of 256 dims, interleaved M-RoPE', async () => {
  const [{ pe }] = await backends();
  const c = load('qwen3.5-0.8b-base');
  // qwen3_5/modeling_qwen3_5.py Qwen3_5DecoderLayer: layer_types[i] == "linear_attention" -> Gated DeltaNet
  // (no softmax, no RoPE), else Qwen3_5Attention (scaling = head_dim**-0.5, rotate_half over the rotary part,
  // mrope_interleaved sections over the frequencies)
  const ref = invFreq(1e7, 64);
  for (let layer = 0; layer < 24; layer++) {
    const s = pe.fromConfig(c, { layer });
    if (layer % 4 !== 3) {
      assert.equal(s.family, 'none', `layer ${layer}`);
      assert.equal(s.attention, null);
      assert.equal(s.layerType, 'linear_attention');
      continue;
    }
    assert.equal(s.layerType, 'full_attention');
    assert.deepEqual(s.attention, { heads: 8, kvHeads: 2, dim: 256, scale: 1 / 16 });
    assert.equal(s.rope.layout, 'half');
    assert.equal(s.rope.rotaryDim, 64);
    assert.deepEqual(s.rope.mropeSections, [11, 11, 10]);
    assert.equal(s.rope.mropeInterleaved, true);
    assert.ok(maxRel(pe.ropeFrequencies(s.rope).invFreq64, ref) < 1e-12);
  }
});

test('Qwen3-Next-80B-A3B-Instruct (qwen3_next): linear_attention layers have no positions; every 4th layer θ 1e7, 64 of 256 dims in halves, 2 KV heads, no window', async () => {
  const [{ pe }] = await backends();
  const c = load('qwen3-next-80b-a3b-instruct');
  // qwen3_next/configuration_qwen3_next.py Qwen3NextConfig.__post_init__: layer_types None -> "linear_attention"
  // if (i + 1) % full_attention_interval else "full_attention"; partial_rotary_factor default 0.25.
  // modeling_qwen3_next.py Qwen3NextDecoderLayer: linear_attention -> Qwen3NextGatedDeltaNet (no softmax, no
  // RoPE), full_attention -> Qwen3NextAttention (Qwen3MoeAttention: scaling = head_dim**-0.5; `del
  // self.sliding_window`); Qwen3NextRotaryEmbedding.compute_default_rope_parameters: dim = int(head_dim ·
  // partial_rotary_factor), inv_freq = 1 / rope_theta ** (arange(0, dim, 2) / dim); bamba's apply_rotary_pos_emb:
  // rotate_half over q[..., :rotary_dim], the rest passed through
  const ref = invFreq(1e7, 64);
  for (let layer = 0; layer < 48; layer++) {
    const s = pe.fromConfig(c, { layer });
    if (layer % 4 !== 3) {
      assert.equal(s.family, 'none', `layer ${layer}`);
      assert.equal(s.attention, null);
      assert.equal(s.layerType, 'linear_attention');
      continue;
    }
    assert.equal(s.layerType, 'full_attention');
    assert.deepEqual(s.attention, { heads: 16, kvHeads: 2, dim: 256, scale: 1 / 16 });
    assert.deepEqual(s.rope, { dim: 256, base: 1e7, layout: 'half', rotaryDim: 64 });
    assert.ok(maxRel(pe.ropeFrequencies(s.rope).invFreq64, ref) < 1e-12);
  }
  // full_attention_interval decides the kinds when layer_types is absent
  assert.equal(pe.fromConfig({ ...c, full_attention_interval: 2 }, { layer: 1 }).layerType, 'full_attention');
  // Qwen3NextAttention has no window: a sliding_window key is noted and ignored
  const w = pe.fromConfig({ ...c, sliding_window: 4096, use_sliding_window: true }, { layer: 3 });
  assert.equal(w.attention.window, undefined);
  assert.ok(w.notes.some((n) => /sliding_window = 4096 is ignored: Qwen3NextAttention deletes/.test(n)));
  // layer_types may name only what Qwen3NextDecoderLayer builds
  const slide = [...Array(48)].map((_, i) => (i === 0 ? 'sliding_attention' : 'full_attention'));
  assert.throws(
    () => pe.fromConfig({ ...c, layer_types: slide }),
    (e) => e.name === 'PosencError' && e.argument === 'layer_types' && /"sliding_attention" is not one/.test(e.message),
  );
  // a key present with null is None, which these lines compute with (a TypeError in Hugging Face): refused by name.
  // Qwen3NextConfig.__post_init__ kwargs.pop("full_attention_interval", 4) -> None -> (i + 1) % None;
  // Qwen3MoeAttention: num_attention_heads // num_key_value_heads, q_proj width num_heads · head_dim · 2
  for (const k of ['full_attention_interval', 'num_key_value_heads', 'head_dim']) {
    assert.throws(
      () => pe.fromConfig({ ...c, [k]: null }, { layer: 3 }),
      (e) => e.name === 'PosencError' && e.argument === k && /present with null is None/.test(e.message),
      k,
    );
  }
  // with layer_types given, full_attention_interval is never popped: its None is harmless
  const types = [...Array(48)].map((_, i) => ((i + 1) % 4 ? 'linear_attention' : 'full_attention'));
  assert.equal(pe.fromConfig({ ...c, layer_types: types, full_attention_interval: null }, { layer: 3 }).family, 'rope');
  // Qwen3NextConfig defaults: 48 layers, 16 heads of 256, 2 KV heads, rope_theta 10000
  const d = pe.fromConfig({ model_type: 'qwen3_next' }, { layer: 47 });
  assert.equal(d.layers, 48);
  assert.deepEqual(d.attention, { heads: 16, kvHeads: 2, dim: 256, scale: 1 / 16 });
  assert.deepEqual(d.rope, { dim: 256, base: 10000, layout: 'half', rotaryDim: 64 });
});

test('LongT5 tglobal (longt5): the encoder is refused naming encoder_attention_type; the decoder is T5 buckets, scale 1', async () => {
  const [{ pe }] = await backends();
  const c = load('long-t5-tglobal-base-book-summary');
  // longt5/modeling_longt5.py LongT5Block: the encoder's layer is LongT5LayerTransientGlobalSelfAttention
  // (local_radius blocks + global tokens), which posenc does not model
  assert.throws(
    () => pe.fromConfig(c),
    (e) => e.name === 'PosencError' && e.argument === 'encoder_attention_type' && /transient/.test(e.message),
  );
  // the decoder's self-attention is LongT5Attention: _relative_position_bucket(bidirectional=False), no 1/sqrt(d)
  for (let layer = 0; layer < 12; layer++) {
    const s = pe.fromConfig(c, { decoder: true, layer });
    assert.equal(s.family, 't5');
    assert.deepEqual(s.t5, { numBuckets: 32, maxDistance: 128, bidirectional: false });
    assert.deepEqual(s.attention, { heads: 12, kvHeads: 12, dim: 64, scale: 1 });
  }
  assert.equal(pe.fromConfig(c, { decoder: true }).layers, 12);
});

test("T5 family: a key the config omits takes its config class's default (None -> absent), as Hugging Face's from_pretrained does", async () => {
  const [{ pe }] = await backends();
  // __init__ defaults (d_model, d_kv, num_heads, num_layers) of configuration_t5.py T5Config,
  // configuration_mt5.py MT5Config, configuration_umt5.py UMT5Config, configuration_longt5.py
  // LongT5Config; num_decoder_layers
  // None -> num_layers
  const classes = {
    t5: [512, 64, 8, 6],
    mt5: [512, 64, 6, 8],
    umt5: [512, 64, 6, 8],
    longt5: [512, 64, 8, 6],
  };
  for (const [type, [, dKv, heads, layers]] of Object.entries(classes)) {
    // LongT5Config: encoder_attention_type defaults to "local", whose encoder posenc refuses
    const s = pe.fromConfig({ model_type: type }, { decoder: true });
    assert.deepEqual(s.attention, { heads, kvHeads: heads, dim: dKv, scale: 1 }, type);
    assert.equal(s.layers, layers, `${type}: decoder layers = num_layers`);
    assert.equal(s.defaults.num_heads, heads, `${type}: default noted`);
    assert.equal(pe.fromConfig({ model_type: type, num_layers: 3 }, { decoder: true }).layers, 3);
    assert.equal(
      pe.fromConfig({ model_type: type, num_layers: 3, num_decoder_layers: null }, { decoder: true }).layers,
      3,
    );
    assert.equal(pe.fromConfig({ model_type: type, num_heads: 4 }, { decoder: true }).attention.heads, 4);
  }
});

test('CodeGen-350M-mono (codegen): 32 of 64 dims in adjacent pairs, base 10000, 16 heads, 1/√64', async () => {
  const [{ pe }] = await backends();
  const c = load('codegen-350m-mono');
  // codegen/modeling_codegen.py CodeGenAttention.__init__: head_dim = embed_dim // num_attention_heads,
  // scale_attn = sqrt(head_dim), embed_positions = create_sinusoidal_positions(max_positions, rotary_dim):
  // inv_freq = 1 / 10000 ** (arange(0, dim, 2) / dim); forward: rotate_every_two over k[:, :, :, :rotary_dim]
  const ref = invFreq(10000, 32);
  for (let layer = 0; layer < 20; layer++) {
    const s = pe.fromConfig(c, { layer });
    assert.equal(s.family, 'rope');
    assert.deepEqual(s.attention, { heads: 16, kvHeads: 16, dim: 64, scale: 1 / 8 });
    assert.deepEqual(s.rope, { dim: 64, base: 10000, layout: 'interleaved', rotaryDim: 32 });
    if (layer === 0) assert.ok(maxRel(pe.ropeFrequencies(s.rope).invFreq64, ref) < 1e-12);
  }
});

test('num_hidden_layers omitted: a uniform per-layer rule still holds on every layer; a count-dependent one takes the class default or is refused by name', async () => {
  const [{ pe }] = await backends();
  // MistralAttention: sliding_window on every layer, whatever the count
  const { num_hidden_layers: _m, ...mistral } = load('mistral-7b-v0.1');
  for (const layer of [0, 5, 31]) assert.equal(pe.fromConfig(mistral, { layer }).attention.window, 4096);
  // Qwen3MoeConfig: the window (with use_sliding_window) is every layer's
  const { num_hidden_layers: _q, ...qwen3moe } = load('qwen3-30b-a3b');
  const slide = { ...qwen3moe, use_sliding_window: true, sliding_window: 4096 };
  assert.equal(pe.fromConfig(slide, { layer: 7 }).attention.window, 4096);
  // Gemma2Config(num_hidden_layers=26) builds layer_types from the count: even layers slide
  const { num_hidden_layers: _g, ...gemma2 } = load('gemma-2-2b');
  const g0 = pe.fromConfig(gemma2);
  assert.equal(g0.layers, 26);
  assert.equal(g0.attention.window, 4096);
  assert.equal(pe.fromConfig(gemma2, { layer: 1 }).attention.window, undefined);
  // configuration_qwen3_5.py Qwen3_5TextConfig(num_hidden_layers=32, hidden_size=4096, full_attention_interval 4)
  const q = pe.fromConfig({ model_type: 'qwen3_5' });
  assert.equal(q.layers, 32);
  assert.equal(q.layerType, 'linear_attention');
  assert.equal(pe.fromConfig({ model_type: 'qwen3_5' }, { layer: 31 }).layerType, 'full_attention');
});

test('num_key_value_heads omitted takes the config class default, which is not always num_attention_heads', async () => {
  const [{ pe }] = await backends();
  // MistralConfig(num_key_value_heads=8), MixtralConfig(8), Starcoder2Config(2), Gemma2Config(4), Qwen3MoeConfig(4); a key
  // present with null is None, which MistralConfig turns into num_attention_heads
  for (const [name, kv] of [
    ['mistral-7b-v0.1', 8],
    ['mixtral-8x7b', 8],
    ['starcoder2-15b', 2],
    ['gemma-2-2b', 4],
    ['qwen3-30b-a3b', 4],
  ]) {
    const { num_key_value_heads: _, ...c } = load(name);
    const s = pe.fromConfig(c);
    assert.equal(s.attention.kvHeads, kv, name);
    assert.equal(s.defaults.num_key_value_heads, kv, `${name}: the default is listed`);
  }
  assert.equal(pe.fromConfig({ ...load('mistral-7b-v0.1'), num_key_value_heads: null }).attention.kvHeads, 32);
  // Qwen2_5_VLTextConfig(num_key_value_heads=8): the 7B text_config (28 heads) without its KV count has 8,
  // which 28 query heads cannot share (repeat_kv by 28 // 8 = 3): refused naming the key
  const vl = load('qwen2.5-vl-7b');
  const { num_key_value_heads: _v, ...text } = vl.text_config;
  assert.throws(
    () => pe.fromConfig({ ...vl, text_config: text }),
    (e) => e.name === 'PosencError' && e.argument === 'text_config.num_key_value_heads' && /\(got 8\)/.test(e.message),
  );
  // Qwen2Config(num_key_value_heads=32): a 16-head config without the key has 32 KV heads, which no
  // attention can take (num_attention_heads // num_key_value_heads = 0): refused naming the key
  const { num_key_value_heads: _q, ...qwen } = load('qwen2.5-3b');
  assert.throws(
    () => pe.fromConfig(qwen),
    (e) => e.name === 'PosencError' && e.argument === 'num_key_value_heads',
  );
});
