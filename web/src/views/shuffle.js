// Shuffle lab: attention over context-free token vectors, with no positions and with the chosen
// method. Without positions and without a mask, shuffling the words only permutes the attention
// matrix (and leaves the pooled sentence vector unchanged); with positions, or with a causal mask
// (a word sees only the words before it), it changes the numbers. The proof is printed.
import { createMatrixPanel, createPlot, esc, fmt, stackFigures } from '../draw.js';
import { METHODS, methodLabel, ropeOptions } from '../methods.js';
import { paletteFor } from '../palette.js';
import { shell } from './common.js';
import { readTheme } from '../theme.js';

const PRESETS = ['dog bites man', 'the cat sat on the mat', 'alice gave bob the red book', 'not bad, actually good'];

/** FNV-1a: a stable seed per word, so a word always gets the same vector. */
function seedOf(word) {
  let h = 0x811c9dc5;
  for (const ch of word.toLowerCase()) h = Math.imul(h ^ ch.codePointAt(0), 0x01000193) >>> 0;
  return h % 1000003;
}

export function tokensOf(sentence) {
  return sentence.split(/\s+/).filter(Boolean).slice(0, 16);
}

/** The order in the URL if it is a permutation of the tokens, else the reverse. */
export function orderOf(st, n) {
  const o = st.order ? st.order.split(',').map(Number) : [];
  const ok = o.length === n && [...o].sort((a, b) => a - b).every((x, i) => x === i);
  return ok ? o : Array.from({ length: n }, (_, i) => n - 1 - i);
}

/** What the lab's RoPE side runs with: pair layout, scaling and its attention scale. */
function ropeCaption(pe, st, dHead) {
  const { scaling } = ropeOptions(st);
  const parts = [`${st.rope} pairs`];
  if (scaling) {
    parts.push(`${scaling.type} ×${st.factor}`);
    if (typeof pe.ropeFrequencies === 'function') {
      const { attentionScale } = pe.ropeFrequencies({ dim: dHead, base: st.base, scaling });
      if (attentionScale !== 1) parts.push(`q, k × ${attentionScale.toFixed(3)}`);
    }
  } else parts.push('no scaling');
  return parts.join(', ');
}

// Fixed-width figures in the texts: a line wraps the same way whatever the numbers (and before the
// wasm, with the stand-in's).
const fixed = (x) => (x === 0 || x >= 1e-4 ? x.toFixed(5) : x.toExponential(1));

function verdict(type, same, maxA, cosine, identity, causal) {
  if (identity) return 'this is the original order: press Shuffle or move a word';
  if (type === 'none' && causal) {
    return same
      ? 'the same matrix, rows and columns permuted (this order leaves every word after the same words)'
      : `not a permutation of the original: the causal mask alone changes attention by up to ${fixed(maxA)}`;
  }
  if (type === 'none')
    return same
      ? 'the same matrix, rows and columns permuted: order is invisible'
      : 'differs (unexpected without positions)';
  if (same) {
    // Not a failure: a shuffle that preserves every |i − j| (a reversal, say) is invisible to a
    // symmetric relative bias such as bidirectional ALiBi.
    return 'identical: this order keeps every distance |i − j| (e.g. a reversal), which a symmetric bias cannot see. Press Shuffle.';
  }
  return `order changes attention by up to ${fixed(maxA)} and the pooled sentence vector by ${fixed(1 - cosine)} in cosine`;
}

/**
 * Un-permute: row/column k of the shuffled run b is token perm[k] of the original a. The largest
 * change over every head (maxA, the verdict's), the largest in the head drawn with the pair it
 * is at (maxShown, worst: the pair the text quotes, so the reader finds its numbers in the
 * matrices beside it), and the largest change of the layer's output (maxOut).
 */
function unpermutedDiff(a, b, perm, n, heads, hShown, D_MODEL) {
  let maxA = 0;
  let maxShown = 0;
  let worst = [hShown, 0, 0];
  for (let h = 0; h < heads; h++)
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n; j++) {
        const dlt = Math.abs(b.weights[h * n * n + i * n + j] - a.weights[h * n * n + perm[i] * n + perm[j]]);
        maxA = Math.max(maxA, dlt);
        if (h === hShown && dlt > maxShown) (maxShown = dlt), (worst = [h, perm[i], perm[j]]);
      }
  let maxOut = 0;
  for (let i = 0; i < n; i++)
    for (let c = 0; c < D_MODEL; c++)
      maxOut = Math.max(maxOut, Math.abs(b.output[i * D_MODEL + c] - a.output[perm[i] * D_MODEL + c]));
  return { maxA, maxShown, worst, maxOut };
}

