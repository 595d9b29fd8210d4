// Attention family (families/attention/attention.md): multi-head scaled dot-product attention with fused
// positional biases, and selfAttention, one whole layer from context-free token vectors.
import { arrayLike } from '../../js/core.js';
import { PosencError, Status } from '../../js/errors.js';
import { ENCODINGS, parseEncoding as parseRegistered, typesFor, valueRule } from '../../js/encodings.js';
import {
  bool,
  choice,
  elements,
  fail,
  int,
  isArray,
  num,
  options,
  parseKvHeads,
  show,
  snapshot,
} from '../../js/validate.js';
import { ropeFreqsOnHeap } from '../rope/rope.js';
import { callNamed, LOGIT_LIMIT } from '../../js/values.js';

export const ALIGN = { 'top-left': 1, 'bottom-right': 2 };
const OFFSET_MAX = 2 ** 30;

const isArrayLike = (x) => arrayLike(x)?.Type === Float32Array;

/** Length of a Float32Array or float32 PosencBuffer, or a PosencError naming `name`. */
function f32Length(fn, name, x, what) {
  if (x === undefined) throw new PosencError(Status.E_MISSING, `posenc.${fn}: ${name} is required (${what})`, name);
  if (!isArrayLike(x)) throw fail(fn, name, Status.E_PARAM, what, x);
  return arrayLike(x).length;
}

/** rows of a [rows][width] table given as a flat array: length must be a positive multiple. */
function rowsOf(fn, name, x, width, what) {
  const n = f32Length(fn, name, x, what);
  if (n === 0 || n % width) throw fail(fn, name, Status.E_SCRATCH, what, x);
  return n / width;
}

/** Validated bias -> { kind, rel, ptrs(scope) -> C arguments, named(args) -> arrays for messages }.
 * Options and defaults come from the registry (js/encodings.js); the heap copies are made here. */
function parseBias(fn, bias, { heads, queries, keys, dim, dimV, causal }) {
  if (bias === undefined || bias === null) return { kind: 'none', rel: 0, ptrs: () => [0] };
  if (isArrayLike(bias)) {
    const n = elements(fn, 'heads * queries * keys', heads, queries, keys);
    return {
      kind: 'none',
      rel: 0,
      ptrs: (s) => [s.in('bias', bias, Float32Array, n)],
      named: (x) => [{ name: 'bias', ptr: x[0], n, negInf: true }],
    };
  }
  if (typeof bias !== 'object' || isArray(fn, 'bias', bias) || arrayLike(bias)) {
    throw fail(
      fn,
      'bias',
      Status.E_PARAM,
      `a Float32Array [heads][queries][keys] or { type: ${typesFor('attention')
        .filter((t) => t !== 'none')
        .map((t) => `'${t}'`)
        .join(' | ')}, ... }`,
      bias,
    );
  }
  const types = typesFor('attention').filter((t) => t !== 'none');
  const bias0 = snapshot(fn, bias, 'bias');
  if (!types.includes(bias0.type)) {
    throw fail(
      fn,
      'bias.type',
      Status.E_ENUM,
      `one of ${types.map((t) => `'${t}'`).join(', ')} (or pass a Float32Array)`,
      bias0.type,
    );
  }
  const entry = ENCODINGS[bias0.type];
  const b = entry.parse(bias0, { fn, prefix: 'bias.', causal, host: 'attention' });
  // the kind's tables, then its scalars: all from its registry row (js/encodings.js)
  let rel = entry.rel?.(b) ?? 0;
  if (entry.rows) {
    const width = elements(fn, entry.rows.width, heads, dim);
    const key = `bias.${entry.rows.key}`;
    const what = `a Float32Array ${entry.rows.shape} (a positive multiple of ${width} long)`;
    rel = rowsOf(fn, key, b[entry.rows.key], width, what);
  }
  const sizes = tableSizes(fn, entry.tables(b, { heads, dim, dimV, rRows: rel }), b, 'bias.');
  return tableBias(fn, b, rel, sizes, entry.params(b, rel));
}

