// The mapped rows re-read against the Hugging Face configuration classes they cite: each config
// class's __init__ / dataclass defaults fill the keys a real config.json omits, and a config the
// class would raise for is refused by name (families/config/models.md, "Evidence").
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { load } from '../../tests/config_fixtures.js';
import { assertThrowsPosenc, backends } from '../../tests/helpers.js';

/** Fixture `name` without `keys`. */
function without(name, ...keys) {
  const c = load(name);
  for (const k of keys) delete c[k];
  return c;
}

const SIZES = ['hidden_size', 'num_attention_heads', 'num_key_value_heads'];

// [fixture, keys removed, heads, kvHeads, head width, the class's defaults that fill them]
const CLASS_DEFAULTS = [
  // Olmo2Config(hidden_size=4096, num_attention_heads=32, num_key_value_heads=None -> heads)
  ['olmo-2-7b', SIZES, 32, 32, 128],
  // GraniteConfig(hidden_size=4096, num_attention_heads=32); the file's num_key_value_heads 8 stays
  ['granite-3.3-8b-instruct', ['hidden_size', 'num_attention_heads'], 32, 8, 128],
  // CohereConfig(hidden_size=8192, num_attention_heads=64, num_key_value_heads=None)
  ['aya-23-8b', SIZES, 64, 64, 128],
  // GPTNeoXConfig(hidden_size=6144, num_attention_heads=64)
  ['redpajama-3b', ['hidden_size', 'num_attention_heads'], 64, 64, 96],
  // Qwen3Config(num_attention_heads=32, num_key_value_heads=32, head_dim=128)
  ['qwen3-1.7b', [...SIZES, 'head_dim'], 32, 32, 128],
  // Qwen2MoeConfig(hidden_size=2048, num_attention_heads=16, num_key_value_heads=16)
  ['qwen1.5-moe-a2.7b', SIZES, 16, 16, 128],
  // SmolLM3Config(hidden_size=2048, num_attention_heads=16, num_key_value_heads=4)
  ['smollm3-3b', SIZES, 16, 4, 128],
  // StableLmConfig(hidden_size=2560, num_attention_heads=32, num_key_value_heads=32)
  ['stablelm-2-zephyr-1.6b', SIZES, 32, 32, 80],
  // PhiConfig(hidden_size=2048, num_attention_heads=32, partial_rotary_factor 0.5)
  ['phi-2-hf', [...SIZES, 'partial_rotary_factor'], 32, 32, 64],
  // Phi3Config(hidden_size=3072, num_attention_heads=32, num_key_value_heads=None)
  ['phi-3.5-mini', SIZES, 32, 32, 96],
  // GemmaConfig(hidden_size=3072, num_attention_heads=16, num_key_value_heads=16, head_dim=256)
  ['gemma-2b', [...SIZES, 'head_dim'], 16, 16, 256],
  // DeepseekV3Config(hidden_size=7168, num_attention_heads=128, num_key_value_heads=128)
  ['deepseek-v3', SIZES, 128, 128, 192],
  // BertConfig(hidden_size=768, num_attention_heads=12)
  ['bert-base-uncased', SIZES, 12, 12, 64],
];

test('a config.json that omits its sizes takes the config class defaults, as Hugging Face does', async () => {
  const [{ pe }] = await backends();
  for (const [name, keys, heads, kvHeads, dim] of CLASS_DEFAULTS) {
    const s = pe.fromConfig(without(name, ...keys));
    const { heads: h, kvHeads: kv, dim: d } = s.attention;
    assert.deepEqual({ h, kv, d }, { h: heads, kv: kvHeads, d: dim }, name);
    for (const k of keys) assert.ok(!Object.hasOwn(s.source, k), `${name}: ${k} is not in the file`);
    assert.ok(
      keys.some((k) => Object.hasOwn(s.defaults, k)),
      `${name}: the class defaults used are listed`,
    );
  }
});

