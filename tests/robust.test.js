// Issue 10 regression tests: option snapshots, only PosencError escapes, aliasing, one
// finiteness rule, zeroed pe.alloc, and a helpful error before init resolves.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import * as posenc from '../js/index.js';
import { init, PosencError, Status } from '../js/index.js';
import { assertThrowsPosenc, randomF32 } from './helpers.js';

const root = new URL('..', import.meta.url).pathname;
const pe = await init();
const scalarPe = await init({ simd: false });

/** fn() throws a PosencError with `code` whose message names `arg` (a string or RegExp). */
function throwsNaming(fn, code, arg) {
  const e = assertThrowsPosenc(fn, [], code);
  if (arg)
    assert.match(e.message, typeof arg === 'string' ? new RegExp(arg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) : arg);
  return e;
}

/** The instance still works and its heap is as it was. */
function stillHealthy(p, inUse) {
  const t = p.sinusoidal({ length: 4, dim: 8 });
  assert.equal(t[8], Math.fround(Math.sin(1)));
  if (inUse !== undefined) assert.equal(p.heapInUse, inUse);
}

// ---- defect 2: options are read once, own properties only, before validation ----

test('a getter that frees a buffer during option reading cannot make C write freed memory', async () => {
  const p = await init();
  const before = p.heapInUse;
  const x = p.alloc(8 * 64);
  x.array.set(randomF32(8 * 64, 3));
  const c = p.ropeCache({ length: 8, dim: 64 });
  const cache = {
    cos: c.cos,
    get sin() {
      x.free();
      return c.sin;
    },
  };
  throwsNaming(() => p.applyRope(x, { length: 8, dim: 64, cache }), Status.E_NULL, 'x');
  stillHealthy(p, before);
  // and a getter that frees the out buffer of another function
  const out = p.alloc(4 * 8);
  throwsNaming(
    () =>
      p.sinusoidal({
        length: 4,
        get dim() {
          out.free();
          return 8;
        },
        out,
      }),
    Status.E_NULL,
    'out',
  );
  stillHealthy(p, before);
});

test('every option is read exactly once', () => {
  let reads = 0;
  const o = {
    length: 8,
    get dim() {
      reads++;
      return 16;
    },
    base: 100,
  };
  pe.sinusoidal(o);
  assert.equal(reads, 1);
  reads = 0;
  const sc = {
    type: 'linear',
    get factor() {
      reads++;
      return 2;
    },
  };
  pe.ropeCache({ length: 4, dim: 8, scaling: sc });
  assert.equal(reads, 1);
  reads = 0;
  // a getter that answers differently on the second read must not change what is used
  let n = 0;
  const flip = {
    length: 4,
    get dim() {
      n++;
      return n === 1 ? 8 : 4096;
    },
  };
  assert.equal(pe.sinusoidal(flip).length, 32);
  const list = [1, 2];
  Object.defineProperty(list, 0, {
    get() {
      reads++;
      return reads === 1 ? 1 : 1e9;
    },
    enumerable: true,
  });
  const g = pe.gather(new Float32Array(3 * 2).fill(1), { dim: 2, positions: list });
  assert.equal(reads, 1);
  assert.equal(g.length, 4);
});

test('inherited properties (Object.prototype.offset) do not count as options', () => {
  const want = pe.sinusoidal({ length: 4, dim: 8 });
  const wantA = pe.alibiBias({ heads: 1, queries: 3 });
  Object.prototype.offset = 1000; // eslint-disable-line no-extend-native
  Object.prototype.causal = false; // eslint-disable-line no-extend-native
  try {
    assert.deepEqual(pe.sinusoidal({ length: 4, dim: 8 }), want);
    assert.deepEqual(pe.alibiBias({ heads: 1, queries: 3 }), wantA);
  } finally {
    delete Object.prototype.offset;
    delete Object.prototype.causal;
  }
});

