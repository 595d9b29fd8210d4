// Bias: the relative methods, which add a number to each attention logit instead of touching the
// vectors. ALiBi per head (slopes and matrices on one colour scale), T5's bucket function and
// matrix, Shaw's indices, and Transformer-XL's four terms (pe.xlScores, one term at a time).
import { createMatrixPanel, createPlot, fmt, stackFigures } from '../draw.js';
import { createFormula, cellFormula } from '../formula.js';
import { t5Config, t5Opts } from '../methods.js';
import { gradientStops, paletteFor } from '../palette.js';
import { readTheme } from '../theme.js';
import { matrixExport, plotExport, shell } from './common.js';

const SMALL = 32;
const XL_N = 16; // Transformer-XL's terms: queries = keys, no memory
const XL_DIM = 16;
// Shaw et al. 2018 (arXiv:1803.02155), eqs. 3-4; families/relative/relative.md.
const SHAW_NOTE =
  'The index picks a row of two learned tables: aᴷ is added to the key inside the score, ' +
  'e<sub>ij</sub> = q<sub>i</sub>·(k<sub>j</sub> + aᴷ<sub>ij</sub>)/√d, and aⱽ to the value in the weighted sum, ' +
  'z<sub>i</sub> = Σ<sub>j</sub> α<sub>ij</sub>(v<sub>j</sub> + aⱽ<sub>ij</sub>). The row is clip(j − i, −k, k) + k: ' +
  'beyond ±k every distance shares one row ' +
  '(<a href="https://arxiv.org/abs/1803.02155">Shaw et al. 2018</a>).';
// Dai et al. 2019 (arXiv:1901.02860) §3.3; posenc's xlScores (families/relative/relative.md).
const XL_NOTE =
  '<a href="https://arxiv.org/abs/1901.02860">Dai et al. 2019</a> split the score of query i and key j into ' +
  '(a) content·content q<sub>i</sub>·k<sub>j</sub>, (b) content·position q<sub>i</sub>·W<sub>k,R</sub>R<sub>i−j</sub>, ' +
  '(c) a global content bias u·k<sub>j</sub> and (d) a global position bias v·W<sub>k,R</sub>R<sub>i−j</sub>. ' +
  'R is the sinusoid of the offset i − j (no learned table) with its own projection W<sub>k,R</sub>; u and v are ' +
  'learned vectors that replace the query in (c) and (d). Each term below is pe.xlScores with the other inputs ' +
  `set to zero; their sum is its full score. Here q, k, u, v are random stand-ins, W<sub>k,R</sub> is the identity, ${XL_N} tokens, ` +
  `one head of dimension ${XL_DIM}, causal (grey is −∞), no memory; each term has its own colour range. (c) reads only ` +
  `the key, so it is constant down each column; (d) reads only the offset, so it is constant along each diagonal. ` +
  `The model also caches the previous segment's states (segment-level recurrence, §3.2); scoring by the offset ` +
  `rather than by absolute positions, which would restart at 0 in every segment, is what lets it reuse them (§3.3).`;

const XL_TERMS = [
  ['a', '(a) q·k'],
  ['b', '(b) q·R'],
  ['c', '(c) u·k'],
  ['d', '(d) v·R'],
  ['sum', 'sum: the score'],
];
// Each term keeps only its own two inputs: (a) q, k; (b) q, r; (c) u, k; (d) v, r.
const XL_ONLY = { a: ['q', 'k'], b: ['q', 'r'], c: ['u', 'k'], d: ['v', 'r'], sum: ['q', 'k', 'r', 'u', 'v'] };

export function setupBias(el, ctx) {
  const s = biasState(el, ctx);
  linkFormula(s, s.bucketMat, s.t5Formula, 't5');
  linkFormula(s, s.shawMat, s.shawFormula, 'shaw');
  return {
    update: (st) => updateBias(s, st),
    exportData: () => biasExport(s),
    figure: (o) => biasFigure(s, o),
    canvas: () => s.bucketMat.canvas,
  };
}

