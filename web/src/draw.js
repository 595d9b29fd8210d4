// Drawing helpers shared by the views: a matrix panel (heatmap with axes, ticks, colour bar,
// keyboard walk and readout) and a line plot (ticks, hover/keyboard readout). Nothing here knows
// about positional encodings; every colour comes from the theme (readTheme) or a data palette.
import { gradientStops, lut } from './palette.js';
import { readTheme, toRgb } from './theme.js';

const fmt = (v) =>
  v === -Infinity
    ? '−∞ (masked)'
    : Number.isNaN(v)
      ? 'undefined'
      : Math.abs(v) >= 1e4 || (v !== 0 && Math.abs(v) < 1e-3)
        ? v.toExponential(3)
        : String(+v.toFixed(5));

/** `s` cut to at most `max` px in g's font, with an ellipsis where it was cut (canvas text: a
 * reader's word never becomes markup). */
export function fitText(g, s, max) {
  const text = String(s);
  if (g.measureText(text).width <= max) return text;
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (g.measureText(`${text.slice(0, mid)}…`).width <= max) lo = mid;
    else hi = mid - 1;
  }
  return `${text.slice(0, lo)}…`;
}
export { fmt };
/** x with an explicit sign (− or +, one width in every font) and `digits` decimals: a column or a
 * line of such figures keeps its width whatever the numbers (and before the wasm, with the
 * stand-in's). */
export const signed = (x, digits) => `${x < 0 ? '−' : '+'}${Math.abs(x).toFixed(digits)}`;
/** Up to five distinct indices spread over 0..n-1, from fast to slow (the curves Waves and
 * Rotation draw: in a Rotation embed, Waves is not downloaded for it). */
export function spread(n) {
  return [...new Set([0, 1, Math.floor(n / 8), Math.floor(n / 4), n - 1].filter((i) => i >= 0 && i < n))];
}
/** Text for HTML or SVG markup (element content and quoted attributes). */
export const esc = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Shortest decimal that reads back as the same float32 (the exact value a reader can compare). */
export function f32(v) {
  if (!Number.isFinite(v)) return String(v);
  const x = Math.fround(v);
  for (let k = 1; k <= 9; k++) {
    const s = x.toPrecision(k);
    if (Math.fround(Number(s)) === x) return String(Number(s)).replace('-', '−');
  }
  return x.toPrecision(9);
}

const FONT = '11px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
const dprOf = () => Math.min(2, globalThis.devicePixelRatio || 1);

// Text set or drawn on a canvas in the document first brings the document's style up to date, and
// the views are size containers, so that is a layout: one per figure after any change to the page
// in the same frame. A canvas outside the document has no style to wait for, so figures measure
// their labels on one and are painted on one (their own, kept between paints), then copied whole
// onto the canvas on screen.
let measurer = null;
const measureContext = () => (measurer ??= document.createElement('canvas').getContext('2d'));
function paintDetached(owner, cv, dpr, paint) {
  owner.work ??= document.createElement('canvas');
  const { work } = owner;
  if (work.width !== cv.width || work.height !== cv.height) [work.width, work.height] = [cv.width, cv.height];
  const g = work.getContext('2d');
  g.setTransform(dpr, 0, 0, dpr, 0, 0);
  paint(g);
  const out = cv.getContext('2d');
  out.setTransform(1, 0, 0, 1, 0, 0);
  out.globalCompositeOperation = 'copy';
  out.drawImage(work, 0, 0);
  out.globalCompositeOperation = 'source-over';
}

// Widths of figure elements, read from layout once and then kept by a ResizeObserver: reading
// clientWidth while a view renders forces a layout after every DOM change, once per figure (the
// shuffle lab paints six). The observer runs after layout and before paint, so a figure whose box
// changed is repainted in the same frame.
const widths = new WeakMap();
const onResize = new WeakMap();
let observer = null;
export function widthOf(el, repaint) {
  if (widths.has(el)) return widths.get(el);
  const w = el.clientWidth;
  if (typeof ResizeObserver !== 'function' || !w) return w; // hidden: no cache, read again next time
  widths.set(el, w);
  if (repaint) onResize.set(el, repaint);
  observer ??= new ResizeObserver((entries) => {
    for (const e of entries) {
      const el = e.target;
      const now = el.clientWidth;
      if (!el.isConnected || !now) {
        // removed (a view switched away: its heap buffers may be freed) or hidden: forget it, and
        // read the width afresh when it is drawn again
        widths.delete(el);
        onResize.delete(el);
        observer.unobserve(el);
        continue;
      }
      if (now === widths.get(el)) continue;
      widths.set(el, now);
      try {
        onResize.get(el)?.();
      } catch {
        // a figure whose data is gone draws again on the next render
      }
    }
  });
  observer.observe(el);
  return w;
}

/** Data attributes of `el`, written only where they change (a write of the same value is still a
 * mutation that style invalidation looks at). */
function setData(el, data) {
  for (const [k, v] of Object.entries(data)) if (el.dataset[k] !== v) el.dataset[k] = v;
}

/** Nice tick values covering [a, b] with about n steps. */
export function ticks(a, b, n) {
  const span = b - a;
  if (!(span > 0)) return [a];
  const step0 = span / n;
  const mag = 10 ** Math.floor(Math.log10(step0));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= step0) ?? step0;
  const out = [];
  for (let t = Math.ceil(a / step - 1e-9) * step; t <= b + step * 1e-9; t += step)
    out.push(Math.abs(t) < step * 1e-9 ? 0 : +t.toPrecision(12));
  return out;
}
/** Integer ticks over 0..n-1 cells, never more than fits `px` pixels. */
function cellTicks(n, px) {
  const want = Math.max(2, Math.min(10, Math.floor(px / 48)));
  const t = ticks(0, n - 1, want).filter((x) => Number.isInteger(x) && x >= 0 && x < n);
  return t.length ? t : [0];
}

/** A matrix panel's figure in `parent`: caption, canvas with its cursor and highlight frames,
 * colour bar legend, readout. */
function matrixFigure(parent, small, square) {
  const fig = document.createElement('figure');
  fig.className = `panel${small ? ' small' : ''}${square ? ' square' : ''}`;
  fig.innerHTML = `<figcaption></figcaption>
    <div class="mat"><canvas tabindex="0" role="img"></canvas><div class="cursor" hidden></div><div class="hl" hidden></div></div>
    <div class="legend"><span class="lo"></span><span class="bar"></span><span class="hi"></span><span class="note"></span></div>
    <p class="readout" aria-live="polite"></p>`;
  parent.append(fig);
  return {
    fig,
    caption: fig.querySelector('figcaption'),
    mat: fig.querySelector('.mat'),
    canvas: fig.querySelector('canvas'),
    cursorEl: fig.querySelector('.cursor'),
    hlEl: fig.querySelector('.hl'),
    readout: fig.querySelector('.readout'),
  };
}

/**
 * A heatmap of a row-major matrix, drawn with its axes into one canvas: ticks and names on both
 * axes, the aspect ratio of the data (square matrices are square), and area-averaged
 * down-sampling whenever cells are smaller than a device pixel, so a large table never shows
 * false moiré. A cursor walks it with the arrow keys or follows the pointer, with a readout.
 */
