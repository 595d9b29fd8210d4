// Extrapolation lab: train a tiny causal transformer per positional method and seed (in a worker),
// then plot its accuracy past the training length (median and min-max band over seeds, chance
// drawn), mark the runs that did not learn the task, and set the papers' findings beside the
// measurement with a debrief computed from the numbers. Self-contained: its own controls,
// canvases and drawing.

import { use } from '../api.js';
import { LAB_METHODS as METHODS, LAB_TASKS } from '../state.js';
import { readTheme } from '../theme.js';
import { lut } from '../palette.js';
import { esc } from '../draw.js';

// each method's curve colour (a theme key or an index into the theme's series colours) and marker
const COLOUR = { none: 'muted', learned: 1, sinusoidal: 2, rope: 0, alibi: 3, t5: 4 };
const MARK = { none: 'x', learned: 'diamond', sinusoidal: 'triangle', rope: 'circle', alibi: 'square', t5: 'plus' };
const LAB_METHODS = METHODS.map(([v, l]) => [v, l, COLOUR[v]]);
const MULTIPLES = [1, 2, 4, 8];
const TRAIN_LENGTH = 32;
/** A run learned its task when its accuracy at the training length reaches this share of the best
 * possible accuracy (1 for the deterministic tasks; 3/4 + 1/64 for the trigram source). */
export const LEARNED_SHARE = 0.9;

const PRESS = 'https://arxiv.org/abs/2108.12409';
const NOPE = 'https://arxiv.org/abs/2305.19466';
const PI = 'https://arxiv.org/abs/2306.15595';
const YARN = 'https://arxiv.org/abs/2309.00071';
/** What the papers report, per method: [text, [label, url]...]. Checked against the papers; the
 * papers measured language-model perplexity (Press et al.) or synthetic tasks (Kazemnejad et al.). */
const PAPERS = {
  none: [
    'Decoder-only models without positional encoding generalised to longer inputs better than ALiBi, RoPE or absolute encodings on their synthetic tasks. In theory the causal mask is enough: a first layer can recover each token’s absolute position (their Theorem 1) and later layers can then attend by relative position (Theorem 2).',
    [['Kazemnejad et al. 2023', NOPE]],
  ],
  learned: [
    'A learned table has no rows past the training length: longer inputs are not defined (the lab reports them as such, never clamped).',
    [],
  ],
  sinusoidal: [
    "On language modelling (WikiText-103), the sinusoidal model's perplexity rose within a few dozen tokens past the training length: the worst extrapolator of those compared.",
    [['Press et al. 2022', PRESS]],
  ],
  rope: [
    "Rotary extrapolated only a little past the training length on language modelling (Press et al.). Rescaling its positions, with a short fine-tuning, extends the context: linear interpolation (Chen et al.), and YaRN's per-band scaling with an attention temperature (Peng et al.).",
    [
      ['Press et al. 2022', PRESS],
      ['Chen et al. 2023', PI],
      ['Peng et al. 2023', YARN],
    ],
  ],
  alibi: [
    'On language modelling, a model trained on 1024 tokens with ALiBi and tested on 2048 matched the perplexity of a sinusoidal model trained on 2048, and stayed flat far beyond: the best extrapolator of those compared (with 8 heads the slopes are 1/2 … 1/256; with H heads, a power of two, 2^(−8/H) … 1/256).',
    [['Press et al. 2022', PRESS]],
  ],
  t5: [
    'The T5 bias extrapolated better than rotary on language modelling, though more slowly computed (Press et al.); on synthetic tasks it was the best of the explicit encodings (Kazemnejad et al.).',
    [
      ['Press et al. 2022', PRESS],
      ['Kazemnejad et al. 2023', NOPE],
    ],
  ],
};

const taskOf = (v) => LAB_TASKS.find(([t]) => t === v) ?? LAB_TASKS[0];
const chanceOf = (task) => (taskOf(task)[2].task === 'first' ? 0.5 : 1 / 16);

/** The loss caption for a task: the loss of a model that knows the possible answers but guesses
 * among them (families/train/lab.md, The tasks). The vocabulary has 16 tokens; "which came first" answers
 * with one of two tokens, so a guessing model sits at ln 2, not ln 16. */
export function lossCaption(task) {
  const t = taskOf(task)[2];
  if (t.task === 'first')
    return 'Training loss (cross-entropy). The answer is one of two tokens: a model that has learned that much but still guesses which sits at ln 2 = 0.69 (a uniform guess over all 16 tokens: ln 16 = 2.77); near 0, it has learned the order.';
  if (t.task === 'ngram')
    return 'Training loss (cross-entropy; a uniform guess over the 16 tokens is ln 16 = 2.77). The source is random 1 time in 4, so even a perfect model stays near its entropy, about 1.19, not 0.';
  return 'Training loss (cross-entropy; a uniform guess over the 16 tokens is ln 16 = 2.77; a model that learned the task goes towards 0).';
}

/** What a model that learned the task should look like in its attention map: a diagonal only where
 * the task reads a fixed offset. */
export function attentionExpectation(task) {
  const t = taskOf(task)[2];
  if (t.task === 'copy')
    return `A model that learned to copy the token ${t.k} back puts its weight on a sharp line ${t.k} cell${t.k > 1 ? 's' : ''} left of the diagonal (in some head of the last layer; head 1 is drawn); look at the rows below the dashed line, the positions it never saw: where that line blurs or breaks up, so does the accuracy.`;
  if (t.task === 'ngram')
    return `The next token depends on the last ${t.k - 1} tokens, the query's own and the one before it, so a model that learned the source looks at a narrow band on and just left of the diagonal; below the dashed line, watch whether that band holds.`;
  if (t.task === 'periodic')
    return 'To continue a pattern of p tokens a model can look at the token that followed this one a period ago: a line parallel to the diagonal, p − 1 cells left of it (p is drawn anew for every sequence).';
  return 'No diagonal is expected here: the answer depends on where the two markers are, not on a fixed offset, so a model that learned the task may look at the markers’ columns, or spread its weight over the prefix. Judge it by the accuracy, not by a line.';
}

