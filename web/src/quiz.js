// The guided path's self-check (its last step): data only, rendered by chrome.js. Each item has one
// explanation per choice (why it is right or wrong) and the id of the step that teaches it
// (steps.js). Loaded only when the reader reaches the self-check.
export const QUIZ = [
  {
    step: 'why',
    q: 'An encoder (no mask) gets word vectors with no positional information. Which inputs can it tell apart?',
    choices: [
      '“dog bites man” from “man bites dog”',
      'Only sentences that differ in their words (as bags of words)',
      'Any two different orders',
    ],
    answer: 1,
    why: [
      'Same words, different order: without a mask or positions each word’s output is the same vector, only in another slot.',
      'Right: unmasked self-attention is permutation-equivariant, so only the multiset of words matters.',
      'Order is exactly what it cannot see.',
    ],
  },
  {
    step: 'causal',
    q: 'A decoder with a causal mask and no positional encoding at all. What do Haviv et al. (2022) report?',
    choices: [
      'It cannot model language',
      'It is competitive, and probes find absolute position in its activations',
      'It works only with a bidirectional mask',
    ],
    answer: 1,
    why: [
      'Their causal NoPos models reach perplexities close to models with positions.',
      'Right: the mask lets a token see how many tokens precede it, and the model learns to use that.',
      'The reverse: it is the masked (bidirectional) language model that fails without positions.',
    ],
  },
  {
    step: 'causal',
    q: 'In what order are these applied in one attention layer of a RoPE model with a causal mask?',
    choices: [
      'project q, k → rotate q, k → q·k → add the mask → softmax → weight the values',
      'rotate the word vectors → project → softmax → add the mask',
      'q·k → softmax → rotate → add the mask',
    ],
    answer: 0,
    why: [
      'Right: RoPE acts on q and k before their dot product; the mask (and any ALiBi or T5 bias) is added to the logits before the softmax.',
      'RoPE does not touch the word vectors, and a mask after the softmax would no longer remove the weight of later keys.',
      'Rotating after the softmax would leave the scores without any position.',
    ],
  },
  {
    step: 'causal',
    q: 'ALiBi’s bias and T5’s bucket bias enter attention…',
    choices: [
      'added to the logits, next to the mask, before the softmax',
      'added to the word embeddings',
      'multiplied into the values',
    ],
    answer: 0,
    why: [
      'Right: both are numbers added to q·k (per head), as the −∞ of the mask is.',
      'That is what absolute encodings (sinusoidal, learned) do.',
      'Shaw’s a^V touches the values; ALiBi and T5 do not.',
    ],
  },
  {
    step: 'sinusoidal',
    q: 'In the original Transformer, what happens to the word embeddings before the positional encoding is added?',
    choices: ['They are multiplied by √d_model', 'They are normalised to unit length', 'Nothing'],
    answer: 0,
    why: [
      'Right: section 3.4 of Vaswani et al. multiplies the embedding weights by √d_model.',
      'No normalisation is applied there.',
      'The paper does scale them; many later models with learned positions (BERT, GPT-2) do not.',
    ],
  },
  {
    step: 'sinusoidal-heatmap',
    q: 'With d = 64 and base 10000, the slowest pair completes one turn every…',
    choices: ['2π·10000 positions', '2π·10000^(62/64) ≈ 47 100 positions', '64 positions'],
    answer: 1,
    why: [
      'That would need the exponent 2i/d to reach 1; the last pair has i = d/2 − 1.',
      'Right: ω = 10000^(−62/64), so the wavelength 2π/ω is 2π·7499.',
      'That is about pair 8’s wavelength, not the slowest.',
    ],
  },
  {
    step: 'shift',
    q: 'Vaswani et al. chose sinusoids because for every offset k, PE(p + k) is a linear function of PE(p). What did they show about trained models?',
    choices: [
      'That they use this matrix to attend by relative position',
      'Nothing: it was a hypothesis, and learned positions did about as well',
      'That it makes them extrapolate to any length',
    ],
    answer: 1,
    why: [
      'The paper states a hope (“we hypothesized”), not a measurement.',
      'Right: they report nearly identical results with learned positions and give the hypothesis as the reason for the choice.',
      'Later work (Press et al. 2022) found sinusoids extrapolate poorly.',
    ],
  },
  {
    step: 'learned',
    q: 'How many rows does a learned absolute position table have?',
    choices: [
      'As many as the longest training sequence',
      'max_position_embeddings, fixed when the model is built',
      'One per token in the vocabulary',
    ],
    answer: 1,
    why: [
      'Training can be shorter than the table: BERT spent 90% of its steps at length 128 with a 512-row table.',
      'Right: 512 for BERT, 1024 for GPT-2; position ids past it have no row.',
      'That is the word embedding table.',
    ],
  },
  {
    step: 'rope',
    q: 'For real (different) q and k, the RoPE score q′·k′ depends on…',
    choices: [
      'the distance |n − m| only',
      'the content of q and k and the signed offset n − m',
      'the absolute positions m and n',
    ],
    answer: 1,
    why: [
      'Only true when q and k are aligned (e.g. the same vector); otherwise +3 and −3 give different scores.',
      'Right: q′·k′ = q·R((n − m)ω) k (RoFormer eq. 16).',
      'Rotations compose, so m and n enter only through n − m.',
    ],
  },
  {
    step: 'rope',
    q: 'Which vectors does RoPE rotate?',
    choices: [
      'q and k, per head, after the W_Q and W_K projections',
      'q, k and v',
      'The token embeddings, once, at the input',
    ],
    answer: 0,
    why: [
      'Right: in every attention layer, each head’s q and k.',
      'The values are not rotated: the weighted sum of values carries no rotation.',
      'That is what an additive absolute encoding does; RoPE never touches the residual stream.',
    ],
  },
  {
    step: 'rope-relative',
    q: 'RoFormer’s “long-term decay” is…',
    choices: [
      'a bound whose distance-dependent factor decays; the score itself decays for aligned q and k, not for every pair',
      'a guarantee that every attention score falls with distance',
      'a learned penalty like ALiBi’s',
    ],
    answer: 0,
    why: [
      'Right: section 3.4.3 bounds the score; Barbero et al. (2024) show that for general q, k it need not decay.',
      'Queries and keys can be chosen to peak at any distance.',
      'RoPE adds no bias and learns nothing about distance beyond W_Q and W_K.',
    ],
  },
  {
    step: 'positions',
    q: 'A batch of prompts is left-padded. How should position ids be set for an absolute (learned) table?',
    choices: [
      '0, 1, 2 … over the whole row, pads included',
      'From the attention mask, so the first real token gets 0',
      'All zero',
    ],
    answer: 1,
    why: [
      'Then the same prompt gets different positions depending on how much padding its batch needed.',
      'Right: Hugging Face builds them as the cumulative sum of the attention mask, minus one.',
      'Every token would share one position.',
    ],
  },
  {
    step: 'positions',
    q: 'Several documents are packed into one training row. What keeps one document from attending to another?',
    choices: ['Restarting the position ids', 'A block-diagonal attention mask', 'RoPE'],
    answer: 1,
    why: [
      'Restarted ids change positions, not who sees whom: without a mask tokens still attend across documents.',
      'Right: only the mask stops attention across documents (Llama 3 uses one); ids may also restart.',
      'RoPE changes scores, never removes them.',
    ],
  },
  {
    step: 'positions',
    q: 'With a KV cache, 100 tokens are cached and RoPE is used. The next token’s query…',
    choices: [
      'is rotated by position 100, and the cached keys are used as stored',
      'is rotated by 0, and the cache is rotated back',
      'is not rotated',
    ],
    answer: 0,
    why: [
      'Right: each key was rotated once by its own position; the scores see the offsets 100 − j.',
      'That would rotate every cached key at every step, for the same result at more cost.',
      'Then the new token would have no position relative to the cache.',
    ],
  },
  {
    step: 'alibi',
    q: 'ALiBi with 12 heads (not a power of two). Its slopes are…',
    choices: [
      '2^(−8h/12) for h = 1 … 12',
      'The 8 slopes for 8 heads, then every other slope of the 16-head set',
      'All 1/2',
    ],
    answer: 1,
    why: [
      'That formula is the paper’s for powers of two only.',
      'Right: 2^−1 … 2^−8, then 2^−0.5, 2^−1.5, 2^−2.5, 2^−3.5 (the paper’s code).',
      'Each head has its own slope.',
    ],
  },
  {
    step: 't5',
    q: 'T5’s relative bias (32 buckets, max distance 128): what does one layer see of distances 300 and 3000?',
    choices: [
      'The same bias: both are in the last bucket',
      'Different biases: buckets are logarithmic without limit',
      'Nothing: T5 masks them',
    ],
    answer: 0,
    why: [
      'Right: one layer is blind past the max distance; later layers can combine local information.',
      'The logarithmic buckets stop at the max distance.',
      'T5’s encoder attends everywhere; the buckets only set a bias.',
    ],
  },
  {
    step: 'shaw',
    q: 'Shaw et al. (2018) add learned relative vectors where?',
    choices: [
      'To the keys inside the score (a^K) and to the values in the output (a^V)',
      'Only to the word embeddings',
      'To the softmax output',
    ],
    answer: 0,
    why: [
      'Right: e_ij uses x_j W^K + a^K_ij and z_i sums α_ij (x_j W^V + a^V_ij).',
      'Nothing is added at the input.',
      'The weights α stay a softmax of the scores.',
    ],
  },
  {
    step: 'shaw',
    q: 'Transformer-XL’s relative attention score has…',
    choices: [
      'four terms: content·content, content·position, a global content bias u, a global position bias v',
      'one term, like Shaw',
      'only a per-bucket scalar',
    ],
    answer: 0,
    why: [
      'Right: with a sinusoidal relative table R projected by its own W_{k,R} (Dai et al. 2019).',
      'Shaw adds a learned vector to the key; Transformer-XL separates four terms.',
      'That is T5.',
    ],
  },
  {
    step: 'concat',
    q: 'Positions are concatenated, [x; p], and a full learned W_Q, W_K follow. Cross terms word × position in the score?',
    choices: [
      'None, ever',
      'Yes, unless W_Q and W_K are block-diagonal (as TUPE makes them)',
      'Only for the first token',
    ],
    answer: 1,
    why: [
      'True of the raw dot product only; projections mix the halves.',
      'Right: Ke et al. (2021) untie word and position projections to remove them.',
      'Every pair gets them.',
    ],
  },
  {
    step: 'scaling',
    q: '“NTK-aware” RoPE scaling (a larger base) slows…',
    choices: [
      'every pair by the factor',
      'every pair except the fastest, the slowest by the full factor',
      'only the fastest pair',
    ],
    answer: 1,
    why: [
      'That is linear position interpolation (Chen et al. 2023).',
      'Right: ω_i is multiplied by factor^(−2i/(d−2)), 1 for i = 0.',
      'The fast pairs are the ones it spares.',
    ],
  },
  {
    step: 'scaling',
    q: 'DeepSeek-V2 uses YaRN with factor 40 and mscale = mscale_all_dim = 0.707. Where does the temperature go?',
    choices: [
      'Nowhere: its attention scale is 1',
      'Into the softmax scale, multiplied by mscale² ≈ 1.59; the cos and sin carry a factor of 1',
      'Into the values',
    ],
    answer: 1,
    why: [
      'The cos/sin factor is 1, but the logits are still scaled.',
      'Right: (0.1·0.707·ln 40 + 1)² ≈ 1.59 multiplies the softmax scale in its code.',
      'YaRN’s temperature acts on the logits.',
    ],
  },
  {
    step: 'extrapolation',
    q: 'Which test shows that an extended-context model actually uses tokens far back?',
    choices: [
      'Perplexity on long documents',
      'A retrieval test such as passkey: a fact hidden far back must be recalled',
      'Training loss',
    ],
    answer: 1,
    why: [
      'Perplexity can stay low while the model looks only at recent tokens.',
      'Right: passkey retrieval (Mohtashami & Jaggi 2023) fails unless the distant token is attended to.',
      'Training loss says nothing about lengths never trained on.',
    ],
  },
  {
    step: 'compare',
    q: 'A RoPE checkpoint trained with interleaved pairs (2i, 2i+1) is loaded into code rotating (i, i + d/2), without permuting W_Q, W_K. Result?',
    choices: ['Same model', 'Wrong scores and garbled output', 'Only slower'],
    answer: 1,
    why: [
      'Only if the q and k projection rows are permuted to match, as conversion scripts do.',
      'Right: dimensions get rotated with partners and frequencies they were never trained with.',
      'The cost is the same; the numbers are wrong.',
    ],
  },
  {
    step: 'compare',
    q: 'GPT-NeoX-20B rotates a quarter of each head’s dimensions (partial rotary). Run it rotating all of them and…',
    choices: [
      'nothing changes',
      'the unrotated dimensions, trained to carry content, get rotated: scores go wrong',
      'it becomes NoPE',
    ],
    answer: 1,
    why: [
      'The other three quarters were trained without rotation.',
      'Right: rotary_pct (or partial_rotary_factor) must match the checkpoint.',
      'Rotating more adds positions; it does not remove them.',
    ],
  },
  {
    step: 'recap',
    q: 'Which family is used by BLOOM and MPT?',
    choices: ['RoPE', 'ALiBi', 'Learned absolute'],
    answer: 1,
    why: [
      'RoPE is Llama’s, Qwen’s, DeepSeek’s and GPT-NeoX’s.',
      'Right: both add ALiBi’s linear bias to the logits.',
      'That is BERT’s and GPT-2’s.',
    ],
  },
];