export function createMatrixPanel(
  parent,
  { title = '', rowLabel = 'row', colLabel = 'col', small = false, square = false } = {},
) {
  // The panel's state in one object, which the functions below take: its elements, the drawn
  // matrix (`last`), its geometry, the cell image and the cursor.
  const p = {
    ...matrixFigure(parent, small, square),
    parent,
    small,
    square,
    cells: document.createElement('canvas'), // the cell image at its reduced size
    img: null,
    words: null,
    last: null, // what was drawn
    cellsOf: null, // what `cells` holds, when it was drawn from stable values
    geo: null, // { ml, mt, w, h, W, H }
    cur: { r: 0, c: 0, shown: false },
    panel: null,
  };
  p.caption.textContent = title;
  p.canvas.setAttribute('aria-label', `${title}: heatmap, use arrow keys to read cells`);
  p.panel = matrixApi(p, rowLabel, colLabel);
  wireMatrix(p);
  return p.panel;
}

/** The panel object the views hold: its labels and hooks, and what it does. */
function matrixApi(p, rowLabel, colLabel) {
  const panel = {
    fig: p.fig,
    canvas: p.canvas,
    rowLabel,
    colLabel,
    /** Axis names with units; default to the labels. */
    rowAxis: null,
    colAxis: null,
    /** Optional word labels for every row / column (the shuffle lab). */
    rowNames: null,
    colNames: null,
    /** (r, c, value) => readout text; views override it. */
    describe: (r, c, v) => `${panel.rowLabel} ${r}, ${panel.colLabel} ${c}: ${fmt(v)}`,
    /** Called with (r, c, value) whenever the cursor moves (formula panels, linked highlights). */
    onCursor: null,
    setTitle(t) {
      if (p.caption.textContent === t) return; // an unchanged text would still be laid out anew
      p.caption.textContent = t;
      p.canvas.setAttribute('aria-label', `${t}: heatmap, use arrow keys to read cells`);
    },
    /** Frame another cell (the same word pair in the other order, say); null hides it. */
    highlight(r, c) {
      if (r == null || !p.last || !p.geo) return void (p.hlEl.hidden = true);
      p.hlEl.hidden = false;
      p.hlEl.dataset.r = String(r);
      p.hlEl.dataset.c = String(c);
      placeAt(p, p.hlEl, r, c);
    },
    /**
     * values: any array-like of rows*cols numbers; -Infinity and NaN are painted as masked.
     * reduce(tw, th, kx, ky) may supply the down-sampled picture itself ({ values, weight?,
     * columns? }): a cyclic quantity must be averaged as unit vectors, not as numbers. With
     * `columns` (and weight), values and weight hold th rows of fewer entries and pixel column t
     * shows entry columns[t]. `stable`: the same values array always holds the same numbers.
     */
    draw(values, rows, cols, opts = {}) {
      const { lo, hi, palette = 'bo', maskFromRow = rows, marker, markerLabel, source } = opts;
      const { reduce, valueAt, note = '', stable = false } = opts;
      p.last = { values, rows, cols, maskFromRow, source, lo, hi, palette, marker, markerLabel };
      Object.assign(p.last, { reduce, valueAt, note, stable });
      paintMatrix(p);
      p.cur.r = Math.min(p.cur.r, rows - 1);
      p.cur.c = Math.min(p.cur.c, cols - 1);
      if (p.cur.shown) showCursor(p, false);
    },
    /** The drawn matrix; heap-backed values are re-read, since a heap view dies when memory grows. */
    data: () =>
      p.last && {
        ...p.last,
        values:
          p.last.source && !p.last.source.freed
            ? p.last.source.array
            : typeof p.last.values === 'function'
              ? p.last.values()
              : p.last.values,
      },
    /** The whole figure (title, axes, colour bar) at `scale` x the on-screen size. */
    figure: ({ scale = 2 } = {}) => matrixFigureExport(p, scale),
    cursor: () => ({ ...p.cur }),
    moveTo(r, c) {
      if (!p.last) return;
      p.cur.r = Math.max(0, Math.min(p.last.rows - 1, r));
      p.cur.c = Math.max(0, Math.min(p.last.cols - 1, c));
      showCursor(p);
    },
  };
  return panel;
}

function matrixFigureExport(p, scale) {
  const theme = readTheme(p.fig);
  const W = p.geo?.W ?? 600,
    H = p.geo?.H ?? 300;
  const top = 28,
    bottom = 40;
  const g = exportCanvas(W, H + top + bottom, { scale, theme, title: p.caption.textContent });
  g.save();
  g.translate(0, top);
  if (p.last) renderMatrix(p, g, theme, W, H, scale);
  g.restore();
  colourBar(p, g, theme, 6, H + top + 12, Math.min(260, W - 12));
  return g.canvas;
}

/** The arrow keys walk the cells; the pointer (a tap sends pointerdown but no pointermove: both
 * pick the cell under the finger) moves the cursor to its cell. */
function wireMatrix(p) {
  const { canvas, panel } = p;
  canvas.addEventListener('keydown', (e) => {
    if (!p.last) return;
    const step = e.shiftKey ? 10 : 1;
    const moves = {
      ArrowUp: [-step, 0],
      ArrowDown: [step, 0],
      ArrowLeft: [0, -step],
      ArrowRight: [0, step],
      PageUp: [-Math.ceil(p.last.rows / 8), 0],
      PageDown: [Math.ceil(p.last.rows / 8), 0],
      Home: [0, -p.last.cols],
      End: [0, p.last.cols],
    };
    const m = moves[e.key];
    if (!m) return;
    e.preventDefault();
    panel.moveTo(p.cur.r + m[0], p.cur.c + m[1]);
  });
  canvas.addEventListener('focus', () => showCursor(p));
  const point = (e) => {
    const { last, geo } = p;
    if (!last || !geo) return;
    const b = canvas.getBoundingClientRect();
    const x = e.clientX - b.left - geo.ml,
      y = e.clientY - b.top - geo.mt;
    if (x < 0 || y < 0 || x >= geo.w || y >= geo.h) return;
    panel.moveTo(Math.floor((y / geo.h) * last.rows), Math.floor((x / geo.w) * last.cols));
  };
  canvas.addEventListener('pointerdown', point);
  canvas.addEventListener('pointermove', point);
}

function layoutMatrix(p) {
  const W = Math.max(60, Math.round(widthOf(p.mat, () => p.last && paintMatrix(p)) || p.parent.clientWidth || 600));
  const { rows, cols } = p.last;
  const names = p.panel.rowNames;
  const g = measureContext();
  g.font = FONT;
  const labelW = names
    ? Math.min(120, Math.max(...names.map((s) => g.measureText(s).width)) + 10)
    : g.measureText(String(rows - 1)).width + 8;
  // The labels take at most a third of the width (longer words are ellipsized, fitText): a
  // sentence with one long word must not leave the cells no width at all.
  const ml = Math.min(Math.ceil(labelW + 20), Math.max(24, Math.floor(W / 3)));
  const mr = 8,
    mt = 6;
  const mb = p.panel.colNames ? 58 : 36;
  let w = Math.max(8, W - ml - mr);
  const maxH = p.small ? 260 : 520;
  const minH = p.small ? 90 : 160;
  let h;
  if (p.square || rows === cols) {
    h = Math.min(w, maxH);
    w = h;
  } else h = Math.round(Math.max(minH, Math.min(maxH, (w * rows) / cols)));
  p.geo = { ml, mt, w, h, W, H: mt + h + mb };
}

