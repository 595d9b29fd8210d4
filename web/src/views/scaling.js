// RoPE scaling with real models: pick one (its config.json keys, scaling_models.js) or paste a
// config.json; fromConfig turns it into posenc options, pe.ropeFrequencies gives each pair's
// frequency before and after the scaling, and the view draws the wavelengths against the context
// the model was trained on and the one it is extended to, the ratio (the scaling's ramp), the
// attention factors and the per-layer pattern. Wavelength = 2π / ω is display work.
import { fromConfig } from '../../../families/config/config.js';
import { createPlot, esc, stackFigures } from '../draw.js';
import { ropeOptions, SCALINGS } from '../state.js';
import { shell } from './common.js';
import { createFormula, pairFormula } from '../formula.js';
import { MODELS } from './scaling_models.js';
import { SCALINGS as SCALING_TABLE } from '../../../js/scalings.js';

const TAU = 2 * Math.PI;
/** rope_scaling's numeric keys of every type (js/scalings.js), for the readout of where each came from. */
const HF_KEYS = new RegExp(
  `(rope_scaling|rope_parameters)\\.(${[
    'rope_type',
    'type',
    ...new Set(
      Object.values(SCALING_TABLE).flatMap((t) => t.keys.filter((k) => k.kind === 'number' && k.hf).map((k) => k.hf)),
    ),
  ].join('|')})$`,
);
const KIND = { full_attention: 'full', sliding_attention: 'sliding', chunked_attention: 'chunked' };
/** The controls' scaling for a model's (the controls have no longrope: 'none'). */
const ctlScaling = (s) => (SCALINGS.includes(s.rope.scaling?.type) ? s.rope.scaling.type : 'none');

/** The model in force: the state names it and still holds what picking it set. */
function activeModel(st) {
  const m = MODELS.find((x) => x.id === st.preset);
  if (!m) return null;
  const s = fromConfig(m.config);
  const ok = st.base === s.rope.base && st.dim === (s.rope.rotaryDim ?? s.rope.dim) && st.scaling === ctlScaling(s);
  return ok ? m : null;
}

/** The controls' state a model sets (the view still draws from the model's own spec). */
function stateOf(m) {
  const s = fromConfig(m.config);
  return {
    preset: m.id,
    base: s.rope.base,
    dim: s.rope.rotaryDim ?? s.rope.dim,
    rope: s.rope.layout,
    scaling: ctlScaling(s),
    factor: s.rope.scaling?.factor ?? 2,
  };
}

/** Every layer's kind for the pattern strip: 'full' | 'sliding' | 'chunked' | 'nope', with its base. */
function layerPattern(config, layers) {
  const out = [];
  for (let l = 0; l < Math.min(layers ?? 1, 256); l++) {
    const s = fromConfig(config, { layer: l });
    out.push({ kind: s.family === 'none' ? 'nope' : (KIND[s.layerType] ?? 'full'), base: s.rope?.base, spec: s });
  }
  return out;
}

/** The config key behind each number, for the formula panel (keys and values are the user's text: escaped). */
function keyLines(spec) {
  const src = spec.source;
  const find = (re) => Object.keys(src).filter((k) => re.test(k));
  const show = (k) => {
    const v = src[k];
    const t = Array.isArray(v) ? `[${v.length} numbers]` : typeof v === 'object' ? '{…}' : String(v);
    return `<samp>${esc(k)}</samp> = ${esc(t.length > 40 ? `${t.slice(0, 40)}…` : t)}`;
  };
  const row = (what, keys) => (keys.length ? `<div class="fl">${what} ← ${keys.map(show).join(', ')}</div>` : '');
  return [
    row('base', find(/(^|\.)(rope_theta|rotary_emb_base|rope_local_base_freq|rope_ratio)$/)),
    row('d (head width)', find(/(^|\.)(head_dim|kv_channels|hidden_size|num_attention_heads|qk_rope_head_dim)$/)),
    row('rotated width', find(/(^|\.)(partial_rotary_factor|rotary_pct|rotary_dim)$/)),
    row('scaling', find(HF_KEYS)),
    row('original context', find(/(^|\.)original_max_position_embeddings$/)),
    row('extended context', find(/(^|\.)max_position_embeddings$/)),
    row(
      'layer kind',
      find(
        /(^|\.)(layer_types|sliding_window|sliding_window_pattern|no_rope_layers|attention_chunk_size|use_sliding_window)$/,
      ),
    ),
    row('softmax scale', find(/(^|\.)(query_pre_attn_scalar|qk_nope_head_dim|attn_scale|floor_scale)$/)),
  ].join('');
}

