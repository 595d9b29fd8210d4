import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Status } from '../../js/index.js';
import { assertThrowsPosenc, backends, BAD_SIZES, randomF32 } from '../../tests/helpers.js';

// ---- float64 references written from families/relative/alibi.md, t5.md and relative.md, independent of the C code ----

/** fairseq get_slopes as the Python reference writes it (power-of-two recursion), in float64. */
function pySlopes(n) {
  const pow2 = (k) => {
    const start = 2 ** -(2 ** -(Math.log2(k) - 3));
    return Array.from({ length: k }, (_, i) => start * start ** i);
  };
  if (Number.isInteger(Math.log2(n))) return pow2(n);
  const c = 2 ** Math.floor(Math.log2(n));
  return pow2(c).concat(
    pySlopes(2 * c)
      .filter((_, i) => i % 2 === 0)
      .slice(0, n - c),
  );
}

function refAlibi({ heads, queries, keys = queries, form = 'relative', causal = true, offset = 0 }) {
  const m = pySlopes(heads);
  const out = new Float64Array(heads * queries * keys);
  for (let h = 0; h < heads; h++)
    for (let i = 0; i < queries; i++)
      for (let j = 0; j < keys; j++) {
        const rp = j - (i + offset);
        let v;
        if (causal && rp > 0) v = -Infinity;
        else if (form === 'relative') v = m[h] * rp;
        else if (form === 'symmetric') v = -m[h] * Math.abs(rp);
        else v = m[h] * j;
        out[(h * queries + i) * keys + j] = v;
      }
  return out;
}

/** Exact T5 bucket (mesh-tensorflow _relative_position_bucket): the log comparison is decided in BigInt integers,
 * floor(span * ln(n/me) / ln(D/me)) >= k  <=>  n^span * me^k >= D^k * me^span. */
function refBucket(rp, bidirectional, B, D) {
  let ret = 0;
  let nb = B;
  let n;
  if (bidirectional) {
    nb = Math.floor(nb / 2);
    if (rp > 0) ret = nb;
    n = Math.abs(rp);
  } else {
    n = Math.max(-rp, 0);
  }
  const me = Math.floor(nb / 2);
  if (n < me) return ret + n;
  const span = nb - me;
  const atLeast = (k) =>
    BigInt(n) ** BigInt(span) * BigInt(me) ** BigInt(k) >= BigInt(D) ** BigInt(k) * BigInt(me) ** BigInt(span);
  let k = Math.max(0, Math.floor((Math.log(n / me) / Math.log(D / me)) * span) - 1);
  if (k > span) k = span;
  while (k > 0 && !atLeast(k)) k--;
  while (k < span && atLeast(k + 1)) k++;
  return ret + Math.min(me + k, nb - 1);
}

function softmaxRow(row) {
  const m = Math.max(...row);
  const e = row.map((x) => (x === -Infinity ? 0 : Math.exp(x - m)));
  const s = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / s);
}

/** Finite entries within `rel` relative error (float32 rounding), infinities identical. */
function assertBiasClose(got, ref, rel, what) {
  assert.equal(got.length, ref.length, `${what}: length`);
  for (let e = 0; e < ref.length; e++) {
    const g = got[e],
      r = ref[e];
    if (!Number.isFinite(r)) {
      assert.equal(g, r, `${what}: [${e}] ${g} vs ${r}`);
      continue;
    }
    assert.ok(Math.abs(g - r) <= rel * Math.abs(r), `${what}: [${e}] ${g} vs ${r}`);
  }
}

// ---- ALiBi ----

