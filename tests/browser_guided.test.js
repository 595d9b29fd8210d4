// The guided path as a learner meets it, in headless Debian Chromium (playwright-core) over web/dist:
// every step's question and every self-check item is answered with the keyboard alone (Tab to the
// radios, Space and arrows to choose in the order shown, Tab to "Check", Space), and the answer, the
// step's explanation and the figure's verdicts show only after that (or after "Just tell me"): before
// it the answer is not in the page at all, the figure, its controls, the export buttons and the
// explorer link are locked, and what a step holds is hidden. A wrong pick on the path gets its own
// reason and a second try. Focus goes to the verdict after a commit and to the step's title after
// Next; a reader's choice order survives a reload; at 390 × 844 every step's figure starts on the
// first screen; the sidebar shows only the controls a step uses. Waits on state and DOM only.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pageSuite, skip } from './browser_embed_harness.js';
import { STEPS } from '../web/src/steps.js';
import { QUIZ } from '../web/src/quiz.js';

test('guided path data: every step asks one question and cites its papers; the self-check has 30+ items', () => {
  const ids = new Set(STEPS.map((s) => s.id));
  for (const s of STEPS) {
    if (s.quiz) continue;
    const p = s.predict;
    assert.ok(p?.q, `${s.id}: a predict question`);
    assert.ok(
      Array.isArray(p.why) && p.why.length === p.choices.length && p.why.every((w) => w.length > 40),
      `${s.id}: one explanation per choice`,
    );
    assert.match(p.why[p.answer], /^Right: /, `${s.id}: the answer’s explanation says so`);
    for (const [k, w] of p.why.entries()) if (k !== p.answer) assert.doesNotMatch(w, /^Right/, `${s.id}: choice ${k}`);
    assert.ok(s.intro, `${s.id}: an intro to show before the answer`);
    assert.ok(
      p.choices.length >= 2 && Number.isInteger(p.answer) && p.answer >= 0 && p.answer < p.choices.length,
      `${s.id}: answer is one of the choices`,
    );
    assert.ok(s.sources.length > 0, `${s.id}: names its papers`);
    for (const [name, title, href] of s.sources)
      assert.ok(name && title && /^https:\/\//.test(href), `${s.id}: ${name} has a link`);
    assert.ok(Array.isArray(s.controls), `${s.id}: lists the controls it uses`);
  }
  assert.ok(QUIZ.length >= 30, `${QUIZ.length} self-check items`);
  for (const [k, item] of QUIZ.entries()) {
    assert.ok(item.q && item.choices.length >= 2, `item ${k}: a question with choices`);
    assert.ok(item.answer >= 0 && item.answer < item.choices.length, `item ${k}: answer is one of the choices`);
    assert.equal(item.why.length, item.choices.length, `item ${k}: one explanation per answer`);
    assert.ok(
      item.why.every((w) => w.length > 10),
      `item ${k}: explanations are sentences`,
    );
    assert.ok(ids.has(item.step), `item ${k}: links to step ${item.step}, which exists`);
  }
});

const suite = pageSuite();

/**
 * Before the commit (`on`): the figure, the controls and the export buttons are inert, the explorer link
 * has no address, and whatever the step holds is hidden; after it, all of that is open.
 */
async function locked(page, s, on) {
  const m = await page.evaluate(
    (hold) => ({
      inert: ['#figure', 'form.controls', '.exports'].map((sel) => document.querySelector(sel)?.inert),
      href: document.querySelector('.guide .explore').hasAttribute('href'),
      desc: document.querySelector('#figure-desc').hidden,
      mode: new URL(document.querySelector('.mode-explorer').href).search,
      held: hold
        ? [...document.querySelectorAll(`#figure :is(${hold})`)].map((el) => getComputedStyle(el).display === 'none')
        : [],
    }),
    s.hold ?? '',
  );
  assert.deepEqual(m.inert, [on, on, on], `${s.id}: figure, controls and exports inert: ${on}`);
  assert.equal(m.href, !on, `${s.id}: the explorer link open: ${!on}`);
  assert.equal(m.desc, on, `${s.id}: the figure’s description for screen readers waits too: ${on}`);
  // The mode bar's "Explorer" opens the explorer's default view until then, not this step's state.
  if (on) assert.equal(m.mode, '?view=heatmap', `${s.id}: the mode link before the answer`);
  else assert.equal(new URLSearchParams(m.mode).get('view'), s.view, `${s.id}: the mode link after it`);
  if (s.hold) assert.ok(m.held.length > 0, `${s.id}: the held parts (${s.hold}) exist`);
  for (const gone of m.held) assert.equal(gone, on, `${s.id}: held parts out of the page: ${on}`);
}

async function context(viewport) {
  const ctx = await suite.browser.newContext({ viewport, serviceWorkers: 'block' });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => suite.pageErrors.push(e.message));
  return { ctx, page };
}
async function goto(page, id) {
  await page.goto(`${suite.srv.origin}/?step=${id}`);
  await suite.settled(page);
  await page.waitForFunction((id) => document.querySelector('.guide')?.dataset.step === id, id);
}