test('GemmaConfig defaults num_key_value_heads to 16, not to the head count', async () => {
  const [{ pe }] = await backends();
  // google/gemma-2b has 8 heads and 1 KV head: without the key, HF's 16 KV heads do not divide 8
  assertThrowsPosenc(() => pe.fromConfig(without('gemma-2b', 'num_key_value_heads')), [/num_key_value_heads/]);
  const c = { ...without('gemma-2b', 'num_key_value_heads'), num_attention_heads: 16 };
  assert.equal(pe.fromConfig(c).attention.kvHeads, 16);
});

test('DeepseekV2Config defaults the MLA widths (qk_rope 64, qk_nope 128, v 128)', async () => {
  const [{ pe }] = await backends();
  // deepseek-ai/DeepSeek-V2-Lite's config.json carries exactly the class defaults
  const full = pe.fromConfig(load('deepseek-v2-lite'));
  const bare = pe.fromConfig(without('deepseek-v2-lite', 'qk_rope_head_dim', 'qk_nope_head_dim', 'v_head_dim'));
  assert.deepEqual(bare.rope, full.rope);
  assert.deepEqual(bare.attention, full.attention);
  assert.equal(bare.attention.dim, 192);
  assert.equal(bare.rope.dim, 64);
});

test('Phi3Config raises for a rope type other than longrope (or default): refused by name', async () => {
  const [{ pe }] = await backends();
  for (const rs of [
    { type: 'linear', factor: 2 },
    { rope_type: 'dynamic', factor: 2 },
    { rope_type: 'llama3', factor: 8, low_freq_factor: 1, high_freq_factor: 4, original_max_position_embeddings: 4096 },
  ]) {
    const key = rs.rope_type ? 'rope_scaling.rope_type' : 'rope_scaling.type';
    const e = assertThrowsPosenc(
      () => pe.fromConfig({ ...load('phi-4-mini'), rope_scaling: rs }),
      [/Phi3Config raises/],
    );
    assert.equal(e.argument, key);
  }
  // 'yarn' and 'su' are Phi3Config's older names for longrope
  const phi = load('phi-3.5-mini');
  assert.equal(
    pe.fromConfig({ ...phi, rope_scaling: { ...phi.rope_scaling, type: 'su' } }).rope.scaling.type,
    'longrope',
  );
});

test('OPTConfig defaults: 12 heads, max_position_embeddings 2048 (+ offset 2)', async () => {
  const [{ pe }] = await backends();
  const s = pe.fromConfig(without('opt-125m', 'num_attention_heads', 'max_position_embeddings'));
  assert.equal(s.attention.heads, 12);
  assert.equal(s.learned.rows, 2050);
  assert.equal(s.learned.offset, 2);
});

test('Exaone4Config without a window and without layer_types fails ((i + 1) % 0): refused by name', async () => {
  const [{ pe }] = await backends();
  // LGAI-EXAONE/EXAONE-4.0-1.2B: sliding_window null, layer_types all full_attention
  const c = load('exaone-4.0-1.2b-w4');
  assert.equal(pe.fromConfig(c, { layer: 3 }).family, 'rope');
  const { layer_types, ...bare } = c;
  const e = assertThrowsPosenc(() => pe.fromConfig(bare, { layer: 3 }), [/Exaone4Config/]);
  assert.equal(e.argument, 'sliding_window');
});

test('GptOssConfig defaults num_hidden_layers 36 (its layer_types alternate over them)', async () => {
  const [{ pe }] = await backends();
  const { num_hidden_layers, layer_types, ...c } = load('gpt-oss-20b');
  const s = pe.fromConfig(c, { layer: 35 });
  assert.equal(s.layers, 36);
  assert.equal(s.layerType, 'full_attention');
  assert.equal(pe.fromConfig(c, { layer: 34 }).attention.window, 128);
});