test('ALiBi slopes (fairseq get_slopes) for 1, 2, 4, 6, 8, 12, 16, 24 heads', async () => {
  const p16 = [
    0.7071067811865476, 0.5000000000000001, 0.35355339059327384, 0.25000000000000006, 0.17677669529663692,
    0.12500000000000006, 0.08838834764831849, 0.06250000000000004, 0.044194173824159244, 0.03125000000000002,
    0.022097086912079626, 0.01562500000000001, 0.011048543456039816, 0.007812500000000007, 0.005524271728019908,
    0.003906250000000004,
  ];
  const spec = {
    1: [0.00390625],
    2: [0.0625, 0.00390625],
    4: [0.25, 0.0625, 0.015625, 0.00390625],
    6: [0.25, 0.0625, 0.015625, 0.00390625, 0.5, 0.125],
    8: [0.5, 0.25, 0.125, 0.0625, 0.03125, 0.015625, 0.0078125, 0.00390625],
    12: [
      0.5, 0.25, 0.125, 0.0625, 0.03125, 0.015625, 0.0078125, 0.00390625, 0.7071067811865476, 0.35355339059327384,
      0.17677669529663692, 0.08838834764831849,
    ],
    16: p16,
    24: p16.concat([
      0.8408964152537145, 0.5946035575013604, 0.42044820762685714, 0.2973017787506802, 0.21022410381342854,
      0.14865088937534005, 0.10511205190671426, 0.07432544468767001,
    ]),
  };
  for (const { name, pe } of await backends()) {
    for (const [n, list] of Object.entries(spec)) {
      // float32 results equal the Python float64 values rounded to float32 (families/relative/alibi.md, Slopes)
      assert.deepEqual(Array.from(pe.alibiSlopes(Number(n))), list.map(Math.fround), `${name} ${n} heads`);
    }
    // and every head count 1..300 agrees with the Python recursion after float32 rounding
    for (let n = 1; n <= 300; n++) {
      assert.deepEqual(Array.from(pe.alibiSlopes(n)), pySlopes(n).map(Math.fround), `${name} ${n}`);
    }
  }
});

test('alibi.md example (slope 0.5, 4 tokens, causal): relative and reference forms, identical softmax', async () => {
  const I = -Infinity;
  const rel = [
    [0, I, I, I],
    [-0.5, 0, I, I],
    [-1, -0.5, 0, I],
    [-1.5, -1, -0.5, 0],
  ];
  const ref = [
    [0, I, I, I],
    [0, 0.5, I, I],
    [0, 0.5, 1, I],
    [0, 0.5, 1, 1.5],
  ];
  for (const { name, pe } of await backends()) {
    // 8 heads: head 0 has slope 0.5
    const a = pe.alibiBias({ heads: 8, queries: 4 });
    const b = pe.alibiBias({ heads: 8, queries: 4, form: 'reference' });
    assert.deepEqual(Array.from(a.subarray(0, 16)), rel.flat(), name);
    assert.deepEqual(Array.from(b.subarray(0, 16)), ref.flat(), name);
    for (let i = 0; i < 4; i++) {
      const pa = softmaxRow(rel[i]),
        pb = softmaxRow(ref[i]);
      pa.forEach((x, j) => assert.ok(Math.abs(x - pb[j]) < 1e-15));
    }
  }
});

test('ALiBi softmax equivalence: all three forms agree under a causal mask, symmetric differs without it', async () => {
  for (const { name, pe } of await backends()) {
    for (const [q, k, offset] of [
      [7, 7, 0],
      [5, 12, 7],
      [9, 9, 3],
    ]) {
      const forms = ['relative', 'reference', 'symmetric'].map((form) =>
        pe.alibiBias({ heads: 6, queries: q, keys: k, form, offset }),
      );
      for (let r = 0; r < 6 * q; r++) {
        const rows = forms.map((f) => softmaxRow(Array.from(f.subarray(r * k, (r + 1) * k))));
        for (let j = 0; j < k; j++) {
          assert.ok(Math.abs(rows[0][j] - rows[1][j]) < 2e-6, `${name} rel/ref ${q}x${k} row ${r}`);
          assert.ok(Math.abs(rows[0][j] - rows[2][j]) < 2e-6, `${name} rel/sym ${q}x${k} row ${r}`);
        }
      }
    }
    // without the mask: reference (m*j) and relative (m*(j-i)) still agree, symmetric does not
    const q = 6;
    const [rel, refF, sym] = ['relative', 'reference', 'symmetric'].map((form) =>
      pe.alibiBias({ heads: 4, queries: q, form, causal: false }),
    );
    let maxRelRef = 0,
      maxRelSym = 0;
    for (let r = 0; r < 4 * q; r++) {
      const [a, b, c] = [rel, refF, sym].map((f) => softmaxRow(Array.from(f.subarray(r * q, (r + 1) * q))));
      for (let j = 0; j < q; j++) {
        maxRelRef = Math.max(maxRelRef, Math.abs(a[j] - b[j]));
        maxRelSym = Math.max(maxRelSym, Math.abs(a[j] - c[j]));
      }
    }
    assert.ok(maxRelRef < 2e-6, `${name} relative vs reference unmasked ${maxRelRef}`);
    assert.ok(maxRelSym > 1e-2, `${name} symmetric must differ unmasked ${maxRelSym}`);
  }
});