/** Tab until a radio of group `name` has focus (a bounded number of stops); fails otherwise. */
async function tabTo(page, name) {
  for (let i = 0; i < 120; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((n) => document.activeElement?.name === n && document.activeElement.type === 'radio', name))
      return;
  }
  assert.fail(`Tab never reached the radios of ${name}`);
}

/** The authored indices of question `id`'s choices, in the order the page shows them. */
const shown = (page, id) =>
  page.locator(`#${id} input[type=radio]`).evaluateAll((els) => els.map((e) => Number(e.value)));

/** Answer question `id` (a form.question) with the keyboard: authored choice `k`, then Check. */
async function answer(page, id, k) {
  await tabTo(page, id);
  const form = page.locator(`#${id}`);
  assert.equal(
    await form.locator('.reveal').isVisible(),
    false,
    `${id}: the answer is hidden before the reader commits`,
  );
  // Nothing in the page names the answer before the commit: no data-answer, no explanation.
  const before = await form.evaluate((f) => f.outerHTML);
  assert.doesNotMatch(before, /data-answer|Right: /, `${id}: the answer is not in the DOM`);
  // Tab lands on the first radio shown of an unchecked group without checking it; Space checks it, and
  // the arrows walk the choices in the order shown (the reader's order, not the authored one).
  const order = await shown(page, id);
  assert.equal(await page.evaluate(() => document.activeElement.value), String(order[0]));
  await page.keyboard.press('Space');
  for (let j = 0; j < order.indexOf(k); j++) await page.keyboard.press('ArrowDown');
  assert.equal(await form.locator('input:checked').getAttribute('value'), String(k));
  assert.equal(await form.locator('.reveal').isVisible(), false, `${id}: choosing alone reveals nothing`);
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.type), 'submit', `${id}: Tab goes on to Check`);
  await page.keyboard.press('Space');
  await page.waitForFunction((id) => document.getElementById(id)?.dataset.revealed, id);
  assert.equal(await form.locator('.reveal').isVisible(), true);
  assert.equal(
    await page.evaluate(() => document.activeElement?.classList.contains('verdict')),
    true,
    `${id}: focus moves to the verdict`,
  );
  return form;
}

test('every step: its predict question is answered by keyboard, then the answer and its reason appear', {
  skip,
  timeout: 600000,
}, async () => {
  const { ctx, page } = await context({ width: 1280, height: 900 });
  for (const s of STEPS.filter((x) => !x.quiz)) {
    await goto(page, s.id);
    const id = `pq-${s.id}`;
    assert.equal(await page.locator(`#${id} legend`).isVisible(), true, `${s.id}: the question is shown`);
    // Before the commit: the intro, not the explanation, its sources or the view's own intro.
    assert.equal(await page.locator('.guide .stepintro').isVisible(), true, `${s.id}: the intro is shown`);
    assert.equal(await page.locator('.guide .more').isVisible(), false, `${s.id}: the explanation waits`);
    assert.equal(
      await page.locator('#figure .view > details.about').isVisible(),
      false,
      `${s.id}: so does the view’s intro`,
    );
    await locked(page, s, true);
    // Alternate right and wrong answers, so both verdicts are exercised.
    const wrong = STEPS.indexOf(s) % 2 === 1;
    const k = wrong ? (s.predict.answer + 1) % s.predict.choices.length : s.predict.answer;
    const form = await answer(page, id, k);
    if (wrong) {
      // A wrong pick: its own reason, a second try, and nothing else revealed.
      assert.match(await form.locator('.verdict').textContent(), /^Not quite: /, `${s.id}: verdict`);
      assert.equal(await form.locator('.why').textContent(), s.predict.why[k], `${s.id}: the reason for the pick`);
      assert.equal(await form.locator('label.choice.right').count(), 0, `${s.id}: the answer is not shown yet`);
      await locked(page, s, true);
      await form.locator('button.retry').click();
      assert.equal(await form.locator(`input[value="${k}"]`).isDisabled(), true, `${s.id}: the tried choice is out`);
      await form.locator(`input[value="${s.predict.answer}"]`).check();
      await form.locator('button[type=submit]').click();
      await page.waitForFunction((id) => document.getElementById(id)?.dataset.revealed === 'retried', id);
      assert.match(await form.locator('.verdict').textContent(), /^Right, on a second look/, `${s.id}: verdict`);
      assert.equal(
        await form.locator(`.whys li.picked[data-k="${k}"]`).count(),
        1,
        `${s.id}: the tried choice’s reason`,
      );
    } else assert.match(await form.locator('.verdict').textContent(), /^Right: /, `${s.id}: verdict`);
    assert.ok(
      (await form.locator('.whys li.right').textContent()).endsWith(s.predict.why[s.predict.answer]),
      `${s.id}: the explanation`,
    );
    assert.equal(await form.locator('.whys li').count(), s.predict.choices.length, `${s.id}: every choice explained`);
    assert.equal(await form.locator('label.choice.right input').getAttribute('value'), String(s.predict.answer));
    await locked(page, s, false);
    if (s.notice) assert.match(await form.locator('.notice').textContent(), /What to notice/);
    assert.equal(await page.locator('.guide .more').isVisible(), true, `${s.id}: the explanation, once answered`);
    assert.equal(
      await form.evaluate((f) => f.querySelector('fieldset').disabled),
      true,
      `${s.id}: one answer per question`,
    );
  }
  assert.deepEqual(suite.pageErrors, []);
  await ctx.close();
});

