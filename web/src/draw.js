// Drawing helpers shared by the views: a matrix panel (heatmap with legend, keyboard walk and
// readout) and a line plot. Nothing here knows about positional encodings.
import { LINE_COLOURS, gradientCss, lut } from './palette.js';

const fmt = (v) =>
  v === -Infinity ? '−∞ (masked)' : Number.isNaN(v) ? 'undefined' : Math.abs(v) >= 1e4 || (v !== 0 && Math.abs(v) < 1e-3) ? v.toExponential(3) : String(+v.toFixed(5));
export { fmt };

/**
 * A heatmap of a row-major matrix: one canvas pixel per cell (scaled by CSS), an ImageData that is
 * reused while the size stays the same, and a cursor that arrow keys walk with a live readout.
 */
export function createMatrixPanel(parent, { title = '', rowLabel = 'row', colLabel = 'col', small = false, square = false } = {}) {
  const fig = document.createElement('figure');
  fig.className = `panel${small ? ' small' : ''}${square ? ' square' : ''}`;
  fig.innerHTML = `<figcaption></figcaption>
    <div class="mat"><canvas tabindex="0" role="img"></canvas><div class="cursor" hidden></div><div class="marker" hidden></div></div>
    <div class="legend"><span class="lo"></span><span class="bar"></span><span class="hi"></span><span class="axes"></span></div>
    <p class="readout" aria-live="polite"></p>`;
  parent.append(fig);
  const caption = fig.querySelector('figcaption');
  const canvas = fig.querySelector('canvas');
  const cursorEl = fig.querySelector('.cursor');
  const markerEl = fig.querySelector('.marker');
  const readout = fig.querySelector('.readout');
  const ctx = canvas.getContext('2d');
  let img = null;
  let words = null;
  let last = null; // what was drawn: { values, rows, cols }
  let lastLegend = '';
  const cur = { r: 0, c: 0, shown: false };
  caption.textContent = title;
  canvas.setAttribute('aria-label', `${title}: heatmap, use arrow keys to read cells`);

  const panel = {
    fig,
    canvas,
    rowLabel,
    colLabel,
    /** (r, c, value) => readout text; views override it. */
    describe: (r, c, v) => `${panel.rowLabel} ${r}, ${panel.colLabel} ${c}: ${fmt(v)}`,
    setTitle(t) {
      caption.textContent = t;
      canvas.setAttribute('aria-label', `${t}: heatmap, use arrow keys to read cells`);
    },
    /** values: any array-like of rows*cols numbers; -Infinity and NaN are painted as masked. */
    draw(values, rows, cols, { lo, hi, palette = 'bo', maskFromRow = rows, marker, source } = {}) {
      if (canvas.width !== cols || canvas.height !== rows) {
        canvas.width = cols;
        canvas.height = rows;
      }
      // Keep one ImageData while the width holds and it is tall enough: a drag of the length
      // slider then allocates nothing per frame (putImageData below copies only `rows` rows).
      if (!img || img.width !== cols || img.height < rows) {
        img = ctx.createImageData(cols, rows);
        words = new Uint32Array(img.data.buffer);
      }
      const L = lut(palette);
      const mask = L[256];
      const s = hi > lo ? 255.999 / (hi - lo) : 0;
      const n = Math.min(values.length, rows * cols, maskFromRow * cols);
      (values instanceof Float32Array ? paintF32 : paintAny)(values, words, n, L, lo, s);
      words.fill(mask, n, rows * cols);
      ctx.putImageData(img, 0, 0, 0, 0, cols, rows);
      const legend = `${lo}|${hi}|${palette}|${panel.rowLabel}|${panel.colLabel}`;
      if (legend !== lastLegend) {
        lastLegend = legend;
        fig.querySelector('.lo').textContent = fmt(lo);
        fig.querySelector('.hi').textContent = Math.abs(hi - 2 * Math.PI) < 1e-9 ? '2π' : fmt(hi);
        fig.querySelector('.bar').style.background = gradientCss(palette);
        fig.querySelector('.axes').textContent = `rows: ${panel.rowLabel} ↓ · columns: ${panel.colLabel} →`;
      }
      last = { values, rows, cols, maskFromRow, source, lo, hi };
      if (marker !== undefined && marker < rows) {
        markerEl.hidden = false;
        markerEl.style.top = `${(marker / rows) * 100}%`;
      } else markerEl.hidden = true;
      cur.r = Math.min(cur.r, rows - 1);
      cur.c = Math.min(cur.c, cols - 1);
      if (cur.shown) show();
    },
    /** The drawn matrix; heap-backed values are re-read, since a heap view dies when memory grows. */
    data: () => last && { ...last, values: last.source && !last.source.freed ? last.source.array : last.values },
  };

  function value(r, c) {
    if (!last) return NaN;
    if (r >= last.maskFromRow) return NaN;
    return panel.data().values[r * last.cols + c] ?? NaN;
  }
  function show() {
    if (!last) return;
    cur.shown = true;
    cursorEl.hidden = false;
    Object.assign(cursorEl.style, {
      left: `${(cur.c / last.cols) * 100}%`,
      top: `${(cur.r / last.rows) * 100}%`,
      width: `max(3px, ${100 / last.cols}%)`,
      height: `max(3px, ${100 / last.rows}%)`,
    });
    readout.textContent = panel.describe(cur.r, cur.c, value(cur.r, cur.c));
  }
  canvas.addEventListener('keydown', (e) => {
    if (!last) return;
    const step = e.shiftKey ? 10 : 1;
    const moves = {
      ArrowUp: [-step, 0], ArrowDown: [step, 0], ArrowLeft: [0, -step], ArrowRight: [0, step],
      PageUp: [-Math.ceil(last.rows / 8), 0], PageDown: [Math.ceil(last.rows / 8), 0],
      Home: [0, -last.cols], End: [0, last.cols],
    };
    const m = moves[e.key];
    if (!m) return;
    e.preventDefault();
    cur.r = Math.max(0, Math.min(last.rows - 1, cur.r + m[0]));
    cur.c = Math.max(0, Math.min(last.cols - 1, cur.c + m[1]));
    show();
  });
  canvas.addEventListener('focus', show);
  canvas.addEventListener('pointermove', (e) => {
    if (!last) return;
    const b = canvas.getBoundingClientRect();
    cur.c = Math.max(0, Math.min(last.cols - 1, Math.floor(((e.clientX - b.left) / b.width) * last.cols)));
    cur.r = Math.max(0, Math.min(last.rows - 1, Math.floor(((e.clientY - b.top) / b.height) * last.rows)));
    show();
  });
  return panel;
}

