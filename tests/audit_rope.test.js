// Audit of the RoPE family against a second, independent float64 reference on configurations
// families/rope/rope.md does not name (other dims, bases, factors, key combinations, boundaries), plus the
// overflow cases that used to come back as inf/NaN instead of a PosencError.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Status } from '../js/index.js';
import { assertThrowsPosenc, backends, maxAbsDiff, randomF32 } from './helpers.js';

// ---- reference: written from HF modeling_rope_utils.py and Meta llama3 apply_scaling ----
function freqs(d, base, sc) {
  const n = d / 2;
  const pw = (b) => Array.from({ length: n }, (_, i) => 1 / b ** ((2 * i) / d));
  const gm = (s, m = 1) => (s <= 1 ? 1 : 0.1 * m * Math.log(s) + 1);
  switch (sc?.type ?? 'default') {
    case 'linear':
      return { inv: pw(base).map((w) => w / sc.factor), att: 1 };
    case 'ntk':
      return { inv: pw(base * sc.factor ** (d / (d - 2))), att: 1 };
    case 'dynamic': {
      const M = sc.maxPositions,
        L = Math.max(sc.seqLen ?? M, M);
      return { inv: pw(base * ((sc.factor * L) / M - (sc.factor - 1)) ** (d / (d - 2))), att: 1 };
    }
    case 'yarn': {
      const { factor: f, originalMaxPositions: L0, betaFast = 32, betaSlow = 1, truncate = true } = sc;
      const cd = (r) => (d * Math.log(L0 / (r * 2 * Math.PI))) / (2 * Math.log(base));
      let lo = cd(betaFast),
        hi = cd(betaSlow);
      if (truncate) {
        lo = Math.floor(lo);
        hi = Math.ceil(hi);
      }
      lo = Math.max(lo, 0);
      hi = Math.min(hi, d - 1);
      if (lo === hi) hi += 0.001;
      const inv = pw(base).map((w, i) => {
        const ramp = Math.min(1, Math.max(0, (i - lo) / (hi - lo)));
        return (w / f) * ramp + w * (1 - ramp);
      });
      let att = gm(f);
      if (sc.attentionFactor !== undefined) att = sc.attentionFactor;
      else if (sc.mscale && sc.mscaleAllDim) att = gm(f, sc.mscale) / gm(f, sc.mscaleAllDim);
      return { inv, att };
    }
    case 'longrope': {
      const L0 = sc.originalMaxPositions,
        f = sc.factor ?? 1;
      const ext = sc.seqLen > L0 ? sc.longFactor : sc.shortFactor;
      return {
        inv: pw(base).map((w, i) => w / ext[i]),
        att: sc.attentionFactor ?? (f <= 1 ? 1 : Math.sqrt(1 + Math.log(f) / Math.log(L0))),
      };
    }
    case 'llama3': {
      const { factor: f = 8, lowFreqFactor: lo = 1, highFreqFactor: hi = 4, originalMaxPositions: L0 = 8192 } = sc;
      return {
        inv: pw(base).map((w) => {
          const wl = (2 * Math.PI) / w;
          if (wl < L0 / hi) return w;
          if (wl > L0 / lo) return w / f;
          const s = (L0 / wl - lo) / (hi - lo);
          return ((1 - s) * w) / f + s * w;
        }),
        att: 1,
      };
    }
    default:
      return { inv: pw(base), att: 1 };
  }
}

function rotate(x, { length, heads = 1, dim, rotaryDim = dim, layout = 'half', order = 'thd', pos, inv, att }) {
  const y = Float64Array.from(x),
    n = rotaryDim / 2;
  for (let t = 0; t < length; t++) {
    for (let h = 0; h < heads; h++) {
      const o = order === 'thd' ? (t * heads + h) * dim : (h * length + t) * dim;
      for (let i = 0; i < n; i++) {
        const [a, b] = layout === 'half' ? [o + i, o + i + n] : [o + 2 * i, o + 2 * i + 1];
        const c = att * Math.cos(pos[t] * inv[i]),
          s = att * Math.sin(pos[t] * inv[i]);
        y[a] = x[a] * c - x[b] * s;
        y[b] = x[b] * c + x[a] * s;
      }
    }
  }
  return y;
}

const relErr = (a, b) => Math.max(...Array.from(a, (v, i) => Math.abs(v - b[i]) / Math.abs(b[i])));

