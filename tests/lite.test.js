// posenc/lite's lean core (dist/posenc-lite.simd.wasm, c_src/exports_lite.txt): an app that names
// only the sinusoidal and learned families gets it instead of the whole core, and the same numbers
// bit for bit (the same C, the same operations in the same order; -ffp-contract=off everywhere).
// tests/bundlers.test.js checks that a bundled lite app fetches this build and no other.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { FAMILY_DECLS } from '../decl/index.js';
import { init as initFull } from '../js/index.js';
import * as liteModule from '../js/lite.js';
import {
  attentionFamily,
  init,
  kvCacheFamily,
  learnedFamily,
  relativeFamily,
  ropeFamily,
  sinusoidalFamily,
  trainFamily,
  use,
} from '../js/lite.js';

const calls = (pe) => {
  const table = pe.learnedInit({ length: 16, dim: 8, seed: 3 });
  const x = Float32Array.from({ length: 32 }, (_, i) => Math.sin(i));
  return [
    pe.sinusoidal({ length: 300, dim: 66, base: 500, layout: 'split', offset: 7.5 }),
    pe.sinusoidal({ length: 5, dim: 7, oddDim: 'xlm' }),
    // angles beyond 2^20 * pi/2 take sin and cos's long reduction, whose table of 2/pi the lean
    // core carries cut to what a double reads (c_src/lite_rem_pio2.c)
    pe.sinusoidal({ length: 70, dim: 64, offset: 2 ** 31 - 70.5 }),
    pe.sinusoidal({ length: 70, dim: 16, base: 1.5, layout: 'split', offset: -(2 ** 31) + 70 }),
    pe.sinusoidal({ length: 200, dim: 8, offset: 3e6 + 0.125 }),
    pe.sinusoidalFrequencies({ dim: 64, spacing: 't2t' }),
    // float64 exp() of 0 to -ln(10000) in 2048 steps: reads every entry of exp's table, which
    // the lean core computes when it starts (c_src/lite_exp_data.c)
    pe.sinusoidalFrequencies({ dim: 4096 }),
    pe.sinusoidalFrequencies({ dim: 1000, base: 1e9, spacing: 't2t' }),
    pe.sinusoidal2d({ height: 3, width: 4, dim: 16, clsToken: true }),
    pe.similarity(pe.sinusoidal({ length: 40, dim: 32 }), { length: 40, dim: 32 }),
    table,
    pe.gather(table, { rows: 16, dim: 8, positions: Int32Array.of(3, 0, 15) }),
    pe.addTo(x.slice(), table, { length: 4, dim: 8, offset: 2 }),
    pe.concat(x, table, { length: 4, dimX: 8, dimP: 8, offset: 1 }),
  ];
};

test('posenc/lite with the lean families equals posenc bit for bit, SIMD', async () => {
  const full = calls(await initFull({ simd: true }));
  const lite = await init({ families: [sinusoidalFamily, learnedFamily], simd: true });
  assert.equal(lite.backend, 'simd');
  assert.deepEqual(calls(lite), full);
  // what every instance has works on the lean core too
  assert.ok(lite.heapInUse >= 0 && lite.heapBytes > 0);
  const buf = lite.alloc(8);
  buf.free();
  await lite.loadLab();
  assert.equal(lite.labLoaded, true);
});

test('posenc/lite without SIMD, or with a family the lean core lacks, loads the whole core', async () => {
  const scalar = await init({ families: [sinusoidalFamily], simd: false });
  assert.equal(scalar.backend, 'scalar');
  assert.ok(scalar.sinusoidal({ length: 2, dim: 4 }).every(Number.isFinite));
  const both = await init({ families: [sinusoidalFamily, ropeFamily] });
  assert.equal(both.ropeCache({ length: 2, dim: 4 }).cos.length, 4);
});

const dist = (f) => readFileSync(new URL(`../dist/${f}`, import.meta.url));

