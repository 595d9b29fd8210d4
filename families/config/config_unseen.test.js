// Real published config.json files of mapped model types that the fromConfig tables were not
// written against (tests/fixtures/configs/, sources in SOURCES.json): every layer of each against a
// float64 reading of the Hugging Face code, independent of families/config/config.js and families/config/models.js. Paths are
// under src/transformers/models/ of huggingface/transformers unless they say remote code.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { load, refRotate } from '../../tests/config_fixtures.js';
import { backends, randomF32 } from '../../tests/helpers.js';

/** The fixtures this file owns, and the HF code each is read against. */
const UNSEEN = {
  'codellama-34b': 'llama/modeling_llama.py LlamaAttention (head_dim = hidden // heads), GQA 64/8, rope_theta 1e6',
  'llama-2-70b': 'llama/configuration_llama.py LlamaConfig (rope_theta default 10000), GQA 64/8',
  'llama-3.1-70b': 'modeling_rope_utils.py _compute_llama3_parameters',
  'smollm-135m': 'llama: 9 heads over 3 KV heads',
  'smollm2-360m': 'llama: 15/5 heads, rope_theta 1e5, rope_interleaved (not a LlamaConfig key)',
  'tinyllama-1.1b-v0.4': 'llama: 32/4 heads',
  'mistral-7b-v0.3': 'mistral/modeling_mistral.py: sliding_window null -> create_causal_mask (no window)',
  'phi-3-mini-4k': 'phi3/modeling_phi3.py Phi3Model.forward: sliding mask on every layer when sliding_window is set',
  'qwen2-0.5b': 'qwen2/configuration_qwen2.py: sliding_window = sliding_window if use_sliding_window else None',
  'qwen2-7b': 'as qwen2-0.5b (sliding_window 131072 with use_sliding_window false)',
  'qwen3-0.6b': 'qwen3/modeling_qwen3.py Qwen3Attention: head_dim 128 from the config, not 1024 / 16',
  'gemma-2-9b': 'gemma2/modeling_gemma2.py Gemma2Attention: scaling = query_pre_attn_scalar**-0.5; even layers slide',
  'gemma-2-27b': 'as gemma-2-9b: query_pre_attn_scalar 144 while head_dim is 128',
  'gemma-2-2b-jpn': 'as gemma-2-9b: query_pre_attn_scalar 224 while head_dim is 256',
  'stablelm-3b-4e1t':
    'stablelm/modeling_stablelm.py StableLmAttention: rotary_ndims = int(partial_rotary_factor · head_dim)',
  'olmo-2-13b': 'olmo2/modeling_olmo2.py (LlamaAttention with q/k norms), 40 heads',
  'olmo-2-32b': 'olmo2: 40 heads over 8 KV heads',
  'internlm2-7b': 'remote code modeling_internlm2.py InternLM2Attention (rope_scaling null)',
  'minicpm-2b-sft': 'remote code modeling_minicpm.py (no rope_theta: 10000)',
  'gpt2-medium': 'gpt2/modeling_gpt2.py GPT2Attention (head_dim = embed_dim // num_heads; scale_attn_weights)',
  'falcon-40b-instruct':
    'falcon/modeling_falcon.py FalconAttention: new_decoder_architecture -> num_kv_heads (multi_query ignored)',
  'pythia-14m':
    'gpt_neox/modeling_gpt_neox.py GPTNeoXAttention: rotary_ndims = int(head_size · rotary_pct), rotary_emb_base',
  'gemma-7b': 'gemma/modeling_gemma.py GemmaAttention: head_dim 256 from the config, 16 heads of it over hidden 3072',
};

