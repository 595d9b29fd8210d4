/*
 * posenc_internal.h -- helpers shared between the family files (never installed).
 */
#ifndef POSENC_INTERNAL_H
#define POSENC_INTERNAL_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "posenc.h"
#include "posenc_simd.h"

/* The steps a long function is split into for reading, compiled as one body with it (a hot
 * loop's pieces stay in one function for the optimiser; tools/function_lengths.js counts them
 * apart). */
#define ALWAYS_INLINE static inline __attribute__((always_inline))

/* Validation helpers: each returns POSENC_OK or the code to return. */
static inline int32_t posenc__check_count(int64_t n) {
    return (n >= 1 && n <= POSENC_MAX_ELEMENTS) ? POSENC_OK : POSENC_E_SIZE;
}
/* a*b elements (each factor already >= 1) must fit POSENC_MAX_ELEMENTS */
static inline int32_t posenc__check_elems2(int64_t a, int64_t b) {
    if (a < 1 || b < 1) return POSENC_E_SIZE;
    if (a > POSENC_MAX_ELEMENTS || b > POSENC_MAX_ELEMENTS) return POSENC_E_SIZE;
    return (a * b <= POSENC_MAX_ELEMENTS) ? POSENC_OK : POSENC_E_SIZE;
}
static inline int32_t posenc__check_elems3(int64_t a, int64_t b, int64_t c) {
    if (posenc__check_elems2(a, b) != POSENC_OK || c < 1 || c > POSENC_MAX_ELEMENTS)
        return POSENC_E_SIZE;
    return (a * b * c <= POSENC_MAX_ELEMENTS) ? POSENC_OK : POSENC_E_SIZE;
}
static inline int posenc__finite(double x) { return x == x && x - x == 0.0; }

/*
 * The angle-addition table engine (trig.c).
 *
 * For row r in [0, rows) and pair i in [0, npairs):  a = (p0 + r*step) * w[i]
 *   sin_out[r*row_stride + i*ps] = scale * sin(a),   cos_out[r*row_stride + i*ps] = scale * cos(a)
 * where ps = 2 when interleaved (then cos_out must be sin_out + 1) and 1 otherwise.
 * w is float64 radians per position. Error below 3e-7*scale for |p0| + rows*|step| < 2^30.
 */
void posenc__sincos_table(float *sin_out, float *cos_out, size_t row_stride, int interleaved,
                          int32_t rows, int32_t npairs, double p0, double step, const double *w,
                          double scale);

/* One position p, no recurrence: for i = i0, i0 + step, ... below i1, a = p * w[i] in float64,
 *   sin_out[i] = scale * sin(a),   cos_out[i] = scale * cos(a),   each rounded once to float32. */
void posenc__sincos_at(float *sin_out, float *cos_out, int32_t i0, int32_t i1, int32_t step,
                       double p, const double *w, double scale);

/* ---- rope internals ---- */

/* The two rotation kernels (rope.c), exposed for the native tests: rotate n pairs of each of
 * `heads` head vectors x + h*stride by one cos/sin row c[n], s[n]. HALF pairs (x[i], x[n+i]);
 * INTERLEAVED pairs (x[2i], x[2i+1]). Every value, each head's `tail` values after its 2n
 * rotated ones included, must be at most the float whose bits are `limit` in magnitude. The
 * rotation goes head by head, a head's tail checked before its pairs, pair by pair, and stops at
 * the first bad pair or tail (it and everything after it untouched); the index of the head where
 * it stopped is returned (else `heads`). */
int32_t posenc__rope_rotate_half(float *x, int32_t heads, size_t stride, const float *c,
                                 const float *s, int32_t n, int32_t tail, uint32_t limit);
int32_t posenc__rope_rotate_interleaved(float *x, int32_t heads, size_t stride, const float *c,
                                        const float *s, int32_t n, int32_t tail, uint32_t limit);

/* ---- relative internals (alibi, t5, shaw, xl, learned) ---- */

/* ALiBi slope of head `head` (0-based) of `heads` (>= 1), closed form of fairseq get_slopes with exp2. */
double posenc__alibi_slope(int32_t head, int32_t heads);

