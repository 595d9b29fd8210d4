// Waves: a few chosen dimensions over position (absolute methods), or the bias as a function of
// distance (relative methods). Curves are sampled at fractional positions (the API takes them), so a
// fast pair is drawn as the smooth wave it is, reaching ±1, instead of a zig-zag through integers.
import { createPlot, spread, stackFigures, widthOf } from '../draw.js';
import { MATRIX_CAP, METHODS, t5Config, t5Opts } from '../methods.js';
import { ropeOptions } from '../state.js';
import { plotExport, shell } from './common.js';
import { createFormula, curveFormula } from '../formula.js';

/** Sub-steps per position so that the curve has about two samples per pixel (1 = integers only). */
function subSteps(length, px = 900) {
  return Math.max(1, Math.min(16, Math.ceil((2 * px) / length)));
}

/**
 * Columns `cols` of a [rows][width] table sampled at positions k/s + r (r = 0..L-1, k = 0..s-1),
 * interleaved into one series per column: fill(offset, out) writes the table starting at `offset`.
 */
function sampled(L, s, width, cols, fill) {
  const ys = cols.map(() => new Float32Array(L * s));
  for (let k = 0; k < s; k++) {
    const t = fill(k / s);
    for (let r = 0; r < L; r++) cols.forEach((c, j) => (ys[j][r * s + k] = t[r * width + c]));
  }
  return ys;
}

export function setupWaves(el, ctx) {
  const v = shell(
    el,
    'Waves',
    'A few dimensions followed along position: each pair of a sinusoidal table or RoPE turns at its own speed ω<sub>i</sub> = base<sup>−2i/d</sup>, from one turn every 2π positions down to one every 2π·base<sup>(d−2)/d</sup> for the slowest pair (≈ 2π·7499 at d = 64, base 10000; <a href="https://arxiv.org/abs/1706.03762">Vaswani et al. 2017</a> round this to 10000·2π). Point at a plot (or focus it and use ←/→) to read the values.',
  );
  v.body.classList.add('with-formula');
  const figs = document.createElement('div');
  figs.className = 'figs';
  v.body.append(figs);
  const plot = createPlot(figs, { height: 300 });
  // RoPE only: what a scaling does to each pair, against the context the model was trained on
  const waves = createPlot(figs, { height: 240 });
  const formula = createFormula(v.body);
  let cur = null; // { st, method } drawn, and the curve the formula follows
  let sel = 0;
  const fill = (x, pts, yAt) => {
    if (!cur) return formula.clear();
    if (yAt !== null && pts?.length) {
      // the curve nearest the pointer (keyboard walks keep the last one)
      let best = Infinity;
      pts.forEach(([, y], k) => {
        const dist = Math.abs(y - yAt);
        if (dist < best) (best = dist), (sel = k);
      });
    }
    sel = Math.min(sel, Math.max(0, (pts?.length ?? 1) - 1));
    const px = pts?.[sel]?.[0] ?? x;
    try {
      formula.set(
        curveFormula(ctx.pe, cur.st, cur.method, sel, px, { pool: ctx.pool, spread }),
        'Point at a curve (or focus the plot and use ←/→): the formula follows the curve nearest the pointer.',
        { series: sel, x: px },
      );
    } catch (e) {
      formula.clear(e.message);
    }
  };
  plot.onCursor = fill;
  return {
    update(st) {
      v.clear();
      plot.setNote('');
      // set before drawing: a plot with a cursor on it refills the formula while it draws
      cur = { st: { ...st }, method: st.method };
      v.guard(() => {
        try {
          draw(ctx.pe, st, plot, widthOf(figs), ctx.pool);
        } catch (e) {
          cur = null;
          formula.clear();
          throw e;
        }
      }, st.method);
      waves.fig.hidden = st.method !== 'rope';
      if (st.method === 'rope') v.guard(() => drawWavelengths(ctx.pe, st, waves), 'wavelengths');
      // before any pointer: a default point (position 7, or 3 tokens back for relative methods)
      if (cur && !plot.hovered()) {
        const d = plot.data();
        const pts = d?.series.map((s) =>
          plot.sampleAt(s, !METHODS[st.method]?.table ? -3 : Math.min(st.length - 1, 7)),
        );
        fill(pts?.[0]?.[0] ?? 0, pts, null);
      }
    },
    exportData: () => plotExport(plot, 'waves'),
    figure: (o) => (waves.fig.hidden ? plot.figure(o) : stackFigures([plot.figure(o), waves.figure(o)], o)),
    svg: () => plot.svg(),
    canvas: () => plot.canvas,
  };
}

