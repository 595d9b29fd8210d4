// fromConfig's encoders, encoder-decoders and vision towers against the Hugging Face code of each
// row (paths under transformers src/transformers/models/): Whisper's sinusoid encoder and learned
// decoder, BART and mBART's offset-2 tables, CamemBERT's padding_idx + 1, CLIP and SigLIP's text
// and vision towers; the types refused with their reason; every result taken by the consumers.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { load } from '../../tests/config_fixtures.js';
import { assertThrowsPosenc, backends, randomF32 } from '../../tests/helpers.js';

const FIXTURES = {
  'whisper-large-v3': [{}, { decoder: true }],
  'bart-large-cnn': [{}, { decoder: true }],
  'mbart-cc25-mytran': [{}, { decoder: true }],
  'camembert-base-emotexttokids': [{}],
  'clip-vit-base-patch32': [{}, { tower: 'vision' }],
  'siglip-image-classifier': [{}, { tower: 'vision' }],
  'modernbert-large-zeroshot-v2': [{}],
  'all-mpnet-base-v2': [{}],
};

/** modeling_whisper.py sinusoids(length, channels): inv_timescales in float64. */
function whisperInvTimescales(channels) {
  const inc = Math.log(10000) / (channels / 2 - 1);
  return Array.from({ length: channels / 2 }, (_, i) => Math.exp(-inc * i));
}

const maxRel = (a, b) => Math.max(...Array.from(a, (v, i) => Math.abs(v - b[i]) / Math.abs(b[i])));

test('Whisper encoder: sinusoids() (t2t spacing, sines then cosines), max_source_positions rows, head_dim^-0.5', async () => {
  const [{ pe }] = await backends();
  const c = load('whisper-large-v3');
  const s = pe.fromConfig(c);
  assert.equal(s.family, 'sinusoidal');
  assert.equal(s.stack, 'encoder');
  assert.deepEqual(s.sinusoidal, { dim: 1280, base: 10000, layout: 'split', spacing: 't2t' });
  assert.equal(s.rows, 1500, 'WhisperEncoder.embed_positions = nn.Embedding(max_source_positions, d_model)');
  assert.equal(s.layers, 32, 'encoder_layers');
  // WhisperAttention: head_dim = embed_dim // num_heads, scaling = head_dim**-0.5; no KV grouping
  assert.deepEqual(s.attention, { heads: 20, kvHeads: 20, dim: 64, scale: 0.125 });
  assert.deepEqual(s.encoding, { type: 'none' });
  const { dim, base, spacing } = s.sinusoidal;
  const f = pe.sinusoidalFrequencies({ dim, base, spacing });
  const ref = whisperInvTimescales(1280);
  assert.equal(f.length, 640);
  assert.ok(maxRel(f, ref) < 1e-12, `inv_timescales rel err ${maxRel(f, ref)}`);
  assert.ok(Math.abs(f[639] * 10000 - 1) < 1e-12, 'the lowest frequency is 1/10000 (t2t, not paper spacing)');
  // the table: row p = [sin(p · w), cos(p · w)], a float32 copy of the float64 values
  const t = pe.sinusoidal({ length: s.rows, ...s.sinusoidal });
  let err = 0;
  for (const p of [0, 1, 2, 777, 1499]) {
    for (let j = 0; j < 640; j++) {
      err = Math.max(err, Math.abs(t[p * 1280 + j] - Math.sin(p * ref[j])));
      err = Math.max(err, Math.abs(t[p * 1280 + 640 + j] - Math.cos(p * ref[j])));
    }
  }
  assert.ok(err < 1e-6, `table abs err ${err}`);
  // sinusoids(): channels % 2 raises; channels 2 divides by channels // 2 - 1 = 0
  for (const d of [1281, 2]) {
    assertThrowsPosenc(() => pe.fromConfig({ ...c, d_model: d, encoder_attention_heads: 1 }), [/d_model must be/]);
  }
});

