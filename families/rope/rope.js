// RoPE family (families/rope/rope.md): frequencies with every HF scaling variant, cos/sin caches,
// in-place application (half / interleaved pairing, partial rotary, explicit positions, xPos,
// 2-D axial), and the RoFormer long-term decay curve.
//
// Frequencies are float64 and angles are never formed in float32 (HF does both in float32);
// see families/rope/rope.c for why posenc follows the mathematics there.
import { arrayLike } from '../../js/core.js';
import { PosencError, Status } from '../../js/errors.js';
import {
  allowOnly,
  bool,
  choice,
  elements,
  fail,
  int,
  isArray,
  list,
  num,
  options,
  snapshot,
  TA_SET,
  typedArray,
} from '../../js/validate.js';
import { callNamed } from '../../js/values.js';
import { FLT_MAX } from '../../js/maths.js';
import { FACTOR_KEYS, SCALINGS } from '../../js/scalings.js';

export const ROPE_LAYOUT = { half: 1, interleaved: 0 };
export const ROPE_ORDER = { thd: 0, htd: 1 };
// posenc_rope_type's value of each scaling type (js/scalings.js, the scalings' one table).
const SCALING_TYPE = Object.fromEntries(Object.entries(SCALINGS).map(([t, { c }]) => [t, c]));

// posenc.h posenc_rope_scaling's doubles are the parsed options of the same name in camelCase
// (original_max_positions: originalMaxPositions); offsets and sizes come from the C build.
const camel = (k) => k.replace(/_([a-z])/g, (_, c) => c.toUpperCase());

const FREQ_KEYS = ['dim', 'base', 'rotaryDim', 'scaling'];
// Keys every RoPE function accepts, so one options object (fromConfig's `rope`) serves all three:
// ropeFrequencies validates and ignores layout and the M-RoPE keys (they change no frequency).
const SHARED_KEYS = [...FREQ_KEYS, 'layout', 'mropeSections', 'mropeInterleaved'];
// Cache-free application keeps 4*64 + 2 rows of rotaryDim/2 floats of scratch (families/rope/rope.c).
const MAX_ROTARY_NO_CACHE = 2 ** 22;
// xPos factors zeta^e reach e^80 (zeta_0 = 2/7) at |p - center| = 80 / ln 3.5 * scaleBase; past
// that float32 overflows (families/rope/rope.c, posenc_rope_apply_xpos).
const XPOS_MAX_SPAN = 80 / Math.log(3.5);

/** The caller's scaling object read once (snapshot; factor lists copied), or null for none. */
function snapScaling(fn, scaling, prefix = '') {
  if (scaling === undefined || scaling === null) return null;
  const sc = snapshot(fn, scaling, `${prefix}scaling`);
  for (const k of FACTOR_KEYS) {
    const l = list(fn, `${prefix}scaling.${k}`, sc[k]);
    const ta = typedArray(l);
    if (ta && (ta.Type === Float64Array || ta.Type === Float32Array) && !ta.detached) {
      sc[k] = new Float64Array(ta.length);
      TA_SET.call(sc[k], l);
    } else {
      sc[k] = l;
    }
  }
  return sc;
}

// Hugging Face rope_type spellings that are not posenc's scaling types: what each means in posenc.
const HF_SCALING_TYPE = Object.fromEntries(
  Object.entries(SCALINGS).flatMap(([type, t]) =>
    t.hf.filter((h) => !Object.hasOwn(SCALINGS, h)).map((h) => [h, t.notes?.[h] ? `'${type}' (${t.notes[h]})` : type]),
  ),
);

/** A Hugging Face rope_scaling pasted as is: name the real problem first (rope_type, 'su', no
 * type at all) instead of the first unknown key. */
function hfScaling(fn, snap, key) {
  if (snap.type === undefined && snap.rope_type !== undefined) {
    throw new PosencError(
      Status.E_PARAM,
      `posenc.${fn}: ${key('rope_type')} is Hugging Face's name: posenc calls it ` +
        `${key('type')} (did you mean type: ${JSON.stringify(snap.rope_type)}? the other keys are camelCase too; ` +
        'pe.fromConfig(config) converts a whole config.json)',
      key('rope_type'),
    );
  }
  const types = Object.keys(SCALING_TYPE)
    .map((k) => `'${k}'`)
    .join(', ');
  const own = typeof snap.type === 'string' && Object.prototype.hasOwnProperty.call(HF_SCALING_TYPE, snap.type);
  const hf = own ? HF_SCALING_TYPE[snap.type] : undefined;
  if (hf !== undefined) {
    const e = fail(fn, key('type'), Status.E_ENUM, `one of ${types}`, snap.type);
    const mean = hf.startsWith("'") ? hf : `'${hf}'`;
    e.message += `; did you mean ${mean}? (${JSON.stringify(snap.type)} is a Hugging Face spelling)`;
    throw e;
  }
  if (snap.type === undefined) {
    const others = Object.keys(snap).filter((k) => snap[k] !== undefined);
    if (others.length) {
      throw new PosencError(
        Status.E_MISSING,
        `posenc.${fn}: ${key('type')} is required when scaling has other keys ` +
          `(got ${others.join(', ')}); one of ${types}`,
        key('type'),
      );
    }
  }
}

