/* Native test of posenc_max_abs (the JS API's finiteness scan) against a plain loop: exact
 * equality (a max of absolute values involves no rounding), every length 0..67 so the vector
 * body and every tail length are covered, with NaN / +-inf / -0 planted at every position. */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "posenc.h"

static float ref_max_abs(const float *a, int32_t n) {
    float m = 0.0f;
    for (int32_t i = 0; i < n; i++) {
        if (!isfinite(a[i])) return INFINITY;
        if (fabsf(a[i]) > m) m = fabsf(a[i]);
    }
    return m;
}

int main(void) {
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
