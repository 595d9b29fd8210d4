/* Native tests of the RoPE family (run under ASan/UBSan).
 * The SIMD-layer kernels are compared with a plain scalar rotation written here; error metric:
 * max |kernel - reference| over all components, which must be 0 (both do the same float32
 * operations in the same order: u*c - v*s and v*c + u*s, no contraction) and the apply paths
 * are compared with float64 mathematics, max abs error <= 2e-6 for |x| <= 1. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "posenc.h"
#include "posenc_internal.h"

/* the first `upto` of the n pairs of one head */
static void ref_rotate_upto(float *x, const float *c, const float *s, int32_t n, int32_t upto,
                            int interleaved) {
    for (int32_t i = 0; i < upto; i++) {
        const int32_t a = interleaved ? 2 * i : i, b = interleaved ? 2 * i + 1 : n + i;
        const float u = x[a], v = x[b];
        x[a] = u * c[i] - v * s[i];
        x[b] = v * c[i] + u * s[i];
    }
}
static void ref_rotate(float *x, const float *c, const float *s, int32_t n, int interleaved) {
    ref_rotate_upto(x, c, s, n, n, interleaved);
}

static void test_kernels(void) {
    const int32_t heads_list[] = {1, 3};
    for (int il = 0; il < 2; il++)
        for (size_t hi = 0; hi < 2; hi++)
            for (int32_t n = 1; n <= 67; n++) {
                /* heads vectors of 2n floats at a stride of 2n + 3 (gaps between heads), plus
                 * one guard float before: the kernel must touch only the rotated components */
                const int32_t heads = heads_list[hi];
                const size_t stride = 2 * (size_t)n + 3, total = stride * heads + 1;
                float *buf = malloc(sizeof(float) * total), *ref = malloc(sizeof(float) * total);
                float *c = malloc(sizeof(float) * n), *s = malloc(sizeof(float) * n);
                for (size_t i = 0; i < total; i++) buf[i] = ref[i] = frand();
                for (int32_t i = 0; i < n; i++) {
                    double a = frand() * 3.0;
                    c[i] = (float)cos(a);
                    s[i] = (float)sin(a);
                }
                const int32_t done =
                    il ? posenc__rope_rotate_interleaved(buf + 1, heads, stride, c, s, n, 0,
                                                         UINT32_MAX)
                       : posenc__rope_rotate_half(buf + 1, heads, stride, c, s, n, 0, UINT32_MAX);
                CHECK(done == heads, "no limit: every head rotated");
                for (int32_t h = 0; h < heads; h++) ref_rotate(ref + 1 + h * stride, c, s, n, il);
                double err = 0;
                for (size_t i = 0; i < total; i++) err = fmax(err, fabs((double)buf[i] - ref[i]));
                CHECK(err == 0, "interleaved=%d heads=%d n=%d kernel vs scalar reference err=%g",
                      il, heads, n, err);
                free(buf);
                free(ref);
                free(c);
                free(s);
            }
}

/* The kernels' own check: a value past the limit (or NaN) in head 1 of 3 stops the rotation at
 * its pair: head 0 rotated, head 1's pairs before the bad one rotated, that pair and everything
 * after it exactly as given, return 1. A bad value in head 1's unrotated tail stops it before
 * head 1's first pair. Widths cover the SIMD kernels' 8-pair steps, 4-pair steps and single
 * pairs, and a bad pair first, last and inside a step; in the scalar build a head is scanned
 * first and the rotation then goes pair by pair. */
