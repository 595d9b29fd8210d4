// Recap: the methods side by side on one property, then the table of the path.
// The property: one query and one key three tokens apart, slid together along the sequence and
// past the training length. Their score is computed from the API's numbers for every method
// (pe.sinusoidal and pe.learnedInit give the position vector added to each word; pe.applyRope turns
// q and k at their positions;
// pe.alibiBias and pe.t5Buckets give the bias of every distance from one query row, which the pair
// reads at its distance; each pair's score is the dot product of its two rows), so the figure shows
// which methods see only the offset and which see where the pair sits. Only the n pairs' products
// are formed, not the 2n × 2n matrix of every product: the view answers a drag within a frame.
// The table below stacks its rows into labelled cards in a narrow column (views.css), so every
// column is readable on a phone. The table states what a recap question asks, so it waits for the
// reader's answer (data-after-predict).
import { createPlot, esc, stackFigures } from '../draw.js';
import { plotExport, shell } from './common.js';

const OFFSET = 3; // the key sits this many tokens before the query
const SEED = 41;

const A = (href, text) => `<a href="${href}" rel="noopener">${text}</a>`;
const PAPER = {
  haviv: A('https://arxiv.org/abs/2203.16634', 'Haviv et al. 2022'),
  kazemnejad: A('https://arxiv.org/abs/2305.19466', 'Kazemnejad et al. 2023'),
  vaswani: A('https://arxiv.org/abs/1706.03762', 'Vaswani et al. 2017'),
  devlin: A('https://arxiv.org/abs/1810.04805', 'Devlin et al. 2019'),
  shaw: A('https://arxiv.org/abs/1803.02155', 'Shaw et al. 2018'),
  dai: A('https://arxiv.org/abs/1901.02860', 'Dai et al. 2019'),
  raffel: A('https://arxiv.org/abs/1910.10683', 'Raffel et al. 2020'),
  su: A('https://arxiv.org/abs/2104.09864', 'Su et al. 2021'),
  press: A('https://arxiv.org/abs/2108.12409', 'Press et al. 2022'),
};
const COLUMNS = ['method', 'used in', 'parameters', 'in the lab', 'trade-offs', 'paper'];
/** One row per method: the cells of COLUMNS (the project's own HTML). */
const ROWS = [
  [
    'none (NoPE)',
    'research decoders; every fourth layer of Llama 4 (<code>no_rope_layers</code>)',
    'none',
    'NoPE',
    'needs a causal mask; an encoder without one cannot see order',
    `${PAPER.haviv}, ${PAPER.kazemnejad}`,
  ],
  [
    'sinusoidal',
    'the original Transformer',
    'none (base, <i>d</i>)',
    'Sinusoidal',
    'added to the words; past the training length, angle combinations never seen in training',
    PAPER.vaswani,
  ],
  [
    'learned absolute',
    'BERT, GPT-2',
    '<code>max_position_embeddings</code> × <i>d</i>',
    'Learned',
    'flexible; no row past the table',
    PAPER.devlin,
  ],
  [
    'Shaw / Transformer-XL',
    'Transformer-XL, XLNet',
    'Shaw: (2<i>k</i>+1) vectors for keys and values; XL: W<sub><i>k</i>,R</sub>, u, v (R is a fixed sinusoid)',
    'not in the lab',
    'relative; extra terms in every score',
    `${PAPER.shaw}, ${PAPER.dai}`,
  ],
  [
    'T5 buckets',
    'T5, Flan-T5',
    'buckets × heads scalars, shared by the layers',
    'T5 buckets',
    'one layer cannot tell distances apart past the max distance',
    PAPER.raffel,
  ],
  [
    'RoPE',
    'GPT-NeoX, Llama, Qwen, DeepSeek',
    'none (base, pair layout, rotary fraction, scaling)',
    'RoPE',
    'relative in q·k; at distances longer than the training length its slow pairs meet unseen angles, hence the scalings',
    PAPER.su,
  ],
  [
    'ALiBi',
    'BLOOM, MPT',
    'none (fixed slopes)',
    'ALiBi',
    'a recency bias: perplexity holds past the training length, far tokens get little weight',
    PAPER.press,
  ],
];

/**
 * Each method's score of the pair (query at p, key at p − OFFSET) for p = OFFSET … L − 1, at head
 * size d, base `base` and training length T: [label, scores] per method, and the query positions.
 */
