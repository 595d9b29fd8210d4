/* Native tests of the attention engine (run under ASan/UBSan): the vectorised exp against libm,
 * the QK and PV micro-kernels against plain double loops, the whole call against a naive
 * double-precision attention, and the status codes. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "posenc.h"
#include "posenc_internal.h"

/* Metric: relative error |y - exp(x)| / exp(x) in units of float32 epsilon (2^-23), with exp
 * taken from libm in double. The Cephes polynomial is documented at ~1 ulp; we allow 2. */
static void test_exp(void) {
    double worst = 0;
    float worst_x = 0;
    for (int i = 0; i <= 2000000; i++) {
        const float x = -87.0f + 87.5f * (float)i / 2000000.0f; /* [-87, 0.5] */
        float out[4];
        pv4_store(out, posenc__exp4(pv4_set(x, x, x, x)));
        const double e = exp((double)x);
        const double rel = fabs(out[0] - e) / e / 1.1920928955078125e-7;
        if (rel > worst) worst = rel, worst_x = x;
    }
    printf("exp4 worst %.3f eps\n", worst);
    CHECK(worst <= 2.0, "exp4 worst %.3f eps at x=%g", worst, worst_x);
    float out[4];
    pv4_store(out, posenc__exp4(pv4_set(0.0f, -INFINITY, -100.0f, -87.4f)));
    CHECK(out[0] == 1.0f, "exp(0) = %g", out[0]);
    CHECK(out[1] == 0.0f, "exp(-inf) = %g (a masked logit must give exactly 0)", out[1]);
    CHECK(out[2] == 0.0f, "exp(-100) = %g (below FLT_MIN flushes to 0)", out[2]);
    CHECK(out[3] == 0.0f, "exp(-87.4) = %g", out[3]);
    pv4_store(out, posenc__exp4(pv4_set(1.0f, 10.0f, 80.0f, 88.0f)));
    for (int l = 0; l < 4; l++) {
        const double xs[4] = {1, 10, 80, 88};
        CHECK(fabs(out[l] - exp(xs[l])) / exp(xs[l]) < 3e-7, "exp(%g) = %g", xs[l], out[l]);
    }
}

/* Metric for the kernels: |kernel - double reference| <= 1e-6 * sum |a_i b_i| (float32
 * accumulation of n products). */
static void test_kernel_qk(void) {
    const int32_t dims[] = {1, 3, 4, 7, 16, 64, 129};
    for (size_t t = 0; t < sizeof dims / sizeof *dims; t++) {
        const int32_t D = dims[t], np = 3;
        float *a = rand_array(4 * (size_t)D), *b = rand_array((size_t)np * D * 8);
        float out[4 * 40];
        const float *rows[4] = {a, a + D, a + 2 * D, a + 3 * D};
        /* the same product through both forms: rows of a, and a packed transposed */
        float *at = malloc(sizeof(float) * 4 * (size_t)D), out_t[4 * 40];
        for (int r = 0; r < 4; r++)
            for (int d = 0; d < D; d++) at[4 * d + r] = a[r * D + d];
        posenc__attn_kernel_qk(rows, b, np, D, (size_t)D * 8, 8, 0.5f, out, 40);
        posenc__attn_kernel_qk_t(at, b, np, D, 0.5f, out_t, 40);
        double worst = 0, worst_t = 0;
        for (int r = 0; r < 4; r++)
            for (int p = 0; p < np; p++)
                for (int c = 0; c < 8; c++) {
                    double s = 0, mag = 0;
                    for (int d = 0; d < D; d++) {
                        const double x = (double)a[r * D + d] * b[((size_t)p * D + d) * 8 + c];
                        s += x, mag += fabs(x);
                    }
                    const double err =
                        fabs(out[r * 40 + p * 8 + c] - 0.5 * s) / (0.5 * mag + 1e-30);
                    const double err_t =
                        fabs(out_t[r * 40 + p * 8 + c] - 0.5 * s) / (0.5 * mag + 1e-30);
                    if (err > worst) worst = err;
                    if (err_t > worst_t) worst_t = err_t;
                }
        CHECK(worst <= 1e-6, "kernel_qk D=%d relative error %g", D, worst);
        CHECK(worst_t <= 1e-6, "kernel_qk_t D=%d relative error %g", D, worst_t);
        free(at);
        free(a);
        free(b);
    }
}