static void test_kernel_check(void) {
    const int32_t widths[] = {1, 4, 7, 8, 9, 12, 16, 17, 64, 67, 256, 300};
    for (int il = 0; il < 2; il++)
        for (size_t wi = 0; wi < sizeof widths / sizeof widths[0]; wi++)
            for (int where = 0; where < 4; where++) {
                const int32_t n = widths[wi], heads = 3, tail = 3;
                const size_t stride = 2 * (size_t)n + tail, total = stride * heads;
                float *buf = malloc(sizeof(float) * total), *given = malloc(sizeof(float) * total);
                float *ref = malloc(sizeof(float) * total);
                float *c = malloc(sizeof(float) * n), *s = malloc(sizeof(float) * n);
                for (size_t i = 0; i < total; i++) given[i] = frand();
                for (int32_t i = 0; i < n; i++) {
                    c[i] = (float)cos(0.3 * i);
                    s[i] = (float)sin(0.3 * i);
                }
                /* where: 0 the second value of the last pair, 1 the first value of pair 0, 2 the
                 * tail, 3 the second value of pair n/2 + 1 (inside a step) */
                const int32_t mid = n / 2 + 1 < n ? n / 2 + 1 : n - 1;
                const int32_t pair = where == 0 ? n - 1 : where == 1 ? 0 : where == 2 ? -1 : mid;
                const size_t off = where == 2   ? 2 * (size_t)n + 1
                                   : where == 1 ? 0
                                   : il         ? 2 * (size_t)pair + 1
                                                : (size_t)n + pair;
                given[stride + off] = where == 1 ? NAN : 2.0f;
                memcpy(buf, given, sizeof(float) * total);
                memcpy(ref, given, sizeof(float) * total);
                ref_rotate(ref, c, s, n, il);
                if (pair > 0) ref_rotate_upto(ref + stride, c, s, n, pair, il);
                const uint32_t limit = 0x3f800000u; /* 1.0f: frand() is within it, 2.0f is not */
                const int32_t done =
                    il ? posenc__rope_rotate_interleaved(buf, heads, stride, c, s, n, tail, limit)
                       : posenc__rope_rotate_half(buf, heads, stride, c, s, n, tail, limit);
                CHECK(done == 1, "il %d n %d where %d: stopped at head %d", il, n, where, done);
                for (size_t i = 0; i < total; i++)
                    CHECK(memcmp(&buf[i], &ref[i], sizeof ref[i]) == 0,
                          "il %d n %d where %d: [%zu] %g, want %g", il, n, where, i, buf[i],
                          ref[i]);
                free(buf);
                free(given);
                free(ref);
                free(c);
                free(s);
            }
}

/* float64 reference rotation of x[L][H][D] (thd), positions p0 + t. */
static double apply_error(int32_t L, int32_t H, int32_t D, int32_t R, posenc_layout layout,
                          double p0, int cached) {
    const size_t n = (size_t)L * H * D;
    float *x = malloc(sizeof(float) * n);
    double *want = malloc(sizeof(double) * n);
    double w[512], att = 0;
    for (size_t i = 0; i < n; i++) want[i] = x[i] = frand();
    CHECK(posenc_rope_freqs(w, &att, R, 10000.0, NULL) == POSENC_OK, "freqs");
    const int32_t np = R / 2;
    for (int32_t t = 0; t < L; t++)
        for (int32_t h = 0; h < H; h++)
            for (int32_t i = 0; i < np; i++) {
                double *row = want + ((size_t)t * H + h) * D;
                const int32_t a = layout == POSENC_LAYOUT_INTERLEAVED ? 2 * i : i;
                const int32_t b = layout == POSENC_LAYOUT_INTERLEAVED ? 2 * i + 1 : np + i;
                const double ang = (p0 + t) * w[i], u = row[a], v = row[b];
                row[a] = u * cos(ang) - v * sin(ang);
                row[b] = v * cos(ang) + u * sin(ang);
            }
    if (cached) {
        const int32_t rows = (int32_t)p0 + L;
        float *cs = malloc(sizeof(float) * rows * np), *sn = malloc(sizeof(float) * rows * np);
        CHECK(posenc_rope_cache_fill(cs, sn, rows, np, w, 1.0, 0.0) == POSENC_OK, "cache");
        CHECK(posenc_rope_apply_cached(x, L, H, D, R, layout, POSENC_ROPE_THD, cs, sn, rows, NULL,
                                       (int32_t)p0) == POSENC_OK,
              "apply cached");
        free(cs);
        free(sn);
    } else {
        const int32_t ss = posenc_rope_scratch_size(R);
        float *scratch = malloc(sizeof(float) * ss);
        CHECK(posenc_rope_apply(x, L, H, D, R, layout, POSENC_ROPE_THD, w, 1.0, p0, scratch, ss) ==
                  POSENC_OK,
              "apply");
        free(scratch);
    }
    double err = 0;
    for (size_t i = 0; i < n; i++) err = fmax(err, fabs(x[i] - want[i]));
    free(x);
    free(want);
    return err;
}