/** The view's one state: its shell, its three panels' elements and figures, the last state drawn. */
function biasState(el, ctx) {
  const v = shell(
    el,
    'Attention biases',
    `ALiBi and T5 add a number to each query·key logit, after the dot product and before the softmax, ` +
      `where the causal mask (−∞, grey) is added too; RoPE instead turns q and k before the dot product. ` +
      `Shaw and Transformer-XL add learned or sinusoidal relative vectors inside the score. Matrices show ` +
      `${SMALL} queries × ${SMALL} keys.`,
  );
  const alibi = document.createElement('div');
  // Each panel's controls go in its slot in a narrow column (app.js), right above its figures.
  alibi.innerHTML =
    '<h3>ALiBi</h3><div class="control-slot" data-keys="heads"></div><div class="pair"></div><p class="figure-note shared-range"></p><div class="legend shared"><span class="lo"></span><span class="bar"></span><span class="hi"></span><span class="note"></span></div><div class="multiples"></div><div class="pair soft"></div>';
  const t5 = document.createElement('div');
  t5.innerHTML =
    '<h3>T5 buckets</h3><div class="control-slot" data-keys="buckets,maxdist,t5dir"></div><div class="pair"></div><p class="figure-note t5-last" data-after-predict></p><div class="with-formula"></div>';
  const shaw = document.createElement('div');
  shaw.innerHTML = `<h3>Shaw et al. (clipped relative positions)</h3><div class="control-slot" data-keys="shawk"></div>
    <p class="figure-note">${SHAW_NOTE}</p><div class="with-formula"></div>
    <h3>Transformer-XL: four terms</h3><p class="figure-note">${XL_NOTE}</p>
    <div class="multiples xl"></div>`;
  v.body.append(alibi, t5, shaw);
  const s = {
    ctx,
    v,
    alibi,
    t5,
    shaw,
    slopes: createPlot(alibi.querySelector('.pair'), { height: 200 }),
    soft: createPlot(alibi.querySelector('.soft'), { height: 200 }),
    heads: [],
    bucketPlot: createPlot(t5.querySelector('.pair'), { height: 200 }),
    cur: null,
    drawn: {}, // section id -> the inputs it was last drawn from (updateBias)
    drawnWith: null,
  };
  const square = { rowLabel: 'query', colLabel: 'key', square: true };
  s.bucketMat = createMatrixPanel(t5.querySelector('.with-formula'), square);
  s.t5Formula = createFormula(t5.querySelector('.with-formula'));
  s.shawMat = createMatrixPanel(shaw.querySelector('.with-formula'), square);
  s.xlMats = XL_TERMS.map(([, title]) => {
    const p = createMatrixPanel(shaw.querySelector('.multiples.xl'), {
      small: true,
      rowLabel: 'query',
      colLabel: 'key',
    });
    p.setTitle(title);
    p.rowAxis = 'query i';
    p.colAxis = 'key j';
    return p;
  });
  s.shawFormula = createFormula(shaw.querySelector('.with-formula'));
  for (const p of [s.bucketMat, s.shawMat]) {
    p.rowAxis = 'query position i';
    p.colAxis = 'key position j';
  }
  return s;
}

/** The cell under the cursor of `panel` shows its formula in `formula`. */
function linkFormula(s, panel, formula, method) {
  panel.onCursor = (r, c) => {
    if (!s.cur) return;
    try {
      formula.set(
        cellFormula(s.ctx.pe, s.cur, method, r, c, { values: panel.data().values, rows: SMALL, cols: SMALL }),
      );
    } catch (e) {
      formula.clear(e.message);
    }
  };
}

/** The formula of the cell under the cursor again, for the matrix just drawn. */
function refill(panel) {
  const { r, c } = panel.cursor();
  panel.onCursor(r, c);
}

/** The state keys each section draws from, besides the palette, the theme and the API: a section
 * whose inputs are unchanged keeps its figures (a drag of T5's buckets redraws T5 only). */
const SECTION_KEYS = { alibi: ['heads'], t5: ['buckets', 'maxdist', 't5dir'], shaw: ['shawk'] };

function updateBias(s, st) {
  s.v.clear();
  s.cur = { ...st };
  const on = (p) => !st.panel || st.panel === p;
  s.alibi.hidden = !on('alibi');
  s.t5.hidden = !on('t5');
  s.shaw.hidden = !on('shaw');
  if (s.drawnWith !== s.ctx.pe) s.drawn = {}; // the stand-in API gave way to the real one
  s.drawnWith = s.ctx.pe;
  const theme = readTheme(s.v.section).key;
  const section = (id, where, draw) => {
    if (!on(id)) return;
    const key = JSON.stringify([SECTION_KEYS[id].map((k) => st[k]), st.palette, theme]);
    if (s.drawn[id] === key) return;
    delete s.drawn[id];
    // kept only when it drew: a section that failed shows its note again on the next update
    if (s.v.guard(() => (draw(), true), where)) s.drawn[id] = key;
  };
  section('alibi', 'ALiBi', () => drawAlibi(s, st));
  section('t5', 'T5', () => drawT5(s, st));
  section('shaw', 'Shaw', () => {
    drawShaw(s, st);
    drawXl(s, st);
  });
}

