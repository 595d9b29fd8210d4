import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Status } from '../../js/index.js';
import { assertThrowsPosenc, backends, BAD_SIZES, randomF32 } from '../../tests/helpers.js';

function stats(a) {
  let s = 0,
    s2 = 0,
    mx = 0;
  for (const x of a) {
    s += x;
    s2 += x * x;
    mx = Math.max(mx, Math.abs(x));
  }
  const mean = s / a.length;
  return { mean, std: Math.sqrt(s2 / a.length - mean * mean), max: mx };
}

test('learnedInit: deterministic, bit-identical on both builds, seed-dependent', async () => {
  const [simd, scalar] = await backends();
  for (const truncated of [false, true]) {
    const a = simd.pe.learnedInit({ length: 257, dim: 33, seed: 7, truncated });
    const b = scalar.pe.learnedInit({ length: 257, dim: 33, seed: 7, truncated });
    assert.deepEqual(new Uint32Array(a.buffer), new Uint32Array(b.buffer), `truncated=${truncated}`);
    assert.deepEqual(a, simd.pe.learnedInit({ length: 257, dim: 33, seed: 7, truncated }));
    const c = simd.pe.learnedInit({ length: 257, dim: 33, seed: 8, truncated });
    assert.ok(
      a.some((x, e) => x !== c[e]),
      'another seed gives another table',
    );
  }
  // element e does not depend on the table shape (counter-based): a longer table extends a shorter one
  const short = simd.pe.learnedInit({ length: 10, dim: 16, seed: 3 });
  const long = simd.pe.learnedInit({ length: 20, dim: 16, seed: 3 });
  assert.deepEqual(long.subarray(0, 160), short);
  // std scales the same draws; seed 2^32-1 is valid
  const s1 = simd.pe.learnedInit({ length: 4, dim: 4, std: 1 }),
    s2 = simd.pe.learnedInit({ length: 4, dim: 4, std: 0.5 });
  s1.forEach((x, e) => assert.ok(Math.abs(x * 0.5 - s2[e]) <= 1e-7 * Math.abs(x)));
  assert.equal(
    simd.pe.learnedInit({ length: 2, dim: 2, std: 0 }).every((x) => x === 0),
    true,
  );
  simd.pe.learnedInit({ length: 2, dim: 2, seed: 2 ** 32 - 1 });
  // golden values: native and both wasm builds must produce exactly these (tests/native/test_learned.c checks the same)
  assert.deepEqual(Array.from(simd.pe.learnedInit({ length: 1, dim: 4, std: 1, seed: 42 })), GOLDEN_SEED42);
});

// posenc_learned_init(out, 1, 4, 1.0, 42, 0) as produced by the build that introduced it; a change here
// means tables saved with an older posenc would not be reproduced.
const GOLDEN_SEED42 = [0.5179010629653931, -0.031432799994945526, 1.2662736177444458, 0.2547459304332733];

test('learnedInit statistics: N(0, std^2); truncated at 2 std with realised std 0.88 std', async () => {
  const [{ pe }] = await backends();
  const n = 400 * 500;
  const plain = stats(pe.learnedInit({ length: 400, dim: 500, std: 0.02, seed: 1 }));
  assert.ok(Math.abs(plain.mean) < 3e-4, `mean ${plain.mean}`);
  assert.ok(Math.abs(plain.std - 0.02) < 3e-4, `std ${plain.std}`);
  assert.ok(plain.max > 0.08, 'untruncated tails reach past 4 std');
  const t = pe.learnedInit({ length: 400, dim: 500, std: 0.02, seed: 1, truncated: true });
  const tr = stats(t);
  assert.ok(tr.max <= 0.04, `truncated max ${tr.max}`);
  assert.ok(Math.abs(tr.std - 0.02 * 0.8796) < 3e-4, `truncated std ${tr.std}`);
  // tail fraction beyond 1 std ~ 0.3173 for the plain normal
  const p = pe.learnedInit({ length: 400, dim: 500, std: 1, seed: 9 });
  const beyond = p.reduce((c, x) => c + (Math.abs(x) > 1 ? 1 : 0), 0) / n;
  assert.ok(Math.abs(beyond - 0.3173) < 0.005, `P(|z| > 1) = ${beyond}`);
});