test('Whisper decoder: WhisperPositionalEmbedding (max_target_positions rows, position p is row p), its own heads and layers', async () => {
  const [{ pe }] = await backends();
  const c = load('whisper-large-v3');
  const s = pe.fromConfig(c, { decoder: true, layer: 31 });
  assert.equal(s.family, 'learned');
  assert.equal(s.stack, 'decoder');
  assert.deepEqual(s.learned, { rows: 448 }, 'weight[past_key_values_length : ...]: no offset');
  assert.deepEqual(s.attention, { heads: 20, kvHeads: 20, dim: 64, scale: 0.125 });
  assert.throws(
    () => pe.fromConfig(c, { decoder: true, layer: 32 }),
    (e) => e.argument === 'layer',
  );
  // the stacks read their own keys
  const odd = { ...c, decoder_attention_heads: 10, decoder_layers: 2, max_target_positions: 100 };
  const d = pe.fromConfig(odd, { decoder: true });
  assert.equal(d.attention.heads, 10);
  assert.equal(d.attention.dim, 128);
  assert.equal(d.layers, 2);
  assert.equal(d.learned.rows, 100);
  assert.equal(pe.fromConfig(odd).attention.heads, 20, 'the encoder keeps encoder_attention_heads');
  // WhisperConfig.__init__ defaults (tiny): d_model 384, 6 heads, 4 layers, 1500 / 448 positions
  const e = pe.fromConfig({ model_type: 'whisper' });
  assert.equal(e.attention.heads, 6);
  assert.equal(e.attention.dim, 64);
  assert.equal(e.layers, 4);
  assert.equal(e.rows, 1500);
  assert.equal(pe.fromConfig({ model_type: 'whisper' }, { decoder: true }).learned.rows, 448);
});

test('BART and mBART: (Bart|MBart)LearnedPositionalEmbedding, num_embeddings + 2 rows, position p at row p + 2, per-stack heads', async () => {
  const [{ pe }] = await backends();
  const bart = load('bart-large-cnn');
  for (const decoder of [false, true]) {
    const s = pe.fromConfig(bart, { decoder });
    assert.equal(s.family, 'learned');
    assert.equal(s.stack, decoder ? 'decoder' : 'encoder');
    assert.deepEqual(s.learned, { rows: 1026, offset: 2 });
    assert.deepEqual(s.attention, { heads: 16, kvHeads: 16, dim: 64, scale: 0.125 });
    assert.equal(s.layers, 12);
  }
  // a published mBART config with sizes off the class defaults: 8 heads of 128, 3 layers a stack
  const mb = load('mbart-cc25-mytran');
  for (const decoder of [false, true]) {
    const s = pe.fromConfig(mb, { decoder });
    assert.deepEqual(s.learned, { rows: 1026, offset: 2 });
    assert.deepEqual(s.attention, { heads: 8, kvHeads: 8, dim: 128, scale: 1 / Math.sqrt(128) });
    assert.equal(s.layers, 3);
    assert.ok(
      s.notes.some((n) => n.startsWith('scale_embedding:')),
      'scale_embedding noted',
    );
  }
  assert.ok(!pe.fromConfig(bart).notes.some((n) => n.startsWith('scale_embedding')), 'false: not noted');
  // BartConfig / MBartConfig defaults: 1024 positions, d_model 1024, 16 heads, 12 layers
  for (const mt of ['bart', 'mbart']) {
    const s = pe.fromConfig({ model_type: mt }, { decoder: true });
    assert.deepEqual(s.learned, { rows: 1026, offset: 2 });
    assert.equal(s.attention.heads, 16);
    assert.equal(s.attention.dim, 64);
    assert.equal(s.layers, 12);
  }
  assertThrowsPosenc(
    () => pe.fromConfig({ ...bart, encoder_attention_heads: 3 }),
    [/d_model must be a multiple of encoder_attention_heads = 3/],
  );
  // BartAttention: head_dim = embed_dim // num_heads; a head_dim key is not read
  assert.equal(pe.fromConfig({ ...bart, head_dim: 128 }).attention.dim, 64);
});

