// The guided path: data only (the shell, chrome.js, renders it). Each step is a URL (?step=<id>) and
// shows one view with a state patch and the controls the step uses (the sidebar shows only those).
// A step is predict → observe → explain: it opens with its `intro` (the setup, which must not give
// the answer away), its question and the figure; the explanation (`text`, `table`), the papers it
// rests on, "what to notice" and the figure's verdicts appear once the reader commits an answer or
// asks to be told (chrome.js); until then the figure, its controls and the explorer link are locked and
// what `hold` names (selectors inside the figure) is out of the page. `why` explains every choice, in
// the authored order; a wrong pick is shown its own reason and may try again. tests/questions.test.js
// checks that no blind strategy (first, last, longest, echo, odd one out, hedged or absolute wording,
// slot counting) scores above 33% on the path over 2,000 simulated readers. A step whose view is not
// registered in this build is skipped by the shell. Claims are checked against the papers in P;
// where the page simplifies, the text says so.

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
  bloc97: [
    'bloc97 2023',
    'NTK-Aware Scaled RoPE (the post that proposed raising the base)',
    'https://www.reddit.com/r/LocalLLaMA/comments/14lz7j5/ntkaware_scaled_rope_allows_llama_models_to_have/',
  ],
  hfrope: [
    'Hugging Face transformers',
    'modeling_rope_utils.py (_compute_llama3_parameters: Llama 3.1’s rule, as in Meta’s apply_scaling)',
    'https://github.com/huggingface/transformers/blob/main/src/transformers/modeling_rope_utils.py',
  ],
  longrope: [
    'Ding et al. 2024',
    'LongRoPE: Extending LLM Context Window Beyond 2 Million Tokens',
    'https://arxiv.org/abs/2402.13753',
  ],
  xpos: ['Sun et al. 2023', 'A Length-Extrapolatable Transformer (xPos)', 'https://arxiv.org/abs/2212.10554'],
  qwen2vl: ['Wang et al. 2024', 'Qwen2-VL (multimodal RoPE, M-RoPE)', 'https://arxiv.org/abs/2409.12191'],
  gqa: [
    'Ainslie et al. 2023',
    'GQA: Training Generalized Multi-Query Transformer Models from Multi-Head Checkpoints',
    'https://arxiv.org/abs/2305.13245',
  ],
  longformer: ['Beltagy et al. 2020', 'Longformer: The Long-Document Transformer', 'https://arxiv.org/abs/2004.05150'],
  llama4: [
    'Hugging Face transformers',
    'configuration_llama4.py (Llama 4’s no_rope_layers: every fourth layer without RoPE)',
    'https://github.com/huggingface/transformers/blob/main/src/transformers/models/llama4/configuration_llama4.py',
  ],
};

const cite = (k) => `<a href="${P[k][2]}" rel="noopener">${P[k][0]}</a>`;

/** Steps renamed since their links went out: old id -> the step that teaches it now (url.js). */
export const RENAMED = { compare: 'layouts' };

