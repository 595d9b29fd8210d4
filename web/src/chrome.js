// The page's own chrome around the view: the mode bar (guided path or explorer, theme), the guided
// path's step text and links, the tabs, the export buttons and the skip link. Embeds and
// <posenc-view> show none of it, so they never download it: main.js imports this module (and its
// stylesheet) for the page only, while the wasm is on its way.
import './chrome.css';
import { loadSteps, opts, steps, stepState, urlOf } from './app.js';
import { displayOrders, pathSet, quizSet, readerId } from './choices.js';
import { esc } from './draw.js';
import { FIELDS, VIEWS, toParams } from './state.js';

/** The tabs: [id, label] per view, in the views' order (views/registry.js). */
const TABS = VIEWS;

/** The markup above the controls and figure (top) and below the figure (bottom). */
export const top = `<a class="skip" href="#figure">Skip to the figure</a>
    <div class="modebar"><nav class="modes" aria-label="page mode">
      <a class="mode-guided" href="?">Guided path</a><a class="mode-explorer" href="?view=heatmap">Explorer</a></nav>
      <label class="theme-pick">theme <select name="theme">${opts(FIELDS.theme[1].list)}</select></label></div>
    <nav class="guide" aria-label="guided path" hidden>
      <p class="stepno" aria-live="polite"></p><h2 class="steptitle" tabindex="-1"></h2><div class="stepintro"></div>
      <div class="predict-slot"></div>
      <details class="more" hidden><summary>Read the step</summary><div class="steptext"></div><p class="sources"></p></details>
      <div class="quiz" hidden></div>
      <div class="stepnav"><a class="back" rel="prev">← Back</a><a class="next" rel="next">Next →</a><a class="explore">Open in the explorer</a></div>
    </nav>
    <div class="tabs" role="tablist" aria-label="views" hidden>${TABS.map(([v, l]) => `<button type="button" role="tab" id="tab-${v}" aria-controls="figure-panel" data-view="${v}">${esc(l)}</button>`).join('')}</div>`;
export const bottom = `<div class="exports" role="group" aria-label="export">
        <button type="button" data-export="png">Export PNG</button><button type="button" data-export="svg" hidden>SVG</button><button type="button" data-export="csv">CSV</button>
        <button type="button" data-export="json">JSON</button><button type="button" data-export="link">Copy link</button>
        <span class="perf" aria-live="off"></span></div>
      <nav class="stepnav stepnav-bottom" aria-label="guided path, after the figure" hidden><a class="back" rel="prev">← Back</a><a class="next" rel="next">Next →</a></nav>`;

/** Below the app: how to embed a view (the page's own, so embeds do not download it). */
export const footer = `<footer class="chrome">
    <p>Embed one view in a blog post: <strong>Copy embed code for this view</strong> gives an iframe
      (with <code>posenc-embed.js</code>, which sizes it and passes on your page's theme) and the
      <code>&lt;posenc-view&gt;</code> element (also on npm as <code>posenc-view</code>), both for
      the state on screen and both reserving the view's height for your column's width, so the post
      does not jump.</p>
    <p>Options: <code>theme=light|dark|auto</code> (auto follows your page's dark mode),
      <code>background=transparent|#colour</code>, <code>hide=title,intro</code>, <code>controls=none|own|all</code>,
      <code>panel=alibi</code>.</p>
  </footer>`;

/**
 * Wire the chrome (laid out from `top` and `bottom` by createApp) to the app; returns sync(), which
 * the app calls on every render to bring the chrome up to the state.
 */
export function mount({ root, host, stage, state, setState, navigate, goStep, current }) {
  // The chrome's one state: the app's parts and calls, its guide and tabs, and whether the next
  // step takes focus to its title.
  const c = { root, host, stage, state, setState, navigate, goStep, current, focusTitle: false };
  c.guide = root.querySelector('.guide');
  c.tabs = root.querySelector('.tabs');
  root.querySelector('[name=theme]').addEventListener('change', (e) => {
    setState({ theme: e.target.value });
    document.documentElement.dataset.theme = e.target.value;
  });
  listenGuide(c);
  listenModes(c);
  listenTabs(c);
  root.querySelector('.exports').addEventListener('click', (e) => onExport(c, e));
  // The skip link moves focus to the figure itself, not only the scroll position.
  root.querySelector('.skip').addEventListener('click', (e) => {
    e.preventDefault();
    (host.querySelector('canvas[tabindex], [tabindex="0"], input, button') ?? host).focus();
  });
  return { sync: () => syncChrome(c) };
}

