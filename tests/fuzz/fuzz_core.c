/*
 * fuzz_core.c -- libFuzzer target over the C core's entry points (built with ASan + UBSan).
 *
 * Each input picks one function and its integer/real parameters, including invalid ones. The
 * harness allocates every buffer at exactly the size the header's contract gives for those
 * parameters (one element when the parameters are invalid), so any read or write outside the
 * contract, any UB, and any status outside posenc_status is a crash. Inputs are filled with
 * fuzz-chosen floats, NaN and infinities included.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "posenc.h"

typedef struct { const uint8_t *p; size_t n; } cursor;

static uint8_t u8(cursor *c) {
    if (!c->n) return 0;
    c->n--;
    return *c->p++;
}
/* small signed sizes, mostly valid, sometimes 0 / negative / large */
static int32_t size(cursor *c) {
    uint8_t b = u8(c);
    if (b < 200) return b % 40;
    if (b < 230) return -(int32_t)(b % 3);
    return 1 << (b % 31);
}
static double real(cursor *c) {
    static const double pool[] = {10000.0, 2.0, 0.5, 1.0, 0.0, -1.0, 1e-3, 500000.0, 3.0, 1.5e9};
    uint8_t b = u8(c);
    if (b == 255) return NAN;
    if (b == 254) return INFINITY;
    return pool[b % 10];
}
static float *floats(cursor *c, int64_t n) {
    if (n < 1) n = 1;
    float *a = malloc((size_t)n * sizeof(float));
    for (int64_t i = 0; i < n; i++) {
        uint8_t b = u8(c);
        a[i] = b == 255 ? NAN : b == 254 ? INFINITY : (float)(b - 128) / 32.0f;
    }
    return a;
}
/* size product, 0 for invalid factors, saturating far above CAP */
static int64_t prod(int64_t a, int64_t b) {
    if (a <= 0 || b <= 0) return 0;
    return a > (int64_t)1 << 30 || b > (int64_t)1 << 30 ? (int64_t)1 << 60 : a * b;
}
#define CAP (1 << 16)
/* an output of exactly n elements (1 when the parameters make n <= 0); inputs whose contract
 * needs more than CAP elements are skipped rather than given a short buffer */
