/*
 * learned.c -- learned absolute position tables (families/learned/learned.md): a deterministic
 * initialisation, gather with an explicit out-of-range policy, add and concatenate.
 *
 * DETERMINISM: the initial table must be the same on the SIMD, scalar and native builds, so
 * nothing here calls libm (whose log differs between musl and glibc in the last bit). Element e
 * draws u in (0, 1) from a counter-based hash of (seed, e, attempt) and maps it through
 * Acklam's inverse normal CDF (relative error 1.2e-9, far below float32), whose tails need a
 * log: ours below uses only + - * / on IEEE doubles (and sqrt, which IEEE rounds exactly).
 */
#include <float.h>

#include "posenc_internal.h"

static inline uint64_t mix64(uint64_t z) { /* splitmix64 finaliser */
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

double posenc__det_log(double x) {
    /* x = m * 2^e with m in [sqrt(1/2), sqrt(2)); ln m = 2 atanh(s), s = (m-1)/(m+1),
     * |s| <= 0.172, so the odd series converges to 1e-17 in 12 terms. x > 0, finite, normal. */
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    int e = (int)((bits >> 52) & 0x7ff) - 1023;
    bits = (bits & 0x000fffffffffffffULL) | 0x3ff0000000000000ULL; /* m in [1, 2) */
    double m;
    memcpy(&m, &bits, sizeof m);
    if (m > 1.4142135623730951) {
        m *= 0.5;
        e++;
    }
    const double s = (m - 1.0) / (m + 1.0), s2 = s * s;
    double term = s, sum = 0.0;
    for (int k = 1; k <= 25; k += 2) {
        sum += term / (double)k;
        term *= s2;
    }
    const double ln2_hi = 6.93147180369123816490e-01, ln2_lo = 1.90821492927058770002e-10;
    return (double)e * ln2_hi + (2.0 * sum + (double)e * ln2_lo);
}

double posenc__normal_quantile(double p) {
    static const double a[6] = {-3.969683028665376e+01, 2.209460984245205e+02,
                                -2.759285104469687e+02, 1.383577518672690e+02,
                                -3.066479806614716e+01, 2.506628277459239e+00};
    static const double b[5] = {-5.447609879822406e+01, 1.615858368580409e+02,
                                -1.556989798598866e+02, 6.680131188771972e+01,
                                -1.328068155288572e+01};
    static const double c[6] = {-7.784894002430293e-03, -3.223964580411365e-01,
                                -2.400758277161838e+00, -2.549732539343734e+00,
                                4.374664141464968e+00,  2.938163982698783e+00};
    static const double d[4] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                                3.754408661907416e+00};
    const double plow = 0.02425;
    if (p < plow || p > 1.0 - plow) {
        const double t = sqrt(-2.0 * posenc__det_log(p < plow ? p : 1.0 - p));
        const double x = (((((c[0] * t + c[1]) * t + c[2]) * t + c[3]) * t + c[4]) * t + c[5]) /
                         ((((d[0] * t + d[1]) * t + d[2]) * t + d[3]) * t + 1.0);
        return p < plow ? x : -x;
    }
    const double q = p - 0.5, r = q * q;
    return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
           (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1.0);
}

/* Redraws allowed per element for the truncated normal: each succeeds with p = 0.954, so all
 * 64 failing has probability 1e-86; the element is then 0 (the mean). */
#define MAX_ATTEMPTS 64

int32_t posenc_learned_init(float *out, int32_t length, int32_t dim, double std, uint32_t seed,
                            int32_t truncated) {
    if (!out) return POSENC_E_NULL;
    if (posenc__check_elems2(length, dim)) return POSENC_E_SIZE;
    /* |z| < 8.3 (u is at least 2^-54 from 0 and 1), so std <= 1e37 keeps std * z in float32 */
    if (!posenc__finite(std) || std < 0.0 || std > 1.0e37) return POSENC_E_PARAM;
    const uint64_t key = mix64((uint64_t)seed + 0x9e3779b97f4a7c15ULL);
    const size_t n = (size_t)length * (size_t)dim;
    for (size_t e = 0; e < n; e++) {
        double z = 0.0;
        for (uint64_t a = 0; a < MAX_ATTEMPTS; a++) {
            const uint64_t bits = mix64(key ^ mix64(((uint64_t)e << 6) | a));
            const double u = ((double)(bits >> 11) + 0.5) * 0x1p-53; /* in (0, 1) */
            const double x = posenc__normal_quantile(u);
            if (!truncated || (x >= -2.0 && x <= 2.0)) {
                z = x;
                break;
            }
        }
        out[e] = (float)(std * z);
    }
    return POSENC_OK;
}

/* The table row position p reads under `mode` (rows > 0), or -1 for a row of zeros. */
static int32_t gather_row(int32_t p, int32_t rows, posenc_out_of_range mode) {
    if (p >= 0 && p < rows) return p;
    if (mode == POSENC_OOR_ZERO) return -1;
    return p < 0 ? 0 : rows - 1;
}

