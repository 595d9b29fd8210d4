/* The fuzz steps of families/rope: RoPE: the frequencies (every scaling), caches, M-RoPE tables and the apply variants.
 * One `static int32_t f_<name>(cursor *c, sizes z)` per entry point, its row in ENTRIES generated
 * from decl.js. tests/fuzz/fuzz_core.c includes this file (the list tools/gen_decls.js writes)
 * after its helpers: cursor, sizes, IN, OUT, NEED, ALLOC, the bias draw. */
static int32_t f_rope_scaling_init(cursor *c, sizes z) {
    (void)z;
    posenc_rope_scaling s;
    return posenc_rope_scaling_init(u8(c) & 1 ? &s : NULL, u8(c) % 9);
}
static int32_t f_rope_freqs(cursor *c, sizes z) {
    int32_t rd = u8(c) & 1 ? z.a : rotary(c, 64);
    NEED(rd / 2 + 1);
    posenc_rope_scaling s;
    const int type = u8(c) % 8;
    const int ok = posenc_rope_scaling_init(&s, type) == POSENC_OK;
    if (ok) {
        double *f[] = {&s.factor,           &s.original_max_positions,
                       &s.max_positions,    &s.seq_len,
                       &s.beta_fast,        &s.beta_slow,
                       &s.attention_factor, &s.mscale,
                       &s.mscale_all_dim,   &s.low_freq_factor,
                       &s.high_freq_factor};
        for (int i = 0; i < 11; i++)
            if (u8(c) & 1) *f[i] = real(c);
        s.truncate = u8(c) & 1;
        if (rd > 0) {
            double *sf = ALLOC(double, rd / 2), *lf = ALLOC(double, rd / 2);
            for (int32_t i = 0; i < rd / 2; i++) sf[i] = real(c), lf[i] = real(c);
            s.short_factor = u8(c) == 7 ? NULL : sf;
            s.long_factor = lf;
        }
    }
    double *inv = ALLOC(double, rd > 0 ? rd / 2 : 1);
    return posenc_rope_freqs(inv, &(double){0}, rd, real(c), ok && (u8(c) & 1) ? &s : NULL);
}
static int32_t f_rope_cache_fill(cursor *c, sizes z) {
    int32_t np = z.b > 64 ? 64 : z.b;
    NEED(prod(z.a, np));
    double *inv = inv_for(2 * np);
    if (!inv) inv = ALLOC(double, 1), inv[0] = real(c);
    return posenc_rope_cache_fill(OUT(prod(z.a, np)), OUT(prod(z.a, np)), z.a, np, inv, real(c),
                                  real(c));
}
static int32_t f_rope_mrope_fill(cursor *c, sizes z) {
    int32_t np = z.b > 64 ? 64 : z.b;
    NEED(prod(z.a, np));
    NEED(prod(3, z.a));
    double *inv = inv_for(2 * np);
    if (!inv) inv = ALLOC(double, 1), inv[0] = real(c);
    const int64_t n = count(prod(3, z.a));
    double *pos = ALLOC(double, n);
    for (int64_t i = 0; i < n; i++) pos[i] = u8(c) & 1 ? real(c) * small(c) : (double)small(c);
    /* sections summing to np, or off by a small amount now and then */
    const int32_t m = np > 0 ? np : 0, h = u8(c) % (m + 1), w = u8(c) % (m - h + 1);
    const int32_t t = m - h - w + (u8(c) == 255 ? small(c) : 0);
    return posenc_rope_mrope_fill(OUT(prod(z.a, np)), OUT(prod(z.a, np)), z.a, np, inv, real(c),
                                  pos, t, h, w, u8(c) % 3);
}
static int32_t f_rope_scratch_size(cursor *c, sizes z) {
    (void)c;
    int32_t n = posenc_rope_scratch_size(z.a);
    return n > 0 ? POSENC_OK : n;
}