/** Validate a scaling snapshot (snapScaling) into plain values (NaN = not given); lists are
 * JS-owned copies. `prefix` names where the options sit in the caller's argument
 * (selfAttention: 'encoding.'). Runs no caller code. */
function parseScaling(fn, snap, rotaryDim, prefix = '') {
  if (snap === null) return { type: 0, name: 'default' };
  const key = (k) => `${prefix}scaling.${k}`;
  hfScaling(fn, snap, key);
  const name = snap.type ?? 'default';
  const type = choice(fn, key('type'), name, SCALING_TYPE);
  const { keys, rule } = SCALINGS[name];
  const sc = allowOnly(fn, snap, ALLOWED.get(name), `${prefix}scaling`);
  const v = { type, name, truncate: 1 };
  // numbers and flags in the table's order, then the per-pair factors (their message needs rotaryDim)
  for (const k of keys) if (k.kind !== 'factors') v[k.name] = scalingKey(fn, sc, k, key, name, v);
  for (const k of keys) if (k.kind === 'factors') v[k.name] = factorList(fn, sc, k, key, name, rotaryDim);
  rule?.check(v, { fail: (k, what, got) => fail(fn, key(k), Status.E_PARAM, what, got) });
  return v;
}

// Per type, built once: the keys allowOnly takes, and each number's num() range.
const ALLOWED = new Map(Object.entries(SCALINGS).map(([t, { keys }]) => [t, ['type', ...keys.map((k) => k.name)]]));
const RANGE = new Map(
  Object.values(SCALINGS).flatMap(({ keys }) =>
    keys.map((k) => [
      k,
      Object.fromEntries(['gt', 'min', 'max', 'def'].filter((r) => k[r] !== undefined).map((r) => [r, k[r]])),
    ]),
  ),
);

/** One number or flag of a scaling: required (E_MISSING), defaulted, or NaN when absent. */
function scalingKey(fn, sc, k, key, name, v) {
  const given = sc[k.name];
  if (k.kind === 'bool') return bool(fn, key(k.name), given, k.def) ? 1 : 0;
  if (given === undefined && k.required) {
    throw new PosencError(
      Status.E_MISSING,
      `posenc.${fn}: ${key(k.name)} is required for scaling type '${name}'`,
      key(k.name),
    );
  }
  if (given === undefined && k.def === undefined) return NaN;
  // gtKey: the bound is the value of a key read before this one
  return num(fn, key(k.name), given, k.gtKey ? { ...RANGE.get(k), gt: v[k.gtKey] } : RANGE.get(k));
}

/** A per-pair factor list: rotaryDim/2 positive finite numbers (snapScaling's copies; no traps run). */
function factorList(fn, sc, k, key, name, rotaryDim) {
  const l = sc[k.name];
  if (l === undefined) {
    throw new PosencError(
      Status.E_MISSING,
      `posenc.${fn}: ${key(k.name)} is required for scaling type '${name}' (${rotaryDim / 2} positive numbers, one per pair)`,
      key(k.name),
    );
  }
  const ok =
    (Array.isArray(l) || typedArray(l)?.Type === Float64Array) &&
    l.length === rotaryDim / 2 &&
    Array.prototype.every.call(l, (x) => typeof x === 'number' && Number.isFinite(x) && x > 0);
  if (!ok)
    throw fail(
      fn,
      key(k.name),
      Status.E_PARAM,
      `an array of rotaryDim/2 = ${rotaryDim / 2} positive finite numbers`,
      l,
    );
  return l;
}

/** dim / base / rotaryDim / scaling, validated; shared by every function that makes frequencies. */
function parseFreqOptions(fn, o, { needDim = true } = {}) {
  const dim = needDim ? int(fn, 'dim', o.dim, { max: 2 ** 28 }) : undefined;
  const rotaryDim = int(fn, 'rotaryDim', o.rotaryDim, { min: 2, max: dim ?? 2 ** 28, def: dim });
  if (dim !== undefined && dim % 2) throw fail(fn, 'dim', Status.E_ODD, 'even (RoPE rotates pairs)', dim);
  if (rotaryDim % 2) throw fail(fn, 'rotaryDim', Status.E_ODD, 'even (RoPE rotates pairs)', rotaryDim);
  const base = num(fn, 'base', o.base, { gt: 1, def: 10000 });
  return { dim, rotaryDim, base, scaling: snapScaling(fn, o.scaling) };
}

