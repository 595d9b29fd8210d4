/*
 * alibi.c -- ALiBi slopes and bias matrices (docs/alibi.md), and the T5 relative-position
 * bucket and bias matrices (section 5). Both are functions of rp = j - (i + offset) only, so
 * each head is a Toeplitz fill: row 0 and column 0 are evaluated, every other row is the row
 * above shifted by one (posenc__toeplitz_extend). ALiBi's REFERENCE form (m*j) is not a
 * function of rp; its rows are copies that unmask one more key each.
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
                if (c && jn >= 0 && jn < (int64_t)K) o[i * K + (size_t)jn] = (float)(m * (double)jn);
            }
            continue;
        }
        for (size_t j = 0; j < K; j++) o[j] = alibi_value(m, (int64_t)j - offset, form, c);
        for (size_t i = 1; i < Q; i++) o[i * K] = alibi_value(m, -(int64_t)i - offset, form, c);
        posenc__toeplitz_extend(o, queries, keys);
    }
    return POSENC_OK;
}

/* num_buckets/max_distance for which T5 _relative_position_bucket is defined: at least one exact bucket
 * (max_exact >= 1) and a log range ln(max_distance/max_exact) > 0. */
static int32_t t5_check(int32_t bidirectional, int32_t num_buckets, int32_t max_distance) {
    if (num_buckets < (bidirectional ? 4 : 2)) return POSENC_E_PARAM;
    const int32_t max_exact = (bidirectional ? num_buckets / 2 : num_buckets) / 2;
    if (max_distance <= max_exact) return POSENC_E_PARAM;
    return POSENC_OK;
}

int32_t posenc_t5_buckets(int32_t *out, int32_t queries, int32_t keys, int32_t bidirectional,
                          int32_t num_buckets, int32_t max_distance, int32_t offset) {
    if (!out) return POSENC_E_NULL;
    if (posenc__check_elems2(queries, keys)) return POSENC_E_SIZE;
    const int b = bidirectional != 0;
    if (t5_check(b, num_buckets, max_distance)) return POSENC_E_PARAM;
    const size_t K = (size_t)keys;
    for (size_t j = 0; j < K; j++)
        out[j] = posenc__t5_bucket((int64_t)j - offset, b, num_buckets, max_distance);
    for (int32_t i = 1; i < queries; i++)
        out[(size_t)i * K] = posenc__t5_bucket(-(int64_t)i - offset, b, num_buckets, max_distance);
    posenc__toeplitz_extend(out, queries, keys);
    return POSENC_OK;
}

int32_t posenc_t5_bias(float *out, const float *weights, int32_t heads, int32_t queries,
                       int32_t keys, int32_t bidirectional, int32_t num_buckets,
                       int32_t max_distance, int32_t offset) {
    if (!out || !weights) return POSENC_E_NULL;
    if (posenc__check_elems3(heads, queries, keys)) return POSENC_E_SIZE;
    if (posenc__check_elems2(num_buckets, heads)) return POSENC_E_SIZE;
    const int b = bidirectional != 0;
    if (t5_check(b, num_buckets, max_distance)) return POSENC_E_PARAM;
    const size_t nw = (size_t)num_buckets * (size_t)heads;
    for (size_t t = 0; t < nw; t++)
        if (!posenc__finite(weights[t])) return POSENC_E_PARAM;

    /* Buckets are evaluated once: row 0 and column 0 of head 0 hold them (as int32 bits) until
     * every other head has been made from them; head 0 is converted last. */
    const size_t Q = (size_t)queries, K = (size_t)keys, H = (size_t)heads;
    int32_t bk;
    for (size_t j = 0; j < K; j++) {
        bk = posenc__t5_bucket((int64_t)j - offset, b, num_buckets, max_distance);
        memcpy(out + j, &bk, sizeof bk);
    }
    for (size_t i = 1; i < Q; i++) {
        bk = posenc__t5_bucket(-(int64_t)i - offset, b, num_buckets, max_distance);
        memcpy(out + i * K, &bk, sizeof bk);
    }
    for (size_t h = H; h-- > 0;) {
        float *o = out + h * Q * K;
        for (size_t j = 0; j < K; j++) {
            memcpy(&bk, out + j, sizeof bk);
            o[j] = weights[(size_t)bk * H + h];
        }
        for (size_t i = 1; i < Q; i++) {
            memcpy(&bk, out + i * K, sizeof bk);
            o[i * K] = weights[(size_t)bk * H + h];
        }
        posenc__toeplitz_extend(o, queries, keys);
    }
    return POSENC_OK;
}
