/* Native tests of the sinusoidal family and the angle-addition engine (run under ASan/UBSan).
 * The reference is the plain definition evaluated per element in float64. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "posenc.h"
#include "posenc_internal.h"

/* Scalar reference for posenc__sincos_table: one libm call per element. */
static double engine_error(int interleaved, int32_t rows, int32_t npairs, double p0, double step,
                           double scale) {
    const size_t stride = interleaved ? 2 * (size_t)npairs + 3 : 2 * (size_t)npairs + 5;
    float *buf = malloc(sizeof(float) * stride * rows + 4 * sizeof(float));
    double *w = malloc(sizeof(double) * npairs);
    for (int32_t i = 0; i < npairs; i++) w[i] = pow(10000.0, -2.0 * i / (2.0 * npairs));
    float *s = buf, *c = interleaved ? buf + 1 : buf + npairs + 1;
    posenc__sincos_table(s, c, stride, interleaved, rows, npairs, p0, step, w, scale);
    const size_t ps = interleaved ? 2 : 1;
    double err = 0;
    for (int32_t r = 0; r < rows; r++)
        for (int32_t i = 0; i < npairs; i++) {
            double a = (p0 + r * step) * w[i];
            double es = fabs(s[r * stride + i * ps] - scale * sin(a));
            double ec = fabs(c[r * stride + i * ps] - scale * cos(a));
            if (es > err) err = es;
            if (ec > err) err = ec;
        }
    free(buf);
    free(w);
    return err;
}

static void test_engine(void) {
    const int32_t rows[] = {1, 3, 63, 64, 65, 200, 1000};
    const int32_t pairs[] = {1, 2, 3, 5, 64, 65, 130};
    for (int il = 0; il < 2; il++)
        for (size_t a = 0; a < sizeof rows / sizeof *rows; a++)
            for (size_t b = 0; b < sizeof pairs / sizeof *pairs; b++) {
                double e = engine_error(il, rows[a], pairs[b], 17.0, 1.0, 1.0);
                CHECK(e < 4e-7, "interleaved=%d rows=%d pairs=%d err=%g", il, rows[a], pairs[b], e);
            }
    CHECK(engine_error(1, 500, 40, 1048000.0, 1.0, 1.0) < 4e-7, "near 2^20");
    CHECK(engine_error(0, 300, 33, 299.0, -1.0, 1.0) < 4e-7, "descending positions");
    CHECK(engine_error(0, 300, 33, 0.0, 0.25, 1.25) < 5e-7, "fractional step, scaled");
}

static void test_fill(void) {
    float t[8 * 51];
    CHECK(posenc_sinusoidal_fill(t, 51, 8, 10000.0, POSENC_LAYOUT_INTERLEAVED, POSENC_SPACING_PAPER,
                                 POSENC_ODD_ERROR, 0.0) == POSENC_OK,
          "fill ok");
    CHECK(fabs(t[50 * 8 + 0] - -0.26237485370392877) < 1e-7, "p=50 s0 %g", t[400]);
    CHECK(fabs(t[50 * 8 + 7] - 0.99875026039496628) < 1e-7, "p=50 c3");
    /* failures leave the output untouched */
    memset(t, 0x7f, sizeof t);
    CHECK(posenc_sinusoidal_fill(t, 51, 7, 10000.0, 0, 0, POSENC_ODD_ERROR, 0) == POSENC_E_ODD,
          "odd");
    CHECK(posenc_sinusoidal_fill(t, 0, 8, 10000.0, 0, 0, 0, 0) == POSENC_E_SIZE, "length 0");
    CHECK(posenc_sinusoidal_fill(t, 51, 8, 1.0, 0, 0, 0, 0) == POSENC_E_PARAM, "base 1");
    CHECK(posenc_sinusoidal_fill(t, 51, 8, NAN, 0, 0, 0, 0) == POSENC_E_PARAM, "base NaN");
    CHECK(posenc_sinusoidal_fill(t, 51, 8, 1e4, (posenc_layout)7, 0, 0, 0) == POSENC_E_ENUM,
          "layout");
    CHECK(posenc_sinusoidal_fill(t, 51, 8, 1e4, 0, 0, 0, INFINITY) == POSENC_E_PARAM, "offset inf");
    CHECK(posenc_sinusoidal_fill(t, 1 << 20, 1 << 10, 1e4, 0, 0, 0, 0) == POSENC_E_SIZE, "too big");
    CHECK(posenc_sinusoidal_fill(NULL, 1, 8, 1e4, 0, 0, 0, 0) == POSENC_E_NULL, "null");
    unsigned char *bytes = (unsigned char *)t;
    int untouched = 1;
    for (size_t i = 0; i < sizeof t; i++) untouched &= bytes[i] == 0x7f;
    CHECK(untouched, "failed calls wrote nothing");
    CHECK(posenc_sinusoidal2d_fill(t, 2, 2, 6, 1e4, 0) == POSENC_E_ODD, "2d dim%%4");
    CHECK(strcmp(posenc_status_string(POSENC_E_ODD), "a dimension must be even") == 0,
          "status text");
    CHECK(posenc_status_string(12345) != NULL, "unknown code has text");
}