/* T5 _relative_position_bucket's exact range: the distances below it get a bucket each, half the
 * buckets (of each direction's half when bidirectional); max_distance must exceed it so the
 * log-spaced buckets are defined. The one C statement of the rule (t5.c, attention.c; the JS twin
 * is js/maths.js t5MaxExact). */
static inline int32_t posenc__t5_max_exact(int32_t bidirectional, int32_t num_buckets) {
    return (bidirectional ? num_buckets / 2 : num_buckets) / 2;
}

/* T5 bucket of relative position rp = key - query (families/relative/t5.md), exact at the integer boundary
 * points. Caller guarantees num_buckets >= 2 (>= 4 when bidirectional) and
 * max_distance > max_exact (= num_buckets/2, halved again when bidirectional). */
int32_t posenc__t5_bucket(int64_t rp, int32_t bidirectional, int32_t num_buckets,
                          int32_t max_distance);

/* Toeplitz fill (ALiBi, T5, Shaw matrices depend only on j - i): the caller writes row 0 and
 * the first element of every row; this copies row i-1 into row i shifted one column right.
 * Elements are any 32-bit type (moved as bits). */
void posenc__toeplitz_extend(void *out, int32_t rows, int32_t cols);

/* Copies n 32-bit elements through the vector layer (non-overlapping ranges). */
void posenc__copy32(float *dst, const float *src, size_t n);

/* max |a[t]| over n floats, or +INFINITY when any element is NaN or infinite (values.c).
 * Finite operands can still overflow float32 inside a dot product (and come out inf or NaN), so
 * the XL score and attention bound their sums with this before computing anything. It runs at
 * load speed: magnitudes are compared as their bit patterns (|x| orders like its bits, and NaN
 * and inf sort above every finite value) in independent accumulators, with no float select (V8
 * turns a float select into a branch, which random signs mispredict: 10x slower in the scalar
 * build). */
float posenc__max_abs(const float *a, size_t n);

/* 1 when every |a[t]|, t < n, is at most the float whose bits are `limit` (so finite), else 0.
 * RoPE runs it on a head's unrotated tail, on each whole head in the scalar build right before
 * it rotates that head, and on all of x for axial (rope.c). */
int posenc__within(const float *a, size_t n, uint32_t limit);