test('ALiBi bias vs float64 reference: sizes, offsets, unequal queries/keys, all forms', async () => {
  const cases = [];
  for (const [heads, queries, keys, offset] of [
    [1, 1, 1, 0],
    [3, 5, 5, 0],
    [5, 7, 13, 6],
    [12, 13, 3, -4],
    [8, 33, 65, 32],
    [16, 17, 17, 0],
    [24, 6, 1000, 994],
    [2, 9, 9, 100],
    [7, 9, 9, -100],
    [4, 70, 67, 2 ** 31 - 100],
  ]) {
    for (const form of ['relative', 'symmetric', 'reference'])
      for (const causal of [true, false]) {
        cases.push({ heads, queries, keys, offset, form, causal });
      }
  }
  for (const { name, pe } of await backends()) {
    for (const c of cases) assertBiasClose(pe.alibiBias(c), refAlibi(c), 2 ** -24, `${name} ${JSON.stringify(c)}`);
  }
});

// ---- T5 ----

/** families/relative/t5.md bucket tables as [from, to, bucket(rp)] rows; 'rp'/'-rp' mean bucket = offset +- rp. */
const BIDI = [
  [-200, -91, 15],
  [-90, -64, 14],
  [-63, -46, 13],
  [-45, -32, 12],
  [-31, -23, 11],
  [-22, -16, 10],
  [-15, -12, 9],
  [-11, -8, 8],
  [-7, -1, (rp) => -rp],
  [0, 0, 0],
  [1, 7, (rp) => 16 + rp],
  [8, 11, 24],
  [12, 15, 25],
  [16, 22, 26],
  [23, 31, 27],
  [32, 45, 28],
  [46, 63, 29],
  [64, 90, 30],
  [91, 200, 31],
];
const CAUSAL = [
  [0, 200, 0],
  [-15, -1, (rp) => -rp],
  [-18, -16, 16],
  [-20, -19, 17],
  [-23, -21, 18],
  [-26, -24, 19],
  [-30, -27, 20],
  [-34, -31, 21],
  [-39, -35, 22],
  [-45, -40, 23],
  [-51, -46, 24],
  [-58, -52, 25],
  [-66, -59, 26],
  [-76, -67, 27],
  [-86, -77, 28],
  [-98, -87, 29],
  [-112, -99, 30],
  [-200, -113, 31],
];

function expandTable(rows) {
  const want = new Map();
  for (const [a, b, v] of rows) for (let rp = a; rp <= b; rp++) want.set(rp, typeof v === 'function' ? v(rp) : v);
  assert.equal(want.size, 401, 'the table covers -200..200 exactly once');
  return want;
}

test('T5 complete bucket tables (B=32, D=128), rp = -200..200, both directions', async () => {
  for (const { name, pe } of await backends()) {
    for (const [bidirectional, table] of [
      [true, BIDI],
      [false, CAUSAL],
    ]) {
      const want = expandTable(table);
      // one query row at offset 200: key j has rp = j - 200
      const row = pe.t5Buckets({ queries: 1, keys: 401, offset: 200, bidirectional });
      for (let j = 0; j < 401; j++)
        assert.equal(row[j], want.get(j - 200), `${name} bidi=${bidirectional} rp=${j - 200}`);
      // the full matrix (Toeplitz fill) has the same values at rp = j - i
      const m = pe.t5Buckets({ queries: 201, keys: 201, bidirectional });
      for (let i = 0; i < 201; i++)
        for (let j = 0; j < 201; j++) {
          if (m[i * 201 + j] !== want.get(j - i))
            assert.fail(`${name} bidi=${bidirectional} matrix [${i}][${j}] ${m[i * 201 + j]} vs ${want.get(j - i)}`);
        }
    }
    // the boundary points named in families/relative/t5.md (Exact buckets)
    const row = pe.t5Buckets({ queries: 1, keys: 401, offset: 200 });
    assert.deepEqual(
      [-16, -32, -64, 16, 32, 64].map((rp) => row[rp + 200]),
      [10, 12, 14, 26, 28, 30],
      name,
    );
  }
});