/**
 * The RoPE options drawn (the layer's own, else the controls') and the two contexts: the one the
 * model was trained on and the one the scaling extends it to (from the controls: train length, and
 * train length × factor). The frequencies depend on the rotated width only.
 */
function contextsOf(st, spec) {
  const r = spec?.rope;
  const opts = r
    ? { dim: r.rotaryDim ?? r.dim, base: r.base, ...(r.scaling ? { scaling: r.scaling } : {}) }
    : ropeOptions(st);
  const sc = opts.scaling;
  const maxPos = spec?.source[Object.keys(spec.source).find((k) => /(^|\.)max_position_embeddings$/.test(k))];
  const original = r ? (sc?.originalMaxPositions ?? maxPos ?? st.train) : st.train;
  const target = r
    ? (maxPos ??
      sc?.maxPositions ??
      (sc?.factor && sc.originalMaxPositions ? Math.round(sc.factor * sc.originalMaxPositions) : original))
    : Math.round(st.train * (st.scaling === 'none' ? 1 : st.factor));
  return { opts, original, target };
}

/** A scaling in one line: its type and factor, then the parameters it has. */
function scalingText(sc) {
  if (!sc) return 'none';
  return [
    `${sc.type}${sc.factor ? ` ×${+sc.factor.toPrecision(6)}` : ''}`,
    sc.lowFreqFactor ? `low ${sc.lowFreqFactor}, high ${sc.highFreqFactor}` : '',
    sc.betaFast ? `β ${sc.betaFast}/${sc.betaSlow}` : '',
    sc.mscale !== undefined ? `mscale ${sc.mscale}/${sc.mscaleAllDim}` : '',
  ]
    .filter(Boolean)
    .join(', ');
}

/** The parameter table's [heading, value] cells: the rotation, the contexts, the attention scales. */
function paramCells(st, spec, opts, { scText, original, target, attentionScale }) {
  const r = spec?.rope;
  const a = spec?.attention;
  const how = spec?.mscale2
    ? ` = ${a.dim}^−½ × mscale² ${spec.mscale2.toFixed(4)}`
    : a
      ? ` = 1/√${Math.round(1 / (a.scale * a.scale))}`
      : '';
  const softmax = a ? `${+a.scale.toPrecision(6)}${how}` : `1/√${opts.dim}`;
  return [
    ['base', opts.base],
    ['head size d', r ? r.dim : opts.dim],
    ['rotated pairs', opts.dim / 2],
    ['layout', r ? r.layout : st.rope],
    ['scaling', scText],
    ['original context', original],
    ['extended to', target],
    ['RoPE attention factor (cos, sin ×)', attentionScale.toFixed(4)],
    ['softmax scale', softmax],
    ...(a?.window ? [['window', a.window]] : []),
    ...(a?.chunk ? [['chunk', a.chunk]] : []),
    ...(a?.queryScale ? [['query scale', a.queryScale.formula]] : []),
    ...(r?.mropeSections ? [['M-RoPE t/h/w pairs', r.mropeSections.join(' / ')]] : []),
  ];
}

const INTRO =
  'A pair whose wavelength is longer than the training context never completed a turn in training; when a query looks further back than that context, the pair’s angle between query and key is one training never produced. ' +
  'Every scaling changes the frequencies so that a longer context maps onto angles seen in training' +
  '<span data-after-predict>; they differ in which pairs they slow: linear interpolation (<a href="https://arxiv.org/abs/2306.15595">Chen et al. 2023</a>) divides every frequency by the factor; ' +
  'NTK-aware scaling (<a href="https://www.reddit.com/r/LocalLLaMA/comments/14lz7j5/ntkaware_scaled_rope_allows_llama_models_to_have/">bloc97 2023</a>, a post later analysed by Peng et al.) raises the base, which slows every pair but the fastest; ' +
  'YaRN (<a href="https://arxiv.org/abs/2309.00071">Peng et al. 2023</a>) and Llama 3.1 (Meta’s reference code, <a href="https://github.com/meta-llama/llama-models/blob/main/models/llama3/reference_impl/model.py"><code>apply_scaling</code></a>; Hugging Face’s <code>_compute_llama3_parameters</code>) keep the fast pairs and slow only the slow ones; ' +
  'LongRoPE (<a href="https://arxiv.org/abs/2402.13753">Ding et al. 2024</a>) searches a factor for each pair (Phi-3’s <code>short_factor</code> and <code>long_factor</code>)</span>. ' +
  'Pick a real model, paste its config.json, or set your own with the controls.';
