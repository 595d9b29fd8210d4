// Real published config.json files of mapped model types that the fromConfig tables were not
// written against (tests/fixtures/configs/, sources in SOURCES.json): every layer of each against a
// float64 reading of the Hugging Face code, independent of js/config.js and js/models.js. Paths are
// under src/transformers/models/ of huggingface/transformers unless they say remote code.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { load, refRotate } from './config_fixtures.js';
import { backends, randomF32 } from './helpers.js';

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
  const kvHeads = c.num_key_value_heads ?? heads;
  // head_dim: Gemma2Config / Qwen3Config carry it; StableLm, InternLM2, MiniCPM compute hidden // heads
  const readsHeadDim = !['stablelm', 'internlm2', 'minicpm'].includes(t);
  const dim = (readsHeadDim ? c.head_dim : undefined) ?? c.hidden_size / heads;
  const rot = t === 'stablelm' ? Math.trunc((c.partial_rotary_factor ?? 0.25) * dim) : dim;
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
  const base = c.rope_theta ?? 10000;
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
