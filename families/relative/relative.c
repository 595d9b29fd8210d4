/*
 * relative.c -- Shaw et al. clipped relative indices and Transformer-XL's relative attention
 * (families/relative/relative.md): the sinusoid R of relative distances, the rel-shift computed by indexing
 * instead of the pad-and-reshape trick, and the four-term score.
 */
#include "posenc_internal.h"

static inline int32_t shaw_value(int64_t rp, int32_t k) {
    return (int32_t)(rp < -k ? 0 : rp > k ? 2 * (int64_t)k : rp + k);
}

int32_t posenc_shaw_indices(int32_t *out, int32_t queries, int32_t keys, int32_t max_relative,
                            int32_t offset) {
    if (!out) return POSENC_E_NULL;
    if (posenc__check_elems2(queries, keys)) return POSENC_E_SIZE;
    /* tensor2tensor: max_relative_position must be > 0; 2k+1 rows must be addressable */
    if (max_relative < 1 || max_relative > POSENC_MAX_ELEMENTS) return POSENC_E_PARAM;
    const size_t K = (size_t)keys;
    for (size_t j = 0; j < K; j++) out[j] = shaw_value((int64_t)j - offset, max_relative);
    for (int32_t i = 1; i < queries; i++)
        out[(size_t)i * K] = shaw_value(-(int64_t)i - offset, max_relative);
    posenc__toeplitz_extend(out, queries, keys);
    return POSENC_OK;
}

#define WSLICE 256

int32_t posenc_xl_positions(float *out, int32_t klen, int32_t dim, double base, int32_t clamp_len) {
    if (!out) return POSENC_E_NULL;
    if (posenc__check_elems2(klen, dim)) return POSENC_E_SIZE;
    if (dim % 2) return POSENC_E_ODD;
    if (!posenc__finite(base) || base <= 1.0) return POSENC_E_PARAM;
    const size_t D = (size_t)dim;
    const int32_t h = dim / 2;
    /* rows whose distance klen-1-t exceeds clamp_len all equal the row of clamp_len */
    const int32_t nclamp = (clamp_len > 0 && klen - 1 > clamp_len) ? klen - 1 - clamp_len : 0;
    const int32_t rows = klen - nclamp;
    float *first = out + (size_t)nclamp * D;
    double w[WSLICE];
    for (int32_t i0 = 0; i0 < h; i0 += WSLICE) {
        const int32_t n = h - i0 < WSLICE ? h - i0 : WSLICE;
        /* XL's 1/base^(2i/dim), written as the sinusoidal family writes it (same bits) */
        for (int32_t i = 0; i < n; i++) w[i] = exp(-log(base) * ((double)(i0 + i) / (double)h));
        posenc__sincos_table(first + i0, first + h + i0, D, 0, rows, n, 0.0, 1.0, w, 1.0);
    }
    /* Made ascending (distance 0 exactly [0.. | 1..], and bit-identical to the SPLIT paper
     * sinusoidal table), then the rows are reversed in place into XL's descending order. */
    for (int32_t a = 0, b = rows - 1; a < b; a++, b--) {
        float *ra = first + (size_t)a * D, *rb = first + (size_t)b * D;
        for (size_t c = 0; c < D; c++) {
            const float t = ra[c];
            ra[c] = rb[c];
            rb[c] = t;
        }
    }
    for (int32_t t = 0; t < nclamp; t++) posenc__copy32(out + (size_t)t * D, first, D);
    return POSENC_OK;
}