static void test_kernel_pv(void) {
    const int32_t ns[] = {1, 2, 5, 128, POSENC_ATTENTION_TILE};
    for (size_t t = 0; t < sizeof ns / sizeof *ns; t++) {
        const int32_t n = ns[t], nc = 3, pstride = POSENC_ATTENTION_TILE, astride = 30;
        float *p = rand_array(4 * (size_t)pstride), *vp = rand_array((size_t)nc * n * 8);
        float *acc = rand_array(4 * (size_t)astride), *acc0 = malloc(sizeof(float) * 4 * astride);
        memcpy(acc0, acc, sizeof(float) * 4 * astride);
        posenc__attn_kernel_pv(p, n, vp, nc, (size_t)n * 8, acc, astride);
        double worst = 0;
        for (int r = 0; r < 4; r++)
            for (int c = 0; c < nc * 8; c++) {
                double s = acc0[r * astride + c], mag = fabs(s);
                for (int j = 0; j < n; j++) {
                    const double x =
                        (double)p[r * pstride + j] * vp[((size_t)(c / 8) * n + j) * 8 + c % 8];
                    s += x, mag += fabs(x);
                }
                const double err = fabs(acc[r * astride + c] - s) / mag;
                if (err > worst) worst = err;
            }
        for (int r = 0; r < 4; r++) /* columns beyond nc*8 are not touched */
            for (int c = nc * 8; c < astride; c++)
                CHECK(acc[r * astride + c] == acc0[r * astride + c],
                      "pv wrote outside its columns");
        CHECK(worst <= 1e-6, "kernel_pv n=%d relative error %g", n, worst);
        free(p), free(vp), free(acc), free(acc0);
    }
}

/* Naive double attention for a dense bias (or none) and a mask. */
static void naive(double *out, const float *q, const float *k, const float *v, const float *bias,
                  int Q, int K, int H, int D, int DV, double scale, posenc_attention_mask mask) {
    double *s = malloc(sizeof(double) * K);
    for (int h = 0; h < H; h++)
        for (int i = 0; i < Q; i++) {
            const long lim = mask == POSENC_MASK_NONE              ? K - 1
                             : mask == POSENC_MASK_CAUSAL_TOP_LEFT ? i
                                                                   : (long)i + K - Q;
            double m = -INFINITY, sum = 0;
            for (int j = 0; j < K; j++) {
                double x = 0;
                for (int d = 0; d < D; d++)
                    x += (double)q[(i * H + h) * D + d] * k[(j * H + h) * D + d];
                x = x * scale + (bias ? bias[((size_t)h * Q + i) * K + j] : 0.0);
                s[j] = j > lim ? -INFINITY : x;
                if (s[j] > m) m = s[j];
            }
            for (int c = 0; c < DV; c++) out[(i * H + h) * DV + c] = 0;
            if (m == -INFINITY) continue;
            for (int j = 0; j < K; j++) sum += (s[j] = exp(s[j] - m));
            for (int j = 0; j < K; j++)
                for (int c = 0; c < DV; c++)
                    out[(i * H + h) * DV + c] += s[j] / sum * v[(j * H + h) * DV + c];
        }
    free(s);
}

static void test_attention_vs_naive(void) {
    const int shapes[][5] = {
        {1, 1, 1, 1, 1}, {5, 3, 2, 3, 5}, {9, 200, 3, 7, 9}, {130, 131, 1, 16, 16}};
    for (size_t t = 0; t < sizeof shapes / sizeof *shapes; t++) {
        const int Q = shapes[t][0], K = shapes[t][1], H = shapes[t][2], D = shapes[t][3],
                  DV = shapes[t][4];
        float *q = rand_array((size_t)Q * H * D), *k = rand_array((size_t)K * H * D);
        float *v = rand_array((size_t)K * H * DV), *bias = rand_array((size_t)H * Q * K);
        float *out = malloc(sizeof(float) * Q * H * DV), *w = malloc(sizeof(float) * H * Q * K);
        double *ref = malloc(sizeof(double) * Q * H * DV);
        int32_t floats = 0;
        posenc_bias dense = {0};
        dense.table = bias;
        CHECK(posenc_attention_gqa_scratch_size(&floats, Q, K, H, H, D, DV, &dense) == POSENC_OK,
              "size");
        float *scratch = malloc(sizeof(float) * floats);
        for (int mask = 0; mask < 3; mask++)
            for (int withw = 0; withw < 2; withw++) {
                CHECK(posenc_attention_gqa(out, withw ? w : NULL, q, k, v, Q, K, H, D, DV, 0.7,
                                           mask, 0, scratch, floats, H, &dense) == POSENC_OK,
                      "call");
                naive(ref, q, k, v, bias, Q, K, H, D, DV, 0.7, mask);
                double worst = 0;
                for (int i = 0; i < Q * H * DV; i++) {
                    const double e = fabs(out[i] - ref[i]);
                    if (!(e <= worst)) worst = e;
                }
                CHECK(worst < 2e-6, "shape %zu mask %d weights %d: max abs err %g", t, mask, withw,
                      worst);
            }
        free(q), free(k), free(v), free(bias), free(out), free(w), free(ref), free(scratch);
    }
}