test('a throwing getter becomes a PosencError naming the option', () => {
  const e = throwsNaming(
    () =>
      pe.sinusoidal({
        length: 4,
        get dim() {
          throw new Error('boom');
        },
      }),
    Status.E_PARAM,
    'dim',
  );
  assert.match(e.message, /boom/);
  throwsNaming(
    () =>
      pe.ropeCache({
        length: 4,
        dim: 8,
        scaling: {
          type: 'linear',
          get factor() {
            throw new RangeError('no');
          },
        },
      }),
    Status.E_PARAM,
    'scaling.factor',
  );
  throwsNaming(
    () =>
      pe.selfAttention({
        tokens: new Float32Array(8),
        dModel: 4,
        wq: new Float32Array(16),
        wk: new Float32Array(16),
        wv: new Float32Array(16),
        encoding: {
          get type() {
            throw new Error('x');
          },
        },
      }),
    Status.E_PARAM,
    'encoding.type',
  );
});

// ---- defect 3: only PosencError escapes ----

test('a Proxy around a typed array is a PosencError naming the argument', () => {
  const p = new Proxy(new Float32Array(16), {});
  throwsNaming(() => pe.similarity(p, { length: 4, dim: 4 }), Status.E_PARAM, 'table');
  throwsNaming(
    () => pe.sinusoidal({ length: 2, dim: 8, out: new Proxy(new Float32Array(16), {}) }),
    Status.E_PARAM,
    'out',
  );
  throwsNaming(
    () => pe.gather(new Float32Array(8), { dim: 2, positions: new Proxy(new Int32Array(2), {}) }),
    Status.E_PARAM,
    'positions',
  );
  throwsNaming(() => pe.applyRope(new Proxy(new Float32Array(8), {}), { length: 1, dim: 8 }), Status.E_PARAM, 'x');
  throwsNaming(
    () =>
      pe.sinusoidal(
        new Proxy(
          { length: 2, dim: 2 },
          {
            ownKeys() {
              throw new Error('trap');
            },
          },
        ),
      ),
    Status.E_PARAM,
    'options',
  );
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  throwsNaming(() => pe.sinusoidal(proxy), Status.E_PARAM, 'options');
  throwsNaming(() => pe.addTo(proxy, new Float32Array(4), { length: 1, dim: 4 }), Status.E_PARAM, 'x');
});

test('a typed array whose own length lies is measured by its real length', () => {
  const a = new Float32Array(4);
  Object.defineProperty(a, 'length', { value: 1 << 20 });
  throwsNaming(() => pe.similarity(a, { length: 1024, dim: 1024 }), Status.E_SCRATCH, 'table');
  const t = new Float32Array(6);
  Object.defineProperty(t, 'length', { value: 600 });
  throwsNaming(() => pe.gather(t, { dim: 2, positions: [0, 250] }), Status.E_RANGE, 'positions[1]');
  const out = new Float32Array(2);
  Object.defineProperty(out, 'length', { value: 16 });
  throwsNaming(() => pe.sinusoidal({ length: 2, dim: 8, out }), Status.E_SCRATCH, 'out');
  const lies = new Float32Array(16);
  Object.defineProperty(lies, 'set', {
    value: () => {
      throw new Error('set');
    },
  });
  const r = pe.sinusoidal({ length: 2, dim: 8, out: lies });
  assert.equal(r, lies);
  assert.equal(lies[9], Math.fround(Math.cos(1)));
});

test('an array detached by a getter is a PosencError', () => {
  const x = new Float32Array(16);
  throwsNaming(
    () =>
      pe.applyRope(x, {
        length: 2,
        get dim() {
          structuredClone(x.buffer, { transfer: [x.buffer] });
          return 8;
        },
      }),
    Status.E_SCRATCH,
    /x must be .*detached/,
  );
  const t = new Float32Array(16);
  throwsNaming(
    () =>
      pe.similarity(t, {
        length: 4,
        get dim() {
          structuredClone(t.buffer, { transfer: [t.buffer] });
          return 4;
        },
      }),
    Status.E_SCRATCH,
    'table',
  );
});

