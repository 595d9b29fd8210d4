import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Status } from '../../js/index.js';
import { assertClose, assertThrowsPosenc, backends, BAD_SIZES, maxAbsDiff } from '../../tests/helpers.js';

// ---- float64 references written from families/sinusoidal/sinusoidal.md, independent of the C code ----
function refFreqs(dim, base, spacing, odd) {
  const h = Math.floor(dim / 2);
  if (odd === 'xlm' && dim % 2) return Array.from({ length: h + 1 }, (_, i) => base ** (-(2 * i) / dim));
  const denom = spacing === 't2t' ? Math.max(h - 1, 1) : h;
  return Array.from({ length: h }, (_, i) => Math.exp(-Math.log(base) * (i / denom)));
}

function refTable({
  length,
  dim,
  base = 10000,
  layout = 'interleaved',
  spacing = 'paper',
  offset = 0,
  oddDim = 'error',
}) {
  const w = refFreqs(dim, base, spacing, oddDim);
  const out = new Float64Array(length * dim);
  const nsin = oddDim === 'xlm' && dim % 2 ? Math.ceil(dim / 2) : Math.floor(dim / 2);
  const ncos = Math.floor(dim / 2);
  for (let r = 0; r < length; r++) {
    const p = offset + r;
    const row = out.subarray(r * dim, (r + 1) * dim);
    for (let i = 0; i < nsin; i++) {
      if (layout === 'interleaved') row[2 * i] = Math.sin(p * w[i]);
      else row[i] = Math.sin(p * w[i]);
    }
    for (let i = 0; i < ncos; i++) {
      if (layout === 'interleaved') row[2 * i + 1] = Math.cos(p * w[i]);
      else row[nsin + i] = Math.cos(p * w[i]);
    }
  }
  return out; // a PAD column stays 0
}

test('paper interleaved vectors, d=8 (Vaswani et al. 2017 §3.5)', async () => {
  const spec = {
    0: [0, 1, 0, 1, 0, 1, 0, 1],
    1: [
      0.8414709848078965, 0.54030230586813977, 0.099833416646828127, 0.99500416527802582, 0.0099998333341666593,
      0.99995000041666526, 0.00099999983333334103, 0.99999950000004167,
    ],
    2: [
      0.90929742682568171, -0.41614683654714241, 0.19866933079506116, 0.98006657784124163, 0.01999866669333307,
      0.99980000666657776, 0.001999998666666932, 0.99999800000066663,
    ],
    50: [
      -0.26237485370392877, 0.96496602849211333, -0.95892427466313868, 0.28366218546322541, 0.47942553860420278,
      0.87758256189037287, 0.049979169270678296, 0.99875026039496628,
    ],
  };
  for (const { name, pe } of await backends()) {
    const t = pe.sinusoidal({ length: 51, dim: 8 });
    for (const [p, row] of Object.entries(spec)) assertClose(t.subarray(p * 8, p * 8 + 8), row, 1e-7, `${name} p=${p}`);
  }
});

test('tensor2tensor split vectors, d=8 (t2t get_timing_signal_1d)', async () => {
  const spec = {
    1: [
      0.8414709848078965, 0.046399223464731257, 0.0021544330233656027, 9.9999999833333248e-5, 0.54030230586813977,
      0.99892297604063041, 0.99999767920648086, 0.99999999500000003,
    ],
    50: [
      -0.26237485370392877, 0.73169017079468446, 0.1075135220095795, 0.0049999791666927038, 0.96496602849211333,
      -0.68163736250475992, 0.99420362229530002, 0.99998750002604164,
    ],
  };
  for (const { name, pe } of await backends()) {
    const t = pe.sinusoidal({ length: 51, dim: 8, layout: 'split', spacing: 't2t' });
    for (const [p, row] of Object.entries(spec)) assertClose(t.subarray(p * 8, p * 8 + 8), row, 1e-7, `${name} p=${p}`);
    const w = pe.sinusoidalFrequencies({ dim: 8, spacing: 't2t' });
    assertClose(w, [1, 0.046415888336127774, 0.0021544346900318825, 9.999999999999991e-5], 1e-15);
  }
});