/** The pooled sentence vectors (the mean over tokens) of both runs, side by side in one buffer:
 * the layer's own when it returns them, else the mean taken here. */
function pooledVectors(a, b, n, D_MODEL) {
  const pooled = new Float32Array(2 * D_MODEL);
  if (a.pooled && b.pooled) {
    pooled.set(a.pooled, 0);
    pooled.set(b.pooled, D_MODEL);
  } else {
    for (let i = 0; i < n; i++)
      for (let c = 0; c < D_MODEL; c++) {
        pooled[c] += a.output[i * D_MODEL + c] / n;
        pooled[D_MODEL + c] += b.output[i * D_MODEL + c] / n;
      }
  }
  return pooled;
}

/** A side's result in plain words (the exact figures follow in its proof). The words are user
 * text (URL key, element attribute): escaped before they meet innerHTML. */
function plainVerdict(run, { type, name, a, b, same, diff, hShown }) {
  const { pe, words, n, inv, causal, shuffledText, identity } = run;
  const { maxA, maxShown, worst } = diff;
  const q = (x) => `“${esc(x)}”`;
  if (identity) return 'This is the original order: press <b>Shuffle</b> or drag a word.';
  if (same) {
    return type === 'none'
      ? `<span class="same">The same numbers, reordered.</span> This layer cannot tell ${q(words.join(' '))} ` +
          `from ${q(shuffledText)}: every word attends to every other word exactly as before, and the sentence ` +
          `vector is identical.`
      : `<span class="same">The same numbers, reordered</span>: this order keeps every distance |i − j| (a reversal, say), which a symmetric bias cannot see. Press Shuffle.`;
  }
  const [h, wi, wj] = worst;
  const va = a.weights[h * n * n + wi * n + wj],
    vb = b.weights[h * n * n + inv[wi] * n + inv[wj]];
  const pair =
    maxShown < 1e-5 && !pe.stub // the stand-in's equal numbers take the real text's layout
      ? `head ${h + 1}, drawn here, happens to keep its numbers; the others change by up to ${fixed(maxA)}`
      : `${q(words[wi])} → ${q(words[wj])} gets ${fixed(va)} in ${q(words.join(' '))} but ${fixed(vb)} in ${q(shuffledText)} (head ${h + 1}, drawn here)`;
  // Without positions only the mask can tell the orders apart: a word sees itself and the
  // words before it, so the first word always gives itself all its attention.
  return type === 'none'
    ? `<span class="differs">Different numbers, not a reordering.</span> Under the causal mask a word ` +
        `attends only to itself and the words before it, so where it stands changes what it can see: ` +
        `${pair}. Whichever word comes first sees only itself and gives itself ` +
        `${fixed(a.weights[hShown * n * n])}. No position was added: the mask alone makes order visible, which is ` +
        `why decoders without positions still learn it (<a href="https://arxiv.org/abs/2203.16634">Haviv et ` +
        `al. 2022</a>); an encoder without a mask, such as BERT, cannot.`
    : `<span class="differs">Different numbers.</span> With ${name}${causal ? ' and the causal mask' : ''}, ${pair}: the layer now sees the order.`;
}

const MARKUP = `<div class="row">
      <label>sentence <input class="sentence" type="text" list="posenc-presets" spellcheck="false"></label>
      <datalist id="posenc-presets">${PRESETS.map((p) => `<option value="${p}">`).join('')}</datalist>
      <button type="button" class="shuffle">Shuffle</button>
      <button type="button" class="reset">Original order</button>
      <label class="causal-pick"><input type="checkbox" class="causal"> causal mask (each word sees itself and the words before it)</label>
    </div>
    <p class="order-label">shuffled order:</p>
    <ol class="tokens" aria-label="shuffled tokens"></ol>
    <div class="pair lab">
      <div class="side" data-side="none"><h3>No positions</h3><p class="proof-plain" data-after-predict></p><div class="mats"></div><div class="pooled"></div><dl class="proof" data-after-predict></dl></div>
      <div class="side" data-side="pos"><h3></h3><p class="proof-plain" data-after-predict></p><div class="mats"></div><div class="pooled"></div><dl class="proof" data-after-predict></dl></div>
    </div>`;