/** One lab run: train, evaluate at 1x-8x, the attention of the last layer (on a 4x input, or 1x
 * for a learned table, which has no rows past 1x), and for a learned table the table itself (the
 * view computes its cosine similarity). Pure (no DOM), so the worker and the main-thread fallback
 * share it. opts: { task (a page task), steps, seed, method }. */
export function runLab(pe, { opts }, onProgress) {
  const { task, ...rest } = opts;
  const base = taskOf(task)[2];
  const { model, losses } = pe.train({ ...rest, ...base, length: TRAIN_LENGTH }, (p) => {
    onProgress?.({ step: p.step, steps: p.steps, loss: p.loss, table: p.table });
  });
  const lengths = MULTIPLES.map((m) => m * TRAIN_LENGTH);
  const evaluation = pe.evaluate(model, { lengths, count: 32 });
  const attLength = model.method === 'learned' ? TRAIN_LENGTH : 4 * TRAIN_LENGTH;
  const attention = pe.attentionMap(model, { length: attLength, layer: model.layers - 1 });
  const table = model.method === 'learned' ? pe.positionTable(model).slice() : null;
  return { losses, evaluation, attention, table, seed: model.seed };
}

/** The median and range over seeds at each length, and whether the method learned the task. */
export function summarise(runs) {
  const at = (key, i) =>
    runs
      .map((r) => r.evaluation[key][i])
      .filter((v) => v !== null && Number.isFinite(v))
      .sort((a, b) => a - b);
  const stat = (v) =>
    v.length
      ? {
          median: v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2,
          min: v[0],
          max: v[v.length - 1],
        }
      : null;
  const acc1 = stat(at('accuracy', 0));
  const oracle = runs[0].evaluation.oracle[0] ?? 1;
  return {
    lengths: runs[0].evaluation.lengths,
    train: acc1,
    beyond: MULTIPLES.map((_, i) => stat(at('beyond', i))),
    oracle,
    learned: !!acc1 && acc1.median >= LEARNED_SHARE * oracle,
    seeds: runs.map((r) => r.seed),
  };
}

/** Round ticks between lo and hi (about n of them): steps of 1, 2 or 5 times a power of ten. */
export function niceTicks(lo, hi, n = 5) {
  const span = hi - lo || 1;
  const raw = span / n;
  const p = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((f) => f * p).find((s) => s >= raw);
  const out = [];
  for (let v = Math.ceil(lo / step - 1e-9) * step; v <= hi + 1e-9 * step; v += step) out.push(+v.toPrecision(12));
  return out;
}

function canvasIn(parent, label) {
  const fig = document.createElement('figure');
  const cap = document.createElement('figcaption');
  const c = document.createElement('canvas');
  c.setAttribute('role', 'img');
  c.setAttribute('aria-label', label);
  fig.append(cap, c);
  parent.append(fig);
  return { fig, cap, c };
}

function size(c, w, h) {
  const dpr = globalThis.devicePixelRatio || 1;
  c.style.width = `${w}px`;
  c.style.height = `${h}px`;
  c.width = Math.round(w * dpr);
  c.height = Math.round(h * dpr);
  const g = c.getContext('2d');
  g.setTransform(dpr, 0, 0, dpr, 0, 0);
  return g;
}

const colourOf = (c, key) => (typeof key === 'number' ? readTheme(c).series[key] : readTheme(c)[key]);

function marker(g, shape, x, y, r = 4) {
  g.beginPath();
  if (shape === 'circle') g.arc(x, y, r, 0, 2 * Math.PI);
  else if (shape === 'square') g.rect(x - r, y - r, 2 * r, 2 * r);
  else if (shape === 'triangle') {
    g.moveTo(x, y - r - 1);
    g.lineTo(x + r + 1, y + r);
    g.lineTo(x - r - 1, y + r);
    g.closePath();
  } else if (shape === 'diamond') {
    g.moveTo(x, y - r - 1);
    g.lineTo(x + r + 1, y);
    g.lineTo(x, y + r + 1);
    g.lineTo(x - r - 1, y);
    g.closePath();
  }
  if (shape === 'x' || shape === 'plus') {
    const d =
      shape === 'x'
        ? [
            [-r, -r, r, r],
            [-r, r, r, -r],
          ]
        : [
            [-r - 1, 0, r + 1, 0],
            [0, -r - 1, 0, r + 1],
          ];
    for (const [a, b, e, f] of d) {
      g.moveTo(x + a, y + b);
      g.lineTo(x + e, y + f);
    }
    g.lineWidth = 2;
    g.stroke();
    return;
  }
  g.fill();
}

/** drawLines' frame: margins (a narrow canvas has its legend below the plot), ranges, scales px
 * and py; null when there is no point. */
function lineFrame(series, { xLog, yMin, yMax, width, height }) {
  const R = width < 420 ? 8 : 150;
  const L = 46,
    T = 10,
    B = 38 + (width < 420 ? 16 * Math.ceil(series.length / 2) : 0),
    w = width - L - R,
    h = height - T - B;
  const xs = series.flatMap((s) => s.x),
    ys = series.flatMap((s) => [...s.y, ...(s.hi ?? [])].filter((v) => v !== null && Number.isFinite(v)));
  if (!xs.length) return null;
  const fx = xLog ? Math.log2 : (v) => v;
  const xmin = Math.min(...xs),
    xmax = Math.max(...xs);
  const x0 = fx(xmin),
    x1 = fx(xmax) === x0 ? x0 + 1 : fx(xmax);
  const y0 = yMin ?? Math.min(...ys),
    yt = niceTicks(y0, yMax ?? Math.max(...ys), 4),
    y1 = yMax ?? yt[yt.length - 1];
  const px = (v) => L + ((fx(v) - x0) / (x1 - x0)) * w,
    py = (v) => T + h - ((v - y0) / (y1 - y0 || 1)) * h;
  return { L, T, w, h, xs, xmin, xmax, y0, y1, px, py };
}

