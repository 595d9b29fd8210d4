// Shared test helpers: both backends, float64 references, error assertions.
import assert from 'node:assert/strict';
import { init, PosencError } from '../js/index.js';

let cached;
/** Both builds, loaded once per test file: [{ name: 'simd', pe }, { name: 'scalar', pe }]. */
export async function backends() {
  cached ??= Promise.all([init({ simd: true }), init({ simd: false })]).then(([simd, scalar]) => [
    { name: 'simd', pe: simd },
    { name: 'scalar', pe: scalar },
  ]);
  return cached;
}

/** Max |a[i] - b[i]|; lengths must match. NaN anywhere counts as Infinity. */
export function maxAbsDiff(a, b) {
  assert.equal(a.length, b.length, 'length mismatch');
  let m = 0;
  for (let i = 0; i < a.length; i++) {
    const d = Math.abs(a[i] - b[i]);
    if (!(d <= m)) m = Number.isNaN(d) ? Infinity : d;
  }
  return m;
}

export function assertClose(actual, expected, tol, what = '') {
  const d = maxAbsDiff(actual, expected);
  assert.ok(d <= tol, `${what} max abs diff ${d} > ${tol}`);
}

/** fn() must throw a PosencError whose message matches every regexp in `patterns`. */
export function assertThrowsPosenc(fn, patterns = [], code) {
  let err;
  try {
    fn();
  } catch (e) {
    err = e;
  }
  assert.ok(err, 'expected a PosencError, nothing was thrown');
  assert.ok(err instanceof PosencError, `expected PosencError, got ${err?.name}: ${err?.message}`);
  for (const p of [].concat(patterns)) assert.match(err.message, p);
  if (code !== undefined) assert.equal(err.code, code);
  return err;
}

/** Deterministic pseudo-random numbers in [-1, 1) (mulberry32). */
export function rng(seed = 1) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 31 - 1;
  };
}

export function randomF32(n, seed = 1) {
  const r = rng(seed);
  const a = new Float32Array(n);
  for (let i = 0; i < n; i++) a[i] = r();
  return a;
}

/** Values that are not valid sizes, for throw-tests. */
export const BAD_SIZES = [0, -1, 1.5, NaN, Infinity, 2 ** 40, '8', null];