function renderMatrix(p, g, theme, W, H, dpr) {
  const { ml, mt, w, h } = p.geo;
  const { rows } = p.last;
  g.fillStyle = theme.paper;
  g.fillRect(0, 0, W, H);
  // Never scaled down here (boxAverage did that), so nearest-neighbour is exact and cheap.
  g.imageSmoothingEnabled = false;
  g.drawImage(p.cells, ml, mt, w, h);
  g.strokeStyle = theme.line;
  g.lineWidth = 1;
  g.strokeRect(ml - 0.5, mt - 0.5, w + 1, h + 1);
  renderMatrixAxes(p, g, theme);
  if (p.last.marker !== undefined && p.last.marker < rows) renderMarker(p, g, theme);
}

/** Tick marks and labels (row and column index, or word) at cell centres, and the axis names. */
function renderMatrixAxes(p, g, theme) {
  const { ml, mt, w, h } = p.geo;
  const { rows, cols } = p.last;
  g.font = FONT;
  g.fillStyle = theme.ink;
  g.strokeStyle = theme.muted;
  // y ticks (row index or word), at cell centres
  g.textAlign = 'right';
  g.textBaseline = 'middle';
  const rowT = p.panel.rowNames ? (h / rows >= 12 ? [...Array(rows).keys()] : cellTicks(rows, h)) : cellTicks(rows, h);
  const colT = p.panel.colNames ? [...Array(cols).keys()] : cellTicks(cols, w);
  // What the axes say, for readers of the DOM (tests, screen-reader summaries).
  setData(p.canvas, {
    yticks: rowT.map((r) => (p.panel.rowNames ? p.panel.rowNames[r] : String(r))).join('|'),
    xticks: colT.map((c) => (p.panel.colNames ? p.panel.colNames[c] : String(c))).join('|'),
    xname: p.panel.colAxis ?? p.panel.colLabel,
    yname: p.panel.rowAxis ?? p.panel.rowLabel,
  });
  for (const r of rowT) {
    const y = mt + ((r + 0.5) * h) / rows;
    g.beginPath();
    g.moveTo(ml - 4, y);
    g.lineTo(ml, y);
    g.stroke();
    g.fillText(p.panel.rowNames ? fitText(g, p.panel.rowNames[r], ml - 26) : String(r), ml - 6, y);
  }
  g.textBaseline = 'alphabetic';
  g.textAlign = 'center';
  for (const c of colT) {
    const x = ml + ((c + 0.5) * w) / cols;
    g.beginPath();
    g.moveTo(x, mt + h);
    g.lineTo(x, mt + h + 4);
    g.stroke();
    if (p.panel.colNames) {
      g.save();
      g.translate(x + 3, mt + h + 8);
      g.rotate(-Math.PI / 4);
      g.textAlign = 'right';
      g.fillText(fitText(g, p.panel.colNames[c], (p.geo.H - mt - h - 8) * Math.SQRT2), 0, 0);
      g.restore();
    } else g.fillText(String(c), x, mt + h + 15);
  }
  // axis names
  g.fillStyle = theme.muted;
  g.fillText(`${p.panel.colAxis ?? p.panel.colLabel} →`, ml + w / 2, mt + h + (p.panel.colNames ? 54 : 31));
  g.save();
  g.translate(10, mt + h / 2);
  g.rotate(-Math.PI / 2);
  g.fillText(`← ${p.panel.rowAxis ?? p.panel.rowLabel}`, 0, 0);
  g.restore();
}

/** The marker line across the rows (a training length, say), with its label on a paper backing. */
function renderMarker(p, g, theme) {
  const { ml, mt, w, h } = p.geo;
  const { rows } = p.last;
  const y = mt + (p.last.marker * h) / rows;
  g.strokeStyle = theme.bad;
  g.lineWidth = 2;
  g.setLineDash([5, 4]);
  g.beginPath();
  g.moveTo(ml, y);
  g.lineTo(ml + w, y);
  g.stroke();
  g.setLineDash([]);
  if (p.last.markerLabel) {
    g.font = `600 ${FONT}`;
    // below the line (over the rows the marker cuts off) when there is room, on a paper backing
    const ty = y + 16 < mt + h ? y + 15 : y - 5;
    const tw2 = g.measureText(p.last.markerLabel).width;
    g.fillStyle = theme.paper;
    g.globalAlpha = 0.85;
    g.fillRect(ml + w - tw2 - 8, ty - 11, tw2 + 6, 14);
    g.globalAlpha = 1;
    g.fillStyle = theme.bad;
    g.textAlign = 'right';
    g.fillText(p.last.markerLabel, ml + w - 4, ty);
  }
}

function colourBar(p, g, theme, x, y, w) {
  const stops = gradientStops(p.last?.palette ?? 'bo', theme);
  const grad = g.createLinearGradient(x + 40, 0, x + w - 40, 0);
  stops.forEach((s, i) => grad.addColorStop(i / (stops.length - 1), s));
  g.fillStyle = grad;
  g.fillRect(x + 40, y, w - 80, 10);
  g.fillStyle = theme.ink;
  g.font = FONT;
  g.textAlign = 'right';
  g.fillText(p.fig.querySelector('.lo').textContent, x + 36, y + 9);
  g.textAlign = 'left';
  g.fillText(p.fig.querySelector('.hi').textContent, x + w - 36, y + 9);
  g.fillStyle = theme.muted;
  g.fillText(p.fig.querySelector('.note').textContent, x + w + 10, y + 9);
}

function paintMatrix(p) {
  const theme = readTheme(p.fig);
  layoutMatrix(p);
  const { rows, cols } = p.last;
  const dpr = dprOf();
  const { tw, th } = paintCells(p, theme, dpr);
  const W = p.geo.W,
    H = p.geo.H;
  if (p.canvas.width !== Math.round(W * dpr) || p.canvas.height !== Math.round(H * dpr)) {
    p.canvas.width = Math.round(W * dpr);
    p.canvas.height = Math.round(H * dpr);
  }
  p.canvas.style.width = `${W}px`;
  p.canvas.style.height = `${H}px`;
  setData(p.canvas, {
    rows: String(rows),
    cols: String(cols),
    reduced: tw === cols && th === rows ? '' : `${tw}x${th}`,
  });
  paintDetached(p, p.canvas, dpr, (g) => renderMatrix(p, g, theme, W, H, dpr));
  paintLegend(p, theme);
}

