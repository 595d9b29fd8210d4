// Rotation circles: RoPE turns pair i of a query at position m by m·ωᵢ and pair i of a key at
// position n by n·ωᵢ (RoFormer, Su et al. 2021, eq. 16: q_mᵀk_n = qᵀR(n − m)k). q and k are two
// different vectors (rows 0 and 1 of pe.learnedInit, seed 7), so every circle shows both with their
// own content angle and length: the pair's share of the score, |qᵢ||kᵢ|·cos Δᵢ, depends on that
// content and on the signed offset n − m. Play moves m and n together: both vectors spin, every Δᵢ
// stays. Below, the check with the API's numbers: a common shift keeps q·k; swapping m and n (the
// offset's sign) and another key change it.
import { exportCanvas, fmt, signed, spread } from '../draw.js';
import { ropeOptions } from '../state.js';
import { readTheme } from '../theme.js';
import { shell } from './common.js';
import { createFormula, rotationFormula } from '../formula.js';

const SHIFT = 1000;
const MAXPOS = 100000;
const TAU = 2 * Math.PI;
const deg = (r) => `${((r * 180) / Math.PI).toFixed(1)}°`;
const wrap = (a) => (((a % TAU) + 3 * Math.PI) % TAU) - Math.PI; // to (−π, π]
const turn = (a) => (a < 0 ? a + TAU : a); // to [0, 2π)
/** Where pair i sits in a d-vector: split halves (i, i + d/2) or adjacent (2i, 2i + 1). */
const pairAt = (layout, d, i) => (layout === 'interleaved' ? [2 * i, 2 * i + 1] : [i, i + d / 2]);
/** The content vectors q and k (rows 0 and 1): the circles and the check use the same ones. */
const SEED = 7;

/** The circles' canvas, sized for `count` circles (a narrow screen wraps them onto several rows so
 * each stays readable) and painted with the theme's paper: its context, width, circles per row,
 * radius and row height. */
function circlesCanvas(canvas, count, theme) {
  const dpr = Math.min(2, window.devicePixelRatio || 1);
  const W = Math.max(280, canvas.clientWidth || 640);
  // Narrow screens wrap the circles onto several rows so each stays readable.
  const perRow = Math.min(count, Math.max(2, Math.floor(W / 150)));
  const rowsN = Math.ceil(count / perRow);
  const R = Math.min(66, W / perRow / 2 - 14);
  const cellH = 2 * R + 114;
  const H = cellH * rowsN + 8;
  canvas.width = W * dpr;
  canvas.height = H * dpr;
  canvas.style.height = `${H}px`;
  const g = canvas.getContext('2d');
  g.setTransform(dpr, 0, 0, dpr, 0, 0);
  g.fillStyle = theme.paper;
  g.fillRect(0, 0, W, H);
  g.font = '12px system-ui, sans-serif';
  g.textAlign = 'center';
  return { g, W, perRow, R, cellH };
}

/** The export payload, one series per quantity under each circle; draw() fills in the y values. */
function rotationExport(pairs) {
  const series = (label) => ({ label, x: pairs, y: [] });
  return {
    kind: 'series',
    name: 'rotation',
    xLabel: 'pair',
    series: [
      series('θq rad (q at m)'),
      series('θk rad (k at n)'),
      series('Δ = θk − θq rad'),
      series('qᵢ·kᵢ (this pair’s share of q·k)'),
    ],
  };
}

const INTRO =
  'RoPE (<a href="https://arxiv.org/abs/2104.09864">Su et al. 2021</a>) acts after the query and key ' +
  'projections, in each head, on q and k only: pair i of the query turns by m·ωᵢ, pair i of the key by ' +
  'n·ωᵢ. The values v are not rotated. Here q and k are two different vectors; each circle shows one ' +
  'pair of each, dashed before the turn and solid after, with its angle. The pair adds |qᵢ||kᵢ|·cos Δᵢ ' +
  'to q·k, where Δᵢ is the angle between them: the content angle plus (n − m)·ωᵢ (RoFormer eq. 16). ' +
  'Press Play: m and n move together.<span data-after-predict> Both vectors spin and every Δᵢ stays: ' +
  'the score depends on the content of q and k and on the signed offset n − m, not on m and n ' +
  'themselves.</span>';