/** A kind's tables (its registry row's tables()) -> [key, length, value rule] each; a table with a
 * shape is checked to be a Float32Array of its length first (attention's bias, selfAttention's
 * encoding: `prefix` names the option). */
function tableSizes(fn, tables, value, prefix) {
  const sizes = tables.map((t) => [t.key, elements(fn, t.product, t.length), valueRule(t)]);
  tables.forEach((t, i) => {
    if (!t.shape) return;
    f32Length(fn, `${prefix}${t.key}`, value[t.key], `a Float32Array ${t.shape} of length ${sizes[i][1]}`);
  });
  return sizes;
}

/** A bias whose tables (sizes: [key, length, value rule]) go to C as heap copies, then `tail` scalars. */
function tableBias(fn, b, rel, sizes, tail) {
  return {
    kind: b.type,
    rel,
    ptrs: (s) => [...sizes.map(([key, n]) => s.in(`bias.${key}`, b[key], Float32Array, n)), ...tail],
    named: (x) => sizes.map(([key, n, rule], i) => ({ name: `bias.${key}`, ptr: x[i], n, rule })),
  };
}

/**
 * A posenc_bias on the heap for `kind` (a registry type) whose C arguments are `args` (heap
 * pointers and integers in the order of the registry's cArgs), with the per-query scale
 * (heap pointer or 0), the chunk size and the sliding window (0 = none). Returns its address.
 * @internal
 */
export function writeBias(s, kind, args, { queryScale = 0, chunk = 0, window = 0 } = {}) {
  const e = ENCODINGS[kind];
  // posenc.h posenc_bias, at the offsets and as the field types the C build reports: a kind's
  // float scalar is written as a float, its tables as pointers
  const b = s.core.layout.posenc_bias;
  const ptr = s.alloc(Uint8Array, b.size);
  s.with(DataView, ptr, b.size, (dv) => {
    b.set(dv, 'kind', e.bias);
    e.cArgs.forEach((f, i) => b.set(dv, f, args[i] ?? 0));
    b.set(dv, 'query_scale', queryScale);
    b.set(dv, 'chunk', chunk);
    b.set(dv, 'window', window);
  });
  return ptr;
}

/** The causal mask's alignment. Required when a causal mask meets fewer queries than keys (the
 * decoding case): top-left (PyTorch's is_causal) and bottom-right (onnxruntime's
 * GroupQueryAttention, FlashAttention, a KV cache) both run there and differ, so the caller names
 * the one they mean rather than getting the other silently. */
function parseAlign(fn, align, causal, queries, keys) {
  if (causal && queries < keys && align === undefined) {
    throw new PosencError(
      Status.E_MISSING,
      `posenc.${fn}: align is required with causal: true and fewer queries (${queries}) than keys (${keys}): ` +
        "'bottom-right' when the queries are the last tokens (decoding against a cache), 'top-left' when query i is token i",
      'align',
    );
  }
  return choice(fn, 'align', align, ALIGN, 'top-left');
}