const MATRIX = { small: true, square: true, rowLabel: 'query', colLabel: 'key' };

/** One side's elements: its heading, both matrices, its texts and the pooled-vector plot. */
function sideOf(side) {
  return {
    side,
    title: side.querySelector('h3'),
    orig: createMatrixPanel(side.querySelector('.mats'), { ...MATRIX }),
    shuf: createMatrixPanel(side.querySelector('.mats'), { ...MATRIX }),
    proof: side.querySelector('.proof'),
    plain: side.querySelector('.proof-plain'),
    pooledPlot: createPlot(side.querySelector('.pooled'), { height: 150 }),
  };
}

/**
 * The view's one state object: the shell's ctx and section, the controls, the two sides, and what
 * lives between updates (the state drawn, the export, the drag, the weights, each side's last run).
 */
function createShuffle(el, ctx) {
  const v = shell(
    el,
    'Shuffle lab',
    'Each word gets a fixed random vector that knows nothing about its neighbours; one attention layer ' +
      'runs over them, once without positions and once with the method chosen. Shuffle or drag the words ' +
      '(or focus one and press Alt+←/→) and compare each original matrix with its shuffled one; tick ' +
      '<i>causal mask</i> (as in GPT-style decoders) to let each word see only itself and the words before it.',
  );
  v.body.innerHTML = MARKUP;
  return {
    ctx,
    v,
    input: v.body.querySelector('.sentence'),
    causalBox: v.body.querySelector('.causal'),
    list: v.body.querySelector('.tokens'),
    sides: [...v.body.querySelectorAll('.side')].map(sideOf),
    st: null,
    exported: null,
    refocus: null, // token index to focus after a keyboard move re-renders the list
    drag: null,
    weightCache: null,
    // The last run per side, keyed by everything that side reads (sideRuns).
    runs: [null, null],
    listShown: '',
  };
}

/** A random order of n tokens other than the current one (20 tries: n = 1 has no other). */
function shuffled(s) {
  const n = tokensOf(s.st.sentence).length;
  const cur = orderOf(s.st, n).join(',');
  let o;
  for (let tries = 0; tries < 20; tries++) {
    o = Array.from({ length: n }, (_, i) => i);
    for (let i = n - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [o[i], o[j]] = [o[j], o[i]];
    }
    if (o.join(',') !== cur) break;
  }
  return o;
}

/** The sentence, the causal mask and the two order buttons. */
function wireControls(s) {
  const { ctx, v, input, causalBox } = s;
  causalBox.addEventListener('change', () => ctx.setState({ causal: causalBox.checked }));
  input.addEventListener('input', () => ctx.setState({ sentence: input.value.trim() || 'dog bites man', order: '' }));
  v.body.querySelector('.shuffle').addEventListener('click', () => ctx.setState({ order: shuffled(s).join(',') }));
  v.body.querySelector('.reset').addEventListener('click', () => {
    const n = tokensOf(s.st.sentence).length;
    ctx.setState({ order: Array.from({ length: n }, (_, i) => i).join(',') });
  });
}

/** Move the token at `from` to `to` (and keep it focused). */
function move(s, from, to) {
  const o = orderOf(s.st, tokensOf(s.st.sentence).length);
  if (to < 0 || to >= o.length || from === to) return;
  const [x] = o.splice(from, 1);
  o.splice(to, 0, x);
  s.refocus = to;
  s.ctx.setState({ order: o.join(',') });
}

/** The index of the token under the point (x, y), the dragged one aside; -1 for none. */
function indexAt(s, x, y) {
  return [...s.list.children].findIndex((li) => {
    if (li === s.drag?.li) return false;
    const r = li.getBoundingClientRect();
    return x >= r.left && x <= r.right && y >= r.top && y <= r.bottom;
  });
}

function endDrag(s, e, commit) {
  if (!s.drag || e.pointerId !== s.drag.id) return;
  const { li, from, moved } = s.drag;
  s.drag = null;
  li.classList.remove('dragging');
  li.style.transform = '';
  for (const c of s.list.children) c.classList.remove('drop-target');
  const to = commit && moved ? indexAt(s, e.clientX, e.clientY) : -1;
  if (to >= 0) move(s, from, to);
}