test('gather: rows by position; error / clamp / zero out of range', async () => {
  for (const { name, pe } of await backends()) {
    const rows = 6,
      dim = 5;
    const table = randomF32(rows * dim, 4);
    const row = (p) => Array.from(table.subarray(p * dim, (p + 1) * dim));
    const g = pe.gather(table, { dim, positions: Int32Array.from([5, 0, 3, 3]) });
    assert.deepEqual(Array.from(g), [5, 0, 3, 3].flatMap(row), name);
    assert.deepEqual(Array.from(pe.gather(table, { rows, dim, positions: [2] })), row(2));
    const c = pe.gather(table, { dim, positions: [-4, 6, 100, 1], outOfRange: 'clamp' });
    assert.deepEqual(Array.from(c), [0, 5, 5, 1].flatMap(row), name);
    const z = pe.gather(table, { dim, positions: [-1, 2, 6], outOfRange: 'zero' });
    assert.deepEqual(Array.from(z), [...new Array(dim).fill(0), ...row(2), ...new Array(dim).fill(0)], name);
    const err = assertThrowsPosenc(
      () => pe.gather(table, { dim, positions: [0, 1, 6] }),
      [/positions\[2\] must be in \[0, 5\]/, /table has 6 rows/, /got 6/],
      Status.E_RANGE,
    );
    assert.equal(err.argument, 'positions[2]');
    assertThrowsPosenc(() => pe.gather(table, { dim, positions: [-1] }), /positions\[0\] must be in \[0, 5\].*got -1/);
    // int32 heap buffer of positions
    const pb = pe.alloc(2, 'int32');
    try {
      pb.array.set([4, 1]);
      assert.deepEqual(Array.from(pe.gather(table, { dim, positions: pb })), [4, 1].flatMap(row));
    } finally {
      pb.free();
    }
  }
});

test('addTo (in place, offset) and concat vs plain JS', async () => {
  for (const { name, pe } of await backends()) {
    for (const [length, dim, rows, offset] of [
      [1, 1, 1, 0],
      [5, 7, 9, 4],
      [64, 33, 100, 3],
      [3, 4, 3, 0],
    ]) {
      const table = randomF32(rows * dim, dim);
      const x = randomF32(length * dim, length);
      const want = x.map((v, e) => v + table[offset * dim + e]);
      const y = x.slice();
      assert.equal(pe.addTo(y, table, { length, dim, offset }), y);
      assert.deepEqual(y, Float32Array.from(want), `${name} addTo ${length}x${dim}`);
      const dimX = 3;
      const xc = randomF32(length * dimX, 2);
      const cat = pe.concat(xc, table, { length, dimX, dimP: dim, offset });
      for (let p = 0; p < length; p++) {
        assert.deepEqual(
          Array.from(cat.subarray(p * (dimX + dim), p * (dimX + dim) + dimX)),
          Array.from(xc.subarray(p * dimX, (p + 1) * dimX)),
        );
        assert.deepEqual(
          Array.from(cat.subarray(p * (dimX + dim) + dimX, (p + 1) * (dimX + dim))),
          Array.from(table.subarray((offset + p) * dim, (offset + p + 1) * dim)),
        );
      }
    }
    // addTo on a heap buffer works in place with no copy back
    const buf = pe.alloc(8);
    try {
      buf.array.fill(1);
      pe.addTo(buf, Float32Array.from([1, 2, 3, 4, 5, 6, 7, 8]), { length: 2, dim: 4 });
      assert.deepEqual(Array.from(buf.array), [2, 3, 4, 5, 6, 7, 8, 9]);
    } finally {
      buf.free();
    }
  }
});