/**
 * RoPE frequency options read by another family (selfAttention's 'rope' encoding): rotaryDim,
 * base and scaling from `o`, validated now (before any heap work) and named under `prefix`.
 * `dim` is the caller's already-validated per-head width. Pass the result to ropeFreqsOnHeap.
 * @internal
 */
export function parseRopeFrequencyOptions(fn, o, dim, prefix) {
  const rotaryDim = int(fn, `${prefix}rotaryDim`, o.rotaryDim, { min: 2, max: dim, def: dim });
  if (rotaryDim % 2) throw fail(fn, `${prefix}rotaryDim`, Status.E_ODD, 'even (RoPE rotates pairs)', rotaryDim);
  const base = num(fn, `${prefix}base`, o.base, { gt: 1, def: 10000 });
  const scaling = snapScaling(fn, o.scaling, prefix);
  return { dim, rotaryDim, base, scaling, prefix, parsed: parseScaling(fn, scaling, rotaryDim, prefix) };
}

/**
 * inv_freq (heap Float64Array pointer, rotaryDim/2 long) and the attention scale, exactly as
 * applyRope makes them; `seqLen` fills an absent dynamic/longrope seqLen (applyRope: offset + length).
 * @internal
 */
export function ropeFreqsOnHeap(core, s, fn, f, seqLen) {
  return frequencies(core, s, fn, f, seqLen);
}

/** Heap copy of a parsed scaling (0 for the default); `seqLen` fills an absent one. */
function scalingPtr(core, s, v, seqLen) {
  if (v.type === 0) return 0;
  // allocate everything first; views come after, inside s.with
  const shortPtr = v.shortFactor ? s.alloc(Float64Array, v.shortFactor.length, false) : 0;
  const longPtr = v.longFactor ? s.alloc(Float64Array, v.longFactor.length, false) : 0;
  const L = s.core.layout.posenc_rope_scaling;
  const ptr = s.alloc(Uint8Array, L.size);
  if (shortPtr) s.write(Float64Array, shortPtr, v.shortFactor);
  if (longPtr) s.write(Float64Array, longPtr, v.longFactor);
  const vals = { ...v };
  if (Number.isNaN(vals.seqLen ?? NaN) && seqLen !== undefined) vals.seqLen = seqLen;
  s.with(DataView, ptr, L.size, (dv) => {
    L.set(dv, 'type', v.type);
    L.set(dv, 'truncate', v.truncate);
    L.set(dv, 'short_factor', shortPtr);
    L.set(dv, 'long_factor', longPtr);
    for (const [name, f] of Object.entries(L.fields)) {
      if (f.type === 'd') L.set(dv, name, vals[camel(name)] ?? NaN);
    }
  });
  return ptr;
}

/** inv_freq (heap Float64Array pointer) and the attention scale for validated options. */
function frequencies(core, s, fn, f, seqLen, width = f.rotaryDim) {
  const prefix = f.prefix ?? '';
  const v = f.parsed && width === f.rotaryDim ? f.parsed : parseScaling(fn, f.scaling, width, prefix);
  const sp = scalingPtr(core, s, v, seqLen);
  const n = width / 2;
  const inv = s.alloc(Float64Array, n, false);
  const att = s.alloc(Float64Array, 1, false);
  try {
    s.call('posenc_rope_freqs', inv, att, width, f.base, sp);
  } catch (e) {
    // each key was valid, but together they overflow (e.g. factor 1e-320 makes w / factor inf)
    if (e.code !== Status.E_RANGE) throw e;
    // the keys that divide or multiply the frequencies: the per-pair lists, then factor
    const keys = SCALINGS[v.name].keys
      .filter((k) => k.kind === 'factors' || k.name === 'factor')
      .map((k) => `${prefix}scaling.${k.name}`)
      .join(' / ');
    throw fail(
      fn,
      v.type ? keys : `${prefix}base`,
      Status.E_RANGE,
      `such that every frequency and the attention scale are finite (scale <= ${FLT_MAX}); scaling type '${v.name}' with base ${f.base}`,
      v.type ? (v.factor ?? 'the factor lists') : f.base,
    );
  }
  return { inv, n, attentionScale: s.read(Float64Array, att, 1)[0] };
}

function arrayType(value) {
  return arrayLike(value)?.Type;
}

/** Largest and smallest element of a heap array. */
function rangeOf(s, Type, ptr, n) {
  return s.with(Type, ptr, n, (a) => {
    let hi = -Infinity;
    let lo = Infinity;
    for (let i = 0; i < n; i++) {
      if (a[i] > hi) hi = a[i];
      if (a[i] < lo) lo = a[i];
    }
    return { lo, hi };
  });
}

/** mropeSections / mropeInterleaved validated -> { sections, interleaved }, or null without
 * M-RoPE. Which stream (t, h or w) turns each pair is families/rope/rope.c's (posenc_rope_mrope_fill). */
