// The guided path's questions and the self-check, as a test-wise reader meets them: one who never
// reads the question and always picks the first choice, the last, the longest, the one that shares
// the most words with the text on screen before the answer (the step's title, its intro and the
// question) or with the self-check's other questions and choices (all on one page), the odd one out (least like the other choices), the most hedged ("unless", "in general")
// over the absolute ("all", "none") or the reverse, any choice but the most hedged (or the most
// absolute), or the slot that has held the answer least often so far. Over
// 2,000 simulated readers (their orders dealt by web/src/choices.js) each strategy must score at most
// 33% on the path (4 choices, chance 25%) and 40% on the self-check (3 choices, chance 33%). The
// checker itself is tried on a bad question set, which it must refuse. Plain node: the data modules
// are imported directly.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { displayOrders, pathSet, quizSet, readerId } from '../web/src/choices.js';
import { QUIZ } from '../web/src/quiz.js';
import { RENAMED, STEPS } from '../web/src/steps.js';

const LIMIT = 0.4;
const LIMITS = { path: 0.33, quiz: 0.4 };
const READERS = ['reader-a', 'reader-b', 'k3x9q2', '0', 'zz-last'];
/** Simulated readers: ids as choices.js makes them (base 36), from a fixed sequence. */
const MANY = Array.from({ length: 2000 }, (_, k) => ((k + 1) * 2654435761).toString(36));

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
  // The self-check shows all its questions at once: the others, with their choices, are on screen too.
  const self = quiz.map((q, k) => ({
    id: `qz-${k}`,
    set: 'quiz',
    choices: q.choices,
    answer: q.answer,
    visible: q.q,
    others: quiz.filter((_, j) => j !== k).flatMap((o) => [o.q, ...o.choices]),
  }));
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
// The reviewer's hedge heuristic: hedges count for a choice, absolutes against it.
const HEDGES = /\b(unless|in general|about|may|most|some|can|partial|partly|up to|usually|often)\b/gi;
const ABSOLUTES = /\b(all|every|none|nothing|never|always|exactly|only|any|cannot|no)\b/gi;
const hedge = (q) =>
  argmax(q.choices.map((c) => (plain(c).match(HEDGES) ?? []).length - (plain(c).match(ABSOLUTES) ?? []).length));
// Its mirror image: answers rewritten to dodge the hedge heuristic must not make absolutes pay instead.
const absolute = (q) =>
  argmax(q.choices.map((c) => (plain(c).match(ABSOLUTES) ?? []).length - (plain(c).match(HEDGES) ?? []).length));
/** Elimination: rule out the choice(s) a heuristic flags and pick among the rest (a reader who has
 * learned that the hedged choice, or the absolute one, is usually a distractor). */
const notThe = (pick) => (q) => {
  const out = pick(q);
  const rest = q.choices.map((_, i) => i).filter((i) => !out.includes(i));
  return rest.length ? rest : out;
};
/** The odd one out: the choice whose words overlap least with the others' (mean Jaccard). */
function oddOne(q) {
  const ws = q.choices.map(words);
  const jac = (a, b) => [...a].filter((w) => b.has(w)).length / (new Set([...a, ...b]).size || 1);
  return argmax(ws.map((a, i) => -ws.reduce((t, b, j) => (i === j ? t : t + jac(a, b)), 0)));
}
/**
 * Slot counting over one set in the order a reader meets it: pick the slot(s) that held the answer
 * least often so far; the answer's slot is then seen. `order(q)` is the reader's display order.
 */
function slotCount(questions, order) {
  const held = new Map();
  let sum = 0;
  for (const q of questions) {
    const o = order(q);
    const counts = o.map((_, s) => held.get(`${o.length}:${s}`) ?? 0);
    const least = argmax(counts.map((c) => -c));
    const at = o.indexOf(q.answer);
    if (least.includes(at)) sum += 1 / least.length;
    held.set(`${o.length}:${at}`, (held.get(`${o.length}:${at}`) ?? 0) + 1);
  }
  return sum / questions.length;
}
function echo(q) {
  const seen = words(q.visible);
  return argmax(q.choices.map((c) => [...words(c)].filter((w) => seen.has(w)).length));
}
/** The choice that shares the most words with the other questions on screen and their choices
 * (the self-check's; a path step shows one question), beyond the question's own words: where one
 * question's text or choices state another's answer, this finds it. */
function echoOthers(q) {
  const own = words(q.visible);
  const seen = words((q.others ?? []).join(' '));
  return argmax(q.choices.map((c) => [...words(c)].filter((w) => seen.has(w) && !own.has(w)).length));
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
    'most words shared with the other questions': score(questions, echoOthers),
    'odd one out': score(questions, oddOne),
    'hedged over absolute': score(questions, hedge),
    'absolute over hedged': score(questions, absolute),
    'not the most hedged': score(questions, notThe(hedge)),
    'not the most absolute': score(questions, notThe(absolute)),
    'not the longest': score(questions, notThe(longest)),
    'not the shortest': score(questions, notThe(shortest)),
    'not the odd one out': score(questions, notThe(oddOne)),
    'not the most echoing': score(questions, notThe(echo)),
  };
  // (Each reader's own order is scored over 2,000 readers below: one reader's luck is no measure.)
  void orders;
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
  for (const set of ['path', 'quiz'])
    assert.deepEqual(
      Object.entries(bySet[set]).filter(([, v]) => v > LIMITS[set]),
      [],
      set === 'path' ? 'the path’s questions' : 'the self-check',
    );
});