test('init: bad options, bad bytes, an unrelated module and a missing file are PosencErrors', async () => {
  const rejects = async (p, code, arg) => {
    let err;
    try {
      await p;
    } catch (e) {
      err = e;
    }
    assert.ok(err instanceof PosencError, `expected PosencError, got ${err?.name}: ${err?.message}`);
    assert.equal(err.code, code);
    assert.match(err.message, arg);
    return err;
  };
  await rejects(init({ simd: Object.create(null) }), Status.E_PARAM, /simd/);
  await rejects(
    init({
      simd: new Proxy(
        {},
        {
          get() {
            throw new Error('x');
          },
          getPrototypeOf() {
            throw new Error('y');
          },
        },
      ),
    }),
    Status.E_PARAM,
    /simd/,
  );
  await rejects(init({ wasm: new Uint8Array([1, 2, 3]) }), Status.E_PARAM, /wasm/);
  await rejects(
    init({ wasm: new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]) }),
    Status.E_PARAM,
    /wasm.*posenc_build_flags|wasm.*not a posenc core/,
  );
  // a module that needs imports posenc cannot give (a memory import)
  const needsMemory = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 2, 11, 1, 3, 101, 110, 118, 1, 109, 2, 0, 1]);
  await rejects(init({ wasm: needsMemory }), Status.E_PARAM, /wasm/);
  await rejects(init({ wasm: new URL('file:///nonexistent/posenc.wasm') }), Status.E_PARAM, /wasm.*nonexistent/);
  await rejects(init({ wasm: 'no/such/file.wasm' }), Status.E_PARAM, /wasm.*file\.wasm/);
  await rejects(
    init({
      get wasm() {
        throw new Error('getter');
      },
    }),
    Status.E_PARAM,
    /wasm/,
  );
  await rejects(init(42), Status.E_PARAM, /options/);
});

test('a PosencBuffer cannot be told it is longer than it is', () => {
  const b = pe.alloc(4);
  assert.throws(() => {
    b.length = 1 << 20;
  }, TypeError);
  assert.throws(() => {
    b.type = Float64Array;
  }, TypeError);
  assert.equal(b.length, 4);
  throwsNaming(() => pe.sinusoidal({ length: 128, dim: 8192, out: b }), Status.E_SCRATCH, 'out');
  b.free();
});

test('a typed-array view of the wasm heap is copied as input and refused as output', async () => {
  const p = await init();
  const b = p.alloc(16);
  b.array.set(randomF32(16, 2));
  const want = p.similarity(randomF32(16, 2), { length: 4, dim: 4 });
  assert.deepEqual(p.similarity(b.array, { length: 4, dim: 4 }), want);
  throwsNaming(() => p.sinusoidal({ length: 2, dim: 8, out: b.array }), Status.E_PARAM, /out .*PosencBuffer/);
  throwsNaming(() => p.applyRope(b.array, { length: 2, dim: 8 }), Status.E_PARAM, /x .*PosencBuffer/);
  b.free();
});

// ---- defect 4: aliasing ----

test('the same memory as input and out is E_PARAM unless in-place use is documented', () => {
  const a = pe.alloc(80 * 80);
  const b = pe.alloc(80 * 80);
  a.array.set(randomF32(80 * 80, 1));
  b.array.set(randomF32(80 * 80, 2));
  throwsNaming(() => pe.matmul(a, b, { m: 80, k: 80, n: 80, out: a }), Status.E_PARAM, /out .*a/);
  throwsNaming(() => pe.matmul(a, b, { m: 80, k: 80, n: 80, out: b }), Status.E_PARAM, /out .*b/);
  const t = randomF32(16, 3);
  throwsNaming(() => pe.similarity(t, { length: 4, dim: 4, out: t }), Status.E_PARAM, /out .*table/);
  // overlapping views of one ArrayBuffer
  const ab = new ArrayBuffer(4 * 40);
  const x = new Float32Array(ab, 0, 16);
  x.set(randomF32(16, 4));
  throwsNaming(
    () => pe.similarity(x, { length: 4, dim: 4, out: new Float32Array(ab, 32, 16) }),
    Status.E_PARAM,
    /out .*table/,
  );
  // disjoint views of one ArrayBuffer are fine
  assert.deepEqual(
    pe.similarity(x, { length: 4, dim: 4, out: new Float32Array(ab, 64, 16) }),
    pe.similarity(x.slice(), { length: 4, dim: 4 }),
  );
  const g = new Float32Array(8).fill(1);
  throwsNaming(() => pe.gather(g, { dim: 2, positions: [0, 1, 2, 3], out: g }), Status.E_PARAM, /out .*table/);
  const cs = new Float32Array(4 * 4);
  throwsNaming(() => pe.ropeCache({ length: 4, dim: 8, cos: cs, sin: cs }), Status.E_PARAM, /sin .*cos|cos .*sin/);
  const cb = pe.alloc(16);
  throwsNaming(() => pe.ropeCache({ length: 4, dim: 8, cos: cb, sin: cb }), Status.E_PARAM, /sin .*cos|cos .*sin/);
  throwsNaming(() => pe.addTo(a, a, { length: 80, dim: 80, rows: 80 }), Status.E_PARAM, /table .*x|x .*table/);
  // documented in-place use still works
  const xr = pe.alloc(4 * 8);
  xr.array.set(randomF32(32, 5));
  const wantR = pe.applyRope(randomF32(32, 5), { length: 4, dim: 8 });
  assert.equal(pe.applyRope(xr, { length: 4, dim: 8 }), xr);
  assert.deepEqual(xr.array, wantR);
  const s = randomF32(12, 6);
  const shifted = pe.relShift(s, { queries: 3, memory: 1 });
  assert.deepEqual(pe.relShift(s, { queries: 3, memory: 1, out: s }), shifted);
  for (const buf of [a, b, cb, xr]) buf.free();
});

