// Additive vs concatenative absolute positions. Adding PE to x mixes content and position in every
// dot product: (x_i + p_i)·(x_j + p_j) = x_i·x_j + x_i·p_j + p_i·x_j + p_i·p_j. Concatenating keeps
// them apart, [x_i; p_i]·[x_j; p_j] = x_i·x_j + p_i·p_j, at the price of extra dimensions; through
// full W_Q, W_K the cross terms return unless the projections are block-diagonal (TUPE, Ke et al.
// 2021). Every dot product here is pe.similarity over tables made by pe.addTo and pe.concat.
import { createPlot, f32, fmt, stackFigures } from '../draw.js';
import { shell } from './common.js';

const L = 64;

/**
 * The scores of one word (the same content vector at every position) with the sinusoid added and
 * concatenated: Gram matrices of x + PE (Sadd), [x; PE] (Scat), PE alone (Spp), and of [x; PE]
 * stacked as rows (Sxp: row 0 against rows 1..L gives x · p_j for every j).
 */
function concatScores(pe, d, base) {
  // The same content vector at every position (a word repeated), norm ~ √d like a trained embedding.
  const word = pe.learnedInit({ length: 1, dim: d, std: 1, seed: 42 });
  const X = new Float32Array(L * d);
  for (let r = 0; r < L; r++) X.set(word, r * d);
  const PE = pe.sinusoidal({ length: L, dim: d, base });
  const added = pe.addTo(X.slice(), PE, { length: L, dim: d });
  const cat = pe.concat(X, PE, { length: L, dimX: d, dimP: d });
  const Sadd = pe.similarity(added, { length: L, dim: d });
  const Scat = pe.similarity(cat, { length: L, dim: 2 * d });
  const Spp = pe.similarity(PE, { length: L, dim: d });
  // x · p_j for every j: one Gram matrix of [x; PE] (row 0 against rows 1..L)
  const XP = new Float32Array((L + 1) * d);
  XP.set(word, 0);
  XP.set(PE, d);
  const Sxp = pe.similarity(XP, { length: L + 1, dim: d });
  return { Sadd, Scat, Spp, Sxp };
}

