// What each view reads (the controls the shell shows beside it), the panels `panel=` can pick, and
// the height it will take at a given width, so the page can reserve the space before wasm arrives.
// Keys such as pos, kpos, speed, shift, preset, sentence and order are edited inside the view.

import { METHODS } from '../methods.js';

// The state keys each method reads (the registry's), and all of them in the catalogue's order.
const BY_METHOD = Object.fromEntries(Object.entries(METHODS).map(([id, m]) => [id, m.keys]));
const ALL = [
  'dim',
  'length',
  'base',
  'layout',
  'heads',
  'head',
  'rope',
  'scaling',
  'factor',
  'train',
  'buckets',
  'maxdist',
  't5dir',
  'shawk',
].filter((k) => Object.values(BY_METHOD).some((keys) => keys.includes(k)));
const uniq = (xs) => [...new Set(xs)];
// A scaling's factor and original length mean nothing without a scaling: hidden until one is
// chosen (a view that reads the train length for itself lists it on its own).
const live = (keys, st) => (st.scaling === 'none' ? keys.filter((k) => k !== 'factor' && k !== 'train') : keys);
/** The keys `method` reads under state st. */
const keysOf = (method, st) => live(BY_METHOD[method] ?? [], st);
const forMethods = (st, ...ms) => uniq(ms.flatMap((m) => keysOf(m, st)));

/** Height of a matrix panel (caption, figure with axes, legend, readout) at a container width. */
function matrixH(width, rows, cols, { square = false, small = false, names = false } = {}) {
  const ml = 52,
    mr = 8;
  let w = width - ml - mr;
  const maxH = small ? 260 : 520,
    minH = small ? 90 : 160;
  const h = square || rows === cols ? Math.min(w, maxH) : Math.round(Math.max(minH, Math.min(maxH, (w * rows) / cols)));
  return 6 + h + (names ? 58 : 36) + 24 + 22 + 26 + 12;
}
const plotH = (h) => h + 2 + 22 + 30 + 26 + 14;
const formulaW = (width) => (width > 900 ? Math.min(300, Math.max(220, width * 0.28)) + 16 : 0);
const HEAD = 110; // title, intro, padding
const matSide = (st, method) => (METHODS[method] && !METHODS[method].table ? Math.min(st.length, 512) : null);