/** drawLines' grid, tick labels and axis names, the level lines (hlines) and the vertical line. */
function lineAxes(
  g,
  c,
  th,
  { L, T, w, h, xs, xmin, xmax, y0, y1, px, py },
  { xLog, xLabel, yLabel, hlines, vline, vlabel },
) {
  const fg = th.ink,
    grid = th.line;
  g.font = '11px system-ui, sans-serif';
  g.strokeStyle = grid;
  g.fillStyle = fg;
  g.lineWidth = 1;
  const yticks = niceTicks(y0, y1, 4);
  for (const v of yticks) {
    g.beginPath();
    g.moveTo(L, py(v));
    g.lineTo(L + w, py(v));
    g.stroke();
    g.textAlign = 'right';
    g.fillText(String(v), L - 4, py(v) + 4);
  }
  const xticks = xLog ? [...new Set(xs)].sort((a, b) => a - b) : niceTicks(xmin, xmax, 5);
  g.textAlign = 'center';
  for (const t of xticks) g.fillText(String(t), px(t), T + h + 14);
  c.dataset.xticks = xticks.join('|');
  c.dataset.yticks = yticks.join('|');
  c.dataset.xname = xLabel;
  c.dataset.yname = yLabel;
  g.fillText(xLabel, L + w / 2, T + h + 30);
  g.save();
  g.translate(12, T + h / 2);
  g.rotate(-Math.PI / 2);
  g.fillText(yLabel, 0, 0);
  g.restore();
  for (const hl of hlines) {
    g.strokeStyle = th.muted;
    g.fillStyle = th.muted;
    g.setLineDash([2, 3]);
    g.beginPath();
    g.moveTo(L, py(hl.y));
    g.lineTo(L + w, py(hl.y));
    g.stroke();
    g.setLineDash([]);
    g.textAlign = 'right';
    g.fillText(hl.label, L + w - 2, py(hl.y) - 3);
  }
  if (vline !== undefined) {
    g.strokeStyle = fg;
    g.fillStyle = fg;
    g.setLineDash([4, 3]);
    g.beginPath();
    g.moveTo(px(vline), T);
    g.lineTo(px(vline), T + h);
    g.stroke();
    g.setLineDash([]);
    g.textAlign = 'left';
    g.fillText(vlabel, px(vline) + 4, T + 12);
  }
}

/** Lines with axes. series [{ label, color, x[], y[] (null = gap), lo[], hi[] (band), mark, faded,
 * dx (a small offset in px so overlapping points stay visible) }]; hlines [{ y, label }]. */
function drawLines(
  c,
  series,
  { xLabel, yLabel, xLog = false, yMin, yMax, vline, vlabel, hlines = [], width = 560, height = 260 },
) {
  const g = size(c, width, height);
  const th = readTheme(c);
  const fg = th.ink;
  const fr = lineFrame(series, { xLog, yMin, yMax, width, height });
  if (!fr) return;
  lineAxes(g, c, th, fr, { xLog, xLabel, yLabel, hlines, vline, vlabel });
  const { L, T, w, h, px, py } = fr;
  let bands = 0;
  series.forEach((s, k) => {
    const col = colourOf(c, s.color);
    const X = (x) => px(x) + (s.dx ?? 0);
    g.globalAlpha = s.faded ? 0.45 : 1;
    if (s.lo && s.hi) {
      // the min-max band over seeds, where it has width
      const idx = s.x.map((_, i) => i).filter((i) => s.lo[i] !== null && s.hi[i] !== null);
      if (idx.length > 1 && idx.some((i) => s.hi[i] > s.lo[i])) {
        g.fillStyle = col;
        g.globalAlpha = s.faded ? 0.08 : 0.18;
        g.beginPath();
        idx.forEach((i, n) => (n ? g.lineTo(X(s.x[i]), py(s.hi[i])) : g.moveTo(X(s.x[i]), py(s.hi[i]))));
        [...idx].reverse().forEach((i) => g.lineTo(X(s.x[i]), py(s.lo[i])));
        g.closePath();
        g.fill();
        bands++;
        g.globalAlpha = s.faded ? 0.45 : 1;
      }
    }
    g.strokeStyle = g.fillStyle = col;
    g.lineWidth = 2;
    if (s.faded) g.setLineDash([5, 4]);
    g.beginPath();
    let pen = false;
    s.x.forEach((x, i) => {
      const y = s.y[i];
      if (y === null || !Number.isFinite(y)) {
        pen = false;
        return;
      }
      if (pen) g.lineTo(X(x), py(y));
      else g.moveTo(X(x), py(y));
      pen = true;
    });
    g.stroke();
    g.setLineDash([]);
    if (s.mark)
      s.x.forEach((x, i) => s.y[i] !== null && Number.isFinite(s.y[i]) && marker(g, s.mark, X(x), py(s.y[i])));
    g.textAlign = 'left';
    const [lx, ly] =
      width < 420 ? [L + (k % 2) * (w / 2), T + h + 46 + Math.floor(k / 2) * 16] : [L + w + 12, T + 8 + k * 18];
    if (s.mark) marker(g, s.mark, lx + 5, ly - 4, 3.5);
    else g.fillRect(lx, ly - 5, 10, 3);
    g.fillStyle = fg;
    g.fillText(s.label, lx + 14, ly);
    g.globalAlpha = 1;
  });
  c.dataset.bands = String(bands);
  c.dataset.legend = series.map((s) => s.label).join('|');
  c.dataset.hlines = hlines.map((hl) => `${hl.label}:${hl.y}`).join('|');
}