test('the self-check: every item is answered by keyboard and explains every answer, with a link to its step', {
  skip,
  timeout: 600000,
}, async () => {
  const { ctx, page } = await context({ width: 1280, height: 900 });
  const at = STEPS.findIndex((s) => s.quiz);
  assert.ok(at >= 0, 'the path has a self-check step');
  await goto(page, STEPS[at].id);
  await page.waitForFunction((n) => document.querySelector('.quiz')?.dataset.ready === String(n), QUIZ.length);
  assert.equal(await page.locator('.quiz form.question').count(), QUIZ.length);
  for (const [k, item] of QUIZ.entries()) {
    const pick = k % 3 === 2 ? (item.answer + 1) % item.choices.length : item.answer;
    const form = await answer(page, `qz-${k}`, pick);
    const whys = await form
      .locator('.whys li')
      .evaluateAll((els) => els.map((li) => [Number(li.dataset.k), li.textContent]));
    assert.equal(whys.length, item.choices.length, `item ${k}: one explanation per choice`);
    for (const [j, w] of whys) assert.ok(w.endsWith(item.why[j]), `item ${k}, choice ${j}: its explanation`);
    assert.equal(await form.locator('.whys li.picked').getAttribute('data-k'), String(pick));
    const href = await form.locator('.qlink a').getAttribute('href');
    assert.equal(new URL(href, 'http://x').searchParams.get('step'), item.step, `item ${k}: links to its step`);
  }
  const right = QUIZ.filter((item, k) => k % 3 !== 2).length;
  assert.equal(
    await page.locator('.quiz .score').textContent(),
    `${right} of ${QUIZ.length} answered right (${QUIZ.length} questions).`,
  );
  // The link goes to the step that teaches it (in place, as Back/Next do).
  await page.locator('#qz-0 .qlink a').click();
  await page.waitForFunction((id) => document.querySelector('.guide')?.dataset.step === id, QUIZ[0].step);
  assert.deepEqual(suite.pageErrors, []);
  await ctx.close();
});

/** Every word of the page, hidden or not: the text of every node and the labels screen readers read. */
const wholeDom = (page) =>
  page.evaluate(() =>
    [
      document.documentElement.textContent,
      ...[...document.querySelectorAll('[aria-label], [title], [aria-description], [alt]')].flatMap((el) =>
        ['aria-label', 'title', 'aria-description', 'alt'].map((k) => el.getAttribute(k) ?? ''),
      ),
    ].join('\n'),
  );

