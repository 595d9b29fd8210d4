/*
 * kvcache.c -- the storage side of a KV cache for decoding token by token.
 *
 * Keys and values live in the packed layouts the attention engine's micro-kernels read
 * (attention.c), so a decode step streams the cache once and packs nothing:
 *   K  [kv_head][capt/8 panels][dim][8]              panel[p][d][c] = k of key 8p + c, element d
 *   V  [kv_head][capt/TILE][ceil(dim_v/8)][TILE][8]  blocks of TILE keys (posenc__kv_v_index)
 * with capt = capacity rounded up to POSENC_ATTENTION_TILE. Slots beyond the stored length are
 * zero (the caller zeroes the buffers once): the kernels read whole panels, and a masked key
 * enters the P V sum as 0 * v, which must not be 0 * NaN.
 * state[0], state[1] are the running max |k| and max |v| of everything stored, which the
 * attend calls use for their float32 overflow bound instead of rescanning the cache.
 */
#include "posenc_internal.h"

#define PW 8

int32_t posenc_kvcache_size(int32_t *k_floats, int32_t *v_floats, int32_t kv_heads, int32_t dim,
                            int32_t dim_v, int32_t capacity) {
    if (!k_floats || !v_floats) return POSENC_E_NULL;
    if (posenc__check_elems3(kv_heads, dim, capacity) ||
        posenc__check_elems3(kv_heads, dim_v, capacity))
        return POSENC_E_SIZE;
    const int64_t T = POSENC_ATTENTION_TILE, capt = ((int64_t)capacity + T - 1) / T * T;
    const int64_t dv8 = ((int64_t)dim_v + PW - 1) / PW * PW;
    const int64_t nk = (int64_t)kv_heads * capt * dim, nv = (int64_t)kv_heads * capt * dv8;
    if (nk > POSENC_MAX_ELEMENTS || nv > POSENC_MAX_ELEMENTS) return POSENC_E_SIZE;
    *k_floats = (int32_t)nk;
    *v_floats = (int32_t)nv;
    return POSENC_OK;
}

int32_t posenc_kvcache_store(float *kc, float *vc, float *state, const float *k, const float *v,
                             int32_t n, int32_t length, int32_t capacity, int32_t kv_heads,
                             int32_t dim, int32_t dim_v) {
    if (!kc || !vc || !state || !k || !v) return POSENC_E_NULL;
    int32_t nk, nv;
    const int32_t st = posenc_kvcache_size(&nk, &nv, kv_heads, dim, dim_v, capacity);
    if (st) return st;
    if (n < 1 || length < 0 || length > capacity) return POSENC_E_SIZE;
    if ((int64_t)length + n > capacity) return POSENC_E_RANGE; /* never a silent overwrite */
    const double mk = posenc__max_abs(k, (size_t)n * kv_heads * dim);
    const double mv = posenc__max_abs(v, (size_t)n * kv_heads * dim_v);
    if (!(mk < INFINITY && mv < INFINITY)) return POSENC_E_PARAM;
    const size_t T = POSENC_ATTENTION_TILE, capt = ((size_t)capacity + T - 1) / T * T;
    const size_t dv8 = ((size_t)dim_v + PW - 1) / PW * PW;
    for (int32_t t = 0; t < n; t++) {
        const size_t j = (size_t)length + (size_t)t, p = j / PW, c = j % PW;
        for (int32_t g = 0; g < kv_heads; g++) {
            const float *ks = k + ((size_t)t * kv_heads + g) * dim;
            float *kd = kc + (size_t)g * capt * dim + p * dim * PW + c;
            for (int32_t d = 0; d < dim; d++) kd[(size_t)d * PW] = ks[d];
            const float *vs = v + ((size_t)t * kv_heads + g) * dim_v;
            float *vd = vc + (size_t)g * capt * dv8;
            for (int32_t d = 0; d < dim_v; d++)
                vd[posenc__kv_v_index((int64_t)j, d, dim_v)] = vs[d];
        }
    }
    if (mk > state[0]) state[0] = (float)mk;
    if (mv > state[1]) state[1] = (float)mv;
    return POSENC_OK;
}
