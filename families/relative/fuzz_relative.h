/* The fuzz steps of families/relative: ALiBi, T5 buckets and bias, Shaw indices, Transformer-XL positions, shift and scores.
 * One `static int32_t f_<name>(cursor *c, sizes z)` per entry point, its row in ENTRIES generated
 * from decl.js. tests/fuzz/fuzz_core.c includes this file (the list tools/gen_decls.js writes)
 * after its helpers: cursor, sizes, IN, OUT, NEED, ALLOC, the bias draw. */
static int32_t f_alibi_slopes(cursor *c, sizes z) {
    (void)c;
    NEED(z.a);
    return posenc_alibi_slopes(OUT(z.a), z.a);
}
static int32_t f_alibi_bias(cursor *c, sizes z) {
    NEED(prod3(z.a, z.b, z.d));
    return posenc_alibi_bias(OUT(prod3(z.a, z.b, z.d)), z.a, z.b, z.d, u8(c) % 4, u8(c) & 1,
                             small(c));
}
static int32_t f_t5_buckets(cursor *c, sizes z) {
    NEED(prod(z.a, z.b));
    return posenc_t5_buckets(ALLOC(int32_t, prod(z.a, z.b)), z.a, z.b, u8(c) & 1, z.d, z.e,
                             small(c));
}
static int32_t f_t5_bias(cursor *c, sizes z) {
    /* heads a, queries b, keys d, buckets e */
    NEED(prod3(z.a, z.b, z.d));
    NEED(prod(z.e, z.a));
    float *w = IN(prod(z.e, z.a));
    return posenc_t5_bias(OUT(prod3(z.a, z.b, z.d)), w, z.a, z.b, z.d, u8(c) & 1, z.e, size(c),
                          small(c));
}
static int32_t f_shaw_indices(cursor *c, sizes z) {
    NEED(prod(z.a, z.b));
    return posenc_shaw_indices(ALLOC(int32_t, prod(z.a, z.b)), z.a, z.b, z.d, small(c));
}
static int32_t f_xl_positions(cursor *c, sizes z) {
    NEED(prod(z.a, z.b));
    return posenc_xl_positions(OUT(prod(z.a, z.b)), z.a, z.b, real(c), small(c));
}
static int32_t f_xl_rel_shift(cursor *c, sizes z) {
    /* x and out are [queries][queries + memory]; out may be x */
    int64_t k = (int64_t)z.a + (z.b > 0 ? z.b : 0);
    NEED(prod(z.a, k));
    float *x = IN(prod(z.a, k));
    return posenc_xl_rel_shift(u8(c) & 1 ? x : OUT(prod(z.a, k)), x, z.a, z.b);
}
static int32_t f_xl_scores(cursor *c, sizes z) {
    /* queries a, keys a + memory b, heads 1 + e % 3, dim d */
    const int64_t kk = (int64_t)z.a + (z.b > 0 ? z.b : 0);
    int32_t h = 1 + (z.e > 0 ? z.e % 3 : 0), keys = kk > INT32_MAX ? INT32_MAX : (int32_t)kk;
    if (u8(c) == 3) keys = z.b; /* keys < queries now and then */
    NEED(prod3(h, z.a, keys));
    NEED(prod3(keys, h, z.d));
    float *q = IN(prod3(z.a, h, z.d)), *k = IN(prod3(keys, h, z.d)), *r = IN(prod3(keys, h, z.d));
    float *u = IN(prod(h, z.d)), *v = IN(prod(h, z.d));
    return posenc_xl_scores(OUT(prod3(h, z.a, keys)), q, k, r, u, v, z.a, keys, h, z.d, real(c));
}