test('before the commit the answer is nowhere in the DOM: no verdict, held part or explanation, hidden or not', {
  skip,
  timeout: 600000,
}, async () => {
  const { ctx, page } = await context({ width: 1280, height: 900 });
  let checked = 0;
  for (const s of STEPS.filter((x) => !x.quiz)) {
    await goto(page, s.id);
    const before = await wholeDom(page);
    await page.locator(`#pq-${s.id} button.tell`).click();
    await page.waitForFunction((id) => document.getElementById(id)?.dataset.revealed === 'told', `pq-${s.id}`);
    await suite.settled(page);
    // What the commit brought into the figure (chrome.js HELD) and the guide: phrases of 24+ characters.
    const after = await page.evaluate(() => {
      const sel =
        '#figure :is([data-after-predict], [data-held], .proof-plain, .proof, .check, .figure-note, .lab-debrief, .lab-notes, .lab-paper, .view > details.about), #figure-desc, .guide .more, .question .reveal';
      // What stays outside those parts (the question, its choices, the figure's own titles) is shown by design.
      const rest = document.documentElement.cloneNode(true);
      for (const el of rest.querySelectorAll(sel)) el.remove();
      const labels = [...rest.querySelectorAll('[aria-label], [title]')].map(
        (el) => `${el.getAttribute('aria-label')} ${el.getAttribute('title')}`,
      );
      return {
        held: [...document.querySelectorAll(sel)].map((el) => el.textContent),
        rest: [rest.textContent, ...labels].join('\n'),
      };
    });
    const phrases = after.held
      .flatMap((t) => t.split(/[.:;()\n]/))
      .map((t) => t.replace(/\s+/g, ' ').trim())
      .filter((t) => t.length >= 24);
    const flat = before.replace(/\s+/g, ' ');
    const asked = after.rest.replace(/\s+/g, ' ');
    for (const t of phrases.filter((x) => !asked.includes(x)))
      assert.ok(!flat.includes(t), `${s.id}: “${t}” is in the DOM before the commit`);
    for (const w of s.predict.why) assert.ok(!flat.includes(w.slice(0, 40)), `${s.id}: a choice’s reason before it`);
    checked += phrases.length;
  }
  // The check reads something: the verdicts, explanations and held parts came in at the commits.
  assert.ok(checked > 100, `${checked} phrases checked`);
  assert.deepEqual(suite.pageErrors, []);
  await ctx.close();
});

test('390 × 844: every step opens with its question and its figure on the first screen; the sidebar shows only the step’s controls', {
  skip,
  timeout: 600000,
}, async () => {
  const { ctx, page } = await context({ width: 390, height: 844 });
  for (const s of STEPS.filter((x) => !x.quiz)) {
    await goto(page, s.id);
    // The picture itself: the topmost canvas or figure the view shows (the guided path may put it before
    // controls that precede it in the markup); the worked example, which draws none, by its first table.
    const m = await page.evaluate(() => ({
      top: (() => {
        const shown = (sel) =>
          [...document.querySelectorAll(`#figure ${sel}`)].filter((el) => el.getClientRects().length);
        const figs = shown('canvas, figure');
        return Math.min(...(figs.length ? figs : shown('table')).map((el) => el.getBoundingClientRect().top + scrollY));
      })(),
      question: document.querySelector('.guide form.question legend')?.getBoundingClientRect().top,
      shown: [...document.querySelectorAll('.posenc-app [name]')]
        .filter((el) => el.form?.classList.contains('controls') && el.closest('label')?.offsetParent)
        .map((el) => el.name),
    }));
    assert.ok(Number.isFinite(m.top) && m.top < 844, `${s.id}: the figure starts at ${Math.round(m.top)} px`);
    // (The lab's accuracy plot, empty until trained, comes before its controls on a phone: chrome.css.)
    assert.ok(m.question < m.top, `${s.id}: the question comes first`);
    assert.equal(await page.locator('.guide .more').isVisible(), false, `${s.id}: no explanation before the answer`);
    for (const k of m.shown) assert.ok(s.controls.includes(k), `${s.id}: control ${k} is one the step uses`);
    // "Just tell me": the answer without an answer recorded; the explanation folds behind "Read the step"
    // on a phone and opens with the keyboard, as the view's own intro does.
    await page.focus(`#pq-${s.id} button.tell`);
    await page.keyboard.press('Enter');
    await page.waitForFunction((id) => document.getElementById(id)?.dataset.revealed === 'told', `pq-${s.id}`);
    assert.match(await page.locator(`#pq-${s.id} .verdict`).textContent(), /^The answer: /);
    assert.equal(await page.locator(`#pq-${s.id} label.choice.wrong`).count(), 0, `${s.id}: nothing marked wrong`);
    assert.equal(await page.evaluate(() => document.querySelector('.guide .more').open), false);
    await page.focus('.guide .more > summary');
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate(() => document.querySelector('.guide .more').open), true);
    if (await page.locator('#figure .view > details.about').count()) {
      assert.equal(await page.evaluate(() => document.querySelector('#figure .view > details.about').open), false);
      await page.focus('#figure .view > details.about > summary');
      await page.keyboard.press('Enter');
      const intro = page.locator('#figure .view > details.about > .intro');
      assert.equal(await intro.isVisible(), true, `${s.id}: the view’s intro opens`);
    }
  }
  assert.deepEqual(suite.pageErrors, []);
  await ctx.close();
});

