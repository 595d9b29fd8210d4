// Position ids: what a token's position is when it is not its index in the tensor. Two figures,
// both computed through the API (pe.sinusoidal, pe.applyRope with `positions` or `offset`,
// pe.similarity for the dot products):
//  - a left-padded batch: the attention mask, the tensor index and the ids Hugging Face builds from
//    the mask (`position_ids = attention_mask.cumsum(-1) - 1`, the padding then filled with 1), and
//    what the two numberings do to an absolute encoding (the first real word gets PE(2), not PE(0))
//    and to RoPE (a common shift of every id: the same scores);
//  - a KV cache: ten keys rotated at their positions when they were stored, a new query at id 10,
//    against a full recomputation of all eleven tokens, and the same query given id 0;
//  - an edited prompt: one causal RoPE layer (pe.selfAttention) before and after token 3 is
//    replaced, and which positions' keys and outputs (layer 2's keys and values) change.
import { createPlot, fmt, stackFigures } from '../draw.js';
import { plotExport, shell } from './common.js';

const PROMPTS = [
  ['the', 'cat', 'sat'],
  ['a', 'dog', 'ran', 'off', 'fast'],
];
const CACHED = 10; // tokens already in the cache; the new one is the 11th
const SEED = 31;
const EDIT_LENGTH = 10; // the edited prompt's tokens
const EDIT = 3; // the token replaced

const INTRO =
  'Every encoding reads a position id per token, and the id need not be the token’s index in the tensor. ' +
  'Above, two prompts batched with left padding: the attention mask, the tensor index, and the position ids built from ' +
  'the mask (as Hugging Face does: <code>attention_mask.cumsum(-1) - 1</code>); <i>next</i> is the id the ' +
  'next generated token takes. Below, generation with a ' +
  `KV cache: ${CACHED} keys were rotated by RoPE at their own positions when they were stored, and a new ` +
  'token arrives; its query’s scores against the cache are set beside those of a full recomputation. ' +
  'Last, one token of a cached prompt is replaced: which cached entries are still valid?';

export function setupPositions(el, ctx) {
  const s = positionsState(el, ctx);
  return {
    update: (st) => updatePositions(s, st),
    exportData: () => s.exported,
    figure: (o) => stackFigures([s.plot.figure(o), s.editPlot.figure(o)], o),
    canvas: () => s.plot.canvas,
  };
}

/** The view's one state: its table, notes and plots, and the export of the last update. */
function positionsState(el, ctx) {
  const v = shell(el, 'Position ids: padding and a KV cache', INTRO);
  v.body.innerHTML = `<h3>A left-padded batch</h3>
    <figure class="pad-figure"><div class="scroll"><table class="numbers pad-table"></table></div></figure>
    <p class="figure-note pad-note" data-after-predict></p>
    <h3>A KV cache of ${CACHED} tokens and one new token</h3>
    <div class="plotbox"></div>
    <p class="figure-note cache-note" data-after-predict></p>
    <h3>An edited prompt: which cache entries stay valid</h3>
    <div class="plotbox"></div>
    <p class="figure-note edit-note" data-after-predict></p>`;
  const q = (sel) => v.body.querySelector(sel);
  const [cacheBox, editBox] = v.body.querySelectorAll('.plotbox');
  return {
    ctx,
    v,
    table: q('.pad-table'),
    padNote: q('.pad-note'),
    cacheNote: q('.cache-note'),
    plot: createPlot(cacheBox, { height: 220 }),
    editPlot: createPlot(editBox, { height: 200 }),
    editNote: q('.edit-note'),
    exported: null,
  };
}

/** q·k of row 0 against rows 1 … n of a [1 + n][d] table (pe.similarity's first row). */
const firstRow = (pe, x, n, d) => pe.similarity(x, { length: n + 1, dim: d }).subarray(1, n + 1);

