// Rotation circles: RoPE turns pair i of a query at position m by m·ωᵢ and of a key at position n by
// n·ωᵢ. Every circle shows both vectors, their angles and the angle between them, (n − m)·ωᵢ, which
// is all the score sees. Play moves m and n together: both vectors spin, the angle between stays.
// Below, the relative-offset check, live: moving both by the same shift leaves q·k unchanged.
import { exportCanvas, fmt, signed, spread } from '../draw.js';
import { need } from '../methods.js';
import { ropeOptions } from '../state.js';
import { readTheme } from '../theme.js';
import { shell } from './common.js';
import { createFormula, rotationFormula } from '../formula.js';

const SHIFT = 1000;
const MAXPOS = 100000;
const deg = (r) => `${((r * 180) / Math.PI).toFixed(1)}°`;
const wrap = (a) => ((a % (2 * Math.PI)) + 3 * Math.PI) % (2 * Math.PI) - Math.PI; // to (−π, π]

export function setupRotation(el, ctx) {
  const v = shell(el, 'Rotation: query at m, key at n',
    'RoPE rotates pair i of the query by m·ωᵢ and of the key by n·ωᵢ. The score q·k only sees the angle between them, (n − m)·ωᵢ. Move m and n (steps of 1, or type a position), or press Play: both move together, both vectors spin, the angle between them stays the same.');
  v.body.innerHTML = `<div class="row">
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
    <p class="check" data-proof="rope-relative"></p>`;
  const $ = (s) => v.body.querySelector(s);
  const canvas = $('canvas');
  const formula = createFormula($('.with-formula'));
  let layout = null; // { pairs, perRow, W, cellH } of the last drawing: which circle is where
  let sel = 0; // the circle the formula follows (pointer, or ←/→ on the focused picture)
  const fill = () => {
    if (!st || !layout) return formula.clear();
    sel = Math.max(0, Math.min(layout.pairs.length - 1, sel));
    try {
      formula.set(rotationFormula(ctx.pe, st, layout.pairs[sel]), 'Point at a circle (or focus the picture and use ←/→) to pick a pair.');
    } catch (e) {
      formula.clear(e.message);
    }
  };
  canvas.addEventListener('pointermove', (e) => {
    if (!layout) return;
    const b = canvas.getBoundingClientRect();
    const col = Math.floor((e.clientX - b.left) / (layout.W / layout.perRow));
    const row = Math.floor((e.clientY - b.top) / layout.cellH);
    const k = row * layout.perRow + Math.max(0, Math.min(layout.perRow - 1, col));
    if (k !== sel && k >= 0 && k < layout.pairs.length) {
      sel = k;
      fill();
    }
  });
  canvas.addEventListener('keydown', (e) => {
    const d = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
    if (!d || !layout) return;
    e.preventDefault();
    sel = Math.max(0, Math.min(layout.pairs.length - 1, sel + d));
    fill();
  });
  const check = $('.check');
  const scaleNote = $('.scale-note');
  const play = $('.play');
  let st = null;
  let raf = 0;
  let frac = 0; // fractional part of the position while playing, so the spin is smooth
  let exported = null;
  const clampPos = (x) => Math.max(0, Math.min(MAXPOS, Math.round(x)));
  const setM = (x) => ctx.setState({ pos: clampPos(x) });
  const setN = (x) => ctx.setState({ kpos: clampPos(x) });
  $('.m').addEventListener('input', (e) => setM(Number(e.target.value)));
  $('.n').addEventListener('input', (e) => setN(Number(e.target.value)));
  $('.mn').addEventListener('change', (e) => setM(Number(e.target.value)));
  $('.nn').addEventListener('change', (e) => setN(Number(e.target.value)));
  $('.mdec').addEventListener('click', () => setM(st.pos - 1));
  $('.minc').addEventListener('click', () => setM(st.pos + 1));
  $('.ndec').addEventListener('click', () => setN(st.kpos - 1));
  $('.ninc').addEventListener('click', () => setN(st.kpos + 1));
  $('.speed').addEventListener('input', (e) => ctx.setState({ speed: Number(e.target.value) }));
  play.addEventListener('click', () => {
    if (raf) return stop();
    play.textContent = 'Pause';
    if (ctx.reducedMotion) {
      // Reduced motion: discrete steps a second apart instead of continuous spinning.
      raf = setInterval(() => ctx.setState({ pos: clampPos(st.pos + 1), kpos: clampPos(st.kpos + 1) }), 1000);
      return;
    }
    let t0 = null, m0 = st.pos, n0 = st.kpos;
    const tick = (t) => {
      if (t0 === null) t0 = t;
      const moved = ((t - t0) / 1000) * st.speed;
      const whole = Math.floor(moved);
      frac = moved - whole;
      ctx.setState({ pos: clampPos(m0 + whole), kpos: clampPos(n0 + whole) });
      raf = requestAnimationFrame(tick);
    };
    raf = requestAnimationFrame(tick);
  });
  function stop() {
    if (ctx.reducedMotion) clearInterval(raf);
    else cancelAnimationFrame(raf);
    raf = 0;
    frac = 0;
    play.textContent = 'Play';
    if (st) ctx.setState({});
  }
  if (ctx.reducedMotion) play.title = 'Your system asks for reduced motion: Play steps once a second';

  function controls() {
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

  const freqs = { pe: null, key: '', invFreq: null };
  function draw() {
    const pe = ctx.pe;
    need(pe, 'ropeCache', 'ropeFrequencies');
    const theme = readTheme(v.section);
    const m = st.pos + frac, n = st.kpos + frac;
    const ro = ropeOptions(st);
    // Play redraws every frame at new positions; the frequencies change only with the settings.
    const key = JSON.stringify(ro);
    if (freqs.pe !== pe || freqs.key !== key) Object.assign(freqs, { pe, key, invFreq: pe.ropeFrequencies(ro).invFreq });
    const { invFreq } = freqs;
    const cq = pe.ropeCache({ length: 1, offset: m, ...ro });
    const ck = pe.ropeCache({ length: 1, offset: n, ...ro });
    const half = cq.cos.length;
    const pairs = spread(half);
    const dpr = Math.min(2, window.devicePixelRatio || 1);
    const W = Math.max(280, canvas.clientWidth || 640);
    // Narrow screens wrap the circles onto several rows so each stays readable.
    const perRow = Math.min(pairs.length, Math.max(2, Math.floor(W / 150)));
    const rowsN = Math.ceil(pairs.length / perRow);
    const R = Math.min(66, W / perRow / 2 - 14);
    const cellH = 2 * R + 92;
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
    const qc = theme.series[0], kc = theme.series[1];
    layout = { pairs, perRow, W, cellH };
    exported = { kind: 'series', name: 'rotation', xLabel: 'pair', series: [{ label: 'θ(m) rad', x: pairs, y: [] }, { label: 'θ(n) rad', x: pairs, y: [] }, { label: 'θ(n) − θ(m) rad', x: pairs, y: [] }] };
    pairs.forEach((i, k) => {
      const cx = (W / perRow) * ((k % perRow) + 0.5);
      const cy = R + 14 + cellH * Math.floor(k / perRow);
      // cos/sin may carry an attention scale (YaRN); the direction is what turns.
      const dir = (c) => {
        const x = c.cos[i], y = c.sin[i], h = Math.hypot(x, y) || 1;
        return [x / h, y / h];
      };
      const [qx, qy] = dir(cq), [kx, ky] = dir(ck);
      const aq = Math.atan2(qy, qx), ak = Math.atan2(ky, kx);
      const diff = wrap(ak - aq);
      g.strokeStyle = theme.line; g.lineWidth = 1;
      g.beginPath(); g.arc(cx, cy, R, 0, 2 * Math.PI); g.stroke();
      g.beginPath(); g.moveTo(cx - R, cy); g.lineTo(cx + R, cy); g.moveTo(cx, cy - R); g.lineTo(cx, cy + R); g.stroke();
      // the angle between them, as an arc
      g.strokeStyle = theme.muted; g.lineWidth = 2;
      g.beginPath(); g.arc(cx, cy, R * 0.35, -aq, -(aq + diff), diff > 0); g.stroke();
      for (const [x, y, col, lab] of [[qx, qy, qc, 'q'], [kx, ky, kc, 'k']]) {
        g.strokeStyle = col; g.fillStyle = col; g.lineWidth = 2.5;
        g.beginPath(); g.moveTo(cx, cy); g.lineTo(cx + R * x, cy - R * y); g.stroke();
        g.beginPath(); g.arc(cx + R * x, cy - R * y, 4.5, 0, 2 * Math.PI); g.fill();
        g.font = '600 12px system-ui, sans-serif';
        g.fillText(lab, cx + (R + 10) * x, cy - (R + 10) * y + 4);
      }
      g.font = '12px system-ui, sans-serif';
      g.fillStyle = theme.ink;
      g.fillText(`pair ${i}, ω = ${fmt(invFreq[i])}`, cx, cy + R + 20);
      g.fillStyle = qc; g.fillText(`θ(m) = ${deg(aq < 0 ? aq + 2 * Math.PI : aq)}`, cx, cy + R + 36);
      g.fillStyle = kc; g.fillText(`θ(n) = ${deg(ak < 0 ? ak + 2 * Math.PI : ak)}`, cx, cy + R + 52);
      g.fillStyle = theme.ink; g.fillText(`between: ${deg(diff)}`, cx, cy + R + 68);
      exported.series[0].y.push(aq); exported.series[1].y.push(ak); exported.series[2].y.push(diff);
    });
    canvas.setAttribute('aria-label', `rotation of pairs ${pairs.join(', ')}: query at ${st.pos}, key at ${st.kpos}`);
    const scale = cq.attentionScale ?? 1;
    scaleNote.textContent = scale !== 1 ? `The ${st.scaling} scaling also multiplies cos and sin by ${scale.toFixed(4)}; the circles show the direction only (unit length).` : '';
  }

  function relativeCheck() {
    const pe = ctx.pe;
    need(pe, 'applyRope', 'similarity', 'learnedInit');
    const d = st.dim;
    const qk = pe.learnedInit({ length: 2, dim: d, std: 1, seed: 7 });
    const score = (shift) => {
      const x = qk.slice();
      pe.applyRope(x, { length: 2, heads: 1, dim: d, layout: st.rope, positions: Int32Array.of(st.pos + shift, st.kpos + shift), ...ropeOptions(st) });
      return pe.similarity(x, { length: 2, dim: d })[1];
    };
    const a = score(0);
    const b = score(SHIFT);
    check.dataset.diff = String(Math.abs(a - b));
    // Fixed-width figures (signed(): − and + are one width): the line wraps the same way whatever
    // the numbers.
    check.textContent = `Relative-offset check: q at m = ${st.pos}, k at n = ${st.kpos} → q·k = ${signed(a, 6)}; both moved by +${SHIFT} → ${signed(b, 6)}; difference ${Math.abs(a - b).toExponential(2).replace('-', '−')} (float32 rounding only).`;
  }

  return {
    update(s) {
      st = s;
      v.clear();
      controls();
      layout = null;
      v.guard(draw, 'circles');
      // while playing, the formula keeps up at most with whole positions (not every frame)
      if (!raf || frac === 0 || formula.el.dataset.m !== `${st.pos},${st.kpos}`) {
        fill();
        formula.el.dataset.m = `${st.pos},${st.kpos}`;
      }
      if (!raf || frac === 0) v.guard(relativeCheck, 'relative check');
    },
    exportData: () => exported,
    figure: ({ scale = 2 } = {}) => {
      const W = canvas.clientWidth || 640, H = canvas.clientHeight || 300;
      const g = exportCanvas(W, H + 30, { scale, theme: readTheme(v.section), title: `RoPE rotation: query at m = ${st.pos}, key at n = ${st.kpos}` });
      g.drawImage(canvas, 0, 30, W, H);
      return g.canvas;
    },
    canvas: () => canvas,
    destroy: stop,
  };
}
