// Argument checks shared by every public function. Each failure throws a PosencError whose
// message reads "posenc.<fn>: <argument> must be <allowed range> (got <value>)".
import { PosencError, Status } from './errors.js';

/** Largest element count of one array; mirrors POSENC_MAX_ELEMENTS in c_src/posenc.h. */
export const MAX_ELEMENTS = 2 ** 28;
/** Largest value of an int32_t size argument. */
export const MAX_INT32 = 2 ** 31 - 1;

// Intrinsic typed-array accessors: they read internal slots, so a Proxy is not a typed array
// and an own `length` property cannot lie about the real length.
const TA_PROTO = Object.getPrototypeOf(Int8Array.prototype);
const slot = (k) => Object.getOwnPropertyDescriptor(TA_PROTO, k).get;
const TA_TAG = slot(Symbol.toStringTag);
const TA_LENGTH = slot('length');
const TA_BUFFER = slot('buffer');
const TA_OFFSET = slot('byteOffset');
const TA_BYTES = slot('byteLength');
/** %TypedArray%.prototype.set, immune to an own `set` property on the caller's array. */
export const TA_SET = TA_PROTO.set;
const TA_AT = TA_PROTO.at;
const AB_SLICE = ArrayBuffer.prototype.slice;
const AB_DETACHED = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, 'detached')?.get;
const TA_TYPES = {
  Int8Array,
  Uint8Array,
  Uint8ClampedArray,
  Int16Array,
  Uint16Array,
  Int32Array,
  Uint32Array,
  Float32Array,
  Float64Array,
  BigInt64Array,
  BigUint64Array,
};

// Detached, or out of bounds (a view on a shrunk resizable buffer): `at` refuses both.
function detached(view, buffer) {
  if (TA_AT) {
    try {
      TA_AT.call(view, 0);
      return false;
    } catch {
      return true;
    }
  }
  try {
    if (AB_DETACHED) return AB_DETACHED.call(buffer);
    AB_SLICE.call(buffer, 0, 0);
    return false;
  } catch {
    // engines without ArrayBuffer.prototype.detached: a detached buffer refuses slice()
    return !(typeof SharedArrayBuffer === 'function' && buffer instanceof SharedArrayBuffer);
  }
}

/** The internal slots of a real typed array ({ Type, tag, length, buffer, byteOffset, byteLength,
 * detached }), or null for anything else (Proxies included). Never runs caller code. */
export function typedArray(v) {
  if (typeof v !== 'object' || v === null) return null;
  const tag = TA_TAG.call(v);
  if (tag === undefined) return null;
  const buffer = TA_BUFFER.call(v);
  return {
    Type: TA_TYPES[tag],
    tag,
    length: TA_LENGTH.call(v),
    buffer,
    byteOffset: TA_OFFSET.call(v),
    byteLength: TA_BYTES.call(v),
    detached: detached(v, buffer),
  };
}