/** What HF computes for layer `layer` of config c, from its keys and the config classes' defaults. */
function hf(c, layer) {
  const t = c.model_type;
  if (t === 'gpt2') {
    // GPT2Attention: head_dim = embed_dim // num_heads; attn_weights / sqrt(head_dim) (scale_attn_weights
    // default True); scale_attn_by_inverse_layer_idx (default False) divides by layer_idx + 1
    const dim = c.n_embd / c.n_head;
    const inv = c.scale_attn_by_inverse_layer_idx ? layer + 1 : 1;
    return { heads: c.n_head, kvHeads: c.n_head, dim, scale: 1 / Math.sqrt(dim) / inv, rows: c.n_positions ?? 1024 };
  }
  const heads = c.num_attention_heads;
  let kvHeads = c.num_key_value_heads ?? heads;
  // FalconAttention: num_kv_heads if new_decoder_architecture or not multi_query, else 1
  if (t === 'falcon') kvHeads = c.new_decoder_architecture || !c.multi_query ? (c.num_kv_heads ?? heads) : 1;
  // head_dim: Gemma2Config / Qwen3Config carry it; StableLm, GPT-NeoX, Falcon, InternLM2, MiniCPM compute hidden // heads
  const readsHeadDim = !['stablelm', 'gpt_neox', 'falcon', 'internlm2', 'minicpm'].includes(t);
  const dim = (readsHeadDim ? c.head_dim : undefined) ?? c.hidden_size / heads;
  let rot = dim;
  if (t === 'stablelm') rot = Math.trunc((c.partial_rotary_factor ?? 0.25) * dim);
  if (t === 'gpt_neox') rot = Math.trunc((c.rotary_pct ?? 0.25) * dim);
  let window;
  let kind = 'full_attention';
  if (t === 'mistral' || t === 'phi3') window = c.sliding_window ?? undefined;
  if (t === 'qwen2' || t === 'qwen3') {
    const sw = c.use_sliding_window ? c.sliding_window : null;
    if (sw != null && layer >= c.max_window_layers) window = sw;
  }
  if (t === 'gemma2' && layer % 2 === 0) window = c.sliding_window;
  if (window !== undefined) kind = 'sliding_attention';
  const scale = t === 'gemma2' ? c.query_pre_attn_scalar ** -0.5 : dim ** -0.5;
  const base = c.rope_theta ?? c.rotary_emb_base ?? 10000;
  let inv = Array.from({ length: rot / 2 }, (_, i) => 1 / base ** ((2 * i) / rot));
  if (c.rope_scaling?.rope_type === 'llama3') inv = llama3(inv, c.rope_scaling);
  return { heads, kvHeads, dim, scale, window, kind, rot, base, inv };
}

/** modeling_rope_utils.py _compute_llama3_parameters, float64. */
function llama3(inv, rs) {
  const lowW = rs.original_max_position_embeddings / rs.low_freq_factor;
  const highW = rs.original_max_position_embeddings / rs.high_freq_factor;
  return inv.map((f) => {
    const wl = (2 * Math.PI) / f;
    if (wl < highW) return f;
    if (wl > lowW) return f / rs.factor;
    const smooth =
      (rs.original_max_position_embeddings / wl - rs.low_freq_factor) / (rs.high_freq_factor - rs.low_freq_factor);
    return (1 - smooth) * (f / rs.factor) + smooth * f;
  });
}

const rel = (a, b) => Math.abs(a - b) / Math.abs(b);
const layersOf = (c) => c.num_hidden_layers ?? c.n_layer;

test('unseen real configs: every layer matches the HF code (heads, KV heads, width, scale, window, layout, float64 frequencies)', async () => {
  const [{ pe }] = await backends();
  for (const [name, why] of Object.entries(UNSEEN)) {
    const c = load(name);
    for (let layer = 0; layer < layersOf(c); layer++) {
      const s = pe.fromConfig(c, { layer });
      const want = hf(c, layer);
      const at = `${name} layer ${layer} (${why})`;
      assert.equal(s.attention.heads, want.heads, `${at}: heads`);
      assert.equal(s.attention.kvHeads, want.kvHeads, `${at}: kvHeads`);
      assert.equal(s.attention.dim, want.dim, `${at}: dim`);
      assert.ok(rel(s.attention.scale, want.scale) < 1e-15, `${at}: scale ${s.attention.scale} vs ${want.scale}`);
      if (want.rows) {
        assert.equal(s.family, 'learned', at);
        assert.equal(s.learned.rows, want.rows, `${at}: rows`);
        continue;
      }
      assert.equal(s.family, 'rope', at);
      assert.equal(s.attention.window, want.window, `${at}: window`);
      assert.equal(s.layerType, want.kind, `${at}: layer type`);
      assert.equal(s.rope.layout, 'half', `${at}: rotate_half`);
      assert.equal(s.rope.rotaryDim ?? s.rope.dim, want.rot, `${at}: rotated width`);
      assert.equal(s.rope.base, want.base, `${at}: base`);
      if (layer > 1) continue;
      const f = pe.ropeFrequencies(s.rope);
      assert.equal(f.invFreq64.length, want.inv.length, `${at}: pairs`);
      const err = Math.max(...want.inv.map((x, i) => rel(f.invFreq64[i], x)));
      assert.ok(err < 1e-12, `${at}: inv_freq rel err ${err}`);
      assert.equal(f.attentionScale, 1, `${at}: no attention factor`);
    }
  }
});

