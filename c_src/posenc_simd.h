/*
 * posenc_simd.h -- the one vector layer every kernel is written against (internal).
 *
 * pv4 is four float32 lanes. With __wasm_simd128__ it is a v128_t and each operation is one
 * SIMD128 instruction; otherwise it is a struct of four floats and each operation a plain loop,
 * which is what the scalar wasm build and the native (sanitizer) tests run. Most kernels are
 * written once against it, so "SIMD agrees with scalar" tests them, not two hand-written copies.
 * Not all: the `#if POSENC_SIMD` blocks of kvcache.c (8), rope.c (3) and values.c (1, raw
 * wasm_* intrinsics) keep a SIMD path and a scalar path side by side, each tested against the
 * other by the native tests run in both builds (tests/native.test.js).
 *
 * No fused multiply-add exists in SIMD128, and the scalar branch must not use one either (the
 * native compiler might contract a*b+c): that keeps the two builds within rounding of each other.
 */
#ifndef POSENC_SIMD_H
#define POSENC_SIMD_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#define POSENC_SIMD 1

typedef v128_t pv4;
static inline pv4 pv4_load(const float *p) { return wasm_v128_load(p); }
static inline void pv4_store(float *p, pv4 v) { wasm_v128_store(p, v); }
static inline pv4 pv4_splat(float x) { return wasm_f32x4_splat(x); }
/* one float from memory to all lanes (v128.load32_splat: a single load, no shuffle) */
static inline pv4 pv4_load_splat(const float *p) { return wasm_v128_load32_splat(p); }
static inline pv4 pv4_set(float a, float b, float c, float d) {
    return wasm_f32x4_make(a, b, c, d);
}
static inline pv4 pv4_add(pv4 a, pv4 b) { return wasm_f32x4_add(a, b); }
static inline pv4 pv4_sub(pv4 a, pv4 b) { return wasm_f32x4_sub(a, b); }
static inline pv4 pv4_mul(pv4 a, pv4 b) { return wasm_f32x4_mul(a, b); }
static inline pv4 pv4_max(pv4 a, pv4 b) { return wasm_f32x4_pmax(a, b); }
static inline pv4 pv4_min(pv4 a, pv4 b) { return wasm_f32x4_pmin(a, b); }
/* [a1, a0, a3, a2]: the partner of each component inside its interleaved pair */
static inline pv4 pv4_swap_pairs(pv4 a) { return wasm_i32x4_shuffle(a, a, 1, 0, 3, 2); }
/* even lanes of a then of b: [a0, a2, b0, b2]; odd lanes: [a1, a3, b1, b3] */
static inline pv4 pv4_even(pv4 a, pv4 b) { return wasm_i32x4_shuffle(a, b, 0, 2, 4, 6); }
static inline pv4 pv4_odd(pv4 a, pv4 b) { return wasm_i32x4_shuffle(a, b, 1, 3, 5, 7); }
/* interleave: [a0, b0, a1, b1] and [a2, b2, a3, b3] */
static inline pv4 pv4_zip_lo(pv4 a, pv4 b) { return wasm_i32x4_shuffle(a, b, 0, 4, 1, 5); }
static inline pv4 pv4_zip_hi(pv4 a, pv4 b) { return wasm_i32x4_shuffle(a, b, 2, 6, 3, 7); }
static inline float pv4_hsum(pv4 a) {
    return (wasm_f32x4_extract_lane(a, 0) + wasm_f32x4_extract_lane(a, 1)) +
           (wasm_f32x4_extract_lane(a, 2) + wasm_f32x4_extract_lane(a, 3));
}
static inline float pv4_hmax(pv4 a) {
    float x = wasm_f32x4_extract_lane(a, 0), y = wasm_f32x4_extract_lane(a, 1);
    float z = wasm_f32x4_extract_lane(a, 2), w = wasm_f32x4_extract_lane(a, 3);
    float m = x > y ? x : y, n = z > w ? z : w;
    return m > n ? m : n;
}