test('the figure’s verdicts wait for the answer; the reader’s order and answers survive a reload and a return', {
  skip,
  timeout: 300000,
}, async () => {
  const { ctx, page } = await context({ width: 1280, height: 900 });
  await goto(page, 'why');
  // The shuffle lab's verdict lines are held back until the reader commits.
  assert.equal(await page.locator('.posenc-app.predict-pending').count(), 1);
  assert.equal(await page.locator('#figure .proof-plain').first().isVisible(), false);
  const order = await shown(page, 'pq-why');
  await page.reload();
  await suite.settled(page);
  assert.deepEqual(await shown(page, 'pq-why'), order, 'the same order after a reload');
  await answer(page, 'pq-why', STEPS[0].predict.answer);
  assert.equal(await page.locator('.posenc-app.predict-pending').count(), 0);
  assert.equal(await page.locator('#figure .proof-plain').first().isVisible(), true);
  // Next, then Back: the answer given is still there, revealed and locked.
  await page.click('.guide .next');
  await page.waitForFunction(() => document.querySelector('.guide')?.dataset.step === 'causal');
  assert.equal(await page.locator('.posenc-app.predict-pending').count(), 1, 'the next step asks again');
  // Focus went to the new step's title: its first choice is a few Tabs away, not round the page.
  assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('steptitle')), true);
  let tabs = 0;
  while (tabs < 10 && !(await page.evaluate(() => document.activeElement?.name === 'pq-causal'))) {
    await page.keyboard.press('Tab');
    tabs++;
  }
  assert.ok(tabs <= 3, `step 2’s first choice is ${tabs} Tabs from its title`);
  await page.click('.guide .back');
  await page.waitForFunction(() => document.querySelector('.guide')?.dataset.step === 'why');
  assert.equal(await page.locator('#pq-why').getAttribute('data-revealed'), 'right');
  assert.equal(await page.locator('#pq-why input:checked').getAttribute('value'), String(STEPS[0].predict.answer));
  // The explorer shows every verdict.
  await page.click('.guide .explore');
  await page.waitForURL((u) => u.searchParams.get('view') === 'shuffle');
  assert.equal(await page.locator('.posenc-app.predict-pending').count(), 0);
  // A step's own panel (the ALiBi step's) does not follow the reader to the next step's link.
  await goto(page, 'alibi');
  await page.click('#pq-alibi button.tell');
  await page.click('.guide .next');
  await page.waitForFunction(() => document.querySelector('.guide')?.dataset.step !== 'alibi');
  await page.waitForFunction(() => !location.search.includes('step=alibi'));
  assert.equal(new URL(page.url()).searchParams.has('panel'), false, `no panel in ${page.url()}`);
  assert.equal(await page.getAttribute('.guide .next', 'href').then((h) => h.includes('panel')), false);
  // An old step name opens the step that teaches it now.
  await page.goto(`${suite.srv.origin}/?step=compare`);
  await suite.settled(page);
  await page.waitForFunction(() => document.querySelector('.guide')?.dataset.step === 'layouts');
  assert.deepEqual(suite.pageErrors, []);
  await ctx.close();
});

test('leaving a step for the explorer brings back every control the step had trimmed', {
  skip,
  timeout: 300000,
}, async () => {
  const { ctx, page } = await context({ width: 1280, height: 900 });
  await goto(page, 'alibi');
  const visible = () =>
    page.evaluate(() =>
      [...document.querySelectorAll('form.controls [name]')]
        .filter((el) => el.closest('label')?.offsetParent)
        .map((el) => el.name),
    );
  assert.deepEqual(await visible(), ['heads']);
  await page.click('#pq-alibi button.tell');
  await page.click('.guide .explore');
  await page.waitForURL((u) => u.searchParams.get('view') === 'bias' && !u.searchParams.has('step'));
  await page.waitForFunction(() => !document.querySelector('[data-trim]'));
  const shown = await visible();
  assert.ok(shown.includes('heads') && shown.length > 1, `the explorer shows the view's controls: ${shown}`);
  // The view's intro, folded behind "About this view" in the path, is back where the view put it.
  assert.equal(await page.locator('#figure .view > details.about').count(), 0);
  assert.equal(await page.locator('#figure .view > .intro').isVisible(), true);
  await ctx.close();
});
