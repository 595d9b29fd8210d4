// The KV cache: keys and values of the tokens seen so far, kept in wasm memory in the layout the
// attention kernels read, for decoding one token (or a few) at a time.
//
//   const cache = pe.kvCache({ heads: 32, kvHeads: 8, dim: 128, capacity: 4096, encoding: { type: 'rope' } });
//   cache.append(k, v);                 // k [n][kvHeads][dim], v [n][kvHeads][dimV]; RoPE at the running position
//   const { output } = cache.attend(q); // q [n][heads][dim]: the last n tokens, causal
//
// Options are read once, into a snapshot, when the cache is made; tables (T5 weights, Shaw
// aK/aV) are copied into the cache. No view of wasm memory is kept across a call that may
// allocate: each is made right before it is used.
import { arrayLike, PosencBuffer } from '../../js/core.js';
import { PosencError, Status } from '../../js/errors.js';
import {
  elements,
  fail,
  int,
  list,
  num,
  notPromise,
  options,
  parseKvHeads,
  threw,
  typedArray,
} from '../../js/validate.js';
import { mropeOnHeap, ropeFreqsOnHeap } from '../rope/rope.js';
import { parseChunk, parseQueryScale, parseWindow, writeBias } from '../attention/attention.js';
import { ENCODINGS, parseEncoding as parseRegistered, valueRule } from '../../js/encodings.js';
import { callNamed, LOGIT_LIMIT } from '../../js/values.js';

/** A snapshot of the own enumerable properties of an options object: each is read exactly once
 * (a getter runs once, and one that throws becomes a PosencError naming the option), then the
 * copy is checked. */
function snapshot(fn, value, allowed) {
  return { ...options(fn, value, allowed) };
}

/** Float32Array or float32 PosencBuffer of exactly n elements -> a Float32Array copy (brand
 * checks, so a Proxy or a look-alike is refused without running its code); every element finite,
 * and within `rule` (the table's js/encodings.js VALUE_RULES entry) if it states one. */
function tableCopy(core, fn, name, value, n, rule) {
  if (value === undefined)
    throw new PosencError(Status.E_MISSING, `posenc.${fn}: ${name} is required (a Float32Array of length ${n})`, name);
  let a;
  if (PosencBuffer.is(value)) {
    if (value.type !== Float32Array || value.freed || !value.belongsTo(core))
      throw fail(
        fn,
        name,
        Status.E_PARAM,
        `a Float32Array of length ${n} (or a live float32 posenc buffer of this instance)`,
        value,
      );
    if (value.length !== n) throw fail(fn, name, Status.E_SCRATCH, `a Float32Array of length ${n}`, value);
    a = core.read(Float32Array, value.ptr, n);
  } else {
    const ta = typedArray(value);
    if (!ta || ta.Type !== Float32Array || ta.detached)
      throw fail(fn, name, Status.E_PARAM, `a Float32Array of length ${n}`, value);
    if (ta.length !== n) throw fail(fn, name, Status.E_SCRATCH, `a Float32Array of length ${n}`, value);
    a = TA_SLICE.call(value);
  }
  for (let i = 0; i < n; i++)
    if (!(rule ? rule.ok(a[i]) : Number.isFinite(a[i])))
      throw fail(fn, `${name}[${i}]`, Status.E_PARAM, rule?.allowed ?? 'finite', a[i]);
  return a;
}
// %TypedArray%.prototype.slice, so an own `slice` on the caller's array cannot run.
const TA_SLICE = Object.getPrototypeOf(Float32Array.prototype).slice;

/** Element count of a Float32Array / float32 PosencBuffer argument, as rows of `width`. The
 * length comes from internal slots (arrayLike): an own `length` getter never runs, and a
 * Float32Array of another realm (an iframe, node:vm) is one, as everywhere else in posenc. */
function rowsOf(fn, name, x, width, what) {
  if (x === undefined) throw new PosencError(Status.E_MISSING, `posenc.${fn}: ${name} is required (${what})`, name);
  const a = arrayLike(x);
  if (!a || a.Type !== Float32Array) throw fail(fn, name, Status.E_PARAM, what, x);
  if (a.buffer && x.freed) throw fail(fn, name, Status.E_NULL, `${what}, not a freed buffer`);
  if (a.length === 0 || a.length % width) throw fail(fn, name, Status.E_SCRATCH, what, x);
  return a.length / width;
}