test('unseen real configs: the result rotates as HF apply_rotary_pos_emb does and drives attention and kvCache', async () => {
  for (const { name: backend, pe } of await backends()) {
    for (const name of Object.keys(UNSEEN)) {
      const c = load(name);
      const s = pe.fromConfig(c, { layer: 0 });
      const { heads, kvHeads, dim } = s.attention;
      const length = 3;
      if (s.rope) {
        const want0 = hf(c, 0);
        const x = randomF32(length * heads * dim, 7);
        const got = pe.applyRope(Float32Array.from(x), { length, heads, ...s.rope, offset: 5 });
        const want = refRotate(x, { length, heads, dim, layout: 'half', inv: want0.inv, angle: (t) => t + 5 });
        let err = 0;
        for (let i = 0; i < want.length; i++) err = Math.max(err, Math.abs(got[i] - want[i]));
        assert.ok(err < 2e-5, `${backend} ${name}: applyRope max err ${err}`);
      }
      const q = randomF32(length * heads * dim, 3);
      const k = randomF32(length * kvHeads * dim, 4);
      const v = randomF32(length * kvHeads * dim, 5);
      const out = pe.attention({ q, k, v, queries: length, keys: length, causal: true, ...s.attention }).output;
      assert.ok(out.length === length * heads * dim && out.every(Number.isFinite), `${backend} ${name}: attention`);
      const cache = pe.kvCache({ ...s.attention, capacity: 8, encoding: s.encoding });
      try {
        cache.append(k, v);
        assert.ok(cache.attend(q).output.every(Number.isFinite), `${backend} ${name}: kvCache`);
      } finally {
        cache.free();
      }
    }
  }
});

// Attention classes that size a head hidden_size // num_attention_heads and read no head_dim key:
// GPT2Attention, GPTBigCodeAttention, GPTNeoSelfAttention, OPTAttention (embed_dim // num_heads),
// BertSelfAttention and RoBERTa's (int(hidden_size / num_attention_heads)), DistilBERT's
// MultiHeadSelfAttention (dim // n_heads), BloomAttention, MptAttention, GPTJAttention and
// CodeGenAttention (embed_dim // num_attention_heads; rotary_dim sizes the rotation), and the remote
// code of Baichuan, InternLM2 and MiniCPM (hidden_size // num_heads).
const HEAD_DIM_UNREAD = {
  gpt2: 'gpt2-medium',
  gpt_bigcode: 'gpt-bigcode-santacoder',
  gpt_neo: 'tinystories-8m',
  opt: 'opt-125m',
  bert: 'bert-base-uncased',
  roberta: 'roberta-large-32k',
  'xlm-roberta': 'xlm-roberta-large-qa-ru',
  distilbert: 'clinicalbert',
  bloom: 'bloom-560m',
  mpt: 'mpt-7b-instruct',
  gptj: 'gpt-j-6b',
  codegen: 'codegen-350m-mono',
  baichuan: 'baichuan2-7b',
  internlm2: 'internlm2-7b',
  minicpm: 'minicpm-2b-sft',
};

/** fromConfig's result without its source map and notes (what a key HF does not read must not move). */
const shape = (s) => JSON.stringify({ ...s, source: undefined, notes: undefined, defaults: undefined });