/** The values as one pixel per cell into `cells` (the offscreen canvas renderMatrix() scales up):
 * whole cells per pixel box averaged when there are more cells than device pixels. Values the
 * caller marked `stable` (the same array always holds the same numbers) are not painted again
 * while nothing else that colours them changed. */
function paintCells(p, theme, dpr) {
  const { rows, cols, maskFromRow, lo, hi, palette, reduce } = p.last;
  // Whole cells per pixel box (an integer factor, so every box averages the same number of
  // cells and no beat pattern appears). What is left is a scale-up of at most 2, drawn crisp.
  // (geo.w, geo.h >= 8 by layoutMatrix(): a zero-sized ImageData throws)
  const kx = cols > p.geo.w * dpr ? Math.ceil(cols / (p.geo.w * dpr)) : 1;
  const ky = rows > p.geo.h * dpr ? Math.ceil(rows / (p.geo.h * dpr)) : 1;
  const tw = Math.ceil(cols / kx),
    th = Math.ceil(rows / ky);
  const painted = [p.last.values, rows, cols, maskFromRow, lo, hi, palette, theme.key, tw, th];
  if (p.last.stable && p.cellsOf?.every((x, i) => x === painted[i])) return { tw, th };
  p.cellsOf = p.last.stable ? painted : null;
  if (p.cells.width !== tw || p.cells.height !== th) {
    p.cells.width = tw;
    p.cells.height = th;
  }
  if (!p.img || p.img.width !== tw || p.img.height !== th) {
    p.img = new ImageData(tw, th);
    p.words = new Uint32Array(p.img.data.buffer);
  }
  const L = lut(palette, theme);
  const s = hi > lo ? 255.999 / (hi - lo) : 0;
  if (tw === cols && th === rows) {
    const values = typeof p.last.values === 'function' ? p.last.values() : p.last.values;
    const n = Math.min(values.length, rows * cols, maskFromRow * cols);
    (values instanceof Float32Array ? paintF32 : paintAny)(values, p.words, n, L, lo, s);
    p.words.fill(L[256], n, rows * cols);
  } else {
    const red = reduce
      ? reduce(tw, th, kx, ky)
      : boxAverage(
          typeof p.last.values === 'function' ? p.last.values() : p.last.values,
          rows,
          cols,
          tw,
          th,
          maskFromRow,
          kx,
          ky,
        );
    if (red.columns) paintColumns(red, p.words, tw, th, L, lo, s, toRgb(theme.mask));
    else if (red.weight) paintFaded(red.values, red.weight, 0, p.words, tw * th, L, lo, s, toRgb(theme.mask));
    else paintF32(red.values, p.words, tw * th, L, lo, s);
  }
  p.cells.getContext('2d').putImageData(p.img, 0, 0);
  return { tw, th };
}

/** The colour bar's ends, gradient and note, when they change. */
function paintLegend(p, theme) {
  const { lo, hi, palette } = p.last;
  const lab = `${lo}|${hi}|${palette}|${theme.key}|${p.last.note}`;
  if (lab !== p.fig.dataset.legend) {
    p.fig.dataset.legend = lab;
    p.fig.querySelector('.lo').textContent = fmt(lo);
    p.fig.querySelector('.hi').textContent = Math.abs(hi - 2 * Math.PI) < 1e-9 ? '2π' : fmt(hi);
    p.fig.querySelector('.bar').style.background =
      `linear-gradient(to right, ${gradientStops(palette, theme).join(', ')})`;
    p.fig.querySelector('.note').textContent = p.last.note ?? '';
  }
}

function placeAt(p, el, r, c) {
  const { ml, mt, w, h } = p.geo;
  const cw = w / p.last.cols,
    ch = h / p.last.rows;
  Object.assign(el.style, {
    left: `${ml + c * cw - (cw < 3 ? (3 - cw) / 2 : 0)}px`,
    top: `${mt + r * ch - (ch < 3 ? (3 - ch) / 2 : 0)}px`,
    width: `${Math.max(3, cw)}px`,
    height: `${Math.max(3, ch)}px`,
  });
}

function cellValue(p, r, c) {
  if (!p.last) return NaN;
  if (r >= p.last.maskFromRow) return NaN;
  if (p.last.valueAt) return p.last.valueAt(r, c);
  const vs = p.last.source && !p.last.source.freed ? p.last.source.array : p.last.values;
  if (typeof vs === 'function') return NaN;
  return vs[r * p.last.cols + c] ?? NaN;
}

function showCursor(p, notify = true) {
  if (!p.last || !p.geo) return;
  p.cur.shown = true;
  p.cursorEl.hidden = false;
  placeAt(p, p.cursorEl, p.cur.r, p.cur.c);
  const v = cellValue(p, p.cur.r, p.cur.c);
  p.readout.textContent = p.panel.describe(p.cur.r, p.cur.c, v);
  if (p.panel.onCursor) p.panel.onCursor(p.cur.r, p.cur.c, v, notify);
}

/** Mean over each of tw x th boxes (rows from maskFromRow on excluded). Rows are summed into one
 * accumulator row first (a tight, branch-free loop over the table), then each finished band of
 * rows is folded into the target columns: ~1 add per source cell. A box touching -Infinity (a
 * masked logit) stays masked. */
function boxAverage(values, rows, cols, tw, th, maskFromRow, kx, ky) {
  const out = new Float32Array(tw * th);
  const colMap = new Int32Array(cols);
  const colCnt = new Float32Array(tw);
  for (let c = 0; c < cols; c++) {
    colMap[c] = Math.floor(c / kx);
    colCnt[colMap[c]]++;
  }
  const acc = new Float64Array(cols);
  const R = Math.min(rows, maskFromRow);
  const filled = new Uint8Array(th);
  let band = 0,
    n = 0;
  const flush = () => {
    filled[band] = 1;
    const o = band * tw;
    for (let c = 0; c < cols; c++) out[o + colMap[c]] += acc[c];
    for (let t = 0; t < tw; t++) out[o + t] /= n * colCnt[t];
    acc.fill(0);
    n = 0;
  };
  for (let r = 0; r < R; r++) {
    const tr = Math.floor(r / ky);
    if (tr !== band && n) flush();
    band = tr;
    const base = r * cols;
    for (let c = 0; c < cols; c++) acc[c] += values[base + c];
    n++;
  }
  if (n) flush();
  for (let t = 0; t < th; t++) if (!filled[t]) out.fill(-Infinity, t * tw, (t + 1) * tw); // bands past the mask row
  for (let i = 0; i < out.length; i++) if (out[i] !== out[i]) out[i] = -Infinity; // -Inf + Inf mixes
  return { values: out };
}

/** paintF32 of values[off ..], then each pixel blended toward `rgb` by 1 - weight (weight in 0..1:
 * how coherent the averaged cells were), in one pass. */