/** The cache's encoding: options and defaults from the registry (js/encodings.js), tables copied. */
function parseEncoding(core, fn, encoding, { heads, dim, dimV, capacity }) {
  if (encoding === undefined) return { type: 'none', kind: 'none', rel: 0 };
  const why = (type) =>
    ['sinusoidal', 'learned'].includes(type)
      ? ` ('${type}' is added to the tokens before the projections, so the cache sees plain keys: use 'none')`
      : type === 'xl'
        ? " (Transformer-XL's r table depends on the total length; use attention with bias 'xl')"
        : '';
  // every cache is causal: T5's bidirectional defaults to false, as in a decoder
  const e = parseRegistered('kvCache', encoding, { fn, prefix: 'encoding.', causal: true, dim }, why);
  const kind = ENCODINGS[e.type].bias ? e.type : 'none';
  const tables = ENCODINGS[e.type]
    .tables(e, { heads, dim, dimV })
    .map((t) => tableCopy(core, fn, `encoding.${t.key}`, e[t.key], elements(fn, t.product, t.length), valueRule(t)));
  // its scalars and relative count from its registry row; 'none' and 'rope' (keys rotated
  // before they are stored) add no bias
  const entry = ENCODINGS[e.type];
  const rel = entry.rel?.(e) ?? 0;
  return { ...e, kind, rel, tables, params: entry.params?.(e, rel) ?? [], defaultScale: entry.defaultScale };
}

/** A past key or value: a Float32Array [batch = 1][kvHeads][seq][d], or a Tensor of
 * onnxruntime-web / transformers.js ({ type: 'float32', data, dims: [batch, kvHeads, seq, d] }),
 * whose row `batch` is taken -> { data: Float32Array [kvHeads][seq][d], seq, batch }. */
function pastTensor(fn, name, x, { kvHeads, d, dName, batch }) {
  const layout = `[batch][kvHeads = ${kvHeads}][seq][${dName} = ${d}]`;
  const what = `a float32 Tensor or Float32Array ${layout} (onnxruntime's present / past layout)`;
  if (x === undefined) throw new PosencError(Status.E_MISSING, `posenc.${fn}: ${name} is required (${what})`, name);
  let data = x;
  let dims;
  if (!typedArray(x)) {
    const t = tensorFields(fn, name, x);
    if (t.type !== undefined && t.type !== 'float32')
      throw fail(fn, `${name}.type`, Status.E_PARAM, "'float32' (a float16 past: convert it first)", t.type);
    data = t.data;
    dims = list(fn, `${name}.dims`, t.dims);
    if (!Array.isArray(dims) || dims.length !== 4)
      throw fail(fn, `${name}.dims`, Status.E_PARAM, `4 sizes ${layout}`, t.dims);
  }
  const ta = typedArray(data);
  const dataName = dims ? `${name}.data` : name;
  if (!ta || ta.Type !== Float32Array || ta.detached) throw fail(fn, dataName, Status.E_PARAM, what, data);
  dims ??= [1, kvHeads, ta.length / (kvHeads * d), d];
  const want = [undefined, kvHeads, undefined, d];
  dims.forEach((v, i) => {
    const ok = Number.isInteger(v) && v >= 0 && (want[i] === undefined || v === want[i]);
    if (!ok) {
      const label = ['batch', `kvHeads = ${kvHeads} (the cache's)`, 'seq', `${dName} = ${d} (the cache's)`][i];
      throw fail(fn, `${name}.dims[${i}]`, Status.E_SIZE, `${label}, in ${layout}`, v);
    }
  });
  const [B, , seq] = dims;
  if (B === 0) throw fail(fn, `${name}.dims[0]`, Status.E_SIZE, 'at least 1 (the batch)', 0);
  if (B * kvHeads * seq * d !== ta.length)
    throw fail(
      fn,
      dataName,
      Status.E_SCRATCH,
      `${B * kvHeads * seq * d} floats, its dims ${JSON.stringify(dims)}`,
      data,
    );
  const b = int(fn, 'batch', batch, { min: 0, max: Math.max(0, B - 1), def: 0 });
  const n = kvHeads * seq * d;
  const row = TA_SLICE.call(data, b * n, (b + 1) * n);
  // named here, in the caller's layout: the store would name an element of its transposed copy
  const bad = row.findIndex((x) => !Number.isFinite(x));
  if (bad >= 0) throw fail(fn, `${dataName}[${b * n + bad}]`, Status.E_PARAM, 'finite', row[bad]);
  return { data: row, seq, batch: B };
}