test('T5 buckets: other configurations vs an exact (BigInt) reference over rp = -2000..2000', async () => {
  // [144, 98] / [288, 196] have exact integer quotients at many n (ln(7/6) / ln(49/36) = 1/2);
  // [21, 1006] holds the closest non-integer quotient (1.2e-12 relative) of all configurations
  // with num_buckets <= 160 per direction and maxDistance <= 1024 (found by exhaustive search).
  const configs = [
    [64, 256],
    [128, 256],
    [32, 64],
    [320, 800],
    [8, 20],
    [4, 3],
    [2, 2],
    [33, 100],
    [16, 100000],
    [144, 98],
    [288, 196],
    [21, 1006],
  ];
  for (const { name, pe } of await backends()) {
    for (const [B, D] of configs)
      for (const bidirectional of [true, false]) {
        const me = Math.floor((bidirectional ? Math.floor(B / 2) : B) / 2);
        if (D <= me || (bidirectional && B < 4)) continue;
        const row = pe.t5Buckets({
          queries: 1,
          keys: 4001,
          offset: 2000,
          bidirectional,
          numBuckets: B,
          maxDistance: D,
        });
        for (let j = 0; j < 4001; j++) {
          const want = refBucket(j - 2000, bidirectional, B, D);
          if (row[j] !== want)
            assert.fail(`${name} B=${B} D=${D} bidi=${bidirectional} rp=${j - 2000}: ${row[j]} vs ${want}`);
        }
      }
  }
});

test('T5 identities (bucket(rp) = 16 + bucket(-rp), saturation) and extreme offsets', async () => {
  for (const { name, pe } of await backends()) {
    const bi = pe.t5Buckets({ queries: 1, keys: 4001, offset: 2000 });
    const ca = pe.t5Buckets({ queries: 1, keys: 4001, offset: 2000, bidirectional: false });
    for (let rp = -2000; rp <= 2000; rp++) {
      const b = bi[rp + 2000];
      assert.ok(b >= 0 && b < 32 && ca[rp + 2000] >= 0 && ca[rp + 2000] < 32);
      if (rp > 0) assert.equal(b, 16 + bi[-rp + 2000], `${name} rp=${rp}`);
    }
    assert.equal(bi[2000 - 91], 15);
    assert.equal(bi[2000 - 90], 14);
    assert.equal(ca[2000 - 113], 31);
    assert.equal(ca[2000 - 112], 30);
    // |rp| near 2^31: no overflow, no trap, saturated buckets
    const far = pe.t5Buckets({ queries: 3, keys: 3, offset: 2 ** 31 - 1 });
    assert.deepEqual(Array.from(far), new Array(9).fill(15));
    const near = pe.t5Buckets({ queries: 2, keys: 3, offset: -(2 ** 31 - 1) });
    assert.deepEqual(Array.from(near), new Array(6).fill(31));
  }
});

test('t5Bias gathers [numBuckets][heads] weights by bucket, any offset and shape', async () => {
  for (const { name, pe } of await backends()) {
    for (const [heads, queries, keys, offset, numBuckets, maxDistance, bidirectional] of [
      [3, 9, 14, 5, 32, 128, true],
      [1, 1, 1, 0, 32, 128, false],
      [8, 40, 33, -3, 16, 50, true],
      [5, 20, 20, 0, 7, 20, false],
    ]) {
      const weights = randomF32(numBuckets * heads, heads + queries);
      const got = pe.t5Bias({ weights, heads, queries, keys, offset, numBuckets, maxDistance, bidirectional });
      for (let h = 0; h < heads; h++)
        for (let i = 0; i < queries; i++)
          for (let j = 0; j < keys; j++) {
            const b = refBucket(j - i - offset, bidirectional, numBuckets, maxDistance);
            assert.equal(got[(h * queries + i) * keys + j], weights[b * heads + h], `${name} h${h} [${i}][${j}]`);
          }
    }
  }
});

// ---- Shaw ----

test('Shaw indices as in families/relative/relative.md (length 5, k = 2), unequal lengths and cache mode', async () => {
  const spec = [
    [2, 3, 4, 4, 4],
    [1, 2, 3, 4, 4],
    [0, 1, 2, 3, 4],
    [0, 0, 1, 2, 3],
    [0, 0, 0, 1, 2],
  ];
  const ref = (q, k, K, offset = k - q) =>
    Array.from({ length: q * k }, (_, e) => {
      const rp = (e % k) - (Math.floor(e / k) + offset);
      return Math.min(Math.max(rp, -K), K) + K;
    });
  for (const { name, pe } of await backends()) {
    assert.deepEqual(Array.from(pe.shawIndices({ queries: 5, maxRelative: 2 })), spec.flat(), name);
    // queries are the last `queries` key positions (tensor2tensor): the last 2 rows of the 5x5 table
    assert.deepEqual(Array.from(pe.shawIndices({ queries: 2, keys: 5, maxRelative: 2 })), spec.slice(3).flat(), name);
    // cache mode: one query row -keys+1..0, clipped
    assert.deepEqual(Array.from(pe.shawIndices({ queries: 1, keys: 6, maxRelative: 3 })), [0, 0, 0, 1, 2, 3], name);
    for (const [q, k, K, off] of [
      [7, 3, 1, undefined],
      [13, 29, 4, 0],
      [40, 40, 100, undefined],
      [9, 11, 2, -5],
    ]) {
      assert.deepEqual(
        Array.from(pe.shawIndices({ queries: q, keys: k, maxRelative: K, offset: off })),
        ref(q, k, K, off ?? k - q),
        `${name} ${q}x${k}`,
      );
    }
  }
});