const BODY = `<div class="presets" role="group" aria-label="pick a model"></div>
    <details class="paste"><summary>Paste a config.json</summary>
      <textarea rows="6" cols="60" spellcheck="false" aria-label="config.json"></textarea>
      <div><button type="button" class="use">Use this config</button> <label>layer <input class="layer" type="number" min="0" value="0"></label></div>
      <p class="paste-error" role="alert"></p></details>
    <p class="cite"></p><div class="scroll"><table class="numbers params"></table></div>
    <div class="pattern" aria-label="per-layer pattern"></div>
    <div class="plots with-formula"><div class="figs"></div></div>`;
const LAYER_KIND = {
  full: 'full attention',
  sliding: 'sliding window',
  chunked: 'chunked (local) attention',
  nope: 'no RoPE (NoPE)',
};
// The strip's colours are the theme's (style.css; theme.js reads the same properties for the
// canvases), its text the paper's: legible on each in the light and the dark theme.
const LAYER_COLOUR = {
  full: 'var(--accent)',
  sliding: 'var(--muted)',
  chunked: 'var(--series-5)',
  nope: 'var(--series-6)',
};

export function setupScaling(el, ctx) {
  const s = scalingState(el, ctx);
  listen(s);
  return {
    update: (st) => updateScaling(s, st),
    exportData: () => s.exported,
    figure: (o) => stackFigures([s.waves.figure(o), s.ratio.figure(o)], o),
    svg: () => s.waves.svg(),
    canvas: () => s.waves.canvas,
  };
}

/** The view's one state: its elements and plots, the pasted config and the layer drawn, what was
 * drawn last (the state, the options, the pointer's pair, the export). */
function scalingState(el, ctx) {
  const v = shell(el, 'RoPE scaling: how real models stretch their context', INTRO);
  v.body.innerHTML = BODY;
  const q = (sel) => v.body.querySelector(sel);
  const box = q('.presets');
  for (const p of [{ id: '', label: 'Your controls' }, ...MODELS]) {
    const b = document.createElement('button');
    b.type = 'button';
    b.dataset.preset = p.id;
    b.textContent = p.label;
    box.append(b);
  }
  const plots = q('.plots');
  const figs = plots.querySelector('.figs');
  return {
    ctx,
    v,
    box,
    area: q('textarea'),
    pasteError: q('.paste-error'),
    layerInput: q('.layer'),
    cite: q('.cite'),
    params: q('.params'),
    pattern: q('.pattern'),
    waves: createPlot(figs, { height: 260 }),
    ratio: createPlot(figs, { height: 220 }),
    formula: createFormula(plots),
    pasted: null, // { config } from the textarea, until a button is pressed
    layer: 0,
    last: null,
    cur: null, // { opts, original, spec } drawn
    lastX: null,
    exported: null,
  };
}

const redraw = (s) => s.last && updateScaling(s, s.last);

/** The presets, the paste box, the layer input and strip, and the plots' pointer. */
function listen(s) {
  s.box.addEventListener('click', (e) => {
    const id = e.target.closest('[data-preset]')?.dataset.preset;
    if (id === undefined) return;
    s.pasted = null;
    s.layer = 0;
    s.layerInput.value = '0';
    const m = MODELS.find((x) => x.id === id);
    if (!m) return s.ctx.setState({ preset: '' });
    s.ctx.setState(stateOf(m));
  });
  s.v.body.querySelector('.use').addEventListener('click', () => usePasted(s));
  s.layerInput.addEventListener('change', () => {
    s.layer = Math.max(0, Math.floor(Number(s.layerInput.value) || 0));
    redraw(s);
  });
  s.pattern.addEventListener('click', (e) => {
    const l = e.target.closest('[data-layer]')?.dataset.layer;
    if (l === undefined) return;
    s.layer = Number(l);
    s.layerInput.value = l;
    redraw(s);
  });
  s.waves.onCursor = s.ratio.onCursor = (x) => fill(s, (s.lastX = x));
}