function dragMove(s, e) {
  const { drag, list } = s;
  if (!drag || e.pointerId !== drag.id) return;
  const dx = e.clientX - drag.x,
    dy = e.clientY - drag.y;
  if (!drag.moved && Math.hypot(dx, dy) < 4) return;
  drag.moved = true;
  drag.li.classList.add('dragging');
  drag.li.style.transform = `translate(${dx}px, ${dy}px)`;
  const to = indexAt(s, e.clientX, e.clientY);
  [...list.children].forEach((c, i) => c.classList.toggle('drop-target', i === to));
}

// Pointer events, not HTML5 drag and drop (which touch screens never fire): one path for mouse,
// pen and touch. The token follows the pointer; the token under the pointer at release is where
// it lands. A press without movement stays a plain focus/click. Alt/Shift+←/→ moves the focused
// token, ←/→ alone moves the focus.
function wireTokens(s) {
  const { list } = s;
  list.addEventListener('pointerdown', (e) => {
    const li = e.target.closest('li');
    if (!li || s.drag || (e.pointerType === 'mouse' && e.button !== 0)) return;
    s.drag = { li, id: e.pointerId, from: [...list.children].indexOf(li), x: e.clientX, y: e.clientY, moved: false };
    li.setPointerCapture(e.pointerId);
  });
  list.addEventListener('pointermove', (e) => dragMove(s, e));
  list.addEventListener('pointerup', (e) => endDrag(s, e, true));
  list.addEventListener('pointercancel', (e) => endDrag(s, e, false));
  list.addEventListener('keydown', (e) => {
    const li = e.target.closest('li');
    if (!li) return;
    const i = [...list.children].indexOf(li);
    const dir = e.key === 'ArrowLeft' ? -1 : e.key === 'ArrowRight' ? 1 : 0;
    if (!dir) return;
    e.preventDefault();
    if (e.altKey || e.shiftKey) move(s, i, i + dir);
    else list.children[i + dir]?.focus();
  });
}

/** Query/key/value weights per d_model, drawn once into wasm heap buffers (ctx.pool): at
 * d_model 1024 they are three million normals, and a heap buffer is read in place by every
 * pe.selfAttention call instead of being copied in (3 × 4 MiB per call at d_model 1024). */
function weightsFor(s, pe, D) {
  const { ctx } = s;
  // The pool is the API's: after attach() (the real core, or a full one for attention) the
  // old buffers belong to another core.
  const live = s.weightCache?.pool === ctx.pool && !s.weightCache.bufs.some((b) => b.freed);
  if (s.weightCache?.D !== D || !live) {
    const w = (seed) => {
      const buf = ctx.pool.f32(`shuffleW${seed}`, D * D);
      pe.learnedInit({ length: D, dim: D, std: 1 / Math.sqrt(D), seed, out: buf });
      return buf;
    };
    const bufs = [w(11), w(12), w(13)];
    s.weightCache = { D, pool: ctx.pool, bufs, w: { wq: bufs[0], wk: bufs[1], wv: bufs[2] } };
  }
  return s.weightCache.w;
}

// What a side reads (the method's keys in the registry): a state change it does not read (the
// base under ALiBi, say, or anything at all for the side without positions) reuses its last run.
const readsOf = (st, type) => (type === 'none' ? [] : (METHODS[type]?.keys ?? Object.keys(st).sort()));

function compute(s) {
  const { st } = s;
  const pe = s.ctx.pe;
  const D_MODEL = st.dim;
  const words = tokensOf(st.sentence);
  const n = words.length;
  const perm = orderOf(st, n);
  const inv = new Array(n);
  perm.forEach((src, k) => (inv[src] = k));
  // The most heads up to the page's setting that split d_model into even head sizes (RoPE pairs).
  let heads = Math.min(st.heads, D_MODEL / 2);
  while (heads > 1 && (D_MODEL % heads || (D_MODEL / heads) % 2)) heads--;
  // Context-free inputs: row k is the word's own vector, nothing else.
  const X = new Float32Array(n * D_MODEL);
  words.forEach((w, k) => X.set(pe.learnedInit({ length: 1, dim: D_MODEL, std: 1, seed: seedOf(w) }), k * D_MODEL));
  const Xs = new Float32Array(n * D_MODEL);
  perm.forEach((src, k) => Xs.set(X.subarray(src * D_MODEL, (src + 1) * D_MODEL), k * D_MODEL));
  const weights = weightsFor(s, pe, D_MODEL);
  const causal = st.causal === true;
  const layer = (tokens, encoding) =>
    pe.selfAttention({ tokens, dModel: D_MODEL, ...weights, heads, encoding, causal, returnWeights: true });
  const types = ['none', st.method];
  s.exported = { kind: 'lab', words, order: perm, heads, dModel: D_MODEL, sides: [] };
  const shuffledText = perm.map((k) => words[k]).join(' ');
  const identity = perm.every((p, i) => p === i);
  const run = { pe, words, n, perm, inv, heads, D_MODEL, causal, shuffledText, identity, X, Xs, layer };
  types.forEach((type, i) => showSide(s, run, type, i));
}

