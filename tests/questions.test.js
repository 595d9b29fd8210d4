// The guided path's questions and the self-check, as a test-wise reader meets them: one who never
// reads the question and always picks the first choice, the last, the longest, or the one that
// shares the most words with the text on screen before the answer (the step's title, its intro and
// the question). Each strategy must score at most 40% over the path's questions and the self-check,
// in the authored order and in the order each of a few readers is shown (web/src/choices.js). The
// checker itself is tried on a bad question set, which it must refuse. Plain node: the data modules
// are imported directly.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { displayOrders, pathSet, quizSet, readerId } from '../web/src/choices.js';
import { QUIZ } from '../web/src/quiz.js';
import { RENAMED, STEPS } from '../web/src/steps.js';

const LIMIT = 0.4;
const READERS = ['reader-a', 'reader-b', 'k3x9q2', '0', 'zz-last'];

/** The text a reader sees of an HTML fragment. */
const plain = (html) =>
  String(html ?? '')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
const STOP = new Set(
  'the and for with that this are its not but from has have was were each one two into than then only all any can does did what which when will would there their them they how about been more most some such very your you our out off too per via'.split(
    ' ',
  ),
);
const words = (html) =>
  new Set(
    plain(html)
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w.length >= 3 && !STOP.has(w)),
  );

/** Every question of the path and the self-check: its choices, answer and the text shown before commit. */
function questionsOf(steps, quiz) {
  const path = steps
    .filter((s) => s.predict)
    .map((s) => ({
      id: `pq-${s.id}`,
      set: 'path',
      choices: s.predict.choices,
      answer: s.predict.answer,
      // a step with a fallback view shows one of two intros: both count as visible
      visible: `${s.title} ${s.intro ?? ''} ${s.fallback?.intro ?? ''} ${s.predict.q}`,
    }));
  const self = quiz.map((q, k) => ({ id: `qz-${k}`, set: 'quiz', choices: q.choices, answer: q.answer, visible: q.q }));
  return [...path, ...self];
}

/** Expected score of picking, in each question, uniformly among the choices `pick` returns. */
function score(questions, pick) {
  let sum = 0;
  for (const q of questions) {
    const picked = pick(q);
    if (picked.includes(q.answer)) sum += 1 / picked.length;
  }
  return sum / questions.length;
}
const argmax = (xs) => {
  const m = Math.max(...xs);
  return xs.flatMap((x, i) => (x === m ? [i] : []));
};
const longest = (q) => argmax(q.choices.map((c) => plain(c).length));
const shortest = (q) => argmax(q.choices.map((c) => -plain(c).length));
function echo(q) {
  const seen = words(q.visible);
  return argmax(q.choices.map((c) => [...words(c)].filter((w) => seen.has(w)).length));
}

/**
 * The four strategies' scores: first and last over the authored order and over each reader's
 * displayed order (`orders(reader)` gives, per question, the authored indices in display order).
 */
function strategies(questions, orders) {
  const out = {
    'first (authored)': score(questions, () => [0]),
    'last (authored)': score(questions, (q) => [q.choices.length - 1]),
    longest: score(questions, longest),
    // the mirror image: answers trimmed to dodge "longest" must not make "shortest" pay instead
    shortest: score(questions, shortest),
    'most words shared with the visible text': score(questions, echo),
  };
  for (const r of READERS) {
    const o = orders(r);
    out[`first (reader ${r})`] = score(questions, (q) => [o.get(q.id)[0]]);
    out[`last (reader ${r})`] = score(questions, (q) => [o.get(q.id).at(-1)]);
  }
  return out;
}
const failing = (scores) => Object.entries(scores).filter(([, v]) => v > LIMIT);

/** The display orders the page deals (chrome.js: the path's set and the self-check's set). */
function pageOrders(steps, quiz) {
  return (reader) => {
    const m = new Map();
    for (const [group, set] of [
      ['path', pathSet(steps)],
      ['quiz', quizSet(quiz)],
    ]) {
      const orders = displayOrders(reader, group, set);
      set.forEach((q, k) => m.set(q.id, orders[k]));
    }
    return m;
  };
}

const pct = (x) => `${(100 * x).toFixed(1)}%`;

test('no blind strategy scores above 40% on the path’s questions and the self-check', (t) => {
  const all = questionsOf(STEPS, QUIZ);
  assert.ok(all.filter((q) => q.set === 'path').length >= 19, 'the path asks 19+ questions');
  const orders = pageOrders(STEPS, QUIZ);
  const scores = strategies(all, orders);
  for (const [k, v] of Object.entries(scores)) t.diagnostic(`all ${all.length}: ${k}: ${pct(v)}`);
  // Each set on its own as well: neither may lean on the other to pass.
  const bySet = {};
  for (const set of ['path', 'quiz']) {
    bySet[set] = strategies(
      all.filter((q) => q.set === set),
      orders,
    );
    for (const [k, v] of Object.entries(bySet[set])) t.diagnostic(`${set}: ${k}: ${pct(v)}`);
  }
  assert.ok(QUIZ.length >= 30, `the self-check has ${QUIZ.length} questions, 30+ wanted`);
  assert.deepEqual(failing(scores), [], 'every question together');
  assert.deepEqual(failing(bySet.path), [], 'the path’s questions');
  assert.deepEqual(failing(bySet.quiz), [], 'the self-check');
});

