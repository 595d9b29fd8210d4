/*
 * kvcache.c -- the storage side of a KV cache for decoding token by token.
 *
 * Keys and values live in the packed layouts the attention engine's micro-kernels read
 * (attention.c), so a decode step streams the cache once and packs nothing:
 *   K  [kv_head][capt/8 panels][dim][8]              panel[p][d][c] = k of key 8p + c, element d
 *   V  [kv_head][capt/TILE][ceil(dim_v/8)][TILE][8]  blocks of TILE keys (posenc__kv_v_index)
 * with capt = capacity rounded up to POSENC_ATTENTION_TILE. Slots beyond the stored length are
 * finite (zero until written, as the caller zeroes the buffers once; a truncated cache keeps its
 * later keys there): the kernels read whole panels, and a masked key enters the P V sum as
 * 0 * v, which must not be 0 * NaN.
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

#if POSENC_SIMD
/* m, or the magnitude bits of a when they are larger (the SIMD build's leftover elements) */
static inline uint32_t fold_mag(uint32_t m, float a) {
    const uint32_t b = posenc__fbits(a) & 0x7fffffffu;
    return b > m ? b : m;
}
#endif

static float bits_float(uint32_t u) {
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* The magnitude bits of the largest |k| and |v| stored so far; in the SIMD build also the
 * running vector maxima of the current token (see posenc_kvcache_store). */
typedef struct {
    uint32_t k, v;
#if POSENC_SIMD
    pmag fk, fv;
#endif
} mags;

/* Where token slot j of kv head g starts in the K layout (element d at d * PW), and in the V
 * layout (element d at (d / PW) * T * PW + d % PW, runs of 8: posenc__kv_v_index). */
ALWAYS_INLINE float *k_slot(float *kc, size_t capt, int32_t dim, int32_t g, size_t j) {
    return kc + (size_t)g * capt * dim + (j / PW) * dim * PW + j % PW;
}
ALWAYS_INLINE float *v_slot(float *vc, size_t capt, size_t dv8, int32_t g, size_t j) {
    const size_t T = POSENC_ATTENTION_TILE;
    return vc + (size_t)g * capt * dv8 + (j / T) * T * dv8 + (j % T) * PW;
}

/* One key ks of dim floats into its slot kd, element d at kd[d * PW]. */
ALWAYS_INLINE void store_key(float *kd, const float *ks, int32_t dim, mags *mg) {
    (void)mg; /* the scalar build checked before the copy */
    int32_t d = 0;
#if POSENC_SIMD
    for (; d + 4 <= dim; d += 4) {
        const pv4 a = pv4_load(ks + d);
        mg->fk = pmag_max(mg->fk, pmag_of(a));
        kd[(size_t)d * PW] = wasm_f32x4_extract_lane(a, 0);
        kd[(size_t)(d + 1) * PW] = wasm_f32x4_extract_lane(a, 1);
        kd[(size_t)(d + 2) * PW] = wasm_f32x4_extract_lane(a, 2);
        kd[(size_t)(d + 3) * PW] = wasm_f32x4_extract_lane(a, 3);
    }
#endif
    for (; d < dim; d++) {
#if POSENC_SIMD
        mg->k = fold_mag(mg->k, ks[d]);
#endif
        kd[(size_t)d * PW] = ks[d];
    }
}

/* One value vs of dim_v floats into its slot vd: runs of 8 consecutive elements
 * (posenc__kv_v_index). */
ALWAYS_INLINE void store_value(float *vd, const float *vs, int32_t dim_v, mags *mg) {
    const size_t T = POSENC_ATTENTION_TILE;
    (void)mg; /* the scalar build checked before the copy */
    int32_t d = 0;
#if POSENC_SIMD
    for (; d + 8 <= dim_v; d += 8) {
        const pv4 a = pv4_load(vs + d), b = pv4_load(vs + d + 4);
        mg->fv = pmag_max(mg->fv, pmag_max(pmag_of(a), pmag_of(b)));
        pv4_store(vd + (size_t)d * T, a);
        pv4_store(vd + (size_t)d * T + 4, b);
    }
#endif
    for (; d < dim_v; d++) {
#if POSENC_SIMD
        mg->v = fold_mag(mg->v, vs[d]);
#endif
        vd[(size_t)(d / PW) * T * PW + d % PW] = vs[d];
    }
}

/* A refused store: tokens 0 .. t of this call were copied beyond the stored length, token t
 * with its NaN or inf. Zeros go back there (see the top: slots beyond the length are finite). */
ALWAYS_INLINE void unstore(float *kc, float *vc, int32_t t, int32_t length, size_t capt,
                           int32_t kv_heads, int32_t dim, int32_t dim_v) {
    const size_t T = POSENC_ATTENTION_TILE, dv8 = ((size_t)dim_v + PW - 1) / PW * PW;
    for (int32_t u = 0; u <= t; u++) {
        const size_t j = (size_t)length + (size_t)u;
        for (int32_t g = 0; g < kv_heads; g++) {
            float *kd = k_slot(kc, capt, dim, g, j), *vd = v_slot(vc, capt, dv8, g, j);
            for (int32_t d = 0; d < dim; d++) kd[(size_t)d * PW] = 0.0f;
            for (int32_t d = 0; d < dim_v; d++) vd[(size_t)(d / PW) * T * PW + d % PW] = 0.0f;
        }
    }
}

/* In the SIMD build the check is folded into the copy: each vector's magnitude joins a running
 * max as it is loaded, and a token whose max is not finite stops the store. A scan of k and v
 * first was a second read of both, 16% of the store (measured: 4096 tokens x 8 heads x 128,
 * 10.4 ms with the scan, 8.8 without, this 6.4 with vector loads and stores and the fold, 6.3
 * without the fold). The scalar build scans first: there a fold costs integer operations per
 * value, as many as the copy's. */
int32_t posenc_kvcache_store(float *kc, float *vc, float *state, const float *k, const float *v,
                             int32_t n, int32_t length, int32_t capacity, int32_t kv_heads,
                             int32_t dim, int32_t dim_v) {
    if (!kc || !vc || !state || !k || !v) return POSENC_E_NULL;
    int32_t nk, nv;
    const int32_t st = posenc_kvcache_size(&nk, &nv, kv_heads, dim, dim_v, capacity);
    if (st) return st;
    if (n < 1 || length < 0 || length > capacity) return POSENC_E_SIZE;
    if ((int64_t)length + n > capacity) return POSENC_E_RANGE; /* never a silent overwrite */
    const size_t T = POSENC_ATTENTION_TILE, capt = ((size_t)capacity + T - 1) / T * T;
    const size_t dv8 = ((size_t)dim_v + PW - 1) / PW * PW;
    mags mg = {.k = 0, .v = 0};
#if !POSENC_SIMD
    mg.k = posenc__fbits(posenc__max_abs(k, (size_t)n * kv_heads * dim));
    mg.v = posenc__fbits(posenc__max_abs(v, (size_t)n * kv_heads * dim_v));
    if (mg.k > 0x7f7fffffu || mg.v > 0x7f7fffffu) return POSENC_E_PARAM;
#endif
    int32_t t = 0;
    for (; t < n; t++) {
        const size_t j = (size_t)length + (size_t)t;
#if POSENC_SIMD
        mg.fk = pmag_zero(), mg.fv = pmag_zero();
#endif
        for (int32_t g = 0; g < kv_heads; g++) {
            store_key(k_slot(kc, capt, dim, g, j), k + ((size_t)t * kv_heads + g) * dim, dim, &mg);
            store_value(v_slot(vc, capt, dv8, g, j), v + ((size_t)t * kv_heads + g) * dim_v, dim_v,
                        &mg);
        }
#if POSENC_SIMD
        const uint32_t bk = pmag_bits(mg.fk), bv = pmag_bits(mg.fv);
        mg.k = bk > mg.k ? bk : mg.k;
        mg.v = bv > mg.v ? bv : mg.v;
        if (mg.k > 0x7f7fffffu || mg.v > 0x7f7fffffu) break; /* NaN or inf in token t */
#endif
    }
    if (t < n) { /* refused: nothing stored */
        unstore(kc, vc, t, length, capt, kv_heads, dim, dim_v);
        return POSENC_E_PARAM;
    }
    const float fk = bits_float(mg.k), fv = bits_float(mg.v);
    if (fk > state[0]) state[0] = fk;
    if (fv > state[1]) state[1] = fv;
    return POSENC_OK;
}