test('frequencies of every scaling type at dims, bases and factors outside the families/rope/rope.md examples', async () => {
  const [{ pe }] = await backends();
  for (const d of [2, 32, 80, 96, 256]) {
    for (const base of [1e4, 5e5, 1e6]) {
      for (const factor of [0.5, 1.5, 8, 40]) {
        const lists = {
          shortFactor: Array.from({ length: d / 2 }, (_, i) => 1 + i / d),
          longFactor: Array.from({ length: d / 2 }, (_, i) => 1 + i * factor),
        };
        const cases = [
          { type: 'linear', factor },
          { type: 'ntk', factor },
          { type: 'dynamic', factor, maxPositions: 2048, seqLen: 1000 },
          { type: 'dynamic', factor, maxPositions: 2048, seqLen: 2048 },
          { type: 'dynamic', factor, maxPositions: 2048, seqLen: 9000 },
          { type: 'yarn', factor, originalMaxPositions: 32768 },
          { type: 'yarn', factor, originalMaxPositions: 8192, truncate: false, betaFast: 16, betaSlow: 2 },
          { type: 'yarn', factor, originalMaxPositions: 4096, mscale: 1, mscaleAllDim: 0 },
          { type: 'yarn', factor, originalMaxPositions: 4096, mscale: 0.707, mscaleAllDim: 1 },
          { type: 'yarn', factor, originalMaxPositions: 64, attentionFactor: 0.8 },
          { type: 'llama3', factor, lowFreqFactor: 2, highFreqFactor: 8, originalMaxPositions: 4096 },
          { type: 'llama3', factor, originalMaxPositions: 1024 },
          { type: 'longrope', factor, originalMaxPositions: 4096, ...lists, seqLen: 4096 },
          { type: 'longrope', factor, originalMaxPositions: 4096, ...lists, seqLen: 4097 },
        ];
        for (const scaling of cases) {
          const got = pe.ropeFrequencies({ dim: d, base, scaling });
          const ref = freqs(d, base, scaling);
          const what = `d=${d} base=${base} ${JSON.stringify({ ...scaling, shortFactor: undefined, longFactor: undefined })}`;
          assert.ok(relErr(got.invFreq64, ref.inv) < 1e-13, what);
          assert.ok(
            Math.abs(got.attentionScale - ref.att) <= 1e-15 * ref.att,
            `${what}: scale ${got.attentionScale} vs ${ref.att}`,
          );
        }
      }
    }
  }
});

test('applyRope picks longrope long factors and the dynamic base from the last position + 1', async () => {
  for (const { name, pe } of await backends()) {
    const L0 = 64,
      d = 16;
    const scaling = {
      type: 'longrope',
      factor: 4,
      originalMaxPositions: L0,
      shortFactor: Array(d / 2).fill(1),
      longFactor: Array.from({ length: d / 2 }, (_, i) => 1 + i),
    };
    const dyn = { type: 'dynamic', factor: 3, maxPositions: L0 };
    for (const sc of [scaling, dyn]) {
      for (const [length, offset] of [
        [L0, 0],
        [L0 + 1, 0],
        [1, L0 - 1],
        [1, L0],
        [70, 1000],
      ]) {
        const x = randomF32(length * 2 * d, length + offset);
        const y = pe.applyRope(Float32Array.from(x), { length, heads: 2, dim: d, offset, scaling: sc });
        const ref = freqs(d, 10000, { ...sc, seqLen: offset + length });
        const pos = Array.from({ length }, (_, t) => offset + t);
        const err = maxAbsDiff(y, rotate(x, { length, heads: 2, dim: d, pos, ...ref }));
        assert.ok(err <= 2e-6 * ref.att, `${name} ${sc.type} length=${length} offset=${offset}: ${err}`);
      }
    }
  }
});