/** A click on a step link (the guide's and the one below the figure): the explorer or a step. */
function onStepLink(c, e) {
  const a = e.target.closest('a');
  if (!a || e.ctrlKey || e.metaKey || e.shiftKey || e.button) return;
  if (a.classList.contains('explore')) {
    e.preventDefault();
    // The explorer holds nothing back: it opens once the step's question is answered (or told).
    if (!c.root.classList.contains('predict-pending')) c.navigate({ ...c.state, guided: false, step: '' });
  } else if (a.dataset.to !== undefined) {
    e.preventDefault();
    // A new step takes focus to its title, two Tabs from its question (not round the whole page).
    if (a.dataset.to !== '') {
      c.focusTitle = !a.closest('.qlink');
      c.goStep(Number(a.dataset.to));
    }
  }
}

// Predict → observe → explain: the answer, its explanation, the step's text and the figure's verdicts
// appear only once the reader has committed an answer, or asked to be told (which records none).
function commitAnswer(c, f, told) {
  const out = reveal(f, told);
  if (!out) return;
  // Focus follows the verdict, so a keyboard or screen reader user is not dropped to the page body.
  f.querySelector('.verdict')?.focus();
  const id = f.dataset.step;
  if (!id || out === 'retry') return;
  committed.set(id, told ? -1 : Number(f.querySelector('input:checked').value));
  if (c.guide.dataset.step === id) {
    showAfter(c.root, c.guide, true);
    syncExplore(c);
  }
}

/** The guide's links, its question's answer, "Just tell me" and "Try again". */
function listenGuide(c) {
  const { guide } = c;
  guide.addEventListener('click', (e) => onStepLink(c, e));
  guide.addEventListener('submit', (e) => {
    const f = e.target.closest('form.question');
    if (!f) return;
    e.preventDefault();
    commitAnswer(c, f, false);
  });
  guide.addEventListener('click', (e) => {
    const b = e.target.closest('button.tell, button.retry');
    if (!b?.form) return;
    if (b.classList.contains('tell')) commitAnswer(c, b.form, true);
    else retry(b.form);
  });
  c.root.querySelector('.stepnav-bottom').addEventListener('click', (e) => onStepLink(c, e));
}

/** The mode bar's two links: the guided path and the explorer. */
function listenModes(c) {
  const { root, state } = c;
  root.querySelector('.modes').addEventListener('click', (e) => {
    const a = e.target.closest('a');
    if (!a || e.ctrlKey || e.metaKey || e.shiftKey || e.button) return;
    e.preventDefault();
    if (a.classList.contains('mode-guided')) {
      if (!state.guided) loadSteps().then(() => c.goStep(0));
    } else if (state.guided && root.classList.contains('predict-pending')) {
      // Before the answer the explorer opens on its own default view, not on this step's figure.
      location.assign(a.href);
    } else if (state.guided) c.navigate({ ...state, guided: false, step: '' });
  });
}

/** The explorer's tabs: a click, or the arrow keys, Home and End (the ARIA tabs pattern). */
function listenTabs(c) {
  const { tabs, state, setState } = c;
  tabs.addEventListener('click', (e) => {
    const b = e.target.closest('[data-view]');
    if (b) setState({ view: b.dataset.view });
  });
  tabs.addEventListener('keydown', (e) => {
    const i = TABS.findIndex(([v]) => v === state.view);
    const n = TABS.length;
    const j = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: n - 1 }[e.key];
    if (j === undefined) return;
    e.preventDefault();
    const next = TABS[(j + n) % n][0];
    setState({ view: next });
    tabs.querySelector(`[data-view="${next}"]`).focus();
  });
}

