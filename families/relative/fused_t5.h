/*
 * fused_t5.h -- T5's relative buckets (Raffel et al. 2020; t5.md) fused into the attention loop: its steps of
 * families/attention/attention.c's bias_ops (the comment above that struct says what each does). attention.c
 * includes it through the generated c_src/bias_kinds.h, so the steps inline as if written there.
 * A step left out takes its default there (no rows, no scratch, no setup, prescaled 1); one
 * written but not named by its #define is an unused static function, a compile error.
 */
/* T5: a learned scalar per bucket of rp and head */
static int32_t check_t5(const job *jb, int64_t *rel) {
    (void)rel;
    if (!jb->b.table) return POSENC_E_NULL;
    const int32_t nb = jb->b.num_buckets;
    if (posenc__check_elems2(nb, jb->H)) return POSENC_E_SIZE;
    if (nb < (jb->b.bidirectional ? 4 : 2)) return POSENC_E_SIZE;
    if (jb->b.max_distance <= posenc__t5_max_exact(jb->b.bidirectional, nb)) return POSENC_E_PARAM;
    return POSENC_OK;
}
static void plan_t5(plan *pl, int64_t Q, int64_t K, int64_t D, int64_t rel, int64_t G) {
    (void)D, (void)rel;
    TAKE(pl, t5b, Q + K - 1); /* bucket per relative position, shared by the group's heads */
    TAKE(pl, t5, G * (Q + K - 1));
}
static int32_t values_t5(const job *jb, int64_t rel, double mq, double mk, double *dots,
                         double *bias, double *extra_v) {
    (void)rel, (void)mq, (void)mk, (void)dots, (void)extra_v;
    const size_t n = (size_t)jb->b.num_buckets * (size_t)jb->H;
    if (!(posenc__max_abs(jb->b.table, n) < INFINITY)) return POSENC_E_PARAM;
    for (size_t i = 0; i < n; i++)
        if (jb->b.table[i] > *bias) *bias = jb->b.table[i];
    return POSENC_OK;
}
static void call_setup_t5(const job *jb, const plan *pl, float *scratch) {
    int32_t *b = (int32_t *)(void *)(scratch + pl->t5b);
    for (int32_t t = 0; t < jb->Q + jb->K - 1; t++) {
        const int64_t rp = (int64_t)t - ((int64_t)jb->offset + jb->Q - 1);
        b[t] = posenc__t5_bucket(rp, jb->b.bidirectional ? 1 : 0, jb->b.num_buckets,
                                 jb->b.max_distance);
    }
}
static void group_setup_t5(const job *jb, ctx *cx, int32_t g) {
    const int32_t G = jb->H / jb->KVH, n = jb->Q + jb->K - 1;
    for (int32_t hl = 0; hl < G; hl++) {
        const int32_t h = g * G + hl;
        float *t5 = cx->t5 + (size_t)hl * n;
        for (int32_t t = 0; t < n; t++) t5[t] = jb->b.table[(size_t)cx->t5b[t] * jb->H + h];
    }
}
static inline void add_t5(const job *jb, const ctx *cx, int r, float *t, int32_t j0, int32_t n) {
    /* t5[hl][idx] holds the bias of rp = idx - (offset + Q - 1) */
    const float *tb =
        cx->t5 + (size_t)cx->hl[r] * (jb->Q + jb->K - 1) + (j0 - cx->ii[r] + jb->Q - 1);
    for (int32_t c = 0; c < n; c++) t[c] += tb[c];
}

/* the steps this kind has beyond check, values and add */
#define PLAN_T5        plan_t5
#define CALL_SETUP_T5  call_setup_t5
#define GROUP_SETUP_T5 group_setup_t5
