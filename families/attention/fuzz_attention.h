/* The fuzz steps of families/attention: matmul and attention (grouped heads, any bias kind: bias_draw in fuzz_core.c).
 * One `static int32_t f_<name>(cursor *c, sizes z)` per entry point, its row in ENTRIES generated
 * from decl.js. tests/fuzz/fuzz_core.c includes this file (the list tools/gen_decls.js writes)
 * after its helpers: cursor, sizes, IN, OUT, NEED, ALLOC, the bias draw. */
static int32_t f_matmul(cursor *c, sizes z) {
    NEED(prod(z.a, z.b));
    NEED(prod(z.b, z.d));
    NEED(prod(z.a, z.d));
    float *a = IN(prod(z.a, z.b)), *b = IN(prod(z.b, z.d));
    return posenc_matmul(OUT(prod(z.a, z.d)), a, b, z.a, z.b, z.d);
}

/* attention (heads 1..8, kv_heads kv_of(heads)): queries a, keys b, dim d, dim_v e, any bias */
static int32_t f_attention_gqa(cursor *c, sizes z) {
    const int32_t h = 1 + u8(c) % 8, kvh = kv_of(c, h);
    const int32_t q = z.a, k = z.b, dim = z.d, dv = u8(c) & 1 ? z.d : z.e;
    bias_draw bd;
    bias_kind(c, &bd, 0);
    bd.h = h, bd.dim = dim, bd.dv = dv, bd.q = q, bd.tables = k;
    int32_t scratch_n = 0;
    /* a kv_heads that does not divide heads gets the scratch of kv_heads 1 (the largest), so
     * the call itself has to refuse it */
    const int32_t st_size = posenc_attention_gqa_scratch_size(
        &scratch_n, q, k, h, kv_divides(h, kvh) ? kvh : 1, dim, dv, &bd.b);
    if (st_size || scratch_n > CAP) return 0;
    NEED(prod3(q, h, dim));
    NEED(prod3(k, kvh, dim));
    NEED(prod3(k, kvh, dv));
    NEED(prod3(q, h, dv));
    NEED(prod3(h, q, k));
    float *Q = IN(prod3(q, h, dim)), *K = IN(prod3(k, kvh, dim)), *V = IN(prod3(k, kvh, dv));
    float *O = OUT(prod3(q, h, dv)), *W = u8(c) & 1 ? OUT(prod3(h, q, k)) : NULL;
    int32_t short_scratch = u8(c) == 9;
    float *S = OUT(scratch_n - short_scratch);
    const double scale = real(c);
    const int mask = u8(c) % 4;
    const int32_t offset = small(c), sn = scratch_n - short_scratch;
    if (!bias_tables(c, &bd)) return 0;
    const int32_t st = posenc_attention_gqa(O, W, Q, K, V, q, k, h, dim, dv, scale, mask, offset, S,
                                            sn, kvh, u8(c) == 3 ? NULL : &bd.b);
    /* a kv_heads that does not divide heads must have been refused */
    return st == POSENC_OK && !kv_divides(h, kvh) ? -100 : st;
}
static int32_t f_attention_gqa_scratch_size(cursor *c, sizes z) {
    int32_t n = 0;
    const int32_t h = size(c);
    bias_draw bd;
    bias_kind(c, &bd, 0);
    return posenc_attention_gqa_scratch_size(u8(c) == 5 ? NULL : &n, z.a, z.b, h,
                                             kv_of(c, h > 8   ? 8
                                                      : h > 0 ? h
                                                              : 1),
                                             z.d, z.e, u8(c) == 6 ? NULL : &bd.b);
}