export function parseMrope(fn, o, rotaryDim) {
  const interleaved = bool(fn, 'mropeInterleaved', o.mropeInterleaved, false);
  if (o.mropeSections === undefined) {
    if (interleaved) throw fail(fn, 'mropeInterleaved', Status.E_PARAM, 'omitted or false without mropeSections', true);
    return null;
  }
  const l = list(fn, 'mropeSections', o.mropeSections);
  const n = rotaryDim / 2;
  const ok =
    Array.isArray(l) && l.length === 3 && l.every((v) => Number.isInteger(v) && v >= 0) && l[0] + l[1] + l[2] === n;
  if (!ok) {
    throw fail(
      fn,
      'mropeSections',
      Status.E_PARAM,
      `[t, h, w]: three non-negative integers summing to rotaryDim/2 = ${n}`,
      o.mropeSections,
    );
  }
  return { sections: l, interleaved };
}

/** M-RoPE cos/sin rows [length][rotaryDim/2] (times the attention scale `att`) into heap cp / sp
 * for positions `pos` [3][length] (read back from the heap): families/rope/rope.c posenc_rope_mrope_fill,
 * one float64 angle per element rounded once. */
function mropeFill(s, cp, sp, { length, np, inv, att, mrope, pos }) {
  const pp = s.alloc(Float64Array, 3 * length, false);
  s.write(Float64Array, pp, pos);
  const [t, h, w] = mrope.sections;
  s.call('posenc_rope_mrope_fill', cp, sp, length, np, inv, att, pp, t, h, w, mrope.interleaved ? 1 : 0);
}

/**
 * M-RoPE on n rows of a heap array x ([n][heads][dim], THD) with heap float64 frequencies `inv`
 * (rotaryDim/2 of them) and positions read from the caller (3 × n, t then h then w): kvCache's
 * append and attend. Returns nothing; x is rotated in place.
 * @internal
 */
export function mropeOnHeap(s, fn, { x, n, heads, dim, rotaryDim, layout, inv, att, mrope, positions }) {
  const Type = mropePositions(fn, { positions }, n);
  const pos = mropePositionsIn(s, positions, Type, n);
  const np = rotaryDim / 2;
  const cp = s.alloc(Float32Array, n * np, false);
  const sp = s.alloc(Float32Array, n * np, false);
  mropeFill(s, cp, sp, { length: n, np, inv, att, mrope, pos });
  s.call('posenc_rope_apply_cached', x, n, heads, dim, rotaryDim, layout, ROPE_ORDER.thd, cp, sp, n, 0, 0);
}

/** M-RoPE positions [3][length] copied in (Float32 ones checked finite) and read back. */
function mropePositionsIn(s, positions, Type, length) {
  const how = `3 × length = 3 × ${length}`;
  const pp = s.in('positions', positions, Type, 3 * length, {
    how,
    ...(Type === Float32Array ? { finite: 'all' } : {}),
  });
  return s.read(Type, pp, 3 * length);
}

/** The extent an absent dynamic / longrope seqLen takes for M-RoPE positions: the largest + 1. */
function mropeSeqLen(pos) {
  const hi = pos.reduce((a, b) => Math.max(a, b), 0);
  return Math.max(0, Math.ceil(hi) + 1);
}

/** The positions of an M-RoPE call: Int32Array or Float32Array [3][length] (t, then h, then w). */
function mropePositions(fn, o, length) {
  const Type = arrayType(o.positions);
  if (Type !== Int32Array && Type !== Float32Array) {
    throw fail(
      fn,
      'positions',
      Status.E_PARAM,
      `an Int32Array or Float32Array of 3 × length = ${3 * length} (the t, h and w position of every token, ` +
        'stream after stream) with mropeSections',
      o.positions,
    );
  }
  return Type;
}

const APPLY_KEYS = ['length', 'heads', 'positions', 'offset', 'order', ...SHARED_KEYS, 'xpos', 'axial', 'cache'];

/** applyRope's shape: length, heads, frequencies, pairing and order, and the nested cache and
 * axial objects, read now, once, before anything is validated further or allocated. */
function parseApplyShape(fn, o) {
  const cacheOpts =
    o.cache !== undefined ? options(fn, o.cache, ['cos', 'sin', 'attentionScale', 'dims'], 'cache') : undefined;
  let axial;
  if (o.axial !== undefined) {
    const a = options(fn, o.axial, ['height', 'width'], 'axial');
    axial = { height: int(fn, 'axial.height', a.height), width: int(fn, 'axial.width', a.width) };
  }
  const length = int(fn, 'length', o.length, axial ? { def: axial.height * axial.width } : {});
  const heads = int(fn, 'heads', o.heads, { def: 1 });
  const f = parseFreqOptions(fn, o);
  const layout = choice(fn, 'layout', o.layout, ROPE_LAYOUT, 'half');
  const order = choice(fn, 'order', o.order, ROPE_ORDER, 'thd');
  const n = elements(fn, 'length * heads * dim', length, heads, f.dim);
  const xHow = () =>
    order === ROPE_ORDER.htd
      ? `heads × length × dim = ${heads} × ${length} × ${f.dim}`
      : `length × heads × dim = ${length} × ${heads} × ${f.dim}`;
  const mrope = parseMrope(fn, o, f.rotaryDim);
  return { cacheOpts, axial, length, heads, f, layout, order, n, xHow, mrope };
}