/** Sinusoidal: the sine of chosen pairs over position, sampled between positions. */
function drawSinusoidal(pe, st, plot, px, pool) {
  const L = st.length;
  const d = st.dim;
  const s = subSteps(L, px);
  // Column of the sine of pair i: 2i when interleaved, i when split.
  const pairs = spread(d / 2);
  const cols = pairs.map((i) => (st.layout === 'split' ? i : 2 * i));
  const buf = pool.f32('sin', L * d); // written in place in the wasm heap, never copied out
  const ys = sampled(
    L,
    s,
    d,
    cols,
    (o) => (pe.sinusoidal({ length: L, dim: d, base: st.base, layout: st.layout, offset: o, out: buf }), buf.array),
  );
  plot.setTitle(`Sinusoidal (${st.layout}): sine components over position`);
  plot.draw(
    ys.map((y, j) => ({ y, label: `dim ${cols[j]} (sin of pair ${pairs[j]})` })),
    { xLabel: 'position p (tokens)', yLabel: 'value', yRange: [-1.05, 1.05], dx: 1 / s },
  );
  if (s > 1)
    plot.setNote(
      `Sampled every 1/${s} of a position (pe.sinusoidal with a fractional offset); the table itself holds the integer positions.`,
    );
}

/** RoPE: cos θ of chosen pairs over position (the cache's, with any scaling and its attention scale). */
function drawRope(pe, st, plot, px, pool) {
  const L = st.length;
  const d = st.dim;
  const s = subSteps(L, px);
  const ro = ropeOptions(st);
  let scale = 1;
  const half = (ro.rotaryDim ?? d) / 2;
  const cb = pool.f32('ropeCos', L * half),
    sb = pool.f32('ropeSin', L * half);
  const pairs = spread(half);
  const ys = sampled(L, s, half, pairs, (o) => {
    const c = pe.ropeCache({ length: L, offset: o, ...ro, cos: cb, sin: sb });
    scale = c.attentionScale ?? 1;
    return cb.array;
  });
  plot.setTitle(`RoPE: cos θᵢ(p) of chosen pairs${st.scaling === 'none' ? '' : ` (${st.scaling} ×${st.factor})`}`);
  plot.draw(
    pairs.map((i, j) => ({ y: ys[j], label: `pair ${i}: cos θ${i}(p)` })),
    {
      xLabel: 'position p (tokens)',
      yLabel: scale !== 1 ? `cos θ × ${scale.toFixed(3)}` : 'cos θ',
      dx: 1 / s,
      yRange: [-1.05 * scale, 1.05 * scale],
      markers: st.scaling === 'none' ? [] : [{ x: st.train, label: `train length ${st.train}` }],
    },
  );
  const notes = [];
  if (scale !== 1)
    notes.push(
      `The ${st.scaling} attention scale ${scale.toFixed(4)} is folded into cos and sin (that is how the cache applies it), so the curves reach ±${scale.toFixed(3)}.`,
    );
  if (s > 1) notes.push(`Sampled every 1/${s} of a position (pe.ropeCache with a fractional offset).`);
  plot.setNote(notes.join(' '));
}

/** Learned: chosen dimensions of the table at initialisation, integer positions only. */
function drawLearned(pe, st, plot, px, pool) {
  const L = st.length;
  const d = st.dim;
  const t = pool.learned(L, d);
  const series = spread(d).map((c) => ({
    y: Float32Array.from({ length: L }, (_, r) => t[r * d + c]),
    label: `dim ${c}`,
  }));
  plot.setTitle('Learned table at initialisation: no structure until training puts it there');
  plot.draw(series, { xLabel: 'position p (tokens)', yLabel: 'value' });
  plot.setNote('A learned table has one row per integer position and nothing in between.');
}

/** ALiBi: the last query's bias against each key, one line per head. */
function drawAlibi(pe, st, plot, px, pool) {
  const L = st.length;
  const n = Math.min(L, MATRIX_CAP);
  // The last query's row for every head: one query at position n − 1 against keys 0..n−1.
  const b = pe.alibiBias({ heads: st.heads, queries: 1, keys: n, offset: n - 1, causal: true });
  const x = Float32Array.from({ length: n }, (_, j) => j - (n - 1));
  const series = [];
  const shown = Math.min(st.heads, 8);
  for (let h = 0; h < shown; h++)
    series.push({
      x,
      y: b.subarray(h * n, (h + 1) * n),
      label: `head ${h + 1}${h === Math.min(st.head, st.heads - 1) ? ' (head shown)' : ''}`,
      dash: h !== Math.min(st.head, st.heads - 1),
    });
  plot.setTitle(
    `ALiBi: bias of the last query against each key, heads 1–${shown} of ${st.heads} (a straight line of slope mₕ)`,
  );
  plot.draw(series, { xLabel: 'key − query (tokens)', yLabel: 'bias' });
}