static void test_apply(void) {
    const int32_t dims[][2] = {{2, 2}, {8, 8}, {10, 6}, {64, 64}, {66, 66}, {130, 128}, {128, 32}};
    for (int il = 0; il < 2; il++)
        for (size_t k = 0; k < sizeof dims / sizeof *dims; k++)
            for (int cached = 0; cached < 2; cached++) {
                posenc_layout lay = il ? POSENC_LAYOUT_INTERLEAVED : POSENC_LAYOUT_HALF;
                double e = apply_error(70, 3, dims[k][0], dims[k][1], lay, 17.0, cached);
                CHECK(e <= 2e-6, "layout=%d D=%d R=%d cached=%d err=%g", il, dims[k][0], dims[k][1],
                      cached, e);
            }
    CHECK(apply_error(100, 2, 64, 64, POSENC_LAYOUT_HALF, 1048000.0, 0) <= 2e-6, "near 2^20");
}

static void test_validation(void) {
    float x[16] = {0}, scratch[2048], cs[16], sn[16];
    double w[8] = {1, 0.1, 0.01, 0.001}, att;
    const float before = x[0];
    CHECK(posenc_rope_freqs(w, &att, 7, 1e4, NULL) == POSENC_E_ODD, "odd rotary");
    CHECK(posenc_rope_freqs(w, &att, 8, 1.0, NULL) == POSENC_E_PARAM, "base 1");
    posenc_rope_scaling s;
    CHECK(posenc_rope_scaling_init(&s, (posenc_rope_type)9) == POSENC_E_ENUM, "bad type");
    posenc_rope_scaling_init(&s, POSENC_ROPE_YARN);
    CHECK(posenc_rope_freqs(w, &att, 8, 1e4, &s) == POSENC_E_MISSING, "yarn without factor");
    s.factor = 4;
    CHECK(posenc_rope_freqs(w, &att, 8, 1e4, &s) == POSENC_E_MISSING, "yarn without L0");
    s.original_max_positions = 64;
    CHECK(posenc_rope_freqs(w, &att, 8, 1e4, &s) == POSENC_OK, "yarn ok");
    posenc_rope_scaling_init(&s, POSENC_ROPE_LONGROPE);
    s.original_max_positions = 64;
    CHECK(posenc_rope_freqs(w, &att, 8, 1e4, &s) == POSENC_E_MISSING, "longrope without lists");
    posenc_rope_scaling_init(&s, POSENC_ROPE_LLAMA3);
    CHECK(posenc_rope_freqs(w, &att, 8, 1e4, &s) == POSENC_OK && att == 1.0, "llama3 defaults");
    s.high_freq_factor = s.low_freq_factor;
    CHECK(posenc_rope_freqs(w, &att, 8, 1e4, &s) == POSENC_E_PARAM, "llama3 empty band");
    /* valid keys whose result overflows: an error, and nothing written */
    posenc_rope_scaling_init(&s, POSENC_ROPE_LINEAR);
    s.factor = 1e-320;
    w[0] = -7.0;
    CHECK(posenc_rope_freqs(w, &att, 8, 1e4, &s) == POSENC_E_RANGE && w[0] == -7.0,
          "linear factor 1e-320");
    posenc_rope_scaling_init(&s, POSENC_ROPE_YARN);
    s.factor = 4;
    s.original_max_positions = 64;
    s.attention_factor = 1e300;
    CHECK(posenc_rope_freqs(w, &att, 8, 1e4, &s) == POSENC_E_RANGE,
          "attention scale beyond float32");
    posenc_rope_scaling_init(&s, POSENC_ROPE_NTK);
    s.factor = 3;
    CHECK(posenc_rope_freqs(w, &att, 2, 1e4, &s) == POSENC_OK && w[0] == 1.0, "ntk rotary 2");
    posenc_rope_freqs(w, &att, 8, 1e4, NULL);
    CHECK(posenc_rope_apply(x, 2, 1, 8, 8, POSENC_LAYOUT_HALF, POSENC_ROPE_THD, w, 1e39, 0, scratch,
                            2048) == POSENC_E_PARAM,
          "scale > FLT_MAX");
    CHECK(posenc_rope_apply_xpos(x, 2, 1, 8, 8, POSENC_LAYOUT_HALF, POSENC_ROPE_THD, w, 1, 0, NULL,
                                 1e-3, 0, 0, scratch, 2048) == POSENC_E_RANGE,
          "xpos factor overflow");
    CHECK(posenc_rope_apply(x, 2, 1, 8, 10, POSENC_LAYOUT_HALF, POSENC_ROPE_THD, w, 1, 0, scratch,
                            2048) == POSENC_E_SIZE,
          "rotary > dim");
    CHECK(posenc_rope_apply(x, 2, 1, 8, 6, (posenc_layout)3, POSENC_ROPE_THD, w, 1, 0, scratch,
                            2048) == POSENC_E_ENUM,
          "layout");
    CHECK(posenc_rope_apply(x, 2, 1, 8, 8, POSENC_LAYOUT_HALF, (posenc_rope_order)2, w, 1, 0,
                            scratch, 2048) == POSENC_E_ENUM,
          "order");
    CHECK(posenc_rope_apply(x, 2, 1, 8, 8, POSENC_LAYOUT_HALF, POSENC_ROPE_THD, w, 1, 0, scratch,
                            100) == POSENC_E_SCRATCH,
          "scratch");
    CHECK(posenc_rope_apply(x, 2, 1, 8, 8, POSENC_LAYOUT_HALF, POSENC_ROPE_THD, w, NAN, 0, scratch,
                            2048) == POSENC_E_PARAM,
          "scale NaN");
    CHECK(posenc_rope_cache_fill(cs, sn, 4, 4, w, 1.0, 0.0) == POSENC_OK, "cache");
    const int32_t badpos[2] = {0, 4};
    x[0] = 1.0f;
    CHECK(posenc_rope_apply_cached(x, 2, 1, 8, 8, POSENC_LAYOUT_HALF, POSENC_ROPE_THD, cs, sn, 4,
                                   badpos, 0) == POSENC_E_RANGE,
          "row 4 of 4");
    CHECK(posenc_rope_apply_cached(x, 2, 1, 8, 8, POSENC_LAYOUT_HALF, POSENC_ROPE_THD, cs, sn, 4,
                                   NULL, 3) == POSENC_E_RANGE,
          "offset 3 + 2 > 4");
    CHECK(x[0] == 1.0f && before == 0.0f, "nothing written on failure");
    const float fpos[2] = {0.0f, INFINITY};
    CHECK(posenc_rope_apply_positions_f32(x, 2, 1, 8, 8, POSENC_LAYOUT_HALF, POSENC_ROPE_THD, w, 1,
                                          fpos, scratch, 2048) == POSENC_E_PARAM,
          "inf position");
    double d[4];
    CHECK(posenc_rope_decay(d, 128, 1e4, 3) == POSENC_OK && d[0] == 32.5, "decay");
    CHECK(posenc_rope_decay(d, 128, 1e4, -1) == POSENC_E_SIZE, "decay -1");
}