export function setupConcat(el, ctx) {
  const v = shell(
    el,
    'Add or concatenate?',
    'The Transformer adds its position vectors to the word vectors ' +
      '(<a href="https://arxiv.org/abs/1706.03762">Vaswani et al. 2017</a>, after multiplying the word ' +
      'embeddings by √d<sub>model</sub>, §3.4); it could have concatenated them. In the raw dot product ' +
      'below, adding puts cross terms (content × position) into the score and concatenating keeps content ' +
      'and position apart, at the cost of extra dimensions.<span data-after-predict> A real layer first multiplies [x; p] by ' +
      'W<sub>Q</sub> and W<sub>K</sub>: unless those are block-diagonal (no weight mixing the x part with ' +
      'the p part), the cross terms come back with concatenation too. Keeping them apart on purpose, with ' +
      'separate projections for words and positions, is what TUPE does ' +
      '(<a href="https://arxiv.org/abs/2006.15595">Ke et al. 2021</a>).</span>',
  );
  v.body.innerHTML =
    `<div class="row"><label>key position j ` +
    `<input type="range" class="j" min="1" max="${L - 1}" step="1"></label><output class="jv"></output></div><div class="formula"><h4>One ` +
    `score, term by term (the same word “dog” at positions 0 and ` +
    `j)</h4><div class="fbody"></div></div><div class="plots"></div>`;
  const fbody = v.body.querySelector('.fbody');
  const jIn = v.body.querySelector('.j');
  jIn.addEventListener('input', () => ctx.setState({ pos: Number(jIn.value) }));
  const plots = v.body.querySelector('.plots');
  const score = createPlot(plots, { height: 200 });
  const cross = createPlot(plots, { height: 200 });
  let exported = null;

  function draw(st) {
    const pe = ctx.pe;
    const d = st.dim;
    const { Sadd, Scat, Spp, Sxp } = concatScores(pe, d, st.base);
    const xx = Sxp[0];
    const j = Math.min(Math.max(1, st.pos), L - 1);
    const xpj = Sxp[1 + j],
      xp0 = Sxp[1];
    const terms = { xx, xp: xpj, px: xp0, pp: Spp[j] };
    if (document.activeElement !== jIn) jIn.value = String(j);
    v.body.querySelector('.jv').textContent = String(j);
    fbody.innerHTML = `<div class="fl">added: (<var>x</var> + <var>p</var><sub>0</sub>)·(<var>x</var> + <var>p</var><sub>j</sub>) = <var>x</var>·<var>x</var> + <var>x</var>·<var>p</var><sub>j</sub> + <var>p</var><sub>0</sub>·<var>x</var> + <var>p</var><sub>0</sub>·<var>p</var><sub>j</sub></div>
      <div class="fl">j = ${j}, d = ${d}: ${f32(terms.xx)} + <b>${f32(terms.xp)}</b> + <b>${f32(terms.px)}</b> + ${f32(terms.pp)} = <b class="exact">${f32(Sadd[j])}</b></div>
      <div class="fl">concatenated: [<var>x</var>; <var>p</var><sub>0</sub>]·[<var>x</var>; <var>p</var><sub>j</sub>] = <var>x</var>·<var>x</var> + <var>p</var><sub>0</sub>·<var>p</var><sub>j</sub> = ${f32(terms.xx)} + ${f32(terms.pp)} = <b class="exact">${f32(Scat[j])}</b> (2d = ${2 * d} dims)</div>
      <p class="fhint">The bold cross terms are content-times-position: they depend on what the word is, so with addition the same distance can score differently for different words. These are raw dot products, with no W<sub>Q</sub>, W<sub>K</sub><span data-after-predict>: through a full projection of [x; p] the concatenated score gets cross terms too</span>. The word vector has entries of std 1 (norm ${f32(Math.sqrt(xx))} here, about √d = ${fmt(Math.sqrt(d))}); the sinusoid’s norm is exactly √(d/2) = ${fmt(Math.sqrt(d / 2))} (each pair has sin² + cos² = 1). Move j with the slider above. Scores from <code>pe.similarity</code> over <code>pe.addTo(x, PE)</code> and <code>pe.concat(x, PE)</code>.</p>`;
    const row = (S) => S.subarray(0, L);
    score.setTitle('Score of “dog” at position 0 against “dog” at position j');
    score.draw(
      [
        { y: row(Sadd), label: 'added: (x + p₀)·(x + pⱼ)', colour: 0 },
        { y: row(Scat), label: 'concatenated: [x; p₀]·[x; pⱼ]', colour: 1, dash: true },
      ],
      {
        xLabel: 'key position j (tokens)',
        yLabel: 'dot product',
        integerX: true,
        markers: [{ x: j, label: `j = ${j}` }],
      },
    );
    const xpRow = Sxp.subarray(1, L + 1);
    const crossSum = Float32Array.from({ length: L }, (_, k) => xpRow[k] + xp0);
    cross.setTitle('Where they differ: the cross terms x·pⱼ + p₀·x (content × position), present only when adding');
    cross.draw(
      [
        { y: crossSum, label: 'x·pⱼ + p₀·x', colour: 2 },
        { y: Spp.subarray(0, L), label: 'p₀·pⱼ (position only, in both)', colour: 3, dash: true },
      ],
      { xLabel: 'key position j (tokens)', yLabel: 'dot product', integerX: true },
    );
    exported = {
      kind: 'group',
      parts: [
        {
          kind: 'series',
          name: 'scores',
          xLabel: 'j',
          series: [
            { label: 'added', y: Array.from(row(Sadd)), x: Array.from({ length: L }, (_, k) => k) },
            { label: 'concatenated', y: Array.from(row(Scat)), x: Array.from({ length: L }, (_, k) => k) },
          ],
        },
      ],
    };
  }

  return {
    update(st) {
      v.clear();
      v.guard(() => draw(st), 'add vs concat');
    },
    exportData: () => exported,
    figure: (o) => stackFigures([score.figure(o), cross.figure(o)], o),
    svg: () => score.svg(),
    canvas: () => score.canvas,
  };
}
