/* Native tests of grouped-query attention and the KV cache (run under ASan/UBSan): every
 * kv_heads variant and the cache's attend against a plain double-precision reference, the
 * cache's packed store layout element by element, and the status codes.
 * Metric: |posenc - reference| <= 2e-6 (inputs in [-1, 1), outputs are convex combinations). */
#include <stdlib.h>
#include <string.h>

#define CHECK_RNG_SEED 777u
#include "check.h"
#include "posenc.h"
#include "posenc_internal.h"

typedef struct {
    int32_t Q, K, H, KVH, D, DV, offset, window;
    posenc_attention_mask mask;
    posenc_attention_bias kind;
    const posenc_bias *kb; /* the kind's descriptor with its tables (ref_fixture), or NULL */
    double scale;
    const float *qscale; /* per-query factor on q (NULL: none) */
    int32_t chunk;       /* > 0: chunked local attention */
    int32_t bwindow; /* > 0: the descriptor's sliding window (window: the KV cache's argument) */
} spec;

/* The descriptor the entry points take, for a spec. */
static posenc_bias bias_of(const spec *s) {
    posenc_bias b;
    memset(&b, 0, sizeof b);
    if (s->kb) b = *s->kb;
    b.kind = s->kind;
    b.query_scale = s->qscale, b.chunk = s->chunk, b.window = s->bwindow;
    return b;
}

/* Bias kinds by name (posenc.h POSENC_BIAS_KINDS), for messages. */
static const char *const KIND_NAMES[POSENC_BIAS_COUNT] = {
#define KIND_NAME(NAME, name) #name,
    POSENC_BIAS_KINDS(KIND_NAME)
#undef KIND_NAME
};

/* Where the double reference sees a logit: head h of H, the query row qi (times its factor f),
 * the relative position rp = j - (i + offset). */
typedef struct {
    int32_t H, D, DV, h;
    const float *qi;
    double f, scale;
    int64_t rp;
} ref_at;

/* Each kind's double reference (families/<family>/ref_<type>.h, listed by tools/gen_kinds.js):
 * ref_has, ref_fixture, ref_free, ref_bias_of, ref_value_of. */
#include "ref_kinds.h"

/* Whether the reference models a kind: every kind with a ref_<type>.h (Transformer-XL has none:
 * its r table and u, v terms are checked against the float64 reference of
 * families/attention/attention.test.js). */
static int ref_models(int kind) { return ref_has(kind); }

