/* train.c -- the extrapolation lab: a tiny causal transformer trained from a seed.
 *
 * Model (pre-norm, no dropout): x = E[tok] (+ P[pos] for learned / sinusoidal); per layer
 *   x += Wo . attn(LN1(x))  with q,k,v = LN1(x) Wq,Wk,Wv, causal softmax(q.k/sqrt(dh) + bias)
 *   x += W2 relu(W1 LN2(x) + b1) + b2
 * then logits = LNf(x) Wout + bout and a cross-entropy over the positions the task scores.
 * RoPE rotates q and k (HALF pairing) per head; ALiBi and T5 add a [head][query][key] bias (T5's
 * bucket table is shared by the layers, as in T5).
 *
 * DETERMINISM. The same seed gives the same bits on the SIMD, scalar and native builds:
 *   - every random number is a pure function of (seed, stream, counter) (splitmix64 hashing);
 *   - no libm transcendental is called: exp, sin and cos are written here from + - * / only,
 *     sqrt is the correctly rounded instruction everywhere, log is posenc__det_log;
 *   - every sum runs in one fixed order; the SIMD matmul vectorises across output columns, so
 *     each lane performs exactly the scalar loop's operations (and no FMA: -ffp-contract=off).
 *
 * MEMORY. One caller arena (posenc_train_size bytes) holds the header, parameters, gradients,
 * Adam moments, tables and activations; nothing is allocated afterwards.
 *
 * The same source compiles in float64 (POSENC_TRAIN_F64, no exported symbols) for the native
 * finite-difference gradient checks: tests/native/test_train.c includes this file that way.
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "posenc.h"
#include "posenc_internal.h"
#include "posenc_simd.h"

#ifdef POSENC_TRAIN_F64
typedef double real;
#else
typedef float real;
#endif

#define PT_VOCAB           POSENC_TRAIN_VOCAB
#define PT_MAX_LAYERS      4
#define PT_T5_BUCKETS      32
#define PT_T5_MAX_DISTANCE 128

/* ---------------------------------------------------------------- deterministic maths */