#define OUT(n) floats(&(cursor){0, 0}, (n))
#define NEED(n) do { if ((n) > CAP) return 0; } while (0)
#define CHECK_STATUS(s) do { if ((s) > 0 || (s) < -9) abort(); } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n) {
    cursor c = {data, n};
    const uint8_t which = u8(&c);
    int32_t a = size(&c), b = size(&c), d = size(&c), e = size(&c), st = 0;
    if (prod(prod(a, b), d > 0 ? d : 1) > CAP || prod(prod(a, a), d > 0 ? d : 1) > CAP) return 0;
    switch (which % 12) {
    case 0: {
        float *o = OUT(prod(a, b));
        st = posenc_sinusoidal_fill(o, a, b, real(&c), u8(&c) % 3, u8(&c) % 3, u8(&c) % 4, real(&c));
        free(o);
        break;
    }
    case 1: {
        NEED(prod(prod(a, b) + 1, d));
        float *o = OUT(prod(prod(a, b) + 1, d));
        st = posenc_sinusoidal2d_fill(o, a, b, d, real(&c), u8(&c) & 1);
        free(o);
        break;
    }
    case 2: {
        float *t = floats(&c, prod(a, b)), *o = OUT(prod(a, a));
        st = posenc_similarity(o, t, a, b, u8(&c) & 1);
        free(t), free(o);
        break;
    }
    case 3: {
        double inv[64];
        NEED(prod(a, 32));
        float *cs = OUT(prod(a, 32)), *sn = OUT(prod(a, 32));
        int32_t rd = b > 64 ? 64 : b;
        st = posenc_rope_freqs(inv, &(double){0}, rd, real(&c), NULL);
        if (st == 0) st = posenc_rope_cache_fill(cs, sn, a, rd / 2, inv, real(&c), real(&c));
        free(cs), free(sn);
        break;
    }
    case 4: { /* rope apply, all entry points share validation and kernels */
        double inv[64];
        int32_t rd = e > 0 && e <= d && e <= 64 ? e : d;
        if (rd > 64 || posenc_rope_freqs(inv, &(double){0}, rd, 10000.0, NULL)) return 0;
        int32_t scratch_n = posenc_rope_scratch_size(rd);
        if (scratch_n < 0 || scratch_n > CAP) return 0;
        NEED(prod(prod(a, b), d));
        float *x = floats(&c, prod(prod(a, b), d)), *scr = OUT(scratch_n);
        int32_t *pos = malloc(sizeof(int32_t) * (size_t)(a > 0 ? a : 1));
        for (int32_t i = 0; i < a; i++) pos[i] = (int32_t)u8(&c) - 100;
        uint8_t mode = u8(&c);
        if (mode & 1)
            st = posenc_rope_apply_positions(x, a, b, d, rd, mode & 2 ? 1 : 0, mode & 4 ? 1 : 0,
                                             inv, 1.0, pos, scr, scratch_n);
        else
            st = posenc_rope_apply(x, a, b, d, rd, mode & 2 ? 1 : 0, mode & 4 ? 1 : 0, inv, 1.0,
                                   real(&c), scr, scratch_n);
        free(x), free(scr), free(pos);
        break;
    }
    case 5: {
        float *o = OUT(prod(prod(a, b), d));
        st = posenc_alibi_bias(o, a, b, d, u8(&c) % 4, u8(&c) & 1, (int32_t)u8(&c) - 128);
        free(o);
        break;
    }
    case 6: {
        int32_t *o = malloc(sizeof(int32_t) * (size_t)(prod(a, b) > 0 ? prod(a, b) : 1));
        st = posenc_t5_buckets(o, a, b, u8(&c) & 1, d, e, (int32_t)u8(&c) - 128);
        free(o);
        break;
    }
    case 7: {
        int32_t *o = malloc(sizeof(int32_t) * (size_t)(prod(a, b) > 0 ? prod(a, b) : 1));
        st = posenc_shaw_indices(o, a, b, d, (int32_t)u8(&c) - 128);
        free(o);
        break;
    }
    case 8: { /* rel shift: x and out are [queries][queries + memory] */
        int64_t k = (int64_t)a + (b > 0 ? b : 0);
        NEED(prod(a, k));
        float *x = floats(&c, prod(a, k)), *o = OUT(prod(a, k));
        st = posenc_xl_rel_shift(o, x, a, b);
        free(x), free(o);
        break;
    }
    case 9: {
        NEED(prod(d, b));
        NEED(d);
        float *t = floats(&c, prod(a, b)), *o = OUT(prod(d, b));
        int32_t *pos = malloc(sizeof(int32_t) * (size_t)(d > 0 ? d : 1));
        for (int32_t i = 0; i < d; i++) pos[i] = (int32_t)u8(&c) - 20;
        st = posenc_learned_gather(o, t, a, b, pos, d, u8(&c) % 4);
        free(t), free(o), free(pos);
        break;
    }
    case 10: { /* attention, dense or fused ALiBi, with and without weights */
        int32_t heads = 1 + (u8(&c) & 1), q = a, k = b, dim = d;
        int32_t scratch_n = 0;
        uint8_t kind = u8(&c) % 2;
        if (posenc_attention_scratch_size(&scratch_n, q, k, dim, dim,
                                          kind ? POSENC_BIAS_ALIBI : POSENC_BIAS_NONE, 0) ||
            scratch_n > CAP || prod(prod(heads, q), k) > CAP)
            return 0;
        float *Q = floats(&c, prod(prod(q, heads), dim)), *K = floats(&c, prod(prod(k, heads), dim));
        float *V = floats(&c, prod(prod(k, heads), dim)), *O = OUT(prod(prod(q, heads), dim));
        float *W = u8(&c) & 1 ? OUT(prod(prod(heads, q), k)) : NULL, *S = OUT(scratch_n);
        float *B = kind ? NULL : floats(&c, prod(prod(heads, q), k));
        uint8_t m = u8(&c) % 4;
        if (kind)
            st = posenc_attention_alibi(O, W, Q, K, V, q, k, heads, dim, dim, real(&c), m,
                                        (int32_t)u8(&c) - 128, S, scratch_n, u8(&c) % 4);
        else
            st = posenc_attention(O, W, Q, K, V, q, k, heads, dim, dim, real(&c), m,
                                  (int32_t)u8(&c) - 128, S, scratch_n, u8(&c) & 1 ? B : NULL);
        free(Q), free(K), free(V), free(O), free(W), free(S), free(B);
        break;
    }
    default: {
        NEED(prod(b, d));
        NEED(prod(a, d));
        float *A = floats(&c, prod(a, b)), *Bm = floats(&c, prod(b, d)), *O = OUT(prod(a, d));
        st = posenc_matmul(O, A, Bm, a, b, d);
        free(A), free(Bm), free(O);
        break;
    }
    }
    CHECK_STATUS(st);
    return 0;
}