/** An export button: the current view as PNG, SVG, CSV or JSON, or the link copied. */
async function onExport(c, e) {
  const { state, host } = c;
  const kind = e.target.closest('[data-export]')?.dataset.export;
  const cur = c.current();
  if (!kind || !cur) return;
  const base = `posenc-${state.view}-${state.method}`;
  const { figureCanvas, svgOf, toCsv } = await import('./export.js');
  if (kind === 'png') {
    const canvas = await figureCanvas(cur.api, host, { scale: 2 });
    canvas.toBlob((blob) => download(blob, `${base}.png`), 'image/png');
  } else if (kind === 'svg') {
    download(new Blob([await svgOf(cur.api)], { type: 'image/svg+xml' }), `${base}.svg`);
  } else if (kind === 'csv') {
    download(new Blob([toCsv(cur.api.exportData())], { type: 'text/csv' }), `${base}.csv`);
  } else if (kind === 'json') {
    const body = JSON.stringify({ state: Object.fromEntries(toParams(state)), data: cur.api.exportData() });
    download(new Blob([body], { type: 'application/json' }), `${base}.json`);
  } else if (kind === 'link') {
    await navigator.clipboard?.writeText(location.href).catch(() => {});
    e.target.textContent = 'Link copied';
    setTimeout(() => (e.target.textContent = 'Copy link'), 1500);
  }
}

/** The page's mode: the guide or the tabs shown, the mode links, the theme picker, the intro. */
function syncMode(c, guided) {
  c.root.classList.toggle('guided', guided);
  const guide = c.root.querySelector('.guide');
  guide.hidden = !guided;
  c.root.querySelector('.stepnav-bottom').hidden = !guided;
  c.tabs.hidden = guided;
  c.root.querySelector('.mode-guided').toggleAttribute('aria-current', guided);
  c.root.querySelector('.mode-explorer').toggleAttribute('aria-current', !guided);
  if (!guided) c.root.querySelector('.mode-explorer').href = urlOf({ ...c.state, guided: false });
  const theme = c.root.querySelector('[name=theme]');
  if (theme.value !== c.state.theme) theme.value = c.state.theme;
  // The width is read only when the intro is folded anew: a read here forces a layout every frame.
  foldIntro(c.host, c.current()?.name, guided, () => (c.root.clientWidth || innerWidth) > NARROW);
}

/** A step's own text into the guide: its intro, text, sources, question (as this reader left
 * it) and quiz. Step texts, questions and sources are the project's own data (steps.js), never
 * the URL's. */
function showStep(c, guide, list, i, step, reader) {
  guide.dataset.step = step.id;
  guide.querySelector('.stepno').textContent = `Step ${i + 1} of ${list.length}`;
  guide.querySelector('.steptitle').textContent = step.title;
  // On a phone the intro folds behind one line, so that the question and the figure share the
  // first screen; it is open on a wide screen.
  const wide = (c.root.clientWidth || innerWidth) > NARROW;
  guide.querySelector('.stepintro').innerHTML = step.intro
    ? `<details class="setup"${wide ? ' open' : ''}><summary>The setup</summary>${step.intro}</details>`
    : '';
  // The step's text explains the answer: it enters the page only once the reader commits (showAfter).
  guide.querySelector('.steptext').replaceChildren();
  guide.querySelector('.sources').replaceChildren();
  afterText = () => {
    guide.querySelector('.steptext').innerHTML = (step.text ?? '') + (step.table ?? '');
    guide.querySelector('.sources').replaceChildren(...sourcesOf(step));
  };
  // The step opens with its question, its choices in this reader's order (choices.js).
  const slot = guide.querySelector('.predict-slot');
  slot.innerHTML = step.predict
    ? questionHtml(`pq-${step.id}`, step.predict, {
        notice: step.notice,
        title: 'Predict first',
        order: pathOrder(list, reader, step.id),
        step: step.id,
        retry: true,
      })
    : '';
  // Back on a step already answered: the reader's answer and what it revealed, as they left it.
  const f = slot.querySelector('form.question');
  if (f && committed.has(step.id)) {
    const k = committed.get(step.id);
    if (k >= 0) f.querySelector(`input[value="${k}"]`).checked = true;
    reveal(f, k < 0);
  }
  showAfter(c.root, guide, !step.predict || committed.has(step.id));
  if (c.focusTitle) guide.querySelector('.steptitle').focus();
  c.focusTitle = false;
  c.root.classList.toggle('quiz-step', !!step.quiz);
  guide.classList.toggle('has-table', !!step.table);
  showQuiz(guide, list, step, reader);
}