/** applyRope with mropeSections: every token at its own (t, h, w) positions, applied through a
 * cache of `length` rows made for these tokens. */
function applyMrope(core, fn, x, o, a) {
  for (const k of ['offset', 'xpos', 'axial', 'cache']) {
    if (o[k] !== undefined) {
      throw fail(fn, k, Status.E_PARAM, 'omitted with mropeSections (positions give every token its t, h and w)', o[k]);
    }
  }
  if (o.positions === undefined) {
    throw new PosencError(
      Status.E_MISSING,
      `posenc.${fn}: positions is required with mropeSections ` +
        `(an Int32Array or Float32Array of 3 × length = ${3 * a.length})`,
      'positions',
    );
  }
  const posType = mropePositions(fn, o, a.length);
  elements(fn, '3 * length', 3, a.length);
  const { length, f } = a;
  return core.run(fn, (s) => {
    const xp = s.inout('x', x, Float32Array, a.n, { finite: 'all', how: a.xHow });
    const pos = mropePositionsIn(s, o.positions, posType, length);
    const { inv, n: np, attentionScale } = frequencies(core, s, fn, f, mropeSeqLen(pos));
    s.fits(
      'x',
      2 * s.maxAbs.x * Math.abs(attentionScale),
      `2 · max|x| · attentionScale = 2 · ${s.maxAbs.x} · ${attentionScale}`,
      FLT_MAX,
    );
    // the angles of these tokens as a cache of `length` rows, applied by the cached C path
    const cp = s.alloc(Float32Array, length * np, false);
    const sp = s.alloc(Float32Array, length * np, false);
    mropeFill(s, cp, sp, { length, np, inv, att: attentionScale, mrope: a.mrope, pos });
    const shape = [length, a.heads, f.dim, f.rotaryDim, a.layout, a.order];
    s.call('posenc_rope_apply_cached', xp.ptr, ...shape, cp, sp, length, 0, 0);
    return xp.take();
  });
}

/** The options that exclude one another outside M-RoPE: positions and offset, axial and
 * positions / offset / xpos / cache, cache and the options that make angles. */
function checkApplyModes(fn, o, a) {
  const has = (k) => o[k] !== undefined;
  if (has('positions') && o.offset !== 0 && has('offset'))
    throw fail(fn, 'offset', Status.E_PARAM, '0 or omitted when positions are given', o.offset);
  if (a.axial) {
    const { height, width } = a.axial;
    if (height * width !== a.length)
      throw fail(fn, 'length', Status.E_SIZE, `axial.height * axial.width = ${height * width}`, a.length);
    if (a.f.rotaryDim % 4)
      throw fail(fn, 'rotaryDim', Status.E_ODD, 'a multiple of 4 with axial (two blocks of pairs)', a.f.rotaryDim);
    for (const k of ['positions', 'offset', 'xpos', 'cache'])
      if (has(k)) throw fail(fn, k, Status.E_PARAM, 'omitted with axial', o[k]);
  }
  if (has('cache')) {
    for (const k of ['base', 'scaling', 'xpos'])
      if (has(k)) throw fail(fn, k, Status.E_PARAM, 'omitted with cache (the cache already holds the angles)', o[k]);
  }
}

/** The element type of applyRope's explicit positions (Int32Array, or Float32Array without a
 * cache or xPos), undefined when positions are not given. */
function applyPositionsType(fn, o, length) {
  if (o.positions === undefined) return undefined;
  const posType = arrayType(o.positions);
  if (posType !== Int32Array && posType !== Float32Array) {
    throw fail(
      fn,
      'positions',
      Status.E_PARAM,
      `an Int32Array or Float32Array (or posenc buffer) of length ${length}`,
      o.positions,
    );
  }
  if (posType === Float32Array && (o.cache !== undefined || o.xpos !== undefined)) {
    throw fail(fn, 'positions', Status.E_PARAM, 'an Int32Array with cache or xpos', o.positions);
  }
  return posType;
}

/** xpos validated ({ scaleBase, center, key }), or undefined without xPos. */
function parseXpos(fn, o, length) {
  if (o.xpos === undefined) return undefined;
  const xo = options(fn, o.xpos, ['scaleBase', 'center', 'key'], 'xpos');
  return {
    scaleBase: num(fn, 'xpos.scaleBase', xo.scaleBase, { gt: 0, def: 512 }),
    center: num(fn, 'xpos.center', xo.center, { def: Math.floor(length / 2) }),
    key: bool(fn, 'xpos.key', xo.key, false),
  };
}