// ---- defect 5: one finiteness rule ----

test('non-finite inputs are rejected with the element named, everywhere', () => {
  const bad = (n, i, v = NaN) => {
    const a = randomF32(n, 9);
    a[i] = v;
    return a;
  };
  throwsNaming(() => pe.similarity(bad(16, 5), { length: 4, dim: 4 }), Status.E_PARAM, 'table[5]');
  throwsNaming(() => pe.applyRope(bad(16, 3, Infinity), { length: 2, dim: 8 }), Status.E_PARAM, 'x[3]');
  throwsNaming(() => pe.addTo(bad(8, 2), randomF32(8, 1), { length: 2, dim: 4 }), Status.E_PARAM, 'x[2]');
  throwsNaming(
    () => pe.addTo(randomF32(8, 1), bad(8, 7, -Infinity), { length: 2, dim: 4 }),
    Status.E_PARAM,
    'table[7]',
  );
  throwsNaming(() => pe.concat(bad(8, 1), randomF32(8, 1), { length: 2, dimX: 4, dimP: 4 }), Status.E_PARAM, 'x[1]');
  throwsNaming(() => pe.gather(bad(8, 6), { dim: 2, positions: [0, 3] }), Status.E_PARAM, 'table[6]');
  throwsNaming(
    () => pe.concat(randomF32(8, 1), bad(12, 9), { length: 2, dimX: 4, dimP: 4, offset: 1 }),
    Status.E_PARAM,
    'table[9]',
  );
  throwsNaming(() => pe.relShift(bad(12, 4), { queries: 3, memory: 1 }), Status.E_PARAM, 'scores[4]');
  const c = pe.ropeCache({ length: 4, dim: 8 });
  c.sin[3] = NaN;
  throwsNaming(() => pe.applyRope(randomF32(16, 1), { length: 2, dim: 8, cache: c }), Status.E_PARAM, 'cache.sin[3]');
});

test('applyRope refusing x in place: the pairs before the bad one rotated, the rest as given (docs/errors.md)', () => {
  // [4 tokens][2 heads][dim]; the bad element is in token 2, head 1, at element 3 (pair 3) or at
  // the head's last element (its last pair). Both backends, both orders, both pairings, with and
  // without a cache, NaN and an element past the overflow bound, and heads of 8, 40 and 1040
  // values (the SIMD kernel checks 8 pairs at a time, then 4, then one).
  for (const simd of [true, false]) {
    const api = simd ? pe : scalarPe;
    for (const dim of [8, 40, 1040])
      for (const layout of ['half', 'interleaved'])
        for (const order of ['thd', 'htd']) {
          for (const cached of [false, true]) {
            for (const [bad, el] of [
              [NaN, 3],
              [3e38, 3],
              [NaN, dim - 1],
            ]) {
              const n = 4 * 2 * dim;
              const src = randomF32(n, 11);
              const cache = cached ? api.ropeCache({ length: 4, dim }) : undefined;
              const opts = { length: 4, heads: 2, dim, order, layout, cache };
              const rotated = api.applyRope(src.slice(), opts);
              const tokenOf = (i) => (order === 'thd' ? Math.floor(i / (2 * dim)) : Math.floor(i / dim) % 4);
              const headOf = (i) => (order === 'thd' ? Math.floor(i / dim) % 2 : Math.floor(i / (4 * dim)));
              const pairOf = (d) => (layout === 'half' ? d % (dim / 2) : Math.floor(d / 2));
              const head = order === 'thd' ? (2 * 2 + 1) * dim : (1 * 4 + 2) * dim; // token 2, head 1
              const at = head + el;
              const given = src.slice();
              given[at] = bad;
              const x = api.alloc(n);
              x.array.set(given);
              const name = Number.isNaN(bad) ? `x[${at}]` : /: x(, cache.cos, cache.sin)? must be small enough/;
              throwsNaming(() => api.applyRope(x, opts), Status.E_PARAM, name);
              const before = (i) =>
                tokenOf(i) < 2 ||
                (tokenOf(i) === 2 && (headOf(i) < 1 || (headOf(i) === 1 && pairOf(i % dim) < pairOf(el))));
              const want = given.map((v, i) => (before(i) ? rotated[i] : v));
              assert.deepEqual(
                x.array,
                Float32Array.from(want),
                `${api.backend} dim ${dim} ${layout} ${order} cached=${cached} bad=${bad} at ${el}`,
              );
              x.free();
              // a typed array is rotated in a copy: the caller's array is as given
              const ta = given.slice();
              throwsNaming(() => api.applyRope(ta, opts), Status.E_PARAM, name);
              assert.deepEqual(ta, given);
            }
          }
        }
  }
});