/** Before a figure has data: its frame at its final size, saying what will appear there. */
function placeholder(c, text, width, height) {
  const g = size(c, width, height);
  const th = readTheme(c);
  g.strokeStyle = th.line;
  g.setLineDash([4, 4]);
  g.strokeRect(0.5, 0.5, width - 1, height - 1);
  g.setLineDash([]);
  g.fillStyle = th.muted;
  g.font = '13px system-ui, sans-serif';
  g.textAlign = 'center';
  g.textBaseline = 'middle';
  g.fillText(text, width / 2, height / 2, width - 20);
}

/** A heatmap of rows x cols values in the theme's palettes (signed: diverging around 0, else
 * sequential from 0), with round ticks, a colour bar and optional marker lines at `marks`. */
function drawHeat(
  c,
  values,
  rows,
  cols,
  { width = 260, signed = true, rowLabel, colLabel, marks = [], barLabel = '' },
) {
  const cell = Math.max(1, Math.min(8, Math.floor(Math.min(width / cols, 360 / rows))));
  const L = 34,
    B = 32,
    BAR = 56;
  const g = size(c, cols * cell + L + BAR, rows * cell + B);
  const th = readTheme(c);
  let m = 0;
  for (let i = 0; i < rows * cols; i++) m = Math.max(m, Math.abs(values[i]));
  m = m || 1;
  const table = lut(signed ? 'bo' : 'viridis', th);
  const img = g.createImageData(cols, rows);
  const px = new Uint32Array(img.data.buffer);
  // attention weights: a square root shows the small ones
  const idx = (v) =>
    Math.max(0, Math.min(255, Math.round(signed ? ((v / m + 1) / 2) * 255 : Math.sqrt(Math.max(0, v / m)) * 255)));
  for (let i = 0; i < rows * cols; i++) px[i] = table[idx(values[i])];
  const tmp = document.createElement('canvas');
  tmp.width = cols;
  tmp.height = rows;
  tmp.getContext('2d').putImageData(img, 0, 0);
  g.imageSmoothingEnabled = false;
  g.drawImage(tmp, L, 0, cols * cell, rows * cell);
  heatAxes(g, c, th, { L, cell, rows, cols, marks, rowLabel, colLabel });
  heatBar(g, c, th, {
    x: L + cols * cell + 10,
    height: Math.min(rows * cell, 160),
    rows,
    cell,
    m,
    signed,
    table,
    idx,
    barLabel,
  });
}

/** drawHeat's marker lines, ticks and axis names. */
function heatAxes(g, c, th, { L, cell, rows, cols, marks, rowLabel, colLabel }) {
  g.strokeStyle = th.ink;
  g.setLineDash([3, 2]);
  for (const k of marks) {
    g.beginPath();
    if (k < cols) {
      g.moveTo(L + k * cell, 0);
      g.lineTo(L + k * cell, rows * cell);
    }
    if (k < rows) {
      g.moveTo(L, k * cell);
      g.lineTo(L + cols * cell, k * cell);
    }
    g.stroke();
  }
  g.setLineDash([]);
  g.fillStyle = th.ink;
  g.font = '11px system-ui, sans-serif';
  const ticks = (n) => niceTicks(0, n - 1, 4).filter((t) => Number.isInteger(t) && t < n);
  g.textAlign = 'right';
  for (const r of ticks(rows)) g.fillText(String(r), L - 3, r * cell + cell / 2 + 4);
  g.textAlign = 'center';
  for (const q of ticks(cols)) g.fillText(String(q), L + q * cell + cell / 2, rows * cell + 11);
  c.dataset.xticks = ticks(cols).join('|');
  c.dataset.yticks = ticks(rows).join('|');
  c.dataset.xname = colLabel;
  c.dataset.yname = rowLabel;
  g.fillText(colLabel, L + (cols * cell) / 2, rows * cell + 25);
  g.save();
  g.translate(10, (rows * cell) / 2);
  g.rotate(-Math.PI / 2);
  g.fillText(rowLabel, 0, 0);
  g.restore();
}

/** drawHeat's colour bar, from −m (or 0) to m, with its label. */
function heatBar(g, c, th, { x: bx, height: bh, rows, cell, m, signed, table, idx, barLabel }) {
  for (let y = 0; y < bh; y++) {
    const t = 1 - y / (bh - 1);
    const v = signed ? (2 * t - 1) * m : t * t * m;
    const packed = table[idx(v)];
    g.fillStyle = `rgb(${packed & 255},${(packed >> 8) & 255},${(packed >> 16) & 255})`;
    g.fillRect(bx, y, 10, 1);
  }
  g.fillStyle = th.ink;
  g.textAlign = 'left';
  const fmt = (v) => (Math.abs(v) >= 10 ? v.toFixed(0) : Math.abs(v) >= 1 ? v.toFixed(1) : v.toFixed(2));
  g.fillText(fmt(m), bx + 13, 9);
  g.fillText(signed ? fmt(-m) : '0', bx + 13, bh);
  if (barLabel) g.fillText(barLabel, bx, Math.min(rows * cell + 25, bh + 14));
  c.dataset.colorbar = `${signed ? -m : 0}|${m}`;
}

/** Cosine similarity [rows][rows] of a table's rows. */
function similarity(table, rows, cols) {
  const out = new Float32Array(rows * rows);
  const norm = Array.from({ length: rows }, (_, i) => Math.hypot(...table.subarray(i * cols, (i + 1) * cols)) || 1);
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < rows; j++) {
      let s = 0;
      for (let c = 0; c < cols; c++) s += table[i * cols + c] * table[j * cols + c];
      out[i * rows + j] = s / (norm[i] * norm[j]);
    }
  }
  return out;
}