/* The bits of a non-negative float, which order like the floats themselves. */
static inline uint32_t posenc__fbits(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* Largest magnitude a logit (or an exp-weighted sum of values) may reach: below FLT_MAX/2, so
 * the softmax's s - max(s) stays finite too. */
#define POSENC__LOGIT_LIMIT 1.0e38

/* Learned-table initialisation (learned.c), exposed for the native tests: a natural log and
 * Acklam's inverse normal CDF built from + - * / sqrt only, so every build gives the same bits. */
double posenc__det_log(double x);
double posenc__normal_quantile(double p);

/* ---- attention internals ---- */

/* exp(x) on four lanes, relative error <= 2 float32 eps (x = n ln2 + r, |r| <= ln2/2,
 * degree-5 polynomial in Horner form; n rounded and 2^n built with the 1.5*2^23 trick, so no
 * float->int conversion). x < ln(FLT_MIN) (including -INFINITY, a masked logit) gives exactly
 * 0; x is clamped at 88 above (softmax only feeds x <= 0). x must not be NaN.
 *
 * The constants travel in a struct: a hot loop copies them into locals from memory the compiler
 * cannot see through, because V8 rebuilds every v128.const in a loop body with ~4 instructions
 * and LLVM rematerialises constants at each use. */
typedef struct {
    pv4 lo, hi, log2e, magic, ln2hi, ln2lo, c5, c4, c3, c2, c1, one;
} posenc__expk;

static inline posenc__expk posenc__expk_make(void) {
    posenc__expk k;
    k.lo = pv4_splat(-87.33654475f);
    k.hi = pv4_splat(88.0f);
    k.log2e = pv4_splat(1.44269504088896341f);
    /* 1.5 * 2^23 + 127: x log2(e) + magic rounds to an integer and holds 2^n's biased
     * exponent in its low bits (pv4_pow2_biased) */
    k.magic = pv4_splat(12583039.0f);
    /* ln2 split in two so n*ln2hi is exact: r = x - n ln2 to ~1e-11 */
    k.ln2hi = pv4_splat(0.693359375f);
    k.ln2lo = pv4_splat(-2.12194440e-4f);
    /* degree-5 near-minimax fit of e^r on [-ln2/2, ln2/2] with the constant term pinned to 1
     * (9.5e-8 relative), so exp(0) is exactly 1 */
    k.c5 = pv4_splat(8.290314624418746e-3f);
    k.c4 = pv4_splat(4.18979293364168e-2f);
    k.c3 = pv4_splat(1.6667636196255245e-1f);
    k.c2 = pv4_splat(4.9999149530291803e-1f);
    k.c1 = pv4_splat(9.999997071890011e-1f);
    k.one = pv4_splat(1.0f);
    return k;
}

/* exp of xc in [lo, hi]; lanes where x < lo give 0 (x itself may be -INFINITY there: the NaN
 * it makes on the way is masked out) */
static inline pv4 posenc__exp4k_in(pv4 xc, pv4 x, const posenc__expk *k) {
    const pv4 t = pv4_add(pv4_mul(xc, k->log2e), k->magic);
    const pv4 n = pv4_sub(t, k->magic);
    const pv4 r = pv4_sub(pv4_sub(xc, pv4_mul(n, k->ln2hi)), pv4_mul(n, k->ln2lo));
    pv4 p = pv4_add(pv4_mul(k->c5, r), k->c4);
    p = pv4_add(pv4_mul(p, r), k->c3);
    p = pv4_add(pv4_mul(p, r), k->c2);
    p = pv4_add(pv4_mul(p, r), k->c1);
    p = pv4_add(pv4_mul(p, r), k->one);
    return pv4_zero_lt(pv4_mul(p, pv4_pow2_biased(t)), x, k->lo);
}

static inline pv4 posenc__exp4k(pv4 x, const posenc__expk *k) {
    return posenc__exp4k_in(pv4_min(pv4_max(x, k->lo), k->hi), x, k);
}

/* The softmax's case, x <= 0 or -INFINITY (never NaN): no clamping needed, the same bits as
 * posenc__exp4k. */
static inline pv4 posenc__exp4k_nonpos(pv4 x, const posenc__expk *k) {
    return posenc__exp4k_in(x, x, k);
}

static inline pv4 posenc__exp4(pv4 x) {
    const posenc__expk k = posenc__expk_make();
    return posenc__exp4k(x, &k);
}

/* The register-blocked micro-kernels of attention.c (exposed for the native tests).
 * QK: out[r][8p + c] = scale * sum_d a[r][d] * b[p*pstride + d*drow + c], r < 4, p < np, c < 8
 *     (4 rows x 8 columns of pv4 accumulators; b is a key panel or a matrix with drow = n).
 * QK_T: the attention form: a packed transposed, qt[4d + r] = a[r][d], b in panels of 8
 *     (pstride = 8 dim, drow = 8).
 * PV: acc[r*astride + 8c + l] += sum_j p[r*POSENC_ATTENTION_TILE + j] * vp[c*cstride + 8j + l],
 *     r < 4, j < n, c < nc, l < 8 (V packed per head into column panels of 8). */
void posenc__attn_kernel_qk(const float *const a[4], const float *b, int32_t np, int32_t dim,
                            size_t pstride, size_t drow, float scale, float *out, size_t ostride);
void posenc__attn_kernel_qk_t(const float *qt, const float *b, int32_t np, int32_t dim, float scale,
                              float *out, size_t ostride);
void posenc__attn_kernel_pv(const float *p, int32_t n, const float *vp, int32_t nc, size_t cstride,
                            float *acc, size_t astride);

/* Where V element d of key j sits in a packed value block (attention.c's scratch and the KV
 * cache): blocks of POSENC_ATTENTION_TILE keys, each column panels of 8,
 * [j / TILE][d / 8][j % TILE][d % 8], with dim_v rounded up to 8. */
static inline size_t posenc__kv_v_index(int64_t j, int64_t d, int64_t dim_v) {
    const int64_t T = POSENC_ATTENTION_TILE, dv8 = (dim_v + 7) / 8 * 8;
    return (size_t)((j / T) * T * dv8 + (d / 8) * T * 8 + (j % T) * 8 + d % 8);
}

#endif /* POSENC_INTERNAL_H */