test('addTo refusing x in place: the blocks (512 elements) before the failing one added, the rest as given (docs/errors.md)', () => {
  // x [65][100] + rows 3..67 of a [70][100] table, in blocks of B = 512 elements
  const length = 65,
    dim = 100,
    rows = 70,
    offset = 3,
    n = length * dim,
    B = 512;
  for (const api of [pe, scalarPe]) {
    for (const [what, stop, setUp, name] of [
      ['NaN in x, block 5', 5, (x, t) => (x[5 * B + 5] = NaN), `x[${5 * B + 5}]`],
      [
        'inf in a read row, block 3',
        3,
        (x, t) => (t[offset * dim + 3 * B + 9] = Infinity),
        `table[${offset * dim + 3 * B + 9}]`,
      ],
      ['NaN in a row not read', -1, (x, t) => (t[(offset + length) * dim + 7] = NaN)],
      // x[10] = 3e38 passes block 0; the table's 1e38 in block 7 makes max|x| + max|table| overflow
      [
        'an overflowing sum of maxima',
        7,
        (x, t) => {
          x[10] = 3e38;
          t[offset * dim + 7 * B + 1] = 1e38;
        },
        /x, table must be small enough .*= 3\.00000\d*e\+38 \+ 9\.99999\d*e\+37 /,
      ],
    ]) {
      const given = randomF32(n, 5);
      const table = randomF32(rows * dim, 6);
      setUp(given, table);
      const x = api.alloc(n);
      x.array.set(given);
      const opts = { length, dim, offset };
      if (stop < 0) {
        api.addTo(x, table, opts);
      } else {
        throwsNaming(() => api.addTo(x, table, opts), Status.E_PARAM, name);
      }
      const want = given.map((v, i) => (stop < 0 || i < stop * B ? Math.fround(v + table[offset * dim + i]) : v));
      assert.deepEqual(x.array, Float32Array.from(want), `${api.backend}: ${what}`);
      x.free();
      // a typed array is added in a copy: refused, the caller's array is as given
      if (stop >= 0) {
        const ta = given.slice();
        throwsNaming(() => api.addTo(ta, table, opts), Status.E_PARAM, name);
        assert.deepEqual(ta, given, `${api.backend}: ${what} (typed array)`);
      }
    }
  }
});