/* Fused ALiBi at the largest legal offsets against float64 weights: the bias is formed relative
 * to each row's largest visible bias, so m * rp ~ m * 2^30 never meets float32 rounding. */
static void test_alibi_offset(void) {
    enum { Q = 2, K = 40, H = 3, D = 4 };
    float *q = rand_array(Q * H * D), *k = rand_array(K * H * D), *v = rand_array(K * H * D);
    float out[Q * H * D], w[H * Q * K], scratch[8192];
    posenc_bias b = {0};
    b.kind = POSENC_BIAS_ALIBI;
    const int32_t offsets[] = {1 << 30, -(1 << 30), 12345678};
    for (int f = 0; f < 3; f++)
        for (int o = 0; o < 3; o++) {
            b.form = f;
            CHECK(posenc_attention_gqa(out, w, q, k, v, Q, K, H, D, D, 0.5, 0, offsets[o], scratch,
                                       8192, H, &b) == 0,
                  "call");
            double worst = 0;
            for (int h = 0; h < H; h++)
                for (int i = 0; i < Q; i++) {
                    double s[K], m = -INFINITY, sum = 0;
                    const double slope = posenc__alibi_slope(h, H);
                    for (int j = 0; j < K; j++) {
                        double x = 0;
                        for (int d = 0; d < D; d++)
                            x += (double)q[(i * H + h) * D + d] * k[(j * H + h) * D + d];
                        const double rp = (double)j - ((double)i + offsets[o]);
                        s[j] = 0.5 * x + slope * (f == 0 ? rp : f == 1 ? -fabs(rp) : (double)j);
                        if (s[j] > m) m = s[j];
                    }
                    for (int j = 0; j < K; j++) sum += (s[j] = exp(s[j] - m));
                    for (int j = 0; j < K; j++) {
                        const double e = fabs(w[(h * Q + i) * K + j] - s[j] / sum);
                        if (!(e <= worst)) worst = e;
                    }
                }
            CHECK(worst < 1e-6, "alibi form %d offset %d: weights %g from float64", f, offsets[o],
                  worst);
        }
    free(q), free(k), free(v);
}

