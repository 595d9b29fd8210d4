/* Native tests of the relative and learned families (run under ASan/UBSan). Every kernel built
 * on the vector layer or the Toeplitz fill is compared with a plain per-element evaluation of
 * its definition written here; the error metric is stated with each check (exact equality for
 * integers, copies and single-rounded products). */
#define _DEFAULT_SOURCE /* M_PI */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "posenc.h"
#include "posenc_internal.h"

/* ---- plain references ---- */

static double ref_slope(int32_t h, int32_t heads) { /* fairseq get_slopes via pow, not exp2 */
    int32_t c = 1;
    while (2 * (int64_t)c <= heads) c *= 2;
    return h < c ? pow(2.0, -8.0 * (h + 1) / c) : pow(2.0, -4.0 * (2 * (h - c) + 1) / c);
}

/* Exact T5 bucket by integer threshold search, using long double logs only to pick the start
 * and exact repeated multiplication in uint64 where it fits (small configs only). */
static int32_t ref_bucket_small(int64_t rp, int bidi, int32_t B, int32_t D) {
    int32_t ret = 0, nb = B;
    int64_t n;
    if (bidi) {
        nb /= 2;
        if (rp > 0) ret = nb;
        n = rp < 0 ? -rp : rp;
    } else
        n = rp < 0 ? -rp : 0;
    const int32_t me = nb / 2;
    if (n < me) return ret + (int32_t)n;
    /* largest k with n^span * me^k >= D^k * me^span, compared as exact doubles: span <= 8 and
     * n, D <= 300 keep every power below 2^53 */
    const int32_t span = nb - me;
    int32_t k = 0;
    for (int32_t t = 1; t <= span; t++) {
        double lhs = 1, rhs = 1;
        for (int32_t e = 0; e < span; e++) {
            lhs *= (double)n;
            rhs *= (double)me;
        }
        for (int32_t e = 0; e < t; e++) {
            lhs *= (double)me;
            rhs *= (double)D;
        }
        if (lhs >= rhs) k = t;
    }
    int32_t v = me + k;
    return ret + (v < nb - 1 ? v : nb - 1);
}

static void test_slopes(void) {
    float s[600];
    for (int32_t heads = 1; heads <= 600; heads++) {
        CHECK(posenc_alibi_slopes(s, heads) == POSENC_OK, "slopes %d", heads);
        for (int32_t h = 0; h < heads; h++)
            CHECK(s[h] == (float)ref_slope(h, heads), "heads %d head %d: %.9g", heads, h, s[h]);
    }
    CHECK(posenc__alibi_slope(0, 2147483647) == exp2(-8.0 / 1073741824.0), "no overflow at 2^31-1");
    CHECK(posenc_alibi_slopes(s, 0) == POSENC_E_SIZE &&
              posenc_alibi_slopes(NULL, 1) == POSENC_E_NULL,
          "errors");
}

