/*
 * fused_shaw.h -- Shaw et al. 2018 (relative.md) fused into the attention loop: its steps of
 * families/attention/attention.c's bias_ops (the comment above that struct says what each does). attention.c
 * includes it through the generated c_src/bias_kinds.h, so the steps inline as if written there.
 * A step left out takes its default there (no rows, no scratch, no setup, prescaled 1); one
 * written but not named by its #define is an unused static function, a compile error.
 */
/* SHAW: q . aK[clip(rp)] in the logit, sum_j p_ij aV[clip(rp)] in the output (run_block) */
static int32_t check_shaw(const job *jb, int64_t *rel) {
    if (!jb->b.a_k || !jb->b.a_v) return POSENC_E_NULL;
    if (jb->b.max_relative < 1 || jb->b.max_relative >= (1 << 27)) return POSENC_E_SIZE;
    *rel = jb->b.max_relative;
    if (posenc__check_elems2(2 * *rel + 1, jb->D) || posenc__check_elems2(2 * *rel + 1, jb->DV))
        return POSENC_E_SIZE;
    return POSENC_OK;
}
static int32_t rows_shaw(const posenc_bias *b, int packed, int64_t *rel) {
    (void)packed;
    *rel = b->max_relative;
    return *rel < 1 || *rel > POSENC_MAX_ELEMENTS ? POSENC_E_SIZE : POSENC_OK;
}
static void plan_shaw(plan *pl, int64_t Q, int64_t K, int64_t D, int64_t rel, int64_t G) {
    (void)Q, (void)K, (void)D, (void)G;
    TAKE(pl, qak, QB * (2 * rel + 1));
    TAKE(pl, mass, QB * (2 * rel + 1));
}
static int32_t values_shaw(const job *jb, int64_t rel, double mq, double mk, double *dots,
                           double *bias, double *extra_v) {
    (void)mk, (void)bias;
    const double mak = posenc__max_abs(jb->b.a_k, (size_t)(2 * rel + 1) * (size_t)jb->D);
    *extra_v = posenc__max_abs(jb->b.a_v, (size_t)(2 * rel + 1) * (size_t)jb->DV);
    if (!(mak < INFINITY && *extra_v < INFINITY)) return POSENC_E_PARAM;
    *dots += mq * mak;
    return POSENC_OK;
}
static void block_setup_shaw(const job *jb, ctx *cx) {
    const int32_t R = 2 * jb->b.max_relative + 1;
    for (int r = 0; r < QB; r++)
        for (int32_t b = 0; b < R; b++)
            cx->qak[(size_t)r * R + b] = dot(cx->qrow[r], jb->b.a_k + (size_t)b * jb->D, jb->D);
    memset(cx->mass, 0, sizeof(float) * QB * (size_t)R);
}
static inline void add_shaw(const job *jb, const ctx *cx, int r, float *t, int32_t j0, int32_t n) {
    const int32_t kr = jb->b.max_relative;
    const float *qa = cx->qak + (size_t)r * (2 * kr + 1);
    for (int32_t c = 0; c < n; c++) {
        const int64_t rp = j0 + c - cx->ipos[r];
        t[c] += jb->scale * qa[clamp_i64(rp, -kr, kr) + kr];
    }
}

/* the steps this kind has beyond check, values and add */
#define ROWS_SHAW        rows_shaw
#define PLAN_SHAW        plan_shaw
#define BLOCK_SETUP_SHAW block_setup_shaw