static int64_t floor_div(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

/* The definition, in double: query i (position i + offset) of head h, times qscale[i], against
 * key j of kv head h / (H / KVH); masks, windows (|j - position| < window, each of the two),
 * chunk, the bias (ref_bias_of) and a kind's value term (ref_value_of); softmax; P V. */
static void reference(double *out, const float *q, const float *k, const float *v, const spec *s) {
    const int32_t G = s->H / s->KVH;
    double *sc = malloc(sizeof(double) * (size_t)s->K);
    for (int32_t h = 0; h < s->H; h++) {
        const int32_t g = h / G;
        for (int32_t i = 0; i < s->Q; i++) {
            const int64_t ip = (int64_t)i + s->offset;
            int64_t lim = s->K - 1;
            if (s->mask == POSENC_MASK_CAUSAL_TOP_LEFT) lim = i;
            if (s->mask == POSENC_MASK_CAUSAL_BOTTOM_RIGHT) lim = (int64_t)i + s->K - s->Q;
            double m = -INFINITY;
            for (int32_t j = 0; j < s->K; j++) {
                sc[j] = -INFINITY;
                if (j > lim || (s->window > 0 && llabs(j - ip) >= s->window)) continue;
                if (s->bwindow > 0 && llabs(j - ip) >= s->bwindow) continue;
                if (s->chunk > 0 && floor_div(j, s->chunk) != floor_div(ip, s->chunk)) continue;
                const float *qi = q + ((size_t)i * s->H + h) * s->D;
                const double f = s->qscale ? s->qscale[i] : 1.0;
                double d = 0;
                for (int32_t c = 0; c < s->D; c++)
                    d += f * qi[c] * k[((size_t)j * s->KVH + g) * s->D + c];
                const ref_at at = {s->H, s->D, s->DV, h, qi, f, s->scale, j - ip};
                const double x = s->scale * d + (s->kb ? ref_bias_of(s->kb, &at) : 0.0);
                sc[j] = x;
                if (x > m) m = x;
            }
            double *o = out + ((size_t)i * s->H + h) * s->DV;
            for (int32_t c = 0; c < s->DV; c++) o[c] = 0;
            if (m == -INFINITY) continue;
            double sum = 0;
            for (int32_t j = 0; j < s->K; j++) sum += (sc[j] = exp(sc[j] - m));
            for (int32_t j = 0; j < s->K; j++) {
                const double p = sc[j] / sum;
                if (p == 0) continue;
                const ref_at at = {s->H, s->D, s->DV, h, NULL, 1.0, s->scale, j - ip};
                for (int32_t c = 0; c < s->DV; c++) {
                    double val = v[((size_t)j * s->KVH + g) * s->DV + c];
                    if (s->kb) val += ref_value_of(s->kb, &at, c);
                    o[c] += p * val;
                }
            }
        }
    }
    free(sc);
}

static double max_diff(const float *a, const double *b, size_t n) {
    double m = 0;
    for (size_t i = 0; i < n; i++) {
        const double d = fabs((double)a[i] - b[i]);
        if (!(d <= m)) m = d != d ? INFINITY : d;
    }
    return m;
}

static int32_t call_gqa(float *out, const float *q, const float *k, const float *v, const spec *s,
                        float *scratch, int32_t nfl) {
    const posenc_bias b = bias_of(s);
    return posenc_attention_gqa(out, NULL, q, k, v, s->Q, s->K, s->H, s->D, s->DV, s->scale,
                                s->mask, s->offset, scratch, nfl, s->KVH, &b);
}

static const int32_t shapes[][6] = {
    /* Q, K, H, KVH, D, DV: 1-3 queries take the by-head blocks, more the by-query blocks */
    {1, 1, 4, 1, 3, 5}, {1, 37, 8, 2, 8, 8},   {2, 19, 12, 3, 5, 9}, {3, 300, 8, 1, 16, 3},
    {9, 9, 4, 2, 4, 4}, {17, 40, 6, 3, 7, 12}, {5, 270, 2, 2, 9, 1},
};

static void test_gqa_against_reference(void) {
    for (size_t t = 0; t < sizeof shapes / sizeof *shapes; t++) {
        spec s = {0};
        s.Q = shapes[t][0], s.K = shapes[t][1], s.H = shapes[t][2], s.KVH = shapes[t][3];
        s.D = shapes[t][4], s.DV = shapes[t][5];
        s.scale = 1.0 / sqrt((double)s.D);
        float *q = rand_array((size_t)s.Q * s.H * s.D), *k = rand_array((size_t)s.K * s.KVH * s.D);
        float *v = rand_array((size_t)s.K * s.KVH * s.DV);
        float *out = malloc(sizeof(float) * (size_t)s.Q * s.H * s.DV);
        double *want = malloc(sizeof(double) * (size_t)s.Q * s.H * s.DV);
        float *qscale = rand_array((size_t)s.Q);
        for (int32_t i = 0; i < s.Q; i++) qscale[i] = 1.0f + 0.5f * qscale[i] * (float)(i % 3);
        /* variant 0: plain; 1: a per-query scale; 2: chunks of 7 at offset 5 (and the scale);
         * 3: a sliding window of 5; 4: a window of 6 with chunks of 7 at offset 5 (and the scale) */
        for (int kind = POSENC_BIAS_NONE; kind < POSENC_BIAS_COUNT; kind++) {
            posenc_bias kb;
            memset(&kb, 0, sizeof kb);
            kb.kind = (posenc_attention_bias)kind;
            if (ref_models(kind)) ref_fixture(&kb, s.H, s.D, s.DV, 0);
            s.kb = &kb;
            for (int mask = 0; mask <= 2 && ref_models(kind); mask++)
                for (int variant = 0; variant <= 4; variant++) {
                    s.kind = (posenc_attention_bias)kind;
                    s.mask = (posenc_attention_mask)mask;
                    s.offset = mask == 2 ? s.K - s.Q : variant == 2 || variant == 4 ? 5 : 0;
                    s.qscale = variant == 1 || variant >= 2 ? qscale : NULL;
                    s.chunk = variant == 2 || variant == 4 ? 7 : 0;
                    s.bwindow = variant == 3 ? 5 : variant == 4 ? 6 : 0;
                    int32_t nfl = 0;
                    const posenc_bias bd = bias_of(&s);
                    CHECK(posenc_attention_gqa_scratch_size(&nfl, s.Q, s.K, s.H, s.KVH, s.D, s.DV,
                                                            &bd) == 0,
                          "size");
                    float *scratch = malloc(sizeof(float) * (size_t)nfl);
                    const int32_t st = call_gqa(out, q, k, v, &s, scratch, nfl);
                    CHECK(st == 0, "%s: status %d (its fixture in ref_%s.h?)", KIND_NAMES[kind], st,
                          KIND_NAMES[kind]);
                    reference(want, q, k, v, &s);
                    const double d = max_diff(out, want, (size_t)s.Q * s.H * s.DV);
                    /* ALiBi logits reach slope * keys: float32 rounds them at ~1e-7 relative */
                    const double tol = kind == POSENC_BIAS_ALIBI && s.K > 100 ? 1e-5 : 2e-6;
                    CHECK(d <= tol, "gqa Q%d K%d H%d/%d kind '%s' mask %d variant %d: %g", s.Q, s.K,
                          s.H, s.KVH, KIND_NAMES[kind], mask, variant, d);
                    if (st == 0 && nfl > 1) /* one float short is rejected */
                        CHECK(call_gqa(out, q, k, v, &s, scratch, nfl - 1) == POSENC_E_SCRATCH,
                              "short scratch");
                    free(scratch);
                }
            ref_free(&kb);
        }
        free(q), free(k), free(v), free(out), free(want), free(qscale);
    }
}

/* The cache: append in uneven chunks, check the packed layout element by element, then attend
 * the last n tokens (with and without a window) against the reference on the same rows. */
static void test_kvcache(void) {
    const int32_t H = 8, KVH = 2, D = 12, DV = 10, cap = 45;
    int32_t nk, nv;
    CHECK(posenc_kvcache_size(&nk, &nv, KVH, D, DV, cap) == 0, "size");
    CHECK(nk == KVH * 256 * D && nv == KVH * 256 * 16, "sizes %d %d", nk, nv);
    float *kc = calloc((size_t)nk, sizeof(float)), *vc = calloc((size_t)nv, sizeof(float));
    float state[2] = {0, 0};
    float *k = rand_array((size_t)cap * KVH * D), *v = rand_array((size_t)cap * KVH * DV);
    float *q = rand_array((size_t)cap * H * D);
    int32_t len = 0;
    const int32_t chunks[] = {1, 7, 8, 3, 20, 6};
    for (size_t c = 0; c < sizeof chunks / sizeof *chunks; c++) {
        const int32_t n = chunks[c];
        CHECK(posenc_kvcache_store(kc, vc, state, k + (size_t)len * KVH * D,
                                   v + (size_t)len * KVH * DV, n, len, cap, KVH, D, DV) == 0,
              "store");
        len += n;
    }
    CHECK(len == cap, "filled %d", len);
    int bad = 0;
    for (int32_t j = 0; j < cap; j++)
        for (int32_t g = 0; g < KVH; g++) {
            for (int32_t d = 0; d < D; d++)
                bad += kc[(size_t)g * 256 * D + (size_t)(j / 8) * D * 8 + (size_t)d * 8 + j % 8] !=
                       k[((size_t)j * KVH + g) * D + d];
            for (int32_t d = 0; d < DV; d++) /* one block of 256 keys: [d / 8][j][d % 8] */
                bad +=
                    vc[(size_t)g * 256 * 16 + (size_t)(d / 8) * 256 * 8 + (size_t)j * 8 + d % 8] !=
                    v[((size_t)j * KVH + g) * DV + d];
        }
    CHECK(bad == 0, "%d misplaced elements", bad);
    /* padding slots stay zero */
    CHECK(kc[(size_t)5 * D * 8 + 7] == 0.0f && vc[(size_t)47 * 8 + 3] == 0.0f &&
              vc[(size_t)256 * 8 + 2] == 0.0f,
          "padding");
    /* full: nothing more fits, nothing is written */
    const float keep = kc[0];
    CHECK(posenc_kvcache_store(kc, vc, state, k, v, 1, cap, cap, KVH, D, DV) == POSENC_E_RANGE,
          "past capacity");
    CHECK(posenc_kvcache_store(kc, vc, state, k, v, 2, cap - 1, cap, KVH, D, DV) == POSENC_E_RANGE,
          "past capacity");
    CHECK(kc[0] == keep, "untouched");
    {
        /* a NaN or inf refuses the whole store: state as it was, and the slots it reached (from
         * `length` to the bad token) zero, so no NaN stays where the kernels read whole panels */
        float *kc2 = calloc((size_t)nk, sizeof(float)), *vc2 = calloc((size_t)nv, sizeof(float));
        float st2[2] = {0, 0};
        CHECK(posenc_kvcache_store(kc2, vc2, st2, k, v, 5, 0, cap, KVH, D, DV) == 0, "store 5");
        const float keep2[2] = {st2[0], st2[1]};
        float *bad_k = malloc(sizeof(float) * 3 * KVH * D),
              *bad_v = malloc(sizeof(float) * 3 * KVH * DV);
        for (int which = 0; which < 2; which++) {
            memcpy(bad_k, k, sizeof(float) * 3 * KVH * D);
            memcpy(bad_v, v, sizeof(float) * 3 * KVH * DV);
            if (which == 0)
                bad_k[(size_t)2 * KVH * D + D + 5] = NAN; /* token 2, head 1 */
            else
                bad_v[(size_t)1 * KVH * DV + 9] = INFINITY; /* token 1, head 0 */
            CHECK(posenc_kvcache_store(kc2, vc2, st2, bad_k, bad_v, 3, 5, cap, KVH, D, DV) ==
                      POSENC_E_PARAM,
                  "bad %s", which ? "value" : "key");
            CHECK(st2[0] == keep2[0] && st2[1] == keep2[1], "state unchanged");
            int nonzero = 0, moved = 0;
            for (int32_t j = 0; j < 8; j++)
                for (int32_t g = 0; g < KVH; g++) {
                    for (int32_t d = 0; d < D; d++) {
                        const float got = kc2[(size_t)g * 256 * D + (size_t)d * 8 + j];
                        if (j < 5)
                            moved += got != k[((size_t)j * KVH + g) * D + d];
                        else
                            nonzero += got != 0.0f;
                    }
                    for (int32_t d = 0; d < DV; d++) {
                        const float got = vc2[(size_t)g * 256 * 16 + (size_t)(d / 8) * 256 * 8 +
                                              (size_t)j * 8 + d % 8];
                        if (j < 5)
                            moved += got != v[((size_t)j * KVH + g) * DV + d];
                        else
                            nonzero += got != 0.0f;
                    }
                }
            CHECK(moved == 0 && nonzero == 0, "refused store: %d stored changed, %d slots not zero",
                  moved, nonzero);
        }
        free(kc2), free(vc2), free(bad_k), free(bad_v);
    }
    CHECK(posenc_kvcache_store(kc, vc, NULL, k, v, 1, 0, cap, KVH, D, DV) == POSENC_E_NULL,
          "NULL state");
    CHECK(posenc_kvcache_store(kc, vc, state, k, v, 0, 0, cap, KVH, D, DV) == POSENC_E_SIZE,
          "n = 0");

    float *out = malloc(sizeof(float) * (size_t)cap * H * DV);
    double *want = malloc(sizeof(double) * (size_t)cap * H * DV);
    const int32_t lens[] = {1, 8, 9, 30, 45};
    const int32_t windows[] = {0, 1, 4, 9, 100};
    float *qscale = rand_array((size_t)cap);
    posenc_bias kbs[POSENC_BIAS_COUNT];
    memset(kbs, 0, sizeof kbs);
    for (int kind = 0; kind < POSENC_BIAS_COUNT; kind++) {
        kbs[kind].kind = (posenc_attention_bias)kind;
        if (ref_models(kind)) ref_fixture(&kbs[kind], H, D, DV, 1);
    }
    /* every kind the cache takes (all but XL, which it refuses below) */
    for (size_t a = 0; a < sizeof lens / sizeof *lens; a++)
        for (size_t w = 0; w < sizeof windows / sizeof *windows; w++)
            for (int kind = 0; kind < POSENC_BIAS_COUNT; kind++)
                for (int32_t n = 1; n <= lens[a] && kind != POSENC_BIAS_XL && ref_models(kind);
                     n = n < 4 ? n + 1 : n * 3) {
                    const int32_t L = lens[a];
                    spec s = {0};
                    s.Q = n, s.K = L, s.H = H, s.KVH = KVH, s.D = D, s.DV = DV;
                    s.offset = L - n, s.window = windows[w],
                    s.mask = POSENC_MASK_CAUSAL_BOTTOM_RIGHT;
                    s.kind = (posenc_attention_bias)kind, s.scale = 0.3, s.kb = &kbs[kind];
                    s.qscale = w % 2 ? qscale : NULL, s.chunk = (int32_t)(a + w) % 3 == 1 ? 8 : 0;
                    /* the window as the cache's argument, or in the descriptor (one path, the same mask) */
                    const int32_t warg = (a + n) % 2 ? 0 : s.window;
                    posenc_bias bd = bias_of(&s);
                    bd.window = s.window - warg;
                    int32_t nfl;
                    CHECK(posenc_kvcache_scratch_size(&nfl, n, L, H, KVH, D, DV, &bd) == 0,
                          "scratch size");
                    float *scratch = malloc(sizeof(float) * (size_t)nfl);
                    const float *qn = q + (size_t)(L - n) * H * D;
                    const int32_t st =
                        posenc_kvcache_attend(out, qn, kc, vc, state, cap, L, n, H, KVH, D, DV,
                                              s.scale, warg, scratch, nfl, &bd);
                    CHECK(st == 0, "%s: attend status %d (its fixture in ref_%s.h?)",
                          KIND_NAMES[kind], st, KIND_NAMES[kind]);
                    reference(want, qn, k, v, &s);
                    const double d = max_diff(out, want, (size_t)n * H * DV);
                    CHECK(d <= 2e-6, "cache L%d n%d window %d kind '%s' chunk %d: %g", L, n,
                          s.window, KIND_NAMES[kind], s.chunk, d);
                    free(scratch);
                }
    /* status codes of attend */
    float scratch[4096];
    CHECK(posenc_kvcache_attend(out, q, kc, vc, state, cap, 3, 4, H, KVH, D, DV, 1.0, 0, scratch,
                                4096, NULL) == POSENC_E_SIZE,
          "queries > length");
    CHECK(posenc_kvcache_attend(out, q, kc, vc, state, cap, cap + 1, 1, H, KVH, D, DV, 1.0, 0,
                                scratch, 4096, NULL) == POSENC_E_SIZE,
          "length > capacity");
    CHECK(posenc_kvcache_attend(out, q, kc, vc, NULL, cap, 3, 1, H, KVH, D, DV, 1.0, 0, scratch,
                                4096, NULL) == POSENC_E_NULL,
          "no state");
    CHECK(posenc_kvcache_attend(out, q, kc, vc, state, cap, 3, 1, H, 3, D, DV, 1.0, 0, scratch,
                                4096, NULL) == POSENC_E_SIZE,
          "kv_heads not dividing heads");
    CHECK(posenc_kvcache_attend(out, q, kc, vc, state, cap, 3, 1, H, KVH, D, DV, 1.0, -1, scratch,
                                4096, NULL) == POSENC_E_PARAM,
          "negative window");
    CHECK(posenc_kvcache_attend(out, q, kc, vc, state, cap, 3, 1, H, KVH, D, DV, NAN, 0, scratch,
                                4096, NULL) == POSENC_E_PARAM,
          "NaN scale");
    CHECK(posenc_kvcache_attend(out, q, kc, vc, state, cap, 3, 1, H, KVH, D, DV, 1.0, 0, scratch,
                                10, NULL) == POSENC_E_SCRATCH,
          "short scratch");
    int32_t nfl;
    posenc_bias xl = {0};
    xl.kind = POSENC_BIAS_XL, xl.r_rows = 3;
    CHECK(posenc_kvcache_scratch_size(&nfl, 1, 3, H, KVH, D, DV, &xl) == POSENC_E_ENUM, "no XL");
    posenc_bias chunked = {0};
    chunked.chunk = -1;
    CHECK(posenc_kvcache_attend(out, q, kc, vc, state, cap, 3, 1, H, KVH, D, DV, 1.0, 0, scratch,
                                4096, &chunked) == POSENC_E_PARAM,
          "negative chunk");
    posenc_bias windowed = {0};
    windowed.window = -1;
    CHECK(posenc_kvcache_attend(out, q, kc, vc, state, cap, 3, 1, H, KVH, D, DV, 1.0, 0, scratch,
                                4096, &windowed) == POSENC_E_PARAM,
          "negative descriptor window");
    windowed.window = 2; /* the argument's -1 is still refused, not replaced */
    CHECK(posenc_kvcache_attend(out, q, kc, vc, state, cap, 3, 1, H, KVH, D, DV, 1.0, -1, scratch,
                                4096, &windowed) == POSENC_E_PARAM,
          "negative window beside a descriptor window");
    posenc_bias badkind = {0};
    badkind.kind = POSENC_BIAS_COUNT;
    CHECK(posenc_kvcache_attend(out, q, kc, vc, state, cap, 3, 1, H, KVH, D, DV, 1.0, 0, scratch,
                                4096, &badkind) == POSENC_E_ENUM,
          "kind out of range");
    const float big[2] = {1e37f, 1.0f}; /* 12 * max|q| * 1e37 > 1e38 */
    CHECK(posenc_kvcache_attend(out, q, kc, vc, big, cap, 3, 1, H, KVH, D, DV, 1.0, 0, scratch,
                                4096, NULL) == POSENC_E_PARAM,
          "a logit that would overflow");
    for (int kind = 0; kind < POSENC_BIAS_COUNT; kind++) ref_free(&kbs[kind]);
    free(kc), free(vc), free(k), free(v), free(q), free(out), free(want), free(qscale);
}

static void test_status(void) {
    float x[64] = {0}, scratch[4096];
    CHECK(posenc_attention_gqa(x, NULL, x, x, x, 1, 1, 4, 2, 2, 1.0, 0, 0, scratch, 4096, 3,
                               NULL) == POSENC_E_SIZE,
          "kv_heads 3 of 4");
    CHECK(posenc_attention_gqa(x, NULL, x, x, x, 1, 1, 4, 2, 2, 1.0, 0, 0, scratch, 4096, 0,
                               NULL) == POSENC_E_SIZE,
          "kv_heads 0");
    CHECK(posenc_attention_gqa(x, NULL, x, x, x, 1, 1, 4, 2, 2, 1.0, 0, 0, scratch, 4096, 2,
                               NULL) == 0,
          "ok");
    int32_t n;
    CHECK(posenc_attention_gqa_scratch_size(&n, 1, 1, 4, 3, 2, 2, NULL) == POSENC_E_SIZE,
          "size 4/3");
    CHECK(posenc_kvcache_size(&n, &n, 0, 2, 2, 4) == POSENC_E_SIZE, "kv_heads 0");
    CHECK(posenc_kvcache_size(&n, &n, 1, 1 << 14, 1, 1 << 15) == POSENC_E_SIZE, "too big");
    CHECK(posenc_kvcache_size(NULL, &n, 1, 2, 2, 4) == POSENC_E_NULL, "NULL");
}

/* Regression (found by fuzz_core): attend checked only capacity <= POSENC_MAX_ELEMENTS and
 * length * kv_heads * dim, so a capacity whose cache posenc_kvcache_size refuses (kv_heads * dim
 * * capacity rounded to the tile > POSENC_MAX_ELEMENTS) was accepted and the kernels read a
 * cache no caller can have sized (heap overflow under ASan). Attend must refuse what
 * posenc_kvcache_size refuses, before touching kc / vc. */
static void test_kvcache_geometry(void) {
    const int32_t cap = 1 << 26, len = 160, D = 8, DV = 3;
    int32_t nk, nv, nfl = 0;
    CHECK(posenc_kvcache_size(&nk, &nv, 1, D, DV, cap) == POSENC_E_SIZE, "cache too big");
    posenc_bias bt5 = {0};
    bt5.kind = POSENC_BIAS_T5;
    CHECK(posenc_kvcache_scratch_size(&nfl, 2, len, 1, 1, D, DV, &bt5) == 0 && nfl > 0, "scratch");
    float *kc = calloc(1, sizeof(float)), *vc = calloc(1, sizeof(float)), state[2] = {0, 0};
    float *q = calloc((size_t)2 * D, sizeof(float)), *out = calloc((size_t)2 * DV, sizeof(float));
    float *scratch = calloc((size_t)nfl, sizeof(float)), t5[8] = {0}, a[3 * 8] = {0};
    posenc_bias kinds[4];
    memset(kinds, 0, sizeof kinds);
    kinds[1].kind = POSENC_BIAS_ALIBI;
    kinds[2].kind = POSENC_BIAS_T5, kinds[2].table = t5, kinds[2].num_buckets = 8,
    kinds[2].max_distance = 16;
    kinds[3].kind = POSENC_BIAS_SHAW, kinds[3].a_k = a, kinds[3].a_v = a, kinds[3].max_relative = 1;
    for (int kind = 0; kind < 4; kind++)
        CHECK(posenc_kvcache_attend(out, q, kc, vc, state, cap, len, 2, 1, 1, D, DV, 1.0, 0,
                                    scratch, nfl, &kinds[kind]) == POSENC_E_SIZE,
              "attend on a cache posenc_kvcache_size refuses, kind %d", kind);
    /* and kv_heads 0, which the cache size refuses too */
    CHECK(posenc_kvcache_attend(out, q, kc, vc, state, 4, 2, 1, 1, 0, D, DV, 1.0, 0, scratch, nfl,
                                NULL) == POSENC_E_SIZE,
          "kv_heads 0");
    free(kc), free(vc), free(q), free(out), free(scratch);
}

/* The store's paths: tokens one by one, and 8 tokens that fill a panel (the SIMD build transposes
 * their keys), with widths that leave elements over after groups of 4 and 8; every element must
 * land where posenc__kv_v_index and the key panels say, and a refused panel of 8 must leave the
 * state as it was, the tokens before it as stored and every slot it reached zero. */
static void test_kvcache_panels(void) {
    const int32_t dims[][2] = {{5, 3}, {12, 10}, {13, 17}, {128, 128}};
    for (size_t w = 0; w < sizeof dims / sizeof *dims; w++) {
        const int32_t KVH = 3, D = dims[w][0], DV = dims[w][1], cap = 61;
        const int32_t DV8 = (DV + 7) / 8 * 8;
        int32_t nk, nv;
        CHECK(posenc_kvcache_size(&nk, &nv, KVH, D, DV, cap) == 0, "size");
        float *kc = calloc((size_t)nk, sizeof(float)), *vc = calloc((size_t)nv, sizeof(float));
        float state[2] = {0, 0};
        float *k = rand_array((size_t)cap * KVH * D), *v = rand_array((size_t)cap * KVH * DV);
        const int32_t chunks[] = {3, 13, 8, 16, 1, 20};
        int32_t len = 0;
        for (size_t c = 0; c < sizeof chunks / sizeof *chunks; c++) {
            CHECK(posenc_kvcache_store(kc, vc, state, k + (size_t)len * KVH * D,
                                       v + (size_t)len * KVH * DV, chunks[c], len, cap, KVH, D,
                                       DV) == 0,
                  "store");
            len += chunks[c];
        }
        int bad = 0;
        for (int32_t j = 0; j < len; j++)
            for (int32_t g = 0; g < KVH; g++) {
                for (int32_t d = 0; d < D; d++)
                    bad +=
                        kc[(size_t)g * 256 * D + (size_t)(j / 8) * D * 8 + (size_t)d * 8 + j % 8] !=
                        k[((size_t)j * KVH + g) * D + d];
                for (int32_t d = 0; d < DV; d++)
                    bad += vc[(size_t)g * 256 * DV8 + posenc__kv_v_index(j, d, DV)] !=
                           v[((size_t)j * KVH + g) * DV + d];
            }
        CHECK(bad == 0, "D=%d DV=%d: %d misplaced elements", D, DV, bad);
        float mk = 0, mv = 0;
        for (size_t i = 0; i < (size_t)len * KVH * D; i++) mk = fmaxf(mk, fabsf(k[i]));
        for (size_t i = 0; i < (size_t)len * KVH * DV; i++) mv = fmaxf(mv, fabsf(v[i]));
        CHECK(state[0] == mk && state[1] == mv, "D=%d: state %g %g, want %g %g", D, state[0],
              state[1], mk, mv);

        /* a refused panel: 16 tokens from 64 - 16 = 48, a NaN key (then an inf value) in token 11 */
        float *kc2 = calloc((size_t)nk, sizeof(float)), *vc2 = calloc((size_t)nv, sizeof(float));
        for (int which = 0; which < 2; which++) {
            memset(kc2, 0, sizeof(float) * (size_t)nk);
            memset(vc2, 0, sizeof(float) * (size_t)nv);
            float st2[2] = {0, 0};
            CHECK(posenc_kvcache_store(kc2, vc2, st2, k, v, 32, 0, cap, KVH, D, DV) == 0,
                  "store 32");
            const float keep[2] = {st2[0], st2[1]};
            float *bk = malloc(sizeof(float) * 16 * KVH * D),
                  *bv = malloc(sizeof(float) * 16 * KVH * DV);
            memcpy(bk, k + (size_t)32 * KVH * D, sizeof(float) * 16 * KVH * D);
            memcpy(bv, v + (size_t)32 * KVH * DV, sizeof(float) * 16 * KVH * DV);
            if (which == 0)
                bk[((size_t)11 * KVH + 2) * D + D - 1] = NAN;
            else
                bv[((size_t)11 * KVH + 1) * DV] = INFINITY;
            CHECK(posenc_kvcache_store(kc2, vc2, st2, bk, bv, 16, 32, cap, KVH, D, DV) ==
                      POSENC_E_PARAM,
                  "D=%d: refused %s", D, which ? "value" : "key");
            CHECK(st2[0] == keep[0] && st2[1] == keep[1], "state unchanged");
            int moved = 0, nonzero = 0;
            for (int32_t j = 0; j < 48; j++)
                for (int32_t g = 0; g < KVH; g++) {
                    for (int32_t d = 0; d < D; d++) {
                        const float got = kc2[(size_t)g * 256 * D + (size_t)(j / 8) * D * 8 +
                                              (size_t)d * 8 + j % 8];
                        if (j < 32)
                            moved += got != k[((size_t)j * KVH + g) * D + d];
                        else
                            nonzero += got != 0.0f;
                    }
                    for (int32_t d = 0; d < DV; d++) {
                        const float got = vc2[(size_t)g * 256 * DV8 + posenc__kv_v_index(j, d, DV)];
                        if (j < 32)
                            moved += got != v[((size_t)j * KVH + g) * DV + d];
                        else
                            nonzero += got != 0.0f;
                    }
                }
            CHECK(moved == 0 && nonzero == 0, "D=%d refused panel: %d stored changed, %d not zero",
                  D, moved, nonzero);
            free(bk), free(bv);
        }
        free(kc2), free(vc2), free(kc), free(vc), free(k), free(v);
    }
}

int main(void) {
    test_gqa_against_reference();
    test_kvcache();
    test_kvcache_panels();
    test_kvcache_geometry();
    test_status();
    return CHECK_DONE();
}