const MARKUP = `<div class="row">
      <label>query position m <input type="range" class="m" min="0" max="4096" step="1"></label>
      <input type="number" class="mn" min="0" max="${MAXPOS}" step="1" aria-label="query position m">
      <button type="button" class="mdec" aria-label="m minus 1">−1</button><button type="button" class="minc" aria-label="m plus 1">+1</button></div>
    <div class="row">
      <label>key position n <input type="range" class="n" min="0" max="4096" step="1"></label>
      <input type="number" class="nn" min="0" max="${MAXPOS}" step="1" aria-label="key position n">
      <button type="button" class="ndec" aria-label="n minus 1">−1</button><button type="button" class="ninc" aria-label="n plus 1">+1</button></div>
    <div class="row"><button type="button" class="play">Play</button>
      <label>speed <input type="range" class="speed" min="0.25" max="32" step="0.25"></label><output class="speedv"></output></div>
    <div class="with-formula formula-below"><div class="figs"><canvas class="circles" role="img" tabindex="0" aria-label="rotation circles"></canvas><p class="figure-note scale-note"></p></div></div>
    <div class="check" data-proof="rope-relative"><p>q·k from the API (pe.applyRope, then pe.similarity) for these q and k:</p>
      <table class="checks" data-after-predict><tbody></tbody></table>
      <p data-after-predict>A shift of both keeps the score; the opposite offset or other content changes it.</p></div>`;

const clampPos = (x) => Math.max(0, Math.min(MAXPOS, Math.round(x)));

/** The view's one state object: the shell's ctx and section, its elements, and what lives between
 * updates (the state drawn, Play's timer, the circles' layout, the caches). */
function createRotation(el, ctx) {
  const v = shell(el, 'Rotation: query at m, key at n', INTRO);
  v.body.innerHTML = MARKUP;
  const $ = (sel) => v.body.querySelector(sel);
  return {
    ctx,
    v,
    $,
    canvas: $('canvas'),
    formula: createFormula($('.with-formula')),
    check: $('.check'),
    scaleNote: $('.scale-note'),
    play: $('.play'),
    st: null,
    layout: null, // { pairs, perRow, W, cellH } of the last drawing: which circle is where
    sel: 0, // the circle the formula follows (pointer, or ←/→ on the focused picture)
    raf: 0,
    frac: 0, // fractional part of the position while playing, so the spin is smooth
    exported: null,
    freqs: { pe: null, key: '', invFreq: null },
    /** q and k (rows 0 and 1 of one draw), per dim: the same vectors in the circles and the check. */
    content: { pe: null, d: 0, qk: null },
    checked: {}, // the API, positions and settings of the check line shown
  };
}

/** The formula panel for the selected circle's pair. */
function fill(s) {
  const { st, layout, formula } = s;
  if (!st || !layout) return formula.clear();
  s.sel = Math.max(0, Math.min(layout.pairs.length - 1, s.sel));
  try {
    formula.set(
      rotationFormula(s.ctx.pe, st, layout.pairs[s.sel]),
      'Point at a circle (or focus the picture and use ←/→) to pick a pair.',
    );
  } catch (e) {
    formula.clear(e.message);
  }
}

/** Select the circle under the pointer. */
function point(s, e) {
  const { layout } = s;
  if (!layout) return;
  const b = s.canvas.getBoundingClientRect();
  const col = Math.floor((e.clientX - b.left) / (layout.W / layout.perRow));
  const row = Math.floor((e.clientY - b.top) / layout.cellH);
  const k = row * layout.perRow + Math.max(0, Math.min(layout.perRow - 1, col));
  if (k !== s.sel && k >= 0 && k < layout.pairs.length) {
    s.sel = k;
    fill(s);
  }
}

function wirePicture(s) {
  const { canvas } = s;
  // A tap sends pointerdown but no pointermove: both pick the circle under the finger.
  canvas.addEventListener('pointerdown', (e) => point(s, e));
  canvas.addEventListener('pointermove', (e) => point(s, e));
  canvas.addEventListener('keydown', (e) => {
    const d = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
    if (!d || !s.layout) return;
    e.preventDefault();
    s.sel = Math.max(0, Math.min(s.layout.pairs.length - 1, s.sel + d));
    fill(s);
  });
}

/** Play: m and n advance together, continuously, or a step a second under reduced motion. */
function startPlay(s) {
  const { ctx } = s;
  s.play.textContent = 'Pause';
  if (ctx.reducedMotion) {
    // Reduced motion: discrete steps a second apart instead of continuous spinning.
    s.raf = setInterval(() => ctx.setState({ pos: clampPos(s.st.pos + 1), kpos: clampPos(s.st.kpos + 1) }), 1000);
    return;
  }
  let t0 = null;
  const m0 = s.st.pos,
    n0 = s.st.kpos;
  const tick = (t) => {
    if (t0 === null) t0 = t;
    const moved = ((t - t0) / 1000) * s.st.speed;
    const whole = Math.floor(moved);
    s.frac = moved - whole;
    ctx.setState({ pos: clampPos(m0 + whole), kpos: clampPos(n0 + whole) });
    s.raf = requestAnimationFrame(tick);
  };
  s.raf = requestAnimationFrame(tick);
}

