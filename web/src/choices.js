// The order in which a reader sees a question's choices. Authored order would teach a test-wise
// reader where answers sit, so each reader gets the choices shuffled, and the same shuffle on every
// visit (a reload must not move the answer under the reader's eyes). The shuffle is seeded by a random
// id kept in localStorage; where storage is refused (private modes, sandboxed frames, a file: URL in
// some browsers) the id lives for this page load only, so choices still shuffle and stay put while
// the reader is here.

const KEY = 'posenc-reader';
let sessionId = '';

/** This reader's id: from localStorage, made once; a per-load id when storage is unavailable. */
export function readerId() {
  try {
    const had = globalThis.localStorage?.getItem(KEY);
    if (had && /^[0-9a-z]{6,32}$/.test(had)) return had;
    const made = freshId();
    globalThis.localStorage?.setItem(KEY, made);
    // A storage that silently drops writes returns null on the next read: fall through to the session id.
    if (globalThis.localStorage?.getItem(KEY) === made) return made;
  } catch {
    // storage refused: the session id below
  }
  sessionId ||= freshId();
  return sessionId;
}

function freshId() {
  const a = new Uint32Array(2);
  if (globalThis.crypto?.getRandomValues) globalThis.crypto.getRandomValues(a);
  else for (let i = 0; i < 2; i++) a[i] = Math.floor(Math.random() * 2 ** 32);
  return Array.from(a, (x) => x.toString(36)).join('');
}

/** FNV-1a of a string: the seed of one reader's shuffle of one question. */
function hash(s) {
  let h = 0x811c9dc5;
  for (const ch of s) h = Math.imul(h ^ ch.codePointAt(0), 0x01000193) >>> 0;
  return h;
}

/** mulberry32: a small seeded generator, enough to shuffle four choices evenly. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

function shuffle(a, next) {
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

/**
 * The order in which reader `reader` sees the choices of each question of one set (`group`: the
 * guided path's questions, or the self-check's): for each question the authored indices of its
 * choices in display order. Each question is shuffled on its own, seeded by the reader and the
 * question: the answer's slot is uniform and independent of every other question's, so noting where
 * earlier answers sat tells a reader nothing about the next (a balanced deck, dealt so that each slot
 * holds the answer equally often, could be counted). The same reader always gets the same orders.
 * @param {string} reader
 * @param {string} group
 * @param {{ id: string, n: number, answer: number }[]} questions
 * @returns {number[][]}
 */
export function displayOrders(reader, group, questions) {
  return questions.map((q) => {
    const next = rng(hash(`${reader}\u0000${group}\u0000${q.id}`));
    const slot = Math.floor(next() * q.n);
    const others = shuffle(
      Array.from({ length: q.n }, (_, i) => i).filter((i) => i !== q.answer),
      next,
    );
    others.splice(slot, 0, q.answer);
    return others;
  });
}

/** The guided path's questions (its steps with a question), as displayOrders deals them. */
export const pathSet = (steps) =>
  steps
    .filter((s) => s.predict)
    .map((s) => ({ id: `pq-${s.id}`, n: s.predict.choices.length, answer: s.predict.answer }));
/** The self-check's questions, as displayOrders deals them. */
export const quizSet = (quiz) => quiz.map((q, k) => ({ id: `qz-${k}`, n: q.choices.length, answer: q.answer }));