export function attentionFamily(core) {
  /** The C call on heap pointers; used by attention() and selfAttention(). */
  function attendPtrs(
    s,
    {
      qp,
      kp,
      vp,
      queries,
      keys,
      heads,
      kvHeads = heads,
      dim,
      dimV,
      scale,
      mask,
      offset,
      bias,
      outPtr,
      weightsPtr,
      names = ['q', 'k', 'v'],
      queryScale,
      chunk = 0,
      window = 0,
    },
  ) {
    const extra = bias.ptrs(s);
    const qs = queryScale ? s.in('queryScale', queryScale, Float32Array, queries, { finite: 'all' }) : 0;
    const desc = writeBias(s, bias.kind, extra, { queryScale: qs, chunk, window });
    const sz = s.alloc(Int32Array, 1);
    s.call('posenc_attention_gqa_scratch_size', sz, queries, keys, heads, kvHeads, dim, dimV, desc);
    const floats = s.read(Int32Array, sz, 1)[0];
    const scratch = s.alloc(Float32Array, floats, false);
    const [nq, nk, nv] = names;
    const arrays = [
      { name: nq, ptr: qp, n: queries * heads * dim },
      { name: nk, ptr: kp, n: keys * kvHeads * dim },
      { name: nv, ptr: vp, n: keys * kvHeads * dimV },
      ...(bias.named ? bias.named(extra) : []),
      ...(qs ? [{ name: 'queryScale', ptr: qs, n: queries }] : []),
    ];
    const args = [outPtr, weightsPtr, qp, kp, vp, queries, keys, heads, dim, dimV, scale, mask, offset];
    callNamed(s, core, 'posenc_attention_gqa', [...args, scratch, floats, kvHeads, desc], arrays, (m) =>
      attentionRule(m, arrays, { keys, dim, scale, kind: bias.kind }),
    );
  }

  return {
    attention(opts) {
      const fn = 'attention';
      const o = options(fn, opts, [
        'q',
        'k',
        'v',
        'queries',
        'keys',
        'dim',
        'dimV',
        'heads',
        'kvHeads',
        'scale',
        'causal',
        'align',
        'offset',
        'bias',
        'returnWeights',
        'out',
        'queryScale',
        'chunk',
        'window',
      ]);
      const queries = int(fn, 'queries', o.queries);
      const keys = int(fn, 'keys', o.keys, { def: queries });
      const dim = int(fn, 'dim', o.dim);
      const dimV = int(fn, 'dimV', o.dimV, { def: dim });
      const heads = int(fn, 'heads', o.heads, { def: 1 });
      const kvHeads = parseKvHeads(fn, o.kvHeads, heads);
      const scale = num(fn, 'scale', o.scale, { min: -3e38, max: 3e38, def: 1 / Math.sqrt(dim) });
      const causal = bool(fn, 'causal', o.causal, false);
      const alignV = parseAlign(fn, o.align, causal, queries, keys);
      const offset = int(fn, 'offset', o.offset, {
        min: -OFFSET_MAX,
        max: OFFSET_MAX,
        def: alignV === ALIGN['bottom-right'] ? keys - queries : 0,
      });
      const returnWeights = bool(fn, 'returnWeights', o.returnWeights, false);
      const nq = elements(fn, 'queries * heads * dim', queries, heads, dim);
      const nk = elements(fn, 'keys * kvHeads * dim', keys, kvHeads, dim);
      const nv = elements(fn, 'keys * kvHeads * dimV', keys, kvHeads, dimV);
      const no = elements(fn, 'queries * heads * dimV', queries, heads, dimV);
      const nw = returnWeights ? elements(fn, 'heads * queries * keys', heads, queries, keys) : 0;
      const bias = parseBias(fn, o.bias, { heads, queries, keys, dim, dimV, causal });
      const chunk = parseChunk(fn, o.chunk);
      const window = parseWindow(fn, o.window);
      const queryScale = parseQueryScale(fn, o.queryScale, queries, offset);
      return core.run(fn, (s) => {
        const qp = s.in('q', o.q, Float32Array, nq);
        const kp = s.in('k', o.k, Float32Array, nk);
        const vp = s.in('v', o.v, Float32Array, nv);
        const out = s.out('out', o.out, Float32Array, no);
        const w = returnWeights ? s.out('weights', undefined, Float32Array, nw) : null;
        attendPtrs(s, {
          qp,
          kp,
          vp,
          queries,
          keys,
          heads,
          kvHeads,
          dim,
          dimV,
          scale,
          offset,
          bias,
          queryScale,
          chunk,
          window,
          mask: causal ? alignV : 0,
          outPtr: out.ptr,
          weightsPtr: w ? w.ptr : 0,
        });
        return { output: out.take(), weights: w ? w.take() : null };
      });
    },

    /** out[m][n] = a[m][k] . b[k][n] (row-major float32). */
    matmul(a, b, opts) {
      const fn = 'matmul';
      const o = options(fn, opts, ['m', 'k', 'n', 'out']);
      const m = int(fn, 'm', o.m);
      const k = int(fn, 'k', o.k);
      const n = int(fn, 'n', o.n);
      const na = elements(fn, 'm * k', m, k);
      const nb = elements(fn, 'k * n', k, n);
      const no = elements(fn, 'm * n', m, n);
      return core.run(fn, (s) => {
        const ap = s.in('a', a, Float32Array, na);
        const bp = s.in('b', b, Float32Array, nb);
        const out = s.out('out', o.out, Float32Array, no);
        matmulNamed(s, core, out.ptr, ap, bp, m, k, n, 'a', 'b');
        return out.take();
      });
    },

    selfAttention(opts) {
      const fn = 'selfAttention';
      const o = options(fn, opts, [
        'tokens',
        'length',
        'dModel',
        'wq',
        'wk',
        'wv',
        'heads',
        'kvHeads',
        'encoding',
        'causal',
        'returnWeights',
        'queryScale',
        'chunk',
        'window',
      ]);
      const dModel = int(fn, 'dModel', o.dModel);
      const length =
        o.length !== undefined
          ? int(fn, 'length', o.length)
          : rowsOf(
              fn,
              'tokens',
              o.tokens,
              dModel,
              `a Float32Array [length][dModel] (a positive multiple of ${dModel} long)`,
            );
      const heads = int(fn, 'heads', o.heads, { def: 1 });
      if (dModel % heads) throw fail(fn, 'heads', Status.E_PARAM, `a divisor of dModel = ${dModel}`, heads);
      const dHead = dModel / heads;
      const kvHeads = parseKvHeads(fn, o.kvHeads, heads);
      const dKv = kvHeads * dHead; // wk, wv are [dModel][kvHeads * dHead]
      const causal = bool(fn, 'causal', o.causal, false);
      const returnWeights = bool(fn, 'returnWeights', o.returnWeights, true);
      const T = length;
      const nx = elements(fn, 'length * dModel', T, dModel);
      const nw = elements(fn, 'dModel * dModel', dModel, dModel);
      const nwkv = elements(fn, 'dModel * kvHeads * dModel / heads', dModel, dKv);
      const nkv = elements(fn, 'length * kvHeads * dModel / heads', T, dKv);
      const nWeights = returnWeights ? elements(fn, 'heads * length * length', heads, T, T) : 0;
      const enc = parseEncoding(fn, o.encoding, { T, dModel, heads, dHead, causal });
      const chunk = parseChunk(fn, o.chunk);
      const window = parseWindow(fn, o.window);
      const queryScale = parseQueryScale(fn, o.queryScale, T, 0);
      return core.run(fn, (s) => {
        let xp = s.in('tokens', o.tokens, Float32Array, nx);
        const wq = s.in('wq', o.wq, Float32Array, nw);
        const wk = s.in('wk', o.wk, Float32Array, nwkv);
        const wv = s.in('wv', o.wv, Float32Array, nwkv);
        // Additive absolute encodings join the input before the projections (x_p + PE[p]).
        if (enc.type === 'sinusoidal' || enc.type === 'learned') {
          // never add into the caller's tokens (a PosencBuffer is used in place); every
          // allocation comes before the views (s.with refuses to allocate while one lives)
          const copy = s.alloc(Float32Array, nx, false);
          let pp;
          if (enc.type === 'sinusoidal') {
            pp = s.alloc(Float32Array, nx, false);
            s.call('posenc_sinusoidal_fill', pp, T, dModel, enc.base, 0, 0, 0, enc.offset);
          } else {
            pp = s.in('encoding.table', enc.table, Float32Array, enc.tableRows * dModel) + enc.offset * dModel * 4;
          }
          s.with(Float32Array, copy, nx, (x) =>
            s.with(Float32Array, xp, nx, (tok) =>
              s.with(Float32Array, pp, nx, (pe) => {
                for (let i = 0; i < nx; i++) x[i] = tok[i] + pe[i];
              }),
            ),
          );
          xp = copy;
        }
        const qp = s.alloc(Float32Array, nx, false);
        const kp = s.alloc(Float32Array, nkv, false);
        const vp = s.alloc(Float32Array, nkv, false);
        const xn = enc.type === 'sinusoidal' || enc.type === 'learned' ? 'tokens + encoding' : 'tokens';
        matmulNamed(s, core, qp, xp, wq, T, dModel, dModel, xn, 'wq');
        matmulNamed(s, core, kp, xp, wk, T, dModel, dKv, xn, 'wk');
        matmulNamed(s, core, vp, xp, wv, T, dModel, dKv, xn, 'wv');
        if (enc.type === 'rope') enc.rotate(s, core, qp, kp, kvHeads);
        let bias = { kind: 'none', rel: 0, ptrs: () => [0] };
        if (enc.bias) bias = enc.bias(s, core);
        const outPtr = s.alloc(Float32Array, nx, false);
        const wPtr = returnWeights ? s.alloc(Float32Array, nWeights, false) : 0;
        attendPtrs(s, {
          qp,
          kp,
          vp,
          queries: T,
          keys: T,
          heads,
          kvHeads,
          dim: dHead,
          dimV: dHead,
          scale: enc.scale ?? 1 / Math.sqrt(dHead),
          mask: causal ? ALIGN['top-left'] : 0,
          offset: 0,
          bias,
          outPtr,
          weightsPtr: wPtr,
          queryScale,
          chunk,
          window,
          names: ['q (tokens · wq)', 'k (tokens · wk)', 'v (tokens · wv)'],
        });
        const output = s.read(Float32Array, outPtr, nx);
        const pooled = new Float32Array(dModel);
        const acc = new Float64Array(dModel);
        for (let t = 0; t < T; t++) for (let c = 0; c < dModel; c++) acc[c] += output[t * dModel + c];
        for (let c = 0; c < dModel; c++) pooled[c] = acc[c] / T;
        return { output, weights: returnWeights ? s.read(Float32Array, wPtr, nWeights) : null, pooled };
      });
    },
  };
}
attentionFamily.core = 'attention'; // the smallest core with its C entry points (js/lite.js)