/** A short description of a value for messages; never throws (Proxies, revoked ones included). */
export function show(v) {
  if (typeof v === 'string') return JSON.stringify(v.length > 60 ? `${v.slice(0, 60)}...` : v);
  if (typeof v === 'bigint') return `${v}n`;
  if (v === null || v === undefined || typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (typeof v === 'symbol') return 'a symbol';
  if (typeof v === 'function') return 'a function';
  const ta = typedArray(v);
  if (ta) return `${ta.tag}(${ta.length})${ta.detached ? ' (detached)' : ''}`;
  try {
    if (Array.isArray(v)) return 'an Array';
    const proto = Object.getPrototypeOf(v);
    if (proto === null) return 'an object with a null prototype';
    const name = Object.getOwnPropertyDescriptor(proto, 'constructor')?.value?.name;
    return typeof name === 'string' && name ? name : 'an object';
  } catch {
    return 'an object (a Proxy that throws)';
  }
}

export function fail(fn, name, code, allowed, value) {
  const got = arguments.length >= 5 ? ` (got ${show(value)})` : '';
  return new PosencError(code, `posenc.${fn}: ${name} must be ${allowed}${got}`, name);
}

/** What went wrong, in words, whatever was thrown (even an object whose conversion throws). */
export function reason(e) {
  try {
    return e instanceof Error ? `${e.name}: ${e.message}` : show(e);
  } catch {
    return 'an exception';
  }
}

/** Caller code's exception e as E_PARAM naming `name`, e as its cause. */
export function threw(fn, name, e, what = `reading ${name}`) {
  const err = new PosencError(Status.E_PARAM, `posenc.${fn}: ${what} threw (${reason(e)})`, name);
  err.cause = e;
  return err;
}

/** A Promise (or another thenable whose class has a `then` method) where an object is expected is
 * refused by name: read as an object it has no keys, and would be reported as every required key
 * missing. Only the prototype chain is looked at (no getter of the caller's object runs). */
export function notPromise(fn, name, value) {
  if (value === null || typeof value !== 'object') return;
  let thenable = false;
  try {
    const proto = Object.getPrototypeOf(value);
    if (proto === Object.prototype || proto === null) return; // a literal: the common case, kept cheap
    for (let p = proto; p && !thenable; p = Object.getPrototypeOf(p)) {
      const d = Object.getOwnPropertyDescriptor(p, 'then');
      thenable = typeof d?.value === 'function';
    }
  } catch (e) {
    throw threw(fn, name, e);
  }
  if (thenable)
    throw fail(fn, name, Status.E_PARAM, 'an object, not a Promise (await it first: a missing await?)', value);
}

/**
 * A snapshot of the caller's options: each own enumerable property read exactly once (a getter
 * runs here, once, before anything is validated), inherited properties ignored, into a
 * null-prototype object. `name` is the argument's path in messages ('options', 'scaling', ...).
 * Validation and the C call then see only the snapshot, so no caller code runs after checks.
 */
export function snapshot(fn, opts, name = 'options') {
  const snap = Object.create(null);
  if (opts === undefined) return snap;
  notPromise(fn, name, opts);
  const path = (k) => (name === 'options' ? k : `${name}.${k}`);
  let keys;
  try {
    if (opts === null || typeof opts !== 'object' || Array.isArray(opts) || ArrayBuffer.isView(opts)) {
      throw fail(fn, name, Status.E_PARAM, 'an object', opts);
    }
    keys = Object.keys(opts);
  } catch (e) {
    if (e instanceof PosencError) throw e;
    throw threw(fn, name, e);
  }
  for (const k of keys) {
    try {
      snap[k] = opts[k];
    } catch (e) {
      throw threw(fn, path(k), e);
    }
  }
  return snap;
}

// Hugging Face config.json names and posenc's: an HF name where a posenc one is expected gets a
// "did you mean". Names not listed here are tried as camelCase (beta_fast -> betaFast).
const HF_NAMES = {
  rope_theta: 'base',
  rope_type: 'type',
  rope_scaling: 'scaling',
  rope_parameters: 'scaling',
  original_max_position_embeddings: 'originalMaxPositions',
  max_position_embeddings: 'maxPositions',
  head_dim: 'dim',
  rotary_dim: 'rotaryDim',
  num_attention_heads: 'heads',
  num_key_value_heads: 'kvHeads',
  sliding_window: 'window',
  attention_chunk_size: 'chunk',
  mrope_section: 'mropeSections',
  theta: 'base',
  rope_base: 'base',
  freq_base: 'base',
};

// Names people bring from PyTorch, Hugging Face and papers, lower case without underscores
// (after the colon), with posenc's names they may mean, most likely first (before it; the first
// one the function takes is offered). A table in a string: it ships in every app.
const LENGTHS = 'length capacity queries keys rows klen';
const ALIASES = Object.fromEntries(
  `${LENGTHS}: seqlen seqlength sequencelength maxlen maxlength maxseqlen maxseqlength maxpositions npositions numpositions contextlength ctxlen nctx blocksize len tokens
maxPositions ${LENGTHS}: maxpositionembeddings
heads: numheads nheads nhead numattentionheads numqheads numqueryheads headcount h
kvHeads: numkvheads nkvheads numkeyvalueheads kvheads numkvgroups ngroups numgroups nkvhead
dim dHead: headdim headsize dhead dimhead dk dimperhead kvchannels attentionheadsize qkdim
dModel dim: dmodel hiddensize embeddim nembd embeddingdim dembed modeldim hiddendim embedsize nstate
dimV: vheaddim vdim valuedim dv headdimv
queries: qlen querylength numqueries tgtlen
keys klen: kvlen keylength numkeys srclen
base: ropetheta rotarybase ropebase freqbase theta
causal: iscausal causalmask
window: slidingwindow windowsize localwindowsize
positions offset: positionids positionid pos
offset: startpos pastlength pastkeyvalueslength positionoffset start
capacity: maxcachelen cachesize maxcachesize maxbatchlen
scale: softmaxscale qkscale attnscale sminscale
rotaryDim: rotaryembdim rotaryembeddingdim rotarydims
numBuckets: relativeattentionnumbuckets
maxDistance: relativeattentionmaxdistance`
    .split('\n')
    .flatMap((line) => {
      const [to, from] = line.split(': ').map((x) => x.split(' '));
      return from.map((k) => [k, to]);
    }),
);

/** posenc's name for an unknown key when it is a Hugging Face, PyTorch or snake_case spelling of
 * an allowed one, else undefined. */
export function didYouMean(key, allowed) {
  const hf = HF_NAMES[key];
  if (hf !== undefined && allowed.includes(hf)) return hf;
  const camel = key.replace(/_([a-z])/g, (m, c) => c.toUpperCase());
  if (camel !== key && allowed.includes(camel)) return camel;
  const lower = allowed.find((a) => a.toLowerCase() === key.toLowerCase());
  if (lower !== undefined) return lower;
  const norm = key.toLowerCase().replace(/[_\-\s]/g, '');
  const near = Object.hasOwn(ALIASES, norm) ? ALIASES[norm] : [];
  return near.find((a) => allowed.includes(a)) ?? allowed.find((a) => a.toLowerCase() === norm);
}

/** Unknown keys of a snapshot are errors (typos are bugs); returns the snapshot. */
export function allowOnly(fn, snap, allowed, name = 'options') {
  for (const k of Object.keys(snap)) {
    if (!allowed.includes(k) && snap[k] !== undefined) {
      const where = name === 'options' ? '' : `${name}: `;
      const hint = didYouMean(k, allowed);
      const hfName = k.includes('_')
        ? ' (a Hugging Face or PyTorch name; pe.fromConfig(config) converts a whole config.json)'
        : '';
      const mean = hint === undefined ? '' : `; did you mean ${JSON.stringify(hint)}?${hfName}`;
      throw new PosencError(
        Status.E_PARAM,
        `posenc.${fn}: ${where}unknown option ${JSON.stringify(k)} (allowed: ${allowed.join(', ')})${mean}`,
        name === 'options' ? k : `${name}.${k}`,
      );
    }
  }
  return snap;
}

/** The options object as a snapshot (see snapshot) with only `allowed` keys. */
export function options(fn, opts, allowed, name = 'options') {
  return allowOnly(fn, snapshot(fn, opts, name), allowed, name);
}

/** Array.isArray(value); a revoked Proxy's throw is E_PARAM. */
export function isArray(fn, name, value) {
  try {
    return Array.isArray(value);
  } catch (e) {
    throw threw(fn, name, e);
  }
}

/** A plain Array option copied once, element by element (getters run here, once); other values
 * are returned unchanged for the caller's own type check. */
export function list(fn, name, value) {
  if (!isArray(fn, name, value)) return value;
  try {
    const n = value.length;
    if (!Number.isInteger(n) || n < 0 || n > MAX_ELEMENTS)
      throw fail(fn, name, Status.E_SIZE, `an array of at most ${MAX_ELEMENTS} elements`, value);
    const copy = new Array(n);
    for (let i = 0; i < n; i++) copy[i] = value[i];
    return copy;
  } catch (e) {
    if (e instanceof PosencError) throw e;
    throw threw(fn, name, e);
  }
}

/** An integer in [min, max]; `def` is used when the value is undefined (omit def = required). */
export function int(fn, name, value, { min = 1, max = MAX_INT32, def } = {}) {
  if (value === undefined) {
    if (def !== undefined) return def;
    throw new PosencError(Status.E_MISSING, `posenc.${fn}: ${name} is required (an integer in [${min}, ${max}])`, name);
  }
  const isInt = typeof value === 'number' && Number.isInteger(value);
  if (!isInt || value < min || value > max) {
    throw fail(fn, name, isInt ? Status.E_SIZE : Status.E_PARAM, `an integer in [${min}, ${max}]`, value);
  }
  return value;
}

/** A finite number in [min, max] (or open bounds with gt / lt); f32: rounded to float32 too. */
export function num(fn, name, value, { min = -Infinity, max = Infinity, gt, lt, def, f32 = false } = {}) {
  if (value === undefined) {
    if (def !== undefined) return def;
    throw new PosencError(Status.E_MISSING, `posenc.${fn}: ${name} is required (a finite number)`, name);
  }
  const lo = gt !== undefined ? `(${gt}` : `[${min}`;
  const hi = lt !== undefined ? `${lt})` : `${max}]`;
  const ok = (x) =>
    typeof x === 'number' &&
    Number.isFinite(x) &&
    x >= min &&
    x <= max &&
    (gt === undefined || x > gt) &&
    (lt === undefined || x < lt);
  if (!ok(value)) throw fail(fn, name, Status.E_PARAM, `a finite number in ${lo}, ${hi}`, value);
  if (f32 && !ok(Math.fround(value))) throw fail(fn, name, Status.E_PARAM, `in ${lo}, ${hi} as a float32`, value);
  return value;
}

/** One of the keys of `choices` ({ name: enumValue }); returns the enum value. */
export function choice(fn, name, value, choices, def) {
  const keys = Object.keys(choices);
  if (value === undefined) value = def;
  if (typeof value !== 'string' || !Object.prototype.hasOwnProperty.call(choices, value)) {
    throw fail(fn, name, Status.E_ENUM, `one of ${keys.map((k) => `'${k}'`).join(', ')}`, value);
  }
  return choices[value];
}

export function bool(fn, name, value, def) {
  if (value === undefined) return def;
  if (typeof value !== 'boolean') throw fail(fn, name, Status.E_PARAM, 'true or false', value);
  return value;
}

/** The product of sizes (named for the message) must not exceed MAX_ELEMENTS. */
export function elements(fn, names, ...sizes) {
  const n = sizes.reduce((a, b) => a * b, 1);
  if (n > MAX_ELEMENTS) {
    throw new PosencError(
      Status.E_SIZE,
      `posenc.${fn}: ${names} must be at most ${MAX_ELEMENTS} elements (got ${n})`,
      names,
    );
  }
  return n;
}

/** kvHeads: a divisor of heads (grouped-query attention; 1 = multi-query), default heads. */
export function parseKvHeads(fn, value, heads) {
  const kvHeads = int(fn, 'kvHeads', value, { max: heads, def: heads });
  if (heads % kvHeads) throw fail(fn, 'kvHeads', Status.E_PARAM, `a divisor of heads = ${heads}`, kvHeads);
  return kvHeads;
}