test('gather, concat and addTo check only the table rows they read (docs/errors.md), and name a bad one', () => {
  for (const api of [pe, scalarPe]) {
    const table = randomF32(10 * 4, 4); // [10][4]
    table[6 * 4 + 2] = NaN; // row 6
    // rows 0-5 and 7-9 are read without complaint, and the results are the rows
    const g = api.gather(table, { dim: 4, positions: [9, 0, 5] });
    assert.deepEqual(
      g,
      Float32Array.from([...table.subarray(36, 40), ...table.subarray(0, 4), ...table.subarray(20, 24)]),
    );
    assert.deepEqual(
      api.gather(table, { dim: 4, positions: [11, 5], outOfRange: 'zero' }).subarray(0, 4),
      new Float32Array(4),
    );
    const x = randomF32(8, 5);
    const cat = api.concat(x, table, { length: 2, dimX: 4, dimP: 4, offset: 7 });
    assert.deepEqual(cat.subarray(4, 8), table.subarray(28, 32));
    const y = x.slice();
    api.addTo(y, table, { length: 2, dim: 4, offset: 4 });
    assert.deepEqual(
      y,
      x.map((v, i) => Math.fround(v + table[16 + i])),
    );
    // a read row is named, with its index in the table; out of range rows as the mode maps them
    throwsNaming(() => api.gather(table, { dim: 4, positions: [1, 6, 2] }), Status.E_PARAM, 'table[26]');
    assert.deepEqual(api.gather(table, { dim: 4, positions: [99], outOfRange: 'clamp' }), table.subarray(36, 40));
    throwsNaming(() => api.concat(x, table, { length: 2, dimX: 4, dimP: 4, offset: 5 }), Status.E_PARAM, 'table[26]');
    throwsNaming(() => api.addTo(x.slice(), table, { length: 2, dim: 4, offset: 6 }), Status.E_PARAM, 'table[26]');
    // nothing written to out when gather refuses
    const out = api.alloc(12);
    out.array.fill(7);
    throwsNaming(() => api.gather(table, { dim: 4, positions: [0, 1, 6], out }), Status.E_PARAM, 'table[26]');
    assert.deepEqual(out.array, new Float32Array(12).fill(7));
    out.free();
  }
});

test('applyRope with a cache reads and checks only the rows it uses, and names a bad one', () => {
  for (const api of [pe, scalarPe]) {
    const c = api.ropeCache({ length: 8, dim: 8 });
    c.cos[6 * 4 + 1] = NaN; // row 6
    const x = randomF32(2 * 8, 3);
    const want = api.applyRope(x.slice(), {
      length: 2,
      dim: 8,
      cache: api.ropeCache({ length: 8, dim: 8 }),
      offset: 2,
    });
    // rows 2 and 3: the NaN in row 6 is never read
    assert.deepEqual(api.applyRope(x.slice(), { length: 2, dim: 8, cache: c, offset: 2 }), want);
    throwsNaming(
      () => api.applyRope(x.slice(), { length: 2, dim: 8, cache: c, offset: 5 }),
      Status.E_PARAM,
      'cache.cos[25]',
    );
    const positions = Int32Array.from([1, 6]);
    throwsNaming(
      () => api.applyRope(x.slice(), { length: 2, dim: 8, cache: c, positions }),
      Status.E_PARAM,
      'cache.cos[25]',
    );
    // a bad row between two read rows is not the one named: here x is the culprit
    const big = x.slice();
    big[9] = 3e38;
    throwsNaming(
      () => api.applyRope(big, { length: 2, dim: 8, cache: c, positions: Int32Array.from([1, 7]) }),
      Status.E_PARAM,
      /: x, cache.cos, cache.sin must be small enough/,
    );
  }
});

test('inputs whose results would overflow float32 are rejected, not turned into Inf or NaN', () => {
  const big = new Float32Array(16).fill(1e20);
  throwsNaming(() => pe.similarity(big, { length: 4, dim: 4 }), Status.E_PARAM, 'table');
  throwsNaming(() => pe.similarity(big, { length: 4, dim: 4, normalize: true }), Status.E_PARAM, 'table');
  throwsNaming(() => pe.applyRope(new Float32Array(16).fill(3e38), { length: 2, dim: 8 }), Status.E_PARAM, 'x');
  throwsNaming(
    () => pe.addTo(new Float32Array(8).fill(3e38), new Float32Array(8).fill(3e38), { length: 2, dim: 4 }),
    Status.E_PARAM,
    /x.*table|table.*x/,
  );
  // the largest safe values still work and stay finite
  const ok = pe.similarity(new Float32Array(16).fill(1e18), { length: 4, dim: 4, normalize: true });
  assert.ok(ok.every(Number.isFinite));
  assert.ok(pe.applyRope(new Float32Array(16).fill(1e38), { length: 2, dim: 8 }).every(Number.isFinite));
  // bias masks keep -Infinity
  const bias = new Float32Array(4).fill(-Infinity);
  bias[0] = 0;
  assert.ok(
    pe
      .attention({ q: randomF32(2, 1), k: randomF32(2, 2), v: randomF32(2, 3), queries: 2, dim: 1, bias })
      .output.every(Number.isFinite),
  );
});