// ---- Transformer-XL ----

function refR(klen, dim, clampLen = 0, base = 10000) {
  const out = new Float64Array(klen * dim);
  for (let t = 0; t < klen; t++) {
    let p = klen - 1 - t;
    if (clampLen > 0) p = Math.min(p, clampLen);
    for (let i = 0; i < dim / 2; i++) {
      const w = 1 / base ** ((2 * i) / dim);
      out[t * dim + i] = Math.sin(p * w);
      out[t * dim + dim / 2 + i] = Math.cos(p * w);
    }
  }
  return out;
}

test('Transformer-XL R: descending distances, [sin | cos], clampLen (<= 2e-6)', async () => {
  for (const { name, pe } of await backends()) {
    for (const [klen, dim, clampLen] of [
      [1, 2, 0],
      [5, 8, 0],
      [70, 10, 0],
      [300, 64, 0],
      [200, 34, 50],
      [9, 6, 100],
      [1000, 128, 0],
    ]) {
      const got = pe.xlPositions({ klen, dim, clampLen: clampLen || undefined });
      const ref = refR(klen, dim, clampLen);
      let err = 0;
      for (let e = 0; e < ref.length; e++) err = Math.max(err, Math.abs(got[e] - ref[e]));
      assert.ok(err <= 2e-6, `${name} klen=${klen} dim=${dim} clamp=${clampLen}: ${err}`);
    }
    // last row is distance 0: sin = 0, cos = 1; rows are the split paper sinusoid reversed
    const r = pe.xlPositions({ klen: 4, dim: 4 });
    assert.deepEqual(Array.from(r.subarray(12)), [0, 0, 1, 1]);
    const R = pe.xlPositions({ klen: 77, dim: 20 }),
      S = pe.sinusoidal({ length: 77, dim: 20, layout: 'split' });
    for (let t = 0; t < 77; t++)
      assert.deepEqual(
        Array.from(R.subarray(t * 20, t * 20 + 20)),
        Array.from(S.subarray((76 - t) * 20, (77 - t) * 20)),
      );
  }
});

test('Transformer-XL _rel_shift examples; masked entries are 0; in place', async () => {
  const code = (q, k) => Float32Array.from({ length: q * k }, (_, e) => 10 * (Math.floor(e / k) + 1) + (e % k));
  for (const { name, pe } of await backends()) {
    // XL's garbage entries (upper triangle) are defined as 0 here
    assert.deepEqual(Array.from(pe.relShift(code(3, 3), { queries: 3 })), [12, 0, 0, 21, 22, 0, 30, 31, 32], name);
    assert.deepEqual(
      Array.from(pe.relShift(code(2, 4), { queries: 2, memory: 2 })),
      [11, 12, 13, 0, 20, 21, 22, 23],
      name,
    );
    assert.deepEqual(
      Array.from(pe.relShift(code(2, 4), { queries: 2, keys: 4 })),
      [11, 12, 13, 0, 20, 21, 22, 23],
      name,
    );
    assert.deepEqual(
      Array.from(pe.relShift(code(4, 4), { queries: 4 })),
      [13, 0, 0, 0, 22, 23, 0, 0, 31, 32, 33, 0, 40, 41, 42, 43],
      name,
    );
    // general sizes vs the definition
    for (const [q, m] of [
      [1, 0],
      [1, 5],
      [7, 0],
      [6, 9],
      [33, 17],
    ]) {
      const k = q + m;
      const x = randomF32(q * k, q * 31 + m);
      const got = pe.relShift(x, { queries: q, memory: m });
      for (let i = 0; i < q; i++)
        for (let j = 0; j < k; j++) {
          assert.equal(got[i * k + j], j <= i + m ? x[i * k + j + q - 1 - i] : 0, `${name} q=${q} m=${m} [${i}][${j}]`);
        }
      // in place on a heap buffer gives the same
      const buf = pe.alloc(q * k);
      try {
        buf.array.set(x);
        assert.equal(pe.relShift(buf, { queries: q, memory: m, out: buf }), buf);
        assert.deepEqual(Array.from(buf.array), Array.from(got));
      } finally {
        buf.free();
      }
    }
  }
});