function stop(s) {
  const playing = s.raf !== 0;
  if (s.ctx.reducedMotion) clearInterval(s.raf);
  else cancelAnimationFrame(s.raf);
  s.raf = 0;
  s.frac = 0;
  s.play.textContent = 'Play';
  // a redraw at the whole positions, only after a Play (destroy() also calls stop(): a state
  // change there would drop the height the shell holds when the wasm arrives)
  if (s.st && playing) s.ctx.setState({});
}

/** The positions (sliders, number fields, ±1 buttons), the speed and Play. */
function wireControls(s) {
  const { ctx, $, play } = s;
  const setM = (x) => ctx.setState({ pos: clampPos(x) });
  const setN = (x) => ctx.setState({ kpos: clampPos(x) });
  $('.m').addEventListener('input', (e) => setM(Number(e.target.value)));
  $('.n').addEventListener('input', (e) => setN(Number(e.target.value)));
  $('.mn').addEventListener('change', (e) => setM(Number(e.target.value)));
  $('.nn').addEventListener('change', (e) => setN(Number(e.target.value)));
  $('.mdec').addEventListener('click', () => setM(s.st.pos - 1));
  $('.minc').addEventListener('click', () => setM(s.st.pos + 1));
  $('.ndec').addEventListener('click', () => setN(s.st.kpos - 1));
  $('.ninc').addEventListener('click', () => setN(s.st.kpos + 1));
  $('.speed').addEventListener('input', (e) => ctx.setState({ speed: Number(e.target.value) }));
  play.addEventListener('click', () => (s.raf ? stop(s) : startPlay(s)));
  if (ctx.reducedMotion) play.title = 'Your system asks for reduced motion: Play steps once a second';
}

/** The controls follow the state (not the one being edited). */
function showControls(s) {
  const { st, $ } = s;
  const set = (sel, val) => {
    const e = $(sel);
    if (document.activeElement !== e && e.value !== String(val)) e.value = String(val);
  };
  set('.m', Math.min(st.pos, 4096));
  set('.n', Math.min(st.kpos, 4096));
  set('.mn', st.pos);
  set('.nn', st.kpos);
  set('.speed', st.speed);
  $('.speedv').textContent = `${st.speed} positions/s (pair 0 turns ${deg(st.speed)} per second)`;
}

function contentOf(s, pe, d) {
  const { content } = s;
  if (content.pe !== pe || content.d !== d)
    Object.assign(content, { pe, d, qk: pe.learnedInit({ length: 2, dim: d, std: 1, seed: SEED }) });
  return content.qk;
}

/** An arrow from (cx, cy) of length len at angle a: dashed (before the turn) or solid with a dot. */
function arrow(g, cx, cy, len, a, col, dashed) {
  const x = cx + len * Math.cos(a),
    y = cy - len * Math.sin(a);
  g.strokeStyle = col;
  g.fillStyle = col;
  g.lineWidth = dashed ? 1.5 : 2.5;
  g.setLineDash(dashed ? [4, 3] : []);
  g.beginPath();
  g.moveTo(cx, cy);
  g.lineTo(x, y);
  g.stroke();
  g.setLineDash([]);
  if (!dashed) {
    g.beginPath();
    g.arc(x, y, 4.5, 0, TAU);
    g.fill();
  }
  return [x, y];
}

/** Pair i's angles from the API's cos/sin at m and n and the content q, k: the content angles
 * φq, φk, the turned angles, the angle between them and the pair's share of q·k. */
function pairAngles(p, i) {
  const { st, d, qk, cq, ck } = p;
  // cos/sin may carry an attention scale (YaRN); the turn is their direction.
  const turnOf = (c) => Math.atan2(c.sin[i], c.cos[i]);
  const [a0, a1] = pairAt(st.rope, d, i);
  // pair i as the complex number x[a0] + i·x[a1]: its length and content angle φ
  const polar = (row) => [
    Math.hypot(qk[row * d + a0], qk[row * d + a1]),
    Math.atan2(qk[row * d + a1], qk[row * d + a0]),
  ];
  const [lq, fq] = polar(0),
    [lk, fk] = polar(1);
  const tq = fq + turnOf(cq),
    tk = fk + turnOf(ck);
  const diff = wrap(tk - tq);
  return { lq, fq, lk, fk, tq, tk, diff, share: lq * lk * Math.cos(diff) };
}