/** type, data and dims of a Tensor (onnxruntime-web's and transformers.js's are getters on the
 * prototype), each read once; a throwing getter (a GPU tensor's data) is E_PARAM naming it. */
function tensorFields(fn, name, x) {
  if (x === null || typeof x !== 'object') throw fail(fn, name, Status.E_PARAM, 'a float32 Tensor or Float32Array', x);
  notPromise(fn, name, x);
  const t = {};
  for (const k of ['type', 'data', 'dims']) {
    try {
      t[k] = x[k];
    } catch (e) {
      throw threw(fn, `${name}.${k}`, e);
    }
  }
  if (t.data === undefined && t.dims === undefined)
    throw fail(fn, name, Status.E_PARAM, 'a float32 Tensor ({ type, data, dims }) or Float32Array', x);
  return t;
}

/** [kvHeads][n][d] -> [n][kvHeads][d] (onnxruntime's head-major past to append's token-major). */
function tokenMajor(src, kvHeads, n, d) {
  const out = new Float32Array(src.length);
  for (let g = 0; g < kvHeads; g++)
    for (let t = 0; t < n; t++) out.set(src.subarray((g * n + t) * d, (g * n + t + 1) * d), (t * kvHeads + g) * d);
  return out;
}

/** The position_ids of imported tokens (Int32Array or BigInt64Array, as many as the tokens)
 * must be from, from + 1, ..: the cache keeps the key of token t at position t. */
function checkPositions(fn, positions, from, n) {
  const ta = typedArray(positions);
  if (!ta || (ta.Type !== Int32Array && ta.Type !== BigInt64Array) || ta.detached || ta.length !== n)
    throw fail(fn, 'positions', Status.E_PARAM, `an Int32Array or BigInt64Array of ${n} position ids`, positions);
  const copy = TA_SLICE.call(positions);
  for (let i = 0; i < n; i++) {
    if (Number(copy[i]) !== from + i) {
      const allowed = `${from + i} (imported tokens continue the cache at its length ${from}, one position each)`;
      throw fail(fn, `positions[${i}]`, Status.E_PARAM, allowed, copy[i]);
    }
  }
}

/** The packed K layout (families/kvcache/kvcache.c: [kvHead][capt / 8][dim][8]) -> [kvHeads][L][dim]. */
function unpackKeys(kc, out, { kvHeads, L, dim, capt }) {
  for (let g = 0; g < kvHeads; g++)
    for (let j = 0; j < L; j++) {
      const base = g * capt * dim + Math.floor(j / 8) * dim * 8 + (j % 8);
      const o = (g * L + j) * dim;
      for (let d = 0; d < dim; d++) out[o + d] = kc[base + d * 8];
    }
}

/** The packed V layout ([kvHead][capt / T][dimV / 8][T][8], c_src/posenc_internal.h
 * posenc__kv_v_index) -> [kvHeads][L][dimV]. */
function unpackValues(vc, out, { kvHeads, L, dimV, capt, tile }) {
  const dv8 = Math.ceil(dimV / 8) * 8;
  for (let g = 0; g < kvHeads; g++)
    for (let j = 0; j < L; j++) {
      const base = g * capt * dv8 + Math.floor(j / tile) * tile * dv8 + (j % tile) * 8;
      const o = (g * L + j) * dimV;
      for (let d = 0; d < dimV; d++) out[o + d] = vc[base + Math.floor(d / 8) * tile * 8 + (d % 8)];
    }
}

