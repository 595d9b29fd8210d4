// The guided path: data only (the shell, chrome.js, renders it). Each step is a URL (?step=<id>) and
// shows one view with a state patch, a short text, the papers it rests on, one "what to notice"
// (an observation, not an instruction), one predict-then-reveal question and the controls the step
// uses (the sidebar shows only those). A step whose view is not registered in this build is skipped
// by the shell. Claims are checked against the papers in P; where the page simplifies, the text says so.

/** The papers the steps cite: [short name, title, link]. */
export const P = {
  vaswani: ['Vaswani et al. 2017', 'Attention Is All You Need', 'https://arxiv.org/abs/1706.03762'],
  devlin: ['Devlin et al. 2019', 'BERT', 'https://arxiv.org/abs/1810.04805'],
  radford: [
    'Radford et al. 2019',
    'GPT-2: Language Models are Unsupervised Multitask Learners',
    'https://cdn.openai.com/better-language-models/language_models_are_unsupervised_multitask_learners.pdf',
  ],
  shaw: [
    'Shaw et al. 2018',
    'Self-Attention with Relative Position Representations',
    'https://arxiv.org/abs/1803.02155',
  ],
  dai: ['Dai et al. 2019', 'Transformer-XL', 'https://arxiv.org/abs/1901.02860'],
  raffel: ['Raffel et al. 2020', 'T5: Exploring the Limits of Transfer Learning', 'https://arxiv.org/abs/1910.10683'],
  su: [
    'Su et al. 2021',
    'RoFormer: Enhanced Transformer with Rotary Position Embedding',
    'https://arxiv.org/abs/2104.09864',
  ],
  press: ['Press et al. 2022', 'Train Short, Test Long (ALiBi)', 'https://arxiv.org/abs/2108.12409'],
  ke: [
    'Ke et al. 2021',
    'Rethinking Positional Encoding in Language Pre-training (TUPE)',
    'https://arxiv.org/abs/2006.15595',
  ],
  haviv: [
    'Haviv et al. 2022',
    'Transformer Language Models without Positional Encodings Still Learn Positional Information',
    'https://arxiv.org/abs/2203.16634',
  ],
  kazemnejad: [
    'Kazemnejad et al. 2023',
    'The Impact of Positional Encoding on Length Generalization in Transformers',
    'https://arxiv.org/abs/2305.19466',
  ],
  chen: [
    'Chen et al. 2023',
    'Extending Context Window of Large Language Models via Positional Interpolation',
    'https://arxiv.org/abs/2306.15595',
  ],
  peng: [
    'Peng et al. 2023',
    'YaRN: Efficient Context Window Extension of Large Language Models',
    'https://arxiv.org/abs/2309.00071',
  ],
  barbero: [
    'Barbero et al. 2024',
    'Round and Round We Go! What makes Rotary Positional Encodings useful?',
    'https://arxiv.org/abs/2410.06205',
  ],
  mohtashami: [
    'Mohtashami & Jaggi 2023',
    'Landmark Attention (the passkey retrieval test)',
    'https://arxiv.org/abs/2305.16300',
  ],
  llama3: ['Llama Team 2024', 'The Llama 3 Herd of Models', 'https://arxiv.org/abs/2407.21783'],
  deepseek: ['DeepSeek-AI 2024', 'DeepSeek-V2', 'https://arxiv.org/abs/2405.04434'],
  black: ['Black et al. 2022', 'GPT-NeoX-20B', 'https://arxiv.org/abs/2204.06745'],
  bloom: ['BigScience 2022', 'BLOOM', 'https://arxiv.org/abs/2211.05100'],
};

const cite = (k) => `<a href="${P[k][2]}" rel="noopener">${P[k][0]}</a>`;

