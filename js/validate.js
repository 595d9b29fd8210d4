// Argument checks shared by every public function. Each failure throws a PosencError whose
// message reads "posenc.<fn>: <argument> must be <allowed range> (got <value>)".
import { PosencError, Status } from './errors.js';

/** Largest element count of one array; mirrors POSENC_MAX_ELEMENTS in c_src/posenc.h. */
export const MAX_ELEMENTS = 2 ** 28;
/** Largest value of an int32_t size argument. */
export const MAX_INT32 = 2 ** 31 - 1;

export function show(v) {
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'bigint') return `${v}n`;
  if (v === null || v === undefined || typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (ArrayBuffer.isView(v)) return `${v.constructor.name}(${v.length})`;
  if (Array.isArray(v)) return `Array(${v.length})`;
  return v.constructor?.name ?? typeof v;
}

export function fail(fn, name, code, allowed, value) {
  const got = arguments.length >= 5 ? ` (got ${show(value)})` : '';
  return new PosencError(code, `posenc.${fn}: ${name} must be ${allowed}${got}`, name);
}

/** The options object itself: undefined means {}; unknown keys are errors (typos are bugs). */
export function options(fn, opts, allowed) {
  if (opts === undefined) return {};
  if (opts === null || typeof opts !== 'object' || Array.isArray(opts) || ArrayBuffer.isView(opts)) {
    throw fail(fn, 'options', Status.E_PARAM, 'an object', opts);
  }
  for (const k of Object.keys(opts)) {
    if (!allowed.includes(k) && opts[k] !== undefined) {
      throw new PosencError(Status.E_PARAM, `posenc.${fn}: unknown option ${JSON.stringify(k)} (allowed: ${allowed.join(', ')})`, k);
    }
  }
  return opts;
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

/** A finite number in [min, max] (or open bounds with gt / lt). */
export function num(fn, name, value, { min = -Infinity, max = Infinity, gt, lt, def } = {}) {
  if (value === undefined) {
    if (def !== undefined) return def;
    throw new PosencError(Status.E_MISSING, `posenc.${fn}: ${name} is required (a finite number)`, name);
  }
  const lo = gt !== undefined ? `(${gt}` : `[${min}`;
  const hi = lt !== undefined ? `${lt})` : `${max}]`;
  const ok = typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max &&
    (gt === undefined || value > gt) && (lt === undefined || value < lt);
  if (!ok) throw fail(fn, name, Status.E_PARAM, `a finite number in ${lo}, ${hi}`, value);
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
    throw new PosencError(Status.E_SIZE, `posenc.${fn}: ${names} must be at most ${MAX_ELEMENTS} elements (got ${n})`, names);
  }
  return n;
}