static void test_similarity(void) {
    float t[4 * 3] = {1, 0, 0, 0, 2, 0, 0, 0, 0, 3, 4, 0};
    float g[16];
    CHECK(posenc_similarity(g, t, 4, 3, 0) == POSENC_OK, "ok");
    CHECK(g[0] == 1 && g[5] == 4 && g[1] == 0 && g[3 * 4 + 0] == 3, "gram");
    CHECK(posenc_similarity(g, t, 4, 3, 1) == POSENC_OK, "ok");
    CHECK(g[3 * 4 + 0] == 0.6f && g[2 * 4 + 2] == 0.0f && g[0] == 1.0f, "cosine, zero row %g",
          g[12]);
    /* float64 sums of exact products: 1e8 + 1 - 1e8 is 1 at every dim (a float32 partial sum
     * gave 0 once the cancelling terms fell in one vector block), every row against every row */
    for (int32_t dim = 3; dim <= 19; dim++) {
        float u[6 * 19] = {0}, h[36];
        for (int r = 0; r < 6; r++) {
            u[r * dim] = r % 2 ? 1.0f : 1e8f;
            u[r * dim + 1] = 1.0f;
            u[r * dim + 2] = r % 2 ? 1.0f : -1e8f;
        }
        CHECK(posenc_similarity(h, u, 6, dim, 0) == POSENC_OK, "dim %d", dim);
        for (int i = 0; i < 6; i++)
            for (int j = 0; j < 6; j++) {
                const double want = (i % 2 && j % 2) ? 3.0 : (i % 2 || j % 2) ? 1.0 : 2e16 + 1.0;
                CHECK(h[i * 6 + j] == (float)want, "dim %d [%d][%d] = %g", dim, i, j, h[i * 6 + j]);
            }
    }
    /* out sharing memory with table: refused, nothing computed */
    float m[16 + 12];
    for (int i = 0; i < 28; i++) m[i] = (float)(i % 5) - 2;
    CHECK(posenc_similarity(m, m, 4, 3, 0) == POSENC_E_PARAM, "out == table");
    CHECK(posenc_similarity(m + 4, m, 4, 3, 0) == POSENC_E_PARAM, "out inside table");
    CHECK(posenc_similarity(m, m + 15, 4, 3, 0) == POSENC_E_PARAM, "last float of out is table[0]");
    CHECK(posenc_similarity(m, m + 16, 4, 3, 0) == POSENC_OK, "adjacent");
}

int main(void) {
    test_engine();
    test_fill();
    test_similarity();
    return CHECK_DONE();
}