test('odd d=7: t2t pad, XLM, Marian (families/sinusoidal/sinusoidal.md oddDim)', async () => {
  const t2t1 = [
    0.8414709848078965, 0.0099998333341666593, 9.9999999833333248e-5, 0.54030230586813977, 0.99995000041666526,
    0.99999999500000003, 0,
  ];
  const t2t2 = [
    0.90929742682568171, 0.01999866669333307, 0.0001999999986666665, -0.41614683654714241, 0.99980000666657776,
    0.99999998000000012, 0,
  ];
  const xlm1 = [
    0.8414709848078965, 0.54030230586813977, 0.071906456825273718, 0.99741138025733145, 0.0051794515210040366,
    0.99998658655101047, 0.00037275936339903641,
  ];
  const xlm2 = [
    0.90929742682568171, -0.41614683654714241, 0.14344063670302093, 0.98965892293367008, 0.010358764093390531,
    0.99994634656388315, 0.00074551867500332789,
  ];
  const marian1 = [
    0.8414709848078965, 0.071906456825273718, 0.0051794515210040366, 0.00037275936339903641, 0.54030230586813977,
    0.99741138025733145, 0.99998658655101047,
  ];
  for (const { name, pe } of await backends()) {
    const a = pe.sinusoidal({ length: 3, dim: 7, layout: 'split', spacing: 't2t', oddDim: 'pad' });
    assertClose(a.subarray(7, 14), t2t1, 1e-7, name);
    assertClose(a.subarray(14, 21), t2t2, 1e-7, name);
    const x = pe.sinusoidal({ length: 3, dim: 7, oddDim: 'xlm' });
    assertClose(x.subarray(7, 14), xlm1, 1e-7, name);
    assertClose(x.subarray(14, 21), xlm2, 1e-7, name);
    const m = pe.sinusoidal({ length: 3, dim: 7, layout: 'split', oddDim: 'xlm' });
    assertClose(m.subarray(7, 14), marian1, 1e-7, name);
  }
});

test('MAE 2-D vectors (facebookresearch/mae util/pos_embed.py)', async () => {
  const r1 = [0.8414709848078965, 0.0099998333341666645, 0.54030230586813977, 0.99995000041666526, 0, 0, 1, 1];
  const r2 = [0, 0, 1, 1, 0.8414709848078965, 0.0099998333341666645, 0.54030230586813977, 0.99995000041666526];
  const row5 = [
    0.90929742682568171, 0.19866933079506122, 0.01999866669333308, 0.0019999986666669333, -0.41614683654714241,
    0.98006657784124163, 0.99980000666657776, 0.99999800000066663, 0.8414709848078965, 0.099833416646828155,
    0.0099998333341666645, 0.00099999983333334168, 0.54030230586813977, 0.99500416527802582, 0.99995000041666526,
    0.99999950000004167,
  ];
  for (const { name, pe } of await backends()) {
    const t = pe.sinusoidal2d({ height: 2, width: 2, dim: 8 });
    assert.equal(t.length, 32);
    assertClose(t.subarray(0, 8), [0, 0, 1, 1, 0, 0, 1, 1], 1e-7, name);
    assertClose(t.subarray(8, 16), r1, 1e-7, name);
    assertClose(t.subarray(16, 24), r2, 1e-7, name);
    const c = pe.sinusoidal2d({ height: 2, width: 2, dim: 8, clsToken: true });
    assert.equal(c.length, 40);
    assertClose(c.subarray(0, 8), new Float32Array(8), 0, `${name} cls`);
    assertClose(c.subarray(8), t, 0, `${name} cls shift`);
    const g = pe.sinusoidal2d({ height: 3, width: 3, dim: 16 });
    assertClose(g.subarray(5 * 16, 6 * 16), row5, 1e-7, `${name} row 5`);
    // non-square grid against a float64 reference built from the 1-D reference
    const H = 3,
      W = 5,
      D = 12;
    const s = pe.sinusoidal2d({ height: H, width: W, dim: D });
    const ref = new Float64Array(H * W * D);
    const x1 = refTable({ length: W, dim: D / 2, layout: 'split' });
    const y1 = refTable({ length: H, dim: D / 2, layout: 'split' });
    for (let r = 0; r < H; r++)
      for (let c2 = 0; c2 < W; c2++) {
        ref.set(x1.subarray((c2 * D) / 2, ((c2 + 1) * D) / 2), (r * W + c2) * D);
        ref.set(y1.subarray((r * D) / 2, ((r + 1) * D) / 2), (r * W + c2) * D + D / 2);
      }
    assertClose(s, ref, 3e-7, `${name} 3x5`);
  }
});