test('Transformer-XL four-term score vs a direct float64 evaluation', async () => {
  for (const { name, pe } of await backends()) {
    for (const [queries, memory, heads, dim] of [
      [1, 0, 1, 1],
      [4, 0, 2, 8],
      [5, 3, 3, 7],
      [9, 12, 2, 64],
      [16, 16, 4, 33],
    ]) {
      const keys = queries + memory;
      const s = queries * 7 + dim;
      const q = randomF32(queries * heads * dim, s),
        k = randomF32(keys * heads * dim, s + 1);
      const r = randomF32(keys * heads * dim, s + 2),
        u = randomF32(heads * dim, s + 3),
        v = randomF32(heads * dim, s + 4);
      const got = pe.xlScores({ q, k, r, u, v, queries, keys, heads, dim });
      const scale = 1 / Math.sqrt(dim);
      for (let h = 0; h < heads; h++)
        for (let i = 0; i < queries; i++)
          for (let j = 0; j < keys; j++) {
            const e = (h * queries + i) * keys + j;
            if (j > i + memory) {
              assert.equal(got[e], -Infinity);
              continue;
            }
            // R row for the distance i + memory - j is row keys-1-(i+memory-j); four terms separately
            const t = keys - 1 - (i + memory - j);
            let a = 0,
              b = 0,
              c = 0,
              d = 0;
            for (let x = 0; x < dim; x++) {
              const qi = q[(i * heads + h) * dim + x],
                kj = k[(j * heads + h) * dim + x],
                rt = r[(t * heads + h) * dim + x];
              a += qi * kj;
              b += qi * rt;
              c += u[h * dim + x] * kj;
              d += v[h * dim + x] * rt;
            }
            const want = (a + b + c + d) * scale;
            assert.ok(
              Math.abs(got[e] - want) <= 2e-6 * Math.sqrt(dim) * 4,
              `${name} ${queries}/${memory}/${heads}/${dim} [${h}][${i}][${j}] ${got[e]} vs ${want}`,
            );
          }
      // the same as (AC + relShift(BD)) * scale with the reshape-free shift
      if (heads === 1) {
        const bd = new Float32Array(queries * keys),
          ac = new Float32Array(queries * keys);
        for (let i = 0; i < queries; i++)
          for (let t = 0; t < keys; t++)
            for (let x = 0; x < dim; x++) {
              bd[i * keys + t] += (q[i * dim + x] + v[x]) * r[t * dim + x];
              ac[i * keys + t] += (q[i * dim + x] + u[x]) * k[t * dim + x];
            }
        const sh = pe.relShift(bd, { queries, memory });
        for (let i = 0; i < queries; i++)
          for (let j = 0; j <= i + memory; j++) {
            assert.ok(
              Math.abs(got[i * keys + j] - (ac[i * keys + j] + sh[i * keys + j]) * scale) < 1e-4,
              `${name} via relShift`,
            );
          }
      }
    }
  }
});

// ---- builds, errors, leaks ----

test('SIMD and scalar builds agree', async () => {
  const [simd, scalar] = await backends();
  const same = (f) => assert.deepEqual(Array.from(f(simd.pe)), Array.from(f(scalar.pe)));
  same((pe) => pe.alibiBias({ heads: 12, queries: 37, keys: 45, offset: 8 }));
  same((pe) => pe.alibiBias({ heads: 5, queries: 37, form: 'reference', causal: true, offset: -3 }));
  same((pe) => pe.t5Buckets({ queries: 300, keys: 250, offset: 17 }));
  same((pe) => pe.t5Bias({ weights: randomF32(32 * 4, 3), heads: 4, queries: 31, keys: 70 }));
  same((pe) => pe.shawIndices({ queries: 30, keys: 41, maxRelative: 6 }));
  const q = randomF32(10 * 2 * 21, 5),
    k = randomF32(14 * 2 * 21, 6),
    r = randomF32(14 * 2 * 21, 7);
  const u = randomF32(42, 8),
    v = randomF32(42, 9);
  const a = simd.pe.xlScores({ q, k, r, u, v, queries: 10, keys: 14, heads: 2, dim: 21 });
  const b = scalar.pe.xlScores({ q, k, r, u, v, queries: 10, keys: 14, heads: 2, dim: 21 });
  for (let e = 0; e < a.length; e++) assert.ok(a[e] === b[e] || Math.abs(a[e] - b[e]) <= 1e-6, `xlScores ${e}`);
  const ra = simd.pe.xlPositions({ klen: 500, dim: 64, clampLen: 300 }),
    rb = scalar.pe.xlPositions({ klen: 500, dim: 64, clampLen: 300 });
  for (let e = 0; e < ra.length; e++) assert.ok(Math.abs(ra[e] - rb[e]) <= 1e-6);
});