test('CamemBERT: CamembertEmbeddings as RoBERTa (positions from padding_idx + 1), absolute only', async () => {
  const [{ pe }] = await backends();
  const c = load('camembert-base-emotexttokids');
  const s = pe.fromConfig(c);
  assert.deepEqual(s.learned, { rows: 514, offset: 2 });
  assert.deepEqual(s.attention, { heads: 12, kvHeads: 12, dim: 64, scale: 0.125 });
  assert.equal(pe.fromConfig({ ...c, pad_token_id: 0 }).learned.offset, 1);
  assert.throws(
    () => pe.fromConfig({ ...c, position_embedding_type: 'relative_key' }),
    (e) => e.argument === 'position_embedding_type',
  );
});

test('CLIP: text tower (77 rows, causal) and vision tower ((image_size // patch_size)² + 1 rows)', async () => {
  const [{ pe }] = await backends();
  const c = load('clip-vit-base-patch32');
  const t = pe.fromConfig(c);
  assert.equal(t.model, 'clip_text_model');
  assert.deepEqual(t.learned, { rows: 77 });
  assert.deepEqual(t.attention, { heads: 8, kvHeads: 8, dim: 64, scale: 0.125 });
  assert.ok(t.notes.some((n) => n.includes('causal')));
  assert.ok(t.notes.some((n) => n.includes("{ tower: 'vision' }")));
  const v = pe.fromConfig(c, { tower: 'vision' });
  assert.equal(v.model, 'clip_vision_model');
  assert.deepEqual(v.learned, { rows: 50 }, 'CLIPVisionEmbeddings: num_positions = (224 // 32)² + 1');
  assert.deepEqual(v.attention, { heads: 12, kvHeads: 12, dim: 64, scale: 0.125 });
  assert.ok(v.notes.some((n) => n.includes('class token')));
  assert.equal(v.source['vision_config.patch_size'], 32);
  // ViT-L/14 at 336: (336 // 14)² + 1 = 577; a size that does not divide floors, as // does
  const l14 = { ...c, vision_config: { ...c.vision_config, image_size: 336, patch_size: 14 } };
  assert.equal(pe.fromConfig(l14, { tower: 'vision' }).learned.rows, 577);
  const odd = { ...c, vision_config: { ...c.vision_config, image_size: 230 } };
  assert.equal(pe.fromConfig(odd, { tower: 'vision' }).learned.rows, 50);
  // CLIPConfig without the towers: CLIPTextConfig() and CLIPVisionConfig()
  assert.deepEqual(pe.fromConfig({ model_type: 'clip' }).learned, { rows: 77 });
  assert.equal(pe.fromConfig({ model_type: 'clip' }).attention.dim, 64);
  assert.deepEqual(pe.fromConfig({ model_type: 'clip' }, { tower: 'vision' }).learned, { rows: 50 });
  // a standalone tower config (a diffusion pipeline's text_encoder/config.json)
  const te = { model_type: 'clip_text_model', hidden_size: 1280, num_attention_heads: 20, num_hidden_layers: 32 };
  assert.deepEqual(pe.fromConfig(te).attention, { heads: 20, kvHeads: 20, dim: 64, scale: 0.125 });
  // a tower's own config.json: tower 'vision' is that tower, 'text' is not there
  const vc = { ...c.vision_config };
  assert.deepEqual(pe.fromConfig(vc, { tower: 'vision' }).learned, pe.fromConfig(vc).learned);
  assert.deepEqual(pe.fromConfig(c.text_config, { tower: 'text' }).learned, { rows: 77 });
  // CLIPConfig.__init__: CLIPVisionConfig(**vision_config) whatever its model_type says
  const other = pe.fromConfig(
    { ...c, vision_config: { ...c.vision_config, model_type: 'siglip_vision_model' } },
    { tower: 'vision' },
  );
  assert.equal(other.model, 'clip_vision_model');
  assert.deepEqual(other.learned, pe.fromConfig(c, { tower: 'vision' }).learned);
  assert.ok(other.notes.some((n) => n.includes('vision_config.model_type') && n.includes('not read')));
  for (const [cfg, o, key] of [
    [vc, { tower: 'text' }, 'tower'],
    [c, { tower: 'audio' }, 'tower'],
    [load('bart-large-cnn'), { tower: 'vision' }, 'tower'],
    [{ ...c, vision_config: [1] }, { tower: 'vision' }, 'vision_config'],
    [{ ...c, vision_config: { ...c.vision_config, patch_size: 300 } }, { tower: 'vision' }, 'vision_config.image_size'],
  ]) {
    assert.throws(
      () => pe.fromConfig(cfg, o),
      (e) => e.name === 'PosencError' && e.argument === (key ?? 'vision_config.model_type'),
      JSON.stringify(o),
    );
  }
});