static void test_alibi(void) {
    const int32_t shapes[][4] = {{1, 1, 1, 0},   {3, 7, 7, 0},    {5, 9, 17, 8},
                                 {6, 17, 5, -3}, {2, 33, 70, 37}, {12, 64, 64, 0}};
    for (size_t c = 0; c < sizeof shapes / sizeof *shapes; c++)
        for (int form = 0; form < 3; form++)
            for (int causal = 0; causal < 2; causal++) {
                const int32_t H = shapes[c][0], Q = shapes[c][1], K = shapes[c][2],
                              off = shapes[c][3];
                float *o = malloc(sizeof(float) * H * Q * K);
                CHECK(posenc_alibi_bias(o, H, Q, K, (posenc_alibi_form)form, causal, off) ==
                          POSENC_OK,
                      "alibi");
                int bad = 0;
                for (int32_t h = 0; h < H; h++)
                    for (int32_t i = 0; i < Q; i++)
                        for (int32_t j = 0; j < K; j++) {
                            const double m = ref_slope(h, H);
                            const int64_t rp = (int64_t)j - i - off;
                            float want;
                            if (causal && rp > 0)
                                want = -INFINITY;
                            else if (form == POSENC_ALIBI_RELATIVE)
                                want = (float)(m * rp);
                            else if (form == POSENC_ALIBI_SYMMETRIC)
                                want = (float)(-m * (rp < 0 ? -rp : rp));
                            else
                                want = (float)(m * j);
                            bad += o[((size_t)h * Q + i) * K + j] != want;
                        }
                CHECK(bad == 0, "alibi %zu form %d causal %d: %d mismatches (exact)", c, form,
                      causal, bad);
                free(o);
            }
    float x[4] = {7, 7, 7, 7};
    CHECK(posenc_alibi_bias(x, 1, 2, 2, (posenc_alibi_form)3, 1, 0) == POSENC_E_ENUM && x[0] == 7,
          "enum, untouched");
    CHECK(posenc_alibi_bias(x, 1 << 10, 1 << 10, 1 << 10, 0, 1, 0) == POSENC_E_SIZE, "too big");
}

static void test_t5(void) {
    /* the families/relative/t5.md boundary points of the defaults */
    CHECK(posenc__t5_bucket(-16, 1, 32, 128) == 10 && posenc__t5_bucket(-32, 1, 32, 128) == 12 &&
              posenc__t5_bucket(-64, 1, 32, 128) == 14,
          "bidirectional boundaries");
    CHECK(posenc__t5_bucket(16, 1, 32, 128) == 26 && posenc__t5_bucket(32, 1, 32, 128) == 28 &&
              posenc__t5_bucket(64, 1, 32, 128) == 30,
          "positive boundaries");
    CHECK(posenc__t5_bucket(-91, 1, 32, 128) == 15 && posenc__t5_bucket(-90, 1, 32, 128) == 14,
          "saturation 91");
    CHECK(posenc__t5_bucket(-113, 0, 32, 128) == 31 && posenc__t5_bucket(-112, 0, 32, 128) == 30,
          "saturation 113");
    CHECK(posenc__t5_bucket(INT64_C(-9000000000), 1, 32, 128) == 15, "huge distance");
    /* exhaustive small configurations against the exact integer reference */
    const int32_t cfg[][2] = {{32, 128}, {16, 64}, {8, 20},  {12, 100},
                              {4, 3},    {2, 2},   {6, 300}, {17, 40}};
    for (size_t c = 0; c < sizeof cfg / sizeof *cfg; c++)
        for (int bidi = 0; bidi < 2; bidi++) {
            const int32_t B = cfg[c][0], D = cfg[c][1];
            const int32_t me = (bidi ? B / 2 : B) / 2;
            if ((bidi && B < 4) || D <= me || (bidi ? B / 2 - me : B - me) > 8) continue;
            int bad = 0;
            for (int64_t rp = -700; rp <= 700; rp++)
                bad += posenc__t5_bucket(rp, bidi, B, D) != ref_bucket_small(rp, bidi, B, D);
            CHECK(bad == 0, "B=%d D=%d bidi=%d: %d mismatches", B, D, bidi, bad);
        }
    /* matrices (Toeplitz fill) against per-element buckets */
    const int32_t Q = 70, K = 45, off = 13;
    int32_t *b = malloc(sizeof(int32_t) * Q * K);
    float *w = malloc(sizeof(float) * 32 * 3), *o = malloc(sizeof(float) * 3 * Q * K);
    for (int t = 0; t < 96; t++) w[t] = (float)t * 0.25f - 3.0f;
    for (int bidi = 0; bidi < 2; bidi++) {
        CHECK(posenc_t5_buckets(b, Q, K, bidi, 32, 128, off) == POSENC_OK, "buckets");
        CHECK(posenc_t5_bias(o, w, 3, Q, K, bidi, 32, 128, off) == POSENC_OK, "bias");
        int bad = 0, badw = 0;
        for (int32_t i = 0; i < Q; i++)
            for (int32_t j = 0; j < K; j++) {
                const int32_t want = posenc__t5_bucket((int64_t)j - i - off, bidi, 32, 128);
                bad += b[i * K + j] != want;
                for (int h = 0; h < 3; h++)
                    badw += o[((size_t)h * Q + i) * K + j] != w[want * 3 + h];
            }
        CHECK(bad == 0 && badw == 0, "t5 matrices bidi=%d: %d / %d mismatches", bidi, bad, badw);
    }
    CHECK(posenc_t5_buckets(b, Q, K, 1, 3, 128, 0) == POSENC_E_PARAM, "B=3 bidirectional");
    CHECK(posenc_t5_buckets(b, Q, K, 0, 1, 128, 0) == POSENC_E_PARAM, "B=1 causal");
    CHECK(posenc_t5_buckets(b, Q, K, 1, 32, 8, 0) == POSENC_E_PARAM, "D = max_exact");
    w[7] = NAN;
    CHECK(posenc_t5_bias(o, w, 3, Q, K, 1, 32, 128, 0) == POSENC_E_PARAM, "NaN weight");
    free(b);
    free(w);
    free(o);
}