/** chunk: chunked local attention (a query sees only keys of its own chunk of positions); 0 = none. */
export function parseChunk(fn, value) {
  return int(fn, 'chunk', value, { min: 0, def: 0 });
}

/**
 * window: sliding-window attention (Mistral, Gemma, HF sliding_window): a query at position p
 * sees only keys j with |p − j| < window, so with a causal mask the keys in (p − window, p];
 * 0 or absent = none (fromConfig gives undefined on full-attention layers).
 */
export function parseWindow(fn, value) {
  return int(fn, 'window', value, { min: 0, def: 0 });
}

/**
 * queryScale: a Float32Array [queries] (or float32 PosencBuffer), or a function of a query's
 * absolute position returning its factor (what fromConfig gives: Llama 4 temperature tuning,
 * Qwen 1 logn). A function is called here, once per query, before anything reaches the heap;
 * every factor must be finite. Returns what Scope.in takes, or undefined.
 */
export function parseQueryScale(fn, value, queries, offset) {
  if (value === undefined) return undefined;
  if (typeof value !== 'function') {
    const a = arrayLike(value);
    if (!a || a.Type !== Float32Array) {
      const what = `a Float32Array [queries = ${queries}] or a function (position) => number`;
      throw fail(fn, 'queryScale', Status.E_PARAM, what, value);
    }
    return value;
  }
  const out = new Float32Array(queries);
  for (let i = 0; i < queries; i++) {
    let x;
    try {
      x = value(i + offset);
    } catch (e) {
      const why = e instanceof Error ? e.message : show(e);
      throw new PosencError(Status.E_PARAM, `posenc.${fn}: queryScale(${i + offset}) threw (${why})`, 'queryScale');
    }
    if (typeof x !== 'number' || !Number.isFinite(x)) {
      throw fail(fn, `queryScale(${i + offset})`, Status.E_PARAM, 'a finite number', x);
    }
    out[i] = x;
  }
  return out;
}