test('SigLIP: text tower (64 rows, no causal mask) and vision tower ((image_size // patch_size)² rows, no class token)', async () => {
  const [{ pe }] = await backends();
  const c = load('siglip-image-classifier');
  const t = pe.fromConfig(c);
  assert.equal(t.model, 'siglip_text_model');
  assert.deepEqual(t.learned, { rows: 64 });
  assert.deepEqual(t.attention, { heads: 12, kvHeads: 12, dim: 64, scale: 0.125 });
  assert.ok(!t.notes.some((n) => n.includes('causal')));
  const v = pe.fromConfig(c, { tower: 'vision' });
  assert.equal(v.model, 'siglip_vision_model');
  assert.deepEqual(v.learned, { rows: 196 }, 'SiglipVisionConfig defaults: (224 // 16)²');
  assert.equal(v.defaults['vision_config.patch_size'], 16);
  // so400m-patch14-384: (384 // 14)² = 729
  const so = { ...c, vision_config: { image_size: 384, patch_size: 14, hidden_size: 1152, num_attention_heads: 16 } };
  assert.deepEqual(pe.fromConfig(so, { tower: 'vision' }).learned, { rows: 729 });
  assert.equal(pe.fromConfig(so, { tower: 'vision' }).attention.dim, 72);
});

/** HF's default inv_freq, 1 / base^(2i / dim), in float64. */
const hfInvFreq = (base, dim) => Array.from({ length: dim / 2 }, (_, i) => 1 / base ** ((2 * i) / dim));