static void test_shaw_xl(void) {
    int32_t s[25];
    const int32_t spec[25] = {2, 3, 4, 4, 4, 1, 2, 3, 4, 4, 0, 1, 2,
                              3, 4, 0, 0, 1, 2, 3, 0, 0, 0, 1, 2};
    CHECK(posenc_shaw_indices(s, 5, 5, 2, 0) == POSENC_OK && memcmp(s, spec, sizeof s) == 0,
          "Shaw, relative.md");
    CHECK(posenc_shaw_indices(s, 5, 5, 0, 0) == POSENC_E_PARAM, "k = 0");
    { /* Toeplitz fill vs per-element clipping (exact), unequal sizes and offsets */
        const int32_t Q = 23, K = 31;
        int32_t *m = malloc(sizeof(int32_t) * Q * K);
        for (int32_t off = -9; off <= 12; off += 7)
            for (int32_t k = 1; k <= 40; k += 13) {
                CHECK(posenc_shaw_indices(m, Q, K, k, off) == POSENC_OK, "shaw");
                int bad = 0;
                for (int32_t i = 0; i < Q; i++)
                    for (int32_t j = 0; j < K; j++) {
                        int32_t rp = j - i - off;
                        rp = rp < -k ? -k : rp > k ? k : rp;
                        bad += m[i * K + j] != rp + k;
                    }
                CHECK(bad == 0, "shaw k=%d off=%d: %d mismatches", k, off, bad);
            }
        free(m);
    }
    /* R against per-element sin/cos (metric: max abs error <= 4e-7) */
    const int32_t klen = 300, dim = 18, clamp = 120;
    float *r = malloc(sizeof(float) * klen * dim);
    CHECK(posenc_xl_positions(r, klen, dim, 10000.0, clamp) == POSENC_OK, "R");
    double err = 0;
    for (int32_t t = 0; t < klen; t++)
        for (int32_t i = 0; i < dim / 2; i++) {
            double p = klen - 1 - t;
            if (p > clamp) p = clamp;
            const double wi = 1.0 / pow(10000.0, 2.0 * i / dim);
            err = fmax(err, fabs(r[t * dim + i] - sin(p * wi)));
            err = fmax(err, fabs(r[t * dim + dim / 2 + i] - cos(p * wi)));
        }
    CHECK(err <= 4e-7, "R error %g", err);
    CHECK(posenc_xl_positions(r, klen, 7, 10000.0, 0) == POSENC_E_ODD, "odd dim");
    /* rel-shift in place and out of place vs the definition (exact copies) */
    const int32_t q = 6, mem = 3, k = q + mem;
    float x[54], y[54], z[54];
    for (int e = 0; e < q * k; e++) x[e] = z[e] = (float)e;
    CHECK(posenc_xl_rel_shift(y, x, q, mem) == POSENC_OK &&
              posenc_xl_rel_shift(z, z, q, mem) == POSENC_OK,
          "shift");
    int bad = 0;
    for (int i = 0; i < q; i++)
        for (int j = 0; j < k; j++) {
            const float want = j <= i + mem ? x[i * k + j + q - 1 - i] : 0.0f;
            bad += y[i * k + j] != want || z[i * k + j] != want;
        }
    CHECK(bad == 0, "rel shift: %d mismatches", bad);
    CHECK(posenc_xl_rel_shift(x + 1, x, q, mem) == POSENC_E_PARAM, "partial overlap refused");
    /* four-term score vs float64 (metric: abs error <= 1e-5 for O(1) inputs, dim 37) */
    const int32_t Q = 5, M = 4, KK = Q + M, H = 2, DD = 37;
    float *qq = malloc(sizeof(float) * Q * H * DD), *kk = malloc(sizeof(float) * KK * H * DD);
    float *rr = malloc(sizeof(float) * KK * H * DD), *u = malloc(sizeof(float) * H * DD);
    float *v = malloc(sizeof(float) * H * DD), *o = malloc(sizeof(float) * H * Q * KK);
    for (int e = 0; e < Q * H * DD; e++) qq[e] = (float)sin(e * 0.7);
    for (int e = 0; e < KK * H * DD; e++) {
        kk[e] = (float)cos(e * 0.3);
        rr[e] = (float)sin(e * 1.3 + 1);
    }
    for (int e = 0; e < H * DD; e++) {
        u[e] = (float)cos(e * 2.1);
        v[e] = (float)sin(e * 0.1);
    }
    CHECK(posenc_xl_scores(o, qq, kk, rr, u, v, Q, KK, H, DD, 0.5) == POSENC_OK, "scores");
    double serr = 0;
    int masked_ok = 1;
    for (int h = 0; h < H; h++)
        for (int i = 0; i < Q; i++)
            for (int j = 0; j < KK; j++) {
                const float got = o[(h * Q + i) * KK + j];
                if (j > i + M) {
                    masked_ok &= got == -INFINITY;
                    continue;
                }
                double s = 0;
                const int t = j + Q - 1 - i;
                for (int d = 0; d < DD; d++) {
                    const double qd = qq[(i * H + h) * DD + d];
                    s += (qd + u[h * DD + d]) * kk[(j * H + h) * DD + d] +
                         (qd + v[h * DD + d]) * rr[(t * H + h) * DD + d];
                }
                serr = fmax(serr, fabs(got - 0.5 * s));
            }
    CHECK(serr <= 1e-5 && masked_ok, "xl scores error %g masked %d", serr, masked_ok);
    CHECK(posenc_xl_scores(o, qq, kk, rr, u, v, Q, Q - 1, H, DD, 0.5) == POSENC_E_SIZE,
          "keys < queries");
    free(r);
    free(qq);
    free(kk);
    free(rr);
    free(u);
    free(v);
    free(o);
}

