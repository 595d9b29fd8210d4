// The guided path's self-check (its last step): data only, rendered by chrome.js. Each item has one
// explanation per choice (why it is right or wrong) and the id of the step that teaches it
// (steps.js). The choices are shown in an order dealt per reader (choices.js); their authored order
// and lengths are kept from giving the answer away (tests/questions.test.js). Loaded only when the
// reader reaches the self-check.
export const QUIZ = [
  {
    step: 'why',
    q: 'An encoder (no mask) gets word vectors with no positional information, and its outputs are averaged into one sentence vector. Which inputs can that vector tell apart?',
    choices: [
      '“dog bites man” from “man bites dog”',
      'Only inputs with different multisets of words',
      'Any two different orders of the same words',
    ],
    answer: 1,
    why: [
      'Same words, different order: without a mask or positions each word’s output is the same vector, only in another slot, and the average of the same vectors is the same.',
      'Right: unmasked self-attention is permutation-equivariant: reordering the words reorders the outputs, and the average erases the order, so only the multiset of words matters. (A per-token readout does see the permutation: its slots move.)',
      'Order is exactly what the averaged vector cannot see.',
    ],
  },
  {
    step: 'causal',
    q: 'Haviv et al. (2022) trained language models with no positional encoding at all, causal ones and masked (bidirectional) ones. Which came close to the same models with positions?',
    choices: [
      'The masked ones; the causal ones fell far behind',
      'Neither kind: both fell far behind',
      'The causal ones; the masked ones fell far behind',
    ],
    answer: 2,
    why: [
      'The reverse: their causal models without positions came close to those with positions, and the masked ones did not.',
      'Their causal models without positions came close to those with sinusoidal, learned or ALiBi positions, across datasets and model sizes.',
      'Right: the causal models without positions came close to those with sinusoidal, learned or ALiBi positions, and probes found absolute position in their activations; the masked (bidirectional) models without positions fell far behind.',
    ],
  },
  {
    step: 'causal',
    q: 'A causal mask, no positional encoding, and every logit equal, so query i (counting from 0) weights the keys it may see equally. Only the first token’s value vector is nonzero: v. What does query i output?',
    choices: ['v at query 0, and 0 after it', 'v / (i + 1)', 'v / n, the same at each query (n tokens)'],
    answer: 1,
    why: [
      'Query i sees keys 0 … i, key 0 among them: the mask hides the keys after a query, not those before it.',
      'Right: the mask leaves query i the keys 0 … i, each weighted 1/(i + 1), and only key 0 carries a value, so the output is v/(i + 1): its size falls as i grows.',
      'The mask hides the keys after i, so query i spreads its weight over its i + 1 visible keys, not over all n.',
    ],
  },
  {
    step: 'causal',
    q: 'Llama 4 (Hugging Face config field no_rope_layers) runs some layers without RoPE. Which ones?',
    choices: [
      'Only the first layer, which learns positions from the mask',
      'Every other layer, alternating with ALiBi layers',
      'Every fourth layer, which attends over the whole context',
    ],
    answer: 2,
    why: [
      'No: the NoPE layers are spread through the stack.',
      'Llama 4 uses no ALiBi; its other layers use RoPE.',
      'Right: no_rope_layers is 0 for layers 4, 8, 12 … (counting from 1); those attend globally, with their queries scaled by a temperature that grows with the log of the position (attn_temperature_tuning), and the RoPE layers attend within chunks of 8192 tokens.',
    ],
  },
  {
    step: 'causal',
    q: 'In what order are these applied in one attention layer of a RoPE model with a causal mask?',
    choices: [
      'project q, k → rotate q, k → q·k → add the mask → softmax → weight the values',
      'rotate the word vectors → project → q·k → softmax → add the mask → weight the values',
      'project q, k → q·k → softmax → rotate q, k → add the mask → weight the values',
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
      'added to the word embeddings at the input',
      'added to the logits q·k, before the softmax',
      'multiplied into the values after the softmax weights',
    ],
    answer: 1,
    why: [
      'That is what absolute encodings (sinusoidal, learned) do.',
      'Right: both are numbers added to q·k (per head), as the −∞ of the mask is.',
      'Shaw’s a^V touches the values; ALiBi and T5 do not.',
    ],
  },
  {
    step: 'sinusoidal',
    q: 'In the original Transformer, what happens to the word embeddings before the positional encoding is added?',
    choices: [
      'They are multiplied by √d_model',
      'They are normalised to unit length',
      'Nothing: they are added as they are',
    ],
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
    choices: ['2π·10000 ≈ 62 800 positions', '2π·10000^(62/64) ≈ 47 100 positions', '64 positions, one per dimension'],
    answer: 1,
    why: [
      'That would need the exponent 2i/d to reach 1; the last pair has i = d/2 − 1.',
      'Right: ω = 10000^(−62/64), so the wavelength 2π/ω is 2π·7499.',
      'That is about pair 8’s wavelength, not the slowest.',
    ],
  },
  {
    step: 'shift',
    q: 'Vaswani et al. give two reasons for choosing sinusoids. Which pair is it?',
    choices: [
      'Learned positions did worse, and sinusoids cost no parameters',
      'A hoped-for relative attention, and hoped-for extrapolation',
      'Sinusoids are unique per position and sum to zero',
    ],
    answer: 1,
    why: [
      'They report learned positions “nearly identical” in quality.',
      'Right: they hypothesized a model could attend by relative offsets (PE(p + k) is linear in PE(p)) and that sinusoids “may allow the model to extrapolate” past the training length; Press et al. (2022) later found sinusoids extrapolate poorly.',
      'Neither is a reason the paper gives.',
    ],
  },
  {
    step: 'learned',
    q: 'How many rows does a learned absolute position table have?',
    choices: [
      'One per token in the vocabulary',
      'max_position_embeddings, fixed when the model is built',
      'As many as the current input has tokens',
    ],
    answer: 1,
    why: [
      'That is the word embedding table.',
      'Right: 512 for BERT, 1024 for GPT-2; position ids past it have no row. Training may use shorter sequences (BERT spent 90% of its steps at 128).',
      'The table is a fixed parameter; an input longer than it has no rows for its last tokens.',
    ],
  },
  {
    step: 'concat',
    q: 'Positions are concatenated, [x; p], and a full learned W_Q, W_K follow. Cross terms word × position in the score?',
    choices: [
      'Yes: a full W_Q and W_K mix the two halves again',
      'None: concatenated halves never meet',
      'Some may, for tokens at about the same position',
    ],
    answer: 0,
    why: [
      'Right: projections mix the halves, unless they are block-diagonal; Ke et al. (2021, TUPE) untie word and position projections to remove them.',
      'True of the raw dot product only; projections mix the halves.',
      'The cross terms do not depend on where the tokens sit: every pair of tokens gets them.',
    ],
  },
  {
    step: 'rope',
    q: 'For real (different) q and k, the RoPE score q′·k′ depends on…',
    choices: [
      'the distance |n − m| between them only',
      'the absolute positions m and n, each one separately',
      'the content of q and k and the signed offset n − m',
    ],
    answer: 2,
    why: [
      'Only when every pair of q and k is parallel or antiparallel (e.g. q = k); otherwise +3 and −3 give different scores.',
      'Rotations compose, so m and n enter only through n − m.',
      'Right: q′·k′ = q·R((n − m)ω) k (RoFormer eq. 16).',
    ],
  },
  {
    step: 'rope',
    q: 'A query and a key stand at the same position m. What does RoPE do to their score q·k?',
    choices: [
      'It scales each pair’s part by cos(m·θᵢ), so by m',
      'It keeps it as it was: both turn by the same angles',
      'It grows it with m, as the two rotations add up',
    ],
    answer: 1,
    why: [
      'That would make the score depend on the absolute position m; a rotation applied to both vectors leaves their dot product unchanged.',
      'Right: both turn by the same angle m·θᵢ in each pair, and a common rotation keeps a dot product; the score depends on the offset n − m only, here 0 (RoFormer eq. 16).',
      'The rotations do not add up: the score reads the difference of the two angles, which is 0 here.',
    ],
  },
  {
    step: 'rope-relative',
    q: 'RoFormer’s “long-term decay” is…',
    choices: [
      'a guarantee that every attention score falls with distance',
      'a decaying bound; aligned q and k decay on average',
      'a learned penalty on far keys, like ALiBi’s',
    ],
    answer: 1,
    why: [
      'Queries and keys can be chosen to peak at any distance (Barbero et al. 2024).',
      'Right: section 3.4.3 bounds the score by a decaying function of distance; for aligned q and k the score shrinks on average, with ripples, and for general q, k it need not decay.',
      'RoPE adds no bias and learns nothing about distance beyond W_Q and W_K.',
    ],
  },
  {
    step: 'rope-relative',
    q: 'xPos (Sun et al.) changes RoPE by…',
    choices: [
      'adding a learned bias per distance, like T5',
      'rotating the values as well, so the outputs carry position',
      'scaling q and k per pair so scores decay with distance',
    ],
    answer: 2,
    why: [
      'xPos learns nothing per distance; its factors are fixed.',
      'The values stay unrotated in xPos as in RoPE.',
      'Right: the query is scaled by ζᵢ^(m/512), the key by ζᵢ^(−n/512) with ζᵢ < 1, so each pair’s score carries ζᵢ^((m − n)/512).',
    ],
  },
  {
    step: 'layouts',
    q: 'A RoPE checkpoint trained with interleaved pairs (2i, 2i+1) is loaded into code rotating (i, i + d/2), without permuting W_Q, W_K. Result?',
    choices: [
      'The same model, the same outputs',
      'The same outputs, a little slower',
      'Wrong scores and garbled output',
    ],
    answer: 2,
    why: [
      'Only if the q and k projection rows are permuted to match, as conversion scripts do.',
      'The cost is the same; the numbers are wrong.',
      'Right: dimensions get rotated with partners and frequencies they were never trained with.',
    ],
  },
  {
    step: 'layouts',
    q: 'GPT-NeoX-20B rotates a quarter of each head’s dimensions (partial rotary). Run it rotating all of them and…',
    choices: [
      'the other three quarters get rotated: scores go wrong',
      'nothing changes, since rotation keeps the vector lengths',
      'it becomes NoPE, as the extra rotations cancel out',
    ],
    answer: 0,
    why: [
      'Right: they were trained without rotation; rotary_pct (or partial_rotary_factor) must match the checkpoint.',
      'Lengths are kept, but the angles between q and k change, and so do the scores.',
      'Rotating more adds positions; it does not remove them.',
    ],
  },
  {
    step: 'layouts',
    q: 'Qwen2-VL’s multimodal RoPE gives an image patch three position ids (time, height, width). How does a text token rotate?',
    choices: [
      'As in plain RoPE: its three ids are equal',
      'Partly: by its time id, with height and width left at 0',
      'Not at all: only image patches rotate',
    ],
    answer: 0,
    why: [
      'Right: the pairs are split into three blocks ([16, 24, 24] of 64 in Qwen2-VL-7B), each turned by one id; equal ids turn every pair as 1-D RoPE does. After an image the text ids continue from the image’s largest id + 1, not from the token’s index in the sequence (get_rope_index in Hugging Face’s Qwen2-VL code).',
      'A text token has the same id in all three streams, not 0 in two of them.',
      'Text tokens keep their RoPE positions.',
    ],
  },
  {
    step: 'rope-code',
    q: 'q has shape [batch, heads, seq, d] = [2, 8, 100, 64]; the cos table is [100, 32], one column per pair. What must happen to the table before the element-wise product?',
    choices: [
      'Nothing: [100, 32] already broadcasts against it',
      'Transpose it to [32, 100], which can line the pairs up with heads',
      'Give each pair’s column to both its dims: [100, 64]',
    ],
    answer: 2,
    why: [
      'Broadcasting aligns the trailing axes: 32 does not match 64, so it fails.',
      'Heads have nothing to do with pairs: the table is per position and per pair, shared by every head.',
      'Right: [100, 64] (Hugging Face concatenates the table with itself for its half layout) broadcasts against [2, 8, 100, 64] as it is, since broadcasting aligns the trailing axes. Hugging Face unsqueezes a heads axis because its table is [batch, seq, d], not because broadcasting needs it.',
    ],
  },
  {
    step: 'rope-code',
    q: 'A head of 80 dimensions with partial_rotary_factor 0.4. What rotates, and with which frequencies?',
    choices: [
      '32 dims (16 pairs), frequencies computed for d = 32',
      'All 80 dims: the factor only scales the angles',
      '32 dims, with the first 16 frequencies of d = 80',
    ],
    answer: 0,
    why: [
      'Right: rotary_dim = 0.4 × 80 = 32, inv_freq = base^(−2i/32), and the other 48 dims pass through.',
      'The factor sets how many dimensions rotate, not how fast.',
      'Hugging Face computes the frequencies for the rotated width (dim = head_dim × partial_rotary_factor).',
    ],
  },
  {
    step: 'rope-code',
    q: 'Why is RoPE’s cos/sin table built once per forward pass and shared, rather than per layer?',
    choices: [
      'Each layer learns its own angles, so one table per layer is stored',
      'It depends on positions only, so all layers and heads share it',
      'Sines are too slow to compute on a GPU inside a layer',
    ],
    answer: 1,
    why: [
      'RoPE’s angles are fixed by base and position; no layer learns them.',
      'Right: the table is content-free (older code precomputed it up to max_position_embeddings).',
      'Speed is not the point: the values would be identical in every layer anyway.',
    ],
  },
  {
    step: 'rope-code',
    q: 'posenc forms RoPE angles in float64 and rounds only the cos and sin to float32. Why does that matter at long context?',
    choices: [
      'Float64 cosines run faster than float32 ones in wasm',
      'It makes every position id exactly representable',
      'It rounds values in [−1, 1], not a huge angle',
    ],
    answer: 2,
    why: [
      'Speed is not the reason; float64 is the slower of the two.',
      'Position ids below 2^24 are exact in float32 already; the angle p·ω is what loses digits.',
      'Right: a float32 angle near 131 072 is off by up to ~4·10⁻³ rad, ~5·10⁻³ with Llama 3.1’s frequencies (Hugging Face’s float32 path); cos and sin rounded once are within 2·10⁻⁶ (families/rope/rope.md).',
    ],
  },
  {
    step: 'rope-code',
    q: 'A fused RoPE kernel in bfloat16 is checked against a float64 reference on random q and k. Which check is sound?',
    choices: [
      'Compare within bfloat16’s tolerance (near 10⁻² relative), at a real run’s positions',
      'Require bit-identical outputs: both compute the same formula',
      'Test a few small positions: the formula can be trusted at others',
    ],
    answer: 0,
    why: [
      'Right: the kernel rounds differently from a float64 reference (bfloat16 keeps 8 significant bits), so equality is the wrong test; a tolerance set by the dtype, at the positions a real run has (a KV-cache offset, left padding, long contexts where float32 angles drift), catches real bugs. Compare the rotated q and k too, not only scores q′·k′: a position shifted alike for q and k leaves every score unchanged.',
      'A different precision and a different order of operations round differently: a correct kernel is not bit-identical to a float64 reference.',
      'Errors grow with the position (float32 angles near 131 072 are off by thousandths of a radian), and offsets such as a KV cache’s start are where kernels go wrong.',
    ],
  },
  {
    step: 'positions',
    q: 'A batch of prompts is left-padded. How should position ids be set for an absolute (learned) table?',
    choices: [
      '0, 1, 2 … over the whole row, pads included',
      'All zero, as the pads carry no content',
      'From the attention mask: the first real token gets 0',
    ],
    answer: 2,
    why: [
      'Then the same prompt gets different positions depending on how much padding its batch needed.',
      'Every token would share one position.',
      'Right: Hugging Face builds them as the cumulative sum of the attention mask, minus one.',
    ],
  },
  {
    step: 'positions',
    q: 'Training with right padding (pads after the text). Do the real tokens’ position ids need fixing?',
    choices: [
      'No: they are 0, 1, 2 … already; the mask hides pads',
      'Yes: every id must shift by the number of pads',
      'Yes: the pads must all get position 0 before training',
    ],
    answer: 0,
    why: [
      'Right: padding after the text leaves every real token at its index; the attention mask keeps the pads out of the scores.',
      'That is the left-padding case, where the pads come first.',
      'The pads’ own ids do not matter once the mask hides them.',
    ],
  },
  {
    step: 'positions',
    q: 'Several documents are packed into one training row. What keeps one document from attending to another?',
    choices: ['A block-diagonal attention mask', 'Restarting the position ids', 'RoPE’s rotations of q and k'],
    answer: 0,
    why: [
      'Right: only the mask stops attention across documents (Llama 3 uses one); ids may also restart.',
      'Restarted ids change positions, not who sees whom: without a mask tokens still attend across documents.',
      'RoPE changes scores, never removes them.',
    ],
  },
  {
    step: 'positions',
    q: 'With a KV cache, 100 tokens are cached and RoPE is used. The next token’s query…',
    choices: [
      'is rotated by position 100, cached keys as stored',
      'is not rotated: the cache already holds positions',
      'is rotated by 100, and so is every cached key again',
    ],
    answer: 0,
    why: [
      'Right: each key was rotated once by its own position; the scores see the offsets 100 − j.',
      'Then the new token would have no position relative to the cache.',
      'The cached keys already carry their own rotation; rotating them again shifts every offset.',
    ],
  },
  {
    step: 'positions',
    q: 'Tokens 0 … 999 are cached. The user deletes token 10, so every later token moves one place left. What must be recomputed?',
    choices: [
      'Only the keys, turned back by one position each time',
      'Every entry from position 10 on, in every layer',
      'Nothing: cached keys keep the rotation they got',
    ],
    answer: 1,
    why: [
      'That would fix the first layer at most: deeper layers’ keys and values depend on the deleted token through attention.',
      'Right: entries from the edit on depend on it (and on the new positions); entries 0 … 9 stay valid.',
      'They would carry the wrong positions and content from the deleted token.',
    ],
  },
  {
    step: 'positions',
    q: 'Llama 3 8B uses grouped-query attention: 32 query heads, 8 key-value heads. How many rotated key heads does a layer cache per token?',
    choices: [
      '8, each shared by 4 query heads',
      '32, one for each query head',
      '1, a single key head shared by all 32 query heads',
    ],
    answer: 0,
    why: [
      'Right: each key head is rotated and cached once; the 4 query heads of its group score against the same rotated keys.',
      'That is plain multi-head attention, which GQA shrinks.',
      'That is multi-query attention, the extreme of the same idea.',
    ],
  },
  {
    step: 'shaw',
    q: 'Shaw et al. (2018) add learned relative vectors where?',
    choices: [
      'Only to the word embeddings, at the input',
      'To the softmax output, after the weights',
      'To keys in the score (aᴷ), values in the output (aⱽ)',
    ],
    answer: 2,
    why: [
      'Nothing is added at the input.',
      'The weights α stay a softmax of the scores.',
      'Right: e_ij uses x_j W^K + a^K_ij and z_i sums α_ij (x_j W^V + a^V_ij).',
    ],
  },
  {
    step: 'shaw',
    q: 'Transformer-XL’s relative attention score has…',
    choices: [
      'one term, content·content, positions added at the input',
      'four terms: content·content, content·position, u, v',
      'only a per-bucket scalar added to the logit',
    ],
    answer: 1,
    why: [
      'That is the original Transformer’s score with an absolute encoding; Transformer-XL separates four terms.',
      'Right: content·content, content·position, a global content bias u and a global position bias v, with a fixed sinusoidal table R projected by its own learned W_{k,R} (Dai et al. 2019).',
      'That is T5.',
    ],
  },
  {
    step: 't5',
    q: 'T5’s relative bias (32 buckets, max distance 128): what does one layer see of distances 300 and 3000?',
    choices: [
      'The same bias: both are in the last bucket',
      'Different biases, as buckets grow without limit',
      'Nothing: T5 masks keys past the max distance',
    ],
    answer: 0,
    why: [
      'Right: one layer is blind past the max distance; later layers can combine local information.',
      'The logarithmic buckets stop at the max distance.',
      'T5’s encoder attends everywhere; the buckets only set a bias.',
    ],
  },
  {
    step: 'alibi',
    q: 'ALiBi with 12 heads (not a power of two). Its slopes are…',
    choices: [
      'the 8-head slopes, then every other 16-head slope',
      '2^(−8h/12) for h = 1 … 12',
      '1/2 for every head, the same line',
    ],
    answer: 0,
    why: [
      'Right: 2^−1 … 2^−8, then 2^−0.5, 2^−1.5, 2^−2.5, 2^−3.5 (the paper’s code).',
      'That formula is the paper’s for powers of two only.',
      'Each head has its own slope.',
    ],
  },
  {
    step: 'alibi',
    q: 'Which family is used by BLOOM and MPT?',
    choices: ['RoPE', 'ALiBi', 'Learned absolute'],
    answer: 1,
    why: [
      'RoPE is Llama’s, Qwen’s, DeepSeek’s and GPT-NeoX’s.',
      'Right: both add ALiBi’s linear bias to the logits.',
      'That is BERT’s and GPT-2’s.',
    ],
  },
  {
    step: 'scaling',
    q: '“NTK-aware” RoPE scaling (a larger base) slows…',
    choices: [
      'every pair, each of them by the full factor',
      'the fast pairs most, the slow ones less',
      'all but the fastest pair; the slowest most',
    ],
    answer: 2,
    why: [
      'That is linear position interpolation (Chen et al. 2023).',
      'The reverse: the fastest pair is spared, and the slowest slows by the full factor.',
      'Right: ω_i is multiplied by factor^(−2i/(d−2)), which is 1 for i = 0 and 1/factor for the last pair.',
    ],
  },
  {
    step: 'scaling',
    q: 'DeepSeek-V2 uses YaRN with factor 40 and mscale = mscale_all_dim = 0.707. Where does the temperature go?',
    choices: [
      'Nowhere: its attention scale stays exactly 1',
      'Into the values, multiplied after the softmax',
      'Into the softmax scale, × mscale² ≈ 1.59',
    ],
    answer: 2,
    why: [
      'The cos/sin factor is 1, but the logits are still scaled.',
      'YaRN’s temperature acts on the logits.',
      'Right: (0.1·0.707·ln 40 + 1)² ≈ 1.59 multiplies the softmax scale in DeepSeek’s own code; the cos and sin carry a factor of 1.',
    ],
  },
  {
    step: 'extrapolation',
    q: 'Which test shows that an extended-context model actually uses tokens far back?',
    choices: [
      'The attention weight on tokens far back',
      'Retrieval of a passkey hidden far back',
      'The training loss at full length',
    ],
    answer: 1,
    why: [
      'Weight on far tokens shows where attention goes, not that what they hold reaches the output: much of it lands on the first tokens, attention sinks, whatever they hold (Xiao et al. 2023).',
      'Right: passkey retrieval (Mohtashami & Jaggi 2023) fails unless the distant token is attended to.',
      'Training loss says nothing about lengths never trained on.',
    ],
  },
  {
    step: 'extrapolation',
    q: 'A RoPE model trained on 4k-token sequences reads a 16k-token document. Is a query at position 15 000 attending 20 tokens back new to it?',
    choices: [
      'No: its score reads the distance 20, which training saw',
      'Yes: position 15 000 turns q and k to angles never trained',
      'Partly: its slow pairs may still meet unseen angle gaps there',
    ],
    answer: 0,
    why: [
      'Right: q′·k′ depends on the content and the signed offset only (RoFormer eq. 16), and a distance of 20 occurred everywhere in training. What is new at 16k is a distance longer than 4k; that is why interpolating positions (PI, YaRN) works.',
      'Each vector’s own angle is new, but the score reads only the difference of the two angles, which at distance 20 is one training saw.',
      'The angle gap of pair i at distance 20 is 20·ωᵢ, the same at position 15 000 as at position 100.',
    ],
  },
  {
    step: 'extrapolation',
    q: 'A context-extended model keeps a low perplexity on 32k-token documents. Does that show it uses information 30k tokens back?',
    choices: [
      'Yes: perplexity averages over every token in the text',
      'No: most next tokens need only nearby context',
      'Yes, as long as the perplexity stays below about 10',
    ],
    answer: 1,
    why: [
      'It averages over every predicted token, but each prediction may use only the last few hundred tokens: averaging does not make a model look far back.',
      'Right: most next tokens are predictable from recent context, so a model that looks only locally can keep a low perplexity. A retrieval test such as passkey retrieval hides one fact far back and fails unless that token is actually attended to.',
      'No threshold tells local from long-range use: a model that ignores everything beyond a few thousand tokens can have a low perplexity.',
    ],
  },
];