/* An input the check refuses (NaN, inf, or |x| past the overflow bound) in pair 3 of token 2 of
 * 4, head 1 of 2: the status is POSENC_E_PARAM; the pairs before it (tokens 0 and 1, token 2's
 * head 0, and pairs 0-2 of its head 1) are rotated and the rest is as given (each pair is
 * checked right before it is rotated, docs/errors.md). Both orders, with and without a cache. */
static void test_refused_token(void) {
    enum { L = 4, H = 2, D = 8, N = L * H * D };
    double w[4], att;
    float cs[L * 4], sn[L * 4], scratch[2048];
    CHECK(posenc_rope_freqs(w, &att, 8, 1e4, NULL) == POSENC_OK, "freqs");
    CHECK(posenc_rope_cache_fill(cs, sn, L, 4, w, 1.0, 0.0) == POSENC_OK, "cache");
    const float bads[] = {NAN, INFINITY, -3e38f};
    for (int order = 0; order < 2; order++)
        for (int cached = 0; cached < 2; cached++)
            for (int b = 0; b < 3; b++) {
                float x[N], want[N], got[N];
                for (int i = 0; i < N; i++) x[i] = (float)((i * 29 % 17) - 8) * 0.125f;
                memcpy(want, x, sizeof x);
                /* the whole rotation of a finite copy gives the rotated tokens' values */
                if (cached)
                    posenc_rope_apply_cached(want, L, H, D, D, POSENC_LAYOUT_HALF, order, cs, sn, L,
                                             NULL, 0);
                else
                    posenc_rope_apply(want, L, H, D, D, POSENC_LAYOUT_HALF, order, w, 1.0, 0,
                                      scratch, 2048);
                /* element 3 of token 2, head 1 */
                const size_t bad_at =
                    order == POSENC_ROPE_THD ? (2 * H + 1) * D + 3 : (1 * L + 2) * D + 3;
                x[bad_at] = bads[b];
                memcpy(got, x, sizeof x);
                const int32_t r =
                    cached ? posenc_rope_apply_cached(got, L, H, D, D, POSENC_LAYOUT_HALF, order,
                                                      cs, sn, L, NULL, 0)
                           : posenc_rope_apply(got, L, H, D, D, POSENC_LAYOUT_HALF, order, w, 1.0,
                                               0, scratch, 2048);
                CHECK(r == POSENC_E_PARAM, "order %d cached %d bad %g: status %d", order, cached,
                      bads[b], r);
                for (int t = 0; t < L; t++)
                    for (int h = 0; h < H; h++)
                        for (int d = 0; d < D; d++) {
                            const size_t i = order == POSENC_ROPE_THD ? ((size_t)t * H + h) * D + d
                                                                      : ((size_t)h * L + t) * D + d;
                            /* pairs (d, d + 4); the bad one is pair 3 of token 2, head 1 */
                            const int rotated =
                                t < 2 || (t == 2 && (h < 1 || (h == 1 && d % 4 < 3)));
                            const float expect = rotated ? want[i] : x[i];
                            CHECK(memcmp(&got[i], &expect, sizeof expect) == 0,
                                  "order %d cached %d t %d h %d d %d", order, cached, t, h, d);
                        }
            }
    /* a NaN in the row of token 3 is refused before token 3 is touched; a NaN in a row the
     * call does not read is not looked at */
    float x[N], keep[N], rot[N];
    for (int i = 0; i < N; i++) x[i] = 0.5f;
    memcpy(keep, x, sizeof x);
    memcpy(rot, x, sizeof x);
    CHECK(posenc_rope_apply_cached(rot, L, H, D, D, POSENC_LAYOUT_HALF, POSENC_ROPE_THD, cs, sn, L,
                                   NULL, 0) == POSENC_OK,
          "finite cache");
    sn[L * 4 - 1] = NAN;
    CHECK(posenc_rope_apply_cached(x, L, H, D, D, POSENC_LAYOUT_HALF, POSENC_ROPE_THD, cs, sn, L,
                                   NULL, 0) == POSENC_E_PARAM,
          "NaN in the cache");
    CHECK(memcmp(x, rot, sizeof(float) * 3 * H * D) == 0, "tokens 0-2 rotated");
    CHECK(memcmp(x + 3 * H * D, keep + 3 * H * D, sizeof(float) * H * D) == 0, "token 3 as given");
    memcpy(x, keep, sizeof x);
    CHECK(posenc_rope_apply_cached(x, L - 1, H, D, D, POSENC_LAYOUT_HALF, POSENC_ROPE_THD, cs, sn,
                                   L, NULL, 0) == POSENC_OK,
          "rows 0-2 only: the NaN in row 3 is not read");
    /* the bound itself: 2 |x| scale <= FLT_MAX passes at FLT_MAX / 2, fails one float above */
    for (int i = 0; i < N; i++) x[i] = 0.0f;
    x[5] = 1.7014117331926443e38f;
    CHECK(posenc_rope_apply(x, L, H, D, D, POSENC_LAYOUT_HALF, POSENC_ROPE_THD, w, 1.0, 0, scratch,
                            2048) == POSENC_OK,
          "FLT_MAX / 2");
    for (int i = 0; i < N; i++) x[i] = 0.0f;
    x[5] = nextafterf(1.7014117331926443e38f, INFINITY);
    CHECK(posenc_rope_apply(x, L, H, D, D, POSENC_LAYOUT_HALF, POSENC_ROPE_THD, w, 1.0, 0, scratch,
                            2048) == POSENC_E_PARAM,
          "above FLT_MAX / 2");
}

