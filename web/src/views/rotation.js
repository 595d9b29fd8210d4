// Rotation circles: each RoPE pair is a point on a circle turning by ωᵢ per position. Below, the
// relative-offset check, live: moving both q and k by the same shift leaves q·k unchanged.
import { LINE_COLOURS } from '../palette.js';
import { fmt } from '../draw.js';
import { need } from '../methods.js';
import { ropeOptions } from '../state.js';
import { spread } from './waves.js';
import { shell } from './common.js';

const SHIFT = 1000;
const TRAIL = 12;

export function setupRotation(el, ctx) {
  const v = shell(el, 'Rotation circles',
    'RoPE rotates pair i of a query or key by θᵢ = p·ωᵢ. Fast pairs spin, slow pairs barely move. Drag the position or press Play (with reduced motion on, Play steps once a second instead of spinning).');
  v.body.innerHTML = `<div class="row"><label>position <input type="range" class="pos" min="0" max="4096" step="1"></label>
    <output class="posv"></output><button type="button" class="play">Play</button></div>
    <canvas class="circles" role="img" aria-label="rotation circles"></canvas>
    <p class="check" data-proof="rope-relative"></p>`;
  const slider = v.body.querySelector('.pos');
  const out = v.body.querySelector('.posv');
  const play = v.body.querySelector('.play');
  const canvas = v.body.querySelector('canvas');
  const check = v.body.querySelector('.check');
  let st = null;
  let raf = 0;
  let exported = null;
  slider.addEventListener('input', () => ctx.setState({ pos: Number(slider.value) }));
  play.addEventListener('click', () => {
    if (raf) return stop();
    play.textContent = 'Pause';
    if (ctx.reducedMotion) {
      // Reduced motion: discrete steps a second apart instead of continuous spinning.
      raf = setInterval(() => ctx.setState({ pos: (st.pos + 1) % 4097 }), 1000);
      return;
    }
    const tick = () => {
      ctx.setState({ pos: (st.pos + 1) % 4097 });
      raf = requestAnimationFrame(tick);
    };
    raf = requestAnimationFrame(tick);
  });
  function stop() {
    if (ctx.reducedMotion) clearInterval(raf);
    else cancelAnimationFrame(raf);
    raf = 0;
    play.textContent = 'Play';
  }
  if (ctx.reducedMotion) play.title = 'Your system asks for reduced motion: Play steps once a second';

  function draw() {
    const pe = ctx.pe;
    need(pe, 'ropeCache', 'ropeFrequencies');
    const p = st.pos;
    slider.value = String(p);
    out.textContent = String(p);
    const ro = ropeOptions(st);
    const { invFreq } = pe.ropeFrequencies(ro);
    const start = Math.max(0, p - TRAIL);
    const n = p - start + 1;
    const { cos, sin } = pe.ropeCache({ length: n, offset: start, ...ro });
    const half = cos.length / n;
    const pairs = spread(half);
    const dpr = Math.min(2, window.devicePixelRatio || 1);
    const W = Math.max(300, canvas.clientWidth || 640);
    // Narrow screens wrap the circles onto several rows so each stays readable.
    const perRow = Math.min(pairs.length, Math.max(2, Math.floor(W / 130)));
    const rowsN = Math.ceil(pairs.length / perRow);
    const R = Math.min(70, W / perRow / 2 - 16);
    const cellH = 2 * R + 62;
    const H = cellH * rowsN + 8;
    canvas.width = W * dpr;
    canvas.height = H * dpr;
    canvas.style.height = `${H}px`;
    const g = canvas.getContext('2d');
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.fillStyle = '#fff';
    g.fillRect(0, 0, W, H);
    g.font = '12px system-ui, sans-serif';
    g.textAlign = 'center';
    exported = { kind: 'series', name: 'rotation', xLabel: 'pair', series: [] };
    pairs.forEach((i, k) => {
      const cx = (W / perRow) * ((k % perRow) + 0.5);
      const cy = R + 12 + cellH * Math.floor(k / perRow);
      const col = LINE_COLOURS[k % LINE_COLOURS.length];
      g.strokeStyle = '#bbb';
      g.lineWidth = 1;
      g.beginPath(); g.arc(cx, cy, R, 0, 2 * Math.PI); g.stroke();
      // cos/sin may carry an attention scale (YaRN); the direction is what turns.
      const norm = (r) => Math.hypot(cos[r * half + i], sin[r * half + i]) || 1;
      for (let r = 0; r < n; r++) {
        const c = cos[r * half + i] / norm(r), s = sin[r * half + i] / norm(r);
        g.fillStyle = col;
        g.globalAlpha = r === n - 1 ? 1 : 0.15 + (0.5 * r) / n;
        g.beginPath(); g.arc(cx + R * c, cy - R * s, r === n - 1 ? 5 : 3, 0, 2 * Math.PI); g.fill();
      }
      g.globalAlpha = 1;
      const c = cos[(n - 1) * half + i] / norm(n - 1), s = sin[(n - 1) * half + i] / norm(n - 1);
      g.strokeStyle = col; g.lineWidth = 2;
      g.beginPath(); g.moveTo(cx, cy); g.lineTo(cx + R * c, cy - R * s); g.stroke();
      g.fillStyle = '#222';
      g.fillText(`pair ${i}`, cx, cy + R + 18);
      g.fillStyle = '#555';
      g.fillText(`ω = ${fmt(invFreq[i])}`, cx, cy + R + 34);
      exported.series.push({ label: `pair ${i}`, x: [p], y: [Math.atan2(s, c)] });
    });
    canvas.setAttribute('aria-label', `rotation of pairs ${pairs.join(', ')} at position ${p}`);
  }

  function relativeCheck() {
    const pe = ctx.pe;
    need(pe, 'applyRope', 'similarity', 'learnedInit');
    const d = st.dim;
    const qk = pe.learnedInit({ length: 2, dim: d, std: 1, seed: 7 });
    const score = (offset) => {
      // q in row 0, k in row 3: positions offset and offset + 3.
      const x = new Float32Array(4 * d);
      x.set(qk.subarray(0, d), 0);
      x.set(qk.subarray(d, 2 * d), 3 * d);
      pe.applyRope(x, { length: 4, heads: 1, dim: d, layout: st.rope, offset, ...ropeOptions(st) });
      return pe.similarity(x, { length: 4, dim: d })[3];
    };
    const a = score(st.pos);
    const b = score(st.pos + SHIFT);
    check.dataset.diff = String(Math.abs(a - b));
    check.textContent = `Relative-offset check: q at ${st.pos}, k at ${st.pos + 3} → q·k = ${a.toFixed(6)}; both moved by +${SHIFT} → ${b.toFixed(6)}; difference ${Math.abs(a - b).toExponential(2)} (float32 rounding only).`;
  }

  return {
    update(s) {
      st = s;
      v.clear();
      v.guard(draw, 'circles');
      v.guard(relativeCheck, 'relative check');
    },
    exportData: () => exported,
    canvas: () => canvas,
    destroy: stop,
  };
}