const pct = (v) => (v === null || v === undefined ? '–' : v.toFixed(2));
const spread = (s) => (!s ? '–' : s.max > s.min ? `${pct(s.median)} (${pct(s.min)}–${pct(s.max)})` : pct(s.median));

/** The debrief: what the measured numbers say, task by task, against the papers. */
export function debrief(task, sums, labels) {
  const name = (m) => labels[m] ?? m;
  const list = (ms) => (ms.length ? ms.map(name).join(', ') : 'none');
  const ms = Object.keys(sums);
  if (!ms.length) return '';
  const chance = chanceOf(task);
  const learned = ms.filter((m) => sums[m].learned);
  const failed = ms.filter((m) => !sums[m].learned);
  const at8 = (m) => sums[m].beyond[3]?.median;
  const held = learned.filter((m) => at8(m) !== undefined && at8(m) >= 0.9 * sums[m].train.median);
  const fell = learned.filter((m) => at8(m) !== undefined && !held.includes(m));
  const seeds = sums[ms[0]].seeds.length;
  const parts = [];
  const oracle = sums[ms[0]].oracle;
  const bar =
    oracle < 0.999 ? `${pct(LEARNED_SHARE * oracle)} (0.9 of the best possible, ${pct(oracle)})` : pct(LEARNED_SHARE);
  parts.push(
    `On “${taskOf(task)[1]}” (${seeds} seed${seeds > 1 ? 's' : ''} per method), ${learned.length ? `${list(learned)} learned the task at the training length` : 'no method learned the task at the training length'}${failed.length ? `; ${list(failed)} did not (accuracy there below ${bar}) and ${failed.length > 1 ? 'are' : 'is'} left out of the verdict` : ''}.`,
  );
  if (held.length)
    parts.push(
      `On the positions past the training length, ${held.map((m) => `${name(m)} kept ${pct(at8(m))} at 8×`).join(', ')}.`,
    );
  if (fell.length)
    parts.push(
      `${held.length ? '' : 'On the positions past the training length, '}${fell.map((m) => `${name(m)} fell to ${pct(at8(m))}`).join(', ')} at 8× (chance: ${pct(chance)}).`,
    );
  const agree = [],
    disagree = [];
  if (learned.includes('alibi'))
    (held.includes('alibi') ? agree : disagree).push('ALiBi holding past the training length (Press et al.)');
  if (learned.includes('sinusoidal'))
    (held.includes('sinusoidal') ? disagree : agree).push('sinusoidal failing past it (Press et al.)');
  if (learned.includes('rope') && learned.includes('t5') && at8('rope') !== undefined && at8('t5') !== undefined) {
    (at8('t5') >= at8('rope') ? agree : disagree).push('T5 ahead of rotary (Press et al.)');
  }
  if (learned.includes('none'))
    (held.includes('none') ? agree : disagree).push('NoPE generalising (Kazemnejad et al.)');
  if (agree.length) parts.push(`This agrees with the papers on ${agree.join(', ')}.`);
  if (disagree.length) parts.push(`It differs on ${disagree.join(', ')}.`);
  parts.push(
    'Why a tiny model may differ: 2 layers and a few hundred steps on one synthetic task, against models with 16+ layers trained on billions of tokens of text; a task decides which positional cue is needed (the previous token only, an exact offset, or order), and a method that does not need positions for the task can ignore them. The verdict depends on the task: compare the tasks before believing any single table.',
  );
  return parts.join(' ');
}

const MARKUP = `<h2>Extrapolation lab</h2>
  <p class="intro">A 2-layer transformer (width 32, 4 heads) trains here, once per method and seed, on sequences of ${TRAIN_LENGTH} tokens,
  then is tested on fresh sequences 2×, 4× and 8× longer. Right of the dashed line the plot counts only the positions the model never saw in training.
  What to notice: which curves stay up there, above chance, and whether that matches what the papers report.</p>
  <div class="lab-controls row">
    <label>task <select name="labtask">${LAB_TASKS.map(([v, l]) => `<option value="${esc(v)}">${esc(l)}</option>`).join('')}</select></label>
    <fieldset class="lab-methods"><legend>methods</legend>${LAB_METHODS.map(([v, l]) => `<label><input type="checkbox" value="${esc(v)}"> ${esc(l)}</label>`).join('')}</fieldset>
    <label>steps <input name="labsteps" type="number" min="10" max="2000" step="10"></label>
    <label>seed <input name="labseed" type="number" min="0" max="99999" step="1"></label>
    <label><input name="labseeds" type="checkbox"> 3 seeds</label>
    <button type="button" class="lab-train">Train</button>
    <progress class="lab-progress" max="1" value="0"></progress> <span class="lab-status" aria-live="polite"></span>
  </div>
  <div class="lab-notes"></div>
  <div class="lab-figs"></div>
  <p class="lab-debrief" data-after-predict></p>
  <div class="lab-tablewrap"><table class="lab-table numbers"><caption>Measured here beside what the papers report. 1×: accuracy at the training length; 2×–8×: accuracy on the positions past it only (median over seeds, min–max in brackets)</caption>
  <thead><tr><th>method</th><th>1× (${TRAIN_LENGTH})</th>${MULTIPLES.slice(1)
    .map((m) => `<th>${m}× (${m * TRAIN_LENGTH})</th>`)
    .join('')}<th>what the papers report</th></tr></thead><tbody></tbody></table></div>`;

/**
 * The view's one state object: the shell's ctx, its section and figures, and what lives between
 * updates (the state shown, the runs per method, the run in progress and its worker).
 */