test('over 2,000 readers no blind strategy beats 33% on the path or 40% on the self-check', (t) => {
  const all = questionsOf(STEPS, QUIZ);
  const orders = pageOrders(STEPS, QUIZ);
  for (const set of ['path', 'quiz']) {
    const qs = all.filter((q) => q.set === set);
    const sums = { first: 0, last: 0, 'slot counting': 0 };
    let worst = 0;
    for (const r of MANY) {
      const o = orders(r);
      sums.first += score(qs, (q) => [o.get(q.id)[0]]);
      sums.last += score(qs, (q) => [o.get(q.id).at(-1)]);
      const sc = slotCount(qs, (q) => o.get(q.id));
      sums['slot counting'] += sc;
      worst = Math.max(worst, sc);
    }
    const mean = Object.fromEntries(Object.entries(sums).map(([k, v]) => [k, v / MANY.length]));
    const fixed = {
      longest: score(qs, longest),
      shortest: score(qs, shortest),
      'most words shared with the visible text': score(qs, echo),
      'most words shared with the other questions': score(qs, echoOthers),
      'odd one out': score(qs, oddOne),
      'hedged over absolute': score(qs, hedge),
      'absolute over hedged': score(qs, absolute),
      'not the most hedged': score(qs, notThe(hedge)),
      'not the most absolute': score(qs, notThe(absolute)),
      'not the longest': score(qs, notThe(longest)),
      'not the shortest': score(qs, notThe(shortest)),
      'not the odd one out': score(qs, notThe(oddOne)),
      'not the most echoing': score(qs, notThe(echo)),
    };
    const scores = { ...mean, ...fixed };
    for (const [k, v] of Object.entries(scores)) t.diagnostic(`${set}, ${MANY.length} readers: ${k}: ${pct(v)}`);
    t.diagnostic(`${set}: slot counting, the luckiest reader: ${pct(worst)}`);
    const over = Object.entries(scores).filter(([, v]) => v > LIMITS[set]);
    assert.deepEqual(over, [], `${set}: strategies above ${pct(LIMITS[set])}`);
  }
});

test('the strategies themselves: hedging, odd one out, slot counting and the other questions find what they look for', () => {
  const q = (choices, answer) => ({ choices, answer });
  assert.deepEqual(hedge(q(['None of them', 'Yes, unless it is zero', 'All of them', 'Exactly one'], 1)), [1]);
  assert.deepEqual(oddOne(q(['red apple pie', 'red apple tart', 'blue whale song', 'red apple cake'], 2)), [2]);
  // Another question on screen that names the answer (BLOOM's ALiBi slopes) gives it away.
  const leak = {
    ...q(['RoPE', 'ALiBi', 'Learned absolute'], 1),
    visible: 'Which family is used by BLOOM?',
    others: ['How are the slopes of ALiBi set in BLOOM?', 'Fixed, per head', 'Trained'],
  };
  assert.deepEqual(echoOthers(leak), [1]);
  // A balanced deck, answers in slots 0, 1, 2, then 3: counting knows the last one for sure.
  const deck = [0, 1, 2, 3].map((s) => ({ id: `d${s}`, choices: ['a', 'b', 'c', 'd'], answer: 0, slot: s }));
  const order = (x) => {
    const o = [1, 2, 3];
    o.splice(x.slot, 0, 0);
    return o;
  };
  assert.ok(slotCount(deck, order) > 0.5, 'slot counting exploits a balanced deck');
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

test('a reader’s choice order: a permutation, the same on every visit; the answer’s slot uniform and independent', () => {
  for (const [group, set] of [
    ['path', pathSet(STEPS)],
    ['quiz', quizSet(QUIZ)],
  ]) {
    for (const r of READERS) {
      const a = displayOrders(r, group, set);
      assert.deepEqual(displayOrders(r, group, set), a, `${group}/${r}: stable`);
      a.forEach((o, k) => {
        assert.deepEqual(
          [...o].sort((x, y) => x - y),
          Array.from({ length: set[k].n }, (_, i) => i),
          `${group}/${r}/${set[k].id}: a permutation`,
        );
      });
    }
    // Over many readers each question's answer sits in each slot about equally often, and the slot of
    // one question says nothing about the next one's (same slot as the previous question: about 1/n).
    const slotsOf = MANY.map((r) => displayOrders(r, group, set).map((o, k) => o.indexOf(set[k].answer)));
    set.forEach((q, k) => {
      const counts = Array.from({ length: q.n }, (_, s) => slotsOf.filter((x) => x[k] === s).length / MANY.length);
      for (const c of counts) assert.ok(Math.abs(c - 1 / q.n) < 0.05, `${group}/${q.id}: slot shares ${counts}`);
    });
    let same = 0;
    let pairs = 0;
    for (const x of slotsOf)
      for (let k = 1; k < x.length; k++)
        if (set[k].n === set[k - 1].n) {
          pairs++;
          same += x[k] === x[k - 1];
        }
    assert.ok(Math.abs(same / pairs - 1 / set[0].n) < 0.02, `${group}: consecutive slots agree ${same / pairs}`);
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