export const VIEW_INFO = {
  shuffle: {
    title: 'Why positions? The shuffle lab',
    controls: [
      'method',
      'dim',
      'heads',
      'head',
      'base',
      'rope',
      'scaling',
      'factor',
      'train',
      'buckets',
      'maxdist',
      't5dir',
      'shawk',
      'palette',
    ], // sinusoidal: base only (the layer adds the paper's interleaved table)
    controlsFor: (st) => [
      'method',
      'dim',
      'heads',
      'head',
      ...keysOf(st.method, st).filter((k) => !['length', 'dim', 'heads', 'head', 'layout'].includes(k)),
      'palette',
    ],
    panels: [],
    height: (st, width) => {
      const side = width > 700 ? (width - 40) / 2 : width - 20;
      const mat = matrixH((side - 30) / 2, 3, 3, { square: true, small: true, names: true });
      const one = 40 + 60 + mat + plotH(150) + 120;
      return HEAD + 140 + (width > 700 ? one : 2 * one);
    },
  },
  worked: {
    title: 'Sinusoidal by hand: a 4-dimensional example',
    controls: ['base'],
    panels: [],
    height: (st, width) => HEAD + 620 + (width < 600 ? 160 : 0),
  },
  // RoPE angles always take the cyclic map, so the palette choice does not apply to them.
  heatmap: {
    title: 'Heatmap',
    controls: ['method', ...ALL, 'palette'],
    controlsFor: (st) => ['method', ...keysOf(st.method, st), ...(st.method === 'rope' ? [] : ['palette'])],
    panels: [],
    height: (st, width) => {
      const fw = formulaW(width);
      const side = matSide(st, st.method);
      const rows = side ?? st.length,
        cols = side ?? st.dim;
      return HEAD + 20 + matrixH(width - fw, rows, cols) + (fw ? 0 : 260);
    },
  },
  // Waves follow one column per pair and the similarity is a cosine or q·k: neither depends on
  // which column holds which pair, so the layouts are not among their controls.
  waves: {
    title: 'Waves',
    controls: ['method', ...ALL.filter((k) => k !== 'layout' && k !== 'rope')],
    controlsFor: (st) => ['method', ...keysOf(st.method, st).filter((k) => k !== 'layout' && k !== 'rope')],
    panels: [],
    height: (st) => HEAD + plotH(300) + (st.method === 'rope' ? plotH(240) : 0),
  },
  shift: {
    title: 'The shift identity PE(p+k) = M_k · PE(p)',
    controls: ['dim', 'base'],
    panels: [],
    height: (st, width) => HEAD + 200 + plotH(240) + (width < 600 ? 120 : 0),
  },
  similarity: {
    title: 'Similarity',
    controls: [
      'method',
      'dim',
      'length',
      'base',
      'scaling',
      'factor',
      'train',
      'heads',
      'head',
      'buckets',
      'maxdist',
      't5dir',
      'shawk',
      'palette',
    ],
    controlsFor: (st) => ['method', ...keysOf(st.method, st).filter((k) => k !== 'layout' && k !== 'rope'), 'palette'],
    panels: [],
    height: (st, width) => {
      const L = Math.min(st.length, 1024);
      const half = width > 600 ? (width - 16) / 2 : width;
      // RoPE adds RoFormer's decay plot under the score plot
      const plots = plotH(260) + (st.method === 'rope' ? plotH(200) + 90 : 0);
      return HEAD + 40 + Math.max(matrixH(half, L, L), width > 600 ? plots : 0) + (width > 600 ? 0 : plots);
    },
  },
  rotation: {
    title: 'Rotation',
    controls: ['dim', 'base', 'rope', 'scaling', 'factor', 'train'],
    panels: [],
    controlsFor: (st) => live(['dim', 'base', 'rope', 'scaling', 'factor', 'train'], st),
    height: (st, width) => {
      const perRow = Math.min(5, Math.max(2, Math.floor(width / 150)));
      const rows = Math.ceil(5 / perRow);
      const R = Math.min(66, width / perRow / 2 - 14);
      return HEAD + 130 + rows * (2 * R + 114) + 8 + 60 + 130; // circles, then the check's five rows
    },
  },
  // Here `train` is the table's number of rows (max_position_embeddings): named so, in the
  // Encoding group, not among RoPE's settings.
  learned: {
    title: 'Learned table',
    controls: ['dim', 'length', 'train', 'palette'],
    panels: [],
    groups: { train: 'Encoding' },
    labels: { train: 'table rows' },
    height: (st, width) => {
      const S = Math.min(st.train, st.length, 512);
      return (
        HEAD +
        120 +
        matrixH(width, Math.max(st.length, Math.min(st.train, st.length)), st.dim) +
        matrixH(Math.min(420, width), S, S, { square: true })
      );
    },
  },
  bias: {
    title: 'Attention biases',
    controls: ['heads', 'buckets', 'maxdist', 't5dir', 'shawk', 'palette'],
    // one panel shown: only the controls it reads
    controlsFor: (st) =>
      ({ alibi: ['heads', 'palette'], t5: ['buckets', 'maxdist', 't5dir', 'palette'], shaw: ['shawk', 'palette'] })[
        st.panel
      ] ?? ['heads', 'buckets', 'maxdist', 't5dir', 'shawk', 'palette'],
    panels: [
      { id: 'alibi', label: 'ALiBi' },
      { id: 't5', label: 'T5 buckets' },
      { id: 'shaw', label: 'Shaw' },
    ],
    height: (st, width) => {
      const show = (p) => !st.panel || st.panel === p;
      const heads = Math.min(st.heads, 8);
      const per = Math.max(1, Math.floor(width / 130));
      const small = matrixH(Math.max(110, width / per - 10), 32, 32, { small: true });
      let h = HEAD;
      if (show('alibi')) h += 40 + plotH(200) * (width > 600 ? 1 : 2) + Math.ceil(heads / per) * small;
      if (show('t5'))
        h +=
          40 +
          (width > 600
            ? Math.max(plotH(200), matrixH(Math.min(420, width / 2), 32, 32, { square: true }))
            : plotH(200) + matrixH(Math.min(420, width), 32, 32, { square: true }));
      if (show('shaw')) h += 40 + matrixH(Math.min(420, width), 32, 32, { square: true });
      return h;
    },
  },
  concat: {
    title: 'Add or concatenate?',
    controls: ['dim', 'base'],
    panels: [],
    height: (st, width) => HEAD + 180 + 2 * plotH(200) + (width < 600 ? 200 : 0),
  },
  scaling: {
    title: 'RoPE scaling',
    controls: ['dim', 'base', 'scaling', 'factor', 'train'],
    // the original context stays (its line is drawn either way); a factor needs a scaling
    controlsFor: (st) =>
      ['dim', 'base', 'scaling', 'factor', 'train'].filter((k) => k !== 'factor' || st.scaling !== 'none'),
    panels: [],
    height: (st, width) => HEAD + 200 + plotH(260) + plotH(220) + (width < 600 ? 160 : 0),
  },
  extrapolation: {
    title: 'Extrapolation',
    controls: ['dim', 'length', 'base', 'heads', 'head', 'rope', 'scaling', 'factor', 'train', 'palette'],
    // the red line is the view's own train length; a factor means nothing without a scaling
    controlsFor: (st) =>
      ['dim', 'length', 'base', 'heads', 'head', 'rope', 'scaling', 'factor', 'train', 'palette'].filter(
        (k) => k !== 'factor' || st.scaling !== 'none',
      ),
    panels: [],
    height: (st, width) => {
      const per = Math.max(1, Math.floor(width / 200));
      return (
        HEAD +
        Math.ceil(4 / per) *
          matrixH(width / per - 12, Math.min(Math.max(st.length, st.train + 1), 1024), st.dim, { small: true }) +
        plotH(220)
      );
    },
  },
  // padding and the cache are fixed examples; only the encoding's size and base are read
  positions: {
    title: 'Position ids',
    controls: ['dim', 'base'],
    panels: [],
    height: (st, width) =>
      HEAD + 300 + (width < 600 ? 200 : 0) + plotH(220) + plotH(200) + 2 * (width < 600 ? 140 : 60),
  },
  recap: {
    title: 'Recap',
    controls: ['dim', 'length', 'base', 'train'],
    panels: [],
    // the plot, then the table: seven rows, or seven stacked cards in a narrow column
    height: (st, width) => HEAD + plotH(220) * (width > 600 ? 1 : 2) + 60 + (width <= 600 ? 7 * 190 : 7 * 52 + 40),
  },
  // the lab's task, methods, steps and seed are edited inside the view
  lab: { title: 'Extrapolation lab', controls: [], panels: [], height: (st, width) => (width > 900 ? 1500 : 2300) },
  compare: {
    title: 'Compare',
    controls: ['method', 'vs', ...ALL, 'palette'],
    controlsFor: (st) => uniq(['method', 'vs', ...forMethods(st, st.method, st.vs), 'palette']),
    panels: [],
    height: (st, width) => {
      const half = width > 600 ? (width - 16) / 2 : width;
      const h = (m) => {
        const s = matSide(st, m);
        return matrixH(half, s ?? st.length, s ?? st.dim);
      };
      return HEAD + 60 + (width > 600 ? Math.max(h(st.method), h(st.vs)) : h(st.method) + h(st.vs));
    },
  },
};

