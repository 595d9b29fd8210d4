/*
 * alibi.c -- ALiBi slopes and bias matrices (Press et al. 2022, families/relative/alibi.md). The bias is a
 * function of rp = j - (i + offset) only, so each head is a Toeplitz fill: row 0 and column 0
 * are evaluated, every other row is the row above shifted by one (posenc__toeplitz_extend).
 * ALiBi's REFERENCE form (m*j) is not a function of rp; its rows are copies that unmask one more
 * key each. T5's matrices are in t5.c.
 */
#include "posenc_internal.h"

int32_t posenc_alibi_slopes(float *out, int32_t heads) {
    if (!out) return POSENC_E_NULL;
    if (posenc__check_count(heads)) return POSENC_E_SIZE;
    for (int32_t h = 0; h < heads; h++) out[h] = (float)posenc__alibi_slope(h, heads);
    return POSENC_OK;
}

static inline float alibi_value(double m, int64_t rp, posenc_alibi_form form, int causal) {
    if (causal && rp > 0) return -INFINITY;
    if (form == POSENC_ALIBI_SYMMETRIC) return (float)(-m * (double)(rp < 0 ? -rp : rp));
    return (float)(m * (double)rp);
}

int32_t posenc_alibi_bias(float *out, int32_t heads, int32_t queries, int32_t keys,
                          posenc_alibi_form form, int32_t causal, int32_t offset) {
    if (!out) return POSENC_E_NULL;
    if (posenc__check_elems3(heads, queries, keys)) return POSENC_E_SIZE;
    if (form != POSENC_ALIBI_RELATIVE && form != POSENC_ALIBI_SYMMETRIC &&
        form != POSENC_ALIBI_REFERENCE)
        return POSENC_E_ENUM;
    const size_t Q = (size_t)queries, K = (size_t)keys;
    const int c = causal != 0;
    for (int32_t h = 0; h < heads; h++) {
        const double m = posenc__alibi_slope(h, heads);
        float *o = out + (size_t)h * Q * K;
        if (form == POSENC_ALIBI_REFERENCE) {
            /* key j visible from query i when j <= i + offset (always when not causal) */
            for (size_t j = 0; j < K; j++)
                o[j] = (c && (int64_t)j > (int64_t)offset) ? -INFINITY : (float)(m * (double)j);
            for (size_t i = 1; i < Q; i++) {
                posenc__copy32(o + i * K, o + (i - 1) * K, K);
                const int64_t jn = (int64_t)i + offset; /* the key row i newly sees */
                if (c && jn >= 0 && jn < (int64_t)K)
                    o[i * K + (size_t)jn] = (float)(m * (double)jn);
            }
            continue;
        }
        for (size_t j = 0; j < K; j++) o[j] = alibi_value(m, (int64_t)j - offset, form, c);
        for (size_t i = 1; i < Q; i++) o[i * K] = alibi_value(m, -(int64_t)i - offset, form, c);
        posenc__toeplitz_extend(o, queries, keys);
    }
    return POSENC_OK;
}