/** posenc_matmul, naming a non-finite or too large operand (an, bn) when C rejects the values. */
function matmulNamed(s, core, out, a, b, m, k, n, an, bn) {
  callNamed(
    s,
    core,
    'posenc_matmul',
    [out, a, b, m, k, n],
    [
      { name: an, ptr: a, n: m * k },
      { name: bn, ptr: b, n: k * n },
    ],
    (x) => ({
      name: `${an}, ${bn}`,
      allowed: `small enough that the products fit float32: ${k} · max|${an}| · max|${bn}| <= ${LOGIT_LIMIT}`,
      got: k * x[an] * x[bn],
    }),
  );
}

/** Which values broke the C core's float32 bound (POSENC_ATTENTION_ARGS in posenc.h), by name. */
function attentionRule(m, arrays, { keys, dim, scale, kind }) {
  const [q, k, v, ...t] = arrays.map((a) => a.name).filter((n) => n !== 'queryScale');
  const mq = m[q] * (m.queryScale ?? 1); // the scaled queries enter every dot product
  // the kind's own terms (js/encodings.js `bound`): table maxima in its tables' order
  const own = ENCODINGS[kind].bound?.(
    mq,
    m[k],
    t.map((n) => m[n]),
  ) ?? { dots: mq * m[k], extraV: 0, terms: 0 };
  if (keys * m[v] + own.extraV > LOGIT_LIMIT) {
    return {
      name: v,
      allowed: `at most ${LOGIT_LIMIT} / keys in magnitude (keys · max|${v}| is the float32 bound of the weighted sum)`,
      got: `max |${v}| = ${m[v]}`,
    };
  }
  const dots = own.dots;
  const names = [q, ...(m.queryScale !== undefined ? ['queryScale'] : []), k, ...t.slice(0, own.terms)].join(', ');
  const bound = dim * dots * Math.max(1, Math.abs(scale));
  if (bound > LOGIT_LIMIT) {
    return {
      name: names,
      allowed: `small enough that every logit fits float32: dim · max|q| · max|k| (+ table terms) · max(1, |scale|) <= ${LOGIT_LIMIT}`,
      got: bound,
    };
  }
  if (ENCODINGS[kind].addsTable && t[0]) {
    return {
      name: t[0],
      allowed: `at most ${LOGIT_LIMIT} − ${bound} (the q·k logit bound) where positive, so logits fit float32`,
      got: `max |${t[0]}| = ${m[t[0]]}`,
    };
  }
  return null;
}