function createLab(host, ctx) {
  const section = document.createElement('section');
  section.className = 'view lab';
  section.dataset.status = 'idle';
  section.innerHTML = MARKUP;
  host.append(section);
  const $ = (sel) => section.querySelector(sel);
  $('.lab-tablewrap').style.overflowX = 'auto';
  const figs = $('.lab-figs');
  const acc = canvasIn(figs, 'accuracy past the training length per method');
  const loss = canvasIn(figs, 'training loss per method');
  const att = canvasIn(figs, 'attention weights of a trained model on a long input');
  const table = canvasIn(figs, 'learned position table: cosine similarity of its rows');
  const attPick = document.createElement('select');
  attPick.setAttribute('aria-label', 'model whose attention is shown');
  att.fig.append(attPick);
  return {
    ctx,
    section,
    $,
    figs,
    acc,
    loss,
    att,
    table,
    attPick,
    st: null,
    results: {}, // method -> [run per seed]
    live: {}, // method -> [[step, loss]] of the run in progress
    worker: null,
    running: null,
    picked: false, // the reader chose whose attention to show
    tablePreview: null, // the learned table during training
    labels: Object.fromEntries(LAB_METHODS.map(([m, l]) => [m, l])),
  };
}

// The plots take the column's width (a phone's is under 320 px), up to 680; the guided path on a
// phone lays the plots out in the section itself (chrome.css), and a plot's figure then gives the width.
const plotWidth = (s) => Math.max(200, Math.min(680, s.figs.clientWidth || s.acc.fig.clientWidth || 680));

/** Every panel of the lab from the results so far (and the curves of the run in progress). */
function drawAll(s) {
  const { running, results, section } = s;
  const task = running?.task ?? s.st?.labtask ?? 'copy';
  // The captions follow the task whose curves are drawn (the one training, else the one chosen).
  s.loss.cap.textContent = lossCaption(task);
  const done = LAB_METHODS.filter(([m]) => results[m]?.length);
  const sums = Object.fromEntries(done.map(([m]) => [m, summarise(results[m])]));
  const series = drawAccuracy(s, task, done, sums);
  drawLoss(s);
  drawTable(s);
  fillResults(s, sums);
  s.$('.lab-debrief').textContent = running ? '' : debrief(task, sums, s.labels);
  drawAttention(s, task, done, sums);
  s.attPick.hidden = !done.length;
  section.dataset.curves = String(series.length);
  section.dataset.unlearned = done
    .filter(([m]) => !sums[m].learned)
    .map(([m]) => m)
    .join(',');
}

/** Accuracy against length, one line (median, min–max band over seeds) per method trained. */
function drawAccuracy(s, task, done, sums) {
  const { acc } = s;
  const xs = MULTIPLES.map((k) => k * TRAIN_LENGTH);
  const series = done.map(([m, l, color], k) => {
    const sum = sums[m];
    const stats = [sum.train, ...sum.beyond.slice(1)];
    return {
      label: sum.learned ? l : `${l} (did not learn)`,
      color,
      mark: MARK[m],
      faded: !sum.learned,
      dx: (k - (done.length - 1) / 2) * 3,
      x: xs,
      y: stats.map((v) => v?.median ?? null),
      lo: stats.map((v) => v?.min ?? null),
      hi: stats.map((v) => v?.max ?? null),
    };
  });
  const chance = chanceOf(task);
  if (series.length) {
    const hlines = [{ y: chance, label: `chance ${chance === 0.5 ? '0.5' : '1/16'}` }];
    const oracle = sums[done[0][0]].oracle;
    if (oracle < 0.999) hlines.push({ y: oracle, label: `best possible ${oracle.toFixed(2)}` });
    drawLines(acc.c, series, {
      xLabel: 'sequence length (log scale)',
      yLabel: 'accuracy',
      xLog: true,
      yMin: 0,
      yMax: 1,
      vline: TRAIN_LENGTH,
      vlabel: 'trained',
      hlines,
      width: plotWidth(s),
    });
  } else
    placeholder(
      acc.c,
      `Press Train: each method's accuracy at ${xs.join(', ')} tokens appears here`,
      plotWidth(s),
      260,
    );
  const seeds = Math.max(1, ...done.map(([m]) => s.results[m].length));
  acc.cap.textContent = `Accuracy against length: at ${TRAIN_LENGTH}, over the training length; right of the dashed line, over the positions past it only${seeds > 1 ? ` (line: median of ${seeds} seeds, band: min–max)` : ''}. Dashed and faded: did not learn the task.`;
  return series;
}

/** The loss of each model, step by step. */
function drawLoss(s) {
  const { live, loss } = s;
  const ls = LAB_METHODS.filter(([m]) => live[m]?.length).map(([m, l, color]) => ({
    label: l,
    color,
    x: live[m].map((p) => p[0]),
    y: live[m].map((p) => p[1]),
  }));
  if (ls.length) drawLines(loss.c, ls, { xLabel: 'step', yLabel: 'loss', yMin: 0, width: plotWidth(s) });
  else placeholder(loss.c, 'Press Train: the loss of each model, step by step', plotWidth(s), 240);
}

/** The learned table (trained, or forming during training) as the similarity of its rows. */
function drawTable(s) {
  const { table } = s;
  const learnedRun = s.results.learned?.[0];
  const tab = learnedRun?.table ?? s.tablePreview;
  if (tab) {
    const dim = tab.length / TRAIN_LENGTH;
    drawHeat(table.c, similarity(tab, TRAIN_LENGTH, dim), TRAIN_LENGTH, TRAIN_LENGTH, {
      width: Math.min(260, plotWidth(s) - 100),
      rowLabel: 'position',
      colLabel: 'position',
      barLabel: 'cosine',
    });
    table.cap.textContent = learnedRun
      ? `The trained learned table, as the cosine similarity of its ${TRAIN_LENGTH} rows (orange: alike, blue: opposite). Each row is most like itself; how far the likeness spreads to its neighbours shows which positions the model treats as near. There is no row ${TRAIN_LENGTH}: nothing to say about longer inputs.`
      : 'The learned table forming (cosine similarity of its rows), during training';
  } else {
    placeholder(
      table.c,
      'Train "Learned": the similarity of its table rows appears here',
      Math.min(300, plotWidth(s)),
      160,
    );
    table.cap.textContent = 'Learned position table (similarity of its rows)';
  }
}

