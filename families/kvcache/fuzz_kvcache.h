/* The fuzz steps of families/kvcache: the KV cache: size, store, scratch and attend (any bias kind: bias_draw in fuzz_core.c).
 * One `static int32_t f_<name>(cursor *c, sizes z)` per entry point, its row in ENTRIES generated
 * from decl.js. tests/fuzz/fuzz_core.c includes this file (the list tools/gen_decls.js writes)
 * after its helpers: cursor, sizes, IN, OUT, NEED, ALLOC, the bias draw. */
/* KV cache: kv_heads, dim, dim_v, capacity; NULL outputs now and then */
static int32_t f_kvcache_size(cursor *c, sizes z) {
    int32_t nk = 0, nv = 0;
    const int null = u8(c) % 8;
    return posenc_kvcache_size(null == 1 ? NULL : &nk, null == 2 ? NULL : &nv, z.a, z.d, z.e, z.b);
}
/* a zeroed cache for kv_heads kvh, dim, dim_v, capacity (one-element buffers when the sizes are
 * invalid); 0 when the cache would exceed CAP */
typedef struct {
    float *kc, *vc, *state;
} kvcache;
static int kvcache_make(kvcache *kv, int32_t kvh, int32_t dim, int32_t dv, int32_t cap) {
    int32_t nk = 0, nv = 0;
    if (posenc_kvcache_size(&nk, &nv, kvh, dim, dv, cap)) nk = nv = 0;
    if (nk > CAP || nv > CAP) return 0;
    kv->kc = zeros(nk), kv->vc = zeros(nv), kv->state = zeros(2);
    return 1;
}
static int32_t f_kvcache_store(cursor *c, sizes z) {
    /* n tokens a at slot `length` of a cache of capacity b; dim d, dim_v e, kv_heads 1..4 */
    const int32_t kvh = u8(c) == 7 ? size(c) : 1 + u8(c) % 4, n = z.a, cap = z.b;
    const int32_t length = u8(c) & 1 ? size(c) : 0;
    kvcache kv;
    if (!kvcache_make(&kv, kvh, z.d, z.e, cap)) return 0;
    NEED(prod3(n, kvh, z.d));
    NEED(prod3(n, kvh, z.e));
    float *k = IN(prod3(n, kvh, z.d)), *v = IN(prod3(n, kvh, z.e));
    return posenc_kvcache_store(kv.kc, kv.vc, kv.state, k, v, n, length, cap, kvh, z.d, z.e);
}
static int32_t f_kvcache_scratch_size(cursor *c, sizes z) {
    int32_t n = 0;
    const int32_t h = size(c);
    bias_draw bd;
    bias_kind(c, &bd, 0); /* XL included: the cache must refuse it */
    return posenc_kvcache_scratch_size(u8(c) == 5 ? NULL : &n, z.a, z.b, h,
                                       kv_of(c, h > 8   ? 8
                                                : h > 0 ? h
                                                        : 1),
                                       z.d, z.e, u8(c) == 6 ? NULL : &bd.b);
}

/* attend: queries a (or, now and then, 1 + a % length) of a cache holding `length` <=
 * capacity b tokens (stored in one or two appends, so attend reads real data), dim d, dim_v e,
 * heads 1..8, kv_heads kv_of(heads). The scalar arguments are drawn before the cache contents,
 * so they stay fuzz-chosen when a long cache uses up the data. */
static int32_t f_kvcache_attend(cursor *c, sizes z) {
    const int32_t h = 1 + u8(c) % 8, kvh = kv_of(c, h), cap = z.b, dim = z.d,
                  dv = u8(c) & 1 ? z.d : z.e;
    int32_t length = cap;
    const uint8_t lb = u8(c);
    if (lb < 200 && cap > 0)
        length = 1 + lb % cap;
    else if (lb >= 250)
        length = (int32_t)(lb % 3) - 1;
    const int32_t q = u8(c) & 1 && z.a > 0 && length > 0 ? 1 + z.a % length : z.a;
    bias_draw bd;
    bias_kind(c, &bd, 1);
    bd.h = h, bd.dim = dim, bd.dv = dv, bd.q = q, bd.tables = length;
    const int short_scratch = u8(c) == 9;
    const double scale = real(c);
    /* window -8 .. 7 (negative must be refused); 0, no window, once the data runs out */
    const int32_t window = (int8_t)u8(c) / 16;
    kvcache kv;
    if (!kvcache_make(&kv, kvh, dim, dv, cap)) return 0;
    if (length > 0 && length <= cap) {
        NEED(prod3(length, kvh, dim));
        NEED(prod3(length, kvh, dv));
        const int32_t first = 1 + u8(c) % length; /* tokens in the first append */
        float *k = IN(prod3(length, kvh, dim)), *v = IN(prod3(length, kvh, dv));
        int32_t st =
            posenc_kvcache_store(kv.kc, kv.vc, kv.state, k, v, first, 0, cap, kvh, dim, dv);
        if (st == POSENC_OK && first < length)
            st = posenc_kvcache_store(kv.kc, kv.vc, kv.state, k + (size_t)first * kvh * dim,
                                      v + (size_t)first * kvh * dv, length - first, first, cap, kvh,
                                      dim, dv);
        if (st < -9 || st > 0) return st;
    }
    int32_t scratch_n = 0;
    if (posenc_kvcache_scratch_size(&scratch_n, q, length, h, kv_divides(h, kvh) ? kvh : 1, dim, dv,
                                    &bd.b) ||
        scratch_n > CAP)
        return 0;
    NEED(prod3(q, h, dim));
    NEED(prod3(q, h, dv));
    float *Q = IN(prod3(q, h, dim)), *O = OUT(prod3(q, h, dv));
    float *S = OUT(scratch_n - short_scratch);
    const int32_t sn = scratch_n - short_scratch;
    if (bd.b.kind != POSENC_BIAS_NONE && !bias_tables(c, &bd)) return 0;
    if (bd.b.kind == POSENC_BIAS_NONE && u8(c) % 4 == 0) bd.b.query_scale = IN(q > 0 ? q : 0);
    const int32_t st =
        posenc_kvcache_attend(O, Q, kv.kc, kv.vc, kv.state, cap, length, q, h, kvh, dim, dv, scale,
                              window, S, sn, u8(c) == 3 ? NULL : &bd.b);
    return st == POSENC_OK && !kv_divides(h, kvh) ? -100 : st;
}
