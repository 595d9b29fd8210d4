/*
 * bias_core.c -- the two scalar definitions every relative-bias kernel is built on (ALiBi slope,
 * T5 bucket). They live apart from the public ALiBi/T5 files because the attention loop calls
 * them too, per head or per distance, to fuse the bias instead of materialising it.
 */
#include "posenc_internal.h"

double posenc__alibi_slope(int32_t head, int32_t heads) {
    /* SPEC 4.1 closed form. c = largest power of two <= heads. The first c heads get
     * 2^(-8(k+1)/c); the rest take every other slope of the 2c-head list: 2^(-4(2j+1)/c). */
    int32_t c = 1;
    while (c * 2 <= heads) c *= 2;
    if (head < c) return exp2(-8.0 * (double)(head + 1) / (double)c);
    return exp2(-4.0 * (double)(2 * (head - c) + 1) / (double)c);
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
    /* Only here is the log evaluated: n >= max_exact >= 1, so no log(0) and no inf-to-int cast. */
    double x = log((double)n / max_exact) / log((double)max_distance / max_exact) *
               (double)(nb - max_exact);
    /* The true value is an exact integer at points like n = 16, 32, 64 (defaults); a log that is
     * one ulp low would truncate to the bucket below. Snap values a few ulps from an integer. */
    double r = floor(x + 0.5);
    if (fabs(x - r) <= 1e-12 * (r > 1.0 ? r : 1.0)) x = r;
    int32_t v = max_exact + (int32_t)x;
    return ret + (v < nb - 1 ? v : nb - 1);
}
