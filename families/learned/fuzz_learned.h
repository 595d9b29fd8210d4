/* The fuzz steps of families/learned: the learned table: init, gather, add and concat.
 * One `static int32_t f_<name>(cursor *c, sizes z)` per entry point, its row in ENTRIES generated
 * from decl.js. tests/fuzz/fuzz_core.c includes this file (the list tools/gen_decls.js writes)
 * after its helpers: cursor, sizes, IN, OUT, NEED, ALLOC, the bias draw. */
static int32_t f_learned_init(cursor *c, sizes z) {
    NEED(prod(z.a, z.b));
    uint32_t seed = (uint32_t)u8(c) << 24 | u8(c);
    return posenc_learned_init(OUT(prod(z.a, z.b)), z.a, z.b, real(c), seed, u8(c) & 1);
}
static int32_t f_learned_gather(cursor *c, sizes z) {
    /* table [a][b], count d */
    NEED(prod(z.d, z.b));
    NEED(prod(z.a, z.b));
    NEED(z.d);
    float *t = IN(prod(z.a, z.b));
    int32_t *pos = ints_in(c, z.d, -20);
    return posenc_learned_gather(OUT(prod(z.d, z.b)), t, z.a, z.b, pos, z.d, u8(c) % 4);
}
static int32_t f_learned_add(cursor *c, sizes z) {
    /* table [rows a][dim d], x [length b][dim d] */
    NEED(prod(z.a, z.d));
    NEED(prod(z.b, z.d));
    float *x = IN(prod(z.b, z.d)), *t = IN(prod(z.a, z.d));
    return posenc_learned_add(x, t, z.a, z.b, z.d, small(c), NULL);
}
static int32_t f_learned_concat(cursor *c, sizes z) {
    /* table [rows a][dim_p e], x [length b][dim_x d] */
    NEED(prod(z.a, z.e));
    NEED(prod(z.b, z.d));
    NEED(prod(z.b, (int64_t)z.d + z.e));
    float *x = IN(prod(z.b, z.d)), *t = IN(prod(z.a, z.e));
    int64_t no = z.d > 0 && z.e > 0 ? prod(z.b, (int64_t)z.d + z.e) : 0;
    return posenc_learned_concat(OUT(no), x, t, z.a, z.b, z.d, z.e, small(c));
}
