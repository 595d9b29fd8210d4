/* Native test of posenc_max_abs (the JS API's finiteness scan) and posenc__within (the block
 * check of the in-place kernels) against plain loops: exact equality (a max of absolute values
 * involves no rounding), every length 0..67 so the vector body and every tail length are
 * covered, with NaN / +-inf / -0 planted at every position, and limits just below, at and above
 * each element's magnitude. */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "posenc.h"
#include "posenc_internal.h"

static float ref_max_abs(const float *a, int32_t n) {
    float m = 0.0f;
    for (int32_t i = 0; i < n; i++) {
        if (!isfinite(a[i])) return INFINITY;
        if (fabsf(a[i]) > m) m = fabsf(a[i]);
    }
    return m;
}

/* every |a[i]| <= lim (so finite) */
static int ref_within(const float *a, int32_t n, float lim) {
    for (int32_t i = 0; i < n; i++)
        if (!(fabsf(a[i]) <= lim)) return 0;
    return 1;
}

static void test_within(void) {
    float a[67];
    const float bad[] = {NAN, INFINITY, -INFINITY};
    for (int32_t n = 0; n <= 67; n++) {
        for (int32_t i = 0; i < n; i++) a[i] = (float)((i * 37 % 23) - 11) * 0.75f;
        const float m = ref_max_abs(a, n);
        const float lims[] = {0.0f, nextafterf(m, 0.0f), m, nextafterf(m, INFINITY), 3.4028234663852886e38f};
        for (int k = 0; k < 5; k++) {
            const int want = ref_within(a, n, lims[k]);
            CHECK(posenc__within(a, (size_t)n, posenc__fbits(lims[k])) == want, "n=%d limit %g", n, lims[k]);
        }
        for (int32_t p = 0; p < n; p++) {
            for (int b = 0; b < 3; b++) {
                const float keep = a[p];
                a[p] = bad[b];
                CHECK(!posenc__within(a, (size_t)n, posenc__fbits(3.4028234663852886e38f)), "n=%d bad at %d", n, p);
                a[p] = keep;
            }
            /* one element just above the limit, anywhere */
            const float keep = a[p];
            a[p] = -nextafterf(8.25f, INFINITY);
            CHECK(!posenc__within(a, (size_t)n, posenc__fbits(8.25f)), "n=%d big at %d", n, p);
            a[p] = keep;
        }
    }
}

int main(void) {
    test_within();
    float a[67], out = -1.0f;
    const float bad[] = {NAN, INFINITY, -INFINITY};
    for (int32_t n = 0; n <= 67; n++) {
        for (int32_t i = 0; i < n; i++) a[i] = (float)((i * 37 % 23) - 11) * 0.75f;
        CHECK(posenc_max_abs(&out, a, n) == POSENC_OK && out == ref_max_abs(a, n), "n=%d got %g", n, out);
        for (int32_t p = 0; p < n; p++) {
            for (int b = 0; b < 3; b++) {
                const float keep = a[p];
                a[p] = bad[b];
                CHECK(posenc_max_abs(&out, a, n) == POSENC_OK && out == INFINITY, "n=%d bad at %d", n, p);
                a[p] = keep;
            }
        }
    }
    a[0] = -0.0f;
    CHECK(posenc_max_abs(&out, a, 1) == POSENC_OK && out == 0.0f, "-0");
    a[0] = -3.4e38f;
    CHECK(posenc_max_abs(&out, a, 1) == POSENC_OK && out == 3.4e38f, "-FLT_MAX-ish");
    CHECK(posenc_max_abs(NULL, a, 1) == POSENC_E_NULL, "null out");
    CHECK(posenc_max_abs(&out, NULL, 1) == POSENC_E_NULL, "null a");
    CHECK(posenc_max_abs(&out, a, -1) == POSENC_E_SIZE, "negative n");
    return CHECK_DONE();
}
