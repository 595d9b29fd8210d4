// The bridge between JS values and the wasm heap.
//
// * Core.call is the one choke point: every C function that returns a status is called through
//   it, and a negative status becomes a PosencError there and nowhere else. (Reading the heap
//   counter, js/api.js heapInUse, and asking whether a build has an export are not calls of that
//   kind and go to core.exports directly.)
// * Core.run(fn, scope => ...) gives a Scope that allocates heap buffers and frees them all in
//   `finally`, so a thrown error never leaks wasm memory.
// * No view of wasm memory lives across an allocation: memory.buffer is replaced when the heap
//   grows, and a view made before that reads and writes a dead buffer. Family code never makes
//   views itself; it reads and writes through Scope.read / write / with (Core.withView), whose
//   body runs with malloc refused and must not return the view. tests/robust_heap.test.js
//   lints js/ for any other view and sweeps heap fill levels over every function.
// * Arguments are checked by their internal slots (a Proxy is not a typed array; an own
//   `length` cannot lie), outputs may not overlap other arguments (Scope.claim), and inputs
//   that must be finite are scanned with the bad element named (Scope.scan); docs/errors.md.
// * PosencBuffer is the zero-copy handle (pe.alloc): any argument that takes a typed array also
//   takes a PosencBuffer of the same element type, which is then used in place.
import { PosencError, Status } from './errors.js';
import { fail, show, TA_SET, typedArray } from './validate.js';
import { FLT_MAX } from './maths.js';

/** Bytes every heap buffer posenc allocates of ALIGN_FROM bytes or more is aligned to (Core.malloc). */
const ALIGN = 64;
const ALIGN_FROM = 256;

export const TYPES = Object.freeze({ float32: Float32Array, int32: Int32Array, float64: Float64Array });