test('throw-tests: every export names its argument and range', async () => {
  const [{ pe }] = await backends();
  const t = new Float32Array(12);
  for (const bad of BAD_SIZES) {
    assertThrowsPosenc(
      () => pe.learnedInit({ length: bad, dim: 4 }),
      /learnedInit: length must be an integer in \[1, /,
    );
    assertThrowsPosenc(() => pe.learnedInit({ length: 4, dim: bad }), /dim must be an integer/);
    assertThrowsPosenc(() => pe.gather(t, { dim: bad, positions: [0] }), /gather: dim must be an integer/);
    assertThrowsPosenc(() => pe.gather(t, { rows: bad, dim: 4, positions: [0] }), /rows must be an integer/);
    assertThrowsPosenc(() => pe.addTo(new Float32Array(4), t, { length: bad, dim: 4 }), /addTo: length must be/);
    assertThrowsPosenc(
      () => pe.concat(new Float32Array(4), t, { length: 1, dimX: bad, dimP: 4 }),
      /concat: dimX must be/,
    );
    assertThrowsPosenc(() => pe.concat(new Float32Array(4), t, { length: 1, dimX: 4, dimP: bad }), /dimP must be/);
  }
  for (const std of [-1, NaN, Infinity, '0.02'])
    assertThrowsPosenc(() => pe.learnedInit({ length: 2, dim: 2, std }), /std must be a finite number in \[0, /);
  for (const seed of [-1, 0.5, 2 ** 32, NaN])
    assertThrowsPosenc(
      () => pe.learnedInit({ length: 2, dim: 2, seed }),
      /seed must be an integer in \[0, 4294967295\]/,
    );
  assertThrowsPosenc(() => pe.learnedInit({ length: 2, dim: 2, truncated: 'yes' }), /truncated must be true or false/);
  assertThrowsPosenc(
    () => pe.learnedInit({ length: 2 ** 15, dim: 2 ** 14 }),
    /at most 268435456 elements/,
    Status.E_SIZE,
  );
  assertThrowsPosenc(() => pe.gather(t, { dim: 4 }), /positions must be given/, Status.E_MISSING);
  assertThrowsPosenc(() => pe.gather(t, { dim: 4, positions: new Float32Array(2) }), /positions must be an Int32Array/);
  assertThrowsPosenc(() => pe.gather(t, { dim: 4, positions: [0.5] }), /positions\[0\] must be an integer/);
  assertThrowsPosenc(() => pe.gather(t, { dim: 4, positions: [] }), /positions.length must be an integer in \[1, /);
  assertThrowsPosenc(
    () => pe.gather(t, { dim: 5, positions: [0] }),
    /table must be a Float32Array or posenc buffer of rows \* dim elements \(dim = 5\)/,
  );
  assertThrowsPosenc(
    () => pe.gather(t, { dim: 4, positions: [0], outOfRange: 'wrap' }),
    /outOfRange must be one of 'error', 'clamp', 'zero'/,
    Status.E_ENUM,
  );
  assertThrowsPosenc(
    () => pe.gather(new Float64Array(12), { rows: 3, dim: 4, positions: [0] }),
    /table must be a Float32Array/,
  );
  assertThrowsPosenc(
    () => pe.addTo(new Float32Array(8), t, { length: 2, dim: 4, offset: 2 }),
    /offset \+ length must be at most the table's 3 rows \(got 4\)/,
    Status.E_RANGE,
  );
  assertThrowsPosenc(
    () => pe.addTo(new Float32Array(7), t, { length: 2, dim: 4 }),
    /x must be a Float32Array or posenc buffer of length 8/,
  );
  assertThrowsPosenc(
    () => pe.addTo(new Float32Array(8), t, { length: 2, dim: 4, offset: -1 }),
    /offset must be an integer in \[0, /,
  );
  assertThrowsPosenc(
    () => pe.concat(new Float32Array(8), t, { length: 4, dimX: 2, dimP: 4 }),
    /offset \+ length must be at most the table's 3 rows/,
  );
  assertThrowsPosenc(
    () => pe.concat(new Float32Array(7), t, { length: 2, dimX: 4, dimP: 4 }),
    /x must be a Float32Array or posenc buffer of length 8/,
  );
  // after errors the next valid call still works
  assert.equal(pe.gather(Float32Array.from([1, 2]), { dim: 1, positions: [1] })[0], 2);
});

test('leak test: heap stable over many calls, including failing ones', async () => {
  const [{ pe }] = await backends();
  const t = randomF32(64 * 8, 2);
  const run = () => {
    pe.learnedInit({ length: 16, dim: 8 });
    pe.gather(t, { dim: 8, positions: [1, 2, 3] });
    pe.addTo(new Float32Array(16), t, { length: 2, dim: 8 });
    pe.concat(new Float32Array(4), t, { length: 2, dimX: 2, dimP: 8 });
    try {
      pe.gather(t, { dim: 8, positions: [100] });
    } catch {}
    try {
      pe.addTo(new Float32Array(15), t, { length: 2, dim: 8 });
    } catch {}
  };
  for (let i = 0; i < 30; i++) run();
  const before = pe.heapInUse;
  for (let i = 0; i < 300; i++) run();
  assert.equal(pe.heapInUse, before);
});