test('ModernBERT: every global_attn_every_n_layers-th layer global (global_rope_theta), the others local (local_rope_theta, |p - j| <= local_attention // 2)', async () => {
  const [{ pe }] = await backends();
  const c = load('modernbert-large-zeroshot-v2');
  for (let layer = 0; layer < c.num_hidden_layers; layer++) {
    const s = pe.fromConfig(c, { layer });
    const local = layer % 3 !== 0; // ModernBertAttention: layer_id % global_attn_every_n_layers != 0
    assert.equal(s.layerType, local ? 'sliding_attention' : 'full_attention', `layer ${layer}`);
    assert.deepEqual(s.rope, { dim: 64, base: local ? 10000 : 160000, layout: 'half' }, `layer ${layer}`);
    // hidden_size // num_attention_heads, head_dim^-0.5; the local window: distance <= 128 // 2
    const att = { heads: 16, kvHeads: 16, dim: 64, scale: 0.125, ...(local ? { window: 65 } : {}) };
    assert.deepEqual(s.attention, att, `layer ${layer}`);
    const f = pe.ropeFrequencies(s.rope).invFreq64;
    assert.ok(maxRel(f, hfInvFreq(s.rope.base, 64)) < 1e-12, `layer ${layer} inv_freq`);
  }
  // transformers 5 form: layer_types and rope_parameters per layer type
  const { global_rope_theta: _g, local_rope_theta: _l, ...v4rest } = c;
  const v5 = {
    ...v4rest,
    layer_types: Array.from({ length: 28 }, (_, i) => (i % 3 ? 'sliding_attention' : 'full_attention')),
    rope_parameters: {
      full_attention: { rope_type: 'default', rope_theta: 160000 },
      sliding_attention: { rope_type: 'default', rope_theta: 10000 },
    },
  };
  for (const layer of [0, 1, 27]) assert.deepEqual(pe.fromConfig(v5, { layer }).rope, pe.fromConfig(c, { layer }).rope);
  // local_rope_theta None: the global base (ModernBertAttention 4.x); ModernBertConfig defaults
  assert.equal(pe.fromConfig({ ...c, local_rope_theta: null }, { layer: 1 }).rope.base, 160000);
  const d = pe.fromConfig({ model_type: 'modernbert' }, { layer: 2 });
  assert.deepEqual([d.rope.base, d.attention.window, d.attention.heads, d.layers], [10000, 65, 12, 22]);
  assert.equal(pe.fromConfig({ ...c, global_attn_every_n_layers: 1 }, { layer: 1 }).attention.window, undefined);
  for (const [k, v] of [
    ['global_attn_every_n_layers', 0],
    ['global_attn_every_n_layers', null],
    ['local_attention', null],
    ['rope_scaling', { rope_type: 'linear', factor: 2 }],
  ]) {
    assert.throws(
      () => pe.fromConfig({ ...c, [k]: v }, { layer: 1 }),
      (e) => e.argument === k,
      `${k} ${v}`,
    );
  }
});

test("ModernBERT's local window in posenc's bidirectional attention is HF's |p - j| <= local_attention // 2 mask", async () => {
  const [{ pe }] = await backends();
  const s = pe.fromConfig({ ...load('modernbert-large-zeroshot-v2'), local_attention: 8 }, { layer: 1 });
  assert.equal(s.attention.window, 5);
  const T = 12;
  const dim = 4;
  const q = randomF32(T * dim, 7);
  const k = randomF32(T * dim, 8);
  const v = randomF32(T * dim, 9);
  const out = pe.attention({ q, k, v, queries: T, heads: 1, dim, causal: false, window: 5, scale: 0.5 }).output;
  for (let i = 0; i < T; i++) {
    // modeling_modernbert.py: window_mask = distance <= local_attention // 2 (4)
    const keys = [...Array(T).keys()].filter((j) => Math.abs(i - j) <= 4);
    const sc = keys.map((j) => 0.5 * [0, 1, 2, 3].reduce((a, c) => a + q[i * dim + c] * k[j * dim + c], 0));
    const m = Math.max(...sc);
    const w = sc.map((x) => Math.exp(x - m));
    const z = w.reduce((a, b) => a + b, 0);
    for (let c = 0; c < dim; c++) {
      const ref = keys.reduce((a, j, n) => a + (w[n] / z) * v[j * dim + c], 0);
      assert.ok(Math.abs(out[i * dim + c] - ref) < 1e-5, `query ${i} channel ${c}`);
    }
  }
});

/** modeling_mpnet.py MPNetEncoder.relative_position_bucket(relative_position, 32, 128), as written there. */
function mpnetBucket(relativePosition, numBuckets = 32, maxDistance = 128) {
  let ret = 0;
  let n = -relativePosition;
  const half = Math.floor(numBuckets / 2);
  if (n < 0) ret += half;
  n = Math.abs(n);
  const maxExact = Math.floor(half / 2);
  if (n < maxExact) return ret + n;
  const large = maxExact + Math.trunc((Math.log(n / maxExact) / Math.log(maxDistance / maxExact)) * (half - maxExact));
  return ret + Math.min(large, half - 1);
}