/** One circle: pair i's q and k before and after the turn, the angle between them, its numbers. */
function drawCircle(p, i, idx) {
  const { g, theme, qc, kc, W, perRow, R, cellH, invFreq } = p;
  const cx = (W / perRow) * ((idx % perRow) + 0.5);
  const cy = R + 14 + cellH * Math.floor(idx / perRow);
  const { lq, fq, lk, fk, tq, tk, diff, share } = pairAngles(p, i);
  const unit = R / Math.max(lq, lk, 1e-12); // lengths to scale within each circle
  g.strokeStyle = theme.line;
  g.lineWidth = 1;
  g.beginPath();
  g.arc(cx, cy, R, 0, TAU);
  g.stroke();
  g.beginPath();
  g.moveTo(cx - R, cy);
  g.lineTo(cx + R, cy);
  g.moveTo(cx, cy - R);
  g.lineTo(cx, cy + R);
  g.stroke();
  // the angle between them, as an arc
  g.strokeStyle = theme.muted;
  g.lineWidth = 2;
  g.beginPath();
  g.arc(cx, cy, R * 0.3, -tq, -(tq + diff), diff > 0);
  g.stroke();
  arrow(g, cx, cy, lq * unit, fq, qc, true);
  arrow(g, cx, cy, lk * unit, fk, kc, true);
  for (const [len, a, col, lab] of [
    [lq, tq, qc, 'q'],
    [lk, tk, kc, 'k'],
  ]) {
    const [x, y] = arrow(g, cx, cy, len * unit, a, col, false);
    g.font = '600 12px system-ui, sans-serif';
    g.fillText(lab, x + 10 * Math.cos(a), y - 10 * Math.sin(a) + 4);
  }
  g.font = '12px system-ui, sans-serif';
  g.fillStyle = theme.ink;
  g.fillText(`pair ${i}, ω = ${fmt(invFreq[i])}`, cx, cy + R + 26);
  g.fillStyle = qc;
  g.fillText(`q: ${deg(turn(fq))} → ${deg(turn(tq))}`, cx, cy + R + 42);
  g.fillStyle = kc;
  g.fillText(`k: ${deg(turn(fk))} → ${deg(turn(tk))}`, cx, cy + R + 58);
  g.fillStyle = theme.ink;
  g.fillText(`between: Δ = ${deg(diff)}`, cx, cy + R + 74);
  g.fillText(`qᵢ·kᵢ = ${signed(share, 3)}`, cx, cy + R + 90);
  return [tq, tk, diff, share];
}

function draw(s) {
  const { st, freqs, canvas } = s;
  const pe = s.ctx.pe;
  const theme = readTheme(s.v.section);
  const m = st.pos + s.frac,
    n = st.kpos + s.frac;
  const ro = ropeOptions(st);
  // Play redraws every frame at new positions; the frequencies change only with the settings.
  const key = JSON.stringify(ro);
  if (freqs.pe !== pe || freqs.key !== key) Object.assign(freqs, { pe, key, invFreq: pe.ropeFrequencies(ro).invFreq });
  const { invFreq } = freqs;
  const cq = pe.ropeCache({ length: 1, offset: m, ...ro });
  const ck = pe.ropeCache({ length: 1, offset: n, ...ro });
  const d = st.dim;
  const qk = contentOf(s, pe, d);
  const half = cq.cos.length;
  const pairs = spread(half);
  const { g, W, perRow, R, cellH } = circlesCanvas(canvas, pairs.length, theme);
  const qc = theme.series[0],
    kc = theme.series[1];
  s.layout = { pairs, perRow, W, cellH };
  s.exported = rotationExport(pairs);
  const p = { g, theme, qc, kc, W, perRow, R, cellH, invFreq, st, d, qk, cq, ck };
  pairs.forEach((i, idx) => {
    for (const [k, y] of drawCircle(p, i, idx).entries()) s.exported.series[k].y.push(y);
  });
  canvas.setAttribute(
    'aria-label',
    `pairs ${pairs.join(', ')} of two different vectors, query q at ${st.pos}, key k at ${st.kpos}: each ` +
      `pair turned by its position times its frequency; the angle between q and k and the pair's share of ` +
      `q·k under each circle`,
  );
  const scale = cq.attentionScale ?? 1;
  s.scaleNote.textContent = `Dashed: q and k before the turn (their content); solid: turned. Lengths are to scale within each circle.${
    scale !== 1
      ? ` The ${st.scaling} scaling also multiplies cos and sin by ${scale.toFixed(4)}; the circles show the turn only.`
      : ''
  }`;
}

