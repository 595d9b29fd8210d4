// The bridge between JS values and the wasm heap.
//
// * Core.call is the one choke point: every C function is called through it, and a negative
//   status becomes a PosencError there and nowhere else.
// * Core.run(fn, scope => ...) gives a Scope that allocates heap buffers and frees them all in
//   `finally`, so a thrown error never leaks wasm memory.
// * Views of wasm memory are never cached: memory.buffer is replaced when the heap grows, so
//   every view is made fresh right before it is used (Core.view).
// * PosencBuffer is the zero-copy handle (pe.alloc): any argument that takes a typed array also
//   takes a PosencBuffer of the same element type, which is then used in place.
import { PosencError, Status } from './errors.js';
import { fail, show } from './validate.js';

export const TYPES = Object.freeze({ float32: Float32Array, int32: Int32Array, float64: Float64Array });

export class PosencBuffer {
  #core;
  #ptr;
  constructor(core, Type, length) {
    this.#core = core;
    this.type = Type;
    this.length = length;
    this.#ptr = core.malloc('alloc', Math.max(1, length) * Type.BYTES_PER_ELEMENT);
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
    return this.#core.view(this.type, this.#ptr, this.length);
  }
  free() {
    if (this.#ptr !== 0) this.#core.free(this.#ptr);
    this.#ptr = 0;
  }
  [Symbol.dispose]() {
    this.free();
  }
}

export class Core {
  constructor(instance) {
    this.exports = instance.exports;
    this.backend = this.exports.posenc_build_flags() & 1 ? 'simd' : 'scalar';
  }

  view(Type, ptr, length) {
    return new Type(this.exports.memory.buffer, ptr, length);
  }

  malloc(fn, bytes) {
    const ptr = bytes > 2 ** 31 ? 0 : this.exports.malloc(bytes);
    if (!ptr) {
      throw new PosencError(Status.E_NOMEM, `posenc.${fn}: out of memory (could not allocate ${bytes} bytes of wasm heap)`);
    }
    return ptr;
  }

  free(ptr) {
    this.exports.free(ptr);
  }

  cString(ptr) {
    const bytes = new Uint8Array(this.exports.memory.buffer, ptr);
    let end = 0;
    while (bytes[end] !== 0) end++;
    return new TextDecoder().decode(bytes.subarray(0, end));
  }

  /** The choke point: call C function `cname` for public function `fn`; throw on a negative status. */
  call(fn, cname, ...args) {
    const code = this.exports[cname](...args);
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

/** Per-call heap bookkeeping; see Core.run. */
export class Scope {
  constructor(core, fn) {
    this.core = core;
    this.fn = fn;
    this.owned = [];
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
    if (zero) new Uint8Array(this.core.exports.memory.buffer, ptr, bytes).fill(0);
    return ptr;
  }

  check(name, value, Type, length) {
    const what = `a ${typeName(Type)} or posenc buffer of length ${length}`;
    if (value instanceof PosencBuffer) {
      if (value.freed) throw fail(this.fn, name, Status.E_NULL, `${what}, not a freed buffer`);
      if (!value.belongsTo(this.core)) throw fail(this.fn, name, Status.E_PARAM, `${what} allocated by this posenc instance`);
      if (value.type !== Type || value.length !== length) {
        throw fail(this.fn, name, Status.E_SCRATCH, what, `posenc buffer ${typeName(value.type)}(${value.length})`);
      }
      return;
    }
    if (!(value instanceof Type)) throw fail(this.fn, name, Status.E_PARAM, what, value);
    if (value.length !== length) throw fail(this.fn, name, Status.E_SCRATCH, what, value);
  }

  /** Input array: a heap pointer holding its values (copied unless it is a PosencBuffer). */
  in(name, value, Type, length) {
    if (value === undefined) {
      throw new PosencError(Status.E_MISSING, `posenc.${this.fn}: ${name} is required (a ${typeName(Type)} of length ${length})`, name);
    }
    this.check(name, value, Type, length);
    if (value instanceof PosencBuffer) return value.ptr;
    const ptr = this.alloc(Type, length, false);
    this.core.view(Type, ptr, length).set(value);
    return ptr;
  }

  /** Output array: `out` may be undefined (a new array is returned), a typed array (filled and
   * returned) or a PosencBuffer (written in place and returned). Call .take() after the C call. */
  out(name, out, Type, length) {
    if (out !== undefined) this.check(name, out, Type, length);
    // C writes every element of an output, so a fresh one needs no zero fill.
    const ptr = out instanceof PosencBuffer ? out.ptr : this.alloc(Type, length, false);
    const core = this.core;
    return {
      ptr,
      take() {
        if (out instanceof PosencBuffer) return out;
        const src = core.view(Type, ptr, length);
        if (out === undefined) return src.slice();
        out.set(src);
        return out;
      },
    };
  }

  /** In-place array (e.g. applyRope): values go in, results come back into the same object. */
  inout(name, value, Type, length) {
    const ptr = this.in(name, value, Type, length);
    const core = this.core;
    return {
      ptr,
      take() {
        if (!(value instanceof PosencBuffer)) value.set(core.view(Type, ptr, length));
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