static void test_learned(void) {
    /* the deterministic log against libm (metric: relative error <= 4e-16) */
    double lerr = 0;
    for (double x = 1e-300; x < 1e300; x *= 1.37)
        lerr = fmax(lerr, fabs(posenc__det_log(x) - log(x)) / fmax(1.0, fabs(log(x))));
    for (double x = 0.5; x < 2.0; x += 0.001) lerr = fmax(lerr, fabs(posenc__det_log(x) - log(x)));
    CHECK(lerr <= 4e-16, "det_log error %g", lerr);
    /* the quantile inverts the normal CDF (Acklam: relative error 1.2e-9 in x) */
    double qerr = 0;
    for (double p = 1e-15; p < 1.0; p = p < 0.01 ? p * 3 : p + 0.001) {
        const double x = posenc__normal_quantile(p);
        const double back = 0.5 * erfc(-x / sqrt(2.0));
        /* error in x implied by the error in p: dx = dp / pdf(x), relative to |x| */
        const double pdf = exp(-0.5 * x * x) / sqrt(2.0 * M_PI);
        if (fabs(x) > 1e-3) qerr = fmax(qerr, fabs(back - p) / pdf / fabs(x));
    }
    CHECK(qerr <= 1.5e-9, "quantile relative error in x %g", qerr);
    /* bits shared with the wasm builds (families/learned/learned.test.js GOLDEN_SEED42) */
    float g[4];
    const float golden[4] = {0.5179010629653931f, -0.031432799994945526f, 1.2662736177444458f,
                             0.2547459304332733f};
    CHECK(posenc_learned_init(g, 1, 4, 1.0, 42, 0) == POSENC_OK && memcmp(g, golden, sizeof g) == 0,
          "golden %.9g %.9g %.9g %.9g", g[0], g[1], g[2], g[3]);
    /* gather / add / concat vs plain loops (exact copies and single float adds) */
    float table[5 * 6], x[3 * 6], out[4 * 9];
    for (int e = 0; e < 30; e++) table[e] = (float)e * 0.5f;
    for (int e = 0; e < 18; e++) x[e] = (float)e - 4.0f;
    const int32_t pos[4] = {4, -1, 7, 2};
    CHECK(posenc_learned_gather(out, table, 5, 6, pos, 4, POSENC_OOR_ERROR) == POSENC_E_RANGE,
          "range error");
    CHECK(posenc_learned_gather(out, table, 5, 6, pos, 4, POSENC_OOR_CLAMP) == POSENC_OK, "clamp");
    const int32_t clamped[4] = {4, 0, 4, 2};
    int bad = 0;
    for (int c = 0; c < 4; c++)
        for (int d = 0; d < 6; d++) bad += out[c * 6 + d] != table[clamped[c] * 6 + d];
    CHECK(posenc_learned_gather(out, table, 5, 6, pos, 4, POSENC_OOR_ZERO) == POSENC_OK, "zero");
    for (int d = 0; d < 6; d++)
        bad += out[6 + d] != 0.0f || out[12 + d] != 0.0f || out[d] != table[24 + d];
    CHECK(bad == 0, "gather: %d mismatches", bad);
    float y[18];
    memcpy(y, x, sizeof y);
    CHECK(posenc_learned_add(y, table, 5, 3, 6, 2, NULL) == POSENC_OK, "add");
    bad = 0;
    for (int e = 0; e < 18; e++) bad += y[e] != x[e] + table[12 + e];
    CHECK(posenc_learned_concat(out, x, table, 5, 3, 6, 3, 1) == POSENC_OK,
          "concat"); /* table as [10][3] */
    for (int p = 0; p < 3; p++)
        for (int d = 0; d < 9; d++)
            bad += out[p * 9 + d] != (d < 6 ? x[p * 6 + d] : table[(1 + p) * 3 + d - 6]);
    CHECK(bad == 0, "add/concat: %d mismatches", bad);
    CHECK(posenc_learned_add(y, table, 5, 3, 6, 3, NULL) == POSENC_E_RANGE, "add past the table");
    /* gather checks the rows it reads, all before it writes: a NaN in row 3 */
    table[3 * 6 + 4] = NAN;
    const int32_t fine[3] = {0, 9, 4}, reads3[3] = {0, 3, 1};
    CHECK(posenc_learned_gather(out, table, 5, 6, fine, 3, POSENC_OOR_CLAMP) == POSENC_OK,
          "row 3 not read");
    for (int e = 0; e < 18; e++) out[e] = 7.0f;
    CHECK(posenc_learned_gather(out, table, 5, 6, reads3, 3, POSENC_OOR_ERROR) == POSENC_E_PARAM,
          "row 3 read");
    bad = 0;
    for (int e = 0; e < 18; e++) bad += out[e] != 7.0f;
    CHECK(bad == 0, "a refused gather wrote %d elements", bad);
}