int32_t posenc_learned_gather(float *out, const float *table, int32_t rows, int32_t dim,
                              const int32_t *positions, int32_t count, posenc_out_of_range mode) {
    if (!out || !table || !positions) return POSENC_E_NULL;
    if (posenc__check_elems2(rows, dim) || posenc__check_elems2(count, dim)) return POSENC_E_SIZE;
    if (mode != POSENC_OOR_ERROR && mode != POSENC_OOR_CLAMP && mode != POSENC_OOR_ZERO)
        return POSENC_E_ENUM;
    if (mode == POSENC_OOR_ERROR)
        for (int32_t c = 0; c < count; c++)
            if (positions[c] < 0 || positions[c] >= rows) return POSENC_E_RANGE;
    const size_t D = (size_t)dim;
    /* only the rows gathered are checked (a decode step reads one row of a long table), all of
     * them before anything is written */
    for (int32_t c = 0; c < count; c++) {
        const int32_t p = gather_row(positions[c], rows, mode);
        if (p >= 0 && !posenc__within(table + (size_t)p * D, D, 0x7f7fffffu)) return POSENC_E_PARAM;
    }
    for (int32_t c = 0; c < count; c++) {
        const int32_t p = gather_row(positions[c], rows, mode);
        float *o = out + (size_t)c * D;
        if (p < 0)
            memset(o, 0, D * sizeof(float));
        else
            posenc__copy32(o, table + (size_t)p * D, D);
    }
    return POSENC_OK;
}

static int32_t check_rows(int32_t rows, int32_t length, int32_t dim, int32_t offset) {
    if (posenc__check_elems2(rows, dim) || posenc__check_elems2(length, dim)) return POSENC_E_SIZE;
    if (offset < 0 || (int64_t)offset + length > rows) return POSENC_E_RANGE;
    return POSENC_OK;
}

/* Elements per block of posenc_learned_add's check: 2 KiB of x and 2 KiB of table, in L1 when
 * the block is added right after its check. Measured on x 4096x1024 against the in-place f32x4
 * add stream: 256 elements 92-94%, 512 93-99%, 1024 77-86%, 2048 76%, 8192 61%. */
#define ADD_BLOCK 512

int32_t posenc_learned_add(float *x, const float *table, int32_t rows, int32_t length, int32_t dim,
                           int32_t offset, float *maxima) {
    if (!x || !table) return POSENC_E_NULL;
    int32_t st = check_rows(rows, length, dim, offset);
    if (st) return st;
    const size_t n = (size_t)length * (size_t)dim;
    const float *t = table + (size_t)offset * (size_t)dim; /* rows are contiguous: one run */
    /* Each block is scanned right before it is added, so x and the table are read from memory
     * once (a scan of both first, then the add, read them twice: the check cost as much as the
     * add). The maxima only grow, so the call is refused exactly when the rule over all of x and
     * the rows read fails, and every block added has passed it. */
    float mx = 0.0f, mt = 0.0f;
    size_t e = 0;
    for (; e < n; e += ADD_BLOCK) {
        const size_t b = n - e < ADD_BLOCK ? n - e : ADD_BLOCK;
        const float bx = posenc__max_abs(x + e, b), bt = posenc__max_abs(t + e, b);
        mx = bx > mx ? bx : mx;
        mt = bt > mt ? bt : mt;
        if (!((double)mx + (double)mt <= FLT_MAX)) break; /* inf (NaN too) or an overflow */
        size_t i = 0;
        for (; i + 4 <= b; i += 4)
            pv4_store(x + e + i, pv4_add(pv4_load(x + e + i), pv4_load(t + e + i)));
        for (; i < b; i++) x[e + i] += t[e + i];
    }
    if (maxima) {
        /* the rest is as given: the maxima over all of x and the rows read, for the message */
        if (e < n) {
            const float rx = posenc__max_abs(x + e, n - e), rt = posenc__max_abs(t + e, n - e);
            mx = rx > mx ? rx : mx;
            mt = rt > mt ? rt : mt;
        }
        maxima[0] = mx;
        maxima[1] = mt;
    }
    return e < n ? POSENC_E_PARAM : POSENC_OK;
}

int32_t posenc_learned_concat(float *out, const float *x, const float *table, int32_t rows,
                              int32_t length, int32_t dim_x, int32_t dim_p, int32_t offset) {
    if (!out || !x || !table) return POSENC_E_NULL;
    int32_t st = check_rows(rows, length, dim_p, offset);
    if (st) return st;
    if (posenc__check_elems2(length, (int64_t)dim_x + dim_p) || dim_x < 1) return POSENC_E_SIZE;
    const size_t X = (size_t)dim_x, P = (size_t)dim_p, W = X + P;
    for (size_t p = 0; p < (size_t)length; p++) {
        posenc__copy32(out + p * W, x + p * X, X);
        posenc__copy32(out + p * W + X, table + ((size_t)offset + p) * P, P);
    }
    return POSENC_OK;
}