export const STEPS = [
  {
    id: 'why',
    title: 'Why positions? Attention without a mask',
    view: 'shuffle',
    state: { method: 'rope', sentence: 'dog bites man', order: '2,1,0', dim: 32, heads: 4, head: 0 },
    controls: ['method'],
    papers: ['vaswani'],
    text: `<p>Attention compares every word with every other word, and nothing else. Take attention <em>without a
      mask</em>, where every word sees every word (an encoder such as BERT), give it words with no positions and
      shuffle them: it computes exactly the same numbers, only reordered. Self-attention is permutation-equivariant,
      which is why ${cite('vaswani')} add positional encodings at all.</p>
      <p>The left side runs one attention layer with no positional information; the right side adds one (RoPE here;
      pick another with <em>method</em>). The words are random vectors, one per word: the page simplifies a model to
      one layer with untrained weights.</p>`,
    notice:
      'In the no-position panel the shuffled matrix holds the original numbers with rows and columns reordered (hovering a cell lights up the same word pair in the other matrix); in the panel with positions the numbers themselves change.',
    predict: {
      q: '“dog bites man” becomes “man bites dog”. With no positions and no mask, what happens to the attention matrix?',
      choices: [
        'The same numbers, rows and columns reordered',
        'Different numbers: attention notices the new order',
        'The same matrix in the same order',
        'Every row becomes uniform',
      ],
      answer: 0,
      why: 'Each score is q·k of two word vectors; without positions or a mask nothing else enters. Reordering the words reorders the rows and columns, and each word’s output is the same vector as before, so a bag of words is all the layer can see.',
    },
  },
  {
    id: 'causal',
    title: 'A causal mask already knows the order',
    view: 'shuffle',
    state: { method: 'rope', sentence: 'dog bites man', order: '2,1,0', dim: 32, heads: 4, head: 0, causal: true },
    controls: ['method'],
    papers: ['haviv', 'kazemnejad', 'radford'],
    text: `<p>Decoders (GPT-2, Llama, Qwen, DeepSeek) add a <em>causal mask</em>: word <i>i</i> attends only to words
      0 … <i>i</i>. The mask is −∞ added to the logits of later keys, just before the softmax. With it, shuffling is
      no longer a reordering even without positions: the word in the first slot sees only itself, the word in the
      third slot sees three words. A softmax over <i>i</i> + 1 keys already depends on <i>i</i> (uniform attention
      gives each key 1/(<i>i</i> + 1)), so how many tokens precede a word leaks into its output.</p>
      <p>Models learn to use this: causal language models trained with no positional encoding at all are competitive
      and carry absolute position in their activations (${cite('haviv')}); a causal layer without positions can
      represent absolute and relative positions (${cite('kazemnejad')}). An encoder without a mask (BERT) has no such
      signal and needs positions.</p>
      <p>Where things sit: RoPE rotates q and k before their dot product; ALiBi and T5 add a bias to the logits, next
      to the mask; then the softmax; then the weighted sum of the values.</p>`,
    notice:
      'With the mask the upper triangle of every matrix is 0, and in the no-position panel the shuffled matrix holds different numbers from the original, not the same ones reordered.',
    predict: {
      q: 'Same words, no positions, but now a causal mask. Shuffle the sentence: is the new matrix the old one with its rows and columns reordered?',
      choices: [
        'Yes: without positions order is still invisible',
        'No: which words a word can see depends on its slot',
        'No: the mask makes every row identical',
        'Yes, but only for three words',
      ],
      answer: 1,
      why: 'The word in slot i sees the words in slots 0 … i. Move it and it sees a different set, so its softmax and its output change. That is why decoders without positions still learn order (Haviv et al. 2022) while a maskless encoder cannot.',
    },
  },
  {
    id: 'sinusoidal',
    title: 'Sinusoidal: the formula, by hand',
    view: 'worked',
    state: { base: 10000 },
    controls: ['base'],
    papers: ['vaswani'],
    text: `<p>The original Transformer (${cite('vaswani')}) gives position <i>p</i> a vector of sines and cosines:
      PE(<i>p</i>, 2<i>i</i>) = sin(<i>p</i> / base<sup>2<i>i</i>/<i>d</i></sup>), PE(<i>p</i>, 2<i>i</i>+1) = cos(the
      same angle), base = 10000. With <i>d</i> = 4 there are just two frequencies, small enough to check on paper.</p>
      <p>The vector is then added to the word vector, after the paper multiplies the word embeddings by
      √<i>d</i><sub>model</sub> (section 3.4). A common reading is that this keeps the word from being drowned by the
      position, whose entries lie in [−1, 1]; the paper states the scaling, not why.</p>`,
    notice:
      'Column 0 changes a lot from row to row (ω₀ = 1 radian per position), column 2 barely moves (ω₁ = 0.01): fast and slow clocks.',
    predict: {
      q: 'With <i>d</i> = 4 (sin, cos, sin, cos), what is the vector of position 0?',
      choices: ['[0, 1, 0, 1]', '[0, 0, 0, 0]', '[1, 0, 1, 0]', '[1, 1, 1, 1]'],
      answer: 0,
      why: 'Every angle is 0 at p = 0: sin 0 = 0 and cos 0 = 1. Position 0 is not the zero vector, so the embedding of the first word is shifted too.',
    },
  },
  {
    id: 'sinusoidal-heatmap',
    title: 'Sinusoidal: the whole table',
    view: 'heatmap',
    state: { method: 'sinusoidal', dim: 64, length: 128, layout: 'interleaved', base: 10000 },
    controls: ['dim', 'base', 'layout'],
    papers: ['vaswani'],
    text: `<p>The same formula for 128 positions and 64 dimensions. Each pair of columns is one frequency
      ω<sub><i>i</i></sub> = base<sup>−2<i>i</i>/<i>d</i></sup>, from one turn every 2π positions on the left to one
      every 2π·base<sup>(<i>d</i>−2)/<i>d</i></sup> on the right: 2π·7499 ≈ 47 100 positions at <i>d</i> = 64 (the
      last pair is <i>i</i> = <i>d</i>/2 − 1, so the exponent never reaches 1). Point at any cell: the formula fills
      in with its numbers.</p>`,
    notice:
      'The left columns flicker, the right ones are almost constant: every position gets a distinct pattern, like the digits of a clock with many hands.',
    predict: {
      q: 'At <i>d</i> = 64 and base 10000, how many positions does the slowest pair take for one full turn?',
      choices: ['2π ≈ 6.3', '2π·10000 ≈ 62 800', '2π·10000<sup>62/64</sup> ≈ 47 100', 'It never turns'],
      answer: 2,
      why: 'The last pair is i = 31, so ω = 10000^(−62/64) and the wavelength is 2π/ω = 2π·10000^(62/64) ≈ 2π·7499. The often-quoted 2π·10000 is the limit as d grows, not the wavelength of any pair.',
    },
  },
  {
    id: 'waves',
    title: 'Sinusoidal: the waves',
    view: 'waves',
    state: { method: 'sinusoidal', dim: 64, length: 64, layout: 'interleaved' },
    controls: ['dim', 'length', 'base'],
    papers: ['vaswani'],
    text: `<p>Follow single dimensions along the positions. Each is a sine wave; each pair turns at its own speed,
      geometrically slower from one pair to the next (each ω is the previous one times base<sup>−2/<i>d</i></sup>).</p>`,
    notice: 'Dim 0 completes a turn every 6.28 positions; the last pair has hardly started at position 64.',
    predict: {
      q: 'Of the 32 pairs at <i>d</i> = 64, about how many complete at least one full turn within these 64 positions?',
      choices: ['All 32', 'About 9', 'Only pair 0', 'None'],
      answer: 1,
      why: 'Pair i turns once every 2π·10000^(i/32) positions; that is at most 64 while 10000^(i/32) ≤ 10.2, i.e. for i = 0 … 8. The other 23 pairs move less than one turn.',
    },
  },
  {
    id: 'shift',
    title: 'Moving k positions is one fixed rotation',
    view: 'shift',
    state: { dim: 64, base: 10000, pos: 10, shift: 3 },
    controls: ['dim', 'base'],
    papers: ['vaswani'],
    text: `<p>For every offset <i>k</i> there is one matrix M<sub><i>k</i></sub> with PE(<i>p</i>+<i>k</i>) =
      M<sub><i>k</i></sub>·PE(<i>p</i>) at every position <i>p</i>: a 2 × 2 rotation by <i>k</i>·ω<sub><i>i</i></sub>
      for each pair. ${cite('vaswani')} chose sinusoids because they <em>hypothesized</em> this would let a model
      learn to attend by relative position; the paper does not show that trained models do so, and once the
      encoding is added to word vectors and projected, nothing forces a layer to use M<sub><i>k</i></sub>.
      RoPE (two steps on) builds this rotation into attention itself.</p>`,
    notice: 'M_k does not depend on p: both sides agree at every position, with the same matrix.',
    predict: {
      q: 'M<sub>3</sub> maps PE(10) to PE(13). What must change in M<sub>3</sub> to map PE(50) to PE(53)?',
      choices: ['Nothing: the same matrix', 'Its angles grow by 40·ω', 'It must be re-learned', 'It becomes a scaling'],
      answer: 0,
      why: 'Each pair of PE(p) is (sin pω, cos pω); adding k turns it by kω whatever p is, so M_k depends on k only. That a layer learns to exploit this was Vaswani et al.’s hope, not a result.',
    },
  },
  {
    id: 'learned',
    title: 'Learned tables and their hard edge',
    view: 'learned',
    state: { dim: 64, length: 96, train: 64 },
    controls: ['length', 'train'],
    papers: ['devlin', 'radford', 'vaswani'],
    text: `<p>BERT (${cite('devlin')}) and GPT-2 (${cite('radford')}) learn one vector per position instead, added to
      the word vector. The table has <code>max_position_embeddings</code> rows (512 for BERT, 1024 for GPT-2), fixed
      when the model is built; training may use shorter sequences (BERT trained 90% of its steps at length 128), so the
      last rows can be the least trained. ${cite('vaswani')} found learned and sinusoidal versions “nearly identical” on
      translation. The figure shows the table at its random initialisation (𝒩(0, 0.02²)); the lab, a few steps on,
      draws the table its tiny model learns.</p>`,
    notice:
      'Past the table’s last row (the dashed line) there is no vector to look up: position 64 is an error, not a guess.',
    predict: {
      q: 'GPT-2 small has 1024 position rows. What does it do with a token at position 1024?',
      choices: [
        'Extrapolates its learned pattern',
        'Nothing sensible: there is no row 1024 (the lookup fails or must be clipped)',
        'Falls back to sinusoids',
        'Reuses row 0',
      ],
      answer: 1,
      why: 'A learned table is a lookup: rows that do not exist have no value. Code must refuse, truncate or slide a window; no row is invented.',
    },
  },
  {
    id: 'rope',
    title: 'RoPE: rotate the query and the key',
    view: 'rotation',
    state: { method: 'rope', dim: 64, base: 10000, pos: 5, kpos: 8, scaling: 'none', speed: 2 },
    controls: ['dim', 'base'],
    papers: ['su', 'barbero'],
    text: `<p>RoPE (${cite('su')}) rotates each pair of the query by <i>m</i>·ω<sub><i>i</i></sub> and of the key by
      <i>n</i>·ω<sub><i>i</i></sub>, with the sinusoids’ frequencies. Rotations compose, so the score is
      q<sub><i>m</i></sub>′·k<sub><i>n</i></sub>′ = q·R((<i>n</i> − <i>m</i>)·ω) k (RoFormer eq. 16): it depends on
      the <em>content</em> of q and k and on the <em>signed</em> offset <i>n</i> − <i>m</i>, not on <i>m</i> and
      <i>n</i> separately. Per pair it is |q||k|·cos(φ<sub>k</sub> − φ<sub>q</sub> + (<i>n</i> − <i>m</i>)ω): swap
      the positions and the score changes unless q and k point the same way.</p>
      <p>Where it acts: inside every attention layer, after W<sub>Q</sub> and W<sub>K</sub> project, on each head’s q
      and k separately. The values v are not rotated, and nothing is added to the word vectors.</p>`,
    notice:
      'The query and the key turn by their own angles; the angle between them, and the score, stay the same when both positions move by the same amount.',
    predict: {
      q: 'q sits at position 5 and k at 8, different vectors. Swap their positions (q at 8, k at 5). The score q′·k′…',
      choices: [
        'stays the same: RoPE sees only the distance 3',
        'changes in general: the offset went from +3 to −3',
        'becomes 0',
        'doubles',
      ],
      answer: 1,
      why: 'Per pair the score is |q||k| cos(φk − φq + (n − m)ω). Flipping the sign of n − m changes it unless φk = φq (q and k aligned, e.g. the same vector). RoPE is relative, not symmetric, and never “distance only” for real q and k.',
    },
  },
  {
    id: 'rope-relative',
    title: 'RoPE with one vector at every position',
    view: 'similarity',
    state: { method: 'rope', dim: 64, length: 256, scaling: 'none' },
    controls: ['dim', 'length'],
    papers: ['su', 'barbero'],
    text: `<p>Here the <em>same</em> vector is placed at every position, rotated, and every pair scored. Each score is
      then x·R((<i>j</i> − <i>i</i>)·ω) x, so the matrix is constant along each diagonal, and symmetric because q = k.
      With different q and k the diagonals stay constant but the matrix is no longer symmetric.</p>
      <p>The first curve is the matrix’s first row. RoFormer (section 3.4.3) bounds |q·k| by a content term times
      Σ|S<sub><i>j</i></sub>|, a function of the distance that decays, with ripples; the second curve is that
      function as the paper plots it (its Fig. 2).
      For aligned q and k, as here, the score itself shrinks on average with distance; for general q and k it need
      not decay, and trained models use RoPE’s frequencies in other ways too (${cite('barbero')}).</p>`,
    notice:
      'Every diagonal has one colour, and the score of this one vector shrinks (with ripples) as the distance grows.',
    predict: {
      q: 'With one vector x as both query and key at every position, the score between positions i and j depends on…',
      choices: ['|j − i| only', 'i and j separately', 'j only', 'nothing: it is constant'],
      answer: 0,
      why: 'x·R(θ)x = Σ over pairs of |x_pair|² cos θ_pair, and cos is even, so only |j − i| matters. That is a property of this one-vector figure, not of RoPE in general.',
    },
  },
  {
    id: 'positions',
    title: 'Position ids: padding, packing, a KV cache',
    view: 'rotation',
    state: { method: 'rope', dim: 64, base: 10000, pos: 1000, kpos: 1003, scaling: 'none', speed: 2 },
    controls: ['dim', 'base'],
    papers: ['su', 'llama3'],
    text: `<p>Every encoding reads a <em>position id</em> per token, and the id is not always the token’s index in the
      tensor. With left padding (batched prompts), ids should count real tokens only (Hugging Face builds them from
      the attention mask). With packed sequences (several documents in one row), ids may restart at 0 for each
      document, with a block-diagonal mask so that documents do not attend to each other (Llama 3 masks across
      documents); many training runs do neither, and then documents see each other. In generation with
      a KV cache, the new token’s id is the number of tokens already cached, and the cached keys keep the rotation
      they got when they were stored.</p>
      <p>A relative scheme (RoPE, ALiBi) gives the same scores when all ids shift together, in exact arithmetic;
      an absolute table (learned, sinusoidal) does not. Here q is at 1000 and k at 1003: the same offset as q at 5
      and k at 8.</p>`,
    notice:
      'At positions 1000 and 1003 each vector has turned much further than at 5 and 8, yet the angle between them is the same.',
    predict: {
      q: 'Generation with a KV cache: 10 tokens are cached and a new token arrives. Which RoPE position does its query get, and what happens to the cached keys?',
      choices: [
        'Position 10; the cached keys keep the rotation they got when stored',
        'Position 0; every cached key is rotated back by 10',
        'Position 10; every cached key is rotated again by 10',
        'No position: cached tokens make RoPE unnecessary',
      ],
      answer: 0,
      why: 'Each key was rotated by its own position once, when it was computed. The new query is rotated by 10, and the score then sees the offsets 10 − j, as it would without a cache.',
    },
  },
  {
    id: 'alibi',
    title: 'ALiBi: a straight-line penalty',
    view: 'bias',
    state: { heads: 8, panel: 'alibi' },
    controls: ['heads'],
    papers: ['press', 'bloom'],
    text: `<p>ALiBi (${cite('press')}) adds nothing to the vectors. It adds <i>m</i><sub><i>h</i></sub>·(<i>j</i> −
      <i>i</i>) to each causal attention logit, after q·k/√<i>d</i> and before the softmax: a penalty growing linearly
      with distance, with a fixed slope per head. For <i>H</i> heads, a power of two, the slopes are
      2<sup>−8<i>h</i>/<i>H</i></sup> for <i>h</i> = 1 … <i>H</i>; for other head counts the paper’s code takes the
      slopes of the nearest lower power of two and adds every other slope of the next power (12 heads: 2<sup>−1</sup> …
      2<sup>−8</sup>, then 2<sup>−0.5</sup>, 2<sup>−1.5</sup>, 2<sup>−2.5</sup>, 2<sup>−3.5</sup>). BLOOM and MPT use
      it.</p>`,
    notice:
      'Head 1’s bias drops by 0.5 per token of distance, head 8’s by 1/256: a key 100 tokens back costs head 8 only 0.39.',
    predict: {
      q: 'With 8 heads, what is the slope of the steepest head (head 1)?',
      choices: ['1/2', '1/256', '1', '1/8'],
      answer: 0,
      why: '2^(−8·1/8) = 1/2; head 8 gets 2^(−8) = 1/256. A key 10 tokens back costs head 1 a logit of −5, head 8 only −0.04.',
    },
  },
  {
    id: 't5',
    title: 'T5: buckets of distances',
    view: 'bias',
    state: { panel: 't5', buckets: 32, maxdist: 128, t5dir: 'bidirectional' },
    controls: ['buckets', 'maxdist', 't5dir'],
    papers: ['raffel'],
    text: `<p>T5 (${cite('raffel')}) learns one scalar per bucket of relative distance and per head, added to the
      logit; the table is shared by all layers. Small distances get exact buckets, larger ones logarithmically wider
      buckets, and every distance beyond the max distance (128) shares the last bucket. The paper notes that one layer
      is blind to offsets beyond 128, while later layers can combine local information to reach further.
      (T5’s code also drops the 1/√<i>d</i> of the logits, folding it into the initialisation.)</p>`,
    notice: 'The staircase has single steps near 0 and long flat steps further out; past the max distance it is flat.',
    predict: {
      q: '32 buckets, max distance 128, bidirectional. Do the distances 200 and 2000 get different buckets?',
      choices: [
        'No: both land in the last bucket of their direction',
        'Yes: the buckets are logarithmic',
        'Yes: every distance has its own bucket',
        'Only if the layer is deep',
      ],
      answer: 0,
      why: 'Every distance at or beyond the max distance shares one bucket, so one layer gives both the same bias. Only stacking layers can tell them apart.',
    },
  },
  {
    id: 'shaw',
    title: 'Shaw and Transformer-XL: learned relative vectors',
    view: 'bias',
    state: { panel: 'shaw', shawk: 4 },
    controls: ['shawk'],
    papers: ['shaw', 'dai'],
    text: `<p>${cite('shaw')} learn two vectors per relative distance, clipped to ±<i>k</i>: a<sup>K</sup> is added
      to the key inside the score, e<sub><i>ij</i></sub> = x<sub><i>i</i></sub>W<sup>Q</sup>·(x<sub><i>j</i></sub>W<sup>K</sup>
      + a<sup>K</sup><sub><i>ij</i></sub>)/√<i>d</i>, and a<sup>V</sup> to the value in the output,
      z<sub><i>i</i></sub> = Σ α<sub><i>ij</i></sub>(x<sub><i>j</i></sub>W<sup>V</sup> + a<sup>V</sup><sub><i>ij</i></sub>).
      The figure shows which row of the table each pair reads.</p>
      <p>Transformer-XL (${cite('dai')}) writes the score as four terms: content·content
      (q·W<sub><i>k</i>,E</sub>x<sub><i>j</i></sub>), content·position (q·W<sub><i>k</i>,R</sub>R<sub><i>i</i>−<i>j</i></sub>),
      a global content bias (u·W<sub><i>k</i>,E</sub>x<sub><i>j</i></sub>) and a global position bias
      (v·W<sub><i>k</i>,R</sub>R<sub><i>i</i>−<i>j</i></sub>). R is a sinusoidal table of relative distances with its
      own projection W<sub><i>k</i>,R</sub>, and u, v are learned vectors. Being relative, it lets a segment attend to
      the cached states of the previous one. This page does not draw Transformer-XL.</p>`,
    notice: 'Beyond ±k every distance shares one index: the model cannot tell 5 from 500 there.',
    predict: {
      q: 'Shaw with k = 4: a key 5 tokens back and a key 500 tokens back read…',
      choices: [
        'the same row of a<sup>K</sup> (and of a<sup>V</sup>)',
        'rows 5 and 500',
        'no row at all',
        'rows that differ by 495',
      ],
      answer: 0,
      why: 'Distances are clipped to ±k before the lookup, so both read the row of −4. Shaw et al. found k of a few tokens enough for translation.',
    },
  },
  {
    id: 'concat',
    title: 'Add or concatenate?',
    view: 'concat',
    state: { dim: 64, base: 10000, pos: 6 },
    controls: ['dim', 'base'],
    papers: ['vaswani', 'ke'],
    text: `<p>Absolute encodings are usually added to the word vectors. The figure computes raw dot products: with
      addition, (x + p)·(y + q) has word·word, position·position and two cross terms word·position; with
      concatenation, [x; p]·[y; q] has no cross terms.</p>
      <p>A real layer first projects with W<sub>Q</sub> and W<sub>K</sub>, and a full matrix acting on [x; p] mixes
      the two halves again, so the cross terms come back unless the projections are block-diagonal. TUPE
      (${cite('ke')}) does that on purpose: separate projections for words and positions, and no cross terms.</p>`,
    notice:
      'With addition the score splits into four terms, two of them word × position; the concatenated dot product has two terms.',
    predict: {
      q: 'Concatenate [x; p] and apply a full learned W<sub>Q</sub> and W<sub>K</sub>. Are there word × position cross terms in the score?',
      choices: [
        'Yes, unless W<sub>Q</sub> and W<sub>K</sub> are block-diagonal',
        'No, never: concatenation keeps them apart',
        'Only with sinusoids',
        'Only at position 0',
      ],
      answer: 0,
      why: 'W_Q[x; p] = A x + B p mixes both halves; its product with W_K[y; q] contains x·p-type terms. Keeping them apart needs block-diagonal projections, as in TUPE (Ke et al. 2021).',
    },
  },
  {
    id: 'scaling',
    title: 'RoPE scaling in real models',
    view: 'scaling',
    state: { preset: 'llama31-8b', base: 500000, dim: 128, scaling: 'llama3', factor: 8, rope: 'half' },
    controls: ['scaling', 'factor'],
    papers: ['chen', 'peng', 'llama3', 'deepseek'],
    text: `<p>Long-context models change RoPE’s frequencies so that a longer context maps onto angles seen in
      training. They differ in which pairs they slow. Linear position interpolation (${cite('chen')}) divides every
      position by the factor: all pairs slow down. “NTK-aware” scaling (an online post of 2023, analysed by
      ${cite('peng')}) raises the base instead: every pair slows except
      the fastest, the slowest by the full factor. YaRN (${cite('peng')}) leaves pairs that turned many times in
      training alone, divides those that never completed a turn by the factor, ramps in between, and scales the
      logits by a temperature. Llama 3.1 (${cite('llama3')}) uses the same idea with fixed thresholds and no
      temperature: wavelengths below 2048 tokens unchanged, above 8192 divided by 8, blended between.</p>
      <p>DeepSeek-V2 (${cite('deepseek')}) uses YaRN with factor 40; its cos and sin carry no extra factor
      (mscale / mscale_all_dim = 1), but its softmax scale is multiplied by mscale² ≈ 1.59.</p>`,
    notice: 'Llama-3.1 leaves the fast pairs alone (ratio 1), divides the slow ones by 8 and blends in between.',
    predict: {
      q: 'Linear position interpolation by a factor of 4: which pairs turn more slowly afterwards?',
      choices: ['All pairs, each by 4', 'Only the slow pairs', 'Only the fast pairs', 'None: only the base changes'],
      answer: 0,
      why: 'Dividing the position by 4 divides every angle pω by 4. NTK-aware scaling spares the fastest pair; YaRN and Llama 3.1 spare all the fast ones.',
    },
  },
  {
    id: 'extrapolation',
    title: 'Past the training length',
    view: 'extrapolation',
    state: { dim: 64, length: 256, train: 128, scaling: 'none' },
    controls: ['scaling', 'factor', 'train'],
    papers: ['press', 'chen', 'mohtashami'],
    text: `<p>Every method past the length it was trained on (red line). Sinusoids and RoPE keep turning into angle
      combinations never seen in training; learned rows do not exist; ALiBi’s penalty just keeps growing.</p>
      <p>How extension is judged matters. Perplexity on long documents can stay low while the model ignores most of
      the far context: ${cite('press')} attribute most of ALiBi’s perplexity gain past the training length to
      avoiding the “early token curse”, not to using more context. Retrieval
      tests such as passkey retrieval (${cite('mohtashami')}; used by ${cite('chen')}) hide one fact far back and ask
      for it, which only works if distant tokens are really used.</p>`,
    notice:
      'Past the red line the sinusoidal and RoPE rows keep changing into new patterns, the learned table has no rows, and ALiBi’s values keep growing.',
    predict: {
      q: 'A context-extended model has low perplexity at 32k tokens. Does that show it uses information 30k tokens back?',
      choices: [
        'No: perplexity is dominated by nearby tokens; a retrieval test such as passkey checks it',
        'Yes: perplexity covers every token',
        'Yes, if perplexity is below 10',
        'No: perplexity cannot be measured past the training length',
      ],
      answer: 0,
      why: 'Most next tokens are predictable from recent context, so a model that looks only locally can keep a low perplexity. Passkey retrieval fails unless the far token is actually attended to.',
    },
  },
  {
    id: 'lab',
    title: 'Train a tiny model',
    view: 'lab',
    // opens on the task the step's question asks about
    state: { labtask: 'first' },
    controls: [],
    papers: ['haviv', 'kazemnejad', 'press'],
    text: `<p>Train a small causal model with each encoding and test it beyond its training length. The model is tiny
      and the tasks are toys: the page simplifies, and results at this scale need not carry over to large models.
      Compare what you measure with the table usually repeated.</p>`,
    notice: 'Each curve is one trained model; the dashed line is the training length.',
    predict: {
      q: 'The lab’s model is causal. On “which marked token came first”, what can NoPE (no positional encoding) do?',
      choices: [
        'It can solve it: the causal mask carries order',
        'Nothing: without positions it must guess',
        'Only up to the training length',
        'It cannot be trained',
      ],
      answer: 0,
      why: 'A causal mask lets a token see only what precedes it, which is enough to tell which came first (Haviv et al. 2022). Press Train to see what this model does.',
    },
  },
  {
    id: 'compare',
    title: 'Pair layouts and partial rotary',
    view: 'compare',
    state: { method: 'sinusoidal', vs: 'rope', dim: 64, length: 128 },
    controls: ['rope', 'base'],
    papers: ['su', 'black'],
    text: `<p>Sinusoidal and RoPE are drawn as the same quantity: RoPE’s sin θ and cos θ per pair are exactly what a
      sinusoidal table holds. What differs is which dimensions form a pair. RoFormer and Meta’s Llama code rotate
      neighbours (2<i>i</i>, 2<i>i</i>+1); GPT-NeoX (${cite('black')}) and Hugging Face’s Llama rotate
      (<i>i</i>, <i>i</i> + <i>d</i>/2). The two give the same model only if W<sub>Q</sub> and W<sub>K</sub> are
      permuted to match, which is why conversion scripts permute them; a checkpoint run with the other layout produces
      wrong scores and garbled text. Likewise <em>partial rotary</em> models rotate only some dimensions of each head
      (GPT-NeoX-20B a quarter, GPT-J 64 of 256): rotating all of them breaks such a checkpoint.</p>`,
    notice:
      'With equal base and dim the two pictures hold the same numbers in a different column order (RoPE’s half layout puts all sines first).',
    predict: {
      q: 'A checkpoint trained with interleaved pairs is run by code that rotates (i, i + d/2), weights unchanged. What happens?',
      choices: [
        'The scores are wrong and the output degrades badly',
        'Nothing: the pairing is cosmetic',
        'Only long contexts are affected',
        'The model runs slower',
      ],
      answer: 0,
      why: 'Each pair of q and k must be rotated by its own frequency. The other layout rotates dimensions that were never paired, with the wrong frequencies, so every score changes. Permuting the rows of W_Q and W_K converts one layout into the other.',
    },
  },
  {
    id: 'recap',
    title: 'Recap: the methods side by side',
    view: 'extrapolation',
    state: { dim: 64, length: 256, train: 128, scaling: 'none' },
    controls: [],
    papers: ['vaswani', 'devlin', 'shaw', 'dai', 'raffel', 'su', 'press', 'haviv'],
    text: `<p>The methods of this path in one table. The lab column names the method’s curve in the lab: run the lab
      for the numbers, which describe this page’s tiny model, not the models listed.</p>`,
    // a second block of the step's text (chrome.js shows it after `text`)
    table: `<div class="recap-wrap"><table class="recap"><caption>Positional methods at a glance</caption>
      <thead><tr><th scope="col">method</th><th scope="col">used in</th><th scope="col">parameters</th>
      <th scope="col">in the lab</th><th scope="col">trade-offs</th><th scope="col">paper</th></tr></thead><tbody>
      <tr><th scope="row">none (NoPE)</th><td>research decoders</td><td>none</td><td>NoPE</td>
        <td>needs a causal mask; an encoder cannot see order</td><td>${cite('haviv')}</td></tr>
      <tr><th scope="row">sinusoidal</th><td>original Transformer</td><td>none (base, <i>d</i>)</td><td>Sinusoidal</td>
        <td>added to the words; unseen angle combinations past training</td><td>${cite('vaswani')}</td></tr>
      <tr><th scope="row">learned absolute</th><td>BERT, GPT-2</td><td>max_position_embeddings × <i>d</i></td>
        <td>Learned</td><td>flexible; no row past the table</td><td>${cite('devlin')}</td></tr>
      <tr><th scope="row">Shaw / Transformer-XL</th><td>Transformer-XL, XLNet</td><td>(2<i>k</i>+1) vectors for keys and
        values; W<sub><i>k</i>,R</sub>, u, v</td><td>not in the lab</td><td>relative; extra terms in every score</td>
        <td>${cite('shaw')}, ${cite('dai')}</td></tr>
      <tr><th scope="row">T5 buckets</th><td>T5, Flan-T5</td><td>buckets × heads scalars, shared by layers</td>
        <td>T5 buckets</td><td>one layer is blind past the max distance</td><td>${cite('raffel')}</td></tr>
      <tr><th scope="row">RoPE</th><td>GPT-NeoX, Llama, Qwen, DeepSeek</td><td>none (base, pair layout, rotary
        fraction, scaling)</td><td>RoPE</td><td>relative in q·k; needs scaling to extend the context</td>
        <td>${cite('su')}</td></tr>
      <tr><th scope="row">ALiBi</th><td>BLOOM, MPT</td><td>none (fixed slopes)</td><td>ALiBi</td>
        <td>recency bias: perplexity holds past the training length, far tokens get little weight</td><td>${cite('press')}</td></tr>
      </tbody></table></div>`,
    notice: 'Past the red line, the absolute methods meet inputs they never saw, while the biases keep their shape.',
    predict: {
      q: 'Which of these adds nothing to the token vectors and has no learned parameters?',
      choices: ['ALiBi', 'T5 buckets', 'Learned absolute', 'Shaw'],
      answer: 0,
      why: 'ALiBi’s slopes are fixed per head and its bias goes to the logits. T5 and Shaw learn relative parameters; a learned table adds learned rows to the words.',
    },
  },
  {
    id: 'selfcheck',
    title: 'Self-check',
    view: 'heatmap',
    quiz: true,
    state: { method: 'sinusoidal' },
    controls: [],
    papers: [],
    text: '<p>Questions on the whole path. Each answer comes with an explanation and a link to the step that teaches it.</p>',
    notice: 'Every choice has its own explanation, shown once you have answered.',
  },
];

// Each step's sources as [short name, title, link], for the shell.
for (const s of STEPS) s.sources = (s.papers ?? []).map((k) => P[k]);
