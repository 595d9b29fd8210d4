/*
 * bias_core.c -- the scalar definitions every relative-bias kernel is built on (ALiBi slope,
 * T5 bucket) and the Toeplitz row extender. They live apart from the public ALiBi/T5 files
 * because the attention loop calls them too, per head or per distance, to fuse the bias instead
 * of materialising it.
 */
#include "posenc_internal.h"

double posenc__alibi_slope(int32_t head, int32_t heads) {
    /* The closed form of families/relative/alibi.md (Press et al. 2022). c = largest power of two <= heads. The first c heads get
     * 2^(-8(k+1)/c); the rest take every other slope of the 2c-head list: 2^(-4(2j+1)/c).
     * (c <= heads/2 rather than 2c <= heads: no int32 overflow for heads >= 2^30.) */
    int32_t c = 1;
    while (c <= heads / 2) c *= 2;
    if (head < c) return exp2(-8.0 * (double)(head + 1) / (double)c);
    return exp2(-4.0 * (double)(2 * (head - c) + 1) / (double)c);
}

/* Is (n/m)^a == (d/m)^r exactly (n, m, d >= 1, a, r >= 0)? Compares prime exponents:
 * a*(v_p(n) - v_p(m)) == r*(v_p(d) - v_p(m)) for every prime p. Only used to confirm that a
 * log quotient which came out within rounding of an integer really is that integer. */
static int power_ratio_equal(int64_t n, int64_t m, int64_t d, int64_t a, int64_t r) {
    for (int64_t p = 2; p * p <= n || p * p <= m || p * p <= d; p += (p == 2 ? 1 : 2)) {
        int64_t en = 0, em = 0, ed = 0;
        while (n % p == 0) {
            n /= p;
            en++;
        }
        while (m % p == 0) {
            m /= p;
            em++;
        }
        while (d % p == 0) {
            d /= p;
            ed++;
        }
        if (a * (en - em) != r * (ed - em)) return 0;
    }
    /* what is left of each number is 1 or a prime; compare the exponents of those primes */
    const int64_t left[3] = {n, m, d};
    for (int t = 0; t < 3; t++) {
        const int64_t p = left[t];
        if (p == 1) continue;
        const int64_t en = n == p, em = m == p, ed = d == p;
        if (a * (en - em) != r * (ed - em)) return 0;
    }
    return 1;
}

int32_t posenc__t5_bucket(int64_t rp, int32_t bidirectional, int32_t num_buckets,
                          int32_t max_distance) {
    int32_t ret = 0, nb = num_buckets;
    int64_t n;
    if (bidirectional) {
        nb /= 2;
        if (rp > 0) ret = nb;
        n = rp < 0 ? -rp : rp;
    } else {
        n = rp < 0 ? -rp : 0;
    }
    const int32_t max_exact = nb / 2;
    if (n < max_exact) return ret + (int32_t)n;
    if (n >= max_distance) return ret + nb - 1; /* log branch would give >= nb - max_exact */
    /* Only here is the log evaluated: max_exact <= n < max_distance, so no log(0), no
     * inf-to-int cast, and 0 <= x < nb - max_exact. */
    const int32_t span = nb - max_exact;
    double x = log((double)n / max_exact) / log((double)max_distance / max_exact) * (double)span;
    /* The true value is an exact integer at points like n = 16, 32, 64 (defaults), where a
     * result one ulp low would truncate to the bucket below. A value within rounding of an
     * integer is snapped only if it is that integer exactly (checked in integers), so a true
     * value just below an integer still truncates down. An exhaustive search over
     * num_buckets <= 160 per direction and max_distance <= 1024 found no non-integer quotient
     * closer than 1.2e-12 (relative) to an integer, 1000x the error of x, so there floor(x) is
     * exact as well. */
    const double r = floor(x + 0.5);
    if (x != r && fabs(x - r) <= 1e-9 * (r > 1.0 ? r : 1.0) &&
        power_ratio_equal(n, max_exact, max_distance, span, (int64_t)r))
        x = r;
    const int32_t v = max_exact + (int32_t)x;
    return ret + (v < nb - 1 ? v : nb - 1);
}

void posenc__toeplitz_extend(void *out, int32_t rows, int32_t cols) {
    /* Row i is row i-1 moved one column right behind its own first element. Reading the row
     * just written keeps the source in L1, so this runs at store bandwidth. 32-bit elements are
     * moved through float lanes: loads and stores only, so every bit pattern survives. */
    float *o = (float *)out;
    const size_t c = (size_t)cols;
    for (int32_t i = 1; i < rows; i++) posenc__copy32(o + i * c + 1, o + (i - 1) * c, c - 1);
}

void posenc__copy32(float *dst, const float *src, size_t n) {
    size_t j = 0;
    /* align the stores (a store that straddles a cache line costs two); loads may straddle */
    while (j < n && ((uintptr_t)(dst + j) & 15)) {
        memcpy(dst + j, src + j, sizeof(float));
        j++;
    }
    for (; j + 16 <= n; j += 16) {
        pv4 a = pv4_load(src + j), b = pv4_load(src + j + 4);
        pv4 c = pv4_load(src + j + 8), d = pv4_load(src + j + 12);
        pv4_store(dst + j, a);
        pv4_store(dst + j + 4, b);
        pv4_store(dst + j + 8, c);
        pv4_store(dst + j + 12, d);
    }
    for (; j + 4 <= n; j += 4) pv4_store(dst + j, pv4_load(src + j));
    for (; j < n; j++) memcpy(dst + j, src + j, sizeof(float));
}
