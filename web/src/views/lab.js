// Extrapolation lab: train a tiny causal transformer once per positional method (in a worker),
// then plot accuracy against sequence length with the training length marked, beside the table
// every explainer repeats. Self-contained: its own controls, canvases and drawing.

import { LAB_METHODS as METHODS, LAB_TASKS } from '../state.js';
import { readTheme } from '../theme.js';

// [method, label, colour]: each method's curve colour is a theme key or an index into the theme's
// series colours, so the curves follow the theme.
const COLOUR = { none: 'muted', learned: 1, sinusoidal: 2, rope: 0, alibi: 3, t5: 4 };
const LAB_METHODS = METHODS.map(([v, l]) => [v, l, COLOUR[v]]);
const USUAL = { none: 'fails (no order)', learned: "can't (no rows)", sinusoidal: 'extrapolates', rope: 'good', alibi: 'excellent', t5: 'limited' };
const MULTIPLES = [1, 2, 4, 8];
const TRAIN_LENGTH = 32;

/** One lab run: train, evaluate at 1x-8x, attention of the last layer on a 4x input. Pure (no
 * DOM), so the worker and the main-thread fallback share it. */
export function runLab(pe, { opts }, onProgress) {
  const { model, losses } = pe.train({ ...opts, length: TRAIN_LENGTH }, (p) => {
    onProgress?.({ step: p.step, steps: p.steps, loss: p.loss, table: p.table });
  });
  const lengths = MULTIPLES.map((m) => m * TRAIN_LENGTH);
  const evaluation = pe.evaluate(model, { lengths, count: 32 });
  const attLength = model.method === 'learned' ? TRAIN_LENGTH : 4 * TRAIN_LENGTH;
  const attention = pe.attentionMap(model, { length: attLength, layer: model.layers - 1 });
  return { model, losses, evaluation, attention };
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

const css = (el, name) => readTheme(el)[name];

/** Lines with axes: series [{ label, color, x[], y[] (null = gap) }]; color is a theme key
 * ('muted') or an index into the theme's series colours, so the lines follow the theme. */
function drawLines(c, series, { xLabel, yLabel, xLog = false, yMin, yMax, vline, vlabel, width = 560, height = 240 }) {
  const g = size(c, width, height);
  const fg = css(c, 'ink'), grid = css(c, 'line');
  const L = 52, R = 110, T = 10, B = 38, w = width - L - R, h = height - T - B;
  const xs = series.flatMap((s) => s.x), ys = series.flatMap((s) => s.y.filter((v) => v !== null && Number.isFinite(v)));
  if (!xs.length) return;
  const fx = xLog ? Math.log2 : (v) => v;
  const x0 = fx(Math.min(...xs)), x1 = fx(Math.max(...xs)) || x0 + 1;
  const y0 = yMin ?? Math.min(...ys), y1 = yMax ?? Math.max(...ys);
  const px = (v) => L + ((fx(v) - x0) / (x1 - x0 || 1)) * w, py = (v) => T + h - ((v - y0) / (y1 - y0 || 1)) * h;
  g.font = '11px system-ui, sans-serif';
  g.strokeStyle = grid;
  g.fillStyle = fg;
  g.lineWidth = 1;
  for (let k = 0; k <= 4; k++) {
    const v = y0 + ((y1 - y0) * k) / 4;
    g.beginPath();
    g.moveTo(L, py(v));
    g.lineTo(L + w, py(v));
    g.stroke();
    g.textAlign = 'right';
    g.fillText(v.toFixed(y1 - y0 < 5 ? 2 : 0), L - 4, py(v) + 4);
  }
  const ticks = xLog ? [...new Set(xs)].sort((a, b) => a - b) : Array.from({ length: 5 }, (_, k) => Math.round(Math.min(...xs) + ((Math.max(...xs) - Math.min(...xs)) * k) / 4));
  g.textAlign = 'center';
  for (const t of ticks) g.fillText(String(t), px(t), T + h + 14);
  c.dataset.xticks = ticks.join('|');
  c.dataset.yticks = Array.from({ length: 5 }, (_, k) => y0 + ((y1 - y0) * k) / 4).join('|');
  c.dataset.xname = xLabel;
  c.dataset.yname = yLabel;
  g.fillText(xLabel, L + w / 2, height - 6);
  g.save();
  g.translate(12, T + h / 2);
  g.rotate(-Math.PI / 2);
  g.fillText(yLabel, 0, 0);
  g.restore();
  if (vline !== undefined) {
    g.strokeStyle = fg;
    g.setLineDash([4, 3]);
    g.beginPath();
    g.moveTo(px(vline), T);
    g.lineTo(px(vline), T + h);
    g.stroke();
    g.setLineDash([]);
    g.textAlign = 'left';
    g.fillText(vlabel, px(vline) + 4, T + 12);
  }
  series.forEach((s, k) => {
    g.strokeStyle = g.fillStyle = typeof s.color === 'number' ? readTheme(c).series[s.color] : css(c, s.color);
    g.lineWidth = 2;
    g.beginPath();
    let pen = false;
    s.x.forEach((x, i) => {
      const y = s.y[i];
      if (y === null || !Number.isFinite(y)) {
        pen = false;
        return;
      }
      if (pen) g.lineTo(px(x), py(y));
      else g.moveTo(px(x), py(y));
      pen = true;
    });
    g.stroke();
    if (s.dots) s.x.forEach((x, i) => s.y[i] !== null && g.fillRect(px(x) - 3, py(s.y[i]) - 3, 6, 6));
    g.textAlign = 'left';
    g.fillRect(L + w + 10, T + 8 + k * 16 - 5, 10, 3);
    g.fillText(s.label, L + w + 24, T + 8 + k * 16);
  });
}

/** Before a figure has data: its frame at its final size, saying what will appear there. */
function placeholder(c, text, width, height) {
  const g = size(c, width, height);
  g.strokeStyle = css(c, 'line');
  g.setLineDash([4, 4]);
  g.strokeRect(0.5, 0.5, width - 1, height - 1);
  g.setLineDash([]);
  g.fillStyle = css(c, 'muted');
  g.font = '13px system-ui, sans-serif';
  g.textAlign = 'center';
  g.textBaseline = 'middle';
  g.fillText(text, width / 2, height / 2, width - 20);
}

/** A heatmap of rows x cols values, diverging around 0 (or sequential from 0 with seq). */
function drawHeat(c, values, rows, cols, { width = 260, seq = false, rowLabel, colLabel }) {
  const cell = Math.max(1, Math.floor(Math.min(width / cols, 400 / rows)));
  const L = 34, B = 30;
  const g = size(c, cols * cell + L, rows * cell + B);
  let m = 0;
  for (let i = 0; i < rows * cols; i++) m = Math.max(m, Math.abs(values[i]));
  m = m || 1;
  const img = g.createImageData(cols, rows);
  for (let i = 0; i < rows * cols; i++) {
    const t = values[i] / m;
    let r, gg, b;
    if (seq) {
      const u = Math.sqrt(Math.max(0, t)); // attention weights: sqrt shows the small ones
      r = 255 - 220 * u;
      gg = 255 - 180 * u;
      b = 255 - 90 * u;
    } else if (t >= 0) {
      r = 255 - 30 * t; gg = 255 - 140 * t; b = 255 - 230 * t;
    } else {
      r = 255 + 220 * t; gg = 255 + 130 * t; b = 255 + 40 * t;
    }
    img.data.set([r, gg, b, 255], i * 4);
  }
  const tmp = document.createElement('canvas');
  tmp.width = cols;
  tmp.height = rows;
  tmp.getContext('2d').putImageData(img, 0, 0);
  g.imageSmoothingEnabled = false;
  g.drawImage(tmp, L, 0, cols * cell, rows * cell);
  g.fillStyle = css(c, 'ink');
  g.font = '11px system-ui, sans-serif';
  // ticks: first, middle and last index on each axis
  const tick = (n) => [...new Set([0, Math.floor((n - 1) / 2), n - 1])];
  g.textAlign = 'right';
  for (const r of tick(rows)) g.fillText(String(r), L - 3, r * cell + cell / 2 + 4);
  g.textAlign = 'center';
  for (const q of tick(cols)) g.fillText(String(q), L + q * cell + cell / 2, rows * cell + 11);
  c.dataset.xticks = tick(cols).join('|');
  c.dataset.yticks = tick(rows).join('|');
  c.dataset.xname = colLabel;
  c.dataset.yname = rowLabel;
  g.fillText(colLabel, L + (cols * cell) / 2, rows * cell + 24);
  g.save();
  g.translate(10, (rows * cell) / 2);
  g.rotate(-Math.PI / 2);
  g.fillText(rowLabel, 0, 0);
  g.restore();
}

export function setupLab(host, ctx) {
  const section = document.createElement('section');
  section.className = 'view lab';
  section.dataset.status = 'idle';
  section.innerHTML = `<h2>Extrapolation lab</h2>
  <p class="intro">A 2-layer transformer (width 32, 2 heads) trains here, once per method, on sequences of ${TRAIN_LENGTH} tokens,
  then is tested on fresh sequences 2×, 4× and 8× longer. What to notice: which curves stay up right of the dashed line,
  and whether that matches the table everyone repeats.</p>
  <div class="lab-controls row">
    <label>task <select name="labtask">${LAB_TASKS.map(([v, l]) => `<option value="${v}">${l}</option>`).join('')}</select></label>
    <fieldset class="lab-methods"><legend>methods</legend>${LAB_METHODS.map(([v, l]) => `<label><input type="checkbox" value="${v}"> ${l}</label>`).join('')}</fieldset>
    <label>steps <input name="labsteps" type="number" min="10" max="2000" step="10"></label>
    <label>seed <input name="labseed" type="number" min="0" max="99999" step="1"></label>
    <button type="button" class="lab-train">Train</button>
    <progress class="lab-progress" max="1" value="0"></progress> <span class="lab-status" aria-live="polite"></span>
  </div>
  <div class="lab-notes"></div>
  <div class="lab-figs"></div>
  <div class="lab-tablewrap"><table class="lab-table numbers"><caption>The usual table beside the measured one (accuracy at 1×, 2×, 4×, 8× the training length)</caption>
  <thead><tr><th>method</th><th>usually said</th>${MULTIPLES.map((m) => `<th>${m}× (${m * TRAIN_LENGTH})</th>`).join('')}</tr></thead><tbody></tbody></table></div>`;
  host.append(section);
  const $ = (s) => section.querySelector(s);
  const figs = $('.lab-figs');
  const acc = canvasIn(figs, 'accuracy against sequence length per method');
  const loss = canvasIn(figs, 'training loss per method');
  const table = canvasIn(figs, 'learned position table');
  const att = canvasIn(figs, 'attention weights of a trained model on a long input');
  acc.cap.textContent = 'Accuracy against length (dashed: the training length)';
  loss.cap.textContent = 'Training loss (cross-entropy; chance is ln 16 = 2.77)';
  table.cap.textContent = 'Learned position table [position × dim]: train "Learned" to watch it form';
  att.cap.textContent = 'Attention of the trained model (last layer, head 1) on a 4× input';
  const attPick = document.createElement('select');
  attPick.setAttribute('aria-label', 'model whose attention is shown');
  att.fig.append(attPick);

  let st = null;
  const results = {}; // method -> { losses, evaluation, attention }
  const live = {}; // method -> losses so far
  let worker = null;
  let running = null;
  let picked = false; // the reader chose whose attention to show
  let tableDrawn = false; // the learned table has been drawn (it comes with the training progress)
  const lengthsText = MULTIPLES.map((m) => m * TRAIN_LENGTH).join(', ');

  // The plots take the column's width (a phone's is under 320 px), up to 640.
  const width = () => Math.max(200, Math.min(640, figs.clientWidth || 640));

  function drawAll() {
    const done = LAB_METHODS.filter(([m]) => results[m]);
    const series = done.map(([m, l, color]) => ({ label: l, color, dots: true, x: results[m].evaluation.lengths, y: results[m].evaluation.accuracy }));
    if (series.length) {
      drawLines(acc.c, series, { xLabel: 'sequence length (log scale)', yLabel: 'accuracy', xLog: true, yMin: 0, yMax: 1, vline: TRAIN_LENGTH, vlabel: 'trained', width: width() });
    } else placeholder(acc.c, `Press Train: each method's accuracy at ${lengthsText} tokens appears here`, width(), 240);
    const ls = LAB_METHODS.filter(([m]) => live[m]?.length).map(([m, l, color]) => ({ label: l, color, x: live[m].map((p) => p[0]), y: live[m].map((p) => p[1]) }));
    if (ls.length) drawLines(loss.c, ls, { xLabel: 'step', yLabel: 'loss', yMin: 0, width: width() });
    else placeholder(loss.c, 'Press Train: the loss of each model, step by step', width(), 240);
    if (!tableDrawn) placeholder(table.c, 'Train "Learned": its position table forms here', Math.min(260, width()), 140);
    const tb = section.querySelector('tbody');
    tb.replaceChildren(...LAB_METHODS.map(([m, l]) => {
      const tr = document.createElement('tr');
      const r = results[m]?.evaluation;
      tr.innerHTML = `<th>${l}</th><td>${USUAL[m]}</td>${MULTIPLES.map((_, i) => `<td>${!r ? '' : r.accuracy[i] === null ? 'not defined' : r.accuracy[i].toFixed(2)}</td>`).join('')}`;
      return tr;
    }));
    const opts = done.map(([m, l]) => `<option value="${m}">${l}</option>`).join('');
    if (attPick.innerHTML !== opts) {
      const keep = attPick.value;
      attPick.innerHTML = opts;
      // the reader's pick stays; otherwise the relative methods, whose patterns are the point
      const has = (m) => done.some(([v]) => v === m);
      attPick.value = picked && has(keep) ? keep : has('alibi') ? 'alibi' : has('rope') ? 'rope' : has(keep) ? keep : done[0]?.[0] ?? '';
    }
    const a = results[attPick.value]?.attention;
    if (a) {
      drawHeat(att.c, a.weights.subarray(0, a.length * a.length), a.length, a.length, { seq: true, width: 300, rowLabel: 'query', colLabel: 'key' });
      att.cap.textContent = `Attention of the trained ${attPick.value} model (last layer, head 1) on ${a.length} tokens`;
    } else placeholder(att.c, 'After training: where a model looks', Math.min(300, width()), 160);
    attPick.hidden = !done.length;
    section.dataset.curves = String(series.length);
  }

  function note(text) {
    const p = document.createElement('p');
    p.className = 'error';
    p.textContent = text;
    $('.lab-notes').append(p);
  }

  function runOne(method, opts) {
    const msg = { id: method, opts: { ...opts, method } };
    const onProgress = (p) => {
      live[method] = (live[method] ?? []).concat([[p.step, p.loss]]);
      $('.lab-progress').value = (running.index + p.step / p.steps) / running.methods.length;
      $('.lab-status').textContent = `${method}: step ${p.step} / ${p.steps}, loss ${p.loss.toFixed(3)}`;
      if (p.table) {
        drawHeat(table.c, p.table, TRAIN_LENGTH, p.table.length / TRAIN_LENGTH, { width: 260, rowLabel: 'position', colLabel: 'dim' });
        tableDrawn = true;
      }
      drawAll();
    };
    if (!worker) {
      // no worker (single-file build, file://): train here, blocking the page while it runs
      const pe = ctx.pe;
      return Promise.all([pe.use?.('train'), pe.loadLab()]).then(() => runLab(pe, msg, onProgress));
    }
    return new Promise((resolve, reject) => {
      running.reject = reject;
      worker.onmessage = ({ data }) => {
        if (data.id !== method) return;
        if (data.type === 'progress') onProgress(data);
        else if (data.type === 'done') resolve(data);
        else reject(new Error(data.message));
      };
      worker.onerror = (e) => reject(new Error(e.message || 'the training worker failed'));
      worker.postMessage(msg);
    });
  }

  async function train() {
    if (running) {
      // Stop: training is one synchronous call in the worker, so the worker goes
      worker?.terminate();
      worker = null;
      running.stopped = true;
      running.reject?.(new Error('stopped'));
      return;
    }
    $('.lab-notes').replaceChildren();
    const methods = st.labmethods.split(',').filter((m) => LAB_METHODS.some(([v]) => v === m));
    if (!methods.length) return note('Pick at least one method.');
    if (typeof Worker !== 'undefined' && /^https?:$/.test(location.protocol)) {
      try {
        worker = new Worker(new URL('../lab.worker.js', import.meta.url), { type: 'module' });
      } catch {
        worker = null;
      }
    }
    for (const k of Object.keys(results)) delete results[k];
    for (const k of Object.keys(live)) delete live[k];
    running = { methods, index: 0, stopped: false };
    section.dataset.status = 'training';
    $('.lab-train').textContent = 'Stop';
    const opts = { task: st.labtask, steps: st.labsteps, seed: st.labseed };
    try {
      for (const m of methods) {
        if (running.stopped) break;
        live[m] = [];
        results[m] = await runOne(m, opts);
        running.index++;
        drawAll();
      }
    } catch (e) {
      if (!running.stopped) note(e.message);
    }
    worker?.terminate();
    worker = null;
    const stopped = running.stopped;
    running = null;
    $('.lab-train').textContent = 'Train';
    $('.lab-progress').value = stopped ? 0 : 1;
    $('.lab-status').textContent = stopped ? 'stopped' : `done: ${methods.length} model${methods.length > 1 ? 's' : ''}, seed ${opts.seed}`;
    section.dataset.status = stopped ? 'stopped' : 'done';
    drawAll();
  }

  $('.lab-train').addEventListener('click', train);
  attPick.addEventListener('change', () => {
    picked = true;
    drawAll();
  });
  section.querySelector('.lab-controls').addEventListener('change', (e) => {
    const el = e.target;
    if (el.name === 'labtask') ctx.setState({ labtask: el.value });
    else if (el.name === 'labsteps' || el.name === 'labseed') {
      const v = Math.round(Number(el.value));
      if (Number.isFinite(v)) ctx.setState({ [el.name]: v });
    } else if (el.type === 'checkbox') {
      const on = [...section.querySelectorAll('.lab-methods input:checked')].map((i) => i.value);
      ctx.setState({ labmethods: on.join(',') });
    }
  });

  return {
    update(state) {
      st = state;
      $('[name=labtask]').value = st.labtask;
      $('[name=labsteps]').value = String(st.labsteps);
      $('[name=labseed]').value = String(st.labseed);
      const on = new Set(st.labmethods.split(','));
      for (const i of section.querySelectorAll('.lab-methods input')) i.checked = on.has(i.value);
      drawAll();
    },
    exportData() {
      const done = LAB_METHODS.filter(([m]) => results[m]);
      return {
        kind: 'group',
        parts: [
          { kind: 'series', name: `accuracy by length (task ${st?.labtask}, seed ${st?.labseed})`, xLabel: 'length',
            series: done.map(([m]) => ({ label: m, x: results[m].evaluation.lengths, y: results[m].evaluation.accuracy })) },
          { kind: 'series', name: 'training loss', xLabel: 'step',
            series: done.map(([m]) => ({ label: m, x: Array.from(results[m].losses, (_, i) => i + 1), y: Array.from(results[m].losses) })) },
        ],
      };
    },
    canvas: () => acc.c,
    destroy() {
      worker?.terminate();
      worker = null;
      if (running) {
        running.stopped = true;
        running.reject?.(new Error('stopped'));
      }
    },
  };
}