/** The largest xPos factor 3.5^(|position - center| / scaleBase); throws past float32. */
function xposFactor(s, fn, a, pos) {
  const { xpos, offset, length } = a;
  let far;
  if (a.posType === Int32Array) {
    const { lo, hi } = rangeOf(s, Int32Array, pos, length);
    far = Math.max(Math.abs(lo - xpos.center), Math.abs(hi - xpos.center));
  } else {
    far = Math.max(Math.abs(offset - xpos.center), Math.abs(offset + length - 1 - xpos.center));
  }
  if (far > XPOS_MAX_SPAN * xpos.scaleBase) {
    throw fail(
      fn,
      'xpos.scaleBase',
      Status.E_RANGE,
      `at least |position - center| / ${XPOS_MAX_SPAN.toFixed(2)} = ${far / XPOS_MAX_SPAN} here (the xPos factor 3.5^(|position - center| / scaleBase) would overflow float32)`,
      xpos.scaleBase,
    );
  }
  return 3.5 ** (far / xpos.scaleBase);
}

/** A C caller whose overflow status names the arrays read and the bound they broke (values.js
 * callNamed): bound(maxima) -> { names, rule, value }. */
function boundCall(s, core, arrays, bound) {
  return (cname, ...args) =>
    callNamed(s, core, cname, args, arrays, (m) => {
      const b = bound(m);
      return {
        name: b.names,
        allowed: `small enough that the result fits float32: ${b.rule} <= ${FLT_MAX}`,
        got: b.value,
      };
    });
}

/** The caller's cache on the heap, with the rows this call reads checked against its extent. */
function cacheIn(s, fn, a, pos) {
  const c = a.cacheOpts;
  const np = a.f.rotaryDim / 2;
  const rows = Math.floor((arrayType(c.cos) === Float32Array ? arrayLike(c.cos).length : 0) / np);
  if (rows < 1)
    throw fail(
      fn,
      'cache.cos',
      Status.E_SCRATCH,
      `a Float32Array (or posenc buffer) of [rows][rotaryDim/2 = ${np}]`,
      c.cos,
    );
  // ropeCache's dims, passed back with its cos and sin, must describe them
  if (c.dims !== undefined) {
    const d = isArray(fn, 'cache.dims', c.dims) ? list(fn, 'cache.dims', c.dims) : null;
    if (!d || d.length !== 2 || d[0] !== rows || d[1] !== np)
      throw fail(fn, 'cache.dims', Status.E_PARAM, `[rows = ${rows}, rotaryDim/2 = ${np}] (cos's shape)`, c.dims);
  }
  const cp = s.in('cache.cos', c.cos, Float32Array, rows * np);
  const sp = s.in('cache.sin', c.sin, Float32Array, rows * np);
  if (a.posType) {
    const { lo, hi } = rangeOf(s, Int32Array, pos, a.length);
    for (const p of [lo, hi]) {
      if (p < 0 || p >= rows) throw fail(fn, 'positions', Status.E_RANGE, `cache rows in [0, ${rows - 1}]`, p);
    }
  } else if (a.offset + a.length > rows) {
    throw fail(fn, 'offset', Status.E_RANGE, `at most cache rows - length = ${rows - a.length}`, a.offset);
  }
  return { cp, sp, rows, np };
}

/** applyRope with a cache: token t takes row positions[t] (or offset + t). */
function rotateCached(s, core, fn, a, xArr, pos) {
  const { cp, sp, rows, np } = cacheIn(s, fn, a, pos);
  const { length, offset } = a;
  // C checks only the rows this call reads (docs/errors.md), so only those are named:
  // the rows from offset, or each distinct position's row (found on the error path only)
  const used = (name, ptr) => {
    if (!a.posType) return [{ name, ptr, first: offset * np, n: length * np }];
    const rowsRead = [...new Set(s.read(Int32Array, pos, length))];
    return rowsRead.map((p) => ({ name, ptr, first: p * np, n: np }));
  };
  // each output is x1 cos - x2 sin or x2 cos + x1 sin
  const call = boundCall(
    s,
    core,
    () => [xArr, ...used('cache.cos', cp), ...used('cache.sin', sp)],
    (m) => {
      const cs = m['cache.cos'] + m['cache.sin'];
      return {
        names: 'x, cache.cos, cache.sin',
        rule: `max|x| · (max|cache.cos| + max|cache.sin|) = ${m.x} · ${cs}`,
        value: m.x * cs,
      };
    },
  );
  const shape = [length, a.heads, a.f.dim, a.f.rotaryDim, a.layout, a.order];
  call('posenc_rope_apply_cached', xArr.ptr, ...shape, cp, sp, rows, pos, offset);
}

/** Float32 positions within ±2^30, families/rope/rope.c's limit for float positions (the angle's float64
 * reduction stays exact there), refused by index: C's refusal alone was reported as x. */