// Each family is marked with the smallest core that has its C entry points (js/lite.js KINDS),
// found here from the built cores' exports (no list of marks to keep): that core must export every
// C function the family's declaration names (the lab's own calls are the lab module's), and no
// smaller core may have them all. An unmarked family loads the full core, which has every entry
// point. decls.test.js checks that a family calls only declared C.
test("each family's core mark: the smallest core whose wasm exports every C function it names", () => {
  const WASM = {
    lean: 'posenc-lite.simd.wasm',
    encodings: 'posenc-page.simd.wasm',
    attention: 'posenc-page-attention.simd.wasm',
  };
  const exportsOf = (f) => new Set(WebAssembly.Module.exports(new WebAssembly.Module(dist(f))).map((e) => e.name));
  const cores = Object.fromEntries(Object.entries(WASM).map(([k, f]) => [k, exportsOf(f)]));
  const lab = exportsOf('posenc-lab.simd.wasm');
  const families = { ...liteModule };
  const cOf = (d) => [...(d.cOnly ?? []), ...d.functions.flatMap((f) => f.c)];
  // a family whose glue builds another over the main core needs that one's C too: the lab's
  // frequencies are ropeFamily's (families/train/train.js)
  const USES = { train: ['rope'] };
  const byModule = Object.fromEntries(FAMILY_DECLS.map((d) => [d.module, d]));
  for (const d of FAMILY_DECLS) {
    const mark = families[d.family].core;
    if (!mark) continue;
    assert.ok(Object.hasOwn(WASM, mark), `${d.family}.core is '${mark}', not one of ${Object.keys(WASM)}`);
    const named = [d, ...(USES[d.module] ?? []).map((m) => byModule[m])].flatMap(cOf).filter((c) => !lab.has(c));
    for (const c of named)
      assert.ok(
        cores[mark].has(c),
        `families/${d.module}/decl.js names ${c}, which its core (${mark}, dist/${WASM[mark]}) lacks`,
      );
    const kinds = Object.keys(WASM);
    const smaller = kinds.slice(0, kinds.indexOf(mark)).find((k) => named.every((c) => cores[k].has(c)));
    assert.equal(smaller, undefined, `${d.family}.core is '${mark}', but the ${smaller} core has all its C`);
  }
});

// use(pe, ...): more families later, on the same core when it has them, else on the smallest core
// that has them, fetched only then (the cores option: the page's own cores, build.sh).
test('use() adds families; a core of init({ cores }) is loaded only when an API needs it', async () => {
  const asked = [];
  const cores = {
    encodings: () => (asked.push('encodings'), dist('posenc-page.simd.wasm')),
    attention: async () => (asked.push('attention'), dist('posenc-page-attention.simd.wasm')),
  };
  const lean = await init({ families: [sinusoidalFamily], cores, simd: true });
  assert.deepEqual(asked, [], 'init loads the lean core');
  const pe = await use(lean, ropeFamily);
  assert.deepEqual(asked, ['encodings']);
  assert.ok(Object.isFrozen(pe) && !('alibiBias' in pe) && !('attention' in pe));
  const rel = await use(pe, relativeFamily);
  assert.deepEqual(asked, ['encodings'], 'the encodings core has the relative biases');
  assert.ok(rel !== pe && typeof rel.alibiBias === 'function' && typeof rel.applyRope === 'function');
  // the same heap: a buffer of one object is an out of the other
  const buf = pe.alloc(2 * 8);
  assert.equal(rel.sinusoidal({ length: 2, dim: 8, out: buf }), buf);
  buf.free();
  const att = await use(rel, attentionFamily);
  assert.deepEqual(asked, ['encodings', 'attention']);
  assert.equal(await use(rel, attentionFamily), att, 'one object per family asked');
  assert.equal(await use(att, ropeFamily), att, 'a family it has: itself');
  const ref = await initFull({ simd: true });
  const q = Float32Array.from({ length: 4 * 2 * 8 }, (_, i) => Math.sin(i));
  const opts = { q, k: q, v: q, queries: 4, heads: 2, dim: 8, causal: true, bias: { type: 'alibi' } };
  assert.deepEqual(att.attention(opts), ref.attention(opts));
  assert.deepEqual(att.alibiBias({ heads: 2, queries: 3 }), ref.alibiBias({ heads: 2, queries: 3 }));
  // one lab for an object and those use() made from it; each loadLab() resolves to its own object
  const tr = await use(pe, trainFamily);
  assert.equal(await pe.loadLab(), pe);
  assert.equal(tr.labLoaded, true);
  assert.equal(await tr.loadLab(), tr);
  assert.equal(typeof tr.train, 'function');
  // without cores: the package's lean core, then its full core
  const bare = await init({ families: [sinusoidalFamily], simd: true });
  const more = await use(bare, kvCacheFamily, ropeFamily);
  assert.equal(typeof more.kvCache, 'function');
  assert.deepEqual(more.sinusoidal({ length: 3, dim: 4 }), bare.sinusoidal({ length: 3, dim: 4 }));
});

