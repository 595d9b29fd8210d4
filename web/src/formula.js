// Formula panels: the formula of the method, typeset in plain HTML (no fonts or scripts fetched),
// filled in with the values of the cell under the pointer or keyboard cursor, ending with the exact
// float32 value and the one API call that reproduces it. Every value shown as exact comes from the
// posenc API; the arithmetic here only explains it (products p × ω, angles mod 2π, wavelengths
// 2π/ω, ratios of API frequencies), in float64 from the API's own numbers.
import { t5MaxExact } from '../../js/maths.js';
import { esc, f32 } from './draw.js';
import { t5Config, t5Opts } from './methods.js';
import { ropeOptions } from './state.js';

const v = (name, sub, sup) =>
  `<var>${name}</var>${sub !== undefined ? `<sub>${sub}</sub>` : ''}${sup !== undefined ? `<sup>${sup}</sup>` : ''}`;
const n = (x) => `<span class="num">${esc(x)}</span>`;
const line = (...xs) => `<div class="fl">${xs.join(' ')}</div>`;
const TAU = 2 * Math.PI;

/** JS source for an options object, in the order given, skipping undefined. */
function src(o) {
  const parts = [];
  for (const [k, x] of Object.entries(o)) {
    if (x === undefined || x === null) continue;
    parts.push(`${k}: ${typeof x === 'string' ? `'${x}'` : typeof x === 'object' ? src(x) : x}`);
  }
  return `{ ${parts.join(', ')} }`;
}

/** A sinusoidal table cell: its pair, frequency and angle. */
function sinusoidalCell(pe, st, r, c, m) {
  const d = st.dim;
  const split = st.layout === 'split';
  const half = d / 2;
  const i = split ? c % half : c >> 1;
  const isSin = split ? c < half : c % 2 === 0;
  const w = pe.sinusoidalFrequencies({ dim: d, base: st.base })[i];
  // the one-row call itself (equal to the table's cell; it also serves a point of a curve at a
  // fractional position, and never reads a heap view that memory growth may have detached)
  const value = pe.sinusoidal({ length: 1, dim: d, base: st.base, layout: st.layout, offset: r })[c];
  const call = `pe.sinusoidal(${src({ length: 1, dim: d, base: st.base, layout: st.layout, offset: r })})[${c}]`;
  const html = [
    line(
      `${v('PE')}(${v('p')}, ${split ? `${v('i')}` : `2${v('i')}`}) = sin(${v('p')} · ${v('ω', 'i')}),`,
      `${v('PE')}(${v('p')}, ${split ? `${v('d')}/2 + ${v('i')}` : `2${v('i')}+1`}) = cos(${v('p')} · ${v('ω', 'i')}),`,
      `${v('ω', 'i')} = 1 / ${v('base', undefined, `2${v('i')}/${v('d')}`)}`,
    ),
    line(`dim ${n(c)} → pair ${v('i')} = ${n(i)} (${st.layout}), ${v('d')} = ${n(d)}, base = ${n(st.base)}`),
    line(`${v('ω', i)} = 1 / ${n(st.base)}<sup>${2 * i}/${d}</sup> = ${n(w.toPrecision(8))}`),
    line(`${v('p')} · ${v('ω', i)} = ${n(r)} × ${n(w.toPrecision(8))} = ${n((r * w).toPrecision(8))} rad`),
    line(
      `${v('PE')}(${n(r)}, ${n(c)}) = ${isSin ? 'sin' : 'cos'}(${n((r * w).toPrecision(8))}) = <b class="exact">${f32(value)}</b> <small>(float32)</small>`,
    ),
  ].join('');
  return { html, value, call };
}