function floatPositionsInRange(s, fn, pos, length) {
  const bad = s.with(Float32Array, pos, length, (p) => p.findIndex((v) => Math.abs(v) > FLOAT_POSITION_MAX));
  if (bad >= 0) {
    const v = s.with(Float32Array, pos, length, (p) => p[bad]);
    throw fail(
      fn,
      `positions[${bad}]`,
      Status.E_PARAM,
      `within ±2^30 = ±${FLOAT_POSITION_MAX} in a Float32Array (an Int32Array takes any int32)`,
      v,
    );
  }
}
const FLOAT_POSITION_MAX = 2 ** 30;

/** applyRope without a cache: angles made by C per block of tokens, at offset + t, at explicit
 * integer or float positions, with xPos, or on an axial grid. */
function rotateComputed(s, core, fn, a, xArr, pos) {
  const { f, axial, xpos, length, offset } = a;
  if (a.posType === Float32Array) floatPositionsInRange(s, fn, pos, length);
  const width = axial ? f.rotaryDim / 2 : f.rotaryDim;
  const seqLen = a.posType
    ? Math.max(0, Math.ceil(rangeOf(s, a.posType, pos, length).hi) + 1)
    : Math.max(0, Math.ceil(offset + length));
  const xf = xpos ? xposFactor(s, fn, a, pos) : 1;
  const { inv, attentionScale } = frequencies(
    core,
    s,
    fn,
    f,
    axial ? Math.max(axial.height, axial.width) : seqLen,
    width,
  );
  // |x1 cos - x2 sin| <= 2 max|x|, times the attention scale and the xPos factor
  const call = boundCall(s, core, [xArr], (m) => ({
    names: 'x',
    rule: `2 · max|x| · attentionScale${xpos ? ' · xPos factor' : ''} = 2 · ${m.x} · ${attentionScale}${xpos ? ` · ${xf}` : ''}`,
    value: 2 * m.x * Math.abs(attentionScale) * xf,
  }));
  const slen = s.call('posenc_rope_scratch_size', width);
  const scratch = s.alloc(Float32Array, slen, false);
  const freqs = [inv, attentionScale];
  const pairing = [f.dim, f.rotaryDim, a.layout, a.order];
  const common = [length, a.heads, ...pairing, ...freqs];
  const x = xArr.ptr;
  if (axial) {
    call('posenc_rope_apply_axial', x, axial.height, axial.width, a.heads, ...pairing, ...freqs, scratch, slen);
  } else if (xpos) {
    const { scaleBase, center, key } = xpos;
    call('posenc_rope_apply_xpos', x, ...common, offset, pos, scaleBase, center, key ? 1 : 0, scratch, slen);
  } else if (a.posType === Int32Array) {
    call('posenc_rope_apply_positions', x, ...common, pos, scratch, slen);
  } else if (a.posType === Float32Array) {
    call('posenc_rope_apply_positions_f32', x, ...common, pos, scratch, slen);
  } else {
    call('posenc_rope_apply', x, ...common, offset, scratch, slen);
  }
}