function drawAlibi(s, st) {
  const pe = s.ctx.pe;
  const m = pe.alibiSlopes(st.heads);
  // Press et al. 2022: a geometric sequence for a power of two; otherwise the reference code's
  // interleaved set (families/relative/alibi.md).
  const c = 2 ** Math.floor(Math.log2(st.heads));
  s.slopes.setTitle(
    c === st.heads
      ? `ALiBi slopes for ${st.heads} heads: 2^(−8h/${st.heads}), h = 1 … ${st.heads}`
      : `ALiBi slopes for ${st.heads} heads: those of ${c} heads, then ${st.heads - c} of the ${2 * c}-head set (every other one), as the paper’s code does`,
  );
  s.slopes.draw([{ x: Float32Array.from(m, (_, h) => h + 1), y: m, label: 'slope mₕ', dots: true }], {
    xLabel: 'head (from 1)',
    yLabel: 'slope mₕ',
    integerX: true,
    // half a head of room on each side: the first and last dots are not cut by the frame
    xRange: [0.5, st.heads + 0.5],
    yRange: [0, Math.max(...m) * 1.08],
  });
  const n = SMALL;
  const b = pe.alibiBias({ heads: st.heads, queries: n, causal: true });
  const show = Math.min(st.heads, 8);
  const box = s.alibi.querySelector('.multiples');
  // One colour range for every head (from the steepest head's farthest key to 0) and one bar:
  // the heads' different slopes show as different pictures.
  const lo = -Math.max(...m.subarray(0, show)) * (n - 1);
  const pal = paletteFor('onesided', st.palette);
  const bar = s.alibi.querySelector('.legend.shared');
  bar.querySelector('.lo').textContent = fmt(lo);
  bar.querySelector('.hi').textContent = '0';
  bar.querySelector('.bar').style.background =
    `linear-gradient(to right, ${gradientStops(pal, readTheme(s.v.section)).join(', ')})`;
  bar.querySelector('.note').textContent = `bias, one range for all ${show} heads`;
  s.alibi.querySelector('.shared-range').textContent =
    `Bias matrices of ${show === st.heads ? 'every head' : `the first ${show} heads`} (${n} queries × ${n} keys, causal: grey is −∞), on one colour scale: a steep head is dark a few keys away, a gentle head stays light across the whole row.`;
  while (s.heads.length < show)
    s.heads.push(createMatrixPanel(box, { small: true, rowLabel: 'query', colLabel: 'key' }));
  s.heads.forEach((p, h) => {
    p.fig.hidden = h >= show;
    if (h >= show) return;
    const vals = b.subarray(h * n * n, (h + 1) * n * n);
    // The slope stays in the slope plot above (a guided step holds it until the reader answers).
    p.setTitle(`head ${h + 1}`);
    p.rowAxis = 'query i';
    p.colAxis = 'key j';
    p.draw(vals, n, n, { lo, hi: 0, palette: pal, note: 'bias' });
  });
  drawAlibiSoftmax(s, show);
}

/** What the bias alone does to attention: softmax of the last query's row, per head. With
 * q = k = 0 every logit is the bias, so the weights come straight from pe.attention. */
function drawAlibiSoftmax(s, H) {
  const pe = s.ctx.pe;
  const n = SMALL;
  const zeros = new Float32Array(n * H);
  const { weights } = pe.attention({
    q: zeros,
    k: zeros,
    v: zeros,
    queries: n,
    dim: 1,
    heads: H,
    causal: true,
    bias: { type: 'alibi', form: 'relative' },
    returnWeights: true,
  });
  const x = Float32Array.from({ length: n }, (_, j) => j - (n - 1));
  s.soft.setTitle(`Softmax of the last query's row (bias only): steep slopes look only at the nearest keys`);
  s.soft.draw(
    Array.from({ length: H }, (_, h) => ({
      x,
      y: weights.subarray(h * n * n + (n - 1) * n, (h + 1) * n * n),
      label: `h${h + 1}`,
    })),
    { xLabel: 'key − query (tokens)', yLabel: 'attention weight' },
  );
}

function drawT5(s, st) {
  const pe = s.ctx.pe;
  const R = 200;
  const x = Float32Array.from({ length: 2 * R + 1 }, (_, j) => j - R);
  const numBuckets = st.buckets;
  const cfg = (bidirectional) => t5Opts(t5Config(st, bidirectional));
  const bi = pe.t5Buckets({ queries: 1, keys: 2 * R + 1, offset: R, ...cfg(true) });
  const uni = pe.t5Buckets({ queries: 1, keys: 2 * R + 1, offset: R, ...cfg(false) });
  s.bucketPlot.setTitle(
    `Bucket function (${numBuckets} buckets, max distance ${t5Config(st).maxDistance}): exact near 0, logarithmic beyond`,
  );
  const sel = st.t5dir === 'causal';
  s.bucketPlot.draw(
    [
      { x, y: bi, label: `bidirectional${sel ? '' : ' (selected)'}`, dash: sel },
      { x, y: uni, label: `causal${sel ? ' (selected)' : ''}`, dash: !sel },
    ],
    { xLabel: 'key − query (tokens)', yLabel: 'bucket index' },
  );
  s.t5.querySelector('.t5-last').textContent =
    `The last bucket of the keys before the query begins at distance ${t5LastFrom(pe, st, true)} (bidirectional) and ${t5LastFrom(pe, st, false)} (causal), not at the max distance ${t5Config(st).maxDistance}: the logarithmic buckets reach it earlier, and every distance beyond shares it.`;
  const n = SMALL;
  s.bucketMat.setTitle(`Bucket matrix, ${st.t5dir}, ${n} × ${n}`);
  s.bucketMat.draw(pe.t5Buckets({ queries: n, keys: n, ...cfg(!sel) }), n, n, {
    lo: 0,
    hi: numBuckets - 1,
    palette: paletteFor('onesided', st.palette),
    note: 'bucket index',
  });
  refill(s.bucketMat);
}

