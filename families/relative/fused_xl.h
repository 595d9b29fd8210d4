/*
 * fused_xl.h -- Transformer-XL (Dai et al. 2019; relative.md) fused into the attention loop: its steps of
 * families/attention/attention.c's bias_ops (the comment above that struct says what each does). attention.c
 * includes it through the generated c_src/bias_kinds.h, so the steps inline as if written there.
 * A step left out takes its default there (no rows, no scratch, no setup, prescaled 1); one
 * written but not named by its #define is an unused static function, a compile error.
 */
/* XL: content bias u.k_j and the position term (q_i + v).r[c], scaled after they are added */
static int32_t check_xl(const job *jb, int64_t *rel) {
    if (jb->kpk) return POSENC_E_ENUM;
    if (!jb->b.u || !jb->b.vb || !jb->b.r) return POSENC_E_NULL;
    if (posenc__check_elems3(jb->b.r_rows, jb->H, jb->D)) return POSENC_E_SIZE;
    *rel = jb->b.r_rows;
    return POSENC_OK;
}
static int32_t rows_xl(const posenc_bias *b, int packed, int64_t *rel) {
    if (packed) return POSENC_E_ENUM; /* its u.k_j needs the keys unpacked (head_setup_xl) */
    *rel = b->r_rows;
    return *rel < 1 || *rel > POSENC_MAX_ELEMENTS ? POSENC_E_SIZE : POSENC_OK;
}
static void plan_xl(plan *pl, int64_t Q, int64_t K, int64_t D, int64_t rel, int64_t G) {
    (void)Q, (void)G;
    TAKE(pl, xr, (rel + PW - 1) / PW * PW * D);
    TAKE(pl, uk, K);
    TAKE(pl, qv, QB * D);
    TAKE(pl, g, QB * GW);
}
static int32_t values_xl(const job *jb, int64_t rel, double mq, double mk, double *dots,
                         double *bias, double *extra_v) {
    (void)bias, (void)extra_v;
    const size_t hd = (size_t)jb->H * jb->D;
    const double mu = posenc__max_abs(jb->b.u, hd), mvb = posenc__max_abs(jb->b.vb, hd);
    const double mr = posenc__max_abs(jb->b.r, (size_t)rel * hd);
    if (!(mu < INFINITY && mvb < INFINITY && mr < INFINITY)) return POSENC_E_PARAM;
    *dots = (mq + mu) * mk + (mq + mvb) * mr;
    return POSENC_OK;
}
static void pack_k(float *dst, const float *src, size_t stride, int32_t n, int32_t w);
static void head_setup_xl(const job *jb, ctx *cx, int32_t h, int32_t g) {
    const int32_t D = jb->D;
    pack_k(cx->xr, jb->b.r + (size_t)h * D, (size_t)jb->H * D, jb->b.r_rows, D);
    for (int32_t j = 0; j < jb->K; j++)
        cx->uk[j] = dot(jb->b.u + (size_t)h * D, jb->k + ((size_t)j * jb->KVH + g) * D, D);
}
static void block_setup_xl(const job *jb, ctx *cx) {
    for (int r = 0; r < QB; r++)
        for (int32_t d = 0; d < jb->D; d++)
            cx->qv[(size_t)d * QB + r] = cx->qrow[r][d] + jb->b.vb[(size_t)cx->hh[r] * jb->D + d];
}
static inline void add_xl(const job *jb, const ctx *cx, int r, float *t, int32_t j0, int32_t n) {
    /* the position term (q_i + v).r[c], c = j + K-1 - ipos: the four rows (one head, ascending
     * queries) need r rows [a, b], computed once for all of them (at r = 0) on panel-aligned
     * rows */
    const int32_t D = jb->D, K = jb->K, last = jb->b.r_rows - 1;
    const int32_t a = clamp_i64(j0 + (int64_t)K - 1 - cx->ipos[QB - 1], 0, last);
    const int32_t pa = a / PW;
    if (r == 0) {
        const int32_t b = clamp_i64(j0 + (int64_t)n - 1 + K - 1 - cx->ipos[0], 0, last);
        kernel_qk_t(cx->qv, cx->xr + (size_t)pa * D * PW, b / PW - pa + 1, D, 1.0f, cx->g, GW);
    }
    for (int32_t c = 0; c < n; c++) {
        const int64_t j = j0 + c;
        const int32_t row = clamp_i64(j + K - 1 - cx->ipos[r], 0, last);
        t[c] = (t[c] + cx->uk[j] + cx->g[r * GW + row - pa * PW]) * jb->scale;
    }
}

/* the steps this kind has beyond check, values and add */
#define ROWS_XL        rows_xl
#define PLAN_XL        plan_xl
#define HEAD_SETUP_XL  head_setup_xl
#define BLOCK_SETUP_XL block_setup_xl
#define PRESCALED_XL   0
