// What the views say against what the library computes, without a browser: the lab's loss
// caption names the chance level of the task chosen (ln of the number of answers the task's own
// generator produces), its attention caption expects a diagonal only for fixed-offset tasks, and a
// RoPE scaling's factor is offered only with a scaling (VIEW_INFO.controlsFor). And the views'
// declarations (web/src/views/*.view.js) against every list of views that cannot import them. The
// float32 angle errors the rope-code step quotes, recomputed from Hugging Face's float32 arithmetic.
// The numbers the guided path's steps quote (sinusoidal, waves, ALiBi, T5, DeepSeek, float32), from
// their formulas in float64.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { init } from '../js/index.js';
import { FIELDS, LAB_TASKS } from '../web/src/state.js';
import { attentionExpectation, lossCaption } from '../web/src/views/lab.js';
import { MODELS as SCALING_MODELS } from '../web/src/views/scaling_models.js';
import { setupName, VIEW_IDS, VIEW_INFO, VIEWS } from '../web/src/views/registry.js';
import { ELEMENT } from '../web/src/embed-heights-element.js';
import { IFRAME } from '../web/src/embed-heights-iframe.js';
import { SETTINGS } from '../web/src/embed-heights-settings.js';
import { lists } from '../tools/view_lists.js';

const pe = await init({ lab: true });

test('lab: the loss caption gives ln(number of answers) of the task chosen', () => {
  for (const [id, label, task] of LAB_TASKS) {
    // the answers the task's generator can ask for, over many sequences
    const { model } = pe.train({ ...task, method: 'none', steps: 10, seed: 0, length: 32 });
    const { targets } = pe.labSequences(model, { length: 32, count: 64, seed: 1 });
    const answers = new Set();
    for (const t of targets) if (t >= 0) answers.add(t);
    const chance = Math.log(answers.size).toFixed(2);
    const caption = lossCaption(id);
    assert.ok(caption.includes(`ln ${answers.size} = ${chance}`), `${label}: ${answers.size} answers, ${caption}`);
    if (answers.size !== 16) assert.ok(!caption.startsWith('Training loss (cross-entropy; a uniform'), label);
  }
  assert.match(lossCaption('first'), /ln 2 = 0\.69/);
  assert.match(lossCaption('ngram'), /1\.19/, 'the trigram source has an entropy floor');
});

test('lab: the attention caption expects a line at the offset a task reads, and none where it reads no offset', () => {
  assert.match(attentionExpectation('copy'), /1 cell left of the diagonal/);
  assert.match(attentionExpectation('copy4'), /4 cells left of the diagonal/);
  assert.match(attentionExpectation('first'), /^No diagonal is expected/);
  assert.doesNotMatch(attentionExpectation('first'), /sharp line/);
  for (const [id] of LAB_TASKS) assert.ok(attentionExpectation(id).length > 40, id);
});

test('controls: a factor only with a scaling (extrapolation, scaling, rotation)', () => {
  for (const view of ['extrapolation', 'scaling', 'rotation']) {
    const info = VIEW_INFO[view];
    assert.ok(!info.controlsFor({ scaling: 'none', method: 'rope' }).includes('factor'), `${view}: none`);
    assert.ok(info.controlsFor({ scaling: 'yarn', method: 'rope' }).includes('factor'), `${view}: yarn`);
  }
});

test('scaling view: NTK-aware, Llama 3.1 and LongRoPE carry their sources', () => {
  const src = readFileSync(new URL('../web/src/views/scaling.js', import.meta.url), 'utf8');
  // bloc97's post (the NTK-aware rule), Meta's reference code (Llama 3.1's rule), Ding et al. 2024
  for (const s of ['reddit.com/r/LocalLLaMA/comments/14lz7j5', 'reference_impl/model.py', 'arxiv.org/abs/2402.13753'])
    assert.ok(src.includes(s), s);
});

