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
import { arrayLike, PosencBuffer } from './core.js';
import { PosencError, Status } from './errors.js';
import { elements, fail, int, num, options, parseKvHeads, typedArray } from './validate.js';
import { mropeOnHeap, ropeFreqsOnHeap } from './rope.js';
import { parseChunk, parseQueryScale, parseWindow, writeBias } from './attention.js';
import { ENCODINGS, parseEncoding as parseRegistered, valueRule } from './encodings.js';
import { callNamed, LOGIT_LIMIT } from './values.js';

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

export function kvCacheFamily(core) {
  return {
    /**
     * A KV cache for decoding: see docs/attention.md. Options: heads, kvHeads = heads, dim,
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
      this.#ptrs = { kc, vc, state, inv, ropeScale, tables, owned };
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
    const { kvHeads, dim, dimV, capacity, enc } = this.#cfg;
    const n = this.#tokensOf(fn, k, v, o.tokens);
    const p = this.#memory(fn);
    this.#core.run(fn, (s) => {
      const nk = n * kvHeads * dim;
      let kp = s.in('k', k, Float32Array, nk);
      if (enc.type === 'rope') {
        if (PosencBuffer.is(k)) {
          // never rotate the caller's buffer in place
          const copy = s.alloc(Float32Array, nk, false);
          this.#core.withView(Float32Array, copy, nk, (dst) => {
            dst.set(this.#core.read(Float32Array, kp, nk));
          });
          kp = copy;
        }
        this.#rotate(s, kp, n, kvHeads, this.#length, fn, o.positions, 'k');
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