/** The two attention runs (original, shuffled) of side i, reused while nothing it reads changes. */
function sideRuns(s, run, type, i) {
  const { st, runs } = s;
  const { pe, words, n, perm, heads, D_MODEL, causal, X, Xs, layer } = run;
  const { proof, side, plain } = s.sides[i];
  try {
    const key = JSON.stringify([type, words, perm, D_MODEL, heads, causal, ...readsOf(st, type).map((k) => st[k])]);
    if (runs[i]?.key !== key) {
      runs[i] = null;
      // the method's encoding option, with deterministic stand-ins for trained parameters
      const rand = (length, dim, seed, std = 0.5) => pe.learnedInit({ length, dim, std, seed });
      const enc = type === 'none' ? { type } : METHODS[type].attention(pe, st, { n, heads, dModel: D_MODEL, rand });
      runs[i] = { key, a: layer(X, enc), b: layer(Xs, enc) };
    }
    return runs[i];
  } catch (e) {
    proof.innerHTML = '';
    plain.textContent = '';
    side.dataset.maxDiff = side.dataset.cosine = '';
    throw e;
  }
}

/** One side of the lab: its heading, its runs, the un-permuted comparison, its text and figures. */
function showSide(s, run, type, i) {
  const { st, runs } = s;
  const { pe, n, perm, heads, D_MODEL, causal, identity } = run;
  const { title, proof, side, plain } = s.sides[i];
  const hShown = Math.min(st.head, heads - 1);
  const name = type === 'none' ? '' : methodLabel(type);
  const label = `${type === 'none' ? 'No positions' : `With ${name}`}${causal ? ', causal mask' : ''}`;
  const detail = type === 'rope' ? ` (${ropeCaption(pe, st, D_MODEL / heads)})` : '';
  const heading = `${label}${detail} · head ${hShown + 1} of ${heads}, d_model ${D_MODEL}`;
  if (title.textContent !== heading) title.textContent = heading;
  const { a, b } = sideRuns(s, run, type, i);
  // Nothing this side shows has changed (a control only the other side reads, say): keep its
  // figures and text as they are instead of repainting four canvases with the same pixels.
  const drawKey = `${runs[i].key}|${hShown}|${st.palette}|${readTheme(s.v.section).key}|${heading}`;
  if (runs[i].drawn === drawKey && runs[i].exp) {
    s.exported.sides.push(runs[i].exp);
    return;
  }
  const diff = unpermutedDiff(a, b, perm, n, heads, hShown, D_MODEL);
  const { maxA, maxOut } = diff;
  const pooled = pooledVectors(a, b, n, D_MODEL);
  const cosine = pe.similarity(pooled, { length: 2, dim: D_MODEL, normalize: true })[1];
  side.dataset.maxDiff = String(maxA);
  side.dataset.outDiff = String(maxOut);
  side.dataset.cosine = cosine.toFixed(6);
  // Before the wasm (the stand-in API's equal numbers) the text is laid out as the real numbers
  // will have it, so its height holds: without positions always the same numbers, with them
  // (almost always) different ones.
  const same = pe.stub ? type === 'none' && !causal : maxA < 1e-5;
  plain.innerHTML = plainVerdict(run, { type, name, a, b, same, diff, hShown });
  proof.innerHTML = `<dt>max |attention after un-permuting − original|</dt><dd class="${same ? 'same' : 'differs'}">${maxA.toExponential(2)}</dd>
        <dt>max |output after un-permuting − original|</dt><dd>${maxOut.toExponential(2)}</dd>
        <dt>cosine of pooled sentence vectors</dt><dd class="${same ? 'same' : 'differs'}">${cosine.toFixed(6)}</dd>
        <dt>verdict</dt><dd>${verdict(type, same, maxA, cosine, identity, causal)}</dd>`;
  drawSide(st, run, s.sides[i], a, b, hShown, pooled);
  runs[i].exp = {
    encoding: type,
    maxAttentionDiff: maxA,
    maxOutputDiff: maxOut,
    pooledCosine: cosine,
    original: Array.from(a.weights),
    shuffled: Array.from(b.weights),
  };
  runs[i].drawn = drawKey;
  s.exported.sides.push(runs[i].exp);
}