/* pd2: two float64 lanes, for sums that must accumulate in float64 (similarity). A float32
 * product is exact in float64, so lanes are widened before they are multiplied. */
typedef v128_t pd2;
static inline pd2 pd2_zero(void) { return wasm_f64x2_splat(0.0); }
/* [a0, a1] and [a2, a3] widened to float64 */
static inline pd2 pd2_lo(pv4 a) { return wasm_f64x2_promote_low_f32x4(a); }
static inline pd2 pd2_hi(pv4 a) {
    return wasm_f64x2_promote_low_f32x4(wasm_i32x4_shuffle(a, a, 2, 3, 2, 3));
}
static inline pd2 pd2_add(pd2 a, pd2 b) { return wasm_f64x2_add(a, b); }
static inline pd2 pd2_mul(pd2 a, pd2 b) { return wasm_f64x2_mul(a, b); }
static inline double pd2_hsum(pd2 a) {
    return wasm_f64x2_extract_lane(a, 0) + wasm_f64x2_extract_lane(a, 1);
}

/* For t = (y + 127) + 1.5*2^23 with y an integer in [-126, 127] (t's low mantissa bits hold
 * the biased exponent y + 127): the float 2^y is bits(t) << 23; the 0x4B4 high part shifts out.
 * This is the exp kernel's 2^n without a float->int conversion, and a single shift (adding the
 * bias as an integer costs a vector constant V8 rebuilds in every loop iteration). */
static inline pv4 pv4_pow2_biased(pv4 t) { return wasm_i32x4_shl(t, 23); }
/* lane-wise a < b ? 0 : y */
static inline pv4 pv4_zero_lt(pv4 y, pv4 a, pv4 b) {
    return wasm_v128_andnot(y, wasm_f32x4_lt(a, b));
}

/* pmag: magnitudes as bit patterns, doubled (|x| orders like its bits, NaN and inf above every
 * finite value; doubling drops the sign). A kernel checks a step of loaded vectors against a
 * bound before it stores anything: one shift and one unsigned max per vector, then one xor and
 * one any_true for the step (RoPE's in-place check, rope.c); or folded into a running max as
 * the values are copied (the KV cache's store, kvcache.c). SIMD builds only. */
typedef v128_t pmag;
static inline pmag pmag_zero(void) { return wasm_i32x4_splat(0); }
static inline pmag pmag_of(pv4 v) { return wasm_i32x4_shl(v, 1); }
static inline pmag pmag_max(pmag a, pmag b) { return wasm_u32x4_max(a, b); }
/* the bits of the largest magnitude in m (a running max: kvcache.c) */
static inline uint32_t pmag_bits(pmag m) {
    m = wasm_u32x4_max(m, wasm_i32x4_shuffle(m, m, 2, 3, 0, 1));
    m = wasm_u32x4_max(m, wasm_i32x4_shuffle(m, m, 1, 0, 3, 2));
    return wasm_u32x4_extract_lane(m, 0) >> 1;
}
/* the bound for pmag_over: magnitudes whose bits are at most `limit` pass (a limit of 2^31 - 1
 * or more passes everything, NaN included, as the doubled bits never exceed 2^32 - 2) */
static inline pmag pmag_bound(uint32_t limit) {
    return wasm_i32x4_splat((int32_t)(limit >= 0x7fffffffu ? 0xfffffffeu : limit << 1));
}
/* any lane of m above bound: max and xor, as V8 builds u32x4.gt from four instructions */
static inline int pmag_over(pmag m, pmag bound) {
    return wasm_v128_any_true(wasm_v128_xor(wasm_u32x4_max(m, bound), bound));
}
#else
#define POSENC_SIMD 0

