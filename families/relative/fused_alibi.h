/*
 * fused_alibi.h -- ALiBi (Press et al. 2022; alibi.md) fused into the attention loop: its steps of
 * families/attention/attention.c's bias_ops (the comment above that struct says what each does). attention.c
 * includes it through the generated c_src/bias_kinds.h, so the steps inline as if written there.
 * A step left out takes its default there (no rows, no scratch, no setup, prescaled 1); one
 * written but not named by its #define is an unused static function, a compile error.
 */
/* ALIBI: slope m_h times the relative position, fused. Its row state (kind_alibi.js rowState):
 * slope, float64 so the fused bias rounds once, as posenc_alibi_bias; aref, the visible key with
 * the largest bias (RELATIVE, REFERENCE), or its distance |j - ipos| (SYMMETRIC). */
static int32_t check_alibi(const job *jb, int64_t *rel) {
    (void)rel;
    const int32_t f = jb->b.form;
    return f == POSENC_ALIBI_RELATIVE || f == POSENC_ALIBI_SYMMETRIC || f == POSENC_ALIBI_REFERENCE
               ? POSENC_OK
               : POSENC_E_ENUM;
}
static int32_t values_alibi(const job *jb, int64_t rel, double mq, double mk, double *dots,
                            double *bias, double *extra_v) {
    (void)jb, (void)rel, (void)mq, (void)mk, (void)dots, (void)extra_v;
    *bias = 4.0e9; /* slope < 1, |rp| and j < 2^32 */
    return POSENC_OK;
}
static void row_alibi(const job *jb, ctx *cx, int r) {
    cx->slope[r] = posenc__alibi_slope(cx->hh[r], jb->H);
    /* slopes are > 0: m * (j - ip) and m * j peak at the last visible key, -m |j - ip| at
     * the visible key nearest the query (a row that sees nothing never reads this) */
    const int64_t hi = cx->lim[r] > cx->lo[r] ? cx->lim[r] : cx->lo[r];
    const int64_t near = cx->ipos[r] < cx->lo[r] ? cx->lo[r] : cx->ipos[r] > hi ? hi : cx->ipos[r];
    const int64_t d = near - cx->ipos[r];
    cx->aref[r] = jb->b.form == POSENC_ALIBI_SYMMETRIC ? (d < 0 ? -d : d) : cx->lim[r];
}
static inline void add_alibi(const job *jb, const ctx *cx, int r, float *t, int32_t j0, int32_t n) {
    /* The bias minus the row's largest visible bias (row_alibi: aref), an exact integer
     * distance times m in float64, rounded once: softmax is shift-invariant, and the plain
     * m * rp is ~m * offset, whose float32 rounding (128 at offset 2^30) would swamp the
     * differences between keys. */
    const double m = cx->slope[r];
    const int64_t ref = cx->aref[r], ip = cx->ipos[r];
    if (jb->b.form == POSENC_ALIBI_SYMMETRIC) {
        for (int32_t c = 0; c < n; c++) {
            const int64_t rp = j0 + c - ip;
            t[c] += (float)(m * (double)(ref - (rp < 0 ? -rp : rp)));
        }
    } else { /* RELATIVE m * (j - ip) and REFERENCE m * j differ by a per-row constant */
        for (int32_t c = 0; c < n; c++) t[c] += (float)(m * (double)(j0 + c - ref));
    }
}

/* the steps this kind has beyond check, values and add */
#define ROW_ALIBI row_alibi