function pairScores(pe, d, T, L, base) {
  const n = L - OFFSET; // query positions OFFSET … L − 1
  const content = pe.learnedInit({ length: 2, dim: d, std: 0.5, seed: SEED });
  const xq = content.subarray(0, d),
    xk = content.subarray(d);
  const qPos = Int32Array.from({ length: n }, (_, i) => i + OFFSET);
  const kPos = Int32Array.from({ length: n }, (_, i) => i);
  /** Q rows (query at qPos[i]) and K rows (key at kPos[i]) → the n scores Q[i]·K[i]. */
  const scores = (Q, K) => {
    const out = new Float32Array(n);
    for (let i = 0, j = 0; i < n; i++) {
      let s = 0;
      for (const end = j + d; j < end; j++) s += Q[j] * K[j];
      out[i] = s;
    }
    return out;
  };
  const repeat = (row) => {
    const t = new Float32Array(n * d);
    for (let i = 0; i < n; i++) t.set(row, i * d);
    return t;
  };
  /** (word + its position's row)·(word + its position's row) for each pair, the position vectors
   * added as BERT and Vaswani et al. do; a query past the table's last row has no score. */
  const added = (table, rows) => {
    const out = new Float32Array(n);
    for (let i = 0; i < n; i++) {
      const a = qPos[i] * d,
        b = kPos[i] * d;
      let s = 0;
      for (let j = 0; j < d; j++) s += (xq[j] + table[a + j]) * (xk[j] + table[b + j]);
      out[i] = qPos[i] < rows ? s : Number.NaN;
    }
    return out;
  };
  // NoPE: the same two words at every position, so one product, drawn at each.
  let xx = 0;
  for (let j = 0; j < d; j++) xx += xq[j] * xk[j];
  const nope = new Float32Array(n).fill(xx);
  const sinusoidal = added(pe.sinusoidal({ length: L, dim: d, base }), L);
  // A stand-in for a trained table (posenc ships no weights): random rows of the words' size.
  const learned = added(pe.learnedInit({ length: T, dim: d, std: 0.5, seed: SEED + 1 }), T);
  const q = repeat(xq),
    k = repeat(xk);
  pe.applyRope(q, { length: n, dim: d, base, positions: qPos });
  pe.applyRope(k, { length: n, dim: d, base, positions: kPos });
  const rope = scores(q, k);
  // Relative biases: one causal query row at L − 1 against keys 0 … L − 1 gives the bias of every
  // distance; the pair (query at p, key at p − OFFSET) reads it at its distance qPos − kPos.
  const row = { queries: 1, keys: L, offset: L - 1 };
  const cell = (m) => Float32Array.from({ length: n }, (_, i) => m[L - 1 - (qPos[i] - kPos[i])]);
  const alibiB = cell(pe.alibiBias({ heads: 8, ...row, causal: true }).subarray(0, L)); // head 1 of 8
  const buckets = cell(pe.t5Buckets({ ...row, bidirectional: false }));
  const w = pe.learnedInit({ length: 32, dim: 1, std: 1, seed: SEED + 2 }); // stand-in bucket weights
  const alibi = nope.map((s, i) => s + alibiB[i]);
  const t5 = nope.map((s, i) => s + w[buckets[i]]);
  const series = [
    ['NoPE', nope],
    ['sinusoidal (added)', sinusoidal],
    ['learned (random rows, added)', learned],
    ['RoPE', rope],
    ['ALiBi (head 1 of 8)', alibi],
    ['T5 buckets (causal)', t5],
  ];
  return { series, qPos };
}

