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
  const { fig, caption, mat, canvas, cursorEl, hlEl, readout } = matrixFigure(parent, small, square);
  const cells = document.createElement('canvas'); // the cell image at its reduced size
  let img = null;
  let words = null;
  let last = null; // what was drawn
  let cellsOf = null; // what `cells` holds, when it was drawn from stable values
  let geo = null; // { ml, mt, w, h, W, H }
  const cur = { r: 0, c: 0, shown: false };
  caption.textContent = title;
  canvas.setAttribute('aria-label', `${title}: heatmap, use arrow keys to read cells`);

  const panel = {
    fig,
    canvas,
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
      if (caption.textContent === t) return; // an unchanged text would still be laid out anew
      caption.textContent = t;
      canvas.setAttribute('aria-label', `${t}: heatmap, use arrow keys to read cells`);
    },
    /** Frame another cell (the same word pair in the other order, say); null hides it. */
    highlight(r, c) {
      if (r == null || !last || !geo) return void (hlEl.hidden = true);
      hlEl.hidden = false;
      hlEl.dataset.r = String(r);
      hlEl.dataset.c = String(c);
      place(hlEl, r, c);
    },
    /**
     * values: any array-like of rows*cols numbers; -Infinity and NaN are painted as masked.
     * reduce(tw, th, kx, ky) may supply the down-sampled picture itself ({ values, weight?,
     * columns? }): a cyclic quantity must be averaged as unit vectors, not as numbers. With
     * `columns` (and weight), values and weight hold th rows of fewer entries and pixel column t
     * shows entry columns[t]. `stable`: the same values array always holds the same numbers.
     */
    draw(
      values,
      rows,
      cols,
      {
        lo,
        hi,
        palette = 'bo',
        maskFromRow = rows,
        marker,
        markerLabel,
        source,
        reduce,
        valueAt,
        note = '',
        stable = false,
      } = {},
    ) {
      last = {
        values,
        rows,
        cols,
        maskFromRow,
        source,
        lo,
        hi,
        palette,
        marker,
        markerLabel,
        reduce,
        valueAt,
        note,
        stable,
      };
      paint();
      cur.r = Math.min(cur.r, rows - 1);
      cur.c = Math.min(cur.c, cols - 1);
      if (cur.shown) show(false);
    },
    /** The drawn matrix; heap-backed values are re-read, since a heap view dies when memory grows. */
    data: () =>
      last && {
        ...last,
        values:
          last.source && !last.source.freed
            ? last.source.array
            : typeof last.values === 'function'
              ? last.values()
              : last.values,
      },
    /** The whole figure (title, axes, colour bar) at `scale` x the on-screen size. */
    figure({ scale = 2 } = {}) {
      const theme = readTheme(fig);
      const W = geo?.W ?? 600,
        H = geo?.H ?? 300;
      const top = 28,
        bottom = 40;
      const g = exportCanvas(W, H + top + bottom, { scale, theme, title: caption.textContent });
      g.save();
      g.translate(0, top);
      if (last) render(g, theme, W, H, scale);
      g.restore();
      colourBar(g, theme, 6, H + top + 12, Math.min(260, W - 12));
      return g.canvas;
    },
  };

  function layout() {
    const W = Math.max(60, Math.round(widthOf(mat, () => last && paint()) || parent.clientWidth || 600));
    const { rows, cols } = last;
    const names = panel.rowNames;
    const g = canvas.getContext('2d');
    g.font = FONT;
    const labelW = names
      ? Math.min(120, Math.max(...names.map((s) => g.measureText(s).width)) + 10)
      : g.measureText(String(rows - 1)).width + 8;
    // The labels take at most a third of the width (longer words are ellipsized, fitText): a
    // sentence with one long word must not leave the cells no width at all.
    const ml = Math.min(Math.ceil(labelW + 20), Math.max(24, Math.floor(W / 3)));
    const mr = 8,
      mt = 6;
    const mb = panel.colNames ? 58 : 36;
    let w = Math.max(8, W - ml - mr);
    const maxH = small ? 260 : 520;
    const minH = small ? 90 : 160;
    let h;
    if (square || rows === cols) {
      h = Math.min(w, maxH);
      w = h;
    } else h = Math.round(Math.max(minH, Math.min(maxH, (w * rows) / cols)));
    geo = { ml, mt, w, h, W, H: mt + h + mb };
  }

  function render(g, theme, W, H, dpr) {
    const { ml, mt, w, h } = geo;
    const { rows } = last;
    g.fillStyle = theme.paper;
    g.fillRect(0, 0, W, H);
    // Never scaled down here (boxAverage did that), so nearest-neighbour is exact and cheap.
    g.imageSmoothingEnabled = false;
    g.drawImage(cells, ml, mt, w, h);
    g.strokeStyle = theme.line;
    g.lineWidth = 1;
    g.strokeRect(ml - 0.5, mt - 0.5, w + 1, h + 1);
    renderAxes(g, theme);
    if (last.marker !== undefined && last.marker < rows) renderMarker(g, theme);
  }

  /** Tick marks and labels (row and column index, or word) at cell centres, and the axis names. */
  function renderAxes(g, theme) {
    const { ml, mt, w, h } = geo;
    const { rows, cols } = last;
    g.font = FONT;
    g.fillStyle = theme.ink;
    g.strokeStyle = theme.muted;
    // y ticks (row index or word), at cell centres
    g.textAlign = 'right';
    g.textBaseline = 'middle';
    const rowT = panel.rowNames ? (h / rows >= 12 ? [...Array(rows).keys()] : cellTicks(rows, h)) : cellTicks(rows, h);
    const colT = panel.colNames ? [...Array(cols).keys()] : cellTicks(cols, w);
    // What the axes say, for readers of the DOM (tests, screen-reader summaries).
    setData(canvas, {
      yticks: rowT.map((r) => (panel.rowNames ? panel.rowNames[r] : String(r))).join('|'),
      xticks: colT.map((c) => (panel.colNames ? panel.colNames[c] : String(c))).join('|'),
      xname: panel.colAxis ?? panel.colLabel,
      yname: panel.rowAxis ?? panel.rowLabel,
    });
    for (const r of rowT) {
      const y = mt + ((r + 0.5) * h) / rows;
      g.beginPath();
      g.moveTo(ml - 4, y);
      g.lineTo(ml, y);
      g.stroke();
      g.fillText(panel.rowNames ? fitText(g, panel.rowNames[r], ml - 26) : String(r), ml - 6, y);
    }
    g.textBaseline = 'alphabetic';
    g.textAlign = 'center';
    for (const c of colT) {
      const x = ml + ((c + 0.5) * w) / cols;
      g.beginPath();
      g.moveTo(x, mt + h);
      g.lineTo(x, mt + h + 4);
      g.stroke();
      if (panel.colNames) {
        g.save();
        g.translate(x + 3, mt + h + 8);
        g.rotate(-Math.PI / 4);
        g.textAlign = 'right';
        g.fillText(fitText(g, panel.colNames[c], (geo.H - mt - h - 8) * Math.SQRT2), 0, 0);
        g.restore();
      } else g.fillText(String(c), x, mt + h + 15);
    }
    // axis names
    g.fillStyle = theme.muted;
    g.fillText(`${panel.colAxis ?? panel.colLabel} →`, ml + w / 2, mt + h + (panel.colNames ? 54 : 31));
    g.save();
    g.translate(10, mt + h / 2);
    g.rotate(-Math.PI / 2);
    g.fillText(`← ${panel.rowAxis ?? panel.rowLabel}`, 0, 0);
    g.restore();
  }

  /** The marker line across the rows (a training length, say), with its label on a paper backing. */
  function renderMarker(g, theme) {
    const { ml, mt, w, h } = geo;
    const { rows } = last;
    const y = mt + (last.marker * h) / rows;
    g.strokeStyle = theme.bad;
    g.lineWidth = 2;
    g.setLineDash([5, 4]);
    g.beginPath();
    g.moveTo(ml, y);
    g.lineTo(ml + w, y);
    g.stroke();
    g.setLineDash([]);
    if (last.markerLabel) {
      g.font = `600 ${FONT}`;
      // below the line (over the rows the marker cuts off) when there is room, on a paper backing
      const ty = y + 16 < mt + h ? y + 15 : y - 5;
      const tw2 = g.measureText(last.markerLabel).width;
      g.fillStyle = theme.paper;
      g.globalAlpha = 0.85;
      g.fillRect(ml + w - tw2 - 8, ty - 11, tw2 + 6, 14);
      g.globalAlpha = 1;
      g.fillStyle = theme.bad;
      g.textAlign = 'right';
      g.fillText(last.markerLabel, ml + w - 4, ty);
    }
  }

  function colourBar(g, theme, x, y, w) {
    const stops = gradientStops(last?.palette ?? 'bo', theme);
    const grad = g.createLinearGradient(x + 40, 0, x + w - 40, 0);
    stops.forEach((s, i) => grad.addColorStop(i / (stops.length - 1), s));
    g.fillStyle = grad;
    g.fillRect(x + 40, y, w - 80, 10);
    g.fillStyle = theme.ink;
    g.font = FONT;
    g.textAlign = 'right';
    g.fillText(fig.querySelector('.lo').textContent, x + 36, y + 9);
    g.textAlign = 'left';
    g.fillText(fig.querySelector('.hi').textContent, x + w - 36, y + 9);
    g.fillStyle = theme.muted;
    g.fillText(fig.querySelector('.note').textContent, x + w + 10, y + 9);
  }

  function paint() {
    const theme = readTheme(fig);
    layout();
    const { rows, cols } = last;
    const dpr = dprOf();
    const { tw, th } = paintCells(theme, dpr);
    const W = geo.W,
      H = geo.H;
    if (canvas.width !== Math.round(W * dpr) || canvas.height !== Math.round(H * dpr)) {
      canvas.width = Math.round(W * dpr);
      canvas.height = Math.round(H * dpr);
    }
    canvas.style.width = `${W}px`;
    canvas.style.height = `${H}px`;
    setData(canvas, {
      rows: String(rows),
      cols: String(cols),
      reduced: tw === cols && th === rows ? '' : `${tw}x${th}`,
    });
    const g = canvas.getContext('2d');
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    render(g, theme, W, H, dpr);
    paintLegend(theme);
  }

  /** The values as one pixel per cell into `cells` (the offscreen canvas render() scales up):
   * whole cells per pixel box averaged when there are more cells than device pixels. Values the
   * caller marked `stable` (the same array always holds the same numbers) are not painted again
   * while nothing else that colours them changed. */
  function paintCells(theme, dpr) {
    const { rows, cols, maskFromRow, lo, hi, palette, reduce } = last;
    // Whole cells per pixel box (an integer factor, so every box averages the same number of
    // cells and no beat pattern appears). What is left is a scale-up of at most 2, drawn crisp.
    // (geo.w, geo.h >= 8 by layout(): a zero-sized ImageData throws)
    const kx = cols > geo.w * dpr ? Math.ceil(cols / (geo.w * dpr)) : 1;
    const ky = rows > geo.h * dpr ? Math.ceil(rows / (geo.h * dpr)) : 1;
    const tw = Math.ceil(cols / kx),
      th = Math.ceil(rows / ky);
    const painted = [last.values, rows, cols, maskFromRow, lo, hi, palette, theme.key, tw, th];
    if (last.stable && cellsOf?.every((x, i) => x === painted[i])) return { tw, th };
    cellsOf = last.stable ? painted : null;
    if (cells.width !== tw || cells.height !== th) {
      cells.width = tw;
      cells.height = th;
    }
    if (!img || img.width !== tw || img.height !== th) {
      img = new ImageData(tw, th);
      words = new Uint32Array(img.data.buffer);
    }
    const L = lut(palette, theme);
    const s = hi > lo ? 255.999 / (hi - lo) : 0;
    if (tw === cols && th === rows) {
      const values = typeof last.values === 'function' ? last.values() : last.values;
      const n = Math.min(values.length, rows * cols, maskFromRow * cols);
      (values instanceof Float32Array ? paintF32 : paintAny)(values, words, n, L, lo, s);
      words.fill(L[256], n, rows * cols);
    } else {
      const red = reduce
        ? reduce(tw, th, kx, ky)
        : boxAverage(
            typeof last.values === 'function' ? last.values() : last.values,
            rows,
            cols,
            tw,
            th,
            maskFromRow,
            kx,
            ky,
          );
      if (red.columns) paintColumns(red, words, tw, th, L, lo, s, toRgb(theme.mask));
      else if (red.weight) paintFaded(red.values, red.weight, 0, words, tw * th, L, lo, s, toRgb(theme.mask));
      else paintF32(red.values, words, tw * th, L, lo, s);
    }
    cells.getContext('2d').putImageData(img, 0, 0);
    return { tw, th };
  }

  /** The colour bar's ends, gradient and note, when they change. */
  function paintLegend(theme) {
    const { lo, hi, palette } = last;
    const lab = `${lo}|${hi}|${palette}|${theme.key}|${last.note}`;
    if (lab !== fig.dataset.legend) {
      fig.dataset.legend = lab;
      fig.querySelector('.lo').textContent = fmt(lo);
      fig.querySelector('.hi').textContent = Math.abs(hi - 2 * Math.PI) < 1e-9 ? '2π' : fmt(hi);
      fig.querySelector('.bar').style.background =
        `linear-gradient(to right, ${gradientStops(palette, theme).join(', ')})`;
      fig.querySelector('.note').textContent = last.note ?? '';
    }
  }

  function place(el, r, c) {
    const { ml, mt, w, h } = geo;
    const cw = w / last.cols,
      ch = h / last.rows;
    Object.assign(el.style, {
      left: `${ml + c * cw - (cw < 3 ? (3 - cw) / 2 : 0)}px`,
      top: `${mt + r * ch - (ch < 3 ? (3 - ch) / 2 : 0)}px`,
      width: `${Math.max(3, cw)}px`,
      height: `${Math.max(3, ch)}px`,
    });
  }
  function value(r, c) {
    if (!last) return NaN;
    if (r >= last.maskFromRow) return NaN;
    if (last.valueAt) return last.valueAt(r, c);
    const vs = last.source && !last.source.freed ? last.source.array : last.values;
    if (typeof vs === 'function') return NaN;
    return vs[r * last.cols + c] ?? NaN;
  }
  function show(notify = true) {
    if (!last || !geo) return;
    cur.shown = true;
    cursorEl.hidden = false;
    place(cursorEl, cur.r, cur.c);
    const v = value(cur.r, cur.c);
    readout.textContent = panel.describe(cur.r, cur.c, v);
    if (panel.onCursor) panel.onCursor(cur.r, cur.c, v, notify);
  }
  panel.cursor = () => ({ ...cur });
  panel.moveTo = (r, c) => {
    if (!last) return;
    cur.r = Math.max(0, Math.min(last.rows - 1, r));
    cur.c = Math.max(0, Math.min(last.cols - 1, c));
    show();
  };
  canvas.addEventListener('keydown', (e) => {
    if (!last) return;
    const step = e.shiftKey ? 10 : 1;
    const moves = {
      ArrowUp: [-step, 0],
      ArrowDown: [step, 0],
      ArrowLeft: [0, -step],
      ArrowRight: [0, step],
      PageUp: [-Math.ceil(last.rows / 8), 0],
      PageDown: [Math.ceil(last.rows / 8), 0],
      Home: [0, -last.cols],
      End: [0, last.cols],
    };
    const m = moves[e.key];
    if (!m) return;
    e.preventDefault();
    panel.moveTo(cur.r + m[0], cur.c + m[1]);
  });
  canvas.addEventListener('focus', () => show());
  const point = (e) => {
    if (!last || !geo) return;
    const b = canvas.getBoundingClientRect();
    const x = e.clientX - b.left - geo.ml,
      y = e.clientY - b.top - geo.mt;
    if (x < 0 || y < 0 || x >= geo.w || y >= geo.h) return;
    panel.moveTo(Math.floor((y / geo.h) * last.rows), Math.floor((x / geo.w) * last.cols));
  };
  // A tap sends pointerdown but no pointermove: both pick the cell under the finger.
  canvas.addEventListener('pointerdown', point);
  canvas.addEventListener('pointermove', point);
  return panel;
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
    const a = Math.max(0, Math.min(1, weight[off + i]));
    if (a < 0.999) {
      const r = w & 255,
        g = (w >> 8) & 255,
        b = (w >> 16) & 255;
      w =
        (255 << 24) |
        (Math.round(b * a + mb * (1 - a)) << 16) |
        (Math.round(g * a + mg * (1 - a)) << 8) |
        Math.round(r * a + mr * (1 - a));
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
  const canvas = fig.querySelector('canvas');
  const readout = fig.querySelector('.readout');
  const noteEl = fig.querySelector('.note');
  fig.querySelector('figcaption').textContent = title;
  let last = null;
  let geo = null;
  let hover = null; // x value under the cursor
  const plot = {
    fig,
    canvas,
    setTitle: (t) => (fig.querySelector('figcaption').textContent = t),
    /** A sentence under the plot: what is folded into what is drawn (scale factors, cuts). */
    setNote(t) {
      noteEl.hidden = !t;
      noteEl.textContent = t ?? '';
    },
    draw(series, opts = {}) {
      last = { series, opts, xLabel: opts.xLabel ?? '', x0: opts.x0 ?? 0, dx: opts.dx ?? 1 };
      paint(canvas, dprOf(), null);
      if (hover !== null) showAt(hover);
    },
    data: () => last,
    figure({ scale = 2 } = {}) {
      const theme = readTheme(fig);
      const W = geo?.W ?? 600,
        H = height;
      const top = 26,
        keyH = 18 * Math.ceil((last?.series.length ?? 0) / 3) + 8;
      const g = exportCanvas(W, H + top + keyH, { scale, theme, title: fig.querySelector('figcaption').textContent });
      g.save();
      g.translate(0, top);
      if (last) paintInto(g, theme, W, H);
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
    },
    /** An SVG string of the same figure (series as polylines). */
    svg() {
      const theme = readTheme(fig);
      const W = geo?.W ?? 600,
        H = height;
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
          if (Number.isFinite(s.y[i])) pts.push(`${X(xOf(s, i)).toFixed(1)},${Y(yOf(s.y[i])).toFixed(1)}`);
        parts.push(
          `<polyline fill="none" stroke="${colourOf(s, k, theme)}" stroke-width="1.6"${s.dash ? ' stroke-dasharray="5 4"' : ''} points="${pts.join(' ')}"><title>${esc(s.label ?? '')}</title></polyline>`,
        );
      });
      parts.push('</svg>');
      return parts.join('\n');
    },
  };
  const xOf = (s, i) => (s.x ? s.x[i] : last.x0 + i * last.dx);
  const yOf = (y) => (last.opts.yLog ? Math.log10(y) : y);
  const colourOf = (s, k, theme) =>
    typeof s.colour === 'number'
      ? theme.series[s.colour % 8]
      : s.colour === 'bad'
        ? theme.bad
        : s.colour === 'muted'
          ? theme.muted
          : (s.colour ?? theme.series[k % 8]);

  function paint(cv, dpr) {
    const theme = readTheme(fig);
    const W = Math.max(
      260,
      Math.round(
        (cv === canvas ? widthOf(cv, () => last && paint(canvas, dprOf())) : cv.clientWidth) ||
          parent.clientWidth ||
          640,
      ),
    );
    const H = height;
    // Resize (which reallocates the backing store) only when the size changes.
    if (cv.width !== Math.round(W * dpr)) cv.width = Math.round(W * dpr);
    if (cv.height !== Math.round(H * dpr)) cv.height = Math.round(H * dpr);
    if (cv.style.height !== `${H}px`) cv.style.height = `${H}px`;
    const g = cv.getContext('2d');
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    paintInto(g, theme, W, H);
    const keysKey = last.series.map((s, k) => `${s.label}|${colourOf(s, k, theme)}|${!!s.dash}`).join('\n');
    const keys = fig.querySelector('.keys');
    if (keys.dataset.k !== keysKey) {
      keys.dataset.k = keysKey;
      keys.replaceChildren(
        ...last.series.map((s, k) => {
          const span = document.createElement('span');
          span.textContent = s.label ?? '';
          span.style.setProperty('--c', colourOf(s, k, theme));
          if (s.dash) span.className = 'dash';
          return span;
        }),
      );
    }
    const aria = `${fig.querySelector('figcaption').textContent}: ${last.series.map((s) => s.label).join(', ')}; arrow keys read values`;
    if (cv.getAttribute('aria-label') !== aria) cv.setAttribute('aria-label', aria);
  }

  function paintInto(g, theme, W, H) {
    const geo = plotGeometry(W, H);
    paintAxes(g, theme, geo);
    paintSeries(g, theme, geo);
    if (hover !== null && hover >= geo.xmin && hover <= geo.xmax) {
      const { X, pad } = geo;
      g.strokeStyle = theme.ink;
      g.globalAlpha = 0.5;
      g.beginPath();
      g.moveTo(X(hover), pad.t);
      g.lineTo(X(hover), H - pad.b);
      g.stroke();
      g.globalAlpha = 1;
    }
  }

  /** The plot's extents (the data's, or the ranges asked for), its scales and ticks, kept in
   * `geo` for the pointer; the ticks and axis names also go on the canvas's dataset. */
  function plotGeometry(W, H) {
    const { series, opts } = last;
    const pad = { l: 58, r: 14, t: 10, b: 36 };
    let xmin = Infinity,
      xmax = -Infinity,
      ymin = Infinity,
      ymax = -Infinity;
    for (const s of series) {
      for (let i = 0; i < s.y.length; i++) {
        const x = xOf(s, i);
        const y = yOf(s.y[i]);
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
    geo = { W, H, X, Y, xmin, xmax, ymin, ymax, pad, yt, xt, yfmt };
    const axes = {
      yticks: yt.map(yfmt).join('|'),
      xticks: xt.map(fmt).join('|'),
      xname: opts.xLabel ?? '',
      yname: opts.yLabel ?? '',
    };
    setData(canvas, axes);
    return geo;
  }

  /** Paper, grid lines with their tick labels, the axis names and the markers. */
  function paintAxes(g, theme, { W, H, X, Y, pad, yt, xt, yfmt }) {
    const { opts } = last;
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
  function paintSeries(g, theme, { W, H, X, Y, pad }) {
    g.save();
    g.beginPath();
    g.rect(pad.l, pad.t - 1, W - pad.l - pad.r, H - pad.t - pad.b + 2);
    g.clip();
    last.series.forEach((s, k) => {
      g.strokeStyle = colourOf(s, k, theme);
      g.lineWidth = 1.6;
      // Bevel joins: a zig-zag of thousands of sharp turns is much cheaper to rasterise than with
      // miter joins, and at 1.6 px the difference cannot be seen.
      g.lineJoin = 'bevel';
      g.setLineDash(s.dash ? [5, 4] : []);
      g.beginPath();
      const n = s.y.length;
      const plotW = W - pad.l - pad.r;
      if (n * 3 > plotW && !s.dash) {
        denseSeries(g, s, k, theme, n, pad, W, H, X, Y);
      } else {
        let pen = false;
        for (let i = 0; i < n; i++) {
          const y = yOf(s.y[i]);
          if (!Number.isFinite(y)) {
            pen = false;
            continue;
          }
          const x = X(xOf(s, i));
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
          g.arc(X(xOf(s, i)), Y(yOf(s.y[i])), 3, 0, 2 * Math.PI);
          g.fill();
        }
      }
    });
    g.restore();
    g.setLineDash([]);
  }

  /**
   * A series whose points are closer than 3 px, rasterised here in device pixels: per pixel column
   * the span of y the polyline covers there (each segment clipped to the column), widened by half
   * the 1.6 px line width, with fractional coverage at both ends; written into an ImageData and
   * drawn with one drawImage. The same picture as the stroked path; stroking hundreds of steep
   * zig-zags (or filling thousands of rects) costs Skia tens of milliseconds per frame, this ~1 ms.
   */
  function denseSeries(g, s, k, theme, n, pad, W, H, X, Y) {
    const t = g.getTransform ? g.getTransform() : { a: 1, d: 1, e: 0, f: 0 };
    const sx = t.a || 1,
      sy = t.d || 1;
    const x0 = Math.floor(pad.l * sx),
      x1 = Math.ceil((W - pad.r) * sx);
    const y0 = Math.floor((pad.t - 1) * sy),
      y1 = Math.ceil((H - pad.b + 1) * sy);
    const nc = x1 - x0,
      nr = y1 - y0;
    if (nc <= 0 || nr <= 0) return;
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
      const y = yOf(s.y[i]);
      if (!Number.isFinite(y)) {
        px = NaN;
        continue;
      }
      const x = X(xOf(s, i)) * sx,
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
  /** Value of series s nearest to x. */
  function at(s, x) {
    const n = s.y.length;
    if (!n) return [NaN, NaN];
    let lo = 0,
      hi = n - 1;
    if (!s.x) {
      const i = Math.max(0, Math.min(n - 1, Math.round((x - last.x0) / last.dx)));
      return [xOf(s, i), s.y[i]];
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
  function showAt(x, yAt = null) {
    if (!last || !geo) return;
    hover = Math.max(geo.xmin, Math.min(geo.xmax, x));
    const g = canvas.getContext('2d');
    g.setTransform(dprOf(), 0, 0, dprOf(), 0, 0);
    paintInto(g, readTheme(fig), geo.W, height);
    const parts = last.series.map((s) => {
      const [xx, y] = at(s, hover);
      return `${s.label}: ${fmt(y)}${s.x || last.dx !== 1 ? ` (at ${fmt(xx)})` : ''}`;
    });
    readout.textContent = `${last.opts.xLabel || 'x'} ${fmt(hover)} · ${parts.join(' · ')}`;
    // A formula panel follows the cursor: the x under it, the nearest sample of each series, and
    // (pointer only) the y under it in data units, so a view can pick the curve pointed at.
    plot.onCursor?.(
      hover,
      last.series.map((s) => at(s, hover)),
      yAt,
    );
  }
  /** The y value (data units) at a canvas-relative pixel row. */
  const yData = (py) => {
    const f = 1 - (py - geo.pad.t) / (height - geo.pad.t - geo.pad.b);
    const y = geo.ymin + f * (geo.ymax - geo.ymin);
    return last.opts.yLog ? 10 ** y : y;
  };
  plot.readAt = showAt;
  /** Whether a cursor (pointer or keyboard) is on the plot: a formula panel follows it then. */
  plot.hovered = () => hover !== null;
  /** [x, y] of the sample of series s nearest to x. */
  plot.sampleAt = (s, x) => at(s, x);
  const point = (e) => {
    if (!geo) return;
    const b = canvas.getBoundingClientRect();
    const px = e.clientX - b.left;
    const x = geo.xmin + ((px - geo.pad.l) / (geo.W - geo.pad.l - geo.pad.r)) * (geo.xmax - geo.xmin);
    showAt(x, yData(e.clientY - b.top));
  };
  // A tap sends pointerdown but no pointermove.
  canvas.addEventListener('pointerdown', point);
  canvas.addEventListener('pointermove', point);
  canvas.addEventListener('keydown', (e) => {
    if (!geo) return;
    const d = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
    if (!d) return;
    e.preventDefault();
    const step = (geo.xmax - geo.xmin) / (e.shiftKey ? 20 : 200);
    const unit = last.opts.integerX ? Math.max(1, Math.round(step)) : step;
    showAt((hover ?? geo.xmin) + d * unit);
  });
  canvas.addEventListener('focus', () => showAt(hover ?? geo?.xmin ?? 0));
  return plot;
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