export function ropeFamily(core) {
  return {
    /** { invFreq: Float32Array(rotaryDim/2), invFreq64: Float64Array(rotaryDim/2), attentionScale }.
     * Computed in float64; invFreq is that rounded once to float32 (what a framework stores),
     * invFreq64 keeps the exact values (what posenc itself uses for angles). */
    ropeFrequencies(opts) {
      const fn = 'ropeFrequencies';
      const o = options(fn, opts, SHARED_KEYS);
      const f = parseFreqOptions(fn, o);
      choice(fn, 'layout', o.layout, ROPE_LAYOUT, 'half');
      parseMrope(fn, o, f.rotaryDim);
      return core.run(fn, (s) => {
        const { inv, n, attentionScale } = frequencies(core, s, fn, f);
        const invFreq64 = s.read(Float64Array, inv, n);
        return { invFreq: Float32Array.from(invFreq64), invFreq64, attentionScale };
      });
    },

    /** { cos, sin }, each Float32Array [length][rotaryDim/2], multiplied by the attention scale. */
    ropeCache(opts) {
      const fn = 'ropeCache';
      const o = options(fn, opts, ['length', 'offset', 'positions', ...SHARED_KEYS, 'cos', 'sin']);
      const length = int(fn, 'length', o.length);
      const f = parseFreqOptions(fn, o);
      choice(fn, 'layout', o.layout, ROPE_LAYOUT, 'half');
      const mrope = parseMrope(fn, o, f.rotaryDim);
      const offset = num(fn, 'offset', o.offset, { min: -(2 ** 30) + length, max: 2 ** 30 - length, def: 0 });
      const n = elements(fn, 'length * rotaryDim/2', length, f.rotaryDim / 2);
      if (!mrope && o.positions !== undefined) {
        throw fail(fn, 'positions', Status.E_PARAM, 'omitted without mropeSections (use offset)', o.positions);
      }
      if (mrope) {
        if (o.offset !== undefined) {
          throw fail(fn, 'offset', Status.E_PARAM, 'omitted with mropeSections (positions give every row)', o.offset);
        }
        const posType = mropePositions(fn, o, length);
        elements(fn, '3 * length', 3, length);
        return core.run(fn, (s) => {
          const pos = mropePositionsIn(s, o.positions, posType, length);
          const { inv, n: np, attentionScale } = frequencies(core, s, fn, f, mropeSeqLen(pos));
          const cos = s.out('cos', o.cos, Float32Array, n);
          const sin = s.out('sin', o.sin, Float32Array, n);
          mropeFill(s, cos.ptr, sin.ptr, { length, np, inv, att: attentionScale, mrope, pos });
          return { cos: cos.take(), sin: sin.take(), attentionScale, dims: [length, f.rotaryDim / 2] };
        });
      }
      return core.run(fn, (s) => {
        // an absent seqLen (dynamic, longrope) is the cache's extent, as HF's runtime update does
        const { inv, attentionScale } = frequencies(core, s, fn, f, Math.max(0, Math.ceil(offset + length)));
        const cos = s.out('cos', o.cos, Float32Array, n);
        const sin = s.out('sin', o.sin, Float32Array, n);
        s.call('posenc_rope_cache_fill', cos.ptr, sin.ptr, length, f.rotaryDim / 2, inv, attentionScale, offset);
        // dims: onnxruntime's cos_cache / sin_cache shape, for new ort.Tensor('float32', cos, dims)
        return { cos: cos.take(), sin: sin.take(), attentionScale, dims: [length, f.rotaryDim / 2] };
      });
    },

    /** Rotate x in place ([length][heads][dim], or [heads][length][dim] with order 'htd'); returns x.
     * Six modes: M-RoPE (applyMrope), a cache (rotateCached), or angles made in C at offset + t,
     * at integer or float positions, with xPos, or on an axial grid (rotateComputed). */
    applyRope(x, opts) {
      const fn = 'applyRope';
      const o = options(fn, opts, APPLY_KEYS);
      const a = parseApplyShape(fn, o);
      if (a.mrope) return applyMrope(core, fn, x, o, a);
      checkApplyModes(fn, o, a);
      a.posType = applyPositionsType(fn, o, a.length);
      a.xpos = parseXpos(fn, o, a.length);
      a.offset = a.cacheOpts
        ? int(fn, 'offset', o.offset, { min: 0, def: 0 })
        : num(fn, 'offset', o.offset, { min: -(2 ** 30) + a.length, max: 2 ** 30 - a.length, def: 0 });
      if (!a.cacheOpts && a.f.rotaryDim > MAX_ROTARY_NO_CACHE) {
        throw fail(
          fn,
          'rotaryDim',
          Status.E_SIZE,
          `at most ${MAX_ROTARY_NO_CACHE} without a cache (scratch holds 258 rows of rotaryDim/2)`,
          a.f.rotaryDim,
        );
      }
      return core.run(fn, (s) => {
        // x and the cache are checked by C right before it reads them (finite, and within the
        // overflow bound): a separate scan here was a second pass over all of x
        const xp = s.inout('x', x, Float32Array, a.n, { how: a.xHow });
        const pos = a.posType
          ? s.in('positions', o.positions, a.posType, a.length, a.posType === Float32Array ? { finite: 'all' } : {})
          : 0;
        const xArr = { name: 'x', ptr: xp.ptr, n: a.n };
        if (a.cacheOpts) rotateCached(s, core, fn, a, xArr, pos);
        else rotateComputed(s, core, fn, a, xArr, pos);
        return xp.take();
      });
    },

    /** RoFormer long-term decay curve (Su et al. 2021 §3.4.3) for distances 0 .. maxDistance, Float64Array. */
    ropeDecay(opts) {
      const fn = 'ropeDecay';
      const o = options(fn, opts, ['dim', 'base', 'maxDistance']);
      const dim = int(fn, 'dim', o.dim, { min: 2, max: 2 ** 20 });
      if (dim % 2) throw fail(fn, 'dim', Status.E_ODD, 'even (RoPE rotates pairs)', dim);
      const base = num(fn, 'base', o.base, { gt: 1, def: 10000 });
      const maxDistance = int(fn, 'maxDistance', o.maxDistance, { min: 0, max: 2 ** 24 });
      elements(fn, '(maxDistance + 1) * dim/2', maxDistance + 1, dim / 2);
      return core.run(fn, (s) => {
        const out = s.alloc(Float64Array, maxDistance + 1, false);
        s.call('posenc_rope_decay', out, dim, base, maxDistance);
        return s.read(Float64Array, out, maxDistance + 1);
      });
    },
  };
}
ropeFamily.core = 'encodings'; // the smallest core with its C entry points (js/lite.js)