export function setupRecap(el, ctx) {
  const v = shell(
    el,
    'Recap: the methods side by side',
    `One query and one key, ${OFFSET} tokens apart, with the same content, slid together along the sequence ` +
      'and past the training length (red line): their attention score under each method. Below, the table of ' +
      'the path.',
  );
  v.body.innerHTML = `<div class="pair"><div class="plotbox"></div><div class="plotbox"></div></div><p class="figure-note recap-note" data-after-predict></p>
    <div class="recap-view-table" data-after-predict><table class="recap-cards"><caption>Positional methods at a glance</caption>
      <thead><tr>${COLUMNS.map((c) => `<th scope="col">${esc(c)}</th>`).join('')}</tr></thead>
      <tbody>${ROWS.map(
        ([m, ...cells]) =>
          `<tr><th scope="row">${m}</th>${cells.map((c, k) => `<td data-label="${esc(COLUMNS[k + 1])}">${c}</td>`).join('')}</tr>`,
      ).join('')}</tbody></table></div>`;
  // Two plots on their own y-ranges: a position vector added to each word moves the score by tens,
  // which would flatten the methods that act inside the score onto one line.
  const [boxA, boxB] = v.body.querySelectorAll('.plotbox');
  const plotA = createPlot(boxA, { height: 220 });
  const plotB = createPlot(boxB, { height: 220 });
  const note = v.body.querySelector('.recap-note');
  let memo = { pe: null, key: '' };

  function draw(st) {
    const pe = ctx.pe;
    const d = st.dim,
      T = st.train;
    // Capped at 512 positions, one point each: past the red line, more shows nothing new.
    const L = Math.min(512, Math.max(st.length, T + 2 * OFFSET));
    // The scores depend on these four numbers only: kept while they hold (a drag of the length past
    // the cap changes none of them), so a redraw does not recompute them.
    const key = `${L}|${d}|${st.base}|${T}`;
    if (memo.pe !== pe || memo.key !== key) memo = { pe, key, ...pairScores(pe, d, T, L, st.base) };
    const { series, qPos } = memo;
    const x = Float32Array.from(qPos);
    const opts = {
      xLabel: `query position p (key at p − ${OFFSET})`,
      yLabel: 'score',
      markers: [{ x: T, label: `train length ${T}` }],
    };
    const pick = (labels) => series.map((s, k) => [...s, k]).filter(([l]) => labels.some((p) => l.startsWith(p)));
    plotA.setTitle(`Added to the words: score of a query at p and a key at p − ${OFFSET}`);
    plotA.draw(
      pick(['sinusoidal', 'learned']).map(([label, y, k]) => ({ x, y, label, colour: k })),
      opts,
    );
    plotB.setTitle(`None, or inside the score: the same query and key`);
    plotB.draw(
      pick(['NoPE', 'RoPE', 'ALiBi', 'T5']).map(([label, y, k]) => ({ x, y, label, colour: k, dash: k === 3 })),
      opts,
    );
    // How much each score moves along the sequence (the finite part), and the verdict from it.
    const spreadOf = (y) => {
      let lo = Infinity,
        hi = -Infinity;
      for (const s of y) if (Number.isFinite(s)) (lo = Math.min(lo, s)), (hi = Math.max(hi, s));
      return hi - lo;
    };
    const scale = Math.max(...series.map(([, y]) => Math.max(...Array.from(y).filter(Number.isFinite).map(Math.abs))));
    const spreads = series.map(([label, y]) => [label.replace(/ \(.*$/, ''), spreadOf(y)]);
    const flat = spreads.filter(([, s]) => s <= 1e-4 * scale).map(([l]) => l);
    const moving = spreads.filter(([, s]) => s > 1e-4 * scale);
    note.textContent =
      `Flat, the score sees only the offset: ${flat.join(', ') || 'none'}. It moves with the position: ` +
      `${moving.map(([l, s]) => `${l} (by up to ${s.toFixed(2)})`).join(', ') || 'none'}; the learned line stops at ` +
      `its last row, ${T - 1}. Flat is not the whole story past the training length: at distances longer than ` +
      'training’s, RoPE’s slow pairs reach angles training never produced and ALiBi’s penalties grow past any ' +
      'seen in training, while T5 puts every ' +
      'farther key into its last bucket (seen in training once sequences pass where it begins), now shared by ' +
      'more keys; one pair at a fixed ' +
      'offset cannot show that (see the Extrapolation step).';
    return { spreads };
  }

  let exported = null;
  return {
    update(st) {
      v.clear();
      v.guard(() => {
        const r = draw(st);
        exported = {
          kind: 'group',
          parts: [plotExport(plotA, 'added to the words'), plotExport(plotB, 'inside the score')].filter(Boolean),
          spreads: r.spreads,
        };
      }, 'recap');
    },
    exportData: () => exported,
    figure: (o) => stackFigures([plotA.figure(o), plotB.figure(o)], o),
    canvas: () => plotA.canvas,
  };
}