static void test_status(void) {
    float q[6] = {1, 0, 0, 1, 1, 1}, v[6] = {1, 2, 3, 4, 5, 6}, out[6], scratch[4096];
    int32_t floats = 0;
    posenc_bias b = {0};
    CHECK(posenc_attention_gqa_scratch_size(&floats, 3, 3, 1, 1, 2, 2, NULL) == POSENC_OK, "size");
    CHECK(floats > 0 && floats <= 4096, "floats %d", floats);
    CHECK(posenc_attention_gqa_scratch_size(NULL, 3, 3, 1, 1, 2, 2, NULL) == POSENC_E_NULL, "null");
    b.kind = (posenc_attention_bias)9;
    CHECK(posenc_attention_gqa_scratch_size(&floats, 3, 3, 1, 1, 2, 2, &b) == POSENC_E_ENUM,
          "enum");
    b.kind = POSENC_BIAS_SHAW;
    CHECK(posenc_attention_gqa_scratch_size(&floats, 3, 3, 1, 1, 2, 2, &b) == POSENC_E_SIZE,
          "shaw k 0");
    for (int i = 0; i < 6; i++) out[i] = 42.0f;
    CHECK(posenc_attention_gqa(out, NULL, q, q, v, 3, 3, 1, 0, 2, 0.5, 0, 0, scratch, 4096, 1,
                               NULL) == POSENC_E_SIZE,
          "dim 0");
    CHECK(posenc_attention_gqa(out, NULL, q, q, v, 3, 3, 1, 2, 2, NAN, 0, 0, scratch, 4096, 1,
                               NULL) == POSENC_E_PARAM,
          "scale NaN");
    CHECK(posenc_attention_gqa(out, NULL, q, q, v, 3, 3, 1, 2, 2, 0.5, (posenc_attention_mask)3, 0,
                               scratch, 4096, 1, NULL) == POSENC_E_ENUM,
          "mask");
    CHECK(posenc_attention_gqa(out, NULL, q, q, v, 3, 3, 1, 2, 2, 0.5, 0, 0, scratch, 3, 1, NULL) ==
              POSENC_E_SCRATCH,
          "scratch");
    CHECK(posenc_attention_gqa(out, NULL, NULL, q, v, 3, 3, 1, 2, 2, 0.5, 0, 0, scratch, 4096, 1,
                               NULL) == POSENC_E_NULL,
          "null q");
    q[1] = NAN;
    CHECK(posenc_attention_gqa(out, NULL, q, q, v, 3, 3, 1, 2, 2, 0.5, 0, 0, scratch, 4096, 1,
                               NULL) == POSENC_E_PARAM,
          "NaN q");
    q[1] = 0;
    float tab[32];
    memset(tab, 0, sizeof tab);
#define ATT(bias)                                                                                  \
    posenc_attention_gqa(out, NULL, q, q, v, 3, 3, 1, 2, 2, 0.5, 0, 0, scratch, 4096, 1, bias)
    memset(&b, 0, sizeof b);
    b.kind = POSENC_BIAS_ALIBI, b.form = 5;
    CHECK(ATT(&b) == POSENC_E_ENUM, "alibi form");
    memset(&b, 0, sizeof b);
    b.kind = POSENC_BIAS_T5, b.table = tab, b.bidirectional = 1, b.num_buckets = 2,
    b.max_distance = 8;
    CHECK(ATT(&b) == POSENC_E_SIZE, "t5 buckets");
    b.num_buckets = 32;
    CHECK(ATT(&b) == POSENC_E_PARAM, "t5 max distance");
    b.max_distance = 128, b.table = NULL;
    CHECK(ATT(&b) == POSENC_E_NULL, "t5 table");
    memset(&b, 0, sizeof b);
    b.kind = POSENC_BIAS_SHAW, b.a_k = tab, b.a_v = tab;
    CHECK(ATT(&b) == POSENC_E_SIZE, "shaw k");
    memset(&b, 0, sizeof b);
    b.kind = POSENC_BIAS_XL, b.u = tab, b.vb = tab, b.r_rows = 3;
    CHECK(ATT(&b) == POSENC_E_NULL, "xl r");
    memset(&b, 0, sizeof b);
    b.chunk = -2;
    CHECK(ATT(&b) == POSENC_E_PARAM, "negative chunk");
    memset(&b, 0, sizeof b);
    const float qs[3] = {1, NAN, 1};
    b.query_scale = qs;
    CHECK(ATT(&b) == POSENC_E_PARAM, "NaN query scale");
#undef ATT
    for (int i = 0; i < 6; i++) CHECK(out[i] == 42.0f, "failed calls wrote nothing");
    CHECK(posenc_attention_gqa(out, NULL, q, q, v, 3, 3, 1, 2, 2, 0.70710678118654752, 0, 0,
                               scratch, 4096, 1, NULL) == POSENC_OK,
          "ok");
    CHECK(fabs(out[2] - 3.406672556078715) < 1e-6,
          "families/attention/attention.md toy example row 1: %g", out[2]);
    /* matmul */
    float a[6] = {1, 2, 3, 4, 5, 6}, m[6] = {1, 0, 0, 1, 1, 1}, c[4];
    CHECK(posenc_matmul(c, a, m, 2, 3, 2) == POSENC_OK, "matmul");
    CHECK(c[0] == 4 && c[1] == 5 && c[2] == 10 && c[3] == 11, "matmul values %g %g %g %g", c[0],
          c[1], c[2], c[3]);
    CHECK(posenc_matmul(c, a, m, 0, 3, 2) == POSENC_E_SIZE, "matmul size");
}

int main(void) {
    test_exp();
    test_kernel_qk();
    test_kernel_pv();
    test_attention_vs_naive();
    test_alibi_offset();
    test_status();
    return CHECK_DONE();
}