/** selfAttention's encoding option -> a plan of what to add, rotate or bias. Options and
 * defaults come from the registry (js/encodings.js); the sizes that depend on the layer here. */
function parseEncoding(fn, encoding, { T, dModel, heads, dHead, causal }) {
  if (encoding === undefined) return { type: 'none' };
  const e = parseRegistered('selfAttention', encoding, {
    fn,
    prefix: 'encoding.',
    causal,
    dim: dHead,
    dimName: 'dModel / heads',
  });
  const name = (k) => `encoding.${k}`;
  const tableBias = (kind, rel, sizes, tail) => (s) => ({
    kind,
    rel,
    ptrs: () => [...sizes.map(([key, n]) => s.in(name(key), e[key], Float32Array, n)), ...tail],
    named: (x) => sizes.map(([key, n, rule], i) => ({ name: name(key), ptr: x[i], n, rule })),
  });
  switch (e.type) {
    case 'none':
      return e;
    case 'sinusoidal':
      if (dModel % 2) throw fail(fn, 'dModel', Status.E_ODD, "even for encoding 'sinusoidal'", dModel);
      return e;
    case 'learned': {
      const rows = rowsOf(
        fn,
        name('table'),
        e.table,
        dModel,
        `a Float32Array [rows >= length][dModel] (a positive multiple of ${dModel} long)`,
      );
      if (e.offset > Math.max(0, rows - T))
        throw fail(fn, name('offset'), Status.E_SIZE, `an integer in [0, ${Math.max(0, rows - T)}]`, e.offset);
      if (rows < T + e.offset)
        throw fail(
          fn,
          name('table'),
          Status.E_RANGE,
          `at least ${T + e.offset} rows of ${dModel} (length + offset)`,
          e.table,
        );
      return { ...e, tableRows: rows };
    }
    case 'rope':
      return {
        ...e,
        rotate: (s, core, qp, kp, kvHeads) =>
          ropeRotate(fn, s, core, {
            qp,
            kp,
            T,
            heads,
            kvHeads,
            dHead,
            freq: e.freq,
            offset: e.offset,
            layout: e.layout,
          }),
      };
    case 'xl': {
      if (dModel % 2) throw fail(fn, 'dModel', Status.E_ODD, "even for encoding 'xl'", dModel);
      const nw = elements(fn, 'dModel * dModel', dModel, dModel);
      return {
        ...e,
        bias: (s, core) => {
          // R rows in Transformer-XL order: row c encodes distance T-1-c (descending), with
          // T-1 more rows for the future distances -1 .. -(T-1) when nothing is masked.
          const rows = causal ? T : 2 * T - 1;
          const rp = s.alloc(Float32Array, rows * dModel, false);
          s.call('posenc_sinusoidal_fill', rp, rows, dModel, 10000, 1, 0, 0, T - rows); // ascending
          s.with(Float32Array, rp, rows * dModel, (asc) => {
            const desc = new Float32Array(rows * dModel);
            for (let c = 0; c < rows; c++)
              desc.set(asc.subarray((rows - 1 - c) * dModel, (rows - c) * dModel), c * dModel);
            asc.set(desc);
          });
          const wr = s.in(name('wr'), e.wr, Float32Array, nw);
          const rk = s.alloc(Float32Array, rows * dModel, false);
          matmulNamed(s, core, rk, rp, wr, rows, dModel, dModel, 'R (XL sinusoid)', name('wr'));
          return {
            kind: 'xl',
            rel: rows,
            ptrs: () => [
              s.in(name('u'), e.u, Float32Array, dModel),
              s.in(name('v'), e.v, Float32Array, dModel),
              rk,
              rows,
            ],
            named: (x) => [
              { name: name('u'), ptr: x[0], n: dModel },
              { name: name('v'), ptr: x[1], n: dModel },
              { name: `r (R · ${name('wr')})`, ptr: rk, n: rows * dModel },
            ],
          };
        },
      };
    }
    default: {
      // a bias fused into attention: its tables and scalars from its registry row
      const entry = ENCODINGS[e.type];
      if (!entry.cArgs) {
        throw new PosencError(Status.E_ENUM, `posenc.${fn}: encoding.type ${show(e.type)} is not supported`);
      }
      const rel = entry.rel?.(e) ?? 0;
      const sizes = tableSizes(fn, entry.tables(e, { heads, dim: dHead }), e, 'encoding.');
      return {
        ...e,
        ...(entry.defaultScale !== undefined && { scale: entry.defaultScale }),
        bias: tableBias(e.type, rel, sizes, entry.params(e, rel)),
      };
    }
  }
}

/** RoPE on q and k ([T][heads][dHead], in place on the heap) through the RoPE family's C.
 * Frequencies and the attention scale come from families/rope/rope.js, so this is applyRope on each. */
function ropeRotate(fn, s, core, { qp, kp, T, heads, kvHeads = heads, dHead, freq, offset, layout }) {
  if (typeof core.exports.posenc_rope_apply !== 'function') {
    throw new PosencError(
      Status.E_PARAM,
      `posenc.${fn}: encoding 'rope' needs the RoPE core (posenc_rope_apply), which this build lacks`,
    );
  }
  // an absent dynamic/longrope seqLen is the largest position + 1, as applyRope takes it
  const { inv, attentionScale } = ropeFreqsOnHeap(core, s, fn, freq, Math.max(0, offset + T));
  const n = s.call('posenc_rope_scratch_size', freq.rotaryDim);
  const scratch = s.alloc(Float32Array, n, false);
  for (const [x, hx] of [
    [qp, heads],
    [kp, kvHeads],
  ]) {
    s.call(
      'posenc_rope_apply',
      x,
      T,
      hx,
      dHead,
      freq.rotaryDim,
      layout,
      0 /* THD */,
      inv,
      attentionScale,
      offset,
      scratch,
      n,
    );
  }
}
