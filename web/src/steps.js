// The guided path: data only (the shell renders the navigation). Each step is a URL
// (?step=<id>), shows one view with a state patch, a short paragraph and one "what to notice".
// A step whose view is not registered in this build is skipped by the shell.
export const STEPS = [
  {
    id: 'why', title: 'Why positions?', view: 'shuffle',
    state: { method: 'rope', sentence: 'dog bites man', order: '2,1,0', dim: 32, heads: 4, head: 0 },
    text: '<p>Attention compares every word with every other word, and nothing else. Give it words with no positions, shuffle them, and it computes exactly the same numbers, only reordered. The left side runs one attention layer with no positional information; the right side adds one (RoPE here; pick another with <em>method</em>).</p>',
    notice: 'On the left the shuffled matrix is the original one with its rows and columns reordered (hover a cell: the same word pair lights up in the other matrix); on the right the numbers themselves change.',
  },
  {
    id: 'sinusoidal', title: 'Sinusoidal: the formula, by hand', view: 'worked',
    state: { base: 10000 },
    text: '<p>The original Transformer gives position <i>p</i> a vector of sines and cosines: PE(<i>p</i>, 2<i>i</i>) = sin(<i>p</i> / base<sup>2<i>i</i>/<i>d</i></sup>), PE(<i>p</i>, 2<i>i</i>+1) = cos(the same angle). With <i>d</i> = 4 there are just two frequencies, small enough to check on paper; the vector is then added to the word vector.</p>',
    notice: 'Column 0 changes a lot from row to row (ω₀ = 1 radian per position), column 2 barely moves (ω₁ = 0.01): fast and slow clocks.',
  },
  {
    id: 'sinusoidal-heatmap', title: 'Sinusoidal: the whole table', view: 'heatmap',
    state: { method: 'sinusoidal', dim: 64, length: 128, layout: 'interleaved', base: 10000 },
    text: '<p>The same formula for 128 positions and 64 dimensions. Each pair of columns is one frequency, from one turn every 2π positions on the left to one every 2π·10000 on the right. Point at any cell: the formula fills in with its numbers.</p>',
    notice: 'The left columns flicker, the right ones are almost constant: every position gets a distinct pattern, like the digits of a clock with many hands.',
  },
  {
    id: 'waves', title: 'Sinusoidal: the waves', view: 'waves',
    state: { method: 'sinusoidal', dim: 64, length: 64, layout: 'interleaved' },
    text: '<p>Follow single dimensions along the positions. Each is a sine wave; each pair turns at its own speed, geometrically slower from one pair to the next.</p>',
    notice: 'Dim 0 completes a turn every 6.28 positions; the last pair has hardly started at position 64.',
  },
  {
    id: 'shift', title: 'Moving k positions is one fixed rotation', view: 'shift',
    state: { dim: 64, base: 10000, pos: 10, shift: 3 },
    text: '<p>For every offset <i>k</i> there is one matrix M<sub><i>k</i></sub> with PE(<i>p</i>+<i>k</i>) = M<sub><i>k</i></sub>·PE(<i>p</i>) at every position <i>p</i>: a 2 × 2 rotation by <i>k</i>·ω<sub><i>i</i></sub> for each pair. Move <i>p</i> and watch both sides agree.</p>',
    notice: 'M_k does not depend on p: a layer can learn “look k tokens back” once, and it works everywhere. RoPE builds exactly this rotation into attention.',
  },
  {
    id: 'learned', title: 'Learned tables and their hard edge', view: 'learned',
    state: { dim: 64, length: 96, train: 64 },
    text: '<p>BERT and GPT-2 learn one vector per position instead. That is flexible, but the table has exactly as many rows as the longest training sequence.</p>',
    notice: 'Past the train length (red line) there is simply no row: a lookup at position 64 is an error, not a guess.',
  },
  {
    id: 'rope', title: 'RoPE: rotate the query and the key', view: 'rotation',
    state: { method: 'rope', dim: 64, base: 10000, pos: 5, kpos: 8, scaling: 'none', speed: 2 },
    text: '<p>RoPE rotates each pair of the query by <i>m</i>·ω<sub><i>i</i></sub> and of the key by <i>n</i>·ω<sub><i>i</i></sub>. The dot product of two rotated vectors depends only on the angle between them, (<i>n</i> − <i>m</i>)·ω<sub><i>i</i></sub>: the score sees the distance, not the positions.</p>',
    notice: 'Press Play: both vectors spin, the angle between them (and the relative-offset check below) stays the same.',
  },
  {
    id: 'rope-relative', title: 'RoPE: a score that depends on distance only', view: 'similarity',
    state: { method: 'rope', dim: 64, length: 256, scaling: 'none' },
    text: '<p>The same vector at every position, rotated, and every pair scored: the matrix is constant along each diagonal because q·k depends only on <i>j</i> − <i>i</i>. The curve below is the first row, with RoFormer’s long-term decay bound.</p>',
    notice: 'Every diagonal has one colour; the score shrinks (on average) as the distance grows.',
  },
  {
    id: 'alibi', title: 'ALiBi: a straight-line penalty', view: 'bias',
    state: { heads: 8, panel: 'alibi' },
    text: '<p>ALiBi adds nothing to the vectors. It adds <i>m</i><sub><i>h</i></sub>·(<i>j</i> − <i>i</i>) to each attention logit: a penalty growing linearly with distance, with a different slope per head.</p>',
    notice: 'Steep heads look only at the nearest keys; shallow heads see far back.',
  },
  {
    id: 't5', title: 'T5: buckets of distances', view: 'bias',
    state: { panel: 't5', buckets: 32, maxdist: 128, t5dir: 'bidirectional' },
    text: '<p>T5 learns one number per bucket of relative distance: exact buckets for small distances, logarithmically wider ones further away, and one last bucket for everything beyond the max distance.</p>',
    notice: 'Change the number of buckets or the max distance: the staircase and the matrix follow.',
  },
  {
    id: 'shaw', title: 'Shaw and Transformer-XL: learned relative vectors', view: 'bias',
    state: { panel: 'shaw', shawk: 4 },
    text: '<p>Shaw et al. learn a vector per relative distance, clipped to ±<i>k</i>, and add it to the key inside the score. Transformer-XL does the same with sinusoidal relative vectors and two learned biases, which lets a model reuse a cached segment.</p>',
    notice: 'Beyond ±k every distance shares one index: the model cannot tell 5 from 500 there.',
  },
  {
    id: 'concat', title: 'Add or concatenate?', view: 'concat',
    state: { dim: 64, base: 10000, pos: 6 },
    text: '<p>Absolute encodings are usually added to the word vectors. Concatenating would keep content and position apart, at the cost of more dimensions. The score decomposes term by term.</p>',
    notice: 'Adding creates cross terms (word × position) in every score; concatenation has only word·word + position·position.',
  },
  {
    id: 'scaling', title: 'RoPE scaling in real models', view: 'scaling',
    state: { preset: 'llama31-8b', base: 500000, dim: 128, scaling: 'llama3', factor: 8, rope: 'half' },
    text: '<p>Long-context models stretch RoPE: the slow pairs, whose wavelength exceeds the training context, are slowed further so that a longer context maps onto angles seen in training. Llama-3.1, Qwen2 with YaRN and DeepSeek-V2 do it differently.</p>',
    notice: 'Llama-3.1 leaves the fast pairs alone (ratio 1), divides the slow ones by 8 and blends in between.',
  },
  {
    id: 'extrapolation', title: 'Past the training length', view: 'extrapolation',
    state: { dim: 64, length: 256, train: 128, scaling: 'none' },
    text: '<p>Every method past the length it was trained on (red line). Sinusoids and RoPE keep turning into angles never seen; learned rows do not exist; ALiBi’s penalty just keeps growing.</p>',
    notice: 'Try a RoPE scaling: the slow pair’s curve stretches so that it stays in the range seen before the red line.',
  },
  {
    id: 'lab', title: 'Train a tiny model', view: 'lab',
    state: {},
    text: '<p>Train a small model with each encoding and test it beyond its training length.</p>',
    notice: 'Which encodings keep working past the training length?',
  },
  {
    id: 'compare', title: 'Side by side', view: 'compare',
    state: { method: 'sinusoidal', vs: 'rope', dim: 64, length: 128 },
    text: '<p>Two methods under the same settings. Sinusoidal and RoPE are drawn as the same quantity: RoPE’s sin θ and cos θ per pair are exactly what a sinusoidal table holds.</p>',
    notice: 'With equal base and dim the two pictures are the same numbers in a different column order (RoPE’s half layout puts all sines first).',
  },
];