/** Where the last bucket of the keys before the query begins: the log spacing reaches it before
 * the max distance, and every distance beyond shares it. */
function t5LastFrom(pe, st, bidirectional) {
  const c = t5Config(st, bidirectional);
  const far = c.maxDistance + 1;
  const b = pe.t5Buckets({ queries: 1, keys: far + 1, offset: far, ...t5Opts(c) }); // r = −far … 0
  let r = 0;
  while (b[far - r] !== b[0]) r++;
  return r;
}

function drawShaw(s, st) {
  const pe = s.ctx.pe;
  const n = SMALL;
  const k = st.shawk;
  s.shawMat.setTitle(`Index matrix, k = ${k}, ${n} × ${n}: the row of aᴷ, aⱽ each query–key pair reads`);
  s.shawMat.draw(pe.shawIndices({ queries: n, keys: n, maxRelative: k }), n, n, {
    lo: 0,
    hi: 2 * k,
    palette: paletteFor('onesided', st.palette),
    note: 'row of aᴷ, aⱽ',
  });
  refill(s.shawMat);
}

function drawXl(s, st) {
  const pe = s.ctx.pe;
  const d = XL_DIM;
  const rand = (length, seed, std = 1) => pe.learnedInit({ length, dim: d, std, seed });
  const full = {
    q: rand(XL_N, 21),
    k: rand(XL_N, 22),
    r: pe.xlPositions({ klen: XL_N, dim: d }),
    u: rand(1, 23, 0.5),
    v: rand(1, 24, 0.5),
  };
  const zero = (x) => new Float32Array(x.length);
  const terms = XL_TERMS.map(([id]) => {
    const o = Object.fromEntries(
      Object.entries(full).map(([key, x]) => [key, XL_ONLY[id].includes(key) ? x : zero(x)]),
    );
    return pe.xlScores({ ...o, queries: XL_N, dim: d });
  });
  // Each term on its own symmetric range (its legend under it): the small terms, (c) and (d),
  // would sit at the palette's midpoint, close to the page's background, on a shared one; the
  // title gives each term's largest magnitude so the sizes can still be compared.
  const pal = paletteFor('signed', st.palette);
  s.xlMats.forEach((p, k) => {
    let big = 0;
    for (const x of terms[k]) if (Number.isFinite(x)) big = Math.max(big, Math.abs(x));
    big ||= 1;
    p.setTitle(`${XL_TERMS[k][1]} (|max| ${fmt(big)})`);
    p.describe = (i, j, x) => `${XL_TERMS[k][1]}, query ${i}, key ${j}: ${fmt(x)}`;
    p.draw(terms[k], XL_N, XL_N, { lo: -big, hi: big, palette: pal, note: 'score' });
  });
}

function biasExport(s) {
  return {
    kind: 'group',
    parts: [
      plotExport(s.slopes, 'alibi slopes'),
      plotExport(s.soft, 'alibi softmax of last row'),
      ...s.heads.filter((p) => !p.fig.hidden).map((p, h) => matrixExport(p, `alibi head ${h + 1}`)),
      plotExport(s.bucketPlot, 't5 buckets'),
      matrixExport(s.bucketMat, 't5 matrix'),
      matrixExport(s.shawMat, 'shaw'),
      ...(s.shaw.hidden ? [] : s.xlMats.map((p, k) => matrixExport(p, `transformer-xl ${XL_TERMS[k][1]}`))),
    ].filter(Boolean),
  };
}

function biasFigure(s, o) {
  return stackFigures(
    [
      ...(s.alibi.hidden
        ? []
        : [
            s.slopes.figure(o),
            ...s.heads.filter((p) => !p.fig.hidden).map((p) => p.figure({ ...o })),
            s.soft.figure(o),
          ]),
      ...(s.t5.hidden ? [] : [s.bucketPlot.figure(o), s.bucketMat.figure(o)]),
      ...(s.shaw.hidden ? [] : [s.shawMat.figure(o), ...s.xlMats.map((p) => p.figure(o))]),
    ],
    o,
  );
}