/** The quiz of a quiz step (its chunk loaded on demand), its choices in this reader's order. */
function showQuiz(guide, list, step, reader) {
  const quiz = guide.querySelector('.quiz');
  quiz.hidden = !step.quiz;
  quiz.replaceChildren();
  if (!step.quiz) return;
  import('./quiz.js').then(({ QUIZ }) => {
    if (guide.dataset.step !== step.id) return;
    const orders = displayOrders(reader, 'quiz', quizSet(QUIZ));
    quiz.innerHTML = `<p class="score" role="status"></p><ol class="quiz-list">${QUIZ.map((item, k) => `<li>${questionHtml(`qz-${k}`, item, { title: `Question ${k + 1} of ${QUIZ.length}`, link: stepLink(list, item.step), order: orders[k] })}</li>`).join('')}</ol>`;
    quiz.dataset.ready = String(QUIZ.length);
  });
}

/** Guided: the step in the state (its text only when it changes), its controls and held
 * figure parts, and the back and next links. */
function syncGuided(c) {
  const guide = c.root.querySelector('.guide');
  const list = steps();
  const i = Math.max(
    0,
    list.findIndex((s) => s.id === c.state.step),
  );
  const step = list[i];
  const reader = readerId();
  // A drag re-renders every frame: touch the step's text only when the step changes.
  if (guide.dataset.step !== step.id) showStep(c, guide, list, i, step, reader);
  trimControls(c.root, step.controls);
  // A step may hold back more of its figure than the views mark (steps.js `hold`: selectors inside
  // the figure, the project's own data), marked here after every render (chrome.css hides them
  // until the answer; a page's CSP refuses inline style, so no stylesheet is written).
  markHeld(c.host, step.hold);
  const link = (a, j) => {
    const ok = j >= 0 && j < list.length;
    if (ok) a.href = urlOf({ ...stepState(list[j], c.state) });
    else a.removeAttribute('href');
    a.setAttribute('aria-disabled', String(!ok));
    a.dataset.to = ok ? String(j) : '';
  };
  for (const a of c.root.querySelectorAll('.stepnav .back')) link(a, i - 1);
  for (const a of c.root.querySelectorAll('.stepnav .next')) link(a, i + 1);
  const after = c.root.querySelector('.stepnav-bottom .next');
  after.textContent = i + 1 < list.length ? `Next: ${list[i + 1].title} →` : 'Next →';
  syncExplore(c);
  c.stage.removeAttribute('role');
  c.stage.removeAttribute('aria-labelledby');
}

/** Before the answer the figure is inert and the explorer link closed; after it, both open. */
function syncExplore(c) {
  const pending = c.root.classList.contains('predict-pending');
  const explore = c.root.querySelector('.guide .explore');
  if (pending) explore.removeAttribute('href');
  else explore.href = urlOf({ ...c.state, guided: false });
  explore.setAttribute('aria-disabled', String(pending));
  explore.title = pending ? 'Opens once you have answered the question' : '';
  c.root.querySelector('.mode-explorer').href = pending ? '?view=heatmap' : urlOf({ ...c.state, guided: false });
  lockFigure(c.root, pending);
}