function paintFaded(values, weight, off, words, n, L, lo, s, [mr, mg, mb]) {
  const mask = L[256];
  for (let i = 0; i < n; i++) {
    const v = values[off + i];
    let w;
    if (!(v > -Infinity)) w = mask;
    else {
      const k = (v - lo) * s;
      w = L[k <= 0 ? 0 : k >= 255 ? 255 : k | 0];
    }
    let a = weight[off + i];
    if (a < 0) a = 0;
    else if (a > 1) a = 1; // (a NaN weight stays NaN and leaves the colour, as Math.max/min did)
    if (a < 0.999) {
      const r = w & 255,
        g = (w >> 8) & 255,
        b = (w >> 16) & 255;
      // (x + 0.5) | 0 is Math.round(x) for these sums in [0, 255] (but for the one double just
      // below 0.5), at half the cost of the loop: this runs once per pixel of a RoPE heatmap.
      w =
        (255 << 24) |
        (((b * a + mb * (1 - a) + 0.5) | 0) << 16) |
        (((g * a + mg * (1 - a) + 0.5) | 0) << 8) |
        ((r * a + mr * (1 - a) + 0.5) | 0);
    }
    words[i] = w;
  }
}

/** A reduced picture given per entry of a narrower row (pixel column t shows entry columns[t]):
 * each entry is coloured once per band, then copied to its columns. */
let columnRow = new Uint32Array(0);
function paintColumns({ values, weight, columns }, words, tw, th, L, lo, s, rgb) {
  const width = values.length / th;
  if (columnRow.length < width) columnRow = new Uint32Array(width);
  const row = columnRow;
  for (let band = 0; band < th; band++) {
    paintFaded(values, weight, band * width, row, width, L, lo, s, rgb);
    const o = band * tw;
    for (let t = 0; t < tw; t++) words[o + t] = row[columns[t]];
  }
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

const colourOf = (s, k, theme) =>
  typeof s.colour === 'number'
    ? theme.series[s.colour % 8]
    : s.colour === 'bad'
      ? theme.bad
      : s.colour === 'muted'
        ? theme.muted
        : (s.colour ?? theme.series[k % 8]);

/**
 * Line plot. series: [{ y, x?, label, colour? (theme series index or CSS colour), dash?, dots? }];
 * x defaults to x0 + i * dx. markers: [{ x, label }] vertical lines. Hover or the arrow keys
 * move a readout along x with every series' value there.
 */
export function createPlot(parent, { title = '', height = 220 } = {}) {
  const fig = document.createElement('figure');
  fig.className = 'panel plot';
  fig.innerHTML = `<figcaption></figcaption><canvas role="img" tabindex="0"></canvas><p class="keys"></p><p class="note" hidden></p><p class="readout" aria-live="polite"></p>`;
  parent.append(fig);
  fig.querySelector('figcaption').textContent = title;
  // The plot's state in one object, which the functions below take.
  const p = {
    parent,
    height,
    fig,
    canvas: fig.querySelector('canvas'),
    readout: fig.querySelector('.readout'),
    noteEl: fig.querySelector('.note'),
    last: null, // what was drawn
    geo: null, // extents, scales and ticks (plotGeometry)
    hover: null, // x value under the cursor
    plot: null,
  };
  p.plot = plotApi(p);
  wirePlot(p);
  return p.plot;
}

/** The plot object the views hold. */
function plotApi(p) {
  const { fig } = p;
  return {
    fig,
    canvas: p.canvas,
    setTitle(t) {
      const cap = fig.querySelector('figcaption');
      if (cap.textContent !== t) cap.textContent = t; // an unchanged text would still be laid out anew
    },
    /** A sentence under the plot: what is folded into what is drawn (scale factors, cuts). */
    setNote(t) {
      p.noteEl.hidden = !t;
      p.noteEl.textContent = t ?? '';
    },
    draw(series, opts = {}) {
      p.last = { series, opts, xLabel: opts.xLabel ?? '', x0: opts.x0 ?? 0, dx: opts.dx ?? 1 };
      paintPlot(p, p.canvas, dprOf());
      if (p.hover !== null) showAt(p, p.hover);
    },
    data: () => p.last,
    figure: ({ scale = 2 } = {}) => plotFigureExport(p, scale),
    /** An SVG string of the same figure (series as polylines). */
    svg: () => plotSvg(p),
    /** Move the readout to x (a formula panel follows it). */
    readAt: (x, yAt = null) => showAt(p, x, yAt),
    /** Whether a cursor (pointer or keyboard) is on the plot: a formula panel follows it then. */
    hovered: () => p.hover !== null,
    /** [x, y] of the sample of series s nearest to x. */
    sampleAt: (s, x) => sampleAt(p, s, x),
  };
}

function plotFigureExport(p, scale) {
  const { fig, last } = p;
  const theme = readTheme(fig);
  const W = p.geo?.W ?? 600,
    H = p.height;
  const top = 26,
    keyH = 18 * Math.ceil((last?.series.length ?? 0) / 3) + 8;
  const g = exportCanvas(W, H + top + keyH, { scale, theme, title: fig.querySelector('figcaption').textContent });
  g.save();
  g.translate(0, top);
  if (last) paintPlotInto(p, g, theme, W, H);
  g.restore();
  g.font = FONT;
  (last?.series ?? []).forEach((s, k) => {
    const x = 10 + (k % 3) * (W / 3),
      y = H + top + 14 + 18 * Math.floor(k / 3);
    g.strokeStyle = colourOf(s, k, theme);
    g.lineWidth = 3;
    g.setLineDash(s.dash ? [5, 4] : []);
    g.beginPath();
    g.moveTo(x, y - 4);
    g.lineTo(x + 18, y - 4);
    g.stroke();
    g.setLineDash([]);
    g.fillStyle = theme.ink;
    g.textAlign = 'left';
    g.fillText(s.label ?? '', x + 24, y, W / 3 - 30);
  });
  return g.canvas;
}

function plotSvg(p) {
  const { fig, last, geo } = p;
  const theme = readTheme(fig);
  const W = geo?.W ?? 600,
    H = p.height;
  if (!last || !geo) return '<svg xmlns="http://www.w3.org/2000/svg"/>';
  const { X, Y } = geo;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H + 24}" viewBox="0 -24 ${W} ${H + 24}" font-family="system-ui, sans-serif" font-size="11">`,
    `<rect x="0" y="-24" width="${W}" height="${H + 24}" fill="${theme.paper}"/>`,
    `<text x="6" y="-8" font-weight="600" font-size="13" fill="${theme.ink}">${esc(fig.querySelector('figcaption').textContent)}</text>`,
  ];
  for (const t of geo.yt)
    parts.push(
      `<text x="${geo.pad.l - 4}" y="${Y(t) + 4}" text-anchor="end" fill="${theme.ink}">${esc(geo.yfmt(t))}</text>`,
    );
  for (const t of geo.xt)
    parts.push(
      `<text x="${X(t)}" y="${H - geo.pad.b + 14}" text-anchor="middle" fill="${theme.ink}">${esc(fmt(t))}</text>`,
    );
  parts.push(
    `<text x="${(geo.pad.l + W) / 2}" y="${H - 4}" text-anchor="middle" fill="${theme.muted}">${esc(last.opts.xLabel ?? '')}</text>`,
  );
  last.series.forEach((s, k) => {
    const pts = [];
    for (let i = 0; i < s.y.length; i++)
      if (Number.isFinite(s.y[i])) pts.push(`${X(xOf(p, s, i)).toFixed(1)},${Y(yOf(p, s.y[i])).toFixed(1)}`);
    parts.push(
      `<polyline fill="none" stroke="${colourOf(s, k, theme)}" stroke-width="1.6"${s.dash ? ' stroke-dasharray="5 4"' : ''} points="${pts.join(' ')}"><title>${esc(s.label ?? '')}</title></polyline>`,
    );
  });
  parts.push('</svg>');
  return parts.join('\n');
}