/* the cache-free apply variants share sizes: x [a][b][d], rotary rd, inv, scratch */
typedef struct {
    float *x;
    int32_t rd;
    double *inv;
    float *scr;
    int32_t slen;
    int layout, order;
} rope_args;
static int rope_setup(cursor *c, sizes z, int32_t rd_div, rope_args *r) {
    if (prod3(z.a, z.b, z.d) > CAP) return 0;
    r->rd = rotary(c, z.d);
    if (rd_div == 2 && r->rd % 4) r->rd = r->rd >= 4 ? r->rd - 2 : 4;
    r->inv = inv_for(r->rd / rd_div);
    r->slen = posenc_rope_scratch_size(r->rd / rd_div);
    if (!r->inv || r->slen < 0 || r->slen > CAP) return 0;
    r->x = IN(prod3(z.a, z.b, z.d));
    if (u8(c) == 9) r->slen--; /* a short scratch must be refused, not overrun */
    r->scr = OUT(r->slen);
    r->layout = u8(c) & 1;
    r->order = u8(c) & 1;
    return 1;
}
static int32_t f_rope_apply(cursor *c, sizes z) {
    rope_args r;
    if (!rope_setup(c, z, 1, &r)) return 0;
    return posenc_rope_apply(r.x, z.a, z.b, z.d, r.rd, r.layout, r.order, r.inv, real(c), real(c),
                             r.scr, r.slen);
}
static int32_t f_rope_apply_positions(cursor *c, sizes z) {
    rope_args r;
    if (!rope_setup(c, z, 1, &r)) return 0;
    int32_t *pos = ints_in(c, z.a, -100);
    return posenc_rope_apply_positions(r.x, z.a, z.b, z.d, r.rd, r.layout, r.order, r.inv, real(c),
                                       pos, r.scr, r.slen);
}
static int32_t f_rope_apply_positions_f32(cursor *c, sizes z) {
    rope_args r;
    if (!rope_setup(c, z, 1, &r)) return 0;
    float *pos = IN(z.a);
    return posenc_rope_apply_positions_f32(r.x, z.a, z.b, z.d, r.rd, r.layout, r.order, r.inv,
                                           real(c), pos, r.scr, r.slen);
}
static int32_t f_rope_apply_xpos(cursor *c, sizes z) {
    rope_args r;
    if (!rope_setup(c, z, 1, &r)) return 0;
    int32_t *pos = u8(c) & 1 ? ints_in(c, z.a, -100) : NULL;
    const double scale = real(c), offset = real(c), base = real(c), center = real(c);
    return posenc_rope_apply_xpos(r.x, z.a, z.b, z.d, r.rd, r.layout, r.order, r.inv, scale, offset,
                                  pos, base, center, u8(c) & 1, r.scr, r.slen);
}
static int32_t f_rope_apply_axial(cursor *c, sizes z) {
    /* x [a*e][b][d]: height a, width e */
    sizes g = {(int32_t)(prod(z.a, z.e) > CAP ? CAP + 1 : prod(z.a, z.e)), z.b, z.d, 0};
    if (z.a <= 0 || z.e <= 0) g.a = 0;
    rope_args r;
    if (!rope_setup(c, g, 2, &r)) return 0;
    return posenc_rope_apply_axial(r.x, z.a, z.e, z.b, z.d, r.rd, r.layout, r.order, r.inv, real(c),
                                   r.scr, r.slen);
}
static int32_t f_rope_apply_cached(cursor *c, sizes z) {
    NEED(prod3(z.a, z.b, z.d));
    int32_t rd = rotary(c, z.d), rows = size(c);
    NEED(prod(rows, rd / 2 > 0 ? rd / 2 : 1));
    float *x = IN(prod3(z.a, z.b, z.d));
    float *cs = IN(prod(rows, rd / 2)), *sn = IN(prod(rows, rd / 2));
    int32_t *pos = u8(c) & 1 ? ints_in(c, z.a, -5) : NULL;
    return posenc_rope_apply_cached(x, z.a, z.b, z.d, rd, u8(c) & 1, u8(c) & 1, cs, sn, rows, pos,
                                    small(c));
}
static int32_t f_rope_decay(cursor *c, sizes z) {
    NEED(z.b + 1);
    NEED(prod(z.b + 1, z.a));
    return posenc_rope_decay(ALLOC(double, z.b >= 0 ? z.b + 1 : 1), z.a, real(c), z.b);
}