/** Explorer: every control, nothing held, the view's tab selected and in sight. */
function syncTabs(c) {
  trimControls(c.root, null);
  markHeld(c.host, '');
  c.root.classList.remove('quiz-step', 'predict-pending');
  lockFigure(c.root, false);
  let active = null;
  for (const b of c.tabs.querySelectorAll('[role=tab]')) {
    const on = b.dataset.view === c.state.view;
    if (b.getAttribute('aria-selected') !== String(on)) {
      b.setAttribute('aria-selected', String(on));
      if (on) active = b;
    }
    b.tabIndex = on ? 0 : -1;
  }
  c.stage.setAttribute('role', 'tabpanel');
  c.stage.setAttribute('aria-labelledby', `tab-${c.state.view}`);
  // On a phone the strip scrolls sideways: keep the chosen tab in sight.
  if (active && c.tabs.scrollWidth > c.tabs.clientWidth) {
    c.tabs.scrollTo({
      left: Math.max(0, active.offsetLeft - (c.tabs.clientWidth - active.offsetWidth) / 2),
      behavior: 'auto',
    });
  }
}

/** Bring the chrome up to the state (the app calls it on every render). */
function syncChrome(c) {
  const guided = !!c.state.guided;
  syncMode(c, guided);
  if (guided) syncGuided(c);
  else syncTabs(c);
  const svg = c.root.querySelector('[data-export=svg]');
  svg.hidden = typeof c.current()?.api.svg !== 'function';
}

// The column width at and below which the page stacks (style.css @container; app.js NARROW).
const NARROW = 700;

/**
 * In the guided path the step's text stands in for the view's own intro: the intro folds behind "About this
 * view" (open on a wide screen, as the step's text is), so that on a phone the figure starts on the first
 * screen. host's data-view lets chrome.css put each view's figure above its in-view controls there. The
 * explorer gets the intro back where the view put it. `wide()` says whether the column is wide (read only
 * when the intro is folded anew).
 */
function foldIntro(host, view, guided, wide) {
  const section = host.querySelector(':scope > .view');
  if (!section) return;
  if (view && host.dataset.view !== view) host.dataset.view = view;
  const about = section.querySelector(':scope > details.about');
  const intro = about ? about.querySelector(':scope > .intro') : section.querySelector(':scope > .intro');
  if (!intro) return;
  if (guided && !about) {
    const d = Object.assign(document.createElement('details'), { className: 'about', open: wide() });
    d.append(Object.assign(document.createElement('summary'), { textContent: 'About this view' }));
    intro.before(d);
    d.append(intro);
  } else if (!guided && about) {
    about.replaceWith(intro);
  }
}

function sourcesOf(step) {
  if (!step.sources?.length) return [];
  const out = [document.createTextNode('Sources: ')];
  step.sources.forEach(([name, title, href], k) => {
    if (k) out.push(document.createTextNode('; '));
    const a = Object.assign(document.createElement('a'), { href, textContent: name, title, rel: 'noopener' });
    out.push(a, document.createTextNode(` (${title})`));
  });
  return out;
}

/** The link to step `id` of the path (a quiz answer points to the step that teaches it). */
function stepLink(list, id) {
  const j = list.findIndex((s) => s.id === id);
  return j < 0 ? null : { href: urlOf(stepState(list[j], {})), to: j, label: `Step ${j + 1}: ${list[j].title}` };
}

/**
 * One multiple-choice question: radios in the reader's order (`order`: authored indices; a radio's value
 * is its authored index, so the keyboard walks the order shown), "Check my answer", "Just tell me", and
 * an empty reveal. The answer and the explanations stay out of the page until the reader commits
 * (`keys`, filled by reveal()). `why` is one explanation per choice; `retry` (the path) lets a wrong
 * pick be explained and tried again before the answer is shown. q and choices are the project's own HTML.
 */
function questionHtml(id, item, { notice = '', title = '', link = null, order = null, step = '', retry = false } = {}) {
  const seq = order ?? item.choices.map((_, k) => k);
  keys.set(id, { ...item, notice, link, seq, retry });
  return `<form class="question" id="${id}"${step ? ` data-step="${esc(step)}"` : ''} novalidate>
    <fieldset><legend>${title ? `<strong>${esc(title)}:</strong> ` : ''}${item.q}</legend>
    ${seq.map((k) => `<label class="choice"><input type="radio" name="${id}" value="${k}"> <span>${item.choices[k]}</span></label>`).join('')}
    </fieldset>
    <div class="qbar"><button type="submit">Check my answer</button><button type="button" class="tell">Just tell me</button><span class="qmsg" role="status"></span></div>
    <div class="reveal" hidden></div></form>`;
}