/** The pointer (a tap sends pointerdown but no pointermove) and the arrow keys move the readout. */
function wirePlot(p) {
  const { canvas } = p;
  const point = (e) => {
    const { geo } = p;
    if (!geo) return;
    const b = canvas.getBoundingClientRect();
    const px = e.clientX - b.left;
    const x = geo.xmin + ((px - geo.pad.l) / (geo.W - geo.pad.l - geo.pad.r)) * (geo.xmax - geo.xmin);
    showAt(p, x, yData(p, e.clientY - b.top));
  };
  canvas.addEventListener('pointerdown', point);
  canvas.addEventListener('pointermove', point);
  canvas.addEventListener('keydown', (e) => {
    const { geo } = p;
    if (!geo) return;
    const d = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
    if (!d) return;
    e.preventDefault();
    const step = (geo.xmax - geo.xmin) / (e.shiftKey ? 20 : 200);
    const unit = p.last.opts.integerX ? Math.max(1, Math.round(step)) : step;
    showAt(p, (p.hover ?? geo.xmin) + d * unit);
  });
  canvas.addEventListener('focus', () => showAt(p, p.hover ?? p.geo?.xmin ?? 0));
}

function xOf(p, s, i) {
  return s.x ? s.x[i] : p.last.x0 + i * p.last.dx;
}

function yOf(p, y) {
  return p.last.opts.yLog ? Math.log10(y) : y;
}

function paintPlot(p, cv, dpr) {
  const theme = readTheme(p.fig);
  const W = Math.max(
    260,
    Math.round(
      (cv === p.canvas ? widthOf(cv, () => p.last && paintPlot(p, p.canvas, dprOf())) : cv.clientWidth) ||
        p.parent.clientWidth ||
        640,
    ),
  );
  const H = p.height;
  // Resize (which reallocates the backing store) only when the size changes.
  if (cv.width !== Math.round(W * dpr)) cv.width = Math.round(W * dpr);
  if (cv.height !== Math.round(H * dpr)) cv.height = Math.round(H * dpr);
  if (cv.style.height !== `${H}px`) cv.style.height = `${H}px`;
  paintDetached(p, cv, dpr, (g) => paintPlotInto(p, g, theme, W, H));
  const keysKey = p.last.series.map((s, k) => `${s.label}|${colourOf(s, k, theme)}|${!!s.dash}`).join('\n');
  const keys = p.fig.querySelector('.keys');
  if (keys.dataset.k !== keysKey) {
    keys.dataset.k = keysKey;
    keys.replaceChildren(
      ...p.last.series.map((s, k) => {
        const span = document.createElement('span');
        span.textContent = s.label ?? '';
        span.style.setProperty('--c', colourOf(s, k, theme));
        if (s.dash) span.className = 'dash';
        return span;
      }),
    );
  }
  const aria = `${p.fig.querySelector('figcaption').textContent}: ${p.last.series.map((s) => s.label).join(', ')}; arrow keys read values`;
  if (cv.getAttribute('aria-label') !== aria) cv.setAttribute('aria-label', aria);
}

function paintPlotInto(p, g, theme, W, H) {
  const gm = plotGeometry(p, W, H);
  paintPlotAxes(p, g, theme, gm);
  paintSeries(p, g, theme, gm);
  if (p.hover !== null && p.hover >= gm.xmin && p.hover <= gm.xmax) {
    const { X, pad } = gm;
    g.strokeStyle = theme.ink;
    g.globalAlpha = 0.5;
    g.beginPath();
    g.moveTo(X(p.hover), pad.t);
    g.lineTo(X(p.hover), H - pad.b);
    g.stroke();
    g.globalAlpha = 1;
  }
}

/** The plot's extents (the data's, or the ranges asked for), its scales and ticks, kept in
 * `geo` for the pointer; the ticks and axis names also go on the canvas's dataset. */
function plotGeometry(p, W, H) {
  const { series, opts } = p.last;
  const pad = { l: 58, r: 14, t: 10, b: 36 };
  let xmin = Infinity,
    xmax = -Infinity,
    ymin = Infinity,
    ymax = -Infinity;
  for (const s of series) {
    for (let i = 0; i < s.y.length; i++) {
      const x = xOf(p, s, i);
      const y = yOf(p, s.y[i]);
      if (!Number.isFinite(y)) continue;
      if (x < xmin) xmin = x;
      if (x > xmax) xmax = x;
      if (y < ymin) ymin = y;
      if (y > ymax) ymax = y;
    }
  }
  if (opts.yRange) [ymin, ymax] = opts.yRange.map((v) => (opts.yLog ? Math.log10(v) : v));
  if (opts.xRange) [xmin, xmax] = opts.xRange;
  if (!(xmax > xmin)) xmax = xmin + 1;
  if (!(ymax > ymin)) (ymax = ymin + 1), (ymin -= 1);
  const X = (x) => pad.l + ((x - xmin) / (xmax - xmin)) * (W - pad.l - pad.r);
  const Y = (y) => pad.t + (1 - (y - ymin) / (ymax - ymin)) * (H - pad.t - pad.b);
  const yt = opts.yLog ? ticks(Math.ceil(ymin), Math.floor(ymax), 6).filter(Number.isInteger) : ticks(ymin, ymax, 5);
  const yfmt = opts.yLog ? (t) => (t >= 4 || t <= -3 ? `1e${t}` : fmt(10 ** t)) : fmt;
  const xt = ticks(xmin, xmax, Math.max(3, Math.min(8, Math.floor((W - pad.l) / 70)))).filter(
    (t) => !opts.integerX || Number.isInteger(t),
  );
  p.geo = { W, H, X, Y, xmin, xmax, ymin, ymax, pad, yt, xt, yfmt };
  const axes = {
    yticks: yt.map(yfmt).join('|'),
    xticks: xt.map(fmt).join('|'),
    xname: opts.xLabel ?? '',
    yname: opts.yLabel ?? '',
  };
  setData(p.canvas, axes);
  return p.geo;
}

