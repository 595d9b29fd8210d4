// Shared test helpers: both backends, float64 references, error assertions.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { init, PosencError } from '../js/index.js';

/**
 * The C sources edited since dist/ was built (build.sh writes each one's sha256 to dist/.sources),
 * as a message, or null. Without it a stale wasm surfaces as a missing struct field or a wrong
 * number far from the cause. A build that predates dist/.sources is not judged.
 */
export function staleBuild(root = new URL('..', import.meta.url).pathname) {
  const list = `${root}dist/.sources`;
  if (!existsSync(list)) return null;
  const built = new Map();
  for (const line of readFileSync(list, 'utf8').split('\n')) {
    const m = /^([0-9a-f]{64}) {2}(.+)$/.exec(line);
    if (m) built.set(m[2], m[1]);
  }
  const sha = (f) =>
    createHash('sha256')
      .update(readFileSync(`${root}${f}`))
      .digest('hex');
  // what build.sh hashes (lib_sources): every file of c_src/ and each family's C
  const now = [
    ...readdirSync(`${root}c_src`).map((f) => `c_src/${f}`),
    ...readdirSync(`${root}families`).flatMap((d) =>
      readdirSync(`${root}families/${d}`)
        .filter((f) => /\.[ch]$/.test(f))
        .map((f) => `families/${d}/${f}`),
    ),
  ];
  const changed = [...now.filter((f) => built.get(f) !== sha(f)), ...[...built.keys()].filter((f) => !now.includes(f))];
  return changed.length
    ? `dist/ is stale: ${changed.join(', ')} changed since the last ./build.sh wasm (run it)`
    : null;
}
{
  const stale = staleBuild();
  if (stale) throw new Error(stale);
}

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