test('None where the config class computes with it is refused naming the key, not read as omitted', async () => {
  const [{ pe }] = await backends();
  const cases = [
    // DeepseekV3Config: qk_head_dim = qk_nope_head_dim + qk_rope_head_dim (None + 64 fails)
    ['deepseek-r1', 'qk_nope_head_dim'],
    ['deepseek-r1', 'qk_rope_head_dim'],
    ['deepseek-r1', 'v_head_dim'],
    // range(num_hidden_layers), hidden_size // num_attention_heads
    ['all-mpnet-base-v2', 'num_hidden_layers'],
    ['biomedlm', 'n_layer'],
    ['llama-3.1-8b', 'hidden_size'],
    // Gemma2Config / Gemma3TextConfig / Qwen3Config keep head_dim = None: head_dim**-0.5 fails
    ['gemma-2-2b', 'head_dim'],
    ['gemma-3-1b', 'head_dim'],
    ['qwen3-1.7b', 'head_dim'],
  ];
  for (const [name, key] of cases) {
    const e = assertThrowsPosenc(() => pe.fromConfig({ ...load(name), [key]: null }), [/None/], undefined);
    assert.equal(e.argument, key, `${name} ${key}`);
  }
  // LlamaConfig: head_dim None -> hidden_size // num_attention_heads
  assert.equal(pe.fromConfig({ ...load('llama-3.1-8b'), head_dim: null }).attention.dim, 128);
});

test('RobertaConfig / XLMRobertaConfig defaults (BERT-base sizes, pad_token_id 1); pad_token_id None fails', async () => {
  const [{ pe }] = await backends();
  for (const name of ['roberta-large-32k', 'xlm-roberta-large-qa-ru']) {
    const keys = ['hidden_size', 'num_attention_heads', 'max_position_embeddings', 'pad_token_id'];
    const s = pe.fromConfig(without(name, ...keys));
    assert.deepEqual(
      { heads: s.attention.heads, dim: s.attention.dim, learned: s.learned },
      { heads: 12, dim: 64, learned: { rows: 512, offset: 2 } },
      name,
    );
    // create_position_ids_from_input_ids: input_ids.ne(padding_idx) with padding_idx None fails
    const e = assertThrowsPosenc(() => pe.fromConfig({ ...load(name), pad_token_id: null }));
    assert.equal(e.argument, 'pad_token_id');
  }
});

test('Gemma3TextConfig.use_bidirectional_attention (EmbeddingGemma): window // 2 + 1 both ways, by truthiness', async () => {
  const [{ pe }] = await backends();
  // Gemma3TextConfig.__post_init__: if self.use_bidirectional_attention: sliding_window = sliding_window // 2 + 1
  const g = load('gemma-3-1b');
  assert.equal(pe.fromConfig(g).attention.window, 512);
  for (const on of [true, 1, 'yes']) {
    const s = pe.fromConfig({ ...g, use_bidirectional_attention: on });
    assert.equal(s.attention.window, 257);
    assert.ok(s.notes.some((n) => n.includes('causal: false')));
  }
  for (const off of [false, 0, null, '']) {
    assert.equal(pe.fromConfig({ ...g, use_bidirectional_attention: off }).attention.window, 512);
  }
  // GemmaConfig reads it too (is_causal = not use_bidirectional_attention): no window to halve
  const s = pe.fromConfig({ ...load('gemma-2b'), use_bidirectional_attention: true });
  assert.equal(s.attention.window, undefined);
  assert.ok(s.notes.some((n) => n.includes('causal: false')));
});

test('Qwen2Config compares i >= max_window_layers only with a window: None fails there alone', async () => {
  const [{ pe }] = await backends();
  const q = { ...load('qwen2.5-3b'), max_window_layers: null };
  assert.equal(pe.fromConfig(q, { layer: 35 }).attention.window, undefined); // use_sliding_window false
  const on = { ...q, use_sliding_window: true, sliding_window: 4096 };
  const e = assertThrowsPosenc(() => pe.fromConfig(on, { layer: 35 }));
  assert.equal(e.argument, 'max_window_layers');
});