/** A side's figures: head hShown of both runs as word-labelled matrices, and the pooled vectors. */
function drawSide(st, run, { orig, shuf, pooledPlot }, a, b, hShown, pooled) {
  const { words, n, perm, inv, D_MODEL, shuffledText } = run;
  const h = hShown;
  const hm = (r) => r.weights.subarray(h * n * n, (h + 1) * n * n);
  orig.setTitle(`original: ${words.join(' ')}`);
  shuf.setTitle(`shuffled: ${shuffledText}`);
  const shufWords = perm.map((k) => words[k]);
  for (const [p, names] of [
    [orig, words],
    [shuf, shufWords],
  ]) {
    p.rowNames = names;
    p.colNames = names;
    p.rowAxis = 'query word';
    p.colAxis = 'key word';
  }
  const A = hm(a),
    B = hm(b);
  orig.describe = (i, j, x) =>
    `“${words[i]}” attends to “${words[j]}”: ${fmt(x)} here, ${fmt(B[inv[i] * n + inv[j]])} in the shuffled order`;
  shuf.describe = (i, j, x) =>
    `“${words[perm[i]]}” attends to “${words[perm[j]]}”: ${fmt(x)} here, ${fmt(A[perm[i] * n + perm[j]])} in the original order`;
  // Hovering a cell frames the same word pair in the other matrix.
  orig.onCursor = (i, j) => shuf.highlight(inv[i], inv[j]);
  shuf.onCursor = (i, j) => orig.highlight(perm[i], perm[j]);
  const pal = paletteFor('onesided', st.palette);
  orig.draw(A, n, n, { lo: 0, hi: 1, palette: pal, note: 'attention weight' });
  shuf.draw(B, n, n, { lo: 0, hi: 1, palette: pal, note: 'attention weight' });
  pooledPlot.setTitle(`Pooled sentence vectors (mean over words), ${D_MODEL} dims`);
  pooledPlot.draw(
    [
      { y: pooled.subarray(0, D_MODEL), label: `original: ${words.join(' ')}`, colour: 0, dots: D_MODEL <= 64 },
      { y: pooled.subarray(D_MODEL), label: `shuffled: ${shuffledText}`, colour: 1, dash: true },
    ],
    { xLabel: 'dimension of the sentence vector', yLabel: 'value', integerX: true },
  );
}

/** The token list, rebuilt only when the shown order changes (or a moved token keeps focus). */
function showTokens(s, active) {
  const { st, list } = s;
  const words = tokensOf(st.sentence);
  const perm = orderOf(st, words.length);
  const focused = s.refocus ?? [...list.children].indexOf(active);
  s.refocus = null;
  const listKey = JSON.stringify(perm.map((k) => words[k]));
  if (listKey !== s.listShown || focused >= 0) {
    s.listShown = listKey;
    list.replaceChildren(
      ...perm.map((k) => {
        const li = document.createElement('li');
        li.textContent = words[k];
        li.tabIndex = 0;
        return li;
      }),
    );
  }
  if (focused >= 0) list.children[focused]?.focus();
}

function update(s, st) {
  s.st = st;
  s.v.clear();
  // Inside <posenc-view> document.activeElement is the host: ask the shell (ctx.activeElement).
  const active = s.ctx.activeElement?.() ?? document.activeElement;
  if (active !== s.input && s.input.value !== st.sentence) s.input.value = st.sentence;
  if (s.causalBox.checked !== (st.causal === true)) s.causalBox.checked = st.causal === true;
  showTokens(s, active);
  s.v.guard(() => compute(s), 'attention');
}

export function setupShuffle(el, ctx) {
  const s = createShuffle(el, ctx);
  wireControls(s);
  wireTokens(s);
  return {
    update: (st) => update(s, st),
    exportData: () => s.exported,
    figure: (o) =>
      stackFigures(
        s.sides.flatMap((x) => [x.orig.figure(o), x.shuf.figure(o), x.pooledPlot.figure(o)]),
        o,
      ),
    canvas: () => s.sides[1].shuf.canvas,
  };
}