static uint64_t pt_mix(uint64_t z) {
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
/* The counter-based generator: 64 random bits for (seed, stream, counter). */
static uint64_t pt_rand(uint64_t seed, uint64_t stream, uint64_t counter) {
    return pt_mix(pt_mix(seed ^ pt_mix(stream * 0xd1b54a32d192ed03ull)) + counter);
}
/* integer in [0, n) */
static int32_t pt_below(uint64_t r, int32_t n) {
    return (int32_t)(((r >> 32) * (uint64_t)n) >> 32);
}
/* double in [-1, 1) */
static double pt_sym(uint64_t r) { return (double)(r >> 11) * (2.0 / 9007199254740992.0) - 1.0; }

/* exp(x) for x <= 0 (softmax arguments), relative error ~1e-16: x = n ln2 + r, Taylor on r. */
static double pt_exp(double x) {
    if (!(x > -700.0)) return 0.0;
    if (x > 700.0) x = 700.0;
    const double t = x * 1.4426950408889634;
    const int32_t n = (int32_t)(t < 0 ? t - 0.5 : t + 0.5);
    const double r = (x - n * 6.93147180369123816490e-01) - n * 1.90821492927058770002e-10;
    double p = 1.0 / 479001600.0; /* 1/12! */
    static const double inv_fact[12] = {
        1.0 / 39916800.0, 1.0 / 3628800.0, 1.0 / 362880.0, 1.0 / 40320.0, 1.0 / 5040.0, 1.0 / 720.0,
        1.0 / 120.0,      1.0 / 24.0,      1.0 / 6.0,      0.5,           1.0,          1.0};
    for (int i = 0; i < 12; i++) p = p * r + inv_fact[i];
    uint64_t bits = (uint64_t)(int64_t)(n + 1023) << 52;
    double two_n;
    memcpy(&two_n, &bits, sizeof two_n);
    return p * two_n;
}

/* sin and cos of x (|x| < 2^20), error ~1e-15: reduce by pi/2 in three parts, Taylor on
 * |r| <= pi/4. */
static void pt_sincos(double x, double *s, double *c) {
    const double t = x * 0.63661977236758134308;
    const int64_t q = (int64_t)(t < 0 ? t - 0.5 : t + 0.5);
    const double r = ((x - q * 1.5707963267341256e+00) - q * 6.07710050630396597660e-11) -
                     q * 2.0222662487959506e-21;
    const double r2 = r * r;
    double ps = 1.0 / 6227020800.0, pc = -1.0 / 87178291200.0; /* 1/13!, -1/14! */
    static const double sf[6] = {-1.0 / 39916800.0, 1.0 / 362880.0, -1.0 / 5040.0,
                                 1.0 / 120.0,       -1.0 / 6.0,     1.0};
    static const double cf[7] = {
        1.0 / 479001600.0, -1.0 / 3628800.0, 1.0 / 40320.0, -1.0 / 720.0, 1.0 / 24.0, -0.5, 1.0};
    for (int i = 0; i < 6; i++) ps = ps * r2 + sf[i];
    for (int i = 0; i < 7; i++) pc = pc * r2 + cf[i];
    const double sn = ps * r, cs = pc;
    switch ((int)(q & 3)) {
        case 0:
            *s = sn;
            *c = cs;
            break;
        case 1:
            *s = cs;
            *c = -sn;
            break;
        case 2:
            *s = -sn;
            *c = -cs;
            break;
        default:
            *s = -cs;
            *c = sn;
            break;
    }
}

/* ---------------------------------------------------------------- layout */

typedef struct pt_layer {
    real *ln1_g, *ln1_b, *wq, *wk, *wv, *wo, *ln2_g, *ln2_b, *w1, *b1, *w2, *b2;
} pt_layer;

typedef struct pt_params {
    real *pos, *t5, *emb;
    pt_layer l[PT_MAX_LAYERS];
    real *lnf_g, *lnf_b, *wout, *bout;
} pt_params;

typedef struct pt_act {
    real *x, *h1, *mu1, *rs1, *q, *k, *v, *att, *o, *x2, *h2, *mu2, *rs2, *u, *g;
} pt_act;

/* The header at the start of the arena: configuration and optimiser state only (pointers are
 * rebuilt from the arena address on every call, so a copied arena stays valid). */
typedef struct pt_header {
    uint32_t magic;
    int32_t task, method, length, dim, heads, layers, hidden, batch, steps, seed, max_length, k;
    int32_t ncap, tcap;
    int64_t nparams;
    double lr, weight_decay, clip, beta1, beta2, eps;
    /* what init saw: the arena's size and a hash of every field above (pt_open recomputes both,
     * so an edited header is refused instead of laying the arena out past its end) */
    int64_t bytes;
    uint64_t hash;
    /* optimiser state: changes every step, outside the hash */
    int32_t step;
    double pow1, pow2;
} pt_header;

#define PT_MAGIC 0x706f7331u

typedef struct pt_model {
    pt_header *h;
    pt_params p, gp;
    real *param, *grad, *m1, *m2, *decay, *sintab, *cosr, *sinr, *slopes;
    pt_act a[PT_MAX_LAYERS + 1];
    real *hf, *muf, *rsf, *probs;
    real *dx, *dh, *dq, *dk, *dv, *dout, *du, *tmp, *wt, *drow;
    int32_t *tok, *tgt, *orc, *bucket;
    double rope_inv[64], rope_scale; /* frequencies of the current forward pass */
    int32_t dh_;                     /* head width */
} pt_model;

static size_t pt_round(size_t n) { return (n + 3) & ~(size_t)3; } /* 16-byte aligned float32 */

/* Walks the parameter layout; with base == NULL only counts. The learned table comes first,
 * then T5's buckets, so a reader can find them at offset 0. */
static int64_t pt_bind_params(const pt_header *h, real *base, pt_params *p) {
    int64_t off = 0;
    const int64_t d = h->dim, f = h->hidden, V = PT_VOCAB;
#define TAKE(field, n)                                                                             \
    do {                                                                                           \
        if (base) p->field = base + off;                                                           \
        off += (int64_t)pt_round((size_t)(n));                                                     \
    } while (0)
    if (h->method == POSENC_PE_LEARNED) TAKE(pos, h->length * d);
    if (h->method == POSENC_PE_T5) TAKE(t5, PT_T5_BUCKETS * h->heads);
    TAKE(emb, V * d);
    for (int32_t l = 0; l < h->layers; l++) {
        TAKE(l[l].ln1_g, d);
        TAKE(l[l].ln1_b, d);
        TAKE(l[l].wq, d * d);
        TAKE(l[l].wk, d * d);
        TAKE(l[l].wv, d * d);
        TAKE(l[l].wo, d * d);
        TAKE(l[l].ln2_g, d);
        TAKE(l[l].ln2_b, d);
        TAKE(l[l].w1, d * f);
        TAKE(l[l].b1, f);
        TAKE(l[l].w2, f * d);
        TAKE(l[l].b2, d);
    }
    TAKE(lnf_g, d);
    TAKE(lnf_b, d);
    TAKE(wout, d * V);
    TAKE(bout, V);
#undef TAKE
    return off;
}

/* pt_layout's steps take the arena in order: TAKE(field, n) the next pt_round(n) reals for
 * m->field (bound only when base is set, always counted into off), TAKEI the same for an int32
 * buffer. */
#define TAKE(field, n)                                                                             \
    do {                                                                                           \
        if (base) m->field = base + off;                                                           \
        off += (int64_t)pt_round((size_t)(n));                                                     \
    } while (0)
#define TAKEI(field, n)                                                                            \
    do {                                                                                           \
        if (base) m->field = (int32_t *)(base + off);                                              \
        off += (int64_t)pt_round((size_t)(n));                                                     \
    } while (0)

/* The parameters (np reals), their gradients, Adam's moments, the decay mask and the position
 * tables. */
ALWAYS_INLINE int64_t pt_layout_state(const pt_header *h, real *base, pt_model *m, int64_t off,
                                      int64_t np) {
    const int64_t d = h->dim, T = h->tcap, H = h->heads;
    TAKE(param, np);
    TAKE(grad, np);
    TAKE(m1, np);
    TAKE(m2, np);
    TAKE(decay, np);
    TAKE(sintab, T * d);
    TAKE(cosr, T * (d / H / 2 + 1));
    TAKE(sinr, T * (d / H / 2 + 1));
    TAKE(slopes, H);
    return off;
}

/* The forward activations each layer keeps for the backward pass, then the last layer's
 * output (the input of layer h->layers). */
ALWAYS_INLINE int64_t pt_layout_activations(const pt_header *h, real *base, pt_model *m,
                                            int64_t off) {
    const int64_t d = h->dim, f = h->hidden, N = h->ncap, T = h->tcap, H = h->heads;
    const int64_t A = N * T * H;
    for (int32_t l = 0; l <= h->layers; l++) {
        TAKE(a[l].x, N * d);
        if (l == h->layers) break;
        TAKE(a[l].h1, N * d);
        TAKE(a[l].mu1, N);
        TAKE(a[l].rs1, N);
        TAKE(a[l].q, N * d);
        TAKE(a[l].k, N * d);
        TAKE(a[l].v, N * d);
        TAKE(a[l].att, A);
        TAKE(a[l].o, N * d);
        TAKE(a[l].x2, N * d);
        TAKE(a[l].h2, N * d);
        TAKE(a[l].mu2, N);
        TAKE(a[l].rs2, N);
        TAKE(a[l].u, N * f);
        TAKE(a[l].g, N * f);
    }
    return off;
}

/* The final norm and probabilities, the backward pass's buffers, and the int32 buffers (tokens,
 * targets, oracle, T5 buckets). */
ALWAYS_INLINE int64_t pt_layout_scratch(const pt_header *h, real *base, pt_model *m, int64_t off) {
    const int64_t d = h->dim, f = h->hidden, N = h->ncap, T = h->tcap;
    int64_t wmax = d > f ? d : f;
    if (wmax < PT_VOCAB) wmax = PT_VOCAB;
    TAKE(hf, N * d);
    TAKE(muf, N);
    TAKE(rsf, N);
    TAKE(probs, N * PT_VOCAB);
    TAKE(dx, N * d);
    TAKE(dh, N * d);
    TAKE(dq, N * d);
    TAKE(dk, N * d);
    TAKE(dv, N * d);
    TAKE(dout, N * d);
    TAKE(du, N * f);
    TAKE(tmp, N * wmax);
    TAKE(wt, wmax * wmax);
    TAKE(drow, T);
    /* int32 buffers, counted in reals (each at least 4 bytes) */
    TAKEI(tok, N);
    TAKEI(tgt, N);
    TAKEI(orc, N);
    TAKEI(bucket, T);
    return off;
}

/* Reals after the header for the whole arena; with base != NULL binds every pointer of m. */
static int64_t pt_layout(pt_header *h, real *base, pt_model *m) {
    pt_params scratch;
    const int64_t np = pt_bind_params(h, NULL, &scratch);
    if (base) {
        memset(m, 0, sizeof *m);
        m->h = h;
    }
    int64_t off = pt_layout_state(h, base, m, 0, np);
    off = pt_layout_activations(h, base, m, off);
    off = pt_layout_scratch(h, base, m, off);
    if (base) {
        pt_bind_params(h, m->param, &m->p);
        pt_bind_params(h, m->grad, &m->gp);
        m->dh_ = h->dim / h->heads;
    }
    return off;
}
#undef TAKE
#undef TAKEI

static size_t pt_header_bytes(void) { return (sizeof(pt_header) + 63) & ~(size_t)63; }

/* ---------------------------------------------------------------- kernels */

/* y[n][out] (+)= x[n][in] . w[in][out]. Each output element is summed over k in ascending
 * order in both branches, so SIMD and scalar produce identical bits. */
static void pt_mm(real *y, const real *x, const real *w, int64_t n, int64_t in, int64_t out,
                  int accumulate) {
    int64_t r = 0;
#ifndef POSENC_TRAIN_F64
    /* four rows at a time share each load of w; the per-element order is unchanged */
    if ((out & 3) == 0)
        for (; r + 4 <= n; r += 4) {
            const real *x0 = x + r * in, *x1 = x0 + in, *x2 = x1 + in, *x3 = x2 + in;
            real *y0 = y + r * out, *y1 = y0 + out, *y2 = y1 + out, *y3 = y2 + out;
            for (int64_t j = 0; j < out; j += 4) {
                pv4 a0 = accumulate ? pv4_load(y0 + j) : pv4_splat(0.0f);
                pv4 a1 = accumulate ? pv4_load(y1 + j) : pv4_splat(0.0f);
                pv4 a2 = accumulate ? pv4_load(y2 + j) : pv4_splat(0.0f);
                pv4 a3 = accumulate ? pv4_load(y3 + j) : pv4_splat(0.0f);
                for (int64_t k = 0; k < in; k++) {
                    const pv4 wk = pv4_load(w + k * out + j);
                    a0 = pv4_add(a0, pv4_mul(pv4_load_splat(x0 + k), wk));
                    a1 = pv4_add(a1, pv4_mul(pv4_load_splat(x1 + k), wk));
                    a2 = pv4_add(a2, pv4_mul(pv4_load_splat(x2 + k), wk));
                    a3 = pv4_add(a3, pv4_mul(pv4_load_splat(x3 + k), wk));
                }
                pv4_store(y0 + j, a0);
                pv4_store(y1 + j, a1);
                pv4_store(y2 + j, a2);
                pv4_store(y3 + j, a3);
            }
        }
#endif
    for (; r < n; r++) {
        const real *xr = x + r * in;
        real *yr = y + r * out;
        int64_t j = 0;
#ifndef POSENC_TRAIN_F64
        for (; j + 4 <= out; j += 4) {
            pv4 acc = accumulate ? pv4_load(yr + j) : pv4_splat(0.0f);
            for (int64_t k = 0; k < in; k++)
                acc = pv4_add(acc, pv4_mul(pv4_splat(xr[k]), pv4_load(w + k * out + j)));
            pv4_store(yr + j, acc);
        }
#endif
        for (; j < out; j++) {
            real acc = accumulate ? yr[j] : 0;
            for (int64_t k = 0; k < in; k++) acc = acc + xr[k] * w[k * out + j];
            yr[j] = acc;
        }
    }
}

/* dw[in][out] += x[n][in]^T . dy[n][out], summed over rows in ascending order. */
static void pt_mm_tn(real *dw, const real *x, const real *dy, int64_t n, int64_t in, int64_t out) {
    int64_t r = 0;
#ifndef POSENC_TRAIN_F64
    /* four rows per pass over dw: each element still adds rows r, r+1, r+2, r+3 in order */
    if ((out & 3) == 0)
        for (; r + 4 <= n; r += 4) {
            const real *d0 = dy + r * out, *d1 = d0 + out, *d2 = d1 + out, *d3 = d2 + out;
            for (int64_t k = 0; k < in; k++) {
                const pv4 s0 = pv4_splat(x[r * in + k]), s1 = pv4_splat(x[(r + 1) * in + k]);
                const pv4 s2 = pv4_splat(x[(r + 2) * in + k]), s3 = pv4_splat(x[(r + 3) * in + k]);
                real *wr = dw + k * out;
                for (int64_t j = 0; j < out; j += 4) {
                    pv4 acc = pv4_load(wr + j);
                    acc = pv4_add(acc, pv4_mul(s0, pv4_load(d0 + j)));
                    acc = pv4_add(acc, pv4_mul(s1, pv4_load(d1 + j)));
                    acc = pv4_add(acc, pv4_mul(s2, pv4_load(d2 + j)));
                    acc = pv4_add(acc, pv4_mul(s3, pv4_load(d3 + j)));
                    pv4_store(wr + j, acc);
                }
            }
        }
#endif
    for (; r < n; r++) {
        const real *xr = x + r * in, *dr = dy + r * out;
        for (int64_t k = 0; k < in; k++) {
            const real xv = xr[k];
            real *wr = dw + k * out;
            int64_t j = 0;
#ifndef POSENC_TRAIN_F64
            const pv4 xs = pv4_splat(xv);
            for (; j + 4 <= out; j += 4)
                pv4_store(wr + j, pv4_add(pv4_load(wr + j), pv4_mul(xs, pv4_load(dr + j))));
#endif
            for (; j < out; j++) wr[j] = wr[j] + xv * dr[j];
        }
    }
}

/* a . b over n values. The float build sums four lanes then (l0 + l1) + (l2 + l3) when n is a
 * multiple of 4, in every build (the scalar pv4 emulates exactly this), else in plain order. */
static real pt_dot(const real *a, const real *b, int64_t n) {
#ifndef POSENC_TRAIN_F64
    if ((n & 3) == 0) {
        pv4 acc = pv4_splat(0.0f);
        for (int64_t c = 0; c < n; c += 4)
            acc = pv4_add(acc, pv4_mul(pv4_load(a + c), pv4_load(b + c)));
        return pv4_hsum(acc);
    }
#endif
    real s = 0;
    for (int64_t c = 0; c < n; c++) s = s + a[c] * b[c];
    return s;
}

/* y += alpha * x, element by element (the same operations in every branch) */
static void pt_axpy(real *y, real alpha, const real *x, int64_t n) {
    int64_t c = 0;
#ifndef POSENC_TRAIN_F64
    const pv4 al = pv4_splat(alpha);
    for (; c + 4 <= n; c += 4)
        pv4_store(y + c, pv4_add(pv4_load(y + c), pv4_mul(al, pv4_load(x + c))));
#endif
    for (; c < n; c++) y[c] = y[c] + alpha * x[c];
}

/* dx[n][in] (+)= dy[n][out] . w[in][out]^T, through a transposed copy of w */
static void pt_mm_nt(pt_model *m, real *dx, const real *dy, const real *w, int64_t n, int64_t in,
                     int64_t out, int accumulate) {
    for (int64_t k = 0; k < in; k++)
        for (int64_t j = 0; j < out; j++) m->wt[j * in + k] = w[k * out + j];
    pt_mm(dx, dy, m->wt, n, out, in, accumulate);
}

static void pt_layernorm(real *y, real *mu, real *rs, const real *x, const real *g, const real *b,
                         int64_t n, int64_t d) {
    for (int64_t r = 0; r < n; r++) {
        const real *xr = x + r * d;
        real s = 0;
        for (int64_t c = 0; c < d; c++) s = s + xr[c];
        const real mean = s / (real)d;
        real v = 0;
        for (int64_t c = 0; c < d; c++) v = v + (xr[c] - mean) * (xr[c] - mean);
        const real rstd = (real)1 / (real)sqrt((double)(v / (real)d + (real)1e-5));
        mu[r] = mean;
        rs[r] = rstd;
        for (int64_t c = 0; c < d; c++) y[r * d + c] = (xr[c] - mean) * rstd * g[c] + b[c];
    }
}

/* dx (+)= LN backward of dy; dg, db accumulate. */
static void pt_layernorm_back(real *dx, real *dg, real *db, const real *dy, const real *x,
                              const real *mu, const real *rs, const real *g, int64_t n, int64_t d,
                              int accumulate) {
    for (int64_t r = 0; r < n; r++) {
        const real *xr = x + r * d, *dr = dy + r * d;
        real s1 = 0, s2 = 0;
        for (int64_t c = 0; c < d; c++) {
            const real xh = (xr[c] - mu[r]) * rs[r];
            const real dxh = dr[c] * g[c];
            dg[c] = dg[c] + dr[c] * xh;
            db[c] = db[c] + dr[c];
            s1 = s1 + dxh;
            s2 = s2 + dxh * xh;
        }
        s1 = s1 / (real)d;
        s2 = s2 / (real)d;
        for (int64_t c = 0; c < d; c++) {
            const real xh = (xr[c] - mu[r]) * rs[r];
            const real v = rs[r] * (dr[c] * g[c] - s1 - xh * s2);
            dx[r * d + c] = accumulate ? dx[r * d + c] + v : v;
        }
    }
}

/* ---------------------------------------------------------------- tasks */

enum { PT_STREAM_TRAIN = 1, PT_STREAM_EVAL = 2, PT_STREAM_INIT = 3, PT_STREAM_SOURCE = 4 };

/* NGRAM: the next token is the context's own token with probability 3/4, else uniform; so the
 * best any model can do is predict the context's token: right 3/4 + 1/64 of the time. */
#define PT_NGRAM_KEEP 3 /* of 4 */

/* The n-gram source's token for a context (the last n - 1 tokens, oldest first): a fixed
 * random table drawn from the model's seed only, so training and evaluation see one source. */
static int32_t pt_ngram_next(const pt_header *h, const int32_t *ctx) {
    uint64_t c = 0;
    for (int32_t j = 0; j < h->k - 1; j++) c = c * PT_VOCAB + (uint64_t)ctx[j];
    return pt_below(pt_rand((uint32_t)h->seed, PT_STREAM_SOURCE, c), PT_VOCAB);
}

/* One sequence of n tokens, its targets (-1 = not scored) and the best possible prediction of
 * each target (orc: the target itself, except for NGRAM's draws) from (seed, stream). */
static void pt_sequence(const pt_header *h, int32_t n, uint64_t seed, uint64_t stream, int32_t *tok,
                        int32_t *tgt, int32_t *orc) {
    const uint64_t hi = (uint64_t)1 << 32;
    switch (h->task) {
        case POSENC_TASK_COPY:
            for (int32_t i = 0; i < n; i++)
                tok[i] = pt_below(pt_rand(seed, stream, (uint64_t)i), PT_VOCAB);
            for (int32_t i = 0; i < n; i++) tgt[i] = i >= h->k ? tok[i - h->k] : -1;
            break;
        case POSENC_TASK_PERIODIC: {
            /* a pattern of p distinct tokens repeated; predict the next token once two periods
         * have been seen (p in [2, k]) */
            int32_t perm[PT_VOCAB];
            for (int32_t i = 0; i < PT_VOCAB; i++) perm[i] = i;
            for (int32_t i = PT_VOCAB - 1; i > 0; i--) {
                const int32_t j = pt_below(pt_rand(seed, stream, hi + (uint64_t)i), i + 1);
                const int32_t t = perm[i];
                perm[i] = perm[j];
                perm[j] = t;
            }
            const int32_t p = 2 + pt_below(pt_rand(seed, stream, 2 * hi), h->k - 1);
            for (int32_t i = 0; i < n; i++) tok[i] = perm[i % p];
            for (int32_t i = 0; i < n; i++)
                tgt[i] = (i + 1 < n && i + 1 >= 2 * p) ? tok[i + 1] : -1;
            break;
        }
        case POSENC_TASK_NGRAM: {
            /* an order-k source (k - 1 tokens of context); predict every token that has a full
         * context, at the position before it */
            const int32_t c = h->k - 1;
            for (int32_t i = 0; i < n; i++) {
                tgt[i] = orc[i] = -1;
                if (i < c) {
                    tok[i] = pt_below(pt_rand(seed, stream, (uint64_t)i), PT_VOCAB);
                    continue;
                }
                const int32_t best = pt_ngram_next(h, tok + i - c);
                const int keep = pt_below(pt_rand(seed, stream, (uint64_t)i), 4) < PT_NGRAM_KEEP;
                tok[i] = keep ? best : pt_below(pt_rand(seed, stream, hi + (uint64_t)i), PT_VOCAB);
                tgt[i - 1] = tok[i];
                orc[i - 1] = best;
            }
            return;
        }
        default: { /* FIRST: which of the markers A and B came first, asked at every position
                * after both have appeared */
            const int32_t A = PT_VOCAB - 4, B = PT_VOCAB - 3;
            for (int32_t i = 0; i < n; i++)
                tok[i] = pt_below(pt_rand(seed, stream, (uint64_t)i), A);
            const int32_t pa = pt_below(pt_rand(seed, stream, hi), n);
            const int32_t pb = (pa + 1 + pt_below(pt_rand(seed, stream, hi + 1), n - 1)) % n;
            tok[pa] = A;
            tok[pb] = B;
            const int32_t last = pa > pb ? pa : pb, answer = pa < pb ? PT_VOCAB - 2 : PT_VOCAB - 1;
            for (int32_t i = 0; i < n; i++) tgt[i] = i >= last ? answer : -1;
            break;
        }
    }
    for (int32_t i = 0; i < n; i++) orc[i] = tgt[i];
}

/* ---------------------------------------------------------------- model */

/* rotary cos/sin [t][dh/2] for positions 0..T-1 from m->rope_inv and m->rope_scale */
static void pt_rope_tables(pt_model *m, int32_t T) {
    const int32_t np = m->dh_ / 2;
    for (int32_t t = 0; t < T; t++)
        for (int32_t i = 0; i < np; i++) {
            double s, c;
            pt_sincos((double)t * m->rope_inv[i], &s, &c);
            m->cosr[t * np + i] = (real)(c * m->rope_scale);
            m->sinr[t * np + i] = (real)(s * m->rope_scale);
        }
}

static void pt_default_freqs(pt_model *m) {
    const int32_t np = m->dh_ / 2;
    /* base^(-i/np) with base = 10000: exp(-(i/np) ln 10000) */
    for (int32_t i = 0; i < np; i++)
        m->rope_inv[i] = pt_exp(-((double)i / np) * 9.2103403719761836);
    m->rope_scale = 1.0;
}

static void pt_rotate(real *x, const real *c, const real *s, int32_t np, int inverse) {
    for (int32_t i = 0; i < np; i++) {
        const real u = x[i], v = x[np + i];
        if (!inverse) {
            x[i] = u * c[i] - v * s[i];
            x[np + i] = v * c[i] + u * s[i];
        } else {
            x[i] = u * c[i] + v * s[i];
            x[np + i] = v * c[i] - u * s[i];
        }
    }
}

/* What one forward pass scored: all scored positions, and those at or past the training length
 * (`beyond`; positions 0 .. length-1 are the ones training saw). */
typedef struct pt_counts {
    int64_t scored, correct, oracle, beyond_scored, beyond_correct;
    double beyond_loss;
} pt_counts;

/* The steps of pt_forward and pt_backward, one per part of the model, are ALWAYS_INLINE: each
 * compiles as one body with its caller, as when they were written inline. */

/* Forward, embeddings and positions: x = E[tok] (+ P[pos] for learned / sinusoidal) into the
 * first layer's input, and the pass's position tables (RoPE's cos/sin, T5's buckets). */
ALWAYS_INLINE void pt_embed(pt_model *m, int64_t N, int32_t T) {
    const pt_header *h = m->h;
    const int64_t d = h->dim;
    const pt_params *p = &m->p;
    real *x0 = m->a[0].x;
    for (int64_t n = 0; n < N; n++) {
        const int64_t t = n % T;
        for (int64_t c = 0; c < d; c++) {
            real v = p->emb[(int64_t)m->tok[n] * d + c];
            if (h->method == POSENC_PE_LEARNED) v = v + p->pos[t * d + c];
            if (h->method == POSENC_PE_SINUSOIDAL) v = v + m->sintab[t * d + c];
            x0[n * d + c] = v;
        }
    }
    if (h->method == POSENC_PE_ROPE) pt_rope_tables(m, T);
    if (h->method == POSENC_PE_T5)
        for (int32_t r = 0; r < T; r++)
            m->bucket[r] = posenc__t5_bucket(-(int64_t)r, 0, PT_T5_BUCKETS, PT_T5_MAX_DISTANCE);
}

/* Forward, attention of head hh over sequence b: the causal softmax of q.k * scale + bias into
 * a->att ([b][head][query][key], kept for the backward pass) and its weighted sum of v into
 * a->o. */
ALWAYS_INLINE void pt_attend_head(pt_model *m, pt_act *a, int64_t b, int64_t hh, int64_t T,
                                  real scale) {
    const pt_header *h = m->h;
    const int64_t d = h->dim, H = h->heads, dh = m->dh_;
    const pt_params *p = &m->p;
    real *P = a->att + (b * H + hh) * T * T;
    /* the additive bias depends on the distance i - j only */
    real *brow = m->drow;
    for (int64_t r = 0; r < T; r++)
        brow[r] = h->method == POSENC_PE_ALIBI ? (real)(-(double)m->slopes[hh] * (double)r)
                  : h->method == POSENC_PE_T5  ? p->t5[m->bucket[r] * H + hh]
                                               : (real)0;
    for (int64_t i = 0; i < T; i++) {
        const real *qi = a->q + (b * T + i) * d + hh * dh;
        real *Pi = P + i * T;
        real mx = 0;
        for (int64_t j = 0; j <= i; j++) {
            const real *kj = a->k + (b * T + j) * d + hh * dh;
            const real s = pt_dot(qi, kj, dh) * scale + brow[i - j];
            Pi[j] = s;
            if (j == 0 || s > mx) mx = s;
        }
        double z = 0;
        for (int64_t j = 0; j <= i; j++) {
            const double e = pt_exp((double)(Pi[j] - mx));
            Pi[j] = (real)e;
            z += e;
        }
        const double iz = 1.0 / z;
        for (int64_t j = 0; j <= i; j++) Pi[j] = (real)((double)Pi[j] * iz);
        for (int64_t j = i + 1; j < T; j++) Pi[j] = 0;
        real *oi = a->o + (b * T + i) * d + hh * dh;
        for (int64_t c = 0; c < dh; c++) oi[c] = 0;
        for (int64_t j = 0; j <= i; j++) pt_axpy(oi, Pi[j], a->v + (b * T + j) * d + hh * dh, dh);
    }
}

/* Forward, layer l's attention: x2 = x + Wo . attn(LN1(x)), q and k rotated for RoPE. */
ALWAYS_INLINE void pt_attention_forward(pt_model *m, int32_t l, int32_t B, int32_t T) {
    const pt_header *h = m->h;
    const int64_t d = h->dim, H = h->heads, dh = m->dh_, np = dh / 2, N = (int64_t)B * T;
    const real scale = (real)(1.0 / sqrt((double)dh));
    pt_act *a = &m->a[l];
    const pt_layer *L = &m->p.l[l];
    pt_layernorm(a->h1, a->mu1, a->rs1, a->x, L->ln1_g, L->ln1_b, N, d);
    pt_mm(a->q, a->h1, L->wq, N, d, d, 0);
    pt_mm(a->k, a->h1, L->wk, N, d, d, 0);
    pt_mm(a->v, a->h1, L->wv, N, d, d, 0);
    if (h->method == POSENC_PE_ROPE)
        for (int64_t n = 0; n < N; n++)
            for (int64_t hh = 0; hh < H; hh++) {
                const int64_t t = n % T;
                pt_rotate(a->q + n * d + hh * dh, m->cosr + t * np, m->sinr + t * np, (int32_t)np,
                          0);
                pt_rotate(a->k + n * d + hh * dh, m->cosr + t * np, m->sinr + t * np, (int32_t)np,
                          0);
            }
    for (int64_t b = 0; b < B; b++)
        for (int64_t hh = 0; hh < H; hh++) pt_attend_head(m, a, b, hh, T, scale);
    pt_mm(m->tmp, a->o, L->wo, N, d, d, 0);
    for (int64_t e = 0; e < N * d; e++) a->x2[e] = a->x[e] + m->tmp[e];
}

/* Forward, layer l's MLP: the next layer's input x2 + W2 relu(W1 LN2(x2) + b1) + b2 (u keeps
 * the pre-activation, g the activation, for the backward pass). */
ALWAYS_INLINE void pt_mlp_forward(pt_model *m, int32_t l, int64_t N) {
    const int64_t d = m->h->dim, f = m->h->hidden;
    pt_act *a = &m->a[l];
    const pt_layer *L = &m->p.l[l];
    pt_layernorm(a->h2, a->mu2, a->rs2, a->x2, L->ln2_g, L->ln2_b, N, d);
    pt_mm(a->u, a->h2, L->w1, N, d, f, 0);
    for (int64_t n = 0; n < N; n++)
        for (int64_t c = 0; c < f; c++) {
            const real u = a->u[n * f + c] + L->b1[c];
            a->u[n * f + c] = u;
            a->g[n * f + c] = u > 0 ? u : 0;
        }
    pt_mm(m->tmp, a->g, L->w2, N, f, d, 0);
    real *xn = m->a[l + 1].x;
    for (int64_t n = 0; n < N; n++)
        for (int64_t c = 0; c < d; c++)
            xn[n * d + c] = a->x2[n * d + c] + m->tmp[n * d + c] + L->b2[c];
}

/* Forward, the loss: logits = LNf(x) Wout + bout, their softmax into m->probs, and the
 * cross-entropy of the scored targets, counted into *cn (NaN when a probability is not
 * finite). */
ALWAYS_INLINE double pt_loss(pt_model *m, int64_t N, int32_t T, pt_counts *cn) {
    const pt_header *h = m->h;
    const int64_t d = h->dim;
    const pt_params *p = &m->p;
    pt_layernorm(m->hf, m->muf, m->rsf, m->a[h->layers].x, p->lnf_g, p->lnf_b, N, d);
    pt_mm(m->probs, m->hf, p->wout, N, d, PT_VOCAB, 0);
    double loss = 0;
    int finite = 1;
    memset(cn, 0, sizeof *cn);
    for (int64_t n = 0; n < N; n++) {
        real *z = m->probs + n * PT_VOCAB;
        real mx = z[0] + p->bout[0];
        int32_t arg = 0;
        for (int32_t v = 0; v < PT_VOCAB; v++) {
            z[v] = z[v] + p->bout[v];
            if (z[v] > mx) {
                mx = z[v];
                arg = v;
            }
        }
        double sum = 0;
        for (int32_t v = 0; v < PT_VOCAB; v++) {
            const double e = pt_exp((double)(z[v] - mx));
            z[v] = (real)e;
            sum += e;
        }
        for (int32_t v = 0; v < PT_VOCAB; v++) {
            z[v] = (real)((double)z[v] / sum);
            if (!posenc__finite((double)z[v])) finite = 0;
        }
        const int32_t y = m->tgt[n];
        if (y >= 0) {
            const double py = (double)z[y];
            const double l = -posenc__det_log(py > 1e-30 ? py : 1e-30);
            cn->scored++;
            cn->correct += arg == y;
            cn->oracle += m->orc[n] == y;
            loss += l;
            if (n % T >= h->length) {
                cn->beyond_scored++;
                cn->beyond_correct += arg == y;
                cn->beyond_loss += l;
            }
        }
    }
    return finite ? loss : NAN;
}

/* Forward over B sequences of T tokens in m->tok; returns the summed loss over scored targets
 * (NaN when any output is not finite: huge parameters overflow) and counts them into *cn.
 * Every activation is kept. */
static double pt_forward(pt_model *m, int32_t B, int32_t T, pt_counts *cn) {
    const pt_header *h = m->h;
    const int64_t N = (int64_t)B * T;
    pt_embed(m, N, T);
    for (int32_t l = 0; l < h->layers; l++) {
        pt_attention_forward(m, l, B, T);
        pt_mlp_forward(m, l, N);
    }
    return pt_loss(m, N, T, cn);
}

/* Backward, the loss: d logits of (summed loss / scored) (probs - onehot(target), 0 where not
 * scored) into Wout's and bout's gradients, back through LNf into m->dx. */
ALWAYS_INLINE void pt_loss_back(pt_model *m, int64_t N, int64_t scored) {
    const pt_header *h = m->h;
    const int64_t d = h->dim;
    const pt_params *p = &m->p;
    pt_params *g = &m->gp;
    const real inv = (real)(1.0 / (double)(scored > 0 ? scored : 1));
    real *dl = m->tmp; /* dlogits [N][V] */
    for (int64_t n = 0; n < N; n++)
        for (int32_t v = 0; v < PT_VOCAB; v++) {
            const int32_t y = m->tgt[n];
            dl[n * PT_VOCAB + v] =
                y < 0 ? 0 : (m->probs[n * PT_VOCAB + v] - (v == y ? 1 : 0)) * inv;
        }
    pt_mm_tn(g->wout, m->hf, dl, N, d, PT_VOCAB);
    for (int64_t n = 0; n < N; n++)
        for (int32_t v = 0; v < PT_VOCAB; v++) g->bout[v] = g->bout[v] + dl[n * PT_VOCAB + v];
    pt_mm_nt(m, m->dh, dl, p->wout, N, d, PT_VOCAB, 0);
    pt_layernorm_back(m->dx, g->lnf_g, g->lnf_b, m->dh, m->a[h->layers].x, m->muf, m->rsf, p->lnf_g,
                      N, d, 0);
}

/* Backward, layer l's MLP: x_next = x2 + relu(h2 W1 + b1) W2 + b2; m->dx holds d x_next and
 * leaves holding d x2. */
ALWAYS_INLINE void pt_mlp_back(pt_model *m, int32_t l, int64_t N) {
    const int64_t d = m->h->dim, f = m->h->hidden;
    pt_act *a = &m->a[l];
    const pt_layer *L = &m->p.l[l];
    pt_layer *G = &m->gp.l[l];
    pt_mm_tn(G->w2, a->g, m->dx, N, f, d);
    for (int64_t n = 0; n < N; n++)
        for (int64_t c = 0; c < d; c++) G->b2[c] = G->b2[c] + m->dx[n * d + c];
    pt_mm_nt(m, m->du, m->dx, L->w2, N, f, d, 0);
    for (int64_t e = 0; e < N * f; e++)
        if (!(a->u[e] > 0)) m->du[e] = 0;
    pt_mm_tn(G->w1, a->h2, m->du, N, d, f);
    for (int64_t n = 0; n < N; n++)
        for (int64_t c = 0; c < f; c++) G->b1[c] = G->b1[c] + m->du[n * f + c];
    pt_mm_nt(m, m->dh, m->du, L->w1, N, d, f, 0);
    pt_layernorm_back(m->dx, G->ln2_g, G->ln2_b, m->dh, a->x2, a->mu2, a->rs2, L->ln2_g, N, d, 1);
}

/* Backward, attention of head hh over sequence b: from d o (m->dout) and the kept weights,
 * d v, then through the softmax (ds = P (dp - P.dp)) d q and d k, and T5's bucket gradients. */
ALWAYS_INLINE void pt_attend_head_back(pt_model *m, const pt_act *a, int64_t b, int64_t hh,
                                       int64_t T, real scale) {
    const pt_header *h = m->h;
    const int64_t d = h->dim, H = h->heads, dh = m->dh_;
    pt_params *g = &m->gp;
    const real *P = a->att + (b * H + hh) * T * T;
    for (int64_t i = 0; i < T; i++) {
        const real *Pi = P + i * T;
        const real *doi = m->dout + (b * T + i) * d + hh * dh;
        const real *qi = a->q + (b * T + i) * d + hh * dh;
        real *dqi = m->dq + (b * T + i) * d + hh * dh;
        real *dp = m->drow;
        real dot = 0;
        for (int64_t j = 0; j <= i; j++) {
            const real *vj = a->v + (b * T + j) * d + hh * dh;
            real *dvj = m->dv + (b * T + j) * d + hh * dh;
            const real s = pt_dot(doi, vj, dh);
            pt_axpy(dvj, Pi[j], doi, dh);
            dp[j] = s;
            dot = dot + Pi[j] * s;
        }
        for (int64_t j = 0; j <= i; j++) {
            const real ds = Pi[j] * (dp[j] - dot);
            if (h->method == POSENC_PE_T5) {
                real *w = g->t5 + m->bucket[i - j] * H + hh;
                *w = *w + ds;
            }
            const real dss = ds * scale;
            const real *kj = a->k + (b * T + j) * d + hh * dh;
            real *dkj = m->dk + (b * T + j) * d + hh * dh;
            pt_axpy(dqi, dss, kj, dh);
            pt_axpy(dkj, dss, qi, dh);
        }
    }
}

/* Backward, layer l's attention: x2 = x + o Wo; m->dx holds d x2 and leaves holding d x. */
ALWAYS_INLINE void pt_attention_back(pt_model *m, int32_t l, int32_t B, int32_t T) {
    const pt_header *h = m->h;
    const int64_t d = h->dim, H = h->heads, dh = m->dh_, np = dh / 2, N = (int64_t)B * T;
    const real scale = (real)(1.0 / sqrt((double)dh));
    pt_act *a = &m->a[l];
    const pt_layer *L = &m->p.l[l];
    pt_layer *G = &m->gp.l[l];
    pt_mm_tn(G->wo, a->o, m->dx, N, d, d);
    pt_mm_nt(m, m->dout, m->dx, L->wo, N, d, d, 0);
    memset(m->dq, 0, sizeof(real) * (size_t)(N * d));
    memset(m->dk, 0, sizeof(real) * (size_t)(N * d));
    memset(m->dv, 0, sizeof(real) * (size_t)(N * d));
    for (int64_t b = 0; b < B; b++)
        for (int64_t hh = 0; hh < H; hh++) pt_attend_head_back(m, a, b, hh, T, scale);
    if (h->method == POSENC_PE_ROPE)
        for (int64_t n = 0; n < N; n++)
            for (int64_t hh = 0; hh < H; hh++) {
                const int64_t t = n % T;
                pt_rotate(m->dq + n * d + hh * dh, m->cosr + t * np, m->sinr + t * np, (int32_t)np,
                          1);
                pt_rotate(m->dk + n * d + hh * dh, m->cosr + t * np, m->sinr + t * np, (int32_t)np,
                          1);
            }
    pt_mm_tn(G->wq, a->h1, m->dq, N, d, d);
    pt_mm_tn(G->wk, a->h1, m->dk, N, d, d);
    pt_mm_tn(G->wv, a->h1, m->dv, N, d, d);
    pt_mm_nt(m, m->dh, m->dq, L->wq, N, d, d, 0);
    pt_mm_nt(m, m->dh, m->dk, L->wk, N, d, d, 1);
    pt_mm_nt(m, m->dh, m->dv, L->wv, N, d, d, 1);
    pt_layernorm_back(m->dx, G->ln1_g, G->ln1_b, m->dh, a->x, a->mu1, a->rs1, L->ln1_g, N, d, 1);
}

/* Backward, embeddings and positions: d x of the first layer into E's rows (and P's for
 * learned positions). */
ALWAYS_INLINE void pt_embed_back(pt_model *m, int64_t N, int32_t T) {
    const pt_header *h = m->h;
    const int64_t d = h->dim;
    pt_params *g = &m->gp;
    for (int64_t n = 0; n < N; n++) {
        const int64_t t = n % T;
        real *ge = g->emb + (int64_t)m->tok[n] * d;
        for (int64_t c = 0; c < d; c++) {
            ge[c] = ge[c] + m->dx[n * d + c];
            if (h->method == POSENC_PE_LEARNED)
                g->pos[t * d + c] = g->pos[t * d + c] + m->dx[n * d + c];
        }
    }
}

/* Gradients of (summed loss / scored) into m->grad (overwritten). */
static void pt_backward(pt_model *m, int32_t B, int32_t T, int64_t scored) {
    const pt_header *h = m->h;
    const int64_t N = (int64_t)B * T;
    memset(m->grad, 0, sizeof(real) * (size_t)h->nparams);
    pt_loss_back(m, N, scored);
    for (int32_t l = h->layers - 1; l >= 0; l--) {
        pt_mlp_back(m, l, N);
        pt_attention_back(m, l, B, T);
    }
    pt_embed_back(m, N, T);
}

/* ---------------------------------------------------------------- setup */

static int32_t pt_check_config(const int32_t *ic, const float *fc, pt_header *h) {
    if (!ic || !fc || !h) return POSENC_E_NULL;
    memset(h, 0, sizeof *h);
    h->magic = PT_MAGIC;
    h->task = ic[POSENC_TRAIN_TASK];
    h->method = ic[POSENC_TRAIN_METHOD];
    h->length = ic[POSENC_TRAIN_LENGTH];
    h->dim = ic[POSENC_TRAIN_DIM];
    h->heads = ic[POSENC_TRAIN_HEADS];
    h->layers = ic[POSENC_TRAIN_LAYERS];
    h->hidden = ic[POSENC_TRAIN_HIDDEN];
    h->batch = ic[POSENC_TRAIN_BATCH];
    h->steps = ic[POSENC_TRAIN_STEPS];
    h->seed = ic[POSENC_TRAIN_SEED];
    h->max_length = ic[POSENC_TRAIN_MAX_LENGTH];
    h->k = ic[POSENC_TRAIN_K];
    if (h->task < 0 || h->task > POSENC_TASK_NGRAM || h->method < 0 || h->method > POSENC_PE_T5)
        return POSENC_E_ENUM;
    if (h->dim < 4 || h->dim > 256 || h->heads < 1 || h->heads > 16 || h->layers < 1 ||
        h->layers > PT_MAX_LAYERS || h->hidden < 1 || h->hidden > 1024 || h->batch < 1 ||
        h->batch > 4096 || h->steps < 1 || h->length < 4 || h->length > 4096 || h->max_length < 1 ||
        h->max_length > 65536)
        return POSENC_E_SIZE;
    if (h->dim % h->heads || (h->dim / h->heads) % 2 || h->dim / h->heads > 128)
        return POSENC_E_ODD;
    if (h->task == POSENC_TASK_COPY && (h->k < 1 || h->k >= h->length)) return POSENC_E_PARAM;
    if (h->task == POSENC_TASK_PERIODIC && (h->k < 2 || h->k > PT_VOCAB || 2 * h->k >= h->length))
        return POSENC_E_PARAM;
    if (h->task == POSENC_TASK_NGRAM && (h->k < 2 || h->k > 3)) return POSENC_E_PARAM;
    h->lr = fc[POSENC_TRAIN_LR];
    h->weight_decay = fc[POSENC_TRAIN_WEIGHT_DECAY];
    h->clip = fc[POSENC_TRAIN_CLIP];
    h->beta1 = fc[POSENC_TRAIN_BETA1];
    h->beta2 = fc[POSENC_TRAIN_BETA2];
    h->eps = fc[POSENC_TRAIN_EPS];
    if (!(h->lr > 0 && h->lr <= 1) || !(h->weight_decay >= 0 && h->weight_decay <= 1) ||
        !(h->clip > 0 && h->clip <= 1e6) || !(h->beta1 >= 0 && h->beta1 < 1) ||
        !(h->beta2 >= 0 && h->beta2 < 1) || !(h->eps > 0 && h->eps <= 1))
        return POSENC_E_PARAM;
    const int64_t T = h->length > h->max_length ? h->length : h->max_length;
    const int64_t N = (int64_t)h->batch * h->length > T ? (int64_t)h->batch * h->length : T;
    if (N > (1 << 22)) return POSENC_E_SIZE;
    h->ncap = (int32_t)N;
    h->tcap = (int32_t)T;
    pt_params scratch;
    h->nparams = pt_bind_params(h, NULL, &scratch);
    return POSENC_OK;
}

static int64_t pt_total_bytes(pt_header *h) {
    return (int64_t)pt_header_bytes() + (int64_t)sizeof(real) * pt_layout(h, NULL, NULL);
}

/* FNV-1a over the header up to (not including) its hash: configuration and arena size. */
static uint64_t pt_header_hash(const pt_header *h) {
    const unsigned char *b = (const unsigned char *)h;
    uint64_t x = 14695981039346656037ull;
    for (size_t i = 0; i < offsetof(pt_header, hash); i++) x = (x ^ b[i]) * 1099511628211ull;
    return x;
}

/* Binds m to an initialised arena; E_PARAM if it is not one: not 8-byte aligned (the header
 * holds int64 and double fields), not initialised, or its header edited since init (the hash
 * no longer matches, or the layout it describes does not fit the bytes init was given). */
static int32_t pt_open(void *arena, pt_model *m) {
    if (!arena || !m) return POSENC_E_NULL;
    if ((uintptr_t)arena & 7) return POSENC_E_PARAM;
    pt_header *h = (pt_header *)arena;
    if (h->magic != PT_MAGIC || h->hash != pt_header_hash(h)) return POSENC_E_PARAM;
    if (h->layers < 1 || h->layers > PT_MAX_LAYERS || h->heads < 1 || h->dim % h->heads ||
        pt_total_bytes(h) > h->bytes)
        return POSENC_E_PARAM;
    pt_layout(h, (real *)((char *)arena + pt_header_bytes()), m);
    return POSENC_OK;
}

static void pt_fill_uniform(real *w, int64_t n, double std, uint64_t seed, uint64_t tag) {
    const double a = std * 1.7320508075688772; /* uniform on [-a, a] has this std */
    for (int64_t e = 0; e < n; e++)
        w[e] = (real)(a * pt_sym(pt_rand(seed, PT_STREAM_INIT * 1000 + tag, (uint64_t)e)));
}

static void pt_init_params(pt_model *m) {
    const pt_header *h = m->h;
    const int64_t d = h->dim, f = h->hidden;
    const uint64_t seed = (uint32_t)h->seed;
    pt_params *p = &m->p;
    memset(m->param, 0, sizeof(real) * (size_t)h->nparams);
    if (h->method == POSENC_PE_LEARNED) pt_fill_uniform(p->pos, h->length * d, 0.5, seed, 1);
    pt_fill_uniform(p->emb, PT_VOCAB * d, 1.0, seed, 2);
    for (int32_t l = 0; l < h->layers; l++) {
        pt_layer *L = &p->l[l];
        const uint64_t t = 10 + 10 * (uint64_t)l;
        for (int64_t c = 0; c < d; c++) L->ln1_g[c] = L->ln2_g[c] = 1;
        pt_fill_uniform(L->wq, d * d, 1.0 / sqrt((double)d), seed, t + 0);
        pt_fill_uniform(L->wk, d * d, 1.0 / sqrt((double)d), seed, t + 1);
        pt_fill_uniform(L->wv, d * d, 1.0 / sqrt((double)d), seed, t + 2);
        pt_fill_uniform(L->wo, d * d, 0.5 / sqrt((double)d * h->layers), seed, t + 3);
        pt_fill_uniform(L->w1, d * f, 1.0 / sqrt((double)d), seed, t + 4);
        pt_fill_uniform(L->w2, f * d, 0.5 / sqrt((double)f * h->layers), seed, t + 5);
    }
    for (int64_t c = 0; c < d; c++) p->lnf_g[c] = 1;
    pt_fill_uniform(p->wout, d * PT_VOCAB, 1.0 / sqrt((double)d), seed, 3);
}

/* Weight decay applies to matrices and tables (not to norms, biases or T5's bias table). */
static int pt_decays(const pt_model *m, const real *w) {
    const pt_params *p = &m->p;
    const int64_t d = m->h->dim, f = m->h->hidden;
#define IN(ptr, n) ((ptr) && w >= (ptr) && w < (ptr) + (n))
    if (IN(p->pos, m->h->length * d) || IN(p->emb, PT_VOCAB * d) || IN(p->wout, d * PT_VOCAB))
        return 1;
    for (int32_t l = 0; l < m->h->layers; l++) {
        const pt_layer *L = &p->l[l];
        if (IN(L->wq, d * d) || IN(L->wk, d * d) || IN(L->wv, d * d) || IN(L->wo, d * d) ||
            IN(L->w1, d * f) || IN(L->w2, f * d))
            return 1;
    }
#undef IN
    return 0;
}

/* The fixed tables of a bound model: sinusoids [tcap][d] (interleaved, base 10000) and slopes. */
static void pt_tables(pt_model *m) {
    const pt_header *h = m->h;
    const int64_t d = h->dim;
    if (h->method == POSENC_PE_SINUSOIDAL)
        for (int64_t t = 0; t < h->tcap; t++)
            for (int64_t i = 0; i < d / 2; i++) {
                double s, c;
                pt_sincos((double)t * pt_exp(-(2.0 * (double)i / (double)d) * 9.2103403719761836),
                          &s, &c);
                m->sintab[t * d + 2 * i] = (real)s;
                m->sintab[t * d + 2 * i + 1] = (real)c;
            }
    for (int32_t hh = 0; hh < h->heads; hh++)
        m->slopes[hh] = (real)posenc__alibi_slope(hh, h->heads);
    for (int64_t e = 0; e < h->nparams; e++) m->decay[e] = (real)pt_decays(m, m->param + e);
    pt_default_freqs(m);
}

/* Loss and gradients for one training batch (step `step`), as the optimiser sees them. */
static double pt_loss_grad(pt_model *m, int32_t step) {
    const pt_header *h = m->h;
    for (int32_t b = 0; b < h->batch; b++)
        pt_sequence(h, h->length, (uint32_t)h->seed,
                    ((uint64_t)PT_STREAM_TRAIN << 40) + (uint64_t)step * h->batch + b,
                    m->tok + (int64_t)b * h->length, m->tgt + (int64_t)b * h->length,
                    m->orc + (int64_t)b * h->length);
    pt_counts cn;
    pt_default_freqs(m);
    const double loss = pt_forward(m, h->batch, h->length, &cn);
    pt_backward(m, h->batch, h->length, cn.scored);
    return loss / (double)(cn.scored > 0 ? cn.scored : 1);
}

/* Validate, lay out and initialise an arena of `bytes` bytes. */
static int32_t pt_setup(void *arena, int64_t bytes, const int32_t *icfg, const float *fcfg) {
    if (!arena) return POSENC_E_NULL;
    if ((uintptr_t)arena & 7) return POSENC_E_PARAM;
    pt_header h;
    const int32_t st = pt_check_config(icfg, fcfg, &h);
    if (st != POSENC_OK) return st;
    if (bytes < pt_total_bytes(&h)) return POSENC_E_SCRATCH;
    h.bytes = bytes;
    h.hash = pt_header_hash(&h);
    memset(arena, 0, (size_t)bytes);
    memcpy(arena, &h, sizeof h);
    pt_model m;
    pt_open(arena, &m);
    m.h->pow1 = m.h->pow2 = 1.0;
    pt_init_params(&m);
    pt_tables(&m);
    return POSENC_OK;
}

#ifndef POSENC_TRAIN_F64

int32_t posenc_train_size(const int32_t *icfg, const float *fcfg) {
    pt_header h;
    const int32_t st = pt_check_config(icfg, fcfg, &h);
    if (st != POSENC_OK) return st;
    const int64_t bytes = pt_total_bytes(&h);
    if (bytes > (int64_t)1 << 30) return POSENC_E_SIZE;
    return (int32_t)bytes;
}

int32_t posenc_train_init(void *arena, int32_t bytes, const int32_t *icfg, const float *fcfg) {
    return pt_setup(arena, bytes, icfg, fcfg);
}

int32_t posenc_train_param_count(const void *arena) {
    pt_model m;
    const int32_t st = pt_open((void *)arena, &m);
    if (st != POSENC_OK) return st;
    return (int32_t)m.h->nparams;
}

int32_t posenc_train_params(void *arena, float *values, int32_t count, int32_t store) {
    pt_model m;
    const int32_t st = pt_open(arena, &m);
    if (st != POSENC_OK) return st;
    if (!values) return POSENC_E_NULL;
    if ((int64_t)count != m.h->nparams) return POSENC_E_SCRATCH;
    if (store) {
        for (int32_t e = 0; e < count; e++)
            if (!posenc__finite(values[e])) return POSENC_E_PARAM;
        memcpy(m.param, values, sizeof(float) * (size_t)count);
    } else {
        memcpy(values, m.param, sizeof(float) * (size_t)count);
    }
    return POSENC_OK;
}

int32_t posenc_train_step(void *arena, int32_t steps, float *losses) {
    pt_model m;
    const int32_t st = pt_open(arena, &m);
    if (st != POSENC_OK) return st;
    if (!losses) return POSENC_E_NULL;
    if (steps < 1) return POSENC_E_SIZE;
    pt_header *h = m.h;
    for (int32_t s = 0; s < steps; s++) {
        const double loss = pt_loss_grad(&m, h->step);
        double norm2 = 0;
        for (int64_t e = 0; e < h->nparams; e++) norm2 += (double)m.grad[e] * (double)m.grad[e];
        const double norm = sqrt(norm2);
        const double clip = norm > h->clip ? h->clip / norm : 1.0;
        /* linear warm-up over the first 5% of steps, then linear decay to 10% */
        const double t = (double)h->step, T = (double)h->steps;
        const double warm = T * 0.05 < 1 ? 1 : T * 0.05;
        double lr =
            h->lr * (t + 1 < warm ? (t + 1) / warm : 1.0) * (1.0 - 0.9 * (t < T ? t / T : 1.0));
        h->pow1 *= h->beta1;
        h->pow2 *= h->beta2;
        const double c1 = 1.0 / (1.0 - h->pow1), c2 = 1.0 / (1.0 - h->pow2);
        const float b1 = (float)h->beta1, b2 = (float)h->beta2;
        for (int64_t e = 0; e < h->nparams; e++) {
            const float g = (float)((double)m.grad[e] * clip);
            m.m1[e] = b1 * m.m1[e] + (1.0f - b1) * g;
            m.m2[e] = b2 * m.m2[e] + (1.0f - b2) * (g * g);
            const double upd = ((double)m.m1[e] * c1) / (sqrt((double)m.m2[e] * c2) + h->eps);
            double w = (double)m.param[e];
            if (m.decay[e] != 0) w -= lr * h->weight_decay * w;
            m.param[e] = (float)(w - lr * upd);
        }
        h->step++;
        losses[s] = posenc__finite(loss) ? (float)loss : NAN;
        if (!posenc__finite(loss)) return POSENC_E_PARAM;
    }
    return POSENC_OK;
}

/* Frequencies for an evaluation: inv_freq[dh/2] and attention scale, or the trained ones.
 * inv_freq is at most PT_MAX_INV_FREQ, so every angle t * inv_freq (t < 65536) stays in
 * pt_sincos's domain |x| < 2^20 (a larger one would overflow its int64 quotient: UB). */
#define PT_MAX_INV_FREQ 16.0
static int32_t pt_eval_freqs(pt_model *m, const double *inv_freq, double attention_scale) {
    pt_default_freqs(m);
    if (!inv_freq) return POSENC_OK;
    if (!posenc__finite(attention_scale) || attention_scale <= 0) return POSENC_E_PARAM;
    for (int32_t i = 0; i < m->dh_ / 2; i++) {
        if (!(inv_freq[i] >= 0 && inv_freq[i] <= PT_MAX_INV_FREQ)) return POSENC_E_PARAM;
        m->rope_inv[i] = inv_freq[i];
    }
    m->rope_scale = attention_scale;
    return POSENC_OK;
}

static int32_t pt_eval_check(pt_model *m, int32_t length) {
    if (length < 2) return POSENC_E_SIZE;
    if (length > m->h->tcap) return POSENC_E_SIZE;
    if (m->h->method == POSENC_PE_LEARNED && length > m->h->length) return POSENC_E_RANGE;
    if (m->h->task == POSENC_TASK_COPY && length <= m->h->k) return POSENC_E_SIZE;
    if (m->h->task == POSENC_TASK_PERIODIC && length <= 2 * m->h->k) return POSENC_E_SIZE;
    if (m->h->task == POSENC_TASK_NGRAM && length <= m->h->k) return POSENC_E_SIZE;
    return POSENC_OK;
}

/* A forward pass of the RoPE variant reuses pt_forward, which rebuilds cos/sin from
 * m->rope_inv; pt_forward only resets them through pt_loss_grad (training). */
int32_t posenc_train_evaluate(void *arena, int32_t length, int32_t count, int32_t eval_seed,
                              const double *inv_freq, double attention_scale, double *result) {
    pt_model m;
    int32_t st = pt_open(arena, &m);
    if (st != POSENC_OK) return st;
    if (!result) return POSENC_E_NULL;
    if ((st = pt_eval_check(&m, length)) != POSENC_OK) return st;
    if (count < 1 || count > (1 << 20)) return POSENC_E_SIZE;
    if ((st = pt_eval_freqs(&m, inv_freq, attention_scale)) != POSENC_OK) return st;
    const int32_t per = m.h->ncap / length;
    double loss = 0;
    pt_counts all;
    memset(&all, 0, sizeof all);
    for (int32_t done = 0; done < count;) {
        const int32_t nb = count - done < per ? count - done : per;
        for (int32_t b = 0; b < nb; b++)
            pt_sequence(m.h, length, (uint32_t)m.h->seed ^ (uint32_t)eval_seed,
                        ((uint64_t)PT_STREAM_EVAL << 40) + ((uint64_t)length << 24) +
                            (uint64_t)(done + b),
                        m.tok + (int64_t)b * length, m.tgt + (int64_t)b * length,
                        m.orc + (int64_t)b * length);
        pt_counts c;
        const double l = pt_forward(&m, nb, length, &c);
        /* a non-finite forward pass (parameters too large for float32) is an error, never a
         * finite accuracy computed from NaN outputs */
        if (!posenc__finite(l)) return POSENC_E_PARAM;
        loss += l;
        all.scored += c.scored;
        all.correct += c.correct;
        all.oracle += c.oracle;
        all.beyond_scored += c.beyond_scored;
        all.beyond_correct += c.beyond_correct;
        all.beyond_loss += c.beyond_loss;
        done += nb;
    }
    const double s = all.scored ? (double)all.scored : 1.0,
                 bs = all.beyond_scored ? (double)all.beyond_scored : 1.0;
    result[POSENC_TRAIN_R_ACCURACY] = (double)all.correct / s;
    result[POSENC_TRAIN_R_LOSS] = loss / s;
    result[POSENC_TRAIN_R_BEYOND_ACCURACY] = (double)all.beyond_correct / bs;
    result[POSENC_TRAIN_R_BEYOND_LOSS] = all.beyond_loss / bs;
    result[POSENC_TRAIN_R_SCORED] = (double)all.scored;
    result[POSENC_TRAIN_R_BEYOND_SCORED] = (double)all.beyond_scored;
    result[POSENC_TRAIN_R_ORACLE] = (double)all.oracle / s;
    return POSENC_OK;
}

int32_t posenc_train_sequences(void *arena, int32_t length, int32_t count, int32_t eval_seed,
                               int32_t *tokens, int32_t *targets) {
    pt_model m;
    int32_t st = pt_open(arena, &m);
    if (st != POSENC_OK) return st;
    if (!tokens || !targets) return POSENC_E_NULL;
    if ((st = pt_eval_check(&m, length)) != POSENC_OK) return st;
    if (count < 1 || (int64_t)count * length > (1 << 24)) return POSENC_E_SIZE;
    for (int32_t b = 0; b < count; b++)
        pt_sequence(m.h, length, (uint32_t)m.h->seed ^ (uint32_t)eval_seed,
                    ((uint64_t)PT_STREAM_EVAL << 40) + ((uint64_t)length << 24) + (uint64_t)b,
                    tokens + (int64_t)b * length, targets + (int64_t)b * length, m.orc);
    return POSENC_OK;
}

int32_t posenc_train_attention(void *arena, int32_t length, int32_t layer, int32_t eval_seed,
                               const double *inv_freq, double attention_scale, float *weights,
                               int32_t *tokens) {
    pt_model m;
    int32_t st = pt_open(arena, &m);
    if (st != POSENC_OK) return st;
    if (!weights || !tokens) return POSENC_E_NULL;
    if ((st = pt_eval_check(&m, length)) != POSENC_OK) return st;
    if (layer < 0 || layer >= m.h->layers) return POSENC_E_RANGE;
    if ((st = pt_eval_freqs(&m, inv_freq, attention_scale)) != POSENC_OK) return st;
    pt_sequence(m.h, length, (uint32_t)m.h->seed ^ (uint32_t)eval_seed,
                ((uint64_t)PT_STREAM_EVAL << 40) + ((uint64_t)length << 24), m.tok, m.tgt, m.orc);
    pt_counts c;
    if (!posenc__finite(pt_forward(&m, 1, length, &c))) return POSENC_E_PARAM;
    const size_t n = (size_t)m.h->heads * (size_t)length * (size_t)length;
    for (size_t e = 0; e < n; e++)
        if (!posenc__finite((double)m.a[layer].att[e])) return POSENC_E_PARAM;
    memcpy(weights, m.a[layer].att, sizeof(float) * n);
    memcpy(tokens, m.tok, sizeof(int32_t) * (size_t)length);
    return POSENC_OK;
}

#endif /* POSENC_TRAIN_F64 */
