// Placeholder guided path (three steps) so the shell's navigation can be built and tested; the
// views engineer's full steps.js replaces this file at merge.
export const STEPS = [
  { id: 'why', title: 'Why positions?', view: 'shuffle', state: { method: 'rope', sentence: 'dog bites man', order: '2,0,1' },
    text: '<p>Self-attention compares every word with every other word, but nothing in it says where a word is.</p>',
    notice: 'Without positions the shuffled sentence gives the same numbers, reordered.' },
  { id: 'sinusoidal', title: 'Sinusoidal encoding', view: 'heatmap', state: { method: 'sinusoidal', dim: 64, length: 128 },
    text: '<p>Each position gets a vector of sines and cosines at geometrically spaced frequencies.</p>',
    notice: 'Low dimensions change fast along the positions, high dimensions slowly.' },
  { id: 'rope', title: 'RoPE: positions as rotations', view: 'rotation', state: { method: 'rope', dim: 32 },
    text: '<p>RoPE rotates each pair of query and key dimensions by an angle proportional to the position.</p>',
    notice: 'Pair 0 turns fastest; the last pairs barely move.' },
];