/** Each question on the page by form id: its answer, explanations and what the reveal shows. */
const keys = new Map();

/** The reveal's markup once the reader has committed: the verdict, the explanations, notice and link. */
function revealHtml(key, k, told, tried) {
  const { choices, why, answer, notice, link, seq } = key;
  const whys = Array.isArray(why) ? why : null;
  const item = (j) =>
    `<li data-k="${j}" class="${j === answer ? 'right' : ''}${j === k || tried.has(j) ? ' picked' : ''}"><span class="wlabel">${choices[j]}</span>: ${esc(whys[j])}</li>`;
  let body;
  if (!whys) body = `<p class="why">${esc(why)}</p>`;
  else if (key.retry) {
    // The path: the answer's reason and those of the choices the reader tried; the rest one tap away.
    const first = [answer, ...seq.filter((j) => j !== answer && tried.has(j))];
    const rest = seq.filter((j) => !first.includes(j));
    body = `<ul class="whys">${first.map(item).join('')}</ul>${
      rest.length
        ? `<details class="others"><summary>Why the other choices are wrong</summary><ul class="whys">${rest.map(item).join('')}</ul></details>`
        : ''
    }`;
  } else body = `<ul class="whys">${seq.map(item).join('')}</ul>`;
  return `<p class="verdict" tabindex="-1"></p>${body}
      ${notice ? `<p class="notice"><strong>What to notice:</strong> ${esc(notice)}</p>` : ''}
      ${link ? `<p class="qlink">Taught in <a href="${esc(link.href)}" data-to="${link.to}">${esc(link.label)}</a></p>` : ''}`;
}

let pathOrders = { key: '', orders: new Map() };
function pathOrder(list, reader, id) {
  const key = `${reader} ${list.map((s) => s.id).join()}`;
  if (pathOrders.key !== key) {
    const set = pathSet(list);
    const orders = displayOrders(reader, 'path', set);
    pathOrders = { key, orders: new Map(set.map((q, k) => [q.id, orders[k]])) };
  }
  return pathOrders.orders.get(`pq-${id}`);
}

function markHeld(host, sel) {
  const want = sel ? new Set(host.querySelectorAll(sel)) : new Set();
  for (const el of host.querySelectorAll('[data-held]')) if (!want.has(el)) el.removeAttribute('data-held');
  for (const el of want) if (!el.hasAttribute('data-held')) el.setAttribute('data-held', '');
}

/** The step's text and sources, written into the guide once its question is answered (showStep). */
let afterText = null;

/** The answers committed on this page load: step id -> the authored index picked, or -1 ("Just tell me"). */
const committed = new Map();

/**
 * Before the reader commits, the step's text, its sources and the figure's verdicts are held back
 * (chrome.css: .predict-pending hides [data-after-predict] and the views' verdict captions); after,
 * they show, the text open on a wide screen and one tap away on a phone.
 */
function showAfter(root, guide, shown) {
  root.classList.toggle('predict-pending', !shown);
  if (shown && afterText) {
    afterText();
    afterText = null;
  }
  const more = guide.querySelector('.more');
  if (more.hidden === !shown) return;
  more.hidden = !shown;
  more.open = (root.clientWidth || innerWidth) > NARROW;
}

/**
 * Reveal question f's answer: the reader's pick, or none when told. On the path a wrong pick first gets
 * the reason it is wrong and a second try ("retry", nothing else revealed). Returns false when nothing
 * was picked, 'retry' for a wrong pick that may be tried again, true once the answer is out.
 */