// ---- defect 6: alloc is zeroed ----

test('pe.alloc returns zeroed memory, even where a previous result lay', () => {
  const b = pe.alloc(4096);
  pe.sinusoidal({ length: 64, dim: 64, out: b });
  b.free();
  for (const type of ['float64', 'float32', 'int32']) {
    const c = pe.alloc(2048, type);
    assert.ok(
      c.array.every((x) => x === 0),
      `${type} buffer was not zeroed`,
    );
    c.free();
  }
});

test('pe.alloc of 256 bytes or more starts on a 64-byte line, and freeing gives the heap back', () => {
  const before = pe.heapInUse;
  const bufs = [];
  // odd small sizes between them move malloc's own 8- or 16-byte placement about
  for (let k = 0; k < 24; k++) {
    bufs.push(pe.alloc(1 + 2 * k, 'int32')); // under 256 bytes
    bufs.push(pe.alloc(64 + 37 * k, k % 2 ? 'float32' : 'float64'));
  }
  const large = bufs.filter((b) => b.length * b.type.BYTES_PER_ELEMENT >= 256);
  assert.equal(large.length, 24);
  for (const b of large) assert.equal(b.ptr % 64, 0, `a buffer of ${b.length} ${b.type.name} elements at ${b.ptr}`);
  // the 64-aligned start must not cut the buffer short: writing its last element disturbs no other
  for (const [i, b] of bufs.entries()) b.array.fill(i + 1);
  for (const [i, b] of bufs.entries())
    assert.ok(
      b.array.every((x) => x === i + 1),
      `buffer ${i} was overwritten`,
    );
  for (const b of bufs) b.free();
  assert.equal(pe.heapInUse, before);
});

// ---- forgetting await init() ----

test('a call before init() resolves is a PosencError that says to await init()', async () => {
  const p = init();
  throwsNaming(() => p.sinusoidal({ length: 4, dim: 8 }), Status.E_MISSING, /await init\(\)/);
  throwsNaming(() => p.alloc(4), Status.E_MISSING, /await init\(\)/);
  const api = await p;
  assert.equal(typeof api.sinusoidal, 'function');
  assert.equal(typeof posenc.sinusoidal, 'function', 'the API functions are exported');
  const missing = Object.keys(api).filter((k) => typeof api[k] === 'function' && typeof posenc[k] !== 'function');
  assert.deepEqual(missing, [], 'add `export const NAME = forward(NAME)` to js/index.js for each');
});

test('module-level API functions throw before any init and work after', async () => {
  // run in a fresh module instance so no earlier init() has happened there
  const mod = await import(`../js/index.js?fresh=${Math.random()}`);
  const e = assertThrowsPosenc(() => mod.sinusoidal({ length: 2, dim: 4 }), [/await init\(\)/], Status.E_MISSING);
  assert.equal(e.argument, 'init');
  await mod.init();
  assert.equal(mod.sinusoidal({ length: 2, dim: 4 }).length, 8);
});

// ---- defect 8: long valid calls stay legal, and the costs are documented ----

test('docs/errors.md documents codes, the finiteness, aliasing and option rules, and costs', () => {
  const doc = readFileSync(`${root}docs/errors.md`, 'utf8');
  for (const s of [
    'E_PARAM',
    'E_SIZE',
    'E_NOMEM',
    'finite',
    'alias',
    'own propert',
    'ropeFrequencies',
    '2^28',
    'alloc',
  ]) {
    assert.ok(doc.includes(s), `docs/errors.md should mention ${s}`);
  }
});

test('the largest legal sizes stay legal (validation does not shrink them)', () => {
  // checked without running the long call: a size one past the limit is E_SIZE, the limit is not
  throwsNaming(() => pe.ropeFrequencies({ dim: 2 ** 28 + 2 }), Status.E_SIZE, 'dim');
  throwsNaming(() => pe.sinusoidal({ length: 2 ** 14, dim: 2 ** 14 + 2 }), Status.E_SIZE, 'length * dim');
});