// The views' declarations (web/src/views/<id>.view.js, listed in tab order by registry.js) hold
// each view's facts once; what cannot import them is written from them (tools/view_lists.js) or
// measured per view (the embed height tables). Each check fails naming the view or file.
const read = (path) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');
const missing = (have) => VIEW_IDS.filter((id) => !have.includes(id));
const VIEWS_DIR = new URL('../web/src/views/', import.meta.url);

test('views: every views/<id>.view.js is in the registry once, under its file name', async () => {
  const files = readdirSync(VIEWS_DIR).filter((f) => f.endsWith('.view.js'));
  assert.ok(files.length >= 16, `${files.length} declarations`);
  for (const f of files) {
    const { view } = await import(new URL(f, VIEWS_DIR).href);
    assert.equal(`${view?.id}.view.js`, f, `web/src/views/${f} declares view ${view?.id}`);
    assert.equal(VIEWS.filter((v) => v === view).length, 1, `web/src/views/registry.js VIEWS lists ${view.id} once`);
  }
  assert.equal(VIEWS.length, files.length, 'every view of registry.js VIEWS has its views/<id>.view.js');
  assert.equal(new Set(VIEW_IDS).size, VIEW_IDS.length, 'view ids are unique');
});

test('views: each declaration has its label, title, needs, controls, panels and height, and its module sets it up', async () => {
  for (const v of VIEWS) {
    const at = `web/src/views/${v.id}.view.js`;
    for (const k of ['label', 'title', 'module']) assert.ok(typeof v[k] === 'string' && v[k], `${at}: ${k}`);
    const file = new URL(`${v.module}.js`, VIEWS_DIR);
    assert.ok(existsSync(file), `${at}: module ${v.module}, no web/src/views/${v.module}.js`);
    const { [setupName(v.id)]: setup } = await import(file.href);
    assert.equal(typeof setup, 'function', `web/src/views/${v.module}.js exports no ${setupName(v.id)} (${at})`);
    assert.ok(Array.isArray(v.needs), `${at}: needs, a list of API families`);
    for (const family of v.needs)
      assert.ok(
        existsSync(new URL(`../families/${family}/${family}.js`, import.meta.url)),
        `${at}: needs ${family}, no families/${family}/${family}.js`,
      );
    for (const k of v.controls) assert.ok(k in FIELDS, `${at}: control ${k} is no state field`);
    assert.ok(Array.isArray(v.panels) && v.panels.every((p) => p.id && p.label), `${at}: panels [{ id, label }]`);
    assert.equal(typeof v.height?.estimate, 'function', `${at}: height.estimate(state, width)`);
    const fits = Array.isArray(v.height.fit) ? [v.height.fit] : Object.values(v.height.fit ?? {});
    if (!Array.isArray(v.height.fit))
      assert.deepEqual(
        Object.keys(v.height.fit ?? {}),
        v.panels.map((p) => p.id),
        `${at}: a fit per panel`,
      );
    for (const f of fits) assert.ok(f.length === 2 && f.every(Number.isFinite), `${at}: a fit is [a, b]`);
  }
  // the link names all panels ('') or one of some view's, and every view's
  const panels = VIEWS.flatMap((v) => v.panels.map((p) => p.id));
  for (const p of FIELDS.panel[1].list) assert.ok(p === '' || panels.includes(p), `panel=${p}: no view has it`);
  for (const p of panels) assert.ok(FIELDS.panel[1].list.includes(p), `panel=${p} is refused by the link`);
});

test('views: the package lists the views as tools/view_lists.js writes them from the declarations', () => {
  for (const [file, now, want] of lists())
    assert.ok(now === want, `${file} lists other views than the declarations: run node tools/view_lists.js`);
  // the README's sentence names every view (the tool rewrites what is between its markers)
  const readme = read('packages/posenc-view/README.md').replace(/\s+/g, ' ');
  const listed = /`view` \(<!-- views -->([a-z, ]+)<!-- \/views -->\)/.exec(readme)?.[1].split(', ') ?? [];
  assert.deepEqual(listed, VIEW_IDS, 'packages/posenc-view/README.md: the `view` attribute');
});