function reveal(f, told = false) {
  const key = keys.get(f.id);
  const picked = f.querySelector('input[type=radio]:checked');
  const msg = f.querySelector('.qmsg');
  if (!key || (!picked && !told)) {
    msg.textContent = 'Pick an answer first (or press “Just tell me”).';
    return false;
  }
  const { answer, choices } = key;
  const k = told ? -1 : Number(picked.value);
  const ok = k === answer;
  const tried = new Set(key.tried ?? []);
  const box = f.querySelector('.reveal');
  if (!ok && !told && key.retry) {
    tried.add(k);
    key.tried = [...tried];
    box.innerHTML = `<p class="verdict no" tabindex="-1">Not quite: ${choices[k]}.</p><p class="why">${esc(key.why[k])}</p>
      <p class="qbar"><button type="button" class="retry">Try again</button></p>`;
    box.hidden = false;
    f.dataset.revealed = 'retry';
    f.querySelector('fieldset').disabled = true;
    for (const b of f.querySelectorAll('.qbar button[type=submit]')) b.disabled = true;
    f.querySelector(`input[value="${k}"]`).closest('label').classList.add('wrong');
    msg.textContent = 'Not quite: see why below.';
    return 'retry';
  }
  msg.textContent = '';
  box.innerHTML = revealHtml(key, k, told, tried);
  for (const l of f.querySelectorAll('label.choice')) {
    const j = Number(l.querySelector('input').value);
    l.classList.toggle('right', j === answer);
    l.classList.toggle('wrong', (j === k || tried.has(j)) && j !== answer);
  }
  const right = f.querySelector(`input[value="${answer}"]`).nextElementSibling.textContent.trim();
  const verdict = f.querySelector('.verdict');
  const first = ok && !tried.size;
  verdict.textContent = told
    ? `The answer: ${right}.`
    : first
      ? `Right: ${right}.`
      : ok
        ? `Right, on a second look: ${right}.`
        : `Not quite. The answer: ${right}.`;
  verdict.className = `verdict ${told ? 'told' : ok ? 'ok' : 'no'}`;
  box.hidden = false;
  f.dataset.revealed = told ? 'told' : first ? 'right' : ok ? 'retried' : 'wrong';
  // One commitment per question: the choices and buttons lock once the answer is out.
  f.querySelector('fieldset').disabled = true;
  for (const b of f.querySelectorAll('.qbar button')) b.disabled = true;
  // Screen readers hear the verdict from the status line beside the buttons.
  msg.textContent = told
    ? 'The answer is below.'
    : ok
      ? 'Right: the reason is below.'
      : 'Not quite: the answer is below.';
  // The self-check keeps a running score of the questions answered (not of those told).
  const quiz = f.closest('.quiz');
  const score = quiz?.querySelector('.score');
  if (score) {
    const done = quiz.querySelectorAll('form.question:is([data-revealed=right], [data-revealed=wrong])');
    const rightN = quiz.querySelectorAll('form.question[data-revealed=right]').length;
    const told = quiz.querySelectorAll('form.question[data-revealed=told]').length;
    score.textContent = `${rightN} of ${done.length} answered right (${quiz.querySelectorAll('form.question').length} questions${told ? `, ${told} told` : ''}).`;
  }
  return true;
}

/** A second try after a wrong pick: the choices unlock, the one tried stays marked and disabled. */
function retry(f) {
  const key = keys.get(f.id);
  f.querySelector('fieldset').disabled = false;
  for (const b of f.querySelectorAll('.qbar button')) b.disabled = false;
  for (const input of f.querySelectorAll('input[type=radio]')) {
    const tried = key.tried.includes(Number(input.value));
    input.checked = false;
    input.disabled = tried;
    input.closest('label').classList.toggle('wrong', tried);
  }
  const box = f.querySelector('.reveal');
  box.hidden = true;
  box.replaceChildren();
  delete f.dataset.revealed;
  f.querySelector('.qmsg').textContent = '';
  f.querySelector('input[type=radio]:not(:disabled)')?.focus();
}

/**
 * Until the reader commits, the figure, the controls and the export buttons are inert: the control the
 * question is about cannot be pressed, a hover readout cannot be read and the data cannot be exported
 * before the prediction (the explorer link waits too, syncGuided).
 */