/** The results table: each method's accuracy at each length and the papers behind it. */
function fillResults(s, sums) {
  const tb = s.section.querySelector('tbody');
  tb.replaceChildren(
    ...LAB_METHODS.map(([m, l]) => {
      const tr = document.createElement('tr');
      const sum = sums[m];
      const [text, refs] = PAPERS[m];
      const cites = refs.map(([t, u]) => `<a href="${esc(u)}" target="_blank" rel="noopener">${esc(t)}</a>`).join(', ');
      // an unlearned run's 1x to three places, so 0.8995 does not read as the 0.90 that would pass
      const cells = !sum
        ? ['', '', '', '']
        : [
            sum.learned ? spread(sum.train) : sum.train.median.toFixed(3),
            ...sum.beyond
              .slice(1)
              .map((b, i) => (sum.lengths[i + 1] > TRAIN_LENGTH && m === 'learned' ? 'not defined' : spread(b))),
          ];
      tr.innerHTML = `<th>${esc(l)}${sum && !sum.learned ? ' <span class="lab-unlearned">did not learn this task</span>' : ''}</th>${cells.map((c) => `<td>${esc(c)}</td>`).join('')}<td class="lab-paper" data-after-predict>${esc(text)}${cites ? ` (${cites})` : ''}</td>`;
      if (sum && !sum.learned) tr.dataset.unlearned = '1';
      // prose in a table of numbers: left-aligned, wide enough to read (the table scrolls on a phone)
      Object.assign(tr.lastElementChild.style, { textAlign: 'left', minWidth: '18em' });
      return tr;
    }),
  );
}

/** Where a trained model looks: the attention of the method picked (kept if the reader chose). */
function drawAttention(s, task, done, sums) {
  const { attPick, att } = s;
  const opts = done.map(([m, l]) => `<option value="${esc(m)}">${esc(l)}</option>`).join('');
  if (attPick.innerHTML !== opts) {
    const keep = attPick.value;
    attPick.innerHTML = opts;
    // the reader's pick stays; otherwise RoPE when it learned (its diagonal breaks up past the
    // training length), else another method that learned
    const has = (m) => done.some(([v]) => v === m);
    const good = (m) => has(m) && sums[m].learned;
    attPick.value =
      s.picked && has(keep) ? keep : (['rope', 't5', 'alibi', 'sinusoidal', 'none'].find(good) ?? done[0]?.[0] ?? '');
  }
  const a = s.results[attPick.value]?.[0]?.attention;
  if (a) {
    drawHeat(att.c, a.weights.subarray(0, a.length * a.length), a.length, a.length, {
      signed: false,
      width: Math.min(360, plotWidth(s) - 100),
      rowLabel: 'query position',
      colLabel: 'key position',
      marks: a.length > TRAIN_LENGTH ? [TRAIN_LENGTH] : [],
      barLabel: 'weight',
    });
    att.cap.textContent =
      a.length > TRAIN_LENGTH
        ? `Attention of the trained ${s.labels[attPick.value]} model (last layer, head 1) on ${a.length} tokens. Dashed: the training length. ${attentionExpectation(task)}`
        : `Attention of the trained ${s.labels[attPick.value]} model (last layer, head 1) on ${a.length} tokens (a learned table has no longer input)`;
  } else {
    placeholder(att.c, 'After training: where a model looks', Math.min(300, plotWidth(s)), 160);
    att.cap.textContent = 'Attention of a trained model on a 4× input';
  }
}

function note(s, text) {
  const p = document.createElement('p');
  p.className = 'error';
  p.textContent = text;
  s.$('.lab-notes').append(p);
}

/** One model in the worker: its progress drawn as it comes, its result or its failure. A worker
 * that fails before its first step could not load its script or its core (a bundler that left its
 * file or chunks out, as esbuild and Rollup do with posenc-view's): it is dropped, and this and
 * every later model train here. */
function trainInWorker(s, method, opts, msg, onProgress) {
  return new Promise((resolve, reject) => {
    s.running.reject = reject;
    let started = false;
    const unusable = () => {
      s.worker?.terminate();
      s.worker = null;
      runOne(s, method, opts).then(resolve, reject);
    };
    s.worker.onmessage = ({ data }) => {
      if (data.id !== msg.id) return;
      if (data.type === 'progress') {
        started = true;
        onProgress(data);
      } else if (data.type === 'done') resolve(data);
      else if (!started) unusable();
      else reject(new Error(data.message));
    };
    s.worker.onerror = (e) => (started ? reject(new Error(e.message || 'the training worker failed')) : unusable());
    s.worker.postMessage(msg);
  });
}

function runOne(s, method, opts) {
  const { $, live, ctx } = s;
  const msg = { id: `${method}:${opts.seed}`, opts: { ...opts, method } };
  const onProgress = (p) => {
    live[method] = (live[method] ?? []).concat([[p.step, p.loss]]);
    $('.lab-progress').value = (s.running.index + p.step / p.steps) / s.running.total;
    $('.lab-status').textContent =
      `${s.labels[method]}, seed ${opts.seed}: step ${p.step} / ${p.steps}, loss ${p.loss.toFixed(3)}`;
    if (p.table) s.tablePreview = p.table;
    drawAll(s);
  };
  if (!s.worker) {
    // no worker (single-file build, file://): train here, blocking the page while it runs
    return use(ctx.pe, 'train')
      .then((pe) => pe.loadLab())
      .then((pe) => runLab(pe, msg, onProgress));
  }
  return trainInWorker(s, method, opts, msg, onProgress);
}