static void test_copy(void) {
    /* the vector copy at every misalignment and length (exact) */
    float src[80], dst[90];
    for (int e = 0; e < 80; e++) src[e] = (float)e + 0.5f;
    int bad = 0;
    for (int a = 0; a < 4; a++)
        for (int b = 0; b < 4; b++)
            for (size_t n = 0; n <= 70; n++) {
                for (int e = 0; e < 90; e++) dst[e] = -1.0f;
                posenc__copy32(dst + b, src + a, n);
                for (int e = 0; e < 90; e++) {
                    const float want = (e >= b && (size_t)(e - b) < n) ? src[a + e - b] : -1.0f;
                    bad += dst[e] != want;
                }
            }
    CHECK(bad == 0, "copy32: %d mismatches", bad);
}

/* posenc_learned_add checks x and the rows it reads block by block (512 elements) as it adds
 * them: a refused call has added the blocks before the failing one, exactly, and left the rest
 * as given; maxima are over everything read, as given. A bad value in an unread row is not read. */
static void test_add_check(void) {
    enum { DIM = 100, LEN = 65, ROWS = 70, OFF = 3, N = LEN * DIM, BLOCK = 512 };
    float *x = malloc(sizeof(float) * N), *y = malloc(sizeof(float) * N);
    float *table = malloc(sizeof(float) * ROWS * DIM);
    for (int e = 0; e < ROWS * DIM; e++) table[e] = (float)((e * 37) % 101 - 50) * 0.25f;
    /* cases: 0 NaN in x in block 2; 1 inf in a read row in block 1; 2 NaN in an unread row;
     * 3 x[10] = 3e38 passes block 0, the table's 1e38 in block 2 breaks the sum there */
    for (int c = 0; c < 4; c++) {
        for (int e = 0; e < N; e++) x[e] = (float)(e % 53) - 26.0f;
        table[(OFF + LEN) * DIM + 7] = 0.0f;
        table[OFF * DIM + BLOCK + 9] = 1.0f;
        table[OFF * DIM + 2 * BLOCK + 1] = 2.0f;
        int stop = -1; /* the block where the call stops, -1 none */
        if (c == 0) x[2 * BLOCK + 5] = NAN, stop = 2;
        if (c == 1) table[OFF * DIM + BLOCK + 9] = INFINITY, stop = 1;
        if (c == 2) table[(OFF + LEN) * DIM + 7] = NAN;
        if (c == 3) x[10] = 3e38f, table[OFF * DIM + 2 * BLOCK + 1] = 1e38f, stop = 2;
        memcpy(y, x, sizeof(float) * N);
        float maxima[2] = {-1, -1};
        const int32_t r = posenc_learned_add(y, table, ROWS, LEN, DIM, OFF, maxima);
        CHECK(r == (stop < 0 ? POSENC_OK : POSENC_E_PARAM), "case %d: status %d", c, r);
        int bad = 0;
        for (int e = 0; e < N; e++) {
            const float want = stop < 0 || e < stop * BLOCK ? x[e] + table[OFF * DIM + e] : x[e];
            bad += memcmp(&y[e], &want, sizeof want) != 0;
        }
        CHECK(bad == 0, "case %d: %d elements not as documented", c, bad);
        const float mx = c == 0 ? INFINITY : c == 3 ? 3e38f : 26.0f;
        const float mt = c == 1 ? INFINITY : c == 3 ? 1e38f : 12.5f;
        CHECK(maxima[0] == mx && maxima[1] == mt, "case %d: maxima %g %g, want %g %g", c, maxima[0],
              maxima[1], mx, mt);
    }
    free(x);
    free(y);
    free(table);
}

int main(void) {
    test_slopes();
    test_alibi();
    test_t5();
    test_shaw_xl();
    test_learned();
    test_add_check();
    test_copy();
    return CHECK_DONE();
}