test('identities: |PE[p]|^2 = d/2, PE[3].PE[5] = PE[10].PE[12], shift M_48 PE[2] = PE[50]', async () => {
  for (const { name, pe } of await backends()) {
    const t = pe.sinusoidal({ length: 51, dim: 8 });
    const row = (p) => t.subarray(p * 8, p * 8 + 8);
    const dot = (a, b) => a.reduce((s, x, i) => s + x * b[i], 0);
    assert.ok(Math.abs(dot(row(7), row(7)) - 4) < 1e-6, name);
    assert.ok(Math.abs(dot(row(3), row(5)) - 2.563717747961344) < 2e-6, name);
    assert.ok(Math.abs(dot(row(10), row(12)) - 2.563717747961344) < 2e-6, name);
    const w = [1, 0.1, 0.01, 0.001];
    const shifted = [];
    for (let i = 0; i < 4; i++) {
      const [s, c] = [row(2)[2 * i], row(2)[2 * i + 1]];
      const [ck, sk] = [Math.cos(48 * w[i]), Math.sin(48 * w[i])];
      shifted.push(ck * s + sk * c, -sk * s + ck * c);
    }
    assertClose(shifted, row(50), 1e-6, name);
    // Gram matrix from similarity() equals the analytic sum of cosines
    const g = pe.similarity(t, { length: 51, dim: 8 });
    for (const [p, q] of [
      [0, 0],
      [3, 5],
      [50, 1],
      [17, 40],
    ]) {
      const expect = w.reduce((s, wi) => s + Math.cos((p - q) * wi), 0);
      assert.ok(Math.abs(g[p * 51 + q] - expect) < 2e-6, `${name} gram ${p},${q}`);
    }
    const n = pe.similarity(t, { length: 51, dim: 8, normalize: true });
    assert.ok(Math.abs(n[3 * 51 + 5] - 2.563717747961344 / 4) < 1e-6);
    assert.equal(n[7 * 51 + 7], 1);
  }
});

test('float64 reference at many sizes, layouts, spacings and offsets (<= 2e-6)', async () => {
  const dims = [1, 2, 3, 5, 6, 7, 10, 14, 62, 64, 66, 130, 255, 258, 514];
  const cases = [];
  for (const dim of dims)
    for (const layout of ['interleaved', 'split'])
      for (const spacing of ['paper', 't2t']) {
        const odds = dim % 2 ? (spacing === 'paper' ? ['pad', 'xlm'] : ['pad']) : ['error'];
        for (const oddDim of odds)
          cases.push({ length: 1 + ((dim * 7) % 150), dim, layout, spacing, oddDim, offset: (dim * 13) % 97 });
      }
  cases.push({ length: 300, dim: 96, offset: 2 ** 20 - 300 });
  cases.push({ length: 200, dim: 64, layout: 'split', spacing: 't2t', offset: 2 ** 20 - 200 });
  cases.push({ length: 5, dim: 4096, offset: 1048570 });
  cases.push({ length: 130, dim: 10, offset: -77.25, base: 500 });
  cases.push({ length: 3, dim: 8, base: 1.0001 });
  for (const { name, pe } of await backends()) {
    for (const c of cases) {
      if (c.dim === 1 && c.oddDim === 'pad') continue; // covered below: all-zero
      const got = pe.sinusoidal(c);
      const err = maxAbsDiff(got, refTable(c));
      assert.ok(err <= 2e-6, `${name} ${JSON.stringify(c)}: ${err}`);
    }
    assert.deepEqual(Array.from(pe.sinusoidal({ length: 3, dim: 1, oddDim: 'pad' })), [0, 0, 0]);
  }
});