test('Gemma 3, Llama 4, Qwen-VL, Qwen3.5, GLM-4.5V: the class builds text_config with its own text class', async () => {
  const [{ pe }] = await backends();
  // Gemma3Config.__init__: Gemma3TextConfig(**text_config); Llama4Config: Llama4TextConfig(**text_config);
  // Qwen2_5_VLConfig, Qwen3_5Config, Glm4vMoeConfig: self.sub_configs["text_config"](**text_config)
  const rows = [
    ['gemma-3-4b', 'gemma3_text'],
    ['llama-4-scout', 'llama4_text'],
    ['qwen2.5-vl-7b', 'qwen2_5_vl_text'],
    ['qwen3.5-0.8b-base', 'qwen3_5_text'],
    ['glm-4.5v', 'glm4v_moe_text'],
    // CLIPConfig / SiglipConfig: CLIPTextConfig(**text_config), SiglipTextConfig(**text_config)
    ['clip-vit-base-patch32', 'clip_text_model'],
    ['siglip-image-classifier', 'siglip_text_model'],
  ];
  for (const [name, text] of rows) {
    const c = load(name);
    const att = (x) => ({ ...x.attention, queryScale: x.attention.queryScale?.formula });
    const want = att(pe.fromConfig(c, { layer: 3 }));
    for (const given of ['llama', 'mistral', null]) {
      const s = pe.fromConfig({ ...c, text_config: { ...c.text_config, model_type: given } }, { layer: 3 });
      assert.equal(s.model, text, `${name} with text_config.model_type ${given}`);
      assert.deepEqual(att(s), want, name);
      assert.ok(
        s.notes.some((n) => n.includes('text_config.model_type') && n.includes('not read')),
        name,
      );
    }
  }
  // the LLaVA classes look text_config.model_type up (CONFIG_MAPPING): a mistral text model stays mistral
  const l = load('llava-1.5-7b');
  assert.equal(pe.fromConfig({ ...l, text_config: { ...l.text_config, model_type: 'mistral' } }).model, 'mistral');
});

test('LlavaConfig, LlavaNextConfig, Mistral3Config: text_config.model_type present with None fails the lookup', async () => {
  const [{ pe }] = await backends();
  // text_config["model_type"] = text_config.get("model_type", "llama"): a None stays None, and
  // CONFIG_MAPPING[None] raises; an absent key takes the class's own text type
  for (const [name, text] of [
    ['llava-1.5-7b', 'llama'],
    ['llava-v1.6-mistral-7b', 'mistral'],
    ['mistral-small-3-flux2-te', 'mistral'],
  ]) {
    const c = load(name);
    const e = assertThrowsPosenc(() => pe.fromConfig({ ...c, text_config: { ...c.text_config, model_type: null } }));
    assert.equal(e.argument, 'text_config.model_type', name);
    assert.equal(pe.fromConfig(c).model, text, name);
  }
});

test("Baichuan 7B's remote code: base 10000 always, no scaling, one K/V head per head", async () => {
  const [{ pe }] = await backends();
  // modeling_baichuan.py (Baichuan2-7B) Attention: RotaryEmbedding(head_dim, max_position_embeddings)
  // with its default base=10000; W_pack = nn.Linear(hidden_size, 3 * hidden_size)
  const c = load('baichuan2-7b');
  const want = pe.fromConfig(c);
  assert.deepEqual(want.rope, { dim: 128, base: 10000, layout: 'half' });
  for (const [key, value] of [
    ['rope_theta', 500000],
    ['rope_scaling', { type: 'linear', factor: 2 }],
    ['rope_parameters', { rope_type: 'yarn', factor: 4, rope_theta: 1e6 }],
    ['num_key_value_heads', 8],
  ]) {
    const s = pe.fromConfig({ ...c, [key]: value });
    assert.deepEqual(s.rope, want.rope, key);
    assert.equal(s.attention.kvHeads, 32, key);
    assert.ok(
      s.notes.some((n) => n.startsWith(`${key} = `) && n.includes('ignored')),
      key,
    );
  }
});