export const STEPS = [
  {
    id: 'why',
    title: 'Why positions? Shuffle the words',
    view: 'shuffle',
    state: { method: 'rope', sentence: 'dog bites man', order: '0,1,2', dim: 32, heads: 4, head: 0 },
    controls: ['method'],
    papers: ['vaswani'],
    intro: `<p>Attention compares every word with every other word. The figure runs one attention layer
      <em>without a mask</em> (every word sees every word, as in an encoder such as BERT) on random word vectors:
      the left panel adds no positional information, the right one adds RoPE (pick another with
      <em>method</em> once you have answered). The sentence starts in its original order. The figure and its
      controls open once you answer: predict first, then check.</p>`,
    predict: {
      q: 'Once you answer, press <em>Shuffle</em>. In the left panel (no positions, no mask), what will the shuffled sentence’s matrix hold?',
      choices: [
        'Only the original numbers, with rows and columns moved with the words',
        'New numbers: most words now have other neighbours beside them',
        'The original numbers in their original places: nothing moves',
        'Uniform rows: with no order to go on, each word attends equally',
      ],
      answer: 0,
      why: [
        'Right: each score is q·k of two word vectors, and without positions or a mask nothing else enters. Shuffling the words moves the rows and columns with them, and each word’s output is the same vector as before, only in another slot: a bag of words is all the layer can see.',
        'Neighbours do not enter the score: q·k reads two word vectors and nothing about where they sit, so the same pair of words gives the same number wherever the words are.',
        'The numbers stay the same, but each belongs to a pair of words: when the words move, their row and column move with them.',
        'Attention weights come from q·k of the word vectors, which differ from word to word; a layer without positions is blind to order, not to content.',
      ],
    },
    text: `<p>Without a mask, self-attention is permutation-equivariant: shuffle the inputs and it computes exactly
      the same numbers, only reordered, and the pooled sentence vector is identical. That is why ${cite('vaswani')}
      add positional encodings at all (section 3.5: with no recurrence and no convolution, information about the
      position must be injected). In the panel with RoPE the numbers themselves change. The words are random
      vectors, one per word: the page simplifies a model to one layer with untrained weights.</p>`,
    notice:
      'In the no-position panel the shuffled matrix holds the original numbers with rows and columns reordered (hovering a cell lights up the same word pair in the other matrix); in the panel with positions the numbers themselves change.',
  },
  {
    id: 'causal',
    title: 'Add a causal mask, still no positions',
    view: 'shuffle',
    state: {
      method: 'rope',
      sentence: 'dog bites man',
      order: '0,1,2',
      dim: 32,
      heads: 4,
      head: 0,
      causal: true,
    },
    controls: ['method'],
    papers: ['haviv', 'kazemnejad', 'llama4'],
    intro: `<p>Decoders (GPT-2, Llama, Qwen, DeepSeek) add a <em>causal mask</em>: word <i>i</i> attends only to
      words 0 … <i>i</i>. The mask is −∞ added to the logits of later keys, just before the softmax. Same layer,
      same words, the mask now on, the sentence back in its original order.</p>`,
    predict: {
      q: 'Once you answer, press <em>Shuffle</em> again. Left panel (no positions, causal mask): will the new matrix be the old one with its rows and columns moved?',
      choices: [
        'Yes: with no positions the layer still cannot see any order',
        'No: each word now sees a different set of earlier words',
        'Yes: the mask hides some keys but adds no information of its own',
        'No: the mask makes most rows uniform, whatever the words',
      ],
      answer: 1,
      why: [
        'The mask itself is an order: the word in slot i sees slots 0 … i, so moving a word changes what it may attend to, and with it its softmax and output.',
        'Right: the word in slot i sees the words in slots 0 … i. Move it and it sees a different set, so its softmax and its output change; whichever word comes first sees only itself. How many words precede a word leaks into its output with no positional encoding at all.',
        'Which keys are hidden depends on where a word sits, so hiding them is information: the set of visible words changes with the order.',
        'The mask removes later keys; the scores of the visible ones still come from q·k and differ from word to word, so rows are not uniform (except row 0, which sees one key).',
      ],
    },
    text: `<p>A softmax over <i>i</i> + 1 keys already depends on <i>i</i> (uniform attention gives each key
      1/(<i>i</i> + 1)), so the number of tokens before a word reaches its output. Models learn to use this: causal
      language models trained with no positional encoding are competitive and carry absolute position in their
      activations (${cite('haviv')}). ${cite('kazemnejad')} prove that a first causal layer without positions can
      recover absolute positions (their Theorem 1) and that later layers can then implement relative attention
      (Theorem 2). An encoder without a mask (BERT) has no such signal and needs positions.</p>
      <p>The mask is a partial substitute, not a full one: it gives each token the count of tokens before it, not
      the positions of the others, and the model has to learn to derive positions from it. Production models mix
      the two: Llama 4 leaves every fourth layer without RoPE (Hugging Face’s config marks those layers 0 in
      <code>no_rope_layers</code>, ${cite('llama4')}); those layers attend over the whole context, the RoPE layers
      within chunks of 8192 tokens. The layers without RoPE also scale each query by a temperature that grows
      with the logarithm of its position, in steps of 8192 tokens (<code>attn_temperature_tuning</code>, with
      <code>floor_scale</code> 8192 and <code>attn_scale</code> 0.1 in the same config), which sharpens their
      attention over a long context.</p>
      <p>Where things sit in a layer: project q, k, v; RoPE rotates q and k; q·k; ALiBi and T5 add a bias to the
      logits, next to the mask; then the softmax; then the weighted sum of the values.</p>`,
    notice:
      'With the mask the upper triangle of every matrix is 0, and in the no-position panel the shuffled matrix holds different numbers from the original, not the same ones reordered.',
  },
  {
    id: 'sinusoidal',
    title: 'Sinusoidal: the formula, by hand',
    view: 'worked',
    state: { base: 10000 },
    // held until the answer: the frequencies line states ω₁, and the worked formula under the table uses it
    hold: '.freqs, .formula',
    controls: ['base'],
    papers: ['vaswani'],
    intro: `<p>Why not add the position itself, <i>p</i>, to each word vector? It grows without bound: at
      position 5000 it would swamp word vectors whose entries are of order 1, and a model never trained on such values
      has no use for them. <i>p</i>/<i>N</i>, scaled by the length <i>N</i>, stays bounded but gives the same position a
      different code in a longer text, and neighbours in a long text almost the same one. One number is also a
      single direction for a layer to read. A code of many bounded waves avoids all three: every value lies in
      [−1, 1], fast waves tell neighbours apart and slow ones far positions, and sine <em>and</em> cosine of the same
      angle make each pair a point on a circle, so that moving by <i>k</i> positions is a rotation (the step “moving k positions”).</p>
      <p>The original Transformer (${cite('vaswani')}) gives position <i>p</i> a vector of sines and cosines:
      PE(<i>p</i>, 2<i>i</i>) = sin(<i>p</i>·ω<sub><i>i</i></sub>) and PE(<i>p</i>, 2<i>i</i>+1) =
      cos(<i>p</i>·ω<sub><i>i</i></sub>), with ω<sub><i>i</i></sub> = 1/base<sup>2<i>i</i>/<i>d</i></sup> and base =
      10000. With <i>d</i> = 4 there are two pairs; the table shows positions 0 to 5.</p>`,
    predict: {
      q: '<i>d</i> = 4, base 10000. Dim 2 is sin(<i>p</i>·ω<sub>1</sub>). At which position does it first exceed 0.5?',
      choices: ['<i>p</i> = 50', '<i>p</i> = 524', '<i>p</i> = 53', '<i>p</i> = 5 236'],
      answer: 2,
      why: [
        '0.01·50 = 0.5 rad, but sin 0.5 = 0.479: the sine must exceed 0.5, which takes an angle above arcsin 0.5 = π/6 ≈ 0.524 rad.',
        'That is π/6 divided by ω = 0.001; here ω₁ = 1/10000^(2/4) = 0.01, ten times faster.',
        'Right: ω₁ = 1/10000^(2/4) = 0.01 rad per position, so sin(0.01·p) > 0.5 needs 0.01·p > π/6 ≈ 0.524, i.e. p ≥ 53 (sin 0.53 = 0.506, sin 0.52 = 0.497).',
        'That is π/6 divided by ω = 1/base = 0.0001, as if the exponent were 2i/d = 1; with d = 4 and i = 1 it is 2/4, so ω₁ = 0.01.',
      ],
    },
    text: `<p>Dim 0 turns one radian per position, dim 2 a hundredth of one: fast and slow clocks. Position 0 is
      [0, 1, 0, 1], not the zero vector (sin 0 = 0, cos 0 = 1), so the first word is shifted too.</p>
      <p>The vector is added to the word vector, after the paper multiplies the word embeddings by
      √<i>d</i><sub>model</sub> (section 3.4). A common reading is that this keeps the word from being drowned by the
      position, whose entries lie in [−1, 1]; the paper states the scaling, not why.</p>`,
    notice:
      'Column 0 changes a lot from row to row (ω₀ = 1 radian per position), column 2 barely moves (ω₁ = 0.01): fast and slow clocks.',
  },
  {
    id: 'sinusoidal-heatmap',
    title: 'Sinusoidal: the whole table',
    view: 'heatmap',
    state: { method: 'sinusoidal', dim: 64, length: 128, layout: 'interleaved', base: 10000 },
    // held until the answer: the formula panel fills in a column’s ω, the slowest pair’s included
    hold: '.formula',
    controls: ['dim', 'base', 'layout'],
    papers: ['vaswani'],
    intro: `<p>The same formula for 128 positions and 64 dimensions: each pair of columns is one frequency
      ω<sub><i>i</i></sub> = base<sup>−2<i>i</i>/<i>d</i></sup>, for <i>i</i> = 0 … <i>d</i>/2 − 1. Point at any
      cell once you have answered: the formula fills in with its numbers.</p>`,
    predict: {
      q: 'At <i>d</i> = 64 and base 10000, how many positions does the slowest pair take to complete one turn?',
      choices: ['About 6.3', 'About 62 800', 'About 47 100', 'About 10 000'],
      answer: 2,
      why: [
        '2π is the fastest pair’s wavelength (ω₀ = 1), not the slowest.',
        '2π·10000 would need the exponent 2i/d to reach 1; the last pair is i = d/2 − 1 = 31, so the exponent is 62/64. 2π·10000 is the limit as d grows, not the wavelength of any pair.',
        'Right: the last pair is i = 31, so ω = 10000^(−62/64) and its wavelength is 2π/ω = 2π·10000^(62/64) ≈ 2π·7499 ≈ 47 100 positions.',
        'The base is a frequency scale, not a wavelength: a wavelength is 2π/ω, and the slowest ω is 10000^(−62/64).',
      ],
    },
    text: `<p>Each pair turns once every 2π/ω<sub><i>i</i></sub> positions: from 2π on the left to
      2π·base<sup>(<i>d</i>−2)/<i>d</i></sup> on the right, 2π·7499 ≈ 47 100 positions at <i>d</i> = 64 (the last
      pair is <i>i</i> = <i>d</i>/2 − 1, so the exponent never reaches 1). ${cite('vaswani')} describe the
      wavelengths as “a geometric progression from 2π to 10000·2π”, the limit as <i>d</i> grows.</p>`,
    notice:
      'The left columns flicker, the right ones are almost constant: every position gets a distinct pattern, like the digits of a clock with many hands.',
  },
  {
    id: 'waves',
    title: 'Sinusoidal: the waves',
    view: 'waves',
    state: { method: 'sinusoidal', dim: 64, length: 64, layout: 'interleaved' },
    // held until the answer: the formula panel gives the frequency of the curve under the cursor
    hold: '.formula',
    controls: ['dim', 'length', 'base'],
    papers: ['vaswani'],
    intro: `<p>Follow single dimensions along the positions. Each is a sine wave, and each pair turns at its own
      speed, slower from one pair to the next: each ω is the previous one times base<sup>−2/<i>d</i></sup>.</p>`,
    predict: {
      q: 'The figure shows 64 positions. Of the 32 pairs at <i>d</i> = 64 (base 10000), how many complete at least one full turn within <em>256</em> positions?',
      choices: ['5 pairs', '9 pairs', '13 pairs', '20 pairs'],
      answer: 2,
      why: [
        'Pair i turns once every 2π·10000^(i/32) positions: pair 4 needs 2π·3.2 ≈ 20, far below 256, and so do the pairs after it up to pair 12.',
        'Nine pairs (i = 0 … 8) complete a turn within 64 positions; four times as many positions lets a few more pairs complete one.',
        'Right: pair i turns once every 2π·10000^(i/32) positions, at most 256 while 10000^(i/32) ≤ 256/2π ≈ 40.7, i.e. for i = 0 … 12 (pair 12: 199 positions; pair 13: 265).',
        'Each pair turns 10000^(1/32) ≈ 1.33 times more slowly than the one before: pair 19 needs 2π·10000^(19/32) ≈ 1490 positions, far more than 256.',
      ],
    },
    text: `<p>Within the 64 positions drawn, nine pairs complete a turn (<i>i</i> = 0 … 8; pair 8’s wavelength is
      62.8); within 256 positions, thirteen (<i>i</i> = 0 … 12; pair 12’s is 199, pair 13’s 265). Each pair is
      10000<sup>1/32</sup> ≈ 1.33 times slower than the one before, so four times the length adds only
      log(4)/log(1.33) ≈ 4.8 pairs. The last pair has hardly started (0.0085 rad at position 64); it needs about
      47 100 positions. Set <em>length</em> to 256 to see the thirteen.</p>`,
    notice:
      'Dim 0 completes a turn every 6.28 positions, pair 8 one in 62.8; the last pair has hardly started at position 64.',
  },
  {
    id: 'shift',
    title: 'Sinusoidal: moving k positions',
    view: 'shift',
    state: { dim: 64, base: 10000, pos: 10, shift: 3 },
    // held until the answer: the formula panel writes M_k out, with no p in it
    hold: '.formula',
    controls: ['dim', 'base'],
    papers: ['vaswani', 'press'],
    intro: `<p>Each pair of PE(<i>p</i>) is (sin <i>p</i>ω<sub><i>i</i></sub>, cos <i>p</i>ω<sub><i>i</i></sub>).
      The figure builds a matrix M<sub>3</sub>, one 2 × 2 block per pair made of cos 3ω<sub><i>i</i></sub> and
      ± sin 3ω<sub><i>i</i></sub>, applies it to PE(10) and compares the result with PE(13) from the API.</p>`,
    predict: {
      q: 'Which matrix maps PE(10) to PE(16)?',
      choices: [
        'M<sub>3</sub> applied twice: a turn by 6ω<sub><i>i</i></sub> in each pair',
        'Twice M<sub>3</sub>: every entry of M<sub>3</sub> doubled',
        'M<sub>3</sub> once more, since the start p = 10 is the same',
        'A new matrix, which a model may learn for p = 10 and k = 6',
      ],
      answer: 0,
      why: [
        'Right: rotations compose: turning a pair by 3ωᵢ twice turns it by 6ωᵢ, so M₆ = M₃·M₃, whatever p is.',
        'Doubling every entry stretches each pair to twice its length instead of turning it: 2·M₃·PE(10) has entries up to 2, which no sine reaches.',
        'M₃ turns each pair by 3ωᵢ: from PE(10) it reaches PE(13), not PE(16). The start does not matter, the offset does.',
        'Nothing here is learned: M_k is a rotation by k·ωᵢ in each pair, fixed by the formula, the same at every position p.',
      ],
    },
    text: `<p>For every offset <i>k</i> there is one matrix M<sub><i>k</i></sub> with PE(<i>p</i>+<i>k</i>) =
      M<sub><i>k</i></sub>·PE(<i>p</i>) at every position <i>p</i>: a 2 × 2 rotation by <i>k</i>·ω<sub><i>i</i></sub>
      for each pair. ${cite('vaswani')} give two reasons for sinusoids (section 3.5). They
      <em>hypothesized</em> that this would let a model learn to attend by relative position; the paper does not
      show that trained models do so, and once the encoding is added to word vectors and projected, nothing forces
      a layer to use M<sub><i>k</i></sub>. And they chose sinusoids over learned vectors because they “may allow the
      model to extrapolate to sequence lengths longer than the ones encountered during training”. Later work
      tested that hope and found it false: ${cite('press')} measured sinusoidal models’ perplexity rising within a
      few dozen tokens past the training length (the steps “Past the training length” and the lab come back to
      it). RoPE builds this rotation into attention itself.</p>`,
    notice: 'M_k does not depend on p: both sides agree at every position, with the same matrix.',
  },
  {
    id: 'learned',
    title: 'Learned position tables',
    view: 'learned',
    state: { dim: 64, length: 96, train: 64 },
    controls: ['length', 'train'],
    papers: ['devlin', 'radford', 'vaswani', 'longformer'],
    intro: `<p>BERT (${cite('devlin')}) and GPT-2 (${cite('radford')}) learn one vector per position instead,
      added to the word vector. The table has <code>max_position_embeddings</code> rows (512 for BERT, 1024 for
      GPT-2), fixed when the model is built. The figure shows such a table before any training.</p>`,
    predict: {
      q: 'BERT trained 90% of its steps on sequences of 128 tokens and the rest on 512, with a 512-row table. Which rows got the fewest gradient updates?',
      choices: [
        'Rows 0 to 127, whose gradients the short sequences dilute',
        'None: every row is updated at every step of training',
        'Rows 128 to 511, reached only in the last 10% of steps',
        'Row 0 only, the position of the [CLS] token',
      ],
      answer: 2,
      why: [
        'Rows 0 … 127 are used by every sequence, short or long, so they get a gradient at every step: the most trained rows, not the least.',
        'A row is a lookup: it gets a gradient only when some token sits at its position, and no token sits past 127 in a 128-token sequence.',
        'Right: a row gets a gradient only when a token sits at its position. Sequences of 128 tokens touch rows 0 … 127; rows 128 … 511 were trained only in the final 10% of steps at length 512 (Devlin et al., appendix A.2), so they are the least trained.',
        'Row 0 is used by every sequence ([CLS] sits there), so it is updated at every step.',
      ],
    },
    text: `<p>A learned table is a lookup: a row gets trained only when a token sits at its position, and rows that
      do not exist have no value. BERT trained 90% of its steps at length 128, so its rows 128 … 511 are the least
      trained; GPT-2 has no row 1024, and code must refuse, truncate or slide a window (no row is invented).
      ${cite('vaswani')} found learned and sinusoidal versions “nearly identical” on translation.</p>
      <p>The figure shows a table at its random initialisation: 𝒩(0, 0.02²) as Hugging Face initialises BERT and
      most models (BERT’s own code draws from a normal truncated at two standard deviations, std 0.02; OpenAI’s
      GPT-2 code initialises its position table with std 0.01). The lab, a few steps on, draws the table its tiny
      model learns.</p>
      <p>Extending a learned table means inventing rows and training them: ${cite('longformer')} grew RoBERTa’s 512
      rows to 4096 by copying the 512 trained rows over and over, then trained further, so that every new row starts
      from a row that already means something locally (their section 5). Rows left at their random initialisation
      would give the model inputs it never saw.</p>`,
    notice:
      'Past the table’s last row (the dashed line) there is no vector to look up: position 64 is an error, not a guess.',
  },
  {
    id: 'concat',
    title: 'Add or concatenate?',
    view: 'concat',
    state: { dim: 64, base: 10000, pos: 6 },
    controls: ['dim', 'base'],
    papers: ['vaswani', 'ke'],
    intro: `<p>Absolute encodings are usually added to the word vectors; they could be concatenated instead. The
      figure computes raw dot products of two tokens’ inputs both ways, term by term, with no projection.</p>`,
    predict: {
      q: 'Concatenate, [<i>x</i>; <i>p</i>], then apply a full learned W<sub>Q</sub> and W<sub>K</sub> as a real layer does. Does the score contain word × position cross terms?',
      choices: [
        'No: the word half and the position half never meet',
        'They can, but only when the positions come from sinusoids',
        'Yes: a full W<sub>Q</sub> or W<sub>K</sub> mixes the two halves again',
        'Some, for two tokens at about the same position',
      ],
      answer: 2,
      why: [
        'They do not meet in the raw dot product [x; p]·[y; q], but a layer projects first: W_Q[x; p] = A x + B p already mixes both halves.',
        'The cross terms come from the projections, whatever the positions are: sinusoidal, learned or any other vectors.',
        'Right: W_Q[x; p] = A x + B p mixes both halves; its product with W_K[y; q] contains x·q- and p·y-type terms. Keeping them apart needs block-diagonal projections, as in TUPE (Ke et al. 2021).',
        'The cross terms do not depend on how close the tokens are: they are there for every pair of tokens once W_Q and W_K mix the halves.',
      ],
    },
    text: `<p>With addition, (x + p)·(y + q) has word·word, position·position and two cross terms word·position;
      with concatenation, [x; p]·[y; q] has no cross terms. But a real layer first projects with W<sub>Q</sub> and
      W<sub>K</sub>, and a full matrix acting on [x; p] mixes the two halves again, so the cross terms come back
      unless the projections are block-diagonal. TUPE (${cite('ke')}) does that on purpose: separate projections
      for words and positions, and no cross terms.</p>`,
    notice:
      'With addition the score splits into four terms, two of them word × position; the concatenated dot product has two terms.',
  },
  {
    id: 'rope',
    title: 'RoPE: rotate the query and the key',
    view: 'rotation',
    state: { method: 'rope', dim: 64, base: 10000, pos: 5, kpos: 8, scaling: 'none', speed: 2 },
    // held until the answer: the formula panel states that the score reads the signed offset
    hold: '.formula',
    controls: ['dim', 'base'],
    papers: ['su', 'barbero'],
    intro: `<p>RoPE (${cite('su')}) adds nothing to the word vectors. Inside every attention layer it rotates each
      pair of the query by <i>m</i>·ω<sub><i>i</i></sub> and each pair of the key by <i>n</i>·ω<sub><i>i</i></sub>
      (the sinusoids’ frequencies), <i>m</i> and <i>n</i> being their positions, and then takes the dot product.
      The circles show a query at <i>m</i> = 5 and a key at <i>n</i> = 8, two different vectors.</p>`,
    predict: {
      q: 'Swap their positions: the query at 8, the key at 5, the vectors unchanged. What happens to the score q′·k′?',
      choices: [
        'It stays the same: only the distance 3 matters',
        'It drops to about 0: the two rotations can cancel out',
        'It doubles: both vectors turn further than before',
        'It changes in general: the offset is now −3, not +3',
      ],
      answer: 3,
      why: [
        'The score depends on the signed offset n − m, not on the distance: per pair |q||k| cos(φk − φq + (n − m)ω), and flipping the sign of n − m changes it unless each pair of q and k is parallel or antiparallel, or the pairs’ changes happen to cancel.',
        'Nothing cancels: the score is q·R((n − m)ω)k, a rotation by −3ω instead of +3ω, with the same lengths.',
        'Turning both vectors further changes neither their lengths nor, by itself, their angle: only the offset n − m enters the score, and its size stays 3.',
        'Right: per pair the score is |q||k| cos(φk − φq + (n − m)ω), and flipping the sign of n − m changes it in general. It can stay the same: when q and k are parallel or antiparallel in every pair (as when q = k), or when the changes of the pairs happen to cancel in the sum. RoPE is relative, not symmetric.',
      ],
    },
    text: `<p>Rotations compose, so the score is q<sub><i>m</i></sub>′·k<sub><i>n</i></sub>′ =
      q·R((<i>n</i> − <i>m</i>)·ω) k (RoFormer eq. 16): it depends on the <em>content</em> of q and k and on the
      <em>signed</em> offset <i>n</i> − <i>m</i>, not on <i>m</i> and <i>n</i> separately. Per pair it is
      |q<sub><i>i</i></sub>||k<sub><i>i</i></sub>|·cos(φ<sub>k</sub> − φ<sub>q</sub> + (<i>n</i> − <i>m</i>)ω<sub><i>i</i></sub>):
      swapping the positions flips the sign of the offset and changes the score in general. The change is
      −2Σ<sub><i>i</i></sub>|q<sub><i>i</i></sub>||k<sub><i>i</i></sub>| sin(φ<sub>k</sub> − φ<sub>q</sub>) sin((<i>n</i> −
      <i>m</i>)ω<sub><i>i</i></sub>): zero when every pair of q and k is parallel or antiparallel (as when q = k), and
      also, by chance, when the pairs’ changes cancel in the sum.</p>
      <p>Where it acts: inside every attention layer, after W<sub>Q</sub> and W<sub>K</sub> project, on each head’s q
      and k separately. The values v are not rotated, and nothing is added to the word vectors. The check under the
      circles computes the scores with the API.</p>`,
    notice:
      'The query and the key turn by their own angles; the angle between them, and the score, stay the same when both positions move by the same amount.',
  },
  {
    id: 'rope-relative',
    title: 'RoPE with one vector at every position',
    view: 'similarity',
    state: { method: 'rope', dim: 64, length: 256, scaling: 'none' },
    controls: ['dim', 'length'],
    papers: ['su', 'barbero', 'xpos'],
    intro: `<p>Here the <em>same</em> vector x is placed at every position, rotated, and every pair scored: row
      <i>i</i>, column <i>j</i> holds x rotated to <i>i</i> against x rotated to <i>j</i>. The first curve is the
      matrix’s first row.</p>`,
    predict: {
      q: 'Keep the query x, but make the key a different vector k (the same k at every position). Which property of this matrix survives?',
      choices: [
        'Both, since RoPE keeps them for any pair of vectors',
        'Constant diagonals survive, but the symmetry does not',
        'Symmetry survives, but the diagonals can vary',
        'Neither: the scores then depend on i and j separately',
      ],
      answer: 1,
      why: [
        'Symmetry needs the score at offset j − i to equal the one at i − j, which holds for q = k but not for general q and k (step 9).',
        'Right: the score x·R((j − i)ω)k depends on j − i only, so each diagonal keeps one value. Swapping i and j flips the sign of the offset, which in general changes the score: the matrix is symmetric here only because q = k.',
        'It is the other way round: the diagonals stay constant for any q and k, since the score depends on j − i only; it is the symmetry that needs q = k.',
        'RoPE’s score is q·R((j − i)ω)k for any q and k: a function of the offset, never of i and j separately.',
      ],
    },
    text: `<p>Each score is x·R((<i>j</i> − <i>i</i>)·ω) x, so the matrix is constant along each diagonal, and
      symmetric because q = k. With different q and k the diagonals stay constant but the matrix is no longer
      symmetric.</p>
      <p>RoFormer (section 3.4.3) bounds |q·k| by a content term times Σ|S<sub><i>j</i></sub>|, a function of the
      distance that decays, with ripples; the second curve is that function as the paper plots it (its Fig. 2).
      For aligned q and k, as here, the score itself shrinks on average with distance; for general q and k it need
      not decay, and trained models use RoPE’s frequencies in other ways too (${cite('barbero')}).
      xPos (${cite('xpos')}) makes a decay explicit instead: it scales each pair of the query at <i>m</i> by
      ζ<sub><i>i</i></sub><sup><i>m</i>/512</sup> and of the key at <i>n</i> by
      ζ<sub><i>i</i></sub><sup>−<i>n</i>/512</sup> (positions counted from a centre, to keep the factors in
      range), with ζ<sub><i>i</i></sub> = (<i>i</i>/(<i>d</i>/2) + 0.4)/1.4 &lt;
      1, so each pair’s score carries ζ<sub><i>i</i></sub><sup>(<i>m</i>−<i>n</i>)/512</sup>, shrinking with
      distance and fastest in the fast pairs (posenc’s <code>applyRope</code> takes it as its <code>xpos</code>
      option).</p>`,
    notice:
      'Every diagonal has one colour, and the score of this one vector shrinks (with ripples) as the distance grows.',
  },
  {
    id: 'layouts',
    title: 'RoPE in code: which dimensions form a pair',
    view: 'compare',
    state: { method: 'sinusoidal', vs: 'rope', dim: 64, length: 128 },
    controls: ['rope', 'base'],
    papers: ['su', 'black', 'qwen2vl'],
    intro: `<p>Left, a sinusoidal table; right, RoPE’s sin θ and cos θ per pair, drawn as the same quantity.
      Implementations disagree on which two dimensions of a head form a pair: RoFormer and Meta’s Llama code rotate
      neighbours (2<i>i</i>, 2<i>i</i>+1); GPT-NeoX and Hugging Face’s Llama rotate (<i>i</i>, <i>i</i> +
      <i>d</i>/2). The <em>rope</em> control switches the picture between the two.</p>`,
    predict: {
      q: 'A checkpoint trained with neighbour pairs (2<i>i</i>, 2<i>i</i>+1) is run by code that pairs (<i>i</i>, <i>i</i> + <i>d</i>/2), weights unchanged. What happens?',
      choices: [
        'Nothing: the pairing is only a memory layout',
        'Wrong scores everywhere: the output is garbled',
        'Only tokens past the training length go wrong',
        'About the same scores, computed more slowly',
      ],
      answer: 1,
      why: [
        'The pairing decides which two numbers of q and k turn together and by which frequency: W_Q and W_K were trained for one pairing.',
        'Right: each pair of q and k must be rotated by its own frequency. The other layout rotates dimensions that were never paired, with the wrong frequencies, so every score changes. Permuting the rows of W_Q and W_K converts one layout into the other, which is what conversion scripts do.',
        'The wrong pairing is wrong at position 1 already: every rotation, short or long, turns the wrong dimensions.',
        'The cost is the same, and the scores are not: dimensions that were never paired now turn together, at frequencies they were not trained with.',
      ],
    },
    text: `<p>Sinusoidal and RoPE hold the same numbers: RoPE’s sin θ and cos θ per pair are exactly what a
      sinusoidal table of the same base holds. What differs is which dimensions form a pair. The two layouts give
      the same model only if W<sub>Q</sub> and W<sub>K</sub> are permuted to match, which is why conversion scripts
      permute them; a checkpoint run with the other layout produces wrong scores and garbled text.</p>
      <p>Likewise <em>partial rotary</em> models rotate only the first dimensions of each head and leave the rest
      as they are (GPT-NeoX-20B a quarter, ${cite('black')}; GPT-J 64 of 256): the frequencies are those of the
      rotated width, and rotating all of them breaks such a checkpoint. Multimodal RoPE (M-RoPE, ${cite('qwen2vl')})
      splits the pairs into three blocks turned by three position ids, time, height and width: Qwen2-VL-7B’s 64
      pairs per head as [16, 24, 24]. A text token has the same id in all three, so it rotates as in plain
      RoPE; after an image, though, the text ids continue from the image’s largest id + 1, not from the token’s
      index in the sequence (<code>get_rope_index</code> in Hugging Face’s Qwen2-VL code), so a text token’s id
      can be far smaller than its index.</p>`,
    notice:
      'With equal base and dim the two pictures hold the same numbers in a different column order (RoPE’s half layout puts all sines first).',
  },
  {
    id: 'rope-code',
    title: 'RoPE in code: shapes, caches and float32',
    view: 'rotation',
    state: { method: 'rope', dim: 64, base: 10000, pos: 100000, kpos: 100003, scaling: 'none', speed: 2 },
    controls: ['dim', 'base'],
    papers: ['su'],
    intro: `<p>In code, RoPE is a table of cos and sin: one row per position, one column per pair, shape [seq,
      <i>d</i>/2] (Hugging Face repeats it to [seq, <i>d</i>] for its half layout), broadcast over the batch and the
      heads of q and k, shape [batch, heads, seq, <i>d</i>]. The angles are position × inv_freq. Here the query
      sits at position 100 000 and the key at 100 003.</p>`,
    predict: {
      q: 'Hugging Face forms each angle as inv_freq × position in float32. At position 131 072 (Llama 3.1’s context), about how far off can such an angle be?',
      choices: [
        'About 10<sup>−7</sup> rad, float32’s relative precision',
        'Exactly 0, since every position is a whole number',
        'About a few thousandths of a radian, from float32 spacing',
        'About 3 rad: the angle is essentially noise',
      ],
      answer: 2,
      why: [
        '10⁻⁷ is float32’s error relative to the number; the angle there is up to 131 072 rad, so its absolute error is of order 131 072 × 6·10⁻⁸ ≈ 0.008, tens of thousands of times more.',
        'The position is exact in float32 (below 2²⁴), but inv_freq is rounded and so is the product: neither is exact.',
        'Right: float32 keeps 24 significant bits: between 65 536 and 131 072 neighbouring floats are 2⁻⁷ ≈ 0.008 apart, so the product alone is rounded by up to 0.004 rad, and inv_freq’s own rounding, multiplied by the position, adds to it. A float32 emulation gives up to 3.9·10⁻³ rad at base 10 000 and 5.4·10⁻³ with Llama 3.1’s frequencies (base 500 000, its scaling rule); the position is exact, the product is not.',
        'The error is thousandths of a radian, not radians: a cosine moves by a few thousandths too, which a model tolerates (and posenc avoids by forming angles in float64).',
      ],
    },
    text: `<p>Shapes: the cos and sin table is [seq, <i>d</i>/2] per position (Hugging Face builds [batch, seq,
      <i>d</i>] from <code>position_ids</code> and unsqueezes a heads axis, [batch, 1, seq, <i>d</i>], so one table
      serves every head). Pairs need an even width: an odd head size cannot be paired, and posenc refuses it
      (E_ODD). A partial-rotary model rotates only its first <code>rotary_dim</code> = partial_rotary_factor ×
      head_dim dimensions, with a table of [seq, rotary_dim/2], and passes the rest through.</p>
      <p>Caches: the table depends on the positions only, never on the content, so it is computed once per forward
      pass (older code precomputed it up to <code>max_position_embeddings</code>) and shared by every layer and
      head. Precision: Hugging Face’s Llama code (<code>LlamaRotaryEmbedding</code>) forms inv_freq and the angles in
      float32: emulating that computation in float32 (head size 128) gives angles up to 6.1·10⁻⁵ rad off at position
      2048 and 3.9·10⁻³ at 131 072 with base 10 000, 5.4·10⁻³ with Llama 3.1’s own frequencies (base 500 000 and
      its scaling rule); posenc forms
      the angles in float64 and rounds once, within 2·10⁻⁶ of float64 for every position below 2<sup>20</sup>
      (families/rope/rope.md, “Precision”).</p>
      <p>Checking a fused or framework kernel (a Triton or CUDA RoPE, one fused into attention) means comparing it
      with a plain reference on the same inputs: random q and k, the positions a real run has (an offset for a KV
      cache, left padding, positions past 2<sup>16</sup> where float32 angles drift), both pair layouts and a partial
      rotary width, with the reference in float64 and a tolerance set by the kernel’s dtype (bfloat16 keeps 8
      significant bits, so about 10<sup>−2</sup> relative). Compare the rotated q and k themselves, not only the scores
      q′·k′: a score reads only the offset, so a kernel that shifts every position by the same amount (an off-by-one
      start, a cache offset added to q and k alike) passes a score check and fails a vector check. Conventions
      differ too: papers write the same score with <i>m</i> − <i>n</i> or <i>n</i> − <i>m</i>, and code may turn by
      +θ or −θ (the sign in front of sin). A kernel that turns the other way from its reference gives every score of
      the opposite offset, which a test with q = k or with <i>m</i> = <i>n</i> cannot see (the step “RoPE: rotate the
      query and the key”). posenc’s <code>applyRope</code>
      can serve as the reference. The check under the circles compares the
      score at 100 000/100 003 with the same offset 1000 positions later.</p>`,
    notice:
      'At position 100 000 the query and the key have turned thousands of times, yet the API’s score for offset 3 matches the one 1000 positions later to float32 rounding.',
  },
  {
    id: 'positions',
    title: 'Position ids: padding, packing, a KV cache',
    view: 'positions',
    state: { dim: 64, base: 10000 },
    controls: ['dim', 'base'],
    // the edited prompt's plot shows which entries change: held with the verdicts until the answer
    hold: '.plotbox:has(+ .edit-note)',
    papers: ['llama3', 'gqa', 'radford'],
    intro: `<p>Every encoding reads a <em>position id</em> per token, and a token is a subword, not a word: a
      tokenizer such as GPT-2’s byte-pair encoding (${cite('radford')}) may split one rare word into several tokens,
      so context lengths and distances count tokens, not words. The id is not always the token’s index in
      the tensor: batches are padded, several documents are packed into one row, and generation reuses a cache of
      the keys and values computed at earlier steps (RoPE keys are cached already rotated). The figure shows a
      left-padded batch, a cache of 10 tokens with one new token, and a cached prompt with one token replaced.</p>`,
    predict: {
      q: 'A 500-token prompt has been run and its keys and values cached. The user edits token 200 and resends the prompt. Which cached entries can be kept?',
      choices: [
        'All 500: RoPE is relative, so old rotations still fit',
        'Those of tokens 0 to 199, before the edit, can stay',
        'All but token 200’s, which can be computed again',
        'None: any edit forces the whole prompt to rerun',
      ],
      answer: 1,
      why: [
        'The rotations would fit, but the keys and values themselves change: from the second layer on, token j’s key is computed from the hidden states of tokens 0 … j, which include the edit.',
        'Right: from the second layer on, token j’s key and value are computed from the hidden states of tokens 0 … j, so every entry from the edit on changes, even where the token did not. The entries of tokens 0 … 199 depend only on tokens 0 … 199 and stay valid (prefix caching relies on this). An edit that changes the length also moves every later position id.',
        'Only in the first layer are a token’s key and value its own; from the second layer on, every token after 200 has attended to the edited one, so its entries change too.',
        'Causal attention never looks forward: the entries of tokens 0 … 199 do not depend on token 200 and stay valid.',
      ],
    },
    text: `<p>Padding: with left padding (batched prompts) ids should count real tokens only; Hugging Face builds
      them from the attention mask (<code>position_ids = attention_mask.cumsum(−1) − 1</code>). Packing: with several
      documents in one row, ids may restart at 0 for each document, with a block-diagonal mask so that documents do
      not attend to each other (${cite('llama3')} mask across documents); many training runs do neither, and then
      documents see each other.</p>
      <p>A KV cache: the new token’s id is the number of tokens already cached (with no padding), and the cached
      keys keep the rotation they got when they were stored. An edited prompt invalidates the cache from the edit
      on, in every layer. With grouped-query attention (${cite('gqa')}; Llama 3 8B has 32 query heads and 8
      key-value heads) each key head is rotated and cached once, and the query heads of its group all score
      against the same rotated keys, each query rotated by its own position.</p>
      <p>A relative scheme (RoPE, ALiBi) gives the same scores when all ids shift together, in exact arithmetic;
      an absolute table (learned, sinusoidal) does not.</p>`,
    notice:
      'A left-padded prompt keeps its ids, counted from its first real token; the new token’s query against the cache scores as a full recomputation does; the edit changes entries from the edited token on, never before it.',
    // in a build without the positions view: RoPE's rotation at 1000 and 1003
    fallback: {
      view: 'rotation',
      state: { method: 'rope', dim: 64, base: 10000, pos: 1000, kpos: 1003, scaling: 'none', speed: 2 },
      hold: '',
      intro: `<p>Every encoding reads a <em>position id</em> per token, and the id is not always the token’s index
        in the tensor: batches are padded, several documents are packed into one row, and generation reuses a cache
        of the keys and values computed at earlier steps (RoPE keys are cached already rotated). Here q is at 1000
        and k at 1003.</p>`,
      notice:
        'At positions 1000 and 1003 each vector has turned much further than at 5 and 8, yet the angle between them is the same.',
    },
  },
  {
    id: 'shaw',
    title: 'Shaw and Transformer-XL: relative vectors in the score',
    view: 'bias',
    state: { panel: 'shaw', shawk: 4 },
    // held until the answer: the index matrix draws the clipping the question asks about (and its k control)
    hold: '.with-formula, .control-slot',
    controls: ['shawk'],
    papers: ['shaw', 'dai'],
    intro: `<p>The first relative methods put the distance inside the score. ${cite('shaw')} learn vectors indexed
      by the distance <i>j</i> − <i>i</i>, with a clipping distance <i>k</i>: a<sup>K</sup> is added to the key
      inside the score, a<sup>V</sup> to the value in the output. Which row of the table each query–key pair reads
      is drawn once you answer; below it, Transformer-XL’s four terms.</p>`,
    predict: {
      q: 'Clipping distance <i>k</i> = 4. How many a<sup>K</sup> vectors does one layer learn, and which one serves a key 500 tokens back?',
      choices: [
        '9 vectors; the one for −4, shared by all keys 4 or more back',
        '500 vectors; each distance up to 500 has a row of its own',
        '9 vectors; none, as keys past ±4 are left out of attention',
        '5 vectors; the one for 4, since the sign of the distance is dropped',
      ],
      answer: 0,
      why: [
        'Right: distances are clipped to −k … k before the lookup: 2k + 1 = 9 rows, and every key 4 or more tokens back reads the row of −4. Attention still reaches that key; this layer just cannot tell 5 from 500. Shaw et al. found k of a few tokens enough for translation.',
        'The table is clipped, not grown: distances past ±k share the row of ±k, so the table has 2k + 1 rows whatever the length.',
        'Clipping limits the table, not attention: a far key is still scored, with the row of −4.',
        'The sign is kept: a key 4 back and a key 4 ahead read different rows, −4 and +4, so there are 2k + 1 = 9.',
      ],
    },
    text: `<p>Shaw et al.’s score is e<sub><i>ij</i></sub> = x<sub><i>i</i></sub>W<sup>Q</sup>·(x<sub><i>j</i></sub>W<sup>K</sup>
      + a<sup>K</sup><sub><i>ij</i></sub>)/√<i>d</i>, and the output z<sub><i>i</i></sub> = Σ
      α<sub><i>ij</i></sub>(x<sub><i>j</i></sub>W<sup>V</sup> + a<sup>V</sup><sub><i>ij</i></sub>), with 2<i>k</i> + 1
      learned vectors for keys and as many for values.</p>
      <p>Transformer-XL (${cite('dai')}) writes the score as four terms: content·content
      (q·W<sub><i>k</i>,E</sub>x<sub><i>j</i></sub>), content·position (q·W<sub><i>k</i>,R</sub>R<sub><i>i</i>−<i>j</i></sub>),
      a global content bias (u·W<sub><i>k</i>,E</sub>x<sub><i>j</i></sub>) and a global position bias
      (v·W<sub><i>k</i>,R</sub>R<sub><i>i</i>−<i>j</i></sub>). R is a fixed sinusoidal table of relative distances;
      what is learned is its projection W<sub><i>k</i>,R</sub> and the vectors u and v. The lower figure draws the
      four terms and their sum. Transformer-XL’s segment-level recurrence is what lets a segment attend to the
      cached hidden states of the previous one; the relative encoding is what keeps positions coherent when those
      states are reused, where absolute positions would repeat in every segment (their section 3.3).</p>`,
    notice: 'Beyond ±k every distance shares one index: the model cannot tell 5 from 500 there.',
  },
  {
    id: 't5',
    title: 'T5: buckets of distances',
    view: 'bias',
    state: { panel: 't5', buckets: 32, maxdist: 128, t5dir: 'bidirectional' },
    // held until the answer: the staircase is drawn flat past distance 91, and the formula panel says the
    // buckets stop at the max distance
    hold: '.pair, .formula',
    controls: ['buckets', 'maxdist', 't5dir'],
    papers: ['raffel'],
    intro: `<p>T5 (${cite('raffel')}) simplifies further: one learned scalar per <em>bucket</em> of relative
      distance and per head, added to the logit, with the table shared by all layers. Small distances get a
      bucket each, larger ones logarithmically wider buckets, with a max distance (128 here) as a setting. The
      matrix shows the bucket of each query–key pair in a 32-token window; the staircase of every distance up to
      200 appears once you answer.</p>`,
    predict: {
      q: 'A key 3000 tokens back, far past the max distance. What bias does one T5 layer give it?',
      choices: [
        'The staircase’s slope, continued',
        'None: T5 masks keys past the max distance',
        'Its own bucket: the log spacing can go on without limit',
        'The last bucket’s, as for distance 128',
      ],
      answer: 3,
      why: [
        'The staircase ends: a distance is mapped to one of a fixed number of buckets, and past the max distance there is no further bucket to climb to.',
        'T5 masks nothing by distance: the key is scored, with the last bucket’s bias.',
        'The number of buckets is fixed (32 here): log-spaced buckets run out at the max distance, and every distance beyond shares the last one.',
        'Right: every distance at or beyond the max distance lands in the last bucket of its direction, so one layer gives 300, 3000 and 30 000 the same bias; attention still reaches those keys. The paper notes that later layers can combine local information to reach further.',
      ],
    },
    text: `<p>Small distances get exact buckets, larger ones logarithmically wider buckets, and every distance
      beyond the max distance shares the last bucket. With 32 buckets the last one starts before 128: at distance
      91 bidirectionally (16 buckets per direction) and at 113 causally, which is where the staircase goes flat.
      The paper notes that one layer is blind to offsets beyond 128, while later layers can combine local
      information to reach further. (T5’s code also drops the 1/√<i>d</i> of the logits, folding it into the
      initialisation.)</p>`,
    notice: 'The staircase has single steps near 0 and long flat steps further out; past the max distance it is flat.',
  },
  {
    id: 'alibi',
    title: 'ALiBi: a straight-line penalty',
    view: 'bias',
    state: { heads: 8, panel: 'alibi' },
    // held until the answer: the slope plot and the shared colour range give each head’s slope
    hold: '.pair:not(.soft), .legend.shared',
    controls: ['heads'],
    papers: ['press', 'bloom'],
    intro: `<p>ALiBi (${cite('press')}) drops the learned parameters altogether: it adds
      <i>m</i><sub><i>h</i></sub>·(<i>j</i> − <i>i</i>) to each causal logit, after q·k/√<i>d</i> and before the
      softmax, a penalty growing linearly with distance with a fixed slope per head. For <i>H</i> heads (a power of
      two) the slopes are 2<sup>−8<i>h</i>/<i>H</i></sup>, <i>h</i> = 1 … <i>H</i>.</p>`,
    predict: {
      q: '8 heads. A key 10 tokens back: by how much is its logit lowered in head 1, and in head 8?',
      choices: [
        'By 0.5 in head 1, by about 0.004 in head 8',
        'By 5 in head 1, and by 5 in head 8 as well',
        'By 5 in head 1, by 0.039 in head 8',
        'By 10 in head 1, by about 1.25 in head 8',
      ],
      answer: 2,
      why: [
        'Those are the slopes times one token (0.5 and 1/256), not times the distance 10.',
        'Every head has its own slope, 2^(−h) for 8 heads: head 8’s is 1/256, so its penalty is 256 times smaller.',
        'Right: head h has slope 2^(−8h/8) = 2^−h: 1/2 for head 1, 1/256 for head 8. Times the distance 10: 5 and 0.039. Steep heads look only at the nearest keys; shallow ones reach far.',
        'That takes slopes of 1 and 1/8; with 8 heads the slopes are 2^(−h), from 1/2 down to 1/256.',
      ],
    },
    text: `<p>Head 1’s bias drops by 0.5 per token of distance, head 8’s by 1/256. For head counts that are not a
      power of two the paper’s code takes the slopes of the nearest lower power of two and adds every other slope of
      the next power (12 heads: 2<sup>−1</sup> … 2<sup>−8</sup>, then 2<sup>−0.5</sup>, 2<sup>−1.5</sup>,
      2<sup>−2.5</sup>, 2<sup>−3.5</sup>). BLOOM (${cite('bloom')}) and MPT use it.</p>`,
    notice:
      'Head 1’s bias drops by 0.5 per token of distance, head 8’s by 1/256: a key 100 tokens back costs head 8 only 0.39.',
  },
  {
    id: 'scaling',
    title: 'RoPE scaling in real models',
    view: 'scaling',
    state: { preset: 'llama31-8b', base: 500000, dim: 128, scaling: 'llama3', factor: 8, rope: 'half' },
    controls: ['scaling', 'factor'],
    papers: ['chen', 'bloc97', 'peng', 'hfrope', 'llama3', 'longrope', 'deepseek'],
    intro: `<p>Long-context models change RoPE’s frequencies so that a longer context maps onto angles seen in
      training. The figure starts on Llama 3.1 8B (head size 128, base 500 000, trained at 8192 tokens, factor 8):
      each pair’s wavelength before and after its scaling. The <em>scaling</em> control switches method once you
      have answered.</p>`,
    predict: {
      q: 'After you answer you can switch <em>scaling</em> to linear (position interpolation), factor 8. What will happen to the fastest pair, which turns once every 6.3 tokens?',
      choices: [
        'Nothing: the fast pairs are always left alone',
        'It turns 8× more slowly, like every other pair',
        'It turns 8× faster, to cover the longer context',
        'It slows by only √8, less than the slow pairs do',
      ],
      answer: 1,
      why: [
        'That is what YaRN and Llama 3.1’s rule do (NTK-aware scaling spares only the fastest pair); linear interpolation divides every position, so every pair slows.',
        'Right: linear interpolation divides every position by the factor, so every angle pω, the fastest pair’s too, turns 8× more slowly, which crowds neighbouring tokens together. NTK-aware scaling spares the fastest pair; YaRN and Llama 3.1 spare all the fast ones.',
        'Faster turning would take the angles further from those seen in training; interpolation squeezes the longer context into the trained range of angles.',
        'Linear interpolation treats every pair alike: each angle pω becomes (p/8)ω, a factor of 8 for every pair.',
      ],
    },
    text: `<p>The scalings differ in which pairs they slow. Linear position interpolation (${cite('chen')}) divides
      every position by the factor: all pairs slow down. “NTK-aware” scaling, proposed in a 2023 post
      (${cite('bloc97')}) and analysed by ${cite('peng')}, raises the base instead: every pair slows except the
      fastest, the slowest by the full factor. YaRN (${cite('peng')}) leaves pairs that turned many times in training
      alone, divides those that never completed a turn by the factor, ramps in between, and scales the logits by a
      temperature. Llama 3.1 uses the same idea with fixed thresholds and no temperature: wavelengths below 2048
      tokens unchanged, above 8192 divided by 8, blended between. The rule is in Meta’s reference code
      (<code>apply_scaling</code>) and ${cite('hfrope')}; the ${cite('llama3')} paper gives the base of 500 000 and
      the staged long-context training. LongRoPE (${cite('longrope')}) searches a factor for each pair (Phi-3’s
      <code>short_factor</code> and <code>long_factor</code>), leaves the first tokens’ positions uninterpolated, and
      extends the context in stages (first to 256k, then to 2048k).</p>
      <p>DeepSeek-V2 (${cite('deepseek')}) uses YaRN with factor 40; its cos and sin carry no extra factor
      (mscale / mscale_all_dim = 1), but DeepSeek’s own modeling code multiplies its softmax scale by mscale² ≈ 1.59
      (Hugging Face’s port keeps that factor for DeepSeek-V3 and leaves it out for V2).</p>`,
    notice: 'Llama-3.1 leaves the fast pairs alone (ratio 1), divides the slow ones by 8 and blends in between.',
  },
  {
    id: 'extrapolation',
    title: 'Past the training length',
    view: 'extrapolation',
    state: { dim: 64, length: 256, train: 128, scaling: 'none' },
    controls: ['train'],
    papers: ['press', 'su', 'chen', 'mohtashami'],
    intro: `<p>Every method drawn past the length it was trained on (the red line): sinusoidal, learned, RoPE and
      ALiBi. Long-context models are judged by how they behave out there, and how they are judged matters.</p>`,
    predict: {
      q: 'RoPE, trained on sequences of 128 tokens. A query at position 200 with a key 3 tokens before it, and the same two vectors at positions 50 and 47: how do their scores compare?',
      choices: [
        'They are equal: the score reads only the offset, −3 in both',
        'They differ: position 200 turns q and k to angles never trained',
        'The one at 200 is undefined: RoPE has no angles past 128',
        'They differ slightly: RoPE’s decay can grow with the position',
      ],
      answer: 0,
      why: [
        'Right: q′·k′ = q·R((n − m)ω)k (RoFormer eq. 16) depends on the content and the signed offset only, −3 in both cases, so the two scores are equal (up to float32 rounding). For a relative method a new position is nothing new; a distance longer than 128 would be. The figure’s RoPE curve follows one vector’s own angle, which is new past the line; the angle between q and k is not.',
        'Each vector’s own angle at 200 is new, as the figure’s RoPE curve shows, but the score reads only the difference of the two angles, 3ωᵢ in each pair, the same as at 50.',
        'RoPE’s angle is p·ωᵢ for any position p: nothing runs out at 128 (a learned table does).',
        'RoFormer’s decay is a function of the distance n − m, not of the position: at offset 3 it is the same at 50 and at 200.',
      ],
    },
    text: `<p>“Past the training length” means two different things. A <em>position</em> past it is new to an
      absolute method: the slow pairs of a sinusoidal code never completed a turn in training, so position 5000
      carries angles, and a combination of all pairs, no training example had; a learned table has no row at all.
      A relative method (RoPE, ALiBi, T5, Shaw) reads only the <em>distance</em> between query and key: a query at
      5000 looking 3 tokens back scores exactly as the same query and key at 30 did, because the distance 3 was seen
      in training. What is new to it is a distance longer than any in training: RoPE’s slow pairs then meet angle differences they never
      met, ALiBi’s penalty grows past any value in training (which mostly pushes far keys out, so the model keeps
      working but looks locally), and T5 puts every long distance in its last bucket.</p>
      <p>That distinction is why position interpolation works: slowing the rotations by the factor brings the angle
      differences of every distance in a long context back into the range seen in training, at the price of crowding
      near distances together in the pairs it slows. PI divides every position; YaRN and Llama 3.1’s rule slow the slow
      pairs and leave the fast ones, which turned through every angle in training, alone (the scaling step). The model
      then needs a short fine-tune, not a new table, and is judged at both ends: far back (below) and at the original
      lengths, where the crowding can cost a little (${cite('chen')} report small losses on tasks within the original
      window).</p>
      <p>Perplexity on long documents can stay low while the model ignores most of the far context:
      ${cite('press')} attribute most of ALiBi’s perplexity gain past the training length to avoiding the “early
      token curse”, not to using more context. Retrieval tests such as passkey retrieval (${cite('mohtashami')};
      used by ${cite('chen')}) hide one fact far back and ask for it, which only works if distant tokens are really
      used.</p>`,
    notice:
      'Past the red line the sinusoidal rows and each RoPE vector’s own angles are new and the learned table has no rows; the angle between a query and a key a few tokens back is one training saw. For RoPE and ALiBi only a longer distance is new.',
  },
  {
    id: 'lab',
    title: 'Train a tiny model',
    view: 'lab',
    // opens on the task the step's question asks about
    state: { labtask: 'first', labseeds: 3 },
    controls: [],
    papers: ['kazemnejad', 'haviv', 'press'],
    intro: `<p>Train a small causal model with each encoding and test it past its training length. The task it
      opens on: which of two marked tokens came first. Press <em>Train</em> once you have answered.</p>`,
    predict: {
      q: 'Past the training length, what will NoPE (no positions, causal mask) do on this task?',
      choices: [
        'Solve it: the causal mask carries the order',
        'Guess: with no positions at all it cannot tell order',
        'Solve it up to the training length, then fail',
        'Not train at all: its loss stays at ln 2',
      ],
      answer: 0,
      why: [
        'Right: a token sees only what precedes it, which is enough to tell which marker came first, at any length. Kazemnejad et al. (2023) found NoPE generalising to longer inputs better than explicit encodings on such synthetic tasks; Haviv et al. (2022) found NoPE decoders competitive at language modelling. Train to see what this model does.',
        'The causal mask is a source of order (step 2): the later marker can see the earlier one, not the other way round.',
        'NoPE has no position parameters to run out of: the mask works the same at every length, so nothing marks the training length for it.',
        'The causal mask gives it what it needs, so the loss falls below ln 2 (chance for two answers) in training.',
      ],
    },
    text: `<p>The model is tiny and the tasks are toys: the page simplifies, and results at this scale need not carry
      over to large models. Compare what you measure with what the papers report: on synthetic tasks
      ${cite('kazemnejad')} found NoPE generalising to longer inputs better than the explicit encodings; on language
      modelling ${cite('haviv')} found NoPE decoders competitive and ${cite('press')} found sinusoids the worst
      extrapolator of those compared.</p>
      <p>What the run it opens on shows (300 steps, seeds 0–2): every method learns the task at the training
      length (the learned table has no rows past it). On the positions past it, up to 8× that length, NoPE and the
      T5 buckets stay at 0.98–1.00 on every seed. Sinusoids, RoPE and ALiBi stay at 0.90 or above at 2× and fall
      on some seeds by 8× (medians 0.81, 0.93 and 0.85; their lowest seeds 0.73, 0.70 and
      0.59): their seeds overlap, so the run does not order these three, and ALiBi’s median only a little above the
      sinusoids’ is not the clear lead ${cite('press')} measured. Why the toy disagrees: Press et al. measured
      language-model perplexity, where most next tokens need only nearby context and ALiBi’s recency bias helps;
      this task needs the first marker, which may lie far back, and ALiBi’s penalty pushes far keys down past the training length. And a task the causal
      mask solves on its own, as NoPE shows, lets a model lean little on its encoding, so sinusoids need not fail
      here as they did in Press et al.’s language models. Their ranking is about language modelling at scale; the
      lab’s “Next token of a trigram source” task is the closest this toy gets to it.</p>`,
    notice: 'Each curve is one trained model; the dashed line is the training length.',
  },
  {
    id: 'recap',
    title: 'Recap: the methods side by side',
    view: 'recap',
    state: { dim: 64, length: 256, train: 128 },
    controls: [],
    papers: ['vaswani', 'devlin', 'shaw', 'dai', 'raffel', 'su', 'press', 'haviv', 'llama4'],
    intro: `<p>Every method of the path once more, side by side, past the same training length. One question before
      the table that sums them up.</p>`,
    predict: {
      q: 'Which of these pairs of methods has no learned position parameters at all?',
      choices: ['T5 buckets and ALiBi', 'Sinusoidal and learned', 'RoPE and ALiBi', 'Shaw and Transformer-XL'],
      answer: 2,
      why: [
        'ALiBi learns nothing about position, but T5 learns one scalar per bucket and per head.',
        'Sinusoids are fixed, but a learned table learns a row per position.',
        'Right: RoPE’s angles come from the base and the position, ALiBi’s slopes from the head count: nothing about position is learned (W_Q and W_K are learned, but they are not position parameters).',
        'Shaw learns a vector per clipped distance (for keys and for values); Transformer-XL learns W_k,R, u and v around its fixed sinusoids.',
      ],
    },
    text: `<p>The methods of this path in one table. The lab column names the method’s curve in the lab: run the lab
      for the numbers, which describe this page’s tiny model, not the models listed.</p>`,
    notice:
      'At offset 3 the relative methods (RoPE, ALiBi, T5) draw a flat line across the red line: a short distance at a new position is nothing new to them. The absolute ones change: sinusoids reach angle combinations never seen in training, the learned table has no rows at all. For the relative methods the novelty is a distance longer than any in training.',
    // in a build without the recap view: the extrapolation view
    fallback: {
      view: 'extrapolation',
      state: { dim: 64, length: 256, train: 128, scaling: 'none' },
      // a second block of the step's text (chrome.js shows it after `text`); the recap view draws its own
      table: `<div class="recap-wrap"><table class="recap"><caption>Positional methods at a glance</caption>
        <thead><tr><th scope="col">method</th><th scope="col">used in</th><th scope="col">parameters</th>
        <th scope="col">in the lab</th><th scope="col">trade-offs</th><th scope="col">paper</th></tr></thead><tbody>
        <tr><th scope="row">none (NoPE)</th><td>research decoders; every fourth layer of Llama 4</td><td>none</td><td>NoPE</td>
          <td>needs a causal mask; an encoder cannot see order</td><td>${cite('haviv')}, ${cite('llama4')}</td></tr>
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
    intro:
      '<p>Questions on the whole path. Each answer comes with an explanation and a link to the step that teaches it.</p>',
    text: '<p>Every choice has its own explanation, shown once you have answered.</p>',
    notice: 'Every choice has its own explanation, shown once you have answered.',
  },
];

// Each step's sources as [short name, title, link], for the shell.
for (const s of STEPS) s.sources = (s.papers ?? []).map((k) => P[k]);