export function kvCacheFamily(core) {
  return {
    /**
     * A KV cache for decoding: see families/attention/attention.md. Options: heads, kvHeads = heads, dim,
     * dimV = dim, capacity, encoding = { type: 'none' }, window = 0 (no sliding window), scale,
     * chunk = 0 (none; chunked local attention), queryScale (a function of the query position).
     */
    kvCache(opts) {
      const fn = 'kvCache';
      const o = snapshot(fn, opts, [
        'heads',
        'kvHeads',
        'dim',
        'dimV',
        'capacity',
        'encoding',
        'window',
        'scale',
        'chunk',
        'queryScale',
      ]);
      const heads = int(fn, 'heads', o.heads, { def: 1 });
      const kvHeads = parseKvHeads(fn, o.kvHeads, heads);
      const dim = int(fn, 'dim', o.dim);
      const dimV = int(fn, 'dimV', o.dimV, { def: dim });
      const capacity = int(fn, 'capacity', o.capacity, { max: 2 ** 28 });
      const window = parseWindow(fn, o.window);
      const chunk = parseChunk(fn, o.chunk);
      if (o.queryScale !== undefined && typeof o.queryScale !== 'function') {
        throw fail(
          fn,
          'queryScale',
          Status.E_PARAM,
          'a function (position) => number (attend takes a Float32Array per call)',
          o.queryScale,
        );
      }
      const enc = parseEncoding(core, fn, o.encoding, { heads, dim, dimV, capacity });
      const scale = num(fn, 'scale', o.scale, { min: -3e38, max: 3e38, def: enc.defaultScale ?? 1 / Math.sqrt(dim) });
      elements(fn, 'heads * dim', heads, dim);
      elements(fn, 'heads * dimV', heads, dimV);
      const queryScale = o.queryScale;
      return new KvCache(core, { heads, kvHeads, dim, dimV, capacity, window, enc, scale, chunk, queryScale });
    },
  };
}

class KvCache {
  #core;
  #cfg;
  #ptrs; // { kc, vc, state, inv, tables[] } heap addresses owned by the cache; null until the first append
  #freed = false;
  #rope = null; // { inv: Float64Array, scale } for encoding 'rope'
  #length = 0;