test('cache-free and explicit-position paths stay within 2e-6 of float64 up to 2^20, fractional too', async () => {
  for (const { name, pe } of await backends()) {
    const d = 80,
      heads = 3,
      L = 90;
    const sc = { type: 'yarn', factor: 16, originalMaxPositions: 4096, mscale: 1, mscaleAllDim: 0.5 };
    const ref = freqs(d, 5e5, sc);
    const sets = {
      offset: { offset: 2 ** 20 - L - 0.5 },
      int: { positions: Int32Array.from({ length: L }, (_, t) => (t % 3 ? 2 ** 20 - 1 - t : t * 977)) },
      f32: { positions: Float32Array.from({ length: L }, (_, t) => 2 ** 19 + t * 0.375) },
    };
    for (const [k, opt] of Object.entries(sets)) {
      for (const layout of ['half', 'interleaved']) {
        const x = randomF32(L * heads * d, 7);
        const y = pe.applyRope(Float32Array.from(x), {
          length: L,
          heads,
          dim: d,
          rotaryDim: 48,
          base: 5e5,
          layout,
          order: 'htd',
          scaling: sc,
          ...opt,
        });
        const pos = opt.positions ? Array.from(opt.positions) : Array.from({ length: L }, (_, t) => opt.offset + t);
        const r = freqs(48, 5e5, sc);
        const err = maxAbsDiff(
          y,
          rotate(x, { length: L, heads, dim: d, rotaryDim: 48, layout, order: 'htd', pos, ...r }),
        );
        assert.ok(err <= 2e-6 * ref.att, `${name} ${k} ${layout}: ${err}`);
      }
    }
  }
});

test('keys that overflow float64 or float32 give a PosencError naming them, never inf or NaN', async () => {
  const [{ pe }] = await backends();
  const x = () => Float32Array.from([0.5, -0.25, 1, 2, 0.5, -0.25, 1, 2]);
  for (const scaling of [
    { type: 'linear', factor: 1e-320 },
    { type: 'llama3', factor: 1e-320 },
    { type: 'ntk', factor: 1e-300 },
    { type: 'yarn', factor: 1e-320, originalMaxPositions: 64 },
  ]) {
    assertThrowsPosenc(
      () => pe.ropeFrequencies({ dim: 8, scaling }),
      [/scaling\.factor must be such that every frequency/],
      Status.E_RANGE,
    );
    assertThrowsPosenc(
      () => pe.applyRope(x(), { length: 1, dim: 8, offset: 3, scaling }),
      /scaling\.factor/,
      Status.E_RANGE,
    );
  }
  const tiny = { type: 'longrope', originalMaxPositions: 4, shortFactor: [1e-320, 1, 1, 1], longFactor: [1, 1, 1, 1] };
  assertThrowsPosenc(() => pe.ropeFrequencies({ dim: 8, scaling: tiny }), /scaling\.shortFactor/, Status.E_RANGE);
  // an attention scale beyond float32 would store inf in every cos/sin
  const big = { type: 'yarn', factor: 4, originalMaxPositions: 64, attentionFactor: 1e300 };
  assertThrowsPosenc(
    () => pe.applyRope(x(), { length: 1, dim: 8, offset: 3, scaling: big }),
    /scaling\.attentionFactor must be a finite number in \(0, 3\.40/,
  );
  assertThrowsPosenc(() => pe.ropeCache({ length: 2, dim: 8, scaling: big }), /scaling\.attentionFactor/);
  // xPos: zeta_0^-|e| past e^80 overflows float32 (NaN rows before)
  assertThrowsPosenc(
    () => pe.applyRope(x(), { length: 2, dim: 4, xpos: { scaleBase: 1e-3 } }),
    /xpos\.scaleBase must be at least/,
    Status.E_RANGE,
  );
  assertThrowsPosenc(
    () => pe.applyRope(x(), { length: 2, dim: 4, xpos: { center: 1e6 } }),
    /xpos\.scaleBase/,
    Status.E_RANGE,
  );
  assertThrowsPosenc(
    () => pe.applyRope(x(), { length: 2, dim: 4, positions: new Int32Array([0, 40000]), xpos: {} }),
    /xpos\.scaleBase/,
    Status.E_RANGE,
  );
  // the largest span that is allowed still gives finite values
  const ok = pe.applyRope(x(), {
    length: 2,
    dim: 4,
    positions: new Int32Array([0, 30000]),
    xpos: { center: 0, key: true },
  });
  assert.ok(ok.every(Number.isFinite));
  // rotaryDim 2 with ntk / dynamic: the single pair's frequency is b^0 = 1 whatever the base
  assert.deepEqual(
    Array.from(
      pe.applyRope(Float32Array.from([1, 0]), { length: 1, dim: 2, offset: 1, scaling: { type: 'ntk', factor: 4 } }),
    ),
    [Math.fround(Math.cos(1)), Math.fround(Math.sin(1))],
  );
});