function padding(s, pe, st) {
  const d = st.dim;
  const L = Math.max(...PROMPTS.map((p) => p.length));
  const rows = PROMPTS.map((words) => {
    const pad = L - words.length;
    const mask = Array.from({ length: L }, (_, i) => (i < pad ? 0 : 1));
    let seen = 0;
    const ids = mask.map((m) => (m ? seen++ : null)); // cumsum − 1 on the real tokens
    return { words: [...Array(pad).fill('<pad>'), ...words], mask, ids, pad, next: seen };
  });
  const cells = (xs, f = (x) => x) => xs.map((x) => `<td>${f(x)}</td>`).join('');
  s.table.innerHTML =
    `<caption>Batch of ${rows.length} prompts, padded on the left to ${L} tokens</caption>` +
    `<tr><th>row</th><th>what</th>${Array.from({ length: L }, (_, i) => `<th>${i}</th>`).join('')}<th>next</th></tr>` +
    rows
      .map(
        (r, k) =>
          `<tr><th rowspan="4">${k + 1}</th><th>token</th>${cells(r.words, (w) => (w === '<pad>' ? '<i>pad</i>' : w))}<td></td></tr>` +
          `<tr><th>mask</th>${cells(r.mask)}<td></td></tr>` +
          `<tr><th>index</th>${cells(r.mask.map((_, i) => i))}<td>${L}</td></tr>` +
          `<tr><th>id</th>${cells(r.ids, (x) => (x === null ? '·' : x))}<td>${r.next}</td></tr>`,
      )
      .join('');
  // The first row's first real word: its index is `pad`, its id 0.
  const pad = rows[0].pad;
  const pe0 = pe.sinusoidal({ length: pad + 1, dim: d, base: st.base });
  const cosine = pe.similarity(pe0, { length: pad + 1, dim: d, normalize: true })[pad];
  // RoPE: the scores among the real tokens of row 1, rotated at their index and at their id.
  const n = PROMPTS[0].length;
  const content = pe.learnedInit({ length: n, dim: d, std: 1, seed: SEED });
  const rope = (offset) => {
    const x = content.slice();
    pe.applyRope(x, { length: n, dim: d, base: st.base, offset });
    return pe.similarity(x, { length: n, dim: d });
  };
  const byIndex = rope(pad),
    byId = rope(0);
  let worst = 0;
  for (let i = 0; i < byId.length; i++) worst = Math.max(worst, Math.abs(byIndex[i] - byId[i]));
  s.padNote.innerHTML =
    `Row 1’s first word sits at index ${pad} but has id 0. Numbered by the index, an absolute encoding would add ` +
    `PE(${pad}) to it instead of PE(0) (cosine of the two: ${cosine.toFixed(4)}), a different input from the same prompt ` +
    `unpadded. RoPE’s scores among row 1’s words differ by at most ${worst.toExponential(1)} between the two numberings ` +
    `(float32 rounding): shifting every id by the same amount keeps each offset. Either way the mask keeps the pads out, ` +
    `and in generation each row’s next token takes its own next id (${rows.map((r) => r.next).join(' and ')}), ` +
    `not the tensor index ${L}.`;
  return { rows, cosine, ropeShiftDiff: worst };
}

function cache(s, pe, st) {
  const d = st.dim;
  const content = pe.learnedInit({ length: CACHED + 1, dim: d, std: 1, seed: SEED + 1 });
  const keys = content.subarray(0, CACHED * d);
  const q = content.subarray(CACHED * d);
  // The cache: each key rotated once, at its own position, when it was stored.
  const stored = keys.slice();
  pe.applyRope(stored, { length: CACHED, dim: d, base: st.base, offset: 0 });
  const against = (qPos) => {
    const x = new Float32Array((CACHED + 1) * d);
    x.set(q, 0);
    pe.applyRope(x.subarray(0, d), { length: 1, dim: d, base: st.base, offset: qPos });
    x.set(stored, d);
    return firstRow(pe, x, CACHED, d);
  };
  // A full recomputation: all eleven tokens rotated at positions 0 … 10, the new one last.
  const all = new Float32Array((CACHED + 1) * d);
  all.set(q, 0);
  all.set(keys, d);
  pe.applyRope(all, {
    length: CACHED + 1,
    dim: d,
    base: st.base,
    positions: Int32Array.from({ length: CACHED + 1 }, (_, i) => (i === 0 ? CACHED : i - 1)),
  });
  const full = firstRow(pe, all, CACHED, d);
  const right = against(CACHED),
    wrong = against(0);
  const diff = (a) => a.reduce((m, x, i) => Math.max(m, Math.abs(x - full[i])), 0);
  const x = Float32Array.from({ length: CACHED }, (_, j) => j);
  s.plot.setTitle(`Scores q·k of the new token against the ${CACHED} cached keys (RoPE, d = ${d})`);
  s.plot.draw(
    [
      { x, y: full, label: `all ${CACHED + 1} tokens recomputed`, colour: 0 },
      { x, y: right, label: `cache, query at id ${CACHED} (dots)`, colour: 1, dots: true, dash: true },
      { x, y: wrong, label: 'cache, query at id 0 (dashed)', colour: 3, dash: true },
    ],
    { xLabel: 'cached key at position j', yLabel: 'q·k', integerX: true },
  );
  const dRight = diff(right),
    dWrong = diff(wrong);
  s.cacheNote.textContent =
    `With id ${CACHED} the new query meets the stored keys at offsets j − ${CACHED}, as in the full recomputation: ` +
    `the scores agree ${dRight === 0 ? 'exactly' : `to ${dRight.toExponential(1)}`}, and no cached key is rotated again. Given id 0 (the index in a ` +
    `one-token input), it meets them at the offsets j − 0 and its scores are off by up to ${fmt(dWrong)}.`;
  return { full, right, wrong, dRight, dWrong };
}