// Value -> packed colour. Two identical bodies on purpose: each keeps monomorphic element access
// (Float32Array tables vs Int32Array bucket/index matrices), which keeps the hot loop ~3x faster.
function paintF32(values, words, n, L, lo, s) {
  const mask = L[256];
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (!(v > -Infinity)) {
      words[i] = mask;
      continue;
    }
    const k = (v - lo) * s;
    words[i] = L[k <= 0 ? 0 : k >= 255 ? 255 : k | 0];
  }
}
function paintAny(values, words, n, L, lo, s) {
  const mask = L[256];
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (!(v > -Infinity)) {
      words[i] = mask;
      continue;
    }
    const k = (v - lo) * s;
    words[i] = L[k <= 0 ? 0 : k >= 255 ? 255 : k | 0];
  }
}

/**
 * Line plot. series: [{ y, x?, label, colour?, dash? }]; x defaults to 0..n-1 (+ x0).
 * markers: [{ x, label }] vertical lines.
 */
export function createPlot(parent, { title = '', height = 220 } = {}) {
  const fig = document.createElement('figure');
  fig.className = 'panel plot';
  fig.innerHTML = `<figcaption></figcaption><canvas role="img"></canvas><p class="keys"></p>`;
  parent.append(fig);
  const canvas = fig.querySelector('canvas');
  fig.querySelector('figcaption').textContent = title;
  let last = null;
  const plot = {
    fig,
    canvas,
    setTitle: (t) => (fig.querySelector('figcaption').textContent = t),
    draw(series, { xLabel = '', yLabel = '', markers = [], yRange, x0 = 0, integerX = false } = {}) {
      last = { series, xLabel, yLabel, x0 };
      const dpr = Math.min(2, window.devicePixelRatio || 1);
      const W = Math.max(280, canvas.clientWidth || parent.clientWidth || 640);
      const H = height;
      canvas.width = Math.round(W * dpr);
      canvas.height = Math.round(H * dpr);
      canvas.style.height = `${H}px`;
      const g = canvas.getContext('2d');
      g.setTransform(dpr, 0, 0, dpr, 0, 0);
      g.fillStyle = '#fff';
      g.fillRect(0, 0, W, H);
      const pad = { l: 52, r: 12, t: 10, b: 34 };
      let xmin = Infinity, xmax = -Infinity, ymin = Infinity, ymax = -Infinity;
      for (const s of series) {
        const n = s.y.length;
        const xs = s.x ?? null;
        for (let i = 0; i < n; i++) {
          const x = xs ? xs[i] : x0 + i;
          const y = s.y[i];
          if (!Number.isFinite(y)) continue;
          if (x < xmin) xmin = x;
          if (x > xmax) xmax = x;
          if (y < ymin) ymin = y;
          if (y > ymax) ymax = y;
        }
      }
      if (yRange) [ymin, ymax] = yRange;
      if (!(xmax > xmin)) xmax = xmin + 1;
      if (!(ymax > ymin)) (ymax = ymin + 1), (ymin -= 1);
      const X = (x) => pad.l + ((x - xmin) / (xmax - xmin)) * (W - pad.l - pad.r);
      const Y = (y) => pad.t + (1 - (y - ymin) / (ymax - ymin)) * (H - pad.t - pad.b);
      g.strokeStyle = '#ddd';
      g.fillStyle = '#444';
      g.font = '11px system-ui, sans-serif';
      g.lineWidth = 1;
      for (const t of ticks(ymin, ymax, 5)) {
        g.beginPath(); g.moveTo(pad.l, Y(t)); g.lineTo(W - pad.r, Y(t)); g.stroke();
        g.textAlign = 'right'; g.fillText(fmt(t), pad.l - 4, Y(t) + 4);
      }
      for (const t of ticks(xmin, xmax, 8).filter((t) => !integerX || Number.isInteger(t))) {
        g.beginPath(); g.moveTo(X(t), pad.t); g.lineTo(X(t), H - pad.b); g.stroke();
        g.textAlign = 'center'; g.fillText(fmt(t), X(t), H - pad.b + 14);
      }
      g.textAlign = 'center';
      g.fillText(xLabel, (pad.l + W - pad.r) / 2, H - 4);
      g.save(); g.translate(12, (pad.t + H - pad.b) / 2); g.rotate(-Math.PI / 2); g.fillText(yLabel, 0, 0); g.restore();
      for (const m of markers) {
        g.strokeStyle = '#b00'; g.setLineDash([4, 3]);
        g.beginPath(); g.moveTo(X(m.x), pad.t); g.lineTo(X(m.x), H - pad.b); g.stroke();
        g.setLineDash([]); g.fillStyle = '#b00'; g.textAlign = 'left'; g.fillText(m.label ?? '', X(m.x) + 4, pad.t + 10);
      }
      series.forEach((s, k) => {
        g.strokeStyle = s.colour ?? LINE_COLOURS[k % LINE_COLOURS.length];
        g.lineWidth = 1.6;
        g.setLineDash(s.dash ? [5, 4] : []);
        g.beginPath();
        let pen = false;
        for (let i = 0; i < s.y.length; i++) {
          const y = s.y[i];
          if (!Number.isFinite(y)) { pen = false; continue; }
          const x = X(s.x ? s.x[i] : x0 + i);
          const yy = Y(Math.max(ymin, Math.min(ymax, y)));
          if (pen) g.lineTo(x, yy); else g.moveTo(x, yy);
          pen = true;
        }
        g.stroke();
        if (s.dots) {
          g.fillStyle = g.strokeStyle;
          for (let i = 0; i < s.y.length; i++) {
            if (!Number.isFinite(s.y[i])) continue;
            g.beginPath(); g.arc(X(s.x ? s.x[i] : x0 + i), Y(s.y[i]), 3, 0, 2 * Math.PI); g.fill();
          }
        }
      });
      g.setLineDash([]);
      // Swatch colours through CSSOM: a strict CSP (style-src 'self') blocks style="" in markup.
      fig.querySelector('.keys').replaceChildren(...series.map((s, k) => {
        const span = document.createElement('span');
        span.className = s.dash ? 'dash' : '';
        span.textContent = s.label ?? '';
        span.style.setProperty('--c', s.colour ?? LINE_COLOURS[k % LINE_COLOURS.length]);
        return span;
      }));
      canvas.setAttribute('aria-label', `${fig.querySelector('figcaption').textContent}: ${series.map((s) => s.label).join(', ')}`);
    },
    data: () => last,
  };
  return plot;
}

function ticks(a, b, n) {
  const span = b - a;
  const step0 = span / n;
  const mag = 10 ** Math.floor(Math.log10(step0));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= step0) ?? step0;
  const out = [];
  for (let t = Math.ceil(a / step) * step; t <= b + step * 1e-9; t += step) out.push(Math.abs(t) < step * 1e-9 ? 0 : t);
  return out;
}

/** A note in place of a view that needs an API this build does not have. */
export function unavailable(parent, what) {
  const p = document.createElement('p');
  p.className = 'unavailable';
  p.textContent = `${what}: not available in this build.`;
  parent.append(p);
  return p;
}

export const has = (pe, ...fns) => fns.every((f) => typeof pe[f] === 'function');