/** Paper, grid lines with their tick labels, the axis names and the markers. */
function paintPlotAxes(p, g, theme, { W, H, X, Y, pad, yt, xt, yfmt }) {
  const { opts } = p.last;
  g.fillStyle = theme.paper;
  g.fillRect(0, 0, W, H);
  g.strokeStyle = theme.line;
  g.fillStyle = theme.ink;
  g.font = FONT;
  g.lineWidth = 1;
  for (const t of yt) {
    g.beginPath();
    g.moveTo(pad.l, Y(t));
    g.lineTo(W - pad.r, Y(t));
    g.stroke();
    g.textAlign = 'right';
    g.fillText(yfmt(t), pad.l - 4, Y(t) + 4);
  }
  for (const t of xt) {
    g.beginPath();
    g.moveTo(X(t), pad.t);
    g.lineTo(X(t), H - pad.b);
    g.stroke();
    g.textAlign = 'center';
    g.fillText(fmt(t), X(t), H - pad.b + 14);
  }
  g.fillStyle = theme.muted;
  g.textAlign = 'center';
  g.fillText(opts.xLabel ?? '', (pad.l + W - pad.r) / 2, H - 4);
  g.save();
  g.translate(12, (pad.t + H - pad.b) / 2);
  g.rotate(-Math.PI / 2);
  g.fillText(opts.yLabel ?? '', 0, 0);
  g.restore();
  for (const m of opts.markers ?? []) {
    g.strokeStyle = theme.bad;
    g.setLineDash([4, 3]);
    g.beginPath();
    g.moveTo(X(m.x), pad.t);
    g.lineTo(X(m.x), H - pad.b);
    g.stroke();
    g.setLineDash([]);
    g.fillStyle = theme.bad;
    g.textAlign = X(m.x) > W - 140 ? 'right' : 'left';
    g.fillText(m.label ?? '', X(m.x) + (g.textAlign === 'right' ? -4 : 4), pad.t + 10);
  }
}

/** Every series, clipped to the plot area: a line (dense ones rasterised by denseSeries), dots. */
function paintSeries(p, g, theme, { W, H, X, Y, pad }) {
  g.save();
  g.beginPath();
  g.rect(pad.l, pad.t - 1, W - pad.l - pad.r, H - pad.t - pad.b + 2);
  g.clip();
  p.last.series.forEach((s, k) => {
    g.strokeStyle = colourOf(s, k, theme);
    g.lineWidth = 1.6;
    // Bevel joins: a zig-zag of thousands of sharp turns is much cheaper to rasterise than with
    // miter joins, and at 1.6 px the difference cannot be seen.
    g.lineJoin = 'bevel';
    g.setLineDash(s.dash ? [5, 4] : []);
    g.beginPath();
    const n = s.y.length;
    const plotW = W - pad.l - pad.r;
    if (n * 3 > plotW && s.dash) {
      dashedSeries(p, g, s, k, theme, pad, W, H, X, Y);
    } else if (n * 3 > plotW) {
      denseSeries(p, g, s, k, theme, n, pad, W, H, X, Y);
    } else {
      let pen = false;
      for (let i = 0; i < n; i++) {
        const y = yOf(p, s.y[i]);
        if (!Number.isFinite(y)) {
          pen = false;
          continue;
        }
        const x = X(xOf(p, s, i));
        const yy = Y(y);
        if (pen) g.lineTo(x, yy);
        else g.moveTo(x, yy);
        pen = true;
      }
    }
    g.stroke();
    if (s.dots) {
      g.fillStyle = g.strokeStyle;
      for (let i = 0; i < s.y.length; i++) {
        if (!Number.isFinite(s.y[i])) continue;
        g.beginPath();
        g.arc(X(xOf(p, s, i)), Y(yOf(p, s.y[i])), 3, 0, 2 * Math.PI);
        g.fill();
      }
    }
  });
  g.restore();
  g.setLineDash([]);
}

/** The plot area in device pixels (the canvas transform's scale), one pixel of slack above and
 * below for the line's width: the box denseSeries and dashedSeries write into. Null when empty. */
function deviceBox(g, pad, W, H) {
  const t = g.getTransform ? g.getTransform() : { a: 1, d: 1, e: 0, f: 0 };
  const sx = t.a || 1,
    sy = t.d || 1;
  const x0 = Math.floor(pad.l * sx),
    x1 = Math.ceil((W - pad.r) * sx);
  const y0 = Math.floor((pad.t - 1) * sy),
    y1 = Math.ceil((H - pad.b + 1) * sy);
  const nc = x1 - x0,
    nr = y1 - y0;
  return nc > 0 && nr > 0 ? { t, sx, sy, x0, x1, y0, y1, nc, nr } : null;
}

/**
 * A series whose points are closer than 3 px, rasterised here in device pixels: per pixel column
 * the span of y the polyline covers there (each segment clipped to the column), widened by half
 * the 1.6 px line width, with fractional coverage at both ends; written into an ImageData and
 * drawn with one drawImage. The same picture as the stroked path; stroking hundreds of steep
 * zig-zags (or filling thousands of rects) costs Skia tens of milliseconds per frame, this ~1 ms.
 */
function denseSeries(p, g, s, k, theme, n, pad, W, H, X, Y) {
  const box = deviceBox(g, pad, W, H);
  if (!box) return;
  const { t, sx, sy, x0, nc } = box;
  const lo = new Float32Array(nc).fill(Infinity),
    hi = new Float32Array(nc).fill(-Infinity);
  const mark = (c, a, b) => {
    const j = c - x0;
    if (j < 0 || j >= nc) return;
    if (a < lo[j]) lo[j] = a;
    if (b > hi[j]) hi[j] = b;
  };
  let px = NaN,
    py = NaN;
  for (let i = 0; i < n; i++) {
    const y = yOf(p, s.y[i]);
    if (!Number.isFinite(y)) {
      px = NaN;
      continue;
    }
    const x = X(xOf(p, s, i)) * sx,
      yy = Y(y) * sy;
    if (px !== px) mark(Math.floor(x), yy, yy);
    else if (x === px) mark(Math.floor(x), Math.min(py, yy), Math.max(py, yy));
    else {
      const a = Math.min(px, x),
        b = Math.max(px, x),
        slope = (yy - py) / (x - px);
      for (let c = Math.floor(a), cb = Math.floor(b); c <= cb; c++) {
        const ya = py + (Math.max(c, a) - px) * slope,
          yb = py + (Math.min(c + 1, b) - px) * slope;
        mark(c, Math.min(ya, yb), Math.max(ya, yb));
      }
    }
    px = x;
    py = yy;
  }
  // Whole device pixels: pixel-aligned rects are Skia's cheapest draw (no anti-aliasing pass).
  g.save();
  g.setTransform(1, 0, 0, 1, t.e ?? 0, t.f ?? 0);
  g.fillStyle = colourOf(s, k, theme);
  const half = 0.8 * sy;
  for (let j = 0; j < nc; j++) {
    if (!(hi[j] >= lo[j])) continue;
    const top = Math.round(lo[j] - half),
      bot = Math.max(top + 1, Math.round(hi[j] + half));
    g.fillRect(x0 + j, top, 1, bot - top);
  }
  g.restore();
}

/**
 * A dashed series whose points are closer than 3 px, as denseSeries draws a solid one: the dashes
 * (5 px on, 4 off along the line, restarting after a gap, as the canvas dashes a path) in whole
 * device pixels, per pixel column the part of each dash that falls in it, widened by half the line
 * width, written into an ImageData and drawn with one drawImage. Skia stroked a dashed zig-zag of
 * 512 points (the Shuffle lab's pooled vector) in ~10-15 ms per frame: thousands of anti-aliased
 * dash segments (and as thousands of fillRects, ~4 ms).
 */
