// What only tools/gen_kinds.js reads of T5's fused kind (kind_t5.js holds what the library reads;
// the package ships this file not): its fuzz draws, scratch buffers, .d.ts keys and docs rows.
export const gen = {
  fuzz: { bidirectional: 'u8(c) & 1', num_buckets: '2 + u8(c) % 40', max_distance: 'size(c)' },
  fuzzTables: 'b->table = IN(prod(b->num_buckets, h));',
  scratch: [
    ['const int32_t', 't5b'],
    ['float', 't5'],
  ],
  types: {
    keys: { weights: 'F32', 'bidirectional?': 'boolean', 'numBuckets?': 'number', 'maxDistance?': 'number' },
    doc: {
      attention: 'T5: `weights` is relative_attention_bias [numBuckets][heads]; bidirectional defaults to !causal.',
      selfAttention: 'weights [numBuckets][heads]; bidirectional defaults to !causal; logits are unscaled (T5).',
    },
  },
  docs: {
    option: "`{ type: 't5', weights, bidirectional = !causal, numBuckets = 32, maxDistance = 128 }`",
    attention: '`weights[bucket(rp)][h]` ([T5](../relative/t5.md))',
    kvOption: "`{ type: 't5', weights, bidirectional = false, numBuckets = 32, maxDistance = 128 }`",
    kvCache:
      'logit `+= weights[bucket(j − p_i)][h]`, buckets from the true relative positions (decoder default: not bidirectional)',
  },
};
