// The frame every view shares: a heading, one sentence of explanation, a body, and a guard that
// turns a missing API into a note instead of a crash.
import { Unavailable, finiteMinMax } from '../methods.js';

export function shell(el, title, intro) {
  const section = document.createElement('section');
  section.className = 'view';
  section.innerHTML = `<h2></h2><p class="intro"></p><div class="notes"></div><div class="body"></div>`;
  section.querySelector('h2').textContent = title;
  section.querySelector('.intro').innerHTML = intro;
  el.append(section);
  const notes = section.querySelector('.notes');
  return {
    section,
    body: section.querySelector('.body'),
    /** Run fn; a missing API or a rejected argument shows as a note in the view. */
    guard(fn, where = '') {
      try {
        const r = fn();
        if (r && typeof r.catch === 'function') r.catch((e) => note(e, where));
        return r;
      } catch (e) {
        note(e, where);
        return undefined;
      }
    },
    clear() {
      notes.replaceChildren();
    },
  };
  function note(e, where) {
    const p = document.createElement('p');
    if (e instanceof Unavailable) {
      p.className = 'unavailable';
      p.textContent = `${where ? `${where}: ` : ''}not available in this build (needs ${e.message}).`;
    } else {
      p.className = 'error';
      p.textContent = `${where ? `${where}: ` : ''}${e.message}`;
    }
    notes.append(p);
  }
}

/** Export payload for one matrix panel. */
export function matrixExport(panel, name) {
  const d = panel.data();
  if (!d) return null;
  if (panel.exact) d.values = panel.exact();
  return {
    kind: 'matrix',
    name,
    rows: d.rows,
    cols: d.cols,
    rowLabel: panel.rowLabel,
    colLabel: panel.colLabel,
    values: Array.from(d.values.subarray ? d.values.subarray(0, d.rows * d.cols) : d.values, (v, i) =>
      Math.floor(i / d.cols) >= d.maskFromRow ? null : v,
    ),
  };
}

/** Export payload for one plot. */
export function plotExport(plot, name) {
  const d = plot.data();
  if (!d) return null;
  return {
    kind: 'series',
    name,
    xLabel: d.xLabel,
    series: d.series.map((s) => ({
      label: s.label,
      x: s.x ? Array.from(s.x) : Array.from(s.y, (_, i) => d.x0 + i * d.dx),
      y: Array.from(s.y),
    })),
  };
}

/** The screen-reader sentence of the shell's fallback (name, size, range) for a matrix panel, read
 * from the drawn values with a typed loop: the export payload (exact values, one JS array per
 * cell) costs ~100 ms for a 1024 × 512 table, on the main thread, after every drag. */
export function describeMatrix(panel, name) {
  const d = panel.data();
  if (!d) return '';
  const v = typeof d.values === 'function' ? d.values() : d.values;
  const n = d.rows * d.cols,
    end = Number.isFinite(d.maskFromRow) ? Math.min(n, d.maskFromRow * d.cols) : n;
  if (!v || v.length < end) return undefined; // a heap view detached by growth: the shell's fallback
  return `${name}: ${d.rows} ${panel.rowLabel ?? 'rows'} by ${d.cols} ${panel.colLabel ?? 'columns'}, ${rangeText(finiteMinMax(v, end))}.`;
}

/** "values from lo to hi" for a figure description, from finiteMinMax(). */
export const rangeText = ([lo, hi]) =>
  lo <= hi ? `values from ${+lo.toPrecision(4)} to ${+hi.toPrecision(4)}` : 'no finite values';