let dashScratch = null;
function dashedSeries(p, g, s, k, theme, pad, W, H, X, Y) {
  const box = deviceBox(g, pad, W, H);
  if (!box) return;
  const { t, sx, sy, x0, x1, y0, y1, nc, nr } = box;
  const [on, period] = [5 * sx, 9 * sx];
  const img = new ImageData(nc, nr);
  const px32 = new Uint32Array(img.data.buffer);
  const [r, gr, b] = toRgb(colourOf(s, k, theme));
  const rgba = ((255 << 24) | (b << 16) | (gr << 8) | r) >>> 0; // RGBA bytes, little-endian
  const half = 0.8 * sy;
  // one dash piece in a pixel column: y from ya to yb (device pixels), as a 1-px-wide rect
  const piece = (c, ya, yb) => {
    if (c < x0 || c >= x1) return;
    const top = Math.round(Math.min(ya, yb) - half);
    const bot = Math.min(y1, Math.max(top + 1, Math.round(Math.max(ya, yb) + half)));
    for (let y = Math.max(y0, top); y < bot; y++) px32[(y - y0) * nc + c - x0] = rgba;
  };
  let px = NaN,
    py = NaN,
    run = 0; // length of line drawn since the last gap, in device pixels
  for (let i = 0; i < s.y.length; i++) {
    const y = yOf(p, s.y[i]);
    if (!Number.isFinite(y)) {
      px = NaN;
      continue;
    }
    const x = X(xOf(p, s, i)) * sx,
      yy = Y(y) * sy;
    if (!Number.isNaN(px)) {
      const len = Math.hypot(x - px, yy - py);
      // the dashes' "on" parts along this segment, as fractions u of it, cut at column borders
      for (let d = Math.floor(run / period) * period; d < run + len; d += period) {
        const u0 = Math.max(0, (d - run) / len),
          u1 = Math.min(1, (d + on - run) / len);
        if (!(u1 > u0)) continue;
        const xa = px + u0 * (x - px),
          xb = px + u1 * (x - px);
        const lo = Math.min(xa, xb),
          hi = Math.max(xa, xb);
        for (let c = Math.floor(lo), cb = Math.floor(hi); c <= cb; c++) {
          // the part of the piece inside column c
          const v0 = x === px ? u0 : Math.max(u0, Math.min(u1, (Math.max(c, lo) - px) / (x - px)));
          const v1 = x === px ? u1 : Math.max(u0, Math.min(u1, (Math.min(c + 1, hi) - px) / (x - px)));
          piece(c, py + v0 * (yy - py), py + v1 * (yy - py));
        }
      }
      run += len;
    } else run = 0;
    px = x;
    py = yy;
  }
  dashScratch ??= document.createElement('canvas');
  if (dashScratch.width !== nc || dashScratch.height !== nr) [dashScratch.width, dashScratch.height] = [nc, nr];
  dashScratch.getContext('2d').putImageData(img, 0, 0);
  g.save();
  g.setTransform(1, 0, 0, 1, t.e ?? 0, t.f ?? 0);
  g.drawImage(dashScratch, x0, y0);
  g.restore();
}

/** Value of series s nearest to x. */
function sampleAt(p, s, x) {
  const n = s.y.length;
  if (!n) return [NaN, NaN];
  let lo = 0,
    hi = n - 1;
  if (!s.x) {
    const i = Math.max(0, Math.min(n - 1, Math.round((x - p.last.x0) / p.last.dx)));
    return [xOf(p, s, i), s.y[i]];
  }
  const up = s.x[n - 1] >= s.x[0];
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (s.x[mid] <= x === up) lo = mid;
    else hi = mid;
  }
  const i = Math.abs(s.x[lo] - x) <= Math.abs(s.x[hi] - x) ? lo : hi;
  return [s.x[i], s.y[i]];
}

function showAt(p, x, yAt = null) {
  if (!p.last || !p.geo) return;
  p.hover = Math.max(p.geo.xmin, Math.min(p.geo.xmax, x));
  const theme = readTheme(p.fig);
  paintDetached(p, p.canvas, dprOf(), (g) => paintPlotInto(p, g, theme, p.geo.W, p.height));
  const parts = p.last.series.map((s) => {
    const [xx, y] = sampleAt(p, s, p.hover);
    return `${s.label}: ${fmt(y)}${s.x || p.last.dx !== 1 ? ` (at ${fmt(xx)})` : ''}`;
  });
  p.readout.textContent = `${p.last.opts.xLabel || 'x'} ${fmt(p.hover)} · ${parts.join(' · ')}`;
  // A formula panel follows the cursor: the x under it, the nearest sample of each series, and
  // (pointer only) the y under it in data units, so a view can pick the curve pointed at.
  p.plot.onCursor?.(
    p.hover,
    p.last.series.map((s) => sampleAt(p, s, p.hover)),
    yAt,
  );
}

/** The y value (data units) at a canvas-relative pixel row. */
function yData(p, py) {
  const f = 1 - (py - p.geo.pad.t) / (p.height - p.geo.pad.t - p.geo.pad.b);
  const y = p.geo.ymin + f * (p.geo.ymax - p.geo.ymin);
  return p.last.opts.yLog ? 10 ** y : y;
}

/**
 * An export figure: a canvas of w × h CSS pixels at `scale`, painted with the theme's paper and,
 * when there is one, `title` in bold at the top left. Returns its 2-D context, already scaled, so
 * the caller draws in CSS pixels; the canvas is `g.canvas`.
 */
export function exportCanvas(
  w,
  h,
  { scale = 2, theme, title = '', font = '600 13px system-ui, sans-serif', x = 6, y = 18 } = {},
) {
  const out = document.createElement('canvas');
  out.width = Math.round(w * scale);
  out.height = Math.round(h * scale);
  const g = out.getContext('2d');
  g.scale(scale, scale);
  g.fillStyle = theme.paper;
  g.fillRect(0, 0, w, h);
  if (title) {
    g.fillStyle = theme.ink;
    g.font = font;
    g.fillText(title, x, y, w - 2 * x);
  }
  return g;
}

/** Stack several figures (canvases or promises of them) into one export canvas. */
export async function stackFigures(parts, { scale = 2, gap = 12 } = {}) {
  const cs = (await Promise.all(parts)).filter(Boolean);
  const W = Math.max(1, ...cs.map((c) => c.width));
  const H = cs.reduce((a, c) => a + c.height, 0) + gap * scale * Math.max(0, cs.length - 1);
  const out = document.createElement('canvas');
  out.width = W;
  out.height = Math.max(1, H);
  const g = out.getContext('2d');
  g.fillStyle = readTheme(document.body).paper;
  g.fillRect(0, 0, W, out.height);
  let y = 0;
  for (const c of cs) {
    g.drawImage(c, 0, y);
    y += c.height + gap * scale;
  }
  return out;
}