typedef struct {
    float v[4];
} pv4;
static inline pv4 pv4_load(const float *p) {
    pv4 r;
    memcpy(r.v, p, sizeof r.v);
    return r;
}
static inline void pv4_store(float *p, pv4 a) { memcpy(p, a.v, sizeof a.v); }
static inline pv4 pv4_splat(float x) {
    pv4 r = {{x, x, x, x}};
    return r;
}
static inline pv4 pv4_load_splat(const float *p) { return pv4_splat(*p); }
static inline pv4 pv4_set(float a, float b, float c, float d) {
    pv4 r = {{a, b, c, d}};
    return r;
}
#define POSENC__PV4_BINOP(name, expr)                                                              \
    static inline pv4 name(pv4 a, pv4 b) {                                                         \
        pv4 r;                                                                                     \
        for (int k = 0; k < 4; k++) {                                                              \
            float x = a.v[k], y = b.v[k];                                                          \
            r.v[k] = (expr);                                                                       \
        }                                                                                          \
        return r;                                                                                  \
    }
POSENC__PV4_BINOP(pv4_add, x + y)
POSENC__PV4_BINOP(pv4_sub, x - y)
POSENC__PV4_BINOP(pv4_mul, x *y)
/* pmax/pmin semantics of SIMD128: b < a ? a : b, so NaN handling matches the SIMD build */
POSENC__PV4_BINOP(pv4_max, x < y ? y : x)
POSENC__PV4_BINOP(pv4_min, y < x ? y : x)
#undef POSENC__PV4_BINOP
static inline pv4 pv4_swap_pairs(pv4 a) {
    pv4 r = {{a.v[1], a.v[0], a.v[3], a.v[2]}};
    return r;
}
static inline pv4 pv4_even(pv4 a, pv4 b) {
    pv4 r = {{a.v[0], a.v[2], b.v[0], b.v[2]}};
    return r;
}
static inline pv4 pv4_odd(pv4 a, pv4 b) {
    pv4 r = {{a.v[1], a.v[3], b.v[1], b.v[3]}};
    return r;
}
static inline pv4 pv4_zip_lo(pv4 a, pv4 b) {
    pv4 r = {{a.v[0], b.v[0], a.v[1], b.v[1]}};
    return r;
}
static inline pv4 pv4_zip_hi(pv4 a, pv4 b) {
    pv4 r = {{a.v[2], b.v[2], a.v[3], b.v[3]}};
    return r;
}
static inline float pv4_hsum(pv4 a) { return (a.v[0] + a.v[1]) + (a.v[2] + a.v[3]); }
static inline float pv4_hmax(pv4 a) {
    float m = a.v[0] > a.v[1] ? a.v[0] : a.v[1], n = a.v[2] > a.v[3] ? a.v[2] : a.v[3];
    return m > n ? m : n;
}
typedef struct {
    double v[2];
} pd2;
static inline pd2 pd2_zero(void) {
    pd2 r = {{0.0, 0.0}};
    return r;
}
static inline pd2 pd2_lo(pv4 a) {
    pd2 r = {{a.v[0], a.v[1]}};
    return r;
}
static inline pd2 pd2_hi(pv4 a) {
    pd2 r = {{a.v[2], a.v[3]}};
    return r;
}
static inline pd2 pd2_add(pd2 a, pd2 b) {
    pd2 r = {{a.v[0] + b.v[0], a.v[1] + b.v[1]}};
    return r;
}
static inline pd2 pd2_mul(pd2 a, pd2 b) {
    pd2 r = {{a.v[0] * b.v[0], a.v[1] * b.v[1]}};
    return r;
}
static inline double pd2_hsum(pd2 a) { return a.v[0] + a.v[1]; }
static inline pv4 pv4_pow2_biased(pv4 t) {
    pv4 r;
    for (int k = 0; k < 4; k++) {
        uint32_t bits;
        memcpy(&bits, &t.v[k], sizeof bits);
        bits <<= 23; /* unsigned: wraps like the i32x4 lanes */
        memcpy(&r.v[k], &bits, sizeof bits);
    }
    return r;
}
static inline pv4 pv4_zero_lt(pv4 y, pv4 a, pv4 b) {
    pv4 r;
    for (int k = 0; k < 4; k++) r.v[k] = a.v[k] < b.v[k] ? 0.0f : y.v[k];
    return r;
}
#endif

#endif /* POSENC_SIMD_H */