/** "Use this config": the textarea's config.json, or its error (the user's text only as text). */
function usePasted(s) {
  const say = (msg) => {
    s.pasteError.textContent = msg; // the user's text reaches the page only as text
    s.pasteError.classList.toggle('error', msg !== '');
  };
  say('');
  let config;
  try {
    config = JSON.parse(s.area.value);
    fromConfig(config); // its errors name the key
  } catch (e) {
    say(e instanceof SyntaxError ? `Not JSON: ${e.message}` : e.message);
    return;
  }
  s.pasted = { config };
  s.layer = 0;
  s.layerInput.value = '0';
  redraw(s);
}

/** The formula panel for the pair nearest x. */
function fill(s, x) {
  const { cur, formula } = s;
  if (!cur) return formula.clear();
  const i = Math.max(0, Math.min(cur.opts.dim / 2 - 1, Math.round(x)));
  try {
    const f = pairFormula(s.ctx.pe, cur.opts, i, cur.original);
    formula.set(
      cur.spec ? { ...f, html: f.html + keyLines(cur.spec) } : f,
      'Point at either plot (or focus it and use ←/→) to pick a pair.',
    );
  } catch (e) {
    formula.clear(e.message);
  }
}

/** The per-layer strip of a model whose layers differ (kind or base): one button per layer. */
function drawPattern(s, config, spec) {
  s.pattern.replaceChildren();
  if (!spec?.layers || spec.layers < 2) return;
  const kinds = layerPattern(config, spec.layers);
  if (new Set(kinds.map((k) => `${k.kind}:${k.base}`)).size < 2 && kinds[0].kind === 'full') return;
  const head = document.createElement('p');
  head.className = 'cite';
  head.textContent = `Layers (${spec.layers}): `;
  const counts = {};
  for (const k of kinds) counts[k.kind] = (counts[k.kind] ?? 0) + 1;
  const list = Object.entries(counts).map(([k, c]) => `${c} ${LAYER_KIND[k]}`);
  head.textContent += `${list.join(', ')}. Click a layer to draw it.`;
  const strip = document.createElement('div');
  strip.className = 'layer-strip';
  strip.style.cssText = 'display: flex; flex-wrap: wrap; gap: 2px; margin: 0 0 0.6rem;';
  kinds.forEach((k, l) => strip.append(layerCell(k, l, l === spec.layer)));
  s.pattern.append(head, strip);
}

function layerCell(k, l, pressed) {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = `layer-cell ${k.kind}`;
  b.dataset.layer = String(l);
  b.setAttribute('aria-pressed', String(pressed));
  b.title = `layer ${l}: ${LAYER_KIND[k.kind]}${k.base ? `, base ${k.base}` : ''}`;
  b.textContent = k.kind[0].toUpperCase();
  b.style.cssText =
    `min-width: 1.6em; padding: 0.1rem 0.2rem; border: 2px solid ${pressed ? 'var(--ink)' : 'transparent'};` +
    ` background: ${LAYER_COLOUR[k.kind]}; color: var(--paper); border-radius: 3px; cursor: pointer; font-size: 0.75rem;`;
  return b;
}

/**
 * The model (a preset or the pasted config) and the spec of the layer drawn, with its layer
 * pattern drawn; { model: null, spec: null } with the controls alone; null when the layer has no
 * RoPE (the reason is shown instead).
 */
function pickSpec(s, st) {
  const { pasted } = s;
  const model = pasted ? null : activeModel(st);
  for (const b of s.box.children)
    b.setAttribute('aria-pressed', String(!pasted && (model?.id ?? '') === b.dataset.preset));
  if (!pasted && !model) {
    s.pattern.replaceChildren();
    return { model, spec: null };
  }
  const config = pasted ? pasted.config : model.config;
  const s0 = fromConfig(config);
  if (s0.layers !== undefined && s.layer >= s0.layers) s.layer = s0.layers - 1;
  const spec = fromConfig(config, { layer: s.layer });
  drawPattern(s, config, spec);
  if (!spec.rope) {
    const why =
      spec.family === 'none'
        ? `layer ${s.layer} has no RoPE (NoPE)`
        : `this model's positions are ${spec.family}, not RoPE`;
    s.cite.textContent = `${pasted ? 'Pasted config' : model.label}: ${why}; pick another layer or model.`;
    s.params.replaceChildren();
    s.cur = null;
    return null;
  }
  return { model, spec };
}