test('the checker refuses a question set whose answer is first, longest and echoes the question', () => {
  const bad = Array.from({ length: 30 }, (_, k) => ({
    q: `Which encoding rotates the query and the key, question ${k}?`,
    choices: ['RoPE rotates the query and the key in every layer', 'ALiBi', 'T5', 'NoPE'],
    answer: 0,
    why: ['', '', '', ''],
  }));
  const steps = bad.map((q, k) => ({ id: `s${k}`, title: 'Bad', intro: '', predict: { ...q, why: '' } }));
  const scores = strategies(questionsOf(steps, bad), (reader) => {
    const m = new Map();
    for (const q of questionsOf(steps, bad)) m.set(q.id, [0, 1, 2, 3]);
    return m;
  });
  const names = failing(scores).map(([k]) => k);
  for (const k of ['first (authored)', 'longest', 'most words shared with the visible text'])
    assert.ok(names.includes(k), `${k} flagged: ${names}`);
  // And the page's own dealing of that set would still leave "longest" and "echo" above the limit.
  const dealt = strategies(questionsOf(steps, bad), pageOrders(steps, bad));
  assert.ok(dealt.longest > LIMIT && dealt['most words shared with the visible text'] > LIMIT);
});

test('a reader’s choice order: a permutation, the same on every visit, the answer dealt evenly over the slots', () => {
  for (const [group, set] of [
    ['path', pathSet(STEPS)],
    ['quiz', quizSet(QUIZ)],
  ]) {
    for (const r of READERS) {
      const a = displayOrders(r, group, set);
      assert.deepEqual(displayOrders(r, group, set), a, `${group}/${r}: stable`);
      const slots = new Map();
      a.forEach((o, k) => {
        assert.deepEqual(
          [...o].sort((x, y) => x - y),
          Array.from({ length: set[k].n }, (_, i) => i),
          `${group}/${r}/${set[k].id}: a permutation`,
        );
        const key = `${set[k].n}:${o.indexOf(set[k].answer)}`;
        slots.set(key, (slots.get(key) ?? 0) + 1);
      });
      // Among the questions with n choices, every slot holds the answer equally often, ±1.
      for (const n of new Set(set.map((q) => q.n))) {
        const counts = Array.from({ length: n }, (_, s) => slots.get(`${n}:${s}`) ?? 0);
        assert.ok(Math.max(...counts) - Math.min(...counts) <= 1, `${group}/${r}, ${n} choices: ${counts}`);
      }
    }
    const seen = new Set(READERS.map((r) => JSON.stringify(displayOrders(r, group, set))));
    assert.ok(seen.size > 1, `${group}: readers do not all see one order`);
  }
});

test('the reader id: kept in localStorage; a per-load id when storage throws or drops writes', () => {
  const had = Object.getOwnPropertyDescriptor(globalThis, 'localStorage');
  const put = (v) =>
    Object.defineProperty(globalThis, 'localStorage', { value: v, configurable: true, writable: true });
  try {
    const store = new Map();
    put({ getItem: (k) => store.get(k) ?? null, setItem: (k, v) => store.set(k, String(v)) });
    const a = readerId();
    assert.match(a, /^[0-9a-z]{6,32}$/);
    assert.equal(readerId(), a, 'the same id on the next visit');
    assert.equal(store.get('posenc-reader'), a);
    // A value that is not an id (edited by hand, another app's) is replaced, never used as a seed.
    store.set('posenc-reader', '<script>');
    assert.notEqual(readerId(), '<script>');
    put({
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('SecurityError');
      },
    });
    const s = readerId();
    assert.match(s, /^[0-9a-z]{6,32}$/);
    assert.equal(readerId(), s, 'stable for the page load without storage');
    put({ getItem: () => null, setItem: () => {} });
    assert.equal(readerId(), s, 'a storage that drops writes falls back to the same per-load id');
  } finally {
    if (had) Object.defineProperty(globalThis, 'localStorage', had);
    else delete globalThis.localStorage;
  }
});

test('nothing shown before the commit contains the answer; every old step name still opens a step', () => {
  for (const q of questionsOf(STEPS, QUIZ)) {
    const ans = plain(q.choices[q.answer]).toLowerCase();
    assert.ok(!plain(q.visible).toLowerCase().includes(ans), `${q.id}: the answer “${ans}” is on screen`);
    assert.equal(new Set(q.choices.map(plain)).size, q.choices.length, `${q.id}: choices differ`);
  }
  const ids = new Set(STEPS.map((s) => s.id));
  const before = [
    'why',
    'causal',
    'sinusoidal',
    'sinusoidal-heatmap',
    'waves',
    'shift',
    'learned',
    'rope',
    'rope-relative',
    'positions',
    'alibi',
    't5',
    'shaw',
    'concat',
    'scaling',
    'extrapolation',
    'lab',
    'compare',
    'recap',
    'selfcheck',
  ];
  for (const id of before) assert.ok(ids.has(RENAMED[id] ?? id), `?step=${id} opens a step`);
  for (const [from, to] of Object.entries(RENAMED)) {
    assert.ok(!ids.has(from), `${from} is renamed, not a step of its own`);
    assert.ok(ids.has(to), `${from} -> ${to}, which exists`);
  }
  // Every step but the self-check opens with an intro and asks before it explains.
  for (const s of STEPS.filter((x) => !x.quiz)) {
    assert.ok(s.intro && s.text && s.notice && s.predict, `${s.id}: intro, question, then text and notice`);
  }
});