test('out: typed arrays and zero-copy buffers', async () => {
  const [{ pe }] = await backends();
  const out = new Float32Array(2 * 3 * 3);
  assert.equal(pe.alibiBias({ heads: 2, queries: 3, out }), out);
  const ib = pe.alloc(9, 'int32');
  try {
    assert.equal(pe.t5Buckets({ queries: 3, out: ib }), ib);
    assert.deepEqual(Array.from(ib.array), [0, 17, 18, 1, 0, 17, 2, 1, 0]);
  } finally {
    ib.free();
  }
});

test('throw-tests: every export names its argument and range', async () => {
  const [{ pe }] = await backends();
  for (const bad of BAD_SIZES) {
    assertThrowsPosenc(() => pe.alibiSlopes(bad), /alibiSlopes: heads must be an integer in \[1, /);
    assertThrowsPosenc(() => pe.alibiBias({ heads: bad, queries: 4 }), /alibiBias: heads must be an integer in \[1, /);
    assertThrowsPosenc(() => pe.alibiBias({ heads: 1, queries: bad }), /queries must be an integer/);
    assertThrowsPosenc(() => pe.alibiBias({ heads: 1, queries: 2, keys: bad }), /keys must be an integer/);
    assertThrowsPosenc(() => pe.t5Buckets({ queries: bad }), /t5Buckets: queries must be an integer/);
    assertThrowsPosenc(() => pe.t5Buckets({ queries: 2, keys: bad }), /keys must be an integer/);
    assertThrowsPosenc(
      () => pe.t5Bias({ weights: new Float32Array(32), heads: bad, queries: 2 }),
      /t5Bias: heads must be an integer/,
    );
    assertThrowsPosenc(() => pe.shawIndices({ queries: bad, maxRelative: 2 }), /shawIndices: queries must be/);
    assertThrowsPosenc(
      () => pe.shawIndices({ queries: 2, maxRelative: bad }),
      /maxRelative must be an integer in \[1, /,
    );
    assertThrowsPosenc(() => pe.xlPositions({ klen: bad, dim: 4 }), /xlPositions: klen must be/);
    assertThrowsPosenc(() => pe.xlPositions({ klen: 2, dim: bad }), /dim must be/);
    assertThrowsPosenc(() => pe.relShift(new Float32Array(4), { queries: bad }), /relShift: queries must be/);
    assertThrowsPosenc(() => pe.xlScores({ queries: bad, dim: 2 }), /xlScores: queries must be/);
    assertThrowsPosenc(() => pe.xlScores({ queries: 1, dim: bad }), /xlScores: dim must be/);
  }
  assertThrowsPosenc(
    () => pe.alibiBias({ heads: 1, queries: 2, form: 'paper' }),
    /form must be one of 'relative', 'symmetric', 'reference'/,
    Status.E_ENUM,
  );
  assertThrowsPosenc(() => pe.alibiBias({ heads: 1, queries: 2, causal: 1 }), /causal must be true or false/);
  assertThrowsPosenc(() => pe.alibiBias({ heads: 1, queries: 2, offset: 0.5 }), /offset must be an integer/);
  assertThrowsPosenc(
    () => pe.alibiBias({ heads: 16, queries: 8192, keys: 8192 }),
    /at most 268435456 elements/,
    Status.E_SIZE,
  );
  assertThrowsPosenc(() => pe.alibiBias({ queries: 2 }), /heads is required/, Status.E_MISSING);
  assertThrowsPosenc(() => pe.alibiSlopes(4, { heads: 2 }), /unknown option "heads"/);
  // T5 parameters for which the bucket function is undefined
  assertThrowsPosenc(() => pe.t5Buckets({ queries: 2, numBuckets: 3 }), /numBuckets must be an integer in \[4, /);
  assertThrowsPosenc(
    () => pe.t5Buckets({ queries: 2, numBuckets: 1, bidirectional: false }),
    /numBuckets must be an integer in \[2, /,
  );
  assertThrowsPosenc(
    () => pe.t5Buckets({ queries: 2, maxDistance: 8 }),
    /maxDistance must be greater than the exact range 8/,
  );
  assertThrowsPosenc(
    () => pe.t5Buckets({ queries: 2, maxDistance: 16, bidirectional: false }),
    /maxDistance must be greater than the exact range 16/,
  );
  assertThrowsPosenc(() => pe.t5Buckets({ queries: 2, maxDistance: 0 }), /maxDistance must be an integer/);
  assertThrowsPosenc(() => pe.t5Buckets({ queries: 2, bidirectional: 'yes' }), /bidirectional must be true or false/);
  assertThrowsPosenc(() => pe.t5Bias({ heads: 2, queries: 2 }), /weights is required/, Status.E_MISSING);
  assertThrowsPosenc(
    () => pe.t5Bias({ weights: new Float32Array(63), heads: 2, queries: 2 }),
    /weights must be a Float32Array or posenc buffer of length 64/,
  );
  const w = new Float32Array(64);
  w[5] = NaN;
  assertThrowsPosenc(() => pe.t5Bias({ weights: w, heads: 2, queries: 2 }), /weights\[5\] must be finite \(got NaN\)/);
  assertThrowsPosenc(() => pe.shawIndices({ queries: 2 }), /maxRelative is required/);
  assertThrowsPosenc(() => pe.shawIndices({ queries: 2, maxRelative: 0 }), /maxRelative must be an integer in \[1, /);
  assertThrowsPosenc(() => pe.xlPositions({ klen: 2, dim: 5 }), /dim must be even/, Status.E_ODD);
  assertThrowsPosenc(
    () => pe.xlPositions({ klen: 2, dim: 4, clampLen: 0.5 }),
    /clampLen must be an integer in \[-2147483647, /,
  );
  assertThrowsPosenc(() => pe.xlPositions({ klen: 2, dim: 4, base: 1 }), /base must be a finite number in \(1, /);
  assertThrowsPosenc(
    () => pe.relShift(new Float32Array(6), { queries: 2, keys: 3, memory: 2 }),
    /keys must be queries \+ memory = 4/,
  );
  assertThrowsPosenc(
    () => pe.relShift(new Float32Array(6), { queries: 3, keys: 2 }),
    /keys must be an integer in \[3, /,
  );
  assertThrowsPosenc(
    () => pe.relShift(new Float32Array(5), { queries: 2, keys: 3 }),
    /scores must be a Float32Array or posenc buffer of length 6/,
  );
  assertThrowsPosenc(
    () => pe.relShift(new Float32Array(4), { queries: 2, memory: -1 }),
    /memory must be an integer in \[0, /,
  );
  const xs = {
    q: new Float32Array(8),
    k: new Float32Array(8),
    r: new Float32Array(8),
    u: new Float32Array(4),
    v: new Float32Array(4),
    queries: 2,
    dim: 4,
  };
  pe.xlScores(xs);
  for (const key of ['q', 'k', 'r', 'u', 'v']) {
    assertThrowsPosenc(() => pe.xlScores({ ...xs, [key]: undefined }), new RegExp(`${key} is required`));
    assertThrowsPosenc(
      () => pe.xlScores({ ...xs, [key]: new Float32Array(3) }),
      new RegExp(`${key} must be a Float32Array`),
    );
  }
  assertThrowsPosenc(() => pe.xlScores({ ...xs, keys: 1 }), /keys must be an integer in \[2, /);
  assertThrowsPosenc(() => pe.xlScores({ ...xs, scale: NaN }), /scale must be a finite number/);
  // after errors the next valid call still works
  assert.equal(pe.alibiBias({ heads: 8, queries: 2 })[2], -0.5);
});

test('leak test: heap stable over many calls, including failing ones', async () => {
  const [{ pe }] = await backends();
  const w = randomF32(32 * 2, 1);
  const run = () => {
    pe.alibiBias({ heads: 4, queries: 16 });
    pe.t5Bias({ weights: w, heads: 2, queries: 8 });
    pe.relShift(new Float32Array(12), { queries: 3, memory: 1 });
    pe.xlScores({
      q: new Float32Array(8),
      k: new Float32Array(8),
      r: new Float32Array(8),
      u: new Float32Array(4),
      v: new Float32Array(4),
      queries: 2,
      dim: 4,
    });
    try {
      pe.t5Bias({ weights: new Float32Array(64).fill(NaN), heads: 2, queries: 2 });
    } catch {}
    try {
      pe.relShift(new Float32Array(5), { queries: 2, keys: 3 });
    } catch {}
  };
  for (let i = 0; i < 30; i++) run();
  const before = pe.heapInUse;
  for (let i = 0; i < 300; i++) run();
  assert.equal(pe.heapInUse, before);
});