/** Where the settings come from, under the figure. */
function citeFor(s, st, model, spec) {
  if (model) return `Settings: ${model.source}. Layer ${s.layer}.`;
  if (s.pasted) return `Pasted config.json (model_type ${spec.model}), layer ${s.layer}.`;
  return st.preset
    ? 'Edited from a model: using the controls (train length stands in for the original context).'
    : 'Using the controls: train length stands in for the model’s original context.';
}

/** The wavelength figure: each pair's before and after the scaling, against both contexts. */
function drawWavelengths(s, { model, spec, opts, before, after, scText, original, target, attentionScale }) {
  const wl = (w) => Float64Array.from(w, (x) => TAU / x);
  const dots = opts.dim <= 128;
  const series = [{ y: wl(before), label: 'no scaling', colour: 0, dots }];
  if (opts.scaling) series.push({ y: wl(after), label: scText, colour: 2, dots });
  series.push({
    y: new Float64Array(before.length).fill(original),
    label: `original context ${original}`,
    colour: 'bad',
    dash: true,
  });
  if (target !== original)
    series.push({
      y: new Float64Array(before.length).fill(target),
      label: `extended context ${target}`,
      colour: 'muted',
      dash: true,
    });
  const title = model ? model.label : s.pasted ? `pasted ${spec.model}` : 'RoPE';
  s.waves.setTitle(`${title}: wavelength of each pair, positions per full turn (log scale)`);
  s.waves.draw(series, {
    xLabel: 'pair i (fast → slow)',
    yLabel: 'wavelength 2π/ωᵢ (tokens)',
    yLog: true,
    integerX: true,
  });
  const notes = [];
  if (attentionScale !== 1) {
    notes.push(
      `The scaling also multiplies cos and sin by the attention factor ${attentionScale.toFixed(4)} ` +
        '(q·k grows by its square); the wavelengths above do not include it.',
    );
  }
  if (spec?.mscale2) {
    notes.push(
      `DeepSeek also multiplies the softmax scale by mscale(factor, mscale_all_dim)² = ${spec.mscale2.toFixed(4)}.`,
    );
  }
  s.waves.setNote(notes.join(' '));
  return series;
}

function drawScaling(s, st) {
  const pe = s.ctx.pe;
  const picked = pickSpec(s, st);
  if (!picked) return;
  const { model, spec } = picked;
  const { opts, original, target } = contextsOf(st, spec);
  s.cur = { opts, original, spec };
  const before = pe.ropeFrequencies({ dim: opts.dim, base: opts.base }).invFreq64;
  const { invFreq64: after, attentionScale } = pe.ropeFrequencies(opts);
  s.cite.textContent = citeFor(s, st, model, spec);
  const scText = scalingText(opts.scaling);
  const cells = paramCells(st, spec, opts, { scText, original, target, attentionScale });
  const row = (f) => `<tr>${cells.map(f).join('')}</tr>`;
  s.params.innerHTML = row(([h]) => `<th>${esc(h)}</th>`) + row(([, x]) => `<td>${esc(String(x))}</td>`);
  const series = drawWavelengths(s, { model, spec, opts, before, after, scText, original, target, attentionScale });
  s.ratio.setTitle('The scaling’s ramp: how much slower each pair turns, ω before / ω after');
  s.ratio.draw(
    [
      {
        y: Float64Array.from(before, (b, i) => b / after[i]),
        label: 'frequency divided by',
        colour: 2,
        dots: opts.dim <= 128,
      },
    ],
    { xLabel: 'pair i (fast → slow)', yLabel: 'ω / ω scaled', integerX: true },
  );
  // before any pointer: the first pair whose wavelength passes the original context
  if (s.lastX === null) {
    const k = before.findIndex((w) => TAU / w > original);
    fill(s, k >= 0 ? k : opts.dim / 4);
  }
  s.exported = {
    kind: 'series',
    name: 'rope wavelengths',
    xLabel: 'pair',
    series: series.map((c) => ({ label: c.label, x: Array.from(c.y, (_, i) => i), y: Array.from(c.y) })),
  };
}

function updateScaling(s, st) {
  s.last = st;
  s.v.clear();
  s.cur = null;
  s.v.guard(() => drawScaling(s, st), 'RoPE scaling');
  if (!s.cur) s.formula.clear();
  else if (s.lastX !== null) fill(s, s.lastX);
}

export { MODELS };