test('views: the embed height tables and tests/browser.test.js CASES have every view and no other', () => {
  for (const [name, table] of Object.entries({ ELEMENT, IFRAME, SETTINGS })) {
    assert.deepEqual(missing(Object.keys(table)), [], `web/src/embed-heights-*.js ${name} lacks these views`);
    for (const id of Object.keys(table)) assert.ok(VIEW_IDS.includes(id), `${name} has ${id}, which no view declares`);
  }
  // tests/browser.test.js: every view renders with every API function it calls, per [view, method, functions]
  const cases = /const CASES = \[([\s\S]*?)\n\];/.exec(read('tests/browser.test.js'))?.[1] ?? '';
  const inCases = [...cases.matchAll(/^\s+\[\s*'(\w+)',/gm)].map((m) => m[1]);
  assert.deepEqual(missing(inCases), [], 'tests/browser.test.js CASES lacks these views');
});

// Hugging Face's LlamaRotaryEmbedding in float32: inv_freq = 1 / base^(arange(0, d, 2) / d) and the
// angle inv_freq × position, each operation rounded to float32 (Math.fround); Llama 3.1's rule as in
// _compute_llama3_parameters (factor 8, low 1, high 4, original 8192). The largest error of any pair's
// angle against float64, at one position.
function hfAngleError(base, d, p, llama3 = false) {
  const f = Math.fround;
  const scale = (inv, r) => {
    const wl = r((2 * Math.PI) / inv);
    if (wl < 8192 / 4) return inv;
    if (wl > 8192) return r(inv / 8);
    const s = r((8192 / wl - 1) / 3);
    return r(r((1 - s) * r(inv / 8)) + r(s * inv));
  };
  let worst = 0;
  for (let i = 0; i < d; i += 2) {
    let inv32 = f(1 / f(f(base) ** f(f(i) / f(d))));
    let inv64 = 1 / base ** (i / d);
    if (llama3) (inv32 = scale(inv32, f)), (inv64 = scale(inv64, (x) => x));
    worst = Math.max(worst, Math.abs(f(inv32 * f(p)) - inv64 * p));
  }
  return worst;
}

test('rope-code step: the float32 angle errors it quotes are those of Hugging Face’s float32 arithmetic', async () => {
  const { STEPS } = await import('../web/src/steps.js');
  const step = STEPS.find((s) => s.id === 'rope-code');
  const said = `${step.text} ${step.predict.why.join(' ')}`;
  const sci = (x) => {
    const e = Math.floor(Math.log10(x));
    return `${(x / 10 ** e).toFixed(1)}·10${String(e)
      .replace('-', '⁻')
      .replace(/\d/g, (c) => '⁰¹²³⁴⁵⁶⁷⁸⁹'[c])}`;
  };
  const at2048 = hfAngleError(10000, 128, 2048);
  const at131k = hfAngleError(10000, 128, 131072);
  const llama = hfAngleError(500000, 128, 131072, true);
  for (const x of [at2048, at131k, llama]) assert.ok(said.includes(sci(x)), `${sci(x)} quoted`);
  // families/rope/rope.md's Precision section quotes the same two angle errors, in e-notation
  const doc = readFileSync(new URL('../families/rope/rope.md', import.meta.url), 'utf8');
  const quoted = `${at2048.toExponential(0)} off at position 2048 and ${at131k.toExponential(1)} off at\n131072`;
  assert.ok(doc.includes(quoted), `families/rope/rope.md: “${quoted}”`);
  // ... and the error of the cos and sin values those angles give (at most the angle's)
  const f = Math.fround;
  let trig = 0;
  for (let i = 0; i < 128; i += 2) {
    const a32 = f(f(1 / f(f(10000) ** f(f(i) / f(128)))) * f(131072));
    const a = 131072 / 10000 ** (i / 128);
    trig = Math.max(trig, Math.abs(Math.cos(a32) - Math.cos(a)), Math.abs(Math.sin(a32) - Math.sin(a)));
  }
  assert.ok(doc.includes(`cos and sin values are then up to ${trig.toExponential(1)} off`), `${trig} quoted`);
  // the spacing argument: floats in [65 536, 131 072) are 2⁻⁷ apart, so a product is rounded by ≤ 2⁻⁸
  assert.ok(at131k > 2 ** -8 * 0.9 && llama > at131k, 'inv_freq’s own rounding adds to the product’s');
});

// state.js keeps the preset ids as a list of its own, so a link's parser does not pull every
// model's config into each bundle that reads the state (the page, the worker, the element); this
// holds it to the scaling view's table.
test('scaling view: the link accepts exactly the preset ids of views/scaling_models.js', () => {
  const [, parse] = FIELDS.preset;
  assert.deepEqual(
    parse.list.filter((x) => x !== ''),
    SCALING_MODELS.map((m) => m.id),
  );
});

// The numbers the guided path's questions and explanations quote, recomputed here in float64 from the
// papers' formulas (and, for T5, a transcription of Hugging Face's _relative_position_bucket), and looked
// up in the step's own text: a step whose number drifts from its formula fails by name.
const plainText = (html) =>
  html
    .replace(/<[^>]+>/g, '')
    .replace(/\s+/g, ' ')
    .trim();
async function stepSays(id) {
  const { STEPS } = await import('../web/src/steps.js');
  const s = STEPS.find((x) => x.id === id);
  const p = s.predict;
  const says = (x) => assert.ok(all.includes(x), `${id}: “${x}” quoted`);
  const all = plainText([s.intro, s.text, s.notice, p.q, ...p.choices, ...p.why].join(' '));
  return { s, answer: plainText(p.choices[p.answer]), says };
}
/** HF T5Attention._relative_position_bucket for one relative position (key − query), in float64. */
function t5Bucket(rel, bidirectional, numBuckets, maxDistance) {
  let n = numBuckets;
  let out = 0;
  let r = rel;
  if (bidirectional) {
    n /= 2;
    if (r > 0) out += n;
    r = Math.abs(r);
  } else r = -Math.min(r, 0);
  const maxExact = n / 2;
  if (r < maxExact) return out + r;
  const large = maxExact + Math.trunc((Math.log(r / maxExact) / Math.log(maxDistance / maxExact)) * (n - maxExact));
  return out + Math.min(large, n - 1);
}

test('guided path: the numbers the sinusoidal steps quote follow from ω_i = 1/10000^(2i/d)', async () => {
  const w = (i, d) => 1 / 10000 ** ((2 * i) / d);
  // step 3: the first position where sin(p·ω₁) > 0.5 at d = 4
  let first = 0;
  while (Math.sin(first * w(1, 4)) <= 0.5) first++;
  const sin = await stepSays('sinusoidal');
  assert.equal(sin.answer, `p = ${first}`);
  sin.says(`sin 0.5 = ${Math.sin(0.5).toFixed(3)}`);
  sin.says(`sin ${(first / 100).toFixed(2)} = ${Math.sin(first * w(1, 4)).toFixed(3)}`);
  sin.says(`sin ${((first - 1) / 100).toFixed(2)} = ${Math.sin((first - 1) * w(1, 4)).toFixed(3)}`);
  for (const omega of [0.001, 1e-4])
    sin.says(
      `p = ${Math.round(Math.PI / 6 / omega)
        .toLocaleString('en')
        .replace(',', ' ')}`,
    );
  // step 4: the slowest pair's wavelength at d = 64
  const slow = (2 * Math.PI) / w(31, 64);
  const heat = await stepSays('sinusoidal-heatmap');
  assert.equal(heat.answer, `About ${(Math.round(slow / 100) * 100).toLocaleString('en').replace(',', ' ')}`);
  heat.says(`2π·${Math.round(10000 ** (62 / 64))}`);
  // step 5: pairs completing a turn within 64 and within 256 positions
  const turns = (len) => Array.from({ length: 32 }, (_, i) => (2 * Math.PI) / w(i, 64)).filter((l) => l <= len).length;
  const waves = await stepSays('waves');
  assert.equal(turns(64), 9);
  waves.says(`nine pairs complete a turn (i = 0 … ${turns(64) - 1}`);
  assert.equal(waves.answer, `${turns(256)} pairs`);
  const lam = (i) => Math.round((2 * Math.PI) / w(i, 64));
  waves.says(
    `i = 0 … ${turns(256) - 1} (pair ${turns(256) - 1}: ${lam(turns(256) - 1)} positions; pair ${turns(256)}: ${lam(turns(256))})`,
  );
  waves.says(`≤ 256/2π ≈ ${(256 / (2 * Math.PI)).toFixed(1)}`);
  waves.says(`10000^(1/32) ≈ ${(10000 ** (1 / 32)).toFixed(2)}`);
  waves.says(`log(4)/log(1.33) ≈ ${(Math.log(4) / Math.log(10000 ** (1 / 32))).toFixed(1)} pairs`);
  waves.says(`2π·${(10000 ** (4 / 32)).toFixed(1)} ≈ ${Math.round(lam(4))}`);
  waves.says(`2π·10000^(19/32) ≈ ${Math.round(lam(19) / 10) * 10}`);
  waves.says(`(${(64 * w(31, 64)).toFixed(4)} rad at position 64)`);
});

test('guided path: the ALiBi, T5, DeepSeek and float32 numbers the steps quote', async () => {
  // ALiBi: slopes 2^(−8h/H); for 12 heads the reference get_slopes (8-head slopes, then every other 16-head one)
  const pow2 = (n) => Array.from({ length: n }, (_, h) => 2 ** ((-8 * (h + 1)) / n));
  const alibi = await stepSays('alibi');
  const [m1, m8] = [pow2(8)[0], pow2(8)[7]];
  assert.equal(alibi.answer, `By ${10 * m1} in head 1, by ${(10 * m8).toFixed(3)} in head 8`);
  alibi.says(`costs head 8 only ${(100 * m8).toFixed(2)}`);
  const twelve = [
    ...pow2(8),
    ...pow2(16)
      .filter((_, k) => k % 2 === 0)
      .slice(0, 4),
  ];
  const exp = (m) => `2−${Number((-Math.log2(m)).toFixed(2))}`;
  alibi.says(`12 heads: ${exp(twelve[0])} … ${exp(twelve[7])}, then ${twelve.slice(8).map(exp).join(', ')}`);
  // T5: where the last bucket of each direction begins, 32 buckets, max distance 128
  const lastFrom = (bi) => {
    const last = t5Bucket(-100000, bi, 32, 128);
    let r = 1;
    while (t5Bucket(-r, bi, 32, 128) !== last) r++;
    return r;
  };
  const t5 = await stepSays('t5');
  t5.says(
    `at distance ${lastFrom(true)} bidirectionally (16 buckets per direction) and at ${lastFrom(false)} causally`,
  );
  assert.equal(
    t5Bucket(-3000, false, 32, 128),
    t5Bucket(-128, false, 32, 128),
    'T5: 3000 back shares the bucket of 128',
  );
  // DeepSeek-V2: softmax scale × mscale², mscale = 0.1·mscale_all_dim·ln(factor) + 1 (YaRN's get_mscale)
  const scaling = await stepSays('scaling');
  scaling.says(`mscale² ≈ ${((0.1 * 0.707 * Math.log(40) + 1) ** 2).toFixed(2)}`);
  // Llama 3.1 (HF _compute_llama3_parameters): thresholds old_context / high_freq_factor and / low_freq_factor
  scaling.says(`wavelengths below ${8192 / 4} tokens unchanged, above ${8192 / 1} divided by 8`);
  // rope-code: float32's unit roundoff times the largest angle
  const code = await stepSays('rope-code');
  code.says(`131 072 × ${(2 ** -24 * 1e8).toFixed(0)}·10⁻⁸ ≈ ${(131072 * 2 ** -24).toFixed(3)}`);
  code.says(`neighbouring floats are 2⁻⁷ ≈ ${(2 ** -7).toFixed(3)} apart`);
});