test('MPNet: a learned table from row 2 (padding_idx 1) plus a T5 bucket bias (32 buckets, max_distance 128) added to q·kᵀ / √d', async () => {
  const [{ pe }] = await backends();
  const c = load('all-mpnet-base-v2');
  for (const layer of [0, 11]) {
    const s = pe.fromConfig(c, { layer });
    assert.equal(s.family, 't5');
    assert.deepEqual(
      s.learned,
      { rows: 514, offset: 2 },
      'MPNetEmbeddings: create_position_ids_from_input_ids(padding_idx 1)',
    );
    assert.deepEqual(s.t5, { numBuckets: 32, maxDistance: 128, bidirectional: true });
    assert.deepEqual(s.attention, { heads: 12, kvHeads: 12, dim: 64, scale: 0.125 }, 'q·kᵀ / sqrt(head size)');
  }
  // the buckets: relative_position = memory - context, every pair up to 300 apart
  const T = 301;
  const b = pe.t5Buckets({ queries: T, ...pe.fromConfig(c).t5 });
  for (let i = 0; i < T; i += 7) {
    for (let j = 0; j < T; j++) assert.equal(b[i * T + j], mpnetBucket(j - i), `query ${i} key ${j}`);
  }
  // the scores: scale · q·k + bias, as MPNetSelfAttention adds position_bias after dividing by sqrt(d)
  const heads = 2;
  const dim = 4;
  const L = 6;
  const w = randomF32(32 * heads, 11);
  const q = randomF32(L * heads * dim, 12);
  const k = randomF32(L * heads * dim, 13);
  const v = randomF32(L * heads * dim, 14);
  const spec = pe.fromConfig({ ...c, hidden_size: heads * dim, num_attention_heads: heads });
  const bias = { ...spec.encoding, weights: w };
  const out = pe.attention({ q, k, v, queries: L, ...spec.attention, bias }).output;
  for (let i = 0; i < L; i++) {
    for (let h = 0; h < heads; h++) {
      const dot = (j) =>
        [...Array(dim).keys()].reduce((a, d) => a + q[(i * heads + h) * dim + d] * k[(j * heads + h) * dim + d], 0);
      const sc = [...Array(L).keys()].map((j) => dot(j) / Math.sqrt(dim) + w[mpnetBucket(j - i) * heads + h]);
      const m = Math.max(...sc);
      const e = sc.map((x) => Math.exp(x - m));
      const z = e.reduce((a, x) => a + x, 0);
      for (let d = 0; d < dim; d++) {
        const ref = e.reduce((a, x, j) => a + (x / z) * v[(j * heads + h) * dim + d], 0);
        assert.ok(Math.abs(out[(i * heads + h) * dim + d] - ref) < 1e-5, `query ${i} head ${h}`);
      }
    }
  }
  // MPNetConfig defaults; what MPNet's code does not read or cannot run
  assert.deepEqual(pe.fromConfig({ model_type: 'mpnet' }).learned, { rows: 512, offset: 2 });
  assert.equal(
    pe.fromConfig({ ...c, pad_token_id: 0 }).learned.offset,
    2,
    'padding_idx is 1 whatever pad_token_id says',
  );
  const md = pe.fromConfig({ ...c, relative_attention_max_distance: 64 });
  assert.equal(md.t5.maxDistance, 128);
  assert.ok(md.notes.some((n) => n.startsWith('relative_attention_max_distance = 64 is ignored')));
  assert.throws(
    () => pe.fromConfig({ ...c, relative_attention_num_buckets: 64 }),
    (e) => e.argument === 'relative_attention_num_buckets',
  );
  assert.throws(
    () => pe.fromConfig(c, { decoder: true }),
    (e) => e.argument === 'decoder',
  );
});