test('long table 8192 x 1024 stays within 2e-6 (sampled)', async () => {
  for (const { name, pe } of await backends()) {
    const L = 8192,
      D = 1024;
    const t = pe.sinusoidal({ length: L, dim: D });
    let err = 0;
    for (let p = 0; p < L; p += 61)
      for (let i = 0; i < D / 2; i += 3) {
        const w = Math.exp(-Math.log(10000) * (i / (D / 2)));
        err = Math.max(
          err,
          Math.abs(t[p * D + 2 * i] - Math.sin(p * w)),
          Math.abs(t[p * D + 2 * i + 1] - Math.cos(p * w)),
        );
      }
    assert.ok(err <= 2e-6, `${name}: ${err}`);
  }
});

test('SIMD and scalar builds agree (<= 1e-6)', async () => {
  const [simd, scalar] = await backends();
  for (const c of [
    { length: 1000, dim: 130 },
    { length: 77, dim: 63, layout: 'split', oddDim: 'xlm' },
    { length: 513, dim: 64, spacing: 't2t', layout: 'split', offset: 12345 },
  ]) {
    assert.ok(maxAbsDiff(simd.pe.sinusoidal(c), scalar.pe.sinusoidal(c)) <= 1e-6, JSON.stringify(c));
  }
  const t = simd.pe.sinusoidal({ length: 37, dim: 22 });
  assert.ok(
    maxAbsDiff(simd.pe.similarity(t, { length: 37, dim: 22 }), scalar.pe.similarity(t, { length: 37, dim: 22 })) <=
      1e-5,
  );
  assert.ok(
    maxAbsDiff(
      simd.pe.sinusoidal2d({ height: 7, width: 9, dim: 20 }),
      scalar.pe.sinusoidal2d({ height: 7, width: 9, dim: 20 }),
    ) <= 1e-6,
  );
});

test('out: typed array and zero-copy buffer are filled in place', async () => {
  const [{ pe }] = await backends();
  const out = new Float32Array(4 * 6);
  assert.equal(pe.sinusoidal({ length: 4, dim: 6, out }), out);
  const buf = pe.alloc(24);
  try {
    assert.equal(pe.sinusoidal({ length: 4, dim: 6, out: buf }), buf);
    assert.deepEqual(Array.from(buf.array), Array.from(out));
    const g = pe.similarity(buf, { length: 4, dim: 6 });
    assert.ok(Math.abs(g[0] - 3) < 1e-6);
  } finally {
    buf.free();
  }
  assertThrowsPosenc(() => buf.array, /freed/);
});