/* M-RoPE against a scalar reference written from the two Hugging Face functions (pair i's stream
 * from the section lists, one float64 sin/cos per element), bit for bit; and its refusals. */
static int32_t ref_mrope_stream(int32_t i, const int32_t *sec, int interleaved) {
    if (interleaved) /* Qwen3-VL apply_interleaved_mrope: freqs_t[..., offset:3 * sec:3] = ... */
        return i % 3 == 1 && i < 3 * sec[1] ? 1 : i % 3 == 2 && i < 3 * sec[2] ? 2 : 0;
    /* Qwen2-VL apply_multimodal_rotary_pos_emb: chunk k of cos.split(sections) from stream k */
    return i < sec[0] ? 0 : i < sec[0] + sec[1] ? 1 : 2;
}
static void test_mrope(void) {
    enum { L = 37, NP = 64 };
    const int32_t secs[4][3] = {{16, 24, 24}, {24, 20, 20}, {0, 64, 0}, {62, 1, 1}};
    double w[NP], att, pos[3 * L];
    static float cs[L * NP], sn[L * NP];
    CHECK(posenc_rope_freqs(w, &att, 2 * NP, 1e6, NULL) == POSENC_OK, "freqs");
    for (int k = 0; k < 3 * L; k++) /* large, negative and fractional positions too */
        pos[k] = k % 5 == 0 ? (double)(k * 40503 % 1048576) : k % 7 == 0 ? -3.25 * k : (double)k;
    for (int il = 0; il < 2; il++)
        for (int q = 0; q < 4; q++) {
            const int32_t *sec = secs[q];
            const double scale = q == 1 ? 1.25 : 1.0;
            CHECK(posenc_rope_mrope_fill(cs, sn, L, NP, w, scale, pos, sec[0], sec[1], sec[2],
                                         il) == POSENC_OK,
                  "mrope il %d sections %d", il, q);
            int32_t per[3] = {0, 0, 0}, bad = 0;
            for (int32_t i = 0; i < NP; i++) per[ref_mrope_stream(i, sec, il)]++;
            for (int32_t t = 0; t < L; t++)
                for (int32_t i = 0; i < NP; i++) {
                    const double a = pos[ref_mrope_stream(i, sec, il) * L + t] * w[i];
                    const float c = (float)(scale * cos(a)), s = (float)(scale * sin(a));
                    bad += memcmp(&c, &cs[t * NP + i], sizeof c) ||
                           memcmp(&s, &sn[t * NP + i], sizeof s);
                }
            CHECK(bad == 0, "mrope il %d sections %d: %d elements differ from the reference", il, q,
                  bad);
            /* interleaved, a section counts its pairs only while 3 * section <= npairs (HF) */
            if (!il || q == 1 || q == 3)
                CHECK(per[0] == sec[0] && per[1] == sec[1] && per[2] == sec[2],
                      "il %d sections %d: pairs per stream %d %d %d", il, q, per[0], per[1],
                      per[2]);
        }
    float before = cs[0];
    CHECK(posenc_rope_mrope_fill(cs, sn, L, NP, w, 1.0, pos, 16, 24, 23, 0) == POSENC_E_PARAM,
          "sections not summing to npairs");
    CHECK(posenc_rope_mrope_fill(cs, sn, L, NP, w, 1.0, pos, -1, 33, 32, 0) == POSENC_E_PARAM,
          "negative section");
    CHECK(posenc_rope_mrope_fill(cs, sn, L, NP, w, 1.0, pos, 16, 24, 24, 2) == POSENC_E_PARAM,
          "interleaved 2");
    pos[3 * L - 1] = NAN;
    CHECK(posenc_rope_mrope_fill(cs, sn, L, NP, w, 1.0, pos, 16, 24, 24, 0) == POSENC_E_PARAM,
          "NaN position");
    CHECK(memcmp(&before, &cs[0], sizeof before) == 0, "nothing written on failure");
    CHECK(posenc_rope_mrope_fill(cs, sn, L, NP, w, 1.0, NULL, 16, 24, 24, 0) == POSENC_E_NULL,
          "NULL positions");
    CHECK(posenc_rope_mrope_fill(cs, sn, 0, NP, w, 1.0, pos, 16, 24, 24, 0) == POSENC_E_SIZE,
          "length 0");
    CHECK(posenc_rope_mrope_fill(cs, sn, L, NP, w, 1e39, pos, 16, 24, 24, 0) == POSENC_E_PARAM,
          "scale past FLT_MAX");
}

int main(void) {
    printf("POSENC_SIMD %d\n",
           POSENC_SIMD); /* native.test.js: the wasm build runs the SIMD kernels */
    test_kernels();
    test_kernel_check();
    test_refused_token();
    test_apply();
    test_validation();
    test_mrope();
    return CHECK_DONE();
}
