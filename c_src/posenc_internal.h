/*
 * posenc_internal.h -- helpers shared between the family files (never installed).
 */
#ifndef POSENC_INTERNAL_H
#define POSENC_INTERNAL_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "posenc.h"
#include "posenc_simd.h"

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

/* ---- rope internals ---- */

/* The two rotation kernels (rope.c), exposed for the native tests: rotate n pairs of each of
 * `heads` head vectors x + h*stride by one cos/sin row c[n], s[n]. HALF pairs (x[i], x[n+i]);
 * INTERLEAVED pairs (x[2i], x[2i+1]). */
void posenc__rope_rotate_half(float *x, int32_t heads, size_t stride, const float *c,
                              const float *s, int32_t n);
void posenc__rope_rotate_interleaved(float *x, int32_t heads, size_t stride, const float *c,
                                     const float *s, int32_t n);

/* ---- relative internals (alibi, t5, shaw, xl, learned) ---- */

/* ALiBi slope of head `head` (0-based) of `heads` (>= 1), SPEC 4.1 closed form with exp2. */
double posenc__alibi_slope(int32_t head, int32_t heads);

/* T5 bucket of relative position rp = key - query (SPEC 5.1), exact at the integer boundary
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

/* Learned-table initialisation (learned.c), exposed for the native tests: a natural log and
 * Acklam's inverse normal CDF built from + - * / sqrt only, so every build gives the same bits. */
double posenc__det_log(double x);
double posenc__normal_quantile(double p);


/* ---- attention internals ---- */


#endif /* POSENC_INTERNAL_H */