test('use() and init({ cores }) refuse what is not a family or a core, by name', async () => {
  const pe = await init({ families: [sinusoidalFamily] });
  await assert.rejects(use(pe, 3), { name: 'PosencError', argument: 'families[0]' });
  await assert.rejects(use(pe, ropeFamily, {}), { name: 'PosencError', argument: 'families[1]' });
  await assert.rejects(use(pe), { name: 'PosencError', argument: 'families' });
  await assert.rejects(use({ ...pe }, ropeFamily), { name: 'PosencError', argument: 'pe' });
  await assert.rejects(init({ families: [ropeFamily], cores: { medium: dist('posenc-page.simd.wasm') } }), {
    name: 'PosencError',
    argument: 'cores.medium',
  });
  const wrong = await init({
    families: [sinusoidalFamily],
    simd: true,
    cores: { encodings: dist('posenc-lite.simd.wasm') },
  });
  await assert.rejects(use(wrong, ropeFamily), {
    name: 'PosencError',
    argument: 'cores.encodings',
    message: /lacks posenc_rope_freqs/,
  });
  const gone = await init({
    families: [sinusoidalFamily],
    simd: true,
    cores: { encodings: () => Promise.reject(new Error('gone')) },
  });
  await assert.rejects(use(gone, ropeFamily), { name: 'PosencError', argument: 'cores.encodings', message: /gone/ });
  // asked again after a failure: the load is tried again, not the failure kept
  await assert.rejects(use(gone, ropeFamily), { argument: 'cores.encodings' });
});

// The lean core's own allocator (c_src/lite_malloc.c): buffers that never overlap, keep their
// contents while others come and go, are 16-aligned, and leave heapInUse where it was; a request
// the memory cannot hold is refused, and the heap still works after it.
test("the lean core's allocator under a seeded random mix of allocations and frees", { timeout: 120_000 }, async () => {
  const pe = await init({ families: [sinusoidalFamily], simd: true });
  const base = pe.heapInUse;
  let seed = 12345;
  const rand = (n) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed % n;
  };
  const live = [];
  for (let op = 0; op < 3000; op++) {
    if (live.length > 0 && rand(5) < 2) {
      const [entry] = live.splice(rand(live.length), 1);
      assert.ok(
        entry.buf.array.every((v) => v === entry.id),
        `buffer ${entry.id} kept its contents`,
      );
      entry.buf.free();
    } else {
      const length = rand(50) === 0 ? 2_000_000 + rand(1000) : 1 + rand(rand(2) ? 64 : 20_000);
      const buf = pe.alloc(length);
      assert.equal(buf.ptr % 16, 0, 'payloads are 16-aligned');
      assert.ok(
        buf.array.every((v) => v === 0),
        'a new buffer starts as zeros',
      );
      buf.array.fill(op);
      live.push({ buf, id: op });
    }
    if (op % 100 === 99) {
      const spans = live.map(({ buf }) => [buf.ptr, buf.ptr + 4 * buf.length]).sort((a, b) => a[0] - b[0]);
      for (let i = 1; i < spans.length; i++) assert.ok(spans[i - 1][1] <= spans[i][0], 'buffers do not overlap');
    }
  }
  // sinusoidal's own buffers come from the same heap, between the caller's
  assert.deepEqual(pe.sinusoidal({ length: 5, dim: 6 }), (await initFull()).sinusoidal({ length: 5, dim: 6 }));
  for (const { buf, id } of live) {
    assert.ok(buf.array.every((v) => v === id));
    buf.free();
  }
  assert.equal(pe.heapInUse, base, 'every byte freed');
  assert.throws(() => pe.alloc(2 ** 29), { name: 'PosencError' }, '2 GB on a heap that may grow to 2 GB');
  const after = pe.alloc(1000);
  after.array.fill(7);
  assert.equal(after.array[999], 7);
  after.free();
  assert.equal(pe.heapInUse, base);
});
