// A 4-dimensional sinusoidal encoding worked by hand, with real numbers: the two frequencies, the
// table for the first positions, and three words' embeddings plus their positions (x + PE). Click
// or walk any cell: the formula panel fills in with that cell's numbers and the API call.
import { f32 } from '../draw.js';
import { createFormula, cellFormula } from '../formula.js';
import { need } from '../methods.js';
import { readTheme } from '../theme.js';
import { shell } from './common.js';

const D = 4;
const P = 6;
const WORDS = ['dog', 'bites', 'man'];

export function setupWorked(el, ctx) {
  const v = shell(el, 'Sinusoidal by hand: d = 4',
    'The whole construction at a size you can check on paper. With d = 4 there are two frequencies: pair 0 turns once every 2π ≈ 6.28 positions, pair 1 once every 2π·base^(2/4) positions. Click a number (or focus the table and use the arrow keys) to see it worked out.');
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
  let st = null, table = null;
  const cur = { r: 3, c: 2 };
  let exported = null;

  function fill() {
    for (const td of tPE.querySelectorAll('td.hot')) td.classList.remove('hot');
    tPE.querySelector(`td[data-r="${cur.r}"][data-c="${cur.c}"]`)?.classList.add('hot');
    if (table) formula.set(cellFormula(ctx.pe, { ...st, dim: D, layout: 'interleaved' }, 'sinusoidal', cur.r, cur.c, { values: table, rows: P, cols: D }));
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
    need(pe, 'sinusoidal', 'sinusoidalFrequencies', 'learnedInit', 'addTo');
    const w = pe.sinusoidalFrequencies({ dim: D, base: st.base });
    table = pe.sinusoidal({ length: P, dim: D, base: st.base });
    freqs.innerHTML = `Frequencies from <code>pe.sinusoidalFrequencies({ dim: 4, base: ${st.base} })</code>: ω₀ = ${f32(w[0])} rad per position, ω₁ = 1/${st.base}<sup>2/4</sup> = ${w[1].toPrecision(6)} rad per position. Columns alternate sin and cos of p·ωᵢ:`;
    const head = `<caption>PE = pe.sinusoidal({ length: ${P}, dim: 4, base: ${st.base} })</caption><tr><th>p</th><th>dim 0<br>sin(p·ω₀)</th><th>dim 1<br>cos(p·ω₀)</th><th>dim 2<br>sin(p·ω₁)</th><th>dim 3<br>cos(p·ω₁)</th></tr>`;
    tPE.innerHTML = head + Array.from({ length: P }, (_, r) => `<tr><th>${r}</th>${Array.from({ length: D }, (_, c) => `<td data-r="${r}" data-c="${c}">${f32(table[r * D + c])}</td>`).join('')}</tr>`).join('');
    const x = pe.learnedInit({ length: WORDS.length, dim: D, std: 1, seed: 42 });
    const sum = pe.addTo(x.slice(), table, { length: WORDS.length, dim: D });
    const row = (a, r) => Array.from({ length: D }, (_, c) => `<td>${f32(a[r * D + c])}</td>`).join('');
    tSum.innerHTML = `<caption>x + PE = pe.addTo(x, PE, { length: 3, dim: 4 })</caption><tr><th>word (p)</th><th></th><th>dim 0</th><th>dim 1</th><th>dim 2</th><th>dim 3</th></tr>` +
      WORDS.map((wd, r) => `<tr><th rowspan="3">${wd} (${r})</th><th>x</th>${row(x, r)}</tr><tr><th>+ PE</th>${row(table, r)}</tr><tr><th>= x + PE</th>${row(sum, r)}</tr>`).join('');
    exported = { kind: 'matrix', name: 'sinusoidal d=4', rows: P, cols: D, rowLabel: 'position', colLabel: 'dim', values: Array.from(table) };
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

/** A table drawn into a canvas for export (the figure is the numbers themselves). */
function tableFigure(table, scale = 2) {
  const rows = [...table.querySelectorAll('tr')].map((tr) => [...tr.children].map((c) => c.textContent));
  const cap = table.querySelector('caption')?.textContent ?? '';
  const cw = 120, rh = 22;
  const out = document.createElement('canvas');
  const cols = Math.max(...rows.map((r) => r.length));
  out.width = (cols * cw + 20) * scale;
  out.height = ((rows.length + 1) * rh + 20) * scale;
  const g = out.getContext('2d');
  g.scale(scale, scale);
  const theme = readTheme(table);
  g.fillStyle = theme.paper;
  g.fillRect(0, 0, out.width, out.height);
  g.fillStyle = theme.ink;
  g.font = '600 12px system-ui, sans-serif';
  g.fillText(cap, 10, 16);
  g.font = '12px ui-monospace, monospace';
  rows.forEach((r, i) => r.forEach((t, j) => g.fillText(t, 10 + j * cw, 16 + (i + 1) * rh, cw - 6)));
  return out;
}