int32_t posenc_xl_rel_shift(float *out, const float *x, int32_t queries, int32_t memory) {
    if (!out || !x) return POSENC_E_NULL;
    if (memory < 0) return POSENC_E_PARAM;
    const int64_t keys = (int64_t)queries + memory;
    if (posenc__check_elems2(queries, keys)) return POSENC_E_SIZE;
    const size_t Q = (size_t)queries, K = (size_t)keys, n = Q * K;
    /* in place is fine (each row reads at or after where it writes); partial overlap is not */
    if (out != x && out < x + n && x < out + n) return POSENC_E_PARAM;
    for (size_t i = 0; i < Q; i++) {
        const size_t valid = i + (size_t)memory + 1; /* j <= i + memory; never more than K */
        memmove(out + i * K, x + i * K + (Q - 1 - i), valid * sizeof(float));
        for (size_t j = valid; j < K; j++) out[i * K + j] = 0.0f;
    }
    return POSENC_OK;
}

/* (q + u)·a + (q + v)·b over dim components, vectorised, identical lane order on both builds */
static float xl_dot2(const float *q, const float *u, const float *a, const float *v, const float *b,
                     int32_t dim) {
    pv4 acc0 = pv4_splat(0.0f), acc1 = pv4_splat(0.0f);
    int32_t d = 0;
    for (; d + 4 <= dim; d += 4) {
        const pv4 qd = pv4_load(q + d);
        acc0 = pv4_add(acc0, pv4_mul(pv4_add(qd, pv4_load(u + d)), pv4_load(a + d)));
        acc1 = pv4_add(acc1, pv4_mul(pv4_add(qd, pv4_load(v + d)), pv4_load(b + d)));
    }
    float s = pv4_hsum(pv4_add(acc0, acc1));
    for (; d < dim; d++) s += (q[d] + u[d]) * a[d] + (q[d] + v[d]) * b[d];
    return s;
}

int32_t posenc_xl_scores(float *out, const float *q, const float *k, const float *r, const float *u,
                         const float *v, int32_t queries, int32_t keys, int32_t heads, int32_t dim,
                         double scale) {
    if (!out || !q || !k || !r || !u || !v) return POSENC_E_NULL;
    if (posenc__check_elems3(heads, queries, keys)) return POSENC_E_SIZE;
    if (posenc__check_elems3(keys, heads, dim) || posenc__check_elems3(queries, heads, dim))
        return POSENC_E_SIZE;
    if (keys < queries) return POSENC_E_SIZE; /* keys = queries + memory */
    if (!posenc__finite(scale)) return POSENC_E_PARAM;
    const size_t Q = (size_t)queries, K = (size_t)keys, H = (size_t)heads, D = (size_t)dim;
    /* Operands must be finite, and small enough that no partial sum of the two dot products
     * (nor its scaled value) overflows float32 into inf or inf - inf = NaN. */
    const double mq = posenc__max_abs(q, Q * H * D), mk = posenc__max_abs(k, K * H * D);
    const double mr = posenc__max_abs(r, K * H * D), mu = posenc__max_abs(u, H * D);
    const double mv = posenc__max_abs(v, H * D);
    if (!(mq < INFINITY && mk < INFINITY && mr < INFINITY && mu < INFINITY && mv < INFINITY))
        return POSENC_E_PARAM;
    const double as = fabs(scale) > 1.0 ? fabs(scale) : 1.0;
    if ((double)dim * ((mq + mu) * mk + (mq + mv) * mr) * as > POSENC__LOGIT_LIMIT)
        return POSENC_E_PARAM;
    const size_t mem = K - Q;
    const float sc = (float)scale;
    for (size_t h = 0; h < H; h++) {
        const float *uh = u + h * D, *vh = v + h * D;
        for (size_t i = 0; i < Q; i++) {
            float *o = out + (h * Q + i) * K;
            const float *qi = q + (i * H + h) * D;
            for (size_t j = 0; j <= i + mem; j++) {
                const float *kj = k + (j * H + h) * D;
                const float *rt = r + ((j + Q - 1 - i) * H + h) * D; /* distance i + mem - j */
                o[j] = sc * xl_dot2(qi, uh, kj, vh, rt, dim);
            }
            for (size_t j = i + mem + 1; j < K; j++) o[j] = -INFINITY;
        }
    }
    return POSENC_OK;
}