test('a head_dim, kv_channels or d_kv key the HF attention class does not read changes nothing', async () => {
  const [{ pe }] = await backends();
  for (const [type, name] of Object.entries(HEAD_DIM_UNREAD)) {
    const c = load(name);
    assert.equal(c.model_type, type, name);
    const plain = shape(pe.fromConfig(c));
    for (const key of ['head_dim', 'kv_channels', 'd_kv']) {
      assert.equal(shape(pe.fromConfig({ ...c, [key]: 16 })), plain, `${type} (${name}) with ${key} 16`);
    }
  }
  // LlamaAttention, MistralAttention, Qwen2Attention, Gemma2Attention, StableLmAttention read head_dim
  // (or hidden // heads) and never kv_channels (ChatGLM's) or d_kv (T5's)
  for (const name of [
    'llama-2-70b',
    'mistral-7b-v0.3',
    'qwen2-7b',
    'gemma-2-9b',
    'stablelm-3b-4e1t',
    'phi-3-mini-4k',
  ]) {
    const c = load(name);
    const plain = shape(pe.fromConfig(c));
    for (const key of ['kv_channels', 'd_kv']) {
      assert.equal(shape(pe.fromConfig({ ...c, [key]: 16 })), plain, `${name} with ${key} 16`);
    }
  }
  // ChatGLM's SelfAttention sizes heads by kv_channels alone (remote code modeling_chatglm.py)
  const glm = load('chatglm3-6b');
  assert.equal(shape(pe.fromConfig({ ...glm, head_dim: 16 })), shape(pe.fromConfig(glm)), 'chatglm head_dim');
  assert.equal(pe.fromConfig({ ...glm, kv_channels: 64 }).attention.dim, 64, 'chatglm kv_channels');
});

// StableLm and GPT-NeoX size attention heads hidden_size // num_attention_heads while
// modeling_rope_utils.py _compute_default_rope_parameters sizes the rotation by
// getattr(config, 'head_dim', None) or hidden_size // num_attention_heads: a head_dim that disagrees
// gives two widths. FalconConfig.head_dim is a read-only property, so a head_dim key fails to load.
// Qwen's remote QWenAttention splits heads hidden_size // num_heads and rotates kv_channels.
test('a head_dim that disagrees with hidden_size / heads where HF would use two widths is refused by name', async () => {
  const [{ pe }] = await backends();
  const cases = [
    ['stablelm-3b-4e1t', 'head_dim'],
    ['redpajama-3b', 'head_dim'],
    ['falcon-7b-instruct', 'head_dim'],
    ['qwen-1.8b', 'kv_channels'],
  ];
  for (const [name, key] of cases) {
    const c = load(name);
    const plain = shape(pe.fromConfig(c));
    const { heads, dim } = pe.fromConfig(c).attention;
    assert.equal(shape(pe.fromConfig({ ...c, [key]: dim })), plain, `${name}: an agreeing ${key}`);
    assert.equal(heads * dim, c.hidden_size, name);
    assert.throws(
      () => pe.fromConfig({ ...c, [key]: dim / 2 }),
      (e) => e.name === 'PosencError' && e.message.includes(key),
      `${name}: ${key} ${dim / 2}`,
    );
  }
  // a head_dim beside Qwen's kv_channels is read by neither
  const qwen = load('qwen-1.8b');
  assert.equal(shape(pe.fromConfig({ ...qwen, head_dim: 16 })), shape(pe.fromConfig(qwen)), 'qwen head_dim');
});