/** The score from the API (pe.applyRope, pe.similarity) of q at mq and k at nk; kRow picks the key. */
function score(s, pe, mq, nk, kRow = 1) {
  const { st } = s;
  const d = st.dim;
  const qk = contentOf(s, pe, d);
  const x = new Float32Array(2 * d);
  x.set(qk.subarray(0, d), 0);
  x.set(qk.subarray(kRow * d, (kRow + 1) * d), d);
  pe.applyRope(x, {
    length: 2,
    heads: 1,
    dim: d,
    layout: st.rope,
    positions: Int32Array.of(mq, nk),
    ...ropeOptions(st),
  });
  return pe.similarity(x, { length: 2, dim: d })[1];
}

/** The check's table: one row per case, the number in a fixed-width cell, so the rows wrap the same
 * way whatever the numbers (and before the wasm, with the stand-in's). */
function checkRows(st, { a, b, swapped, self }) {
  const e = (x) => x.toExponential(2).replace('-', '−');
  const off = st.kpos - st.pos;
  const minus = (x) => String(x).replace('-', '−');
  const rows = [
    [`q at m = ${st.pos}, k at n = ${st.kpos} (n − m = ${minus(off)})`, signed(a, 6)],
    [`both moved by +${SHIFT}`, signed(b, 6)],
    ['difference (float32 rounding only)', e(Math.abs(a - b))],
    [`swapped: q at ${st.kpos}, k at ${st.pos} (n − m = ${minus(-off)})`, signed(swapped, 6)],
    [`k replaced by q itself, same m and n`, signed(self, 6)],
  ];
  return rows.map(([what, x]) => {
    const tr = document.createElement('tr');
    tr.append(
      Object.assign(document.createElement('td'), { textContent: what }),
      Object.assign(document.createElement('td'), { textContent: x }),
    );
    return tr;
  });
}

function relativeCheck(s) {
  const { st, check } = s;
  const pe = s.ctx.pe;
  const key = JSON.stringify([st.pos, st.kpos, st.dim, st.rope, ropeOptions(st)]);
  if (s.checked.key === key && s.checked.pe === pe) return;
  s.checked = { key, pe };
  const a = score(s, pe, st.pos, st.kpos);
  const b = score(s, pe, st.pos + SHIFT, st.kpos + SHIFT);
  const swapped = score(s, pe, st.kpos, st.pos); // offset m − n instead of n − m
  // The same query with the query's own vector as key: content changes the score at the same offset.
  const self = score(s, pe, st.pos, st.kpos, 0);
  Object.assign(check.dataset, {
    diff: String(Math.abs(a - b)),
    score: String(a),
    swapped: String(swapped),
    m: String(st.pos),
    n: String(st.kpos),
  });
  check.querySelector('tbody').replaceChildren(...checkRows(st, { a, b, swapped, self }));
}

function update(s, st) {
  const { v, formula } = s;
  s.st = st;
  v.clear();
  showControls(s);
  s.layout = null;
  v.guard(() => draw(s), 'circles');
  // while playing, the formula keeps up at most with whole positions (not every frame)
  if (!s.raf || s.frac === 0 || formula.el.dataset.m !== `${st.pos},${st.kpos}`) {
    fill(s);
    formula.el.dataset.m = `${st.pos},${st.kpos}`;
  }
  // The check follows the whole positions, during Play too (only when they change).
  v.guard(() => relativeCheck(s), 'relative check');
}

function figure(s, { scale = 2 } = {}) {
  const { canvas, st } = s;
  const W = canvas.clientWidth || 640,
    H = canvas.clientHeight || 300;
  const g = exportCanvas(W, H + 30, {
    scale,
    theme: readTheme(s.v.section),
    title: `RoPE rotation: query at m = ${st.pos}, key at n = ${st.kpos}`,
  });
  g.drawImage(canvas, 0, 30, W, H);
  return g.canvas;
}

export function setupRotation(el, ctx) {
  const s = createRotation(el, ctx);
  wirePicture(s);
  wireControls(s);
  return {
    update: (st) => update(s, st),
    exportData: () => s.exported,
    figure: (o) => figure(s, o),
    canvas: () => s.canvas,
    destroy: () => stop(s),
  };
}