  constructor(core, cfg) {
    this.#core = core;
    this.#cfg = cfg;
    // sizes are checked now, so a cache that cannot exist fails here and not at its first append
    const { kvHeads, dim, dimV, capacity } = cfg;
    core.run('kvCache', (s) => {
      const sz = s.alloc(Int32Array, 2);
      s.call('posenc_kvcache_size', sz, sz + 4, kvHeads, dim, dimV, capacity);
    });
    if (cfg.enc.type === 'rope') {
      // frequencies once, as applyRope makes them; an absent dynamic/longrope seqLen is the capacity
      this.#rope = core.run('kvCache', (s) => {
        const r = ropeFreqsOnHeap(core, s, 'kvCache', cfg.enc.freq, capacity);
        return { inv: core.read(Float64Array, r.inv, r.n), scale: r.attentionScale };
      });
    }
  }

  /** The cache's wasm memory, made at the first append: a cache that is made and dropped unused
   * holds nothing that would need free(). */
  #memory(fn) {
    if (this.#ptrs) return this.#ptrs;
    const core = this.#core;
    const { kvHeads, dim, dimV, capacity, enc } = this.#cfg;
    const owned = [];
    const own = (bytes) => {
      const p = core.malloc(fn, bytes);
      owned.push(p);
      core.withView(Uint8Array, p, bytes, (v) => {
        v.fill(0);
      });
      return p;
    };
    try {
      const sizes = core.run(fn, (s) => {
        const sz = s.alloc(Int32Array, 2);
        s.call('posenc_kvcache_size', sz, sz + 4, kvHeads, dim, dimV, capacity);
        return Array.from(core.read(Int32Array, sz, 2));
      });
      const kc = own(sizes[0] * 4);
      const vc = own(sizes[1] * 4);
      const state = own(8);
      let inv = 0;
      let ropeScale = 1;
      if (enc.type === 'rope') {
        const f = this.#rope;
        inv = own(f.inv.length * 8);
        core.withView(Float64Array, inv, f.inv.length, (v) => {
          v.set(f.inv);
        });
        ropeScale = f.scale;
      }
      const tables = (enc.tables ?? []).map((t) => {
        const p = own(t.length * 4);
        core.withView(Float32Array, p, t.length, (v) => {
          v.set(t);
        });
        return p;
      });
      // the packed layouts' geometry (families/kvcache/kvcache.c), for exportPresent: capacity rounded up
      // to the attention tile, whose size is the rounding of a capacity of 1
      const capt = sizes[0] / (kvHeads * dim);
      const tile = core.run(fn, (s) => {
        const sz = s.alloc(Int32Array, 2);
        s.call('posenc_kvcache_size', sz, sz + 4, 1, 1, 1, 1);
        return core.read(Int32Array, sz, 1)[0];
      });
      this.#ptrs = { kc, vc, state, inv, ropeScale, tables, owned, kFloats: sizes[0], vFloats: sizes[1], capt, tile };
      return this.#ptrs;
    } catch (e) {
      for (const p of owned) core.free(p);
      throw e;
    }
  }

  #live(fn) {
    if (this.#freed) throw new PosencError(Status.E_NULL, `posenc.${fn}: this cache was freed`, 'cache');
  }

  get length() {
    return this.#length;
  }
  get capacity() {
    return this.#cfg.capacity;
  }
  get heads() {
    return this.#cfg.heads;
  }
  get kvHeads() {
    return this.#cfg.kvHeads;
  }

  /** RoPE on n rows of x (heap, [n][h][dim]) at positions offset .. offset + n - 1 (M-RoPE: at
   * the caller's positions, 3 × n). */
  #rotate(s, x, n, h, offset, fn, positions, name) {
    const { enc, dim } = this.#cfg;
    const p = this.#ptrs;
    const rotaryDim = enc.freq.rotaryDim;
    let body;
    if (enc.mrope) {
      const { layout, mrope } = enc;
      const o = {
        x,
        n,
        heads: h,
        dim,
        rotaryDim,
        layout,
        inv: p.inv,
        att: p.ropeScale,
        mrope,
        positions,
      };
      body = () => mropeOnHeap(s, fn, o);
    } else {
      const len = s.call('posenc_rope_scratch_size', rotaryDim);
      const scratch = s.alloc(Float32Array, len, false);
      const args = [x, n, h, dim, rotaryDim, enc.layout, 0 /* THD */, p.inv, p.ropeScale, offset, scratch, len];
      body = () => s.call('posenc_rope_apply', ...args);
    }
    callNamed(s, this.#core, body, null, [{ name, ptr: x, n: n * h * dim }], (m) => ({
      name,
      allowed: `small enough that its rotation (times the attention scale) fits float32`,
      got: m[name],
    }));
  }

  /** Append n tokens: k [n][kvHeads][dim], v [n][kvHeads][dimV]. Keys are rotated (RoPE) at
   * positions length .. length + n - 1; the caller's arrays are not modified. */
  append(k, v, opts) {
    const fn = 'kvCache.append';
    const o = snapshot(fn, opts, ['positions', 'tokens']);
    this.#live(fn);
    this.#mropePositions(fn, o);
    const n = this.#tokensOf(fn, k, v, o.tokens);
    this.#store(fn, k, v, n, this.#cfg.enc.type === 'rope', o.positions);
    return this;
  }

  /** The number of tokens in k and v ([n][kvHeads][dim], [n][kvHeads][dimV]), equal to the
   * caller's declared `tokens` when given (keys laid out for other head counts have a length that
   * is still a multiple of kvHeads · dim, and would otherwise be read as more tokens), and room
   * for them in the cache. */
  #tokensOf(fn, k, v, declared) {
    const { kvHeads, dim, dimV, capacity } = this.#cfg;
    const tokens = declared === undefined ? undefined : int(fn, 'tokens', declared, { max: capacity });
    const layout = (d, name) => `[n][kvHeads = ${kvHeads}][${name} = ${d}]`;
    const want = (d) => `${tokens} tokens × kvHeads = ${kvHeads} × ${d}`;
    const n = rowsOf(
      fn,
      'k',
      k,
      kvHeads * dim,
      `a Float32Array ${layout(dim, 'dim')} (a positive multiple of ${kvHeads * dim} long)`,
    );
    if (tokens !== undefined && n !== tokens)
      throw fail(
        fn,
        'k',
        Status.E_SCRATCH,
        `${want(`dim = ${dim}`)} = ${tokens * kvHeads * dim} floats (its length reads as ${n} tokens of ${layout(dim, 'dim')}: laid out for another number of heads or another dim?)`,
        k,
      );
    const nv = rowsOf(
      fn,
      'v',
      v,
      kvHeads * dimV,
      `a Float32Array ${layout(dimV, 'dimV')} (a positive multiple of ${kvHeads * dimV} long)`,
    );
    if (nv !== n) throw fail(fn, 'v', Status.E_SCRATCH, `${n} tokens like k (length ${n * kvHeads * dimV})`, v);
    if (this.#length + n > capacity) {
      // k is what is too long, whether the cache is full or k holds more tokens than meant
      const declaredNote = tokens === undefined ? `; pass { tokens } to have the layout checked` : '';
      throw new PosencError(
        Status.E_RANGE,
        `posenc.${fn}: k holds ${n} tokens of ${layout(dim, 'dim')} (length ${n * kvHeads * dim}) and the cache has room for ${capacity - this.#length} (capacity = ${capacity}, it holds ${this.#length}): make the cache with a larger capacity, truncate it, or check k's layout${declaredNote}`,
        'k',
      );
    }
    return n;
  }

  /** Store n tokens k [n][kvHeads][dim], v [n][kvHeads][dimV] at slots length .., rotating the
   * keys first when `rotate` (RoPE caches' append; imported keys arrive rotated). */
  #store(fn, k, v, n, rotate, positions) {
    const { kvHeads, dim, dimV, capacity, enc } = this.#cfg;
    const p = this.#memory(fn);
    this.#core.run(fn, (s) => {
      const nk = n * kvHeads * dim;
      let kp = s.in('k', k, Float32Array, nk);
      if (rotate) {
        if (PosencBuffer.is(k)) {
          // never rotate the caller's buffer in place
          const copy = s.alloc(Float32Array, nk, false);
          this.#core.withView(Float32Array, copy, nk, (dst) => {
            dst.set(this.#core.read(Float32Array, kp, nk));
          });
          kp = copy;
        }
        this.#rotate(s, kp, n, kvHeads, this.#length, fn, positions, 'k');
      }
      const vp = s.in('v', v, Float32Array, n * kvHeads * dimV);
      callNamed(
        s,
        this.#core,
        'posenc_kvcache_store',
        [p.kc, p.vc, p.state, kp, vp, n, this.#length, capacity, kvHeads, dim, dimV],
        [
          { name: enc.type === 'rope' ? 'k (rotated)' : 'k', ptr: kp, n: nk },
          { name: 'v', ptr: vp, n: n * kvHeads * dimV },
        ],
      );
    });
    this.#length += n;
  }

  /** Continue a sequence computed elsewhere: key [batch][kvHeads][seq][dim] and value
   * [batch][kvHeads][seq][dimV] as onnxruntime's present_key / present_value and transformers.js's
   * past_key_values hold them (float32, keys already rotated), an ort / transformers.js Tensor
   * ({ type, data, dims }) or a Float32Array. The tokens are stored at slots length .. (not
   * rotated again); positions (Int32Array or BigInt64Array, their position_ids) must be those. */
  importPast(key, value, opts) {
    const fn = 'kvCache.importPast';
    const o = snapshot(fn, opts, ['positions', 'tokens', 'batch']);
    this.#live(fn);
    const { kvHeads, dim, dimV, capacity, enc } = this.#cfg;
    const k = pastTensor(fn, 'key', key, { kvHeads, d: dim, dName: 'dim', batch: o.batch });
    const v = pastTensor(fn, 'value', value, { kvHeads, d: dimV, dName: 'dimV', batch: o.batch });
    const n = k.seq;
    if (o.tokens !== undefined && n !== int(fn, 'tokens', o.tokens, { min: 0, max: capacity }))
      throw fail(fn, 'key', Status.E_SCRATCH, `${o.tokens} tokens [${k.batch}][${kvHeads}][${o.tokens}][${dim}]`, key);
    if (v.seq !== n)
      throw fail(fn, 'value', Status.E_SCRATCH, `${n} tokens like key ([batch][${kvHeads}][${n}][${dimV}])`, value);
    if (enc.mrope && o.positions !== undefined)
      throw fail(
        fn,
        'positions',
        Status.E_PARAM,
        'omitted for an M-RoPE cache (imported keys are rotated)',
        o.positions,
      );
    if (o.positions !== undefined) checkPositions(fn, o.positions, this.#length, n);
    if (this.#length + n > capacity) {
      const room = `${capacity - this.#length} more tokens (capacity = ${capacity}, it holds ${this.#length})`;
      throw fail(fn, 'key', Status.E_RANGE, `at most ${room}`, `${n} tokens`);
    }
    if (n === 0) return this;
    this.#store(fn, tokenMajor(k.data, kvHeads, n, dim), tokenMajor(v.data, kvHeads, n, dimV), n, false);
    return this;
  }

  /** The cache as onnxruntime's present_key / present_value (transformers.js's past_key_values):
   * { key: { type: 'float32', data, dims: [1, kvHeads, length, dim] }, value: likewise with dimV },
   * keys as stored (rotated). new ort.Tensor(key.type, key.data, key.dims) feeds a past_key. */
  exportPresent() {
    const fn = 'kvCache.exportPresent';
    this.#live(fn);
    const { kvHeads, dim, dimV } = this.#cfg;
    const L = this.#length;
    const key = new Float32Array(kvHeads * L * dim);
    const value = new Float32Array(kvHeads * L * dimV);
    if (L > 0) {
      const p = this.#memory(fn);
      const core = this.#core;
      core.withView(Float32Array, p.kc, p.kFloats, (kc) => {
        unpackKeys(kc, key, { kvHeads, L, dim, capt: p.capt });
      });
      core.withView(Float32Array, p.vc, p.vFloats, (vc) => {
        unpackValues(vc, value, { kvHeads, L, dimV, capt: p.capt, tile: p.tile });
      });
    }
    const tensor = (data, d) => ({ type: 'float32', data, dims: [1, kvHeads, L, d] });
    return { key: tensor(key, dim), value: tensor(value, dimV) };
  }

  /** Attention of the last n tokens' queries, q [n][heads][dim] (n <= length), to every cached
   * key up to their own position (and within the window): { output: [n][heads][dimV] }. */
  attend(q, opts) {
    const fn = 'kvCache.attend';
    // caller getters run here, before the liveness check
    const o = snapshot(fn, opts, ['out', 'positions', 'queryScale', 'tokens']);
    this.#live(fn);
    this.#mropePositions(fn, o);
    const { heads, kvHeads, dim, dimV, capacity, window, enc, scale, chunk } = this.#cfg;
    const L = this.#length;
    const n = rowsOf(
      fn,
      'q',
      q,
      heads * dim,
      `a Float32Array [n][heads = ${heads}][dim = ${dim}] (a positive multiple of ${heads * dim} long)`,
    );
    if (o.tokens !== undefined && n !== int(fn, 'tokens', o.tokens, { max: L || 1 }))
      throw fail(
        fn,
        'q',
        Status.E_SCRATCH,
        `${o.tokens} tokens × heads = ${heads} × dim = ${dim} = ${o.tokens * heads * dim} floats (its length reads as ${n} tokens: laid out for another number of heads or another dim?)`,
        q,
      );
    if (L === 0) throw fail(fn, 'q', Status.E_RANGE, 'attended after at least one append (the cache is empty)');
    if (n > L)
      throw fail(
        fn,
        'q',
        Status.E_RANGE,
        `at most ${L} tokens (the cache length: queries are the last tokens appended)`,
        `${n} tokens`,
      );
    // the per-query scale of this call, or the cache's function of the query positions L - n ..
    const queryScale = parseQueryScale(fn, o.queryScale ?? this.#cfg.queryScale, n, L - n);
    this.#live(fn); // a queryScale function is caller code
    if (this.#length !== L) {
      const got = `a call that changed the length from ${L} to ${this.#length}`;
      throw fail(fn, 'queryScale', Status.E_PARAM, 'a function that leaves the cache as it is', got);
    }
    const core = this.#core;
    const p = this.#memory(fn);
    return core.run(fn, (s) => {
      const nq = n * heads * dim;
      let qp = s.in('q', q, Float32Array, nq);
      if (enc.type === 'rope') {
        const copy = s.alloc(Float32Array, nq, false);
        core.withView(Float32Array, copy, nq, (dst) => {
          dst.set(core.read(Float32Array, qp, nq));
        });
        qp = copy;
        this.#rotate(s, qp, n, heads, L - n, fn, o.positions, 'q');
      }
      const out = s.out('out', o.out, Float32Array, n * heads * dimV);
      const qs = queryScale ? s.in('queryScale', queryScale, Float32Array, n, { finite: 'all' }) : 0;
      const desc = writeBias(s, enc.kind, [...p.tables, ...(enc.params ?? [])], { queryScale: qs, chunk });
      const sz = s.alloc(Int32Array, 1);
      s.call('posenc_kvcache_scratch_size', sz, n, L, heads, kvHeads, dim, dimV, desc);
      const floats = core.read(Int32Array, sz, 1)[0];
      const scratch = s.alloc(Float32Array, floats, false);
      const state = core.read(Float32Array, p.state, 2);
      const mk = state[0],
        mv = state[1];
      const args = [out.ptr, qp, p.kc, p.vc, p.state, capacity, L, n, heads, kvHeads, dim, dimV, scale, window];
      const named = [{ name: enc.type === 'rope' ? 'q (rotated)' : 'q', ptr: qp, n: nq }];
      if (qs) named.push({ name: 'queryScale', ptr: qs, n });
      callNamed(s, core, 'posenc_kvcache_attend', [...args, scratch, floats, desc], named, (m) => {
        const qn = enc.type === 'rope' ? 'q (rotated)' : 'q';
        if (L * mv > LOGIT_LIMIT)
          return { name: 'v', allowed: `small enough that length · max|v| <= ${LOGIT_LIMIT}`, got: `max |v| = ${mv}` };
        const names = qs ? `${qn}, queryScale, k` : `${qn}, k`;
        return {
          name: names,
          allowed:
            'small enough that every logit fits float32: ' +
            `dim · max|q| · max|k| · max(1, |scale|) <= ${LOGIT_LIMIT}`,
          got: dim * m[qn] * (m.queryScale ?? 1) * mk * Math.max(1, Math.abs(scale)),
        };
      });
      return { output: out.take() };
    });
  }

  /** positions belong to M-RoPE caches only, and M-RoPE needs them. */
  #mropePositions(fn, o) {
    const mrope = this.#cfg.enc.mrope;
    if (mrope && o.positions === undefined) {
      throw new PosencError(
        Status.E_MISSING,
        `posenc.${fn}: positions is required with encoding.mropeSections ` +
          '(Int32Array or Float32Array of 3 × n: t, h, w)',
        'positions',
      );
    }
    if (!mrope && o.positions !== undefined) {
      throw fail(
        fn,
        'positions',
        Status.E_PARAM,
        'omitted unless encoding.mropeSections is set (tokens sit at length, length + 1, ...)',
        o.positions,
      );
    }
  }

  /** Keep the first n tokens (0 <= n <= length); later appends continue at position n. */
  truncate(n) {
    const fn = 'kvCache.truncate';
    this.#live(fn);
    this.#length = int(fn, 'n', n, { min: 0, max: this.#length });
    return this;
  }

  /** Release the cache's wasm memory; any later call throws. Safe to call twice. */
  free() {
    if (this.#ptrs) for (const ptr of this.#ptrs.owned) this.#core.free(ptr);
    this.#ptrs = null;
    this.#freed = true;
    this.#length = 0;
  }

  [Symbol.dispose]() {
    this.free();
  }
}