/** A RoPE cell: the pair it rotates, its (scaled) frequency and angle, cos or sin of it. */
function ropeCell(pe, st, r, c, m) {
  const d = st.dim;
  const ro = ropeOptions(st);
  const half = d / 2;
  const interleaved = st.rope === 'interleaved';
  const i = interleaved ? c >> 1 : c % half;
  const { invFreq64, attentionScale } = pe.ropeFrequencies(ro);
  const w = invFreq64[i];
  const cache = pe.ropeCache({ length: 1, offset: r, ...ro });
  const cos = cache.cos[i],
    sin = cache.sin[i];
  const a = interleaved ? 2 * i : i,
    b = interleaved ? 2 * i + 1 : i + half;
  // Compare draws RoPE as sin θ | cos θ per dimension (m.quantity 'sincos'): the sin slot of a
  // pair is its first dimension, as in a sinusoidal table of the same layout.
  const sinSlot = m?.quantity === 'sincos' && c === a;
  const call = `pe.ropeCache(${src({ length: 1, offset: r, ...ro })}).${sinSlot ? 'sin' : 'cos'}[${i}]`;
  const theta = r * w;
  const scaled = st.scaling !== 'none';
  const html = [
    line(
      `[${v('x′', 'a')}, ${v('x′', 'b')}] = [${v('x', 'a')} cos θ − ${v('x', 'b')} sin θ, ${v('x', 'a')} sin θ + ${v('x', 'b')} cos θ],`,
      `θ = ${v('p')} · ${v('ω', 'i')}, ${v('ω', 'i')} = ${scaled ? `${esc(st.scaling)}( ` : ''}1 / ${v('base', undefined, `2${v('i')}/${v('d')}`)}${scaled ? ' )' : ''}`,
    ),
    line(
      `dim ${n(c)} → pair ${v('i')} = ${n(i)} rotates dims (${n(a)}, ${n(b)}) (${st.rope} layout), ${v('d')} = ${n(d)}, base = ${n(st.base)}`,
    ),
    line(
      `${v('ω', i)} = ${n(w.toPrecision(8))}${scaled ? ` <small>(after ${esc(st.scaling)} ×${st.factor})</small>` : ''}`,
    ),
    line(
      `θ = ${n(r)} × ${n(w.toPrecision(8))} = ${n(theta.toPrecision(8))} rad ≡ ${n((theta % TAU).toPrecision(6))} (mod 2π)`,
    ),
    line(
      sinSlot
        ? `sin θ = <b class="exact">${f32(sin)}</b>, cos θ = <b>${f32(cos)}</b> <small>(float32${attentionScale !== 1 ? `, × attention scale ${attentionScale.toFixed(4)}` : ''})</small>`
        : `cos θ = <b class="exact">${f32(cos)}</b>, sin θ = <b>${f32(sin)}</b> <small>(float32${attentionScale !== 1 ? `, × attention scale ${attentionScale.toFixed(4)}` : ''})</small>`,
    ),
  ].join('');
  return { html, value: sinSlot ? sin : cos, call };
}

/** A learned table cell: its initial value before training. */
function learnedCell(pe, st, r, c, m) {
  const d = st.dim;
  // the drawn table (a heap view that memory growth may have detached: then the call itself)
  let value = m?.values?.[r * d + c];
  if (value === undefined) value = pe.learnedInit({ length: r + 1, dim: d, seed: 0 })[r * d + c];
  const call = `pe.learnedInit(${src({ length: r + 1, dim: d, seed: 0 })})[${r * d + c}]`;
  const html = [
    line(
      `${v('x')}′<sub>${v('p')}</sub> = ${v('x', v('p'))} + ${v('E')}[${v('p')}], ${v('E')}[${v('p')}, ${v('c')}] ~ 𝒩(0, 0.02²) before training`,
    ),
    line(`${v('E')}[${n(r)}, ${n(c)}] = <b class="exact">${f32(value)}</b> <small>(float32, seed 0)</small>`),
  ].join('');
  return { html, value, call };
}

/** An ALiBi bias cell: the head's slope times the distance, or the causal mask. */
function alibiCell(pe, st, r, c, m) {
  const nq = m.rows;
  const h = Math.min(st.head, st.heads - 1);
  const slope = pe.alibiSlopes(st.heads)[h];
  const value = m.values[r * nq + c];
  const call = `pe.alibiBias(${src({ heads: st.heads, queries: nq, causal: true })})[${(h * nq + r) * nq + c}]`;
  const html = [
    line(
      `softmax(${v('q', 'i')}·${v('k', 'j')} / √${v('d')} + ${v('m', 'h')} · (${v('j')} − ${v('i')})), ${v('m', 'h')} = 2<sup>−8${v('h')}/${v('H')}</sup> (${v('H')} a power of two; else the paper’s interleaved set), −∞ for ${v('j')} &gt; ${v('i')}`,
    ),
    line(`head ${n(h + 1)} of ${n(st.heads)}: ${v('m', h + 1)} = ${n(f32(slope))}`),
    line(
      c > r
        ? `${v('j')} = ${n(c)} &gt; ${v('i')} = ${n(r)}: masked, <b class="exact">−Infinity</b>`
        : `${n(f32(slope))} × (${n(c)} − ${n(r)}) = <b class="exact">${f32(value)}</b> <small>(float32)</small>`,
    ),
  ].join('');
  return { html, value, call };
}

/** A T5 bucket cell: the relative distance and the bucket it falls in. */
function t5Cell(pe, st, r, c, m) {
  const nq = m.rows;
  const cfg = t5Config(st);
  const value = m.values[r * nq + c];
  const exact = t5MaxExact(cfg.bidirectional, cfg.numBuckets);
  const call = `pe.t5Buckets(${src({ queries: nq, keys: nq, ...t5Opts(cfg) })})[${r * nq + c}]`;
  const html = [
    line(
      `softmax(${v('q', 'i')}·${v('k', 'j')} + ${v('b', v('h'))}[bucket(${v('j')} − ${v('i')})]): one learned scalar per bucket and head`,
    ),
    line(
      `bucket(${v('r')}): |${v('r')}| &lt; ${n(exact)} → its own bucket; beyond, log-spaced up to max distance ${n(cfg.maxDistance)}${cfg.bidirectional ? '; the sign picks a half' : '; future keys share bucket 0'}`,
    ),
    line(`${v('r')} = ${n(c)} − ${n(r)} = ${n(c - r)} → bucket <b class="exact">${value}</b> <small>(int32)</small>`),
  ].join('');
  return { html, value, call };
}

/** A Shaw et al. cell: the clipped relative distance, the row of the relative embedding tables. */
function shawCell(pe, st, r, c, m) {
  const nq = m.rows;
  const k = st.shawk;
  const value = m.values[r * nq + c];
  const call = `pe.shawIndices(${src({ queries: nq, keys: nq, maxRelative: k })})[${r * nq + c}]`;
  const html = [
    line(
      `${v('e', v('ij'))} = ${v('x', 'i')}${v('W', undefined, 'Q')} · (${v('x', 'j')}${v('W', undefined, 'K')} + ${v('a', v('ij'), 'K')}) / √${v('d')}, ${v('a', v('ij'))} = row clip(${v('j')} − ${v('i')}, −${v('k')}, ${v('k')}) + ${v('k')}`,
    ),
    line(
      `${v('z', v('i'))} = Σ<sub>${v('j')}</sub> α<sub>${v('ij')}</sub> (${v('x', 'j')}${v('W', undefined, 'V')} + ${v('a', v('ij'), 'V')}): the same row index picks ${v('a', undefined, 'V')} for the values`,
    ),
    line(`clip(${n(c)} − ${n(r)}, −${n(k)}, ${n(k)}) + ${n(k)} = <b class="exact">${value}</b> <small>(int32)</small>`),
  ].join('');
  return { html, value, call };
}

/** The cell formula of each method that draws a heatmap, by method id. */
const CELL_FORMULAS = {
  sinusoidal: sinusoidalCell,
  rope: ropeCell,
  learned: learnedCell,
  alibi: alibiCell,
  t5: t5Cell,
  shaw: shawCell,
};

/**
 * The filled-in formula for cell (r, c) of `method`'s heatmap under state st.
 * Returns { html, value, call } where `call` is a JS expression over `pe` returning the value.
 */
export function cellFormula(pe, st, method, r, c, m) {
  const formula = Object.hasOwn(CELL_FORMULAS, method) ? CELL_FORMULAS[method] : null;
  return formula ? formula(pe, st, r, c, m) : { html: '', value: NaN, call: '' };
}

/** A formula panel element: `set({ html, value, call })` fills it; data-value/data-call carry the
 * number and the expression for tests and readers who want to check. */
export function createFormula(parent, { title = 'Formula, filled in' } = {}) {
  const el = document.createElement('aside');
  el.className = 'formula';
  el.innerHTML = `<h4></h4><div class="fbody"></div><p class="fcall"><span>Check your own implementation:</span> <code></code></p>`;
  el.querySelector('h4').textContent = title;
  parent.append(el);
  return {
    el,
    set({ html, value, call }, hint = '', where = null) {
      el.querySelector('.fbody').innerHTML = html + (hint ? `<p class="fhint">${esc(hint)}</p>` : '');
      el.querySelector('code').textContent = call
        ? `${call}  // → ${typeof value === 'number' && Number.isInteger(value) ? value : f32(value)}`
        : '';
      el.querySelector('.fcall').hidden = !call;
      el.dataset.value = String(value);
      el.dataset.call = call ?? '';
      // which point of the figure this is (a curve's index and x), for tests and readers
      if (where) el.dataset.where = JSON.stringify(where);
      else delete el.dataset.where;
    },
    clear(msg = '') {
      el.querySelector('.fbody').innerHTML = msg ? `<p class="fhint">${esc(msg)}</p>` : '';
      el.querySelector('.fcall').hidden = true;
      el.dataset.value = '';
      el.dataset.call = '';
    },
  };
}

/**
 * Waves: the formula for curve k at x (the sample nearest the cursor), through cellFormula with
 * the matrix cell that curve point is: (position, column) for tables, (query, key) of a small
 * matrix holding that relative position for biases and indices. `pool` supplies the learned table.
 */
export function curveFormula(pe, st, method, k, x, { pool, spread } = {}) {
  const d = st.dim;
  switch (method) {
    case 'sinusoidal': {
      const i = spread(d / 2)[k];
      const c = st.layout === 'split' ? i : 2 * i;
      return cellFormula(pe, st, 'sinusoidal', x, c, null);
    }
    case 'rope': {
      const half = d / 2;
      const i = spread(half)[k];
      // pair i sits in dim i of the half layout; cellFormula maps the dim back to the pair
      return cellFormula(pe, { ...st, rope: 'half' }, 'rope', x, i, null);
    }
    case 'learned': {
      const c = spread(d)[k];
      const p = Math.round(x);
      return cellFormula(pe, st, 'learned', p, c, { values: pool.learned(p + 1, d) });
    }
    case 'alibi': {
      // query n−1 of an n × n causal matrix against key j = n−1 + x; curve k is head k
      const rel = Math.round(x),
        n = 1 - Math.min(0, rel);
      const all = pe.alibiBias({ heads: st.heads, queries: n, causal: true });
      return cellFormula(pe, { ...st, head: k }, 'alibi', n - 1, n - 1 + rel, {
        values: all.subarray(k * n * n, (k + 1) * n * n),
        rows: n,
      });
    }
    case 't5':
    case 'shaw': {
      // the smallest square matrix holding relative position x: query 0 / key x, or query |x| / key 0
      const rel = Math.round(x),
        n = Math.abs(rel) + 1;
      const r = rel < 0 ? -rel : 0,
        c = rel < 0 ? 0 : rel;
      if (method === 'shaw')
        return cellFormula(pe, st, 'shaw', r, c, {
          values: pe.shawIndices({ queries: n, keys: n, maxRelative: st.shawk }),
          rows: n,
        });
      const s2 = { ...st, t5dir: k === 1 ? 'causal' : 'bidirectional' };
      return cellFormula(pe, s2, 't5', r, c, {
        values: pe.t5Buckets({ queries: n, keys: n, ...t5Opts(t5Config(s2)) }),
        rows: n,
      });
    }
  }
  return { html: '', value: NaN, call: '' };
}

/** RoPE scaling, pair i: ω before and after the scaling, the wavelength 2π/ω against the original
 * context, and the float32 frequency a framework stores. `opts` are pe.ropeFrequencies options. */
export function pairFormula(pe, opts, i, original) {
  const before = pe.ropeFrequencies({ dim: opts.dim, base: opts.base });
  const after = pe.ropeFrequencies(opts);
  const w0 = before.invFreq64[i],
    w1 = after.invFreq64[i];
  const value = after.invFreq[i];
  const sc = opts.scaling;
  const call = `pe.ropeFrequencies(${src(opts)}).invFreq[${i}]`;
  const turns = (w) => (TAU / w).toPrecision(6);
  const html = [
    line(
      `${v('ω', 'i')} = 1 / ${v('base', undefined, `2${v('i')}/${v('d')}`)}, wavelength λ<sub><var>i</var></sub> = 2π / ${v('ω', 'i')} tokens per turn${sc ? `; ${esc(sc.type)} divides ${v('ω', 'i')} by up to ×${n(sc.factor)}` : ''}`,
    ),
    line(`pair ${v('i')} = ${n(i)} of ${n(opts.dim / 2)}, ${v('d')} = ${n(opts.dim)}, base = ${n(opts.base)}`),
    line(
      `before: ${v('ω', i)} = 1 / ${n(opts.base)}<sup>${2 * i}/${opts.dim}</sup> = ${n(w0.toPrecision(8))}, λ = ${n(turns(w0))}`,
    ),
    sc
      ? line(
          `after ${esc(sc.type)}: ${v('ω', i)} = ${n(w1.toPrecision(8))} (÷ ${n((w0 / w1).toPrecision(6))}), λ = ${n(turns(w1))}`,
        )
      : '',
    line(
      `unscaled λ ${TAU / w0 > original ? '&gt;' : '≤'} original context ${n(original)}: ${TAU / w0 > original ? 'this pair never completed a turn in training' : 'this pair turned fully in training'}`,
    ),
    line(`${v('ω', i)} stored as float32 = <b class="exact">${f32(value)}</b>`),
  ].join('');
  return { html, value, call };
}

/** Rotation, pair i: query at m and key at n turned by m·ωᵢ and n·ωᵢ; the score sees q, k and (n − m)·ωᵢ. */
export function rotationFormula(pe, st, i) {
  const ro = ropeOptions(st);
  const m = st.pos,
    nn = st.kpos;
  const w = pe.ropeFrequencies(ro).invFreq64[i];
  const cq = pe.ropeCache({ length: 1, offset: m, ...ro });
  const ck = pe.ropeCache({ length: 1, offset: nn, ...ro });
  const rel = nn - m;
  const cr = pe.ropeCache({ length: 1, offset: Math.abs(rel), ...ro }); // cos is even: cos(−x) = cos x
  const value = cq.cos[i];
  const call = `pe.ropeCache(${src({ length: 1, offset: m, ...ro })}).cos[${i}]`;
  const mod = (a) => (((a % TAU) + TAU) % TAU).toPrecision(6);
  const scale = cq.attentionScale ?? 1;
  const html = [
    line(
      `${v('q')}′ = ${v('R')}(${v('m')}·${v('ω', 'i')}) ${v('q')}, ${v('k')}′ = ${v('R')}(${v('n')}·${v('ω', 'i')}) ${v('k')} ⇒ ${v('q')}′·${v('k')}′ = ${v('q')} · ${v('R')}((${v('n')} − ${v('m')})·${v('ω', 'i')}) ${v('k')}`,
      `(RoFormer eq. 16: content and the signed offset; ${v('v')} is not rotated)`,
    ),
    line(
      `pair ${v('i')} = ${n(i)}: ${v('ω', i)} = ${n(w.toPrecision(8))}${st.scaling !== 'none' ? ` <small>(after ${esc(st.scaling)} ×${st.factor})</small>` : ''}`,
    ),
    line(
      `${v('m')}·${v('ω', i)} = ${n(m)} × ${n(w.toPrecision(8))} = ${n((m * w).toPrecision(8))} ≡ ${n(mod(m * w))} rad`,
    ),
    line(
      `${v('n')}·${v('ω', i)} = ${n(nn)} × ${n(w.toPrecision(8))} = ${n((nn * w).toPrecision(8))} ≡ ${n(mod(nn * w))} rad`,
    ),
    line(
      `(${v('n')} − ${v('m')})·${v('ω', i)} = ${n(rel)} × ${n(w.toPrecision(8))} ≡ ${n(mod(rel * w))} rad, cos = ${n(f32(cr.cos[i]))}`,
    ),
    line(
      `cos ${v('m')}·${v('ω', i)} = <b class="exact">${f32(value)}</b>, sin = <b>${f32(cq.sin[i])}</b> <small>(float32${scale !== 1 ? `, × attention scale ${scale.toFixed(4)}` : ''})</small>`,
    ),
  ].join('');
  return { html, value, call };
}