test('InternLM2 / MiniCPM remote code: rope_scaling exactly { type: linear | dynamic, factor }, no rope_parameters', async () => {
  const [{ pe }] = await backends();
  // InternLM2Config._rope_scaling_validation: a dict of two fields, type in ['linear', 'dynamic'],
  // factor >= 1; InternLM2Attention._init_rope reads rope_scaling['type'] and ['factor'] only
  const c = load('internlm2.5-7b');
  for (const [rs, key] of [
    [{ type: 'yarn', factor: 2 }, 'rope_scaling.type'],
    [{ rope_type: 'dynamic', factor: 2 }, 'rope_scaling.type'],
    [{ type: 'dynamic', factor: 0.5 }, 'rope_scaling.factor'],
    [{ type: 'dynamic', factor: 2, original_max_position_embeddings: 4096 }, 'rope_scaling'],
  ]) {
    const e = assertThrowsPosenc(() => pe.fromConfig({ ...c, rope_scaling: rs }));
    assert.equal(e.argument, key, JSON.stringify(rs));
  }
  // the remote code predates transformers 5: rope_parameters is not read, and posenc does not guess
  const e = assertThrowsPosenc(() =>
    pe.fromConfig({ ...load('internlm2-7b'), rope_parameters: { rope_type: 'yarn' } }),
  );
  assert.equal(e.argument, 'rope_parameters');
  // the dynamic table is kept across calls (register_buffer): noted
  for (const name of ['internlm2.5-7b', 'minicpm-2b']) {
    const s = pe.fromConfig(load(name));
    assert.equal(s.rope.scaling.type, 'dynamic', name);
    assert.ok(
      s.notes.some((n) => n.includes('register_buffer')),
      name,
    );
  }
  // ChatGLM's remote code reads rope_ratio, not rope_scaling: refused rather than applied
  const g = assertThrowsPosenc(() =>
    pe.fromConfig({ ...load('chatglm3-6b'), rope_scaling: { type: 'linear', factor: 2 } }),
  );
  assert.equal(g.argument, 'rope_scaling');
});

test("Qwen 1's remote QWenAttention: one K/V head per head, 1/sqrt(head_dim) always", async () => {
  const [{ pe }] = await backends();
  // modeling_qwen.py QWenAttention: c_attn = nn.Linear(hidden, 3 * projection_size), keys and values
  // split into num_heads; self.scale_attn_weights = True whatever the config says
  const c = load('qwen-1.8b');
  for (const [key, value] of [
    ['num_key_value_heads', 4],
    ['scale_attn_weights', false],
  ]) {
    const s = pe.fromConfig({ ...c, [key]: value });
    assert.deepEqual(s.attention, {
      heads: 16,
      kvHeads: 16,
      dim: 128,
      scale: 128 ** -0.5,
      queryScale: s.attention.queryScale,
    });
    // the notes loop passes over false values; a set key that is not read is noted
    if (value !== false)
      assert.ok(
        s.notes.some((n) => n.startsWith(`${key} = `) && n.includes('ignored')),
        key,
      );
  }
});

test("phi-msft's remote MHA: base 10000 always, n_head_kv K/V heads", async () => {
  const [{ pe }] = await backends();
  // modeling_phi.py (phi-2): ParallelBlock -> MHA(config, layer_idx), rotary_base=10000.0 default;
  // _find_mha_dims: n_head_kv = getattr(config, "n_head_kv", None) or n_head
  const c = load('phi-2');
  const want = pe.fromConfig(c);
  assert.deepEqual(want.rope, { dim: 80, base: 10000, layout: 'half', rotaryDim: 32 });
  assert.equal(want.attention.kvHeads, 32);
  assert.equal(pe.fromConfig({ ...c, n_head_kv: 8 }).attention.kvHeads, 8);
  for (const key of ['rope_theta', 'rotary_base']) {
    const s = pe.fromConfig({ ...c, [key]: 500000 });
    assert.deepEqual(s.rope, want.rope, key);
    assert.ok(
      s.notes.some((n) => n.startsWith(`${key} = `) && n.includes('ignored')),
      key,
    );
  }
});