function lockFigure(root, on) {
  for (const el of root.querySelectorAll('#figure, form.controls, .exports')) {
    if (el.inert !== on) el.inert = on;
  }
  // The figure's description for screen readers (its size and range) waits with the figure.
  const desc = root.querySelector('#figure-desc');
  if (desc && desc.hidden !== on) desc.hidden = on;
  holdVerdicts(root.querySelector('#figure-panel'), on);
}

/** What chrome.css hides before the commit: a view's verdicts, what a step holds, the view's intro. */
const HELD =
  '#figure :is([data-after-predict], [data-held], .proof-plain, .proof, .check, .figure-note, .lab-debrief, .lab-notes, .lab-paper, .view > details.about), #figure-desc';
const HELD_ATTRS = ['aria-label', 'title', 'aria-description'];
/** The held text (text node -> its words) and attributes (element -> name -> value) of the figure. */
let heldText = new Map();
let heldAttrs = new Map();
let holder = null;

/**
 * Hidden is not absent: a screen reader's browse mode, find-in-page or a look at the markup reads what
 * CSS hides. So until the reader commits, the held parts' words and labels leave the DOM (their
 * elements stay, so a view still finds and rewrites them: what it writes is held in turn) and come back
 * at the commit.
 */
function holdVerdicts(panel, on) {
  if (!panel) return;
  if (on) {
    holder ??= new MutationObserver(() => {
      sweepHeld(panel);
      holder.takeRecords();
    });
    holder.observe(panel, { subtree: true, childList: true, characterData: true, attributes: true });
    sweepHeld(panel);
    holder.takeRecords();
    return;
  }
  holder?.disconnect();
  for (const [node, text] of heldText) if (node.data === '') node.data = text;
  for (const [el, attrs] of heldAttrs)
    for (const [k, v] of Object.entries(attrs)) if (!el.hasAttribute(k)) el.setAttribute(k, v);
  heldText = new Map();
  heldAttrs = new Map();
}

function sweepHeld(panel) {
  for (const el of panel.querySelectorAll(HELD)) {
    const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      if (n.data === '') continue;
      heldText.set(n, n.data);
      n.data = '';
    }
    for (const e of [el, ...el.querySelectorAll('[aria-label], [title], [aria-description]')]) {
      for (const k of HELD_ATTRS) {
        if (!e.hasAttribute(k)) continue;
        heldAttrs.set(e, { ...heldAttrs.get(e), [k]: e.getAttribute(k) });
        e.removeAttribute(k);
      }
    }
  }
}

/** The guided sidebar shows only the controls a step uses (its `controls` list). What this hides is
 * marked data-trim, so that leaving the step shows exactly that again (app.js hides fieldsets of its own). */
function trimControls(root, keep) {
  const form = root.querySelector('form.controls');
  if (!form) return;
  const set = (el, hide) => {
    if (hide && !el.hidden) {
      el.hidden = true;
      el.dataset.trim = '1';
    } else if (!hide && el.dataset.trim) {
      el.hidden = false;
      delete el.dataset.trim;
    }
  };
  if (!Array.isArray(keep)) {
    // The explorer (or a step without a list): every control the view offers.
    for (const el of root.querySelectorAll('[data-trim]'))
      set(el, el.tagName === 'FIELDSET' && !el.querySelector('label'));
    root.classList.remove('step-no-controls');
    return;
  }
  let any = false;
  for (const el of root.querySelectorAll(`[form="${form.id}"][name], form.controls [name]`)) {
    const label = el.closest('label');
    if (!label) continue;
    const on = keep.includes(el.name);
    set(label, !on);
    any ||= on;
  }
  for (const fs of form.querySelectorAll('fieldset'))
    set(fs, ![...fs.querySelectorAll('label')].some((l) => !l.hidden));
  // A fold button with nothing left to fold (every kept control moved into the view's slots) goes too.
  const fold = form.querySelector('.fold');
  if (fold) set(fold, !form.querySelector('fieldset:not([hidden]) label:not([hidden])'));
  root.classList.toggle('step-no-controls', !any);
}

function download(blob, name) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}
