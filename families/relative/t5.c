/*
 * t5.c -- T5 relative-position buckets and bias matrices (Raffel et al. 2020; HF
 * modeling_t5.py _relative_position_bucket; families/relative/t5.md). Both are functions of
 * rp = j - (i + offset) only, so each is a Toeplitz fill: row 0 and column 0 are evaluated (the
 * bucket's log once per distance, posenc__t5_bucket in bias_core.c, which attention shares),
 * every other row is the row above shifted by one (posenc__toeplitz_extend).
 */
#include "posenc_internal.h"

/* num_buckets/max_distance for which T5 _relative_position_bucket is defined: at least one exact bucket
 * (max_exact >= 1) and a log range ln(max_distance/max_exact) > 0. */
static int32_t t5_check(int32_t bidirectional, int32_t num_buckets, int32_t max_distance) {
    if (num_buckets < (bidirectional ? 4 : 2)) return POSENC_E_PARAM;
    if (max_distance <= posenc__t5_max_exact(bidirectional, num_buckets)) return POSENC_E_PARAM;
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