// None where the HF code computes with it or builds a mask from it fails there; posenc refuses it
// naming the key instead of reading it as the default or as "no window".
test("null in a key the HF code computes with is refused by name: max_window_layers, a sliding layer's sliding_window, head_dim and Gemma's num_key_value_heads kept as None", async () => {
  const [{ pe }] = await backends();
  const refused = (c, key, layer = 0) =>
    assert.throws(
      () => pe.fromConfig(c, { layer }),
      (e) => e.name === 'PosencError' && e.message.includes(key),
      `${c.model_type} ${key} null, layer ${layer}`,
    );
  // Qwen2Config.layer_types: sliding if sliding_window is not None and i >= max_window_layers (TypeError on None)
  const qwen = { ...load('qwen2-7b'), use_sliding_window: true, max_window_layers: null };
  refused(qwen, 'max_window_layers', 27);
  assert.equal(pe.fromConfig({ ...load('qwen2-7b'), max_window_layers: null }).attention.window, undefined);
  // Gemma2Config.layer_types makes even layers sliding whatever sliding_window is; masking_utils.py
  // create_sliding_window_causal_mask raises "Could not find a `sliding_window` argument in the config"
  const gemma = { ...load('gemma-2-9b'), sliding_window: null };
  refused(gemma, 'sliding_window', 0);
  assert.equal(pe.fromConfig(gemma, { layer: 1 }).attention.window, undefined, 'a full layer needs no window');
  // Mistral / Phi-3: sliding_window None -> create_causal_mask (no window, no error)
  for (const name of ['mistral-7b-v0.3', 'phi-3-mini-4k']) {
    const s = pe.fromConfig({ ...load(name), sliding_window: null });
    assert.equal(s.attention.window, undefined, name);
    assert.equal(s.layerType, 'full_attention', name);
  }
  // Gemma2Config / Qwen3Config store head_dim as given; Qwen2Config, Phi3Config and Olmo2Config have no
  // head_dim parameter (PretrainedConfig sets head_dim = None): getattr(config, 'head_dim', ...) is None
  for (const name of ['gemma-2-9b', 'qwen3-0.6b', 'qwen2-7b', 'phi-3-mini-4k', 'olmo-2-13b']) {
    refused({ ...load(name), head_dim: null }, 'head_dim');
  }
  // GemmaConfig / Gemma2Config store num_key_value_heads as given (v5: num_key_value_heads: int); Llama,
  // Mistral, Qwen2 and Phi-3's config classes turn None into num_attention_heads
  for (const name of ['gemma-7b', 'gemma-2-9b'])
    refused({ ...load(name), num_key_value_heads: null }, 'num_key_value_heads');
  for (const name of ['llama-2-70b', 'mistral-7b-v0.3', 'qwen2-7b', 'phi-3-mini-4k']) {
    const c = load(name);
    assert.equal(pe.fromConfig({ ...c, num_key_value_heads: null }).attention.kvHeads, c.num_attention_heads, name);
  }
  // LlamaConfig / MistralConfig: head_dim None -> hidden_size // num_attention_heads
  assert.equal(pe.fromConfig({ ...load('llama-2-70b'), head_dim: null }).attention.dim, 128);
  assert.equal(pe.fromConfig({ ...load('mistral-7b-v0.3'), head_dim: null }).attention.dim, 128);
});

// An omitted key takes the config class's default, not the head count: Qwen3Config and Qwen2Config
// default num_key_value_heads to 32 (None -> num_attention_heads), Qwen2MoeConfig to 16, so Qwen3-0.6B
// without it has 16 heads over 32 KV heads, which Qwen3Attention cannot group (16 // 32 = 0)
test("an omitted num_key_value_heads is the Qwen config classes' default (32, 16), not the head count", async () => {
  const [{ pe }] = await backends();
  const q3 = load('qwen3-0.6b');
  const { num_key_value_heads: _kv, ...noKv } = q3;
  assert.throws(
    () => pe.fromConfig(noKv),
    (e) => e.name === 'PosencError' && e.message.includes('num_key_value_heads'),
    'qwen3 16 heads over the default 32 KV heads',
  );
  const { num_attention_heads: _h, ...bare } = noKv;
  assert.deepEqual(pe.fromConfig(bare).attention, { heads: 32, kvHeads: 32, dim: 128, scale: 128 ** -0.5 });
  assert.equal(pe.fromConfig({ ...noKv, num_key_value_heads: null }).attention.kvHeads, 16, 'None -> heads');
  const moe = load('qwen1.5-moe-a2.7b');
  const { num_key_value_heads: _m, ...moeNoKv } = moe;
  assert.equal(pe.fromConfig(moeNoKv).attention.kvHeads, 16, 'Qwen2MoeConfig default');
});

// GemmaConfig defaults num_key_value_heads to 16 and StableLmConfig to 32 (neither turns an omitted
// one into the head count): 8 heads without it cannot be grouped, and the bare classes are 16/16, 32/32
test("an omitted num_key_value_heads is GemmaConfig's 16 and StableLmConfig's 32", async () => {
  const [{ pe }] = await backends();
  const base = { hidden_size: 1024, num_attention_heads: 8, num_hidden_layers: 4 };
  for (const t of ['gemma', 'stablelm']) {
    assert.throws(
      () => pe.fromConfig({ model_type: t, ...base }),
      (e) => e.name === 'PosencError' && e.message.includes('num_key_value_heads'),
      t,
    );
  }
  assert.deepEqual(pe.fromConfig({ model_type: 'gemma' }).attention, {
    heads: 16,
    kvHeads: 16,
    dim: 256,
    scale: 1 / 16,
  });
  const s = pe.fromConfig({ model_type: 'stablelm' });
  assert.deepEqual(s.attention, { heads: 32, kvHeads: 32, dim: 80, scale: 1 / Math.sqrt(80) });
  assert.equal(s.rope.rotaryDim, 20);
});