test('nomic_bert is refused with the reason (remote code whose dynamic NTK table depends on earlier calls), even with `as`', async () => {
  const [{ pe }] = await backends();
  const c = {
    model_type: 'nomic_bert',
    n_embd: 768,
    n_head: 12,
    n_layer: 12,
    rotary_emb_base: 1000,
    rotary_emb_fraction: 1.0,
    max_trained_positions: 2048,
  };
  for (const o of [undefined, { as: 'bert' }]) {
    assert.throws(
      () => pe.fromConfig(c, o),
      (e) => e.argument === 'model_type' && /NomicBertDynamicNTKRotaryEmbedding/.test(e.message),
    );
  }
});

/** attention and kvCache take the layer (applyRope a RoPE one); a sinusoidal table is built at its full size. */
function consume(pe, s, what) {
  const { heads, kvHeads, dim } = s.attention;
  const T = 3;
  const q = randomF32(T * heads * dim, 3);
  const k = randomF32(T * kvHeads * dim, 4);
  const v = randomF32(T * kvHeads * dim, 5);
  const causal = s.stack === 'decoder' || s.model === 'clip_text_model';
  assert.ok(pe.attention({ q, k, v, queries: T, causal, ...s.attention }).output.every(Number.isFinite), what);
  const encoding = s.t5 ? { ...s.encoding, weights: randomF32(s.t5.numBuckets * heads, 6) } : s.encoding;
  const cache = pe.kvCache({ ...s.attention, capacity: 4, encoding });
  try {
    cache.append(k, v);
    assert.ok(cache.attend(q).output.every(Number.isFinite), what);
  } finally {
    cache.free();
  }
  if (s.rope) pe.applyRope(randomF32(T * heads * s.rope.dim, 6), { length: T, heads, ...s.rope });
  if (s.family === 'sinusoidal') {
    assert.equal(pe.sinusoidal({ length: s.rows, ...s.sinusoidal }).length, s.rows * s.sinusoidal.dim, what);
  }
}

test('every stack, tower and layer kind of these fixtures goes to attention and kvCache', async () => {
  const [{ pe }] = await backends();
  let driven = 0;
  for (const [name, opts] of Object.entries(FIXTURES)) {
    for (const o of opts) {
      const s0 = pe.fromConfig(load(name), o);
      for (const layer of new Set([0, 1, s0.layers - 1])) {
        consume(pe, pe.fromConfig(load(name), { ...o, layer }), `${name} ${JSON.stringify(o)} layer ${layer}`);
        driven++;
      }
    }
  }
  assert.equal(driven, 39);
});

test('seeded mutations of these fixtures (vision_config too, every stack and tower): a PosencError naming a key, or a result the consumers take', async () => {
  const [{ pe }] = await backends();
  let seed = 4141;
  const rnd = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const pick = (a) => a[Math.floor(rnd() * a.length)];
  const values = [null, 0, -1, 1, 2, 3, 7, 0.5, 64, 1e308, -1e308, 'x', true, false, [], {}, 2 ** 31, 4097];
  const names = Object.keys(FIXTURES);
  let results = 0;
  let refused = 0;
  for (let n = 0; n < 600; n++) {
    const name = pick(names);
    const c = structuredClone(load(name));
    const o = { ...pick(FIXTURES[name]), layer: Math.floor(rnd() * 3) };
    const part =
      o.tower === 'vision' && c.vision_config ? c.vision_config : c.text_config && rnd() < 0.7 ? c.text_config : c;
    const keys = Object.keys(part).filter(
      (k) => k !== 'model_type' && (typeof part[k] !== 'object' || part[k] === null),
    );
    part[pick(keys)] = structuredClone(pick(values));
    let spec;
    try {
      spec = pe.fromConfig(c, o);
    } catch (e) {
      assert.equal(e.name, 'PosencError', `${name}: ${e.message}`);
      assert.ok(typeof e.argument === 'string' && e.argument.length > 0, `${name}: ${e.message}`);
      refused++;
      continue;
    }
    consume(pe, spec, `${name} mutated`);
    results++;
  }
  assert.ok(results > 150 && refused > 50, `${results} results, ${refused} refusals`);
});