export class PosencBuffer {
  #core;
  #ptr;
  #type;
  #length;
  constructor(core, Type, length) {
    this.#core = core;
    this.#type = Type;
    this.#length = length;
    const bytes = Math.max(1, length) * Type.BYTES_PER_ELEMENT;
    this.#ptr = core.malloc('alloc', bytes);
    // malloc hands back whatever the last call left there (a float64 view of old float32
    // results reads NaN): a buffer starts as zeros, like a new typed array.
    core.withView(Uint8Array, this.#ptr, bytes, (v) => {
      v.fill(0);
    });
  }
  /** A real PosencBuffer (a brand check: a Proxy or a look-alike object is not one). */
  static is(value) {
    return typeof value === 'object' && value !== null && #ptr in value;
  }
  /** Element type (Float32Array, Int32Array or Float64Array); read-only. */
  get type() {
    return this.#type;
  }
  /** Element count; read-only, so no one can make C write past the allocation. */
  get length() {
    return this.#length;
  }
  /** Heap address in bytes (0 once freed). */
  get ptr() {
    return this.#ptr;
  }
  get freed() {
    return this.#ptr === 0;
  }
  /** A buffer addresses one instance's heap; another instance must not read that address. */
  belongsTo(core) {
    return this.#core === core;
  }
  /** A fresh typed-array view of the heap bytes; re-read it after any posenc call. */
  get array() {
    if (this.#ptr === 0) throw new PosencError(Status.E_NULL, 'posenc: this buffer was freed');
    return this.#core.heapView(this.#type, this.#ptr, this.#length);
  }
  free() {
    if (this.#ptr !== 0) this.#core.free(this.#ptr);
    this.#ptr = 0;
  }
  [Symbol.dispose]() {
    this.free();
  }
}

/** { Type, length } of a real typed array or a PosencBuffer (brand checks, internal slots),
 * else null; never runs caller code. */
export function arrayLike(value) {
  if (PosencBuffer.is(value)) return { Type: value.type, length: value.length, buffer: true };
  const ta = typedArray(value);
  return ta && { Type: ta.Type, length: ta.length, buffer: false };
}

/** A bug in posenc itself (a view kept across an allocation), never the caller's fault. */
class ViewRuleError extends Error {}

/** The JS names a struct field the wasm was compiled without: the wasm is older than the JS (in a
 * checkout, C edited and not rebuilt). js/api.js reports it as a stale build, not as an argument. */
export class StaleBuildError extends Error {}

function fieldOffset(fields, name, field) {
  const f = fields[field];
  if (!f)
    throw new StaleBuildError(
      `the wasm is a stale build (older than this JS): its ${name} has no field ${field}; run ./build.sh wasm`,
    );
  return f.offset;
}

/** Write `value` at field `f` of a struct in `dv` as its C type (c_src/status.c LAYOUT types). */
function setField(dv, f, value) {
  if (f.type === 'i') dv.setInt32(f.offset, value, true);
  else if (f.type === 'f') dv.setFloat32(f.offset, value, true);
  else if (f.type === 'd') dv.setFloat64(f.offset, value, true);
  else if (f.type === 'p') dv.setUint32(f.offset, value, true);
  else throw new Error(`posenc internal: a struct field of type '${f.type}' (c_src/status.c LAYOUT)`);
}

export class Core {
  // Open withView bodies. While one runs, malloc refuses: memory.buffer is replaced when the
  // heap grows, and a view made before the growth would then read and write a dead buffer.
  #viewing = 0;
  #layout = null;
  // Aligned address -> malloc's address, for the allocations malloc placed off a cache line.
  #bases = new Map();

  constructor(instance) {
    this.exports = instance.exports;
    this.backend = this.exports.posenc_build_flags() & 1 ? 'simd' : 'scalar';
  }

  /** The current linear memory (replaced whenever the heap grows). */
  memoryBuffer() {
    return this.exports.memory.buffer;
  }

  /** A view for PosencBuffer.array only: the caller owns it and re-reads it after each call. */
  heapView(Type, ptr, length) {
    return new Type(this.exports.memory.buffer, ptr, length);
  }

  /**
   * The one way posenc's own code touches heap memory: body(view) runs with allocation
   * forbidden, and the view must not escape (returning it is an error). So no view can live
   * across an allocation, by construction.
   */
  withView(Type, ptr, length, body) {
    this.#viewing++;
    try {
      const view = new Type(this.exports.memory.buffer, ptr, length);
      const r = body(view);
      if (
        r !== null &&
        typeof r === 'object' &&
        (r === view || (ArrayBuffer.isView(r) && r.buffer === this.exports.memory.buffer))
      ) {
        throw new ViewRuleError('posenc internal: a heap view escaped withView');
      }
      return r;
    } finally {
      this.#viewing--;
    }
  }

  /** A JS-owned copy of heap elements. */
  read(Type, ptr, length) {
    return this.withView(Type, ptr, length, (v) => v.slice());
  }

  /** `bytes` of heap; from ALIGN_FROM bytes on, at a cache-line boundary (ALIGN). malloc's own
   * alignment is 8 or 16 bytes, so a kernel's 16-byte stores would straddle cache lines or not
   * depending on the heap's history. The line does not settle the rest: at eight 64-aligned places
   * t5Buckets took 2.14 to 2.72 ms with the same code (where the address falls in its 4 KiB page
   * still counts). A smaller buffer (a position list, one token) is not worth the bookkeeping: a
   * 4 µs gather of one row paid a tenth more with every buffer aligned. */
  malloc(fn, bytes) {
    if (this.#viewing) throw new ViewRuleError(`posenc internal: posenc.${fn} allocated while a heap view was live`);
    const pad = bytes < ALIGN_FROM ? 0 : ALIGN - 1;
    const base = bytes > 2 ** 31 ? 0 : this.exports.malloc(bytes + pad);
    if (!base) {
      throw new PosencError(
        Status.E_NOMEM,
        `posenc.${fn}: out of memory (could not allocate ${bytes} bytes of wasm heap)`,
      );
    }
    if (!pad) return base;
    const ptr = Math.ceil(base / ALIGN) * ALIGN;
    if (ptr !== base) this.#bases.set(ptr, base);
    return ptr;
  }

  free(ptr) {
    const base = this.#bases.get(ptr);
    if (base) this.#bases.delete(ptr);
    this.exports.free(base ?? ptr);
  }

  cString(ptr) {
    const bytes = new Uint8Array(this.exports.memory.buffer, ptr);
    let end = 0;
    while (bytes[end] !== 0) end++;
    return new TextDecoder().decode(bytes.slice(0, end));
  }

  /**
   * posenc.h's structs as the compiler laid them out (c_src/status.c posenc_struct_layout), read
   * once: layout.posenc_bias.size, layout.posenc_bias.at('window'), and
   * layout.posenc_bias.set(dataView, 'window', 0), which writes as the field's C type (int32,
   * float, double or pointer). No offset or field type is written in JS.
   */
  get layout() {
    if (this.#layout) return this.#layout;
    const table = this.exports.posenc_struct_layout;
    if (typeof table !== 'function') this.call('init', 'posenc_struct_layout'); // names the missing export
    const [namesPtr, offsetsPtr, typesPtr] = this.read(Uint32Array, table(), 3);
    const structs = this.cString(namesPtr).split(';');
    const offsets = this.read(Uint8Array, offsetsPtr, structs.join(' ').split(' ').length);
    const types = this.read(Uint8Array, typesPtr, offsets.length - structs.length);
    const layout = {};
    let i = 0;
    let t = 0;
    for (const [name, ...fieldNames] of structs.map((x) => x.split(' '))) {
      const size = offsets[i++];
      const at = fieldNames.map((f) => [f, offsets[i++], String.fromCharCode(types[t++])]);
      at.sort((a, b) => a[1] - b[1]);
      const fields = {};
      // declaration order: each field runs to the next one (c_src/status.c checks no gap)
      at.forEach(([f, offset, type], k) => {
        fields[f] = { offset, size: (at[k + 1]?.[1] ?? size) - offset, type };
      });
      const at_ = (f) => fieldOffset(fields, name, f); // throws naming a field the build lacks
      layout[name] = {
        size,
        fields,
        at: at_,
        set: (dv, f, value) => setField(dv, { ...fields[f], offset: at_(f) }, value),
      };
    }
    this.#layout = layout;
    return layout;
  }

  /** The choke point: call C function `cname` for public function `fn`; throw on a negative status. */
  call(fn, cname, ...args) {
    const f = this.exports[cname];
    if (typeof f !== 'function') {
      throw new PosencError(
        Status.E_PARAM,
        `posenc.${fn}: this wasm core does not export ${cname} (it was built from other sources; pass init() a matching wasm)`,
      );
    }
    const code = f(...args);
    if (code < 0) {
      const text = this.cString(this.exports.posenc_status_string(code));
      throw new PosencError(code, `posenc.${fn}: ${text} (${cname} returned ${code})`);
    }
    return code;
  }

  run(fn, body) {
    const scope = new Scope(this, fn);
    try {
      return body(scope);
    } finally {
      scope.release();
    }
  }
}

function typeName(Type) {
  return Type.name;
}

/**
 * Per-call heap bookkeeping; see Core.run. Besides allocating, the scope records every array
 * region a call reads or writes, so an output that shares memory with another argument is
 * refused (E_PARAM) instead of silently giving wrong results, and it scans inputs that must
 * be finite, naming the first bad element.
 */
export class Scope {
  constructor(core, fn) {
    this.core = core;
    this.fn = fn;
    this.owned = [];
    this.regions = [];
    /** max |x| of each finite-checked input, by argument name */
    this.maxAbs = Object.create(null);
  }

  release() {
    for (const p of this.owned) this.core.free(p);
    this.owned.length = 0;
  }

  /** Heap memory for `length` elements, freed with the scope; zero-filled unless zero = false. */
  alloc(Type, length, zero = true) {
    const bytes = Math.max(1, length) * Type.BYTES_PER_ELEMENT;
    const ptr = this.core.malloc(this.fn, bytes);
    this.owned.push(ptr);
    if (zero)
      this.core.withView(Uint8Array, ptr, bytes, (v) => {
        v.fill(0);
      });
    return ptr;
  }

  /** body(view) with allocation forbidden while the view lives (Core.withView). */
  with(Type, ptr, length, body) {
    return this.core.withView(Type, ptr, length, body);
  }

  /** A JS-owned copy of heap elements. */
  read(Type, ptr, length) {
    return this.core.read(Type, ptr, length);
  }

  /** Copy a JS array (or typed array) into heap memory at ptr. */
  write(Type, ptr, values) {
    const n = values.length;
    this.core.withView(Type, ptr, n, (v) => {
      for (let i = 0; i < n; i++) v[i] = values[i];
    });
  }

  /**
   * Validates an array argument: a real typed array of `Type` and `length` (read from its
   * internal slots), or a live PosencBuffer of this instance. Returns what the scope needs.
   */
  check(name, value, Type, length, { write = false, how } = {}) {
    // `how` (a string, or a function giving one, called only for a message) says where the length
    // comes from ('length × heads × dim = 3 × 2 × 8'): a size mismatch names the arithmetic too
    const what = () => {
      const h = typeof how === 'function' ? how() : how;
      return h
        ? `a ${typeName(Type)} or posenc buffer of ${h} = ${length} elements`
        : `a ${typeName(Type)} or posenc buffer of length ${length}`;
    };
    if (PosencBuffer.is(value)) {
      if (value.freed) throw fail(this.fn, name, Status.E_NULL, `${what()}, not a freed buffer`);
      if (!value.belongsTo(this.core)) {
        throw fail(this.fn, name, Status.E_PARAM, `${what()} allocated by this posenc instance`);
      }
      if (value.type !== Type || value.length !== length) {
        throw fail(this.fn, name, Status.E_SCRATCH, what(), `posenc buffer ${typeName(value.type)}(${value.length})`);
      }
      const start = value.ptr;
      return { heap: true, ptr: start, key: 'heap', start, end: start + length * Type.BYTES_PER_ELEMENT };
    }
    const ta = typedArray(value);
    if (!ta || ta.Type !== Type) throw fail(this.fn, name, Status.E_PARAM, what(), value);
    if (ta.detached) throw fail(this.fn, name, Status.E_SCRATCH, `${what()}, not detached or out of bounds`, value);
    if (ta.length !== length) throw fail(this.fn, name, Status.E_SCRATCH, what(), value);
    const onHeap = ta.buffer === this.core.memoryBuffer();
    if (onHeap && write) {
      throw fail(
        this.fn,
        name,
        Status.E_PARAM,
        `${what()}; it is a view of posenc's own wasm memory, which posenc's allocations detach: ` +
          'pass the PosencBuffer itself',
      );
    }
    return onHeap
      ? { heap: false, onHeap, key: 'heap', start: ta.byteOffset, end: ta.byteOffset + ta.byteLength }
      : { heap: false, key: ta.buffer, start: ta.byteOffset, end: ta.byteOffset + ta.byteLength };
  }

  /**
   * Remember that this call reads (write = false) or writes `name`'s memory; an overlap between
   * a written region and any other one is an E_PARAM error. `same` names an argument that may
   * be exactly the same memory (documented in-place use such as relShift's out = scores).
   */
  claim(name, r, write, same) {
    if (r.end > r.start) {
      for (const o of this.regions) {
        if (!(write || o.write) || o.key !== r.key || r.end <= o.start || o.end <= r.start) continue;
        if (same === o.name && o.start === r.start && o.end === r.end) continue;
        throw new PosencError(
          Status.E_PARAM,
          `posenc.${this.fn}: ${name} must not share memory with ${o.name} (pass separate arrays or buffers; ${write ? name : o.name} is written while ${write ? o.name : name} is ${o.write && write ? 'written too' : 'read'})`,
          name,
        );
      }
    }
    this.regions.push({ name, write, key: r.key, start: r.start, end: r.end });
  }

  /**
   * Input array: a heap pointer holding its values (copied unless it is a PosencBuffer).
   * finite: 'all' rejects NaN and ±Infinity, 'mask' allows -Infinity (bias masks); the first
   * bad element is named, and max |x| is kept in this.maxAbs[name].
   */
  in(name, value, Type, length, { finite, how } = {}) {
    if (value === undefined) {
      throw new PosencError(
        Status.E_MISSING,
        `posenc.${this.fn}: ${name} is required (a ${typeName(Type)} of length ${length})`,
        name,
      );
    }
    const r = this.check(name, value, Type, length, { how });
    this.claim(name, r, false);
    let ptr;
    if (r.heap) {
      ptr = r.ptr;
    } else {
      // a view of our own heap is copied to JS first: the allocation below may detach it
      const src = r.onHeap ? this.core.read(Type, r.start, length) : value;
      ptr = this.alloc(Type, length, false);
      this.core.withView(Type, ptr, length, (v) => TA_SET.call(v, src));
    }
    if (finite) this.scan(name, ptr, length, finite === 'mask');
    return ptr;
  }

  /** Reject a non-finite element of a float32 heap array, naming it; record max |x|. `first`:
   * scan elements first .. first + length - 1 of the argument only (the rows a call reads). */
  scan(name, ptr, length, mask = false, first = 0) {
    ptr += 4 * first;
    if (!mask && typeof this.core.exports.posenc_max_abs === 'function') {
      // one vectorised C pass; the JS loop below runs only to name a bad element
      this.slot ??= this.alloc(Float32Array, 1, false);
      this.call('posenc_max_abs', this.slot, ptr, length);
      const m = this.read(Float32Array, this.slot, 1)[0];
      if (m !== Infinity) return (this.maxAbs[name] = m);
    }
    this.maxAbs[name] = this.core.withView(Float32Array, ptr, length, (a) => {
      let m = 0;
      for (let i = 0; i < length; i++) {
        const x = a[i];
        if (x - x !== 0) {
          // NaN or ±Infinity
          if (mask && x === -Infinity) continue;
          throw fail(
            this.fn,
            `${name}[${first + i}]`,
            Status.E_PARAM,
            mask ? 'finite or -Infinity (a mask)' : 'finite',
            x,
          );
        }
        const ax = x < 0 ? -x : x;
        if (ax > m) m = ax;
      }
      return m;
    });
    return this.maxAbs[name];
  }

  /** Throw E_PARAM naming `names` when `bound` (a result magnitude) would overflow float32. */
  fits(names, bound, rule, limit = FLT_MAX) {
    if (!(bound <= limit)) {
      throw new PosencError(
        Status.E_PARAM,
        `posenc.${this.fn}: ${names} must be small enough that the result fits float32: ${rule} <= ${limit} (got ${bound})`,
        names,
      );
    }
  }

  /** Output array: `out` may be undefined (a new array is returned), a typed array (filled and
   * returned) or a PosencBuffer (written in place and returned). Call .take() after the C call.
   * `same`: an input this output may exactly coincide with (documented in-place use). */
  out(name, out, Type, length, { same } = {}) {
    let r;
    if (out !== undefined) {
      r = this.check(name, out, Type, length, { write: true });
      this.claim(name, r, true, same);
    }
    const heap = r?.heap;
    // C writes every element of an output, so a fresh one needs no zero fill.
    const ptr = heap ? r.ptr : this.alloc(Type, length, false);
    const core = this.core;
    return {
      ptr,
      take() {
        if (heap) return out;
        if (out === undefined) return core.read(Type, ptr, length);
        core.withView(Type, ptr, length, (src) => {
          TA_SET.call(out, src);
        });
        return out;
      },
    };
  }

  /** In-place array (e.g. applyRope): values go in, results come back into the same object. */
  inout(name, value, Type, length, { finite, how } = {}) {
    if (value === undefined) {
      throw new PosencError(
        Status.E_MISSING,
        `posenc.${this.fn}: ${name} is required (a ${typeName(Type)} of length ${length})`,
        name,
      );
    }
    const r = this.check(name, value, Type, length, { write: true, how });
    this.claim(name, r, true);
    let ptr;
    if (r.heap) {
      ptr = r.ptr;
    } else {
      ptr = this.alloc(Type, length, false);
      this.core.withView(Type, ptr, length, (v) => TA_SET.call(v, value));
    }
    if (finite) this.scan(name, ptr, length, finite === 'mask');
    const core = this.core;
    return {
      ptr,
      take() {
        if (!r.heap)
          core.withView(Type, ptr, length, (src) => {
            TA_SET.call(value, src);
          });
        return value;
      },
    };
  }

  /** Call C through the choke point on behalf of this scope's public function. */
  call(cname, ...args) {
    return this.core.call(this.fn, cname, ...args);
  }
}

export { show };