test('throw-tests: every export names its argument and range', async () => {
  const [{ pe }] = await backends();
  for (const bad of BAD_SIZES) {
    assertThrowsPosenc(() => pe.sinusoidal({ length: bad, dim: 8 }), /length must be an integer in \[1, /);
    assertThrowsPosenc(() => pe.sinusoidal({ length: 8, dim: bad }), /dim must be an integer in \[1, /);
    assertThrowsPosenc(() => pe.sinusoidal2d({ height: bad, width: 2, dim: 8 }), /height must be an integer/);
    assertThrowsPosenc(() => pe.sinusoidal2d({ height: 2, width: bad, dim: 8 }), /width must be an integer/);
    assertThrowsPosenc(() => pe.similarity(new Float32Array(8), { length: bad, dim: 8 }), /length must be/);
    assertThrowsPosenc(() => pe.sinusoidalFrequencies({ dim: bad }), /dim must be/);
  }
  assertThrowsPosenc(() => pe.sinusoidal({ dim: 8 }), /length is required/, Status.E_MISSING);
  assertThrowsPosenc(() => pe.sinusoidal(), /length is required/);
  assertThrowsPosenc(
    () => pe.sinusoidal({ length: 2 ** 20, dim: 2 ** 10 }),
    /at most 268435456 elements/,
    Status.E_SIZE,
  );
  for (const base of [1, 0.5, 0, -3, NaN, Infinity, '10000']) {
    assertThrowsPosenc(() => pe.sinusoidal({ length: 2, dim: 8, base }), /base must be a finite number in \(1, /);
  }
  assertThrowsPosenc(
    () => pe.sinusoidal({ length: 2, dim: 8, layout: 'half-split' }),
    /layout must be one of 'interleaved', 'split'/,
    Status.E_ENUM,
  );
  assertThrowsPosenc(() => pe.sinusoidal({ length: 2, dim: 8, spacing: 'x' }), /spacing must be one of 'paper', 't2t'/);
  assertThrowsPosenc(() => pe.sinusoidal({ length: 2, dim: 7 }), /dim must be even, or pass oddDim/, Status.E_ODD);
  assertThrowsPosenc(
    () => pe.sinusoidal({ length: 2, dim: 7, oddDim: 'xlm', spacing: 't2t' }),
    /spacing must be 'paper' when oddDim is 'xlm'/,
  );
  assertThrowsPosenc(() => pe.sinusoidal({ length: 2, dim: 8, offset: NaN }), /offset must be a finite number/);
  assertThrowsPosenc(() => pe.sinusoidal({ length: 2, dim: 8, lenght: 3 }), /unknown option "lenght"/);
  assertThrowsPosenc(
    () => pe.sinusoidal({ length: 2, dim: 8, out: new Float32Array(15) }),
    /out must be a Float32Array or posenc buffer of length 16/,
  );
  assertThrowsPosenc(
    () => pe.sinusoidal({ length: 2, dim: 8, out: new Float64Array(16) }),
    /out must be a Float32Array/,
  );
  assertThrowsPosenc(() => pe.sinusoidal2d({ height: 2, width: 2, dim: 6 }), /dim must be a multiple of 4/);
  assertThrowsPosenc(() => pe.similarity([1, 2, 3, 4], { length: 2, dim: 2 }), /table must be a Float32Array/);
  assertThrowsPosenc(
    () => pe.similarity(new Float32Array(5), { length: 2, dim: 2 }),
    /table must be a Float32Array or posenc buffer of length 4 \(got Float32Array\(5\)\)/,
  );
  assertThrowsPosenc(() => pe.similarity(undefined, { length: 2, dim: 2 }), /table is required/);
  assertThrowsPosenc(() => pe.alloc(-1), /length must be an integer in \[0, /);
  assertThrowsPosenc(() => pe.alloc(4, 'float16'), /type must be one of 'float32', 'int32', 'float64'/);
  // after errors the next valid call still works
  assert.equal(pe.sinusoidal({ length: 2, dim: 8 })[1], 1);
});

test('leak test: heap stable over many calls, including failing ones', async () => {
  const [{ pe }] = await backends();
  const run = () => {
    pe.sinusoidal({ length: 64, dim: 64 });
    pe.similarity(new Float32Array(64), { length: 8, dim: 8 });
    try {
      pe.similarity(new Float32Array(64), { length: 8, dim: 9 });
    } catch {}
  };
  for (let i = 0; i < 50; i++) run();
  const before = pe.heapInUse;
  for (let i = 0; i < 500; i++) run();
  assert.equal(pe.heapInUse, before);
  const buf = pe.alloc(1000);
  assert.ok(pe.heapInUse >= before + 4000, 'heapInUse sees a live buffer');
  buf.free();
  assert.equal(pe.heapInUse, before);
});

test('similarity sums exact products in float64 (1e8 + 1 - 1e8 is 1 at every dim)', async () => {
  for (const { pe } of await backends()) {
    for (const dim of [3, 4, 7, 8, 9, 16]) {
      const t = new Float32Array(2 * dim);
      t.set([1e8, 1, -1e8], 0);
      t.set([1, 1, 1], dim);
      assert.equal(pe.similarity(t, { length: 2, dim })[1], 1, `${pe.backend} dim ${dim}`);
    }
  }
});
