// A 4-dimensional sinusoidal encoding worked by hand, with real numbers: the two frequencies, the
// table for the first positions, and three words' embeddings plus their positions (x + PE). Click
// or walk any cell: the formula panel fills in with that cell's numbers and the API call.
import { exportCanvas, f32 } from '../draw.js';
import { createFormula, cellFormula } from '../formula.js';
import { readTheme } from '../theme.js';
import { shell } from './common.js';

const D = 4;
const P = 6;
const WORDS = ['dog', 'bites', 'man'];

export function setupWorked(el, ctx) {
  const v = shell(
    el,
    'Sinusoidal by hand: d = 4',
    'The whole construction at a size you can check on paper. With d = 4 there are two frequencies: pair 0 turns once every 2π ≈ 6.28 positions, pair 1 once every 2π·base^(2/4) positions. Click a number (or focus the table and use the arrow keys) to see it worked out.',
  );
  v.body.innerHTML = `<div class="with-formula"><div class="tables">
      <p class="plain freqs"></p>
      <div class="scroll"><table class="numbers pe" tabindex="0" aria-label="sinusoidal table, 6 positions × 4 dims: arrow keys move"></table></div>
      <p class="plain">A model adds this table to the word vectors, row by row: the input to the first layer is <b>x + PE</b>. Three words of a sentence (4-dimensional vectors, drawn at random here as a model’s embeddings start):</p>
      <div class="scroll"><table class="numbers sum"></table></div>
    </div></div>`;
  const wrap = v.body.querySelector('.with-formula');
  const formula = createFormula(wrap);
  const tPE = v.body.querySelector('table.pe');
  const tSum = v.body.querySelector('table.sum');
  const freqs = v.body.querySelector('.freqs');
  let st = null,
    table = null;
  const cur = { r: 3, c: 2 };
  let exported = null;

  function fill() {
    for (const td of tPE.querySelectorAll('td.hot')) td.classList.remove('hot');
    tPE.querySelector(`td[data-r="${cur.r}"][data-c="${cur.c}"]`)?.classList.add('hot');
    if (table)
      formula.set(
        cellFormula(ctx.pe, { ...st, dim: D, layout: 'interleaved' }, 'sinusoidal', cur.r, cur.c, {
          values: table,
          rows: P,
          cols: D,
        }),
      );
  }
  tPE.addEventListener('click', (e) => {
    const td = e.target.closest('td[data-r]');
    if (!td) return;
    cur.r = Number(td.dataset.r);
    cur.c = Number(td.dataset.c);
    fill();
  });
  tPE.addEventListener('keydown', (e) => {
    const m = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[e.key];
    if (!m) return;
    e.preventDefault();
    cur.r = Math.max(0, Math.min(P - 1, cur.r + m[0]));
    cur.c = Math.max(0, Math.min(D - 1, cur.c + m[1]));
    fill();
  });

  function draw() {
    const pe = ctx.pe;
    const w = pe.sinusoidalFrequencies({ dim: D, base: st.base });
    table = pe.sinusoidal({ length: P, dim: D, base: st.base });
    freqs.innerHTML = `Frequencies from <code>pe.sinusoidalFrequencies({ dim: 4, base: ${st.base} })</code>: ω₀ = ${f32(w[0])} rad per position, ω₁ = 1/${st.base}<sup>2/4</sup> = ${w[1].toPrecision(6)} rad per position. Columns alternate sin and cos of p·ωᵢ:`;
    const head = `<caption>PE = pe.sinusoidal({ length: ${P}, dim: 4, base: ${st.base} })</caption><tr><th>p</th><th>dim 0<br>sin(p·ω₀)</th><th>dim 1<br>cos(p·ω₀)</th><th>dim 2<br>sin(p·ω₁)</th><th>dim 3<br>cos(p·ω₁)</th></tr>`;
    tPE.innerHTML =
      head +
      Array.from(
        { length: P },
        (_, r) =>
          `<tr><th>${r}</th>${Array.from({ length: D }, (_, c) => `<td data-r="${r}" data-c="${c}">${f32(table[r * D + c])}</td>`).join('')}</tr>`,
      ).join('');
    const x = pe.learnedInit({ length: WORDS.length, dim: D, std: 1, seed: 42 });
    const sum = pe.addTo(x.slice(), table, { length: WORDS.length, dim: D });
    const row = (a, r) => Array.from({ length: D }, (_, c) => `<td>${f32(a[r * D + c])}</td>`).join('');
    tSum.innerHTML =
      `<caption>x + PE = pe.addTo(x, PE, { length: 3, dim: 4 })</caption><tr><th>word (p)</th><th></th><th>dim 0</th><th>dim 1</th><th>dim 2</th><th>dim 3</th></tr>` +
      WORDS.map(
        (wd, r) =>
          `<tr><th rowspan="3">${wd} (${r})</th><th>x</th>${row(x, r)}</tr><tr><th>+ PE</th>${row(table, r)}</tr><tr><th>= x + PE</th>${row(sum, r)}</tr>`,
      ).join('');
    exported = {
      kind: 'matrix',
      name: 'sinusoidal d=4',
      rows: P,
      cols: D,
      rowLabel: 'position',
      colLabel: 'dim',
      values: Array.from(table),
    };
    fill();
  }

  return {
    update(s) {
      st = s;
      v.clear();
      v.guard(draw, 'worked example');
    },
    exportData: () => exported,
    figure: ({ scale = 2 } = {}) => tableFigure(tPE, scale),
    canvas: () => tableFigure(tPE, 1),
  };
}

/**
 * A table drawn into a canvas for export (the figure is the numbers themselves), cell by cell where
 * the page lays it out, so the export is the table at `scale` × its on-screen size.
 */
function tableFigure(table, scale = 2) {
  const theme = readTheme(table);
  const box = table.getBoundingClientRect();
  const pad = 10;
  const g = exportCanvas(Math.max(320, Math.ceil(box.width) + 2 * pad), Math.ceil(box.height) + 2 * pad, {
    scale,
    theme,
    title: table.querySelector('caption')?.textContent ?? '',
    font: '600 12px system-ui, sans-serif',
    x: pad,
    y: pad + 12,
  });
  g.textBaseline = 'middle';
  g.strokeStyle = theme.line;
  g.lineWidth = 1;
  for (const cell of table.querySelectorAll('th, td')) {
    const r = cell.getBoundingClientRect();
    const x = pad + r.left - box.left,
      y = pad + r.top - box.top;
    g.strokeRect(Math.round(x) + 0.5, Math.round(y) + 0.5, Math.round(r.width), Math.round(r.height));
    // As the page aligns it: numbers to the right, so their digits line up.
    const align = getComputedStyle(cell).textAlign;
    g.textAlign = align === 'right' || align === 'end' ? 'right' : align === 'center' ? 'center' : 'left';
    const tx = g.textAlign === 'right' ? x + r.width - 5 : g.textAlign === 'center' ? x + r.width / 2 : x + 5;
    const lines = cell.innerText.split('\n').filter(Boolean);
    g.font = cell.tagName === 'TH' ? '600 12px system-ui, sans-serif' : '12px ui-monospace, monospace';
    g.fillStyle = theme.ink;
    lines.forEach((t, k) => g.fillText(t, tx, y + (r.height * (k + 0.5)) / lines.length, r.width - 8));
  }
  return g.canvas;
}