/** T5: the bucket of each relative position, bidirectional and causal. */
function drawT5(pe, st, plot, px, pool) {
  const L = st.length;
  const R = Math.max(8, Math.min(L, 512));
  const x = Float32Array.from({ length: 2 * R + 1 }, (_, j) => j - R);
  const bi = t5Config(st, true),
    uni = t5Config(st, false);
  const yb = pe.t5Buckets({ queries: 1, keys: 2 * R + 1, offset: R, ...t5Opts(bi) });
  const yu = pe.t5Buckets({ queries: 1, keys: 2 * R + 1, offset: R, ...t5Opts(uni) });
  const sel = st.t5dir === 'causal';
  plot.setTitle(
    `T5: bucket of each relative position (${st.buckets} buckets, exact near 0, logarithmic up to max distance ${bi.maxDistance})`,
  );
  plot.draw(
    [
      { x, y: yb, label: `bidirectional${sel ? '' : ' (selected)'}`, dash: sel },
      { x, y: yu, label: `causal${sel ? ' (selected)' : ''}`, dash: !sel },
    ],
    {
      xLabel: 'key − query (tokens)',
      yLabel: 'bucket index',
      markers: [
        { x: -bi.maxDistance, label: `−${bi.maxDistance}` },
        { x: bi.maxDistance, label: `${bi.maxDistance}` },
      ].filter((m) => Math.abs(m.x) <= R),
    },
  );
}

/** Shaw et al.: the clipped relative index of the middle query against each key. */
function drawShaw(pe, st, plot, px, pool) {
  const L = st.length;
  const n = Math.max(2, Math.min(L, 256));
  const k = st.shawk;
  const idx = pe.shawIndices({ queries: n, keys: n, maxRelative: k });
  const q = Math.floor(n / 2);
  const x = Float32Array.from({ length: n }, (_, j) => j - q);
  plot.setTitle(`Shaw: relative embedding index of query ${q} against each key (clipped to ±${k})`);
  plot.draw([{ x, y: idx.subarray(q * n, (q + 1) * n), label: 'row of aᴷ, aⱽ' }], {
    xLabel: 'key − query (tokens)',
    yLabel: 'index',
    markers: [
      { x: -k, label: `−k` },
      { x: k, label: `k = ${k}` },
    ],
  });
}

/** The figure of each method, by method id. */
const DRAW = {
  sinusoidal: drawSinusoidal,
  rope: drawRope,
  learned: drawLearned,
  alibi: drawAlibi,
  t5: drawT5,
  shaw: drawShaw,
};

/** Draw st.method's figure into plot, px wide (a method with no figure draws nothing). */
function draw(pe, st, plot, px, pool) {
  if (Object.hasOwn(DRAW, st.method)) DRAW[st.method](pe, st, plot, px, pool);
}

/** Per-pair wavelength 2π/ωᵢ before and after the chosen scaling, on a log axis, with the
 * original context length (the page's train length) as a level line: pairs whose wavelength
 * exceeds it never completed a turn in training, which is where the scalings intervene. */
function drawWavelengths(pe, st, plot) {
  const before = pe.ropeFrequencies({ dim: st.dim, base: st.base }).invFreq64;
  const after = pe.ropeFrequencies(ropeOptions(st)).invFreq64;
  const wl = (w) => Float64Array.from(w, (x) => (2 * Math.PI) / x);
  const series = [{ y: wl(before), label: 'no scaling' }];
  if (st.scaling !== 'none') series.push({ y: wl(after), label: `${st.scaling} ×${st.factor}`, dash: true });
  series.push({
    y: new Float64Array(before.length).fill(st.train),
    label: `original context (train length ${st.train})`,
    colour: 'bad',
    dash: true,
  });
  plot.setTitle(`RoPE wavelength of each pair${st.scaling === 'none' ? ' (pick a scaling to compare)' : ''}`);
  plot.draw(series, {
    xLabel: 'pair i (fast → slow)',
    yLabel: 'wavelength (tokens per turn)',
    integerX: true,
    yLog: true,
  });
}
