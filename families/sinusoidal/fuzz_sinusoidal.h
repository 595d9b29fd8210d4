/* The fuzz steps of families/sinusoidal: the sinusoidal tables, frequencies and similarity.
 * One `static int32_t f_<name>(cursor *c, sizes z)` per entry point, its row in ENTRIES generated
 * from decl.js. tests/fuzz/fuzz_core.c includes this file (the list tools/gen_decls.js writes)
 * after its helpers: cursor, sizes, IN, OUT, NEED, ALLOC, the bias draw. */
static int32_t f_sinusoidal_freqs(cursor *c, sizes z) {
    NEED(z.a / 2 + 1);
    double *o = ALLOC(double, z.a > 0 ? (z.a + 1) / 2 : 1);
    int32_t count = -1;
    return posenc_sinusoidal_freqs(o, &count, z.a, real(c), u8(c) % 3, u8(c) % 4);
}
static int32_t f_sinusoidal_fill(cursor *c, sizes z) {
    NEED(prod(z.a, z.b));
    return posenc_sinusoidal_fill(OUT(prod(z.a, z.b)), z.a, z.b, real(c), u8(c) % 3, u8(c) % 3,
                                  u8(c) % 4, real(c));
}
static int32_t f_sinusoidal2d_fill(cursor *c, sizes z) {
    NEED(prod(prod(z.a, z.b) + 1, z.d));
    return posenc_sinusoidal2d_fill(OUT(prod(prod(z.a, z.b) + 1, z.d)), z.a, z.b, z.d, real(c),
                                    u8(c) & 1);
}
static int32_t f_similarity(cursor *c, sizes z) {
    NEED(prod(z.a, z.b));
    NEED(prod(z.a, z.a));
    float *t = IN(prod(z.a, z.b));
    return posenc_similarity(OUT(prod(z.a, z.a)), t, z.a, z.b, u8(c) & 1);
}