/** Stop: training is one synchronous call in the worker, so the worker goes. */
function stopTraining(s) {
  s.worker?.terminate();
  s.worker = null;
  s.running.stopped = true;
  s.running.reject?.(new Error('stopped'));
}

/** A fresh start: the worker (where the page can have one), no results, no curves. */
function beginTraining(s, methods, seeds) {
  const { st } = s;
  if (typeof Worker !== 'undefined' && /^https?:$/.test(location.protocol)) {
    try {
      s.worker = new Worker(new URL('../lab.worker.js', import.meta.url), { type: 'module' });
    } catch {
      s.worker = null;
    }
  }
  for (const k of Object.keys(s.results)) delete s.results[k];
  for (const k of Object.keys(s.live)) delete s.live[k];
  s.tablePreview = null;
  s.running = { methods, index: 0, total: methods.length * seeds.length, stopped: false, task: st.labtask };
  s.section.dataset.status = 'training';
  s.$('.lab-train').textContent = 'Stop';
}

/** After the last model (or a Stop): the worker goes, and the status says what was done. */
function endTraining(s, methods, seeds) {
  const { $ } = s;
  s.worker?.terminate();
  s.worker = null;
  const stopped = s.running.stopped;
  s.running = null;
  $('.lab-train').textContent = 'Train';
  $('.lab-progress').value = stopped ? 0 : 1;
  const n = methods.length * seeds.length;
  $('.lab-status').textContent = stopped
    ? 'stopped'
    : `done: ${n} model${n > 1 ? 's' : ''}, seed${seeds.length > 1 ? `s ${seeds[0]}–${seeds[seeds.length - 1]}` : ` ${seeds[0]}`}`;
  s.section.dataset.status = stopped ? 'stopped' : 'done';
  drawAll(s);
}

async function train(s) {
  if (s.running) return stopTraining(s);
  const { st, results, live } = s;
  s.$('.lab-notes').replaceChildren();
  const methods = st.labmethods.split(',').filter((m) => LAB_METHODS.some(([v]) => v === m));
  if (!methods.length) return note(s, 'Pick at least one method.');
  const seeds = Array.from({ length: st.labseeds }, (_, i) => st.labseed + i);
  beginTraining(s, methods, seeds);
  try {
    for (const m of methods) {
      for (const seed of seeds) {
        if (s.running.stopped) break;
        live[m] = [];
        const r = await runOne(s, m, { task: st.labtask, steps: st.labsteps, seed });
        (results[m] ??= []).push(r);
        s.running.index++;
        drawAll(s);
      }
    }
  } catch (e) {
    if (!s.running.stopped) note(s, e.message);
  }
  endTraining(s, methods, seeds);
}

/** Train/Stop, the attention pick and the lab's own controls (task, methods, steps, seeds). */
function wireControls(s) {
  const { $, ctx, section, attPick } = s;
  $('.lab-train').addEventListener('click', () => train(s));
  attPick.addEventListener('change', () => {
    s.picked = true;
    drawAll(s);
  });
  section.querySelector('.lab-controls').addEventListener('change', (e) => {
    const el = e.target;
    // a task brings the steps its models need to learn it (families/train/lab.md)
    if (el.name === 'labtask') ctx.setState({ labtask: el.value, labsteps: taskOf(el.value)[3] });
    else if (el.name === 'labseeds') ctx.setState({ labseeds: el.checked ? 3 : 1 });
    else if (el.name === 'labsteps' || el.name === 'labseed') {
      const v = Math.round(Number(el.value));
      if (Number.isFinite(v)) ctx.setState({ [el.name]: v });
    } else if (el.type === 'checkbox') {
      const on = [...section.querySelectorAll('.lab-methods input:checked')].map((i) => i.value);
      ctx.setState({ labmethods: on.join(',') });
    }
  });
}

function update(s, state) {
  const { $ } = s;
  s.st = state;
  const { st } = s;
  $('[name=labtask]').value = st.labtask;
  $('[name=labsteps]').value = String(st.labsteps);
  $('[name=labseed]').value = String(st.labseed);
  $('[name=labseeds]').checked = st.labseeds > 1;
  const on = new Set(st.labmethods.split(','));
  for (const i of s.section.querySelectorAll('.lab-methods input')) i.checked = on.has(i.value);
  drawAll(s);
}

/** Every run's accuracies, and each method's training loss (its first seed). */
function exportData(s) {
  const { results } = s;
  const done = LAB_METHODS.filter(([m]) => results[m]?.length);
  return {
    kind: 'group',
    parts: [
      ...done.flatMap(([m]) =>
        results[m].map((r) => ({
          kind: 'series',
          name: `${m}, seed ${r.seed} (task ${s.st?.labtask})`,
          xLabel: 'length',
          series: [
            { label: 'accuracy (all positions)', x: r.evaluation.lengths, y: r.evaluation.accuracy },
            { label: 'accuracy past the training length', x: r.evaluation.lengths, y: r.evaluation.beyond },
          ],
        })),
      ),
      {
        kind: 'series',
        name: 'training loss (first seed)',
        xLabel: 'step',
        series: done.map(([m]) => ({
          label: m,
          x: Array.from(results[m][0].losses, (_, i) => i + 1),
          y: Array.from(results[m][0].losses),
        })),
      },
    ],
  };
}

function destroy(s) {
  s.worker?.terminate();
  s.worker = null;
  if (s.running) {
    s.running.stopped = true;
    s.running.reject?.(new Error('stopped'));
  }
}

export function setupLab(host, ctx) {
  const s = createLab(host, ctx);
  wireControls(s);
  return {
    update: (state) => update(s, state),
    exportData: () => exportData(s),
    canvas: () => s.acc.c,
    destroy: () => destroy(s),
  };
}