// Text wraps with the width (intros, captions, formula panels): a correction a + b·1000/width per
// view, fitted to the embed measured in headless Chromium at 1280 and 390 px (the structural
// estimate above carries what depends on the state: matrix sizes, plots, panels).
const FIT = {
  shuffle: [-189.5, 275.5],
  worked: [-129.3, 321],
  heatmap: [-81.9, 74.8],
  waves: [-113.8, 276.6],
  shift: [25.5, 319.7],
  learned: [-213.4, 293.7],
  rotation: [184.8, 262.8],
  similarity: [224.7, 65.6],
  'bias:alibi': [572.6, -340.3],
  'bias:t5': [287.7, 62.7],
  'bias:shaw': [763.2, 183.0],
  concat: [-65.7, 188.3],
  scaling: [-229.5, 404.6],
  extrapolation: [384.5, 105.5],
  compare: [-189.2, 272.7],
  // measured as the embed's height at 680 and 358 px against scaling's (whose fit is above)
  positions: [-272.5, 246.5],
  recap: [535.6, -44.6],
};
for (const [name, info] of Object.entries(VIEW_INFO)) {
  const structural = info.height;
  info.height = (st, width) => {
    const key = name === 'bias' ? `bias:${st.panel || 'alibi'}` : name;
    const [a, b] = FIT[key] ?? [0, 0];
    const extra = name === 'bias' && !st.panel ? (FIT['bias:t5'][0] + FIT['bias:shaw'][0]) / 2 : 0;
    return Math.round(structural(st, width) + a + (b * 1000) / width + extra);
  };
}