/** One causal RoPE attention layer (pe.selfAttention) over a prompt and over the same prompt with
 * token EDIT replaced: how much each position's layer-1 key and layer-1 output (the input from
 * which layer 2 computes its keys and values) change. */
function edit(s, pe) {
  const D = 32,
    heads = 4,
    n = EDIT_LENGTH;
  const w = (seed) => pe.learnedInit({ length: D, dim: D, std: 1 / Math.sqrt(D), seed });
  const weights = { wq: w(51), wk: w(52), wv: w(53) };
  const X = pe.learnedInit({ length: n, dim: D, std: 1, seed: 54 });
  const Y = X.slice();
  Y.set(pe.learnedInit({ length: 1, dim: D, std: 1, seed: 55 }), EDIT * D);
  const layer = (tokens) =>
    pe.selfAttention({
      tokens,
      dModel: D,
      ...weights,
      heads,
      encoding: { type: 'rope' },
      causal: true,
      returnWeights: false,
    }).output;
  const keys = (tokens) => {
    const k = pe.matmul(tokens, weights.wk, { m: n, k: D, n: D });
    pe.applyRope(k, { length: n, heads, dim: D / heads });
    return k;
  };
  const perPosition = (a, b) =>
    Float32Array.from({ length: n }, (_, i) => {
      let m = 0;
      for (let c = 0; c < D; c++) m = Math.max(m, Math.abs(a[i * D + c] - b[i * D + c]));
      return m;
    });
  const key1 = perPosition(keys(X), keys(Y));
  const out1 = perPosition(layer(X), layer(Y));
  const x = Float32Array.from({ length: n }, (_, i) => i);
  s.editPlot.setTitle(`Token ${EDIT} of a ${n}-token prompt replaced: largest change at each position`);
  s.editPlot.draw(
    [
      { x, y: key1, label: 'layer 1: its key (from the token alone)', colour: 0, dots: true },
      {
        x,
        y: out1,
        label: 'layer 1: its output, from which layer 2 computes keys and values',
        colour: 1,
        dots: true,
        dash: true,
      },
    ],
    { xLabel: 'position', yLabel: 'max |change|', integerX: true, markers: [{ x: EDIT, label: 'edit' }] },
  );
  const first = (y) => y.findIndex((d) => d > 0);
  const last = (y) => y.findLastIndex((d) => d > 0);
  s.editNote.textContent =
    `Positions before ${EDIT} do not change in any layer (largest change ${Math.max(...key1.subarray(0, EDIT), ...out1.subarray(0, EDIT))}): ` +
    'the causal mask keeps them from seeing the edit, so their cached keys and values stay valid. In layer 1 only ' +
    `position ${first(key1)}${last(key1) === first(key1) ? '' : ` … ${last(key1)}`}’s key changes, but every output from ${first(out1)} on ` +
    `changes (by up to ${fmt(Math.max(...out1))}), and layer 2 computes its keys and values from those: a cache must drop every entry ` +
    `from the edit on and recompute them.`;
  return { key1, out1 };
}

function updatePositions(s, st) {
  s.v.clear();
  const pe = s.ctx.pe;
  s.exported = { kind: 'group', parts: [] };
  s.v.guard(() => {
    const p = padding(s, pe, st);
    const c = cache(s, pe, st);
    const e = edit(s, pe);
    s.exported = {
      kind: 'group',
      parts: [
        {
          kind: 'table',
          name: 'left-padded batch',
          rows: p.rows.map((r) => ({ tokens: r.words, mask: r.mask, positionIds: r.ids, nextId: r.next })),
        },
        plotExport(s.plot, 'kv cache scores'),
        plotExport(s.editPlot, 'edited prompt'),
      ].filter(Boolean),
      editKeyChange: Array.from(e.key1),
      editOutputChange: Array.from(e.out1),
      absoluteCosine: p.cosine,
      ropeShiftDiff: p.ropeShiftDiff,
      cacheDiff: c.dRight,
      wrongIdDiff: c.dWrong,
    };
  }, 'position ids');
}
