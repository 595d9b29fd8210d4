/*
 * rope.c -- rotary position embedding (families/rope/rope.md): frequencies with every HF scaling
 * variant, cos/sin caches, in-place application for both pairings, xPos, 2-D axial, and the
 * RoFormer decay curve.
 *
 * Where posenc follows the mathematics rather than a framework:
 *   - inv_freq is computed in float64 (HF: float32 arange/pow/reciprocal) and angles p * w are
 *     never formed in float32 (HF multiplies float32 inv_freq by float32 positions, 6e-5 off at
 *     p = 2048 and 3.4e-3 at 131072). cos/sin come from the angle-addition engine (trig.c), so
 *     caches and on-the-fly angles are within ~3e-7 * scale of float64 cos/sin.
 *   - ggml forms theta_i by an iterated float32 product (2.2e-6 relative drift at i = 63); posenc
 *     uses pow per pair.
 *
 * Speed: a cos/sin row (rotary_dim/2 floats) is made once per token and reused across all heads;
 * the two kernels below are the only per-element code. The half-split kernel is four loads, six
 * arithmetic ops and two stores per 8 components; the interleaved one deinterleaves with
 * even/odd shuffles, rotates like the half kernel and re-interleaves with zips (4 shuffles per
 * 8 components; clang does not find this by itself).
 */
#include <float.h>
#include <stddef.h>

#include "posenc_internal.h"

/* Tokens per block of cos/sin rows made by the engine (matches its first block). */
#define ROWS         64
/* Largest |ln| of an xPos factor zeta^e: e^80 = 5.5e34 leaves float32 headroom for |x| ~ 1e3. */
#define XPOS_MAX_LOG 80.0
/* 2*pi (M_PI is not in strict C11) */
#define TWO_PI       6.283185307179586476925286766559

/* ---------------------------------------------------------------- kernels */

/* Both kernels rotate one token's heads, x + h*stride for h < heads, n pairs each, by one
 * cos/sin row; one call per token, so a row is made once and reused across all heads. Each
 * head is streamed front to back (measured: looping heads inside the pair chunks, to keep
 * cos/sin in registers, is 1.5-2x slower because of the strided access).
 *
 * They also check every value (docs/errors.md): each must be at most the float whose bits are
 * `limit` in magnitude (so finite). A head's `tail` unrotated values (after its 2n rotated ones)
 * are checked before its first pair; each pair is checked right before it is rotated, so the
 * rotation stops exactly at the first bad pair: pairs before it rotated, it and everything after
 * it untouched. The SIMD kernels check a step of 16 pairs (eight vectors) at once, before the
 * step stores anything, and go pair by pair from a step that fails. This check sits in the
 * rotation's own pass. What it replaced, measured on Q 4096x32x128 against the in-place stream
 * limit: a separate scan of x first, a second read of x from memory (49-58%); saving each head's
 * inputs in L1 while folding them into a max, to put a failing head back (74-84%, a store per
 * vector); a check per 4 pairs (5-8 points below 8) or per 8 pairs (1-3 below 16: V8 spends
 * about 8 instructions on a test-and-branch and 3 on its interrupt check per loop iteration). The scalar build, where a
 * per-value check costs more integer operations than the rotation has float ones, scans each
 * head first (it is then in L1) and goes pair by pair only when the scan fails. */

static inline int mag_ok(float a, uint32_t limit) {
    return (posenc__fbits(a) & 0x7fffffffu) <= limit;
}

/* Four half pairs (x[i], y[i]) given as loaded vectors a = x[0..3], b = y[0..3]. */
static inline void half_four(float *x, float *y, pv4 a, pv4 b, const float *c, const float *s) {
    const pv4 cc = pv4_load(c), ss = pv4_load(s);
    pv4_store(x, pv4_sub(pv4_mul(a, cc), pv4_mul(b, ss)));
    pv4_store(y, pv4_add(pv4_mul(b, cc), pv4_mul(a, ss)));
}

/* Four interleaved pairs (x[2i], x[2i+1]) given as loaded vectors lo = p[0..3], hi = p[4..7]:
 * deinterleave into first and second components (even/odd shuffles), rotate exactly like the
 * half kernel, re-interleave (zips). The same float32 operations in the same order as the scalar
 * definition, so results are bit-identical to it. */
static inline void interleaved_four(float *p, pv4 lo, pv4 hi, const float *c, const float *s) {
    const pv4 u = pv4_even(lo, hi), v = pv4_odd(lo, hi);
    const pv4 cc = pv4_load(c), ss = pv4_load(s);
    const pv4 u2 = pv4_sub(pv4_mul(u, cc), pv4_mul(v, ss));
    const pv4 v2 = pv4_add(pv4_mul(v, cc), pv4_mul(u, ss));
    pv4_store(p, pv4_zip_lo(u2, v2));
    pv4_store(p + 4, pv4_zip_hi(u2, v2));
}

#if POSENC_SIMD
/* the magnitudes of eight vectors, folded for one test (pmag_over) */
static inline pmag mag8(pv4 a, pv4 b, pv4 c, pv4 d, pv4 e, pv4 f, pv4 g, pv4 h) {
    return pmag_max(pmag_max(pmag_max(pmag_of(a), pmag_of(b)), pmag_max(pmag_of(c), pmag_of(d))),
                    pmag_max(pmag_max(pmag_of(e), pmag_of(f)), pmag_max(pmag_of(g), pmag_of(h))));
}
#endif

/* One head, half pairs (x[i], y[i] = x[n+i]). Returns the number of pairs rotated: n, or the
 * index of the first pair holding a value past `limit` (that pair and the later ones untouched). */
static inline int32_t half_head(float *x, const float *c, const float *s, int32_t n,
                                uint32_t limit) {
    float *y = x + n;
    int32_t i = 0;
#if POSENC_SIMD
    const pmag bound = pmag_bound(limit);
    for (; i + 16 <= n; i += 16) {
        const pv4 a = pv4_load(x + i), b = pv4_load(y + i);
        const pv4 a2 = pv4_load(x + i + 4), b2 = pv4_load(y + i + 4);
        const pv4 a3 = pv4_load(x + i + 8), b3 = pv4_load(y + i + 8);
        const pv4 a4 = pv4_load(x + i + 12), b4 = pv4_load(y + i + 12);
        if (pmag_over(mag8(a, b, a2, b2, a3, b3, a4, b4), bound)) break;
        half_four(x + i, y + i, a, b, c + i, s + i);
        half_four(x + i + 4, y + i + 4, a2, b2, c + i + 4, s + i + 4);
        half_four(x + i + 8, y + i + 8, a3, b3, c + i + 8, s + i + 8);
        half_four(x + i + 12, y + i + 12, a4, b4, c + i + 12, s + i + 12);
    }
    for (; i + 4 <= n; i += 4) {
        const pv4 a = pv4_load(x + i), b = pv4_load(y + i);
        if (pmag_over(pmag_max(pmag_of(a), pmag_of(b)), bound)) break;
        half_four(x + i, y + i, a, b, c + i, s + i);
    }
#else
    if (posenc__within(x, 2 * (size_t)n, limit))
        for (; i + 4 <= n; i += 4)
            half_four(x + i, y + i, pv4_load(x + i), pv4_load(y + i), c + i, s + i);
#endif
    for (; i < n; i++) {
        const float a = x[i], b = y[i];
        if (!mag_ok(a, limit) || !mag_ok(b, limit)) return i;
        x[i] = a * c[i] - b * s[i];
        y[i] = b * c[i] + a * s[i];
    }
    return n;
}

/* One head, interleaved pairs; returns as half_head. */
static inline int32_t interleaved_head(float *x, const float *c, const float *s, int32_t n,
                                       uint32_t limit) {
    int32_t i = 0;
#if POSENC_SIMD
    const pmag bound = pmag_bound(limit);
    for (; i + 16 <= n; i += 16) {
        float *p = x + 2 * (size_t)i;
        const pv4 lo = pv4_load(p), hi = pv4_load(p + 4);
        const pv4 lo2 = pv4_load(p + 8), hi2 = pv4_load(p + 12);
        const pv4 lo3 = pv4_load(p + 16), hi3 = pv4_load(p + 20);
        const pv4 lo4 = pv4_load(p + 24), hi4 = pv4_load(p + 28);
        if (pmag_over(mag8(lo, hi, lo2, hi2, lo3, hi3, lo4, hi4), bound)) break;
        interleaved_four(p, lo, hi, c + i, s + i);
        interleaved_four(p + 8, lo2, hi2, c + i + 4, s + i + 4);
        interleaved_four(p + 16, lo3, hi3, c + i + 8, s + i + 8);
        interleaved_four(p + 24, lo4, hi4, c + i + 12, s + i + 12);
    }
    for (; i + 4 <= n; i += 4) {
        float *p = x + 2 * (size_t)i;
        const pv4 lo = pv4_load(p), hi = pv4_load(p + 4);
        if (pmag_over(pmag_max(pmag_of(lo), pmag_of(hi)), bound)) break;
        interleaved_four(p, lo, hi, c + i, s + i);
    }
#else
    if (posenc__within(x, 2 * (size_t)n, limit))
        for (; i + 4 <= n; i += 4) {
            float *p = x + 2 * (size_t)i;
            interleaved_four(p, pv4_load(p), pv4_load(p + 4), c + i, s + i);
        }
#endif
    for (; i < n; i++) {
        const float a = x[2 * i], b = x[2 * i + 1];
        if (!mag_ok(a, limit) || !mag_ok(b, limit)) return i;
        x[2 * i] = a * c[i] - b * s[i];
        x[2 * i + 1] = b * c[i] + a * s[i];
    }
    return n;
}

/* The loop over heads both layouts share: returns the number of heads rotated whole, `heads`
 * or the index of the head where the rotation stopped. */
#define ROTATE_HEADS(head_fn)                                                                      \
    do {                                                                                           \
        for (int32_t h = 0; h < heads; h++, x += stride) {                                         \
            if (tail > 0 && !posenc__within(x + 2 * (size_t)n, (size_t)tail, limit)) return h;     \
            if (head_fn(x, c, s, n, limit) < n) return h;                                          \
        }                                                                                          \
        return heads;                                                                              \
    } while (0)

int32_t posenc__rope_rotate_half(float *x, int32_t heads, size_t stride, const float *c,
                                 const float *s, int32_t n, int32_t tail, uint32_t limit) {
    ROTATE_HEADS(half_head);
}

int32_t posenc__rope_rotate_interleaved(float *x, int32_t heads, size_t stride, const float *c,
                                        const float *s, int32_t n, int32_t tail, uint32_t limit) {
    ROTATE_HEADS(interleaved_head);
}

typedef int32_t (*rotate_fn)(float *, int32_t, size_t, const float *, const float *, int32_t,
                             int32_t, uint32_t);

/* ---------------------------------------------------------------- frequencies */

static inline int given(double v) { return v == v; }
/* A usable frequency: finite, and small enough that p * w stays finite for any int32 position
 * (|p| <= 2^31), so no angle is ever inf and no cos/sin NaN. */
static inline int rope_freq_ok(double w) { return posenc__finite(w) && fabs(w) <= 0x1p960; }
static inline int truthy(double v) { return given(v) && v != 0.0; }
static inline double get_mscale(double s, double m) {
    return s <= 1.0 ? 1.0 : 0.1 * m * log(s) + 1.0;
}

int32_t posenc_rope_scaling_init(posenc_rope_scaling *s, posenc_rope_type type) {
    if (!s) return POSENC_E_NULL;
    if ((int)type < 0 || (int)type >= POSENC_ROPE_TYPES) return POSENC_E_ENUM;
    const double unset = NAN;
    s->type = type;
    s->truncate = 1;
    s->short_factor = s->long_factor = NULL;
    s->factor = s->original_max_positions = s->max_positions = s->seq_len = unset;
    s->beta_fast = 32.0;
    s->beta_slow = 1.0;
    s->attention_factor = s->mscale = s->mscale_all_dim = unset;
    s->low_freq_factor = 1.0;
    s->high_freq_factor = 4.0;
    if (type == POSENC_ROPE_LLAMA3) {
        s->factor = 8.0;
        s->original_max_positions = 8192.0;
    }
    return POSENC_OK;
}

/* A required key must be given (E_MISSING) and finite and > lo (E_PARAM). */
static int32_t need_gt(double v, double lo) {
    if (!given(v)) return POSENC_E_MISSING;
    return (posenc__finite(v) && v > lo) ? POSENC_OK : POSENC_E_PARAM;
}
/* An optional key: absent, or finite and > lo. */
static int32_t opt_gt(double v, double lo) {
    return (!given(v) || (posenc__finite(v) && v > lo)) ? POSENC_OK : POSENC_E_PARAM;
}

#define TRY(expr)                                                                                  \
    do {                                                                                           \
        int32_t st_ = (expr);                                                                      \
        if (st_ != POSENC_OK) return st_;                                                          \
    } while (0)

static int32_t check_scaling(const posenc_rope_scaling *s, int32_t d) {
    const int32_t n = d / 2;
    switch (s->type) {
        case POSENC_ROPE_DEFAULT:
            return POSENC_OK;
        case POSENC_ROPE_LINEAR:
            return need_gt(s->factor, 0.0);
        case POSENC_ROPE_NTK:
            return need_gt(s->factor, 0.0);
        case POSENC_ROPE_DYNAMIC:
            TRY(need_gt(s->factor, 0.0));
            TRY(need_gt(s->max_positions, 0.0));
            if (given(s->seq_len) && !(posenc__finite(s->seq_len) && s->seq_len >= 0))
                return POSENC_E_PARAM;
            return POSENC_OK;
        case POSENC_ROPE_YARN:
            TRY(need_gt(s->factor, 0.0));
            TRY(need_gt(s->original_max_positions, 0.0));
            TRY(need_gt(s->beta_fast, 0.0));
            TRY(need_gt(s->beta_slow, 0.0));
            TRY(opt_gt(s->attention_factor, 0.0));
            if (given(s->mscale) && !posenc__finite(s->mscale)) return POSENC_E_PARAM;
            if (given(s->mscale_all_dim) && !posenc__finite(s->mscale_all_dim))
                return POSENC_E_PARAM;
            if (truthy(s->mscale) && truthy(s->mscale_all_dim) &&
                !(get_mscale(s->factor, s->mscale_all_dim) > 0))
                return POSENC_E_PARAM; /* the ratio's denominator */
            return POSENC_OK;
        case POSENC_ROPE_LONGROPE:
            if (!s->short_factor || !s->long_factor) return POSENC_E_MISSING;
            TRY(need_gt(s->original_max_positions, 1.0)); /* ln(L0) is a denominator */
            TRY(opt_gt(s->factor, 0.0));
            TRY(opt_gt(s->max_positions, 0.0));
            TRY(opt_gt(s->attention_factor, 0.0));
            if (given(s->seq_len) && !(posenc__finite(s->seq_len) && s->seq_len >= 0))
                return POSENC_E_PARAM;
            for (int32_t i = 0; i < n; i++)
                if (!(posenc__finite(s->short_factor[i]) && s->short_factor[i] > 0) ||
                    !(posenc__finite(s->long_factor[i]) && s->long_factor[i] > 0))
                    return POSENC_E_PARAM;
            return POSENC_OK;
        case POSENC_ROPE_LLAMA3:
            TRY(need_gt(s->factor, 0.0));
            TRY(need_gt(s->low_freq_factor, 0.0));
            TRY(need_gt(s->high_freq_factor, 0.0));
            TRY(need_gt(s->original_max_positions, 0.0));
            /* the smoothing band needs high > low (its width is the denominator) */
            return s->high_freq_factor > s->low_freq_factor ? POSENC_OK : POSENC_E_PARAM;
    }
    return POSENC_E_ENUM;
}

/* YaRN correction dimension: the pair index whose wavelength fits r times into L0. */
static double yarn_corr_dim(double r, double d, double l0, double base) {
    return d * log(l0 / (TWO_PI * r)) / (2.0 * log(base));
}

/* Everything the per-pair frequency needs, prepared once by plan_freqs. */
typedef struct {
    const posenc_rope_scaling *s;
    double d;          /* rotary dim */
    double b;          /* base after the base-changing variants (NTK, dynamic) */
    double low, high;  /* YaRN ramp ends */
    const double *ext; /* LongRoPE per-pair factors in use */
} freq_plan;

static void plan_freqs(freq_plan *p, const posenc_rope_scaling *s, int32_t rotary_dim,
                       double base) {
    const double d = (double)rotary_dim;
    p->s = s;
    p->d = d;
    p->b = base;
    p->low = p->high = 0;
    p->ext = NULL;
    /* the base-changing variants only alter b; with d = 2 the exponent d/(d-2) is undefined, but
     * the single pair's frequency is b^0 = 1 for every b, so the base is left alone */
    if (s->type == POSENC_ROPE_NTK && rotary_dim > 2) p->b = base * pow(s->factor, d / (d - 2.0));
    if (s->type == POSENC_ROPE_DYNAMIC && rotary_dim > 2) {
        const double m = s->max_positions;
        const double l = given(s->seq_len) && s->seq_len > m ? s->seq_len : m;
        p->b = base * pow(s->factor * l / m - (s->factor - 1.0), d / (d - 2.0));
    }
    if (s->type == POSENC_ROPE_YARN) {
        const double l0 = s->original_max_positions;
        double low = yarn_corr_dim(s->beta_fast, d, l0, base);
        double high = yarn_corr_dim(s->beta_slow, d, l0, base);
        if (s->truncate) {
            low = floor(low);
            high = ceil(high);
        }
        if (low < 0) low = 0;
        if (high > d - 1) high = d - 1; /* HF clamps in component units; harmless */
        if (low == high) high += 0.001;
        p->low = low;
        p->high = high;
    }
    if (s->type == POSENC_ROPE_LONGROPE)
        p->ext = given(s->seq_len) && s->seq_len > s->original_max_positions ? s->long_factor
                                                                             : s->short_factor;
}

/* inv_freq of pair i. May overflow to inf for extreme keys (a factor of 1e-320); the caller
 * checks every value before writing any. */
static double freq_at(const freq_plan *p, int32_t i) {
    const posenc_rope_scaling *s = p->s;
    /* w_i = 1 / b^(2i/d), as HF writes it (in float64 here) */
    const double w = 1.0 / pow(p->b, (double)(2 * i) / p->d);
    switch (s->type) {
        case POSENC_ROPE_LINEAR:
            return w / s->factor;
        case POSENC_ROPE_YARN: {
            double ramp = ((double)i - p->low) / (p->high - p->low);
            ramp = ramp < 0 ? 0 : ramp > 1 ? 1 : ramp;
            const double extrap = 1.0 - ramp;
            return (1.0 / (s->factor / w)) * (1.0 - extrap) + w * extrap;
        }
        case POSENC_ROPE_LONGROPE:
            return 1.0 / (p->ext[i] * pow(p->b, (double)(2 * i) / p->d));
        case POSENC_ROPE_LLAMA3: {
            const double f = s->factor, lo = s->low_freq_factor, hi = s->high_freq_factor;
            const double l0 = s->original_max_positions, wl = TWO_PI / w;
            if (wl < l0 / hi) return w;
            if (wl > l0 / lo) return w / f;
            const double smooth = (l0 / wl - lo) / (hi - lo);
            return (1.0 - smooth) * w / f + smooth * w;
        }
        default:
            return w;
    }
}

static double attention_scale_of(const posenc_rope_scaling *s) {
    if (s->type == POSENC_ROPE_YARN) {
        const double f = s->factor;
        if (given(s->attention_factor)) return s->attention_factor;
        if (truthy(s->mscale) && truthy(s->mscale_all_dim))
            return get_mscale(f, s->mscale) / get_mscale(f, s->mscale_all_dim);
        return get_mscale(f, 1.0);
    }
    if (s->type == POSENC_ROPE_LONGROPE) {
        const double l0 = s->original_max_positions;
        double f = 1.0;
        if (given(s->factor))
            f = s->factor;
        else if (given(s->max_positions))
            f = s->max_positions / l0;
        if (given(s->attention_factor)) return s->attention_factor;
        return f <= 1.0 ? 1.0 : sqrt(1.0 + log(f) / log(l0));
    }
    return 1.0;
}

int32_t posenc_rope_freqs(double *inv_freq, double *attention_scale, int32_t rotary_dim,
                          double base, const posenc_rope_scaling *scaling) {
    if (!inv_freq || !attention_scale) return POSENC_E_NULL;
    if (rotary_dim < 2 || rotary_dim > POSENC_MAX_ELEMENTS) return POSENC_E_SIZE;
    if (rotary_dim % 2) return POSENC_E_ODD;
    if (!posenc__finite(base) || base <= 1.0) return POSENC_E_PARAM;
    posenc_rope_scaling def;
    if (!scaling) {
        posenc_rope_scaling_init(&def, POSENC_ROPE_DEFAULT);
        scaling = &def;
    }
    const posenc_rope_scaling *s = scaling;
    if ((int)s->type < 0 || (int)s->type >= POSENC_ROPE_TYPES) return POSENC_E_ENUM;
    TRY(check_scaling(s, rotary_dim));

    const int32_t n = rotary_dim / 2;
    freq_plan p;
    plan_freqs(&p, s, rotary_dim, base);
    /* Keys that are each valid can still combine into an unusable result (linear factor 1e-320
     * makes w/factor infinite; an attention scale beyond float32 turns every cos/sin into inf):
     * such a result is an error, never a table of inf/NaN. */
    const double att = attention_scale_of(s);
    if (!posenc__finite(att) || fabs(att) > FLT_MAX) return POSENC_E_RANGE;
    for (int32_t i = 0; i < n; i++)
        if (!rope_freq_ok(freq_at(&p, i))) return POSENC_E_RANGE;
    for (int32_t i = 0; i < n; i++) inv_freq[i] = freq_at(&p, i);
    *attention_scale = att;
    return POSENC_OK;
}

/* ---------------------------------------------------------------- validation */

static int32_t check_shape(const float *x, int32_t length, int32_t heads, int32_t dim,
                           int32_t rotary_dim, posenc_layout layout, posenc_rope_order order) {
    if (!x) return POSENC_E_NULL;
    if (posenc__check_elems3(length, heads, dim)) return POSENC_E_SIZE;
    if (rotary_dim < 2 || rotary_dim > dim) return POSENC_E_SIZE;
    if (rotary_dim % 2 || dim % 2) return POSENC_E_ODD;
    if (layout != POSENC_LAYOUT_INTERLEAVED && layout != POSENC_LAYOUT_HALF) return POSENC_E_ENUM;
    if (order != POSENC_ROPE_THD && order != POSENC_ROPE_HTD) return POSENC_E_ENUM;
    return POSENC_OK;
}

static int32_t check_freqs(const double *w, int32_t n, double scale) {
    if (!w) return POSENC_E_NULL;
    for (int32_t i = 0; i < n; i++)
        if (!rope_freq_ok(w[i])) return POSENC_E_PARAM;
    /* cos/sin are stored as scale * cos in float32: beyond FLT_MAX they would be inf */
    return posenc__finite(scale) && fabs(scale) <= FLT_MAX ? POSENC_OK : POSENC_E_PARAM;
}

int32_t posenc_rope_scratch_size(int32_t rotary_dim) {
    if (rotary_dim < 2 || rotary_dim > POSENC_MAX_ELEMENTS / ROWS) return POSENC_E_SIZE;
    if (rotary_dim % 2) return POSENC_E_ODD;
    /* cos/sin rows of the current block and of block 0, and one row of block factors */
    return (4 * ROWS + 2) * (rotary_dim / 2);
}

static int32_t check_scratch(const float *scratch, int32_t len, int32_t npairs) {
    if (!scratch) return POSENC_E_NULL;
    return (int64_t)len >= (4 * (int64_t)ROWS + 2) * npairs ? POSENC_OK : POSENC_E_SCRATCH;
}

/* ---------------------------------------------------------------- cache-free application */

typedef enum { POS_OFFSET, POS_I32, POS_F32, POS_ROW, POS_COL } pos_kind;

typedef struct {
    pos_kind kind;
    double offset;
    const int32_t *i32;
    const float *f32;
    int32_t width; /* axial grids */
} pos_src;

static inline double pos_at(const pos_src *ps, int32_t t) {
    switch (ps->kind) {
        case POS_I32:
            return (double)ps->i32[t];
        case POS_F32:
            return (double)ps->f32[t];
        case POS_ROW:
            return (double)(t / ps->width);
        case POS_COL:
            return (double)(t % ps->width);
        default:
            return ps->offset + (double)t;
    }
}

typedef struct {
    float *x;
    int32_t length, heads, dim;
    int32_t npairs; /* pairs rotated per head (within the window) */
    int32_t col0;   /* first rotated component (axial blocks) */
    int htd;
    rotate_fn rotate;
    const double *w;
    double scale;
    double xpos_base, xpos_center, xpos_sign; /* xpos_base 0: no xPos */
    int32_t tail;   /* unrotated values after the rotated ones in each head (checked too) */
    uint32_t limit; /* bits of the largest |x| allowed (x_limit) */
} rope_job;

/* Bits of the largest float m with f0 * m * a * b <= FLT_MAX, evaluated in that order in float64
 * (the bound docs/errors.md states and families/rope/rope.js reports: f0 = 2, a = |attention scale|, b = the
 * xPos factor; with a cache f0 = 1, a = max|cos| + max|sin|, b = 1). */
static int x_fits(float m, double f0, double a, double b) {
    return f0 * (double)m * a * b <= FLT_MAX;
}
static float bits_float(uint32_t u) {
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}
/* Non-negative floats are consecutive as bit patterns, so a step of one float is a step of one
 * in the bits (cheaper than nextafterf: the cached path computes one limit per cos/sin row). */
static uint32_t x_limit(double f0, double a, double b) {
    const double q = FLT_MAX / (f0 * a * b);
    uint32_t m = posenc__fbits(q < FLT_MAX ? (float)q : FLT_MAX);
    while (m > 0 && !x_fits(bits_float(m), f0, a, b)) m--;
    while (m < 0x7f7fffffu && x_fits(bits_float(m + 1), f0, a, b)) m++;
    return m;
}

/* cos/sin rows for tokens t0 .. t0+nb-1 into cb/sb ([nb][npairs]). Runs of evenly spaced
 * positions go through the engine; an isolated position gets exact float64 sin/cos. */
static void fill_rows(const rope_job *j, const pos_src *ps, int32_t t0, int32_t nb, float *cb,
                      float *sb) {
    const int32_t np = j->npairs;
    int32_t r = 0;
    while (r < nb) {
        const double p0 = pos_at(ps, t0 + r);
        int32_t run = 1;
        double step = 0;
        if (r + 1 < nb) {
            step = pos_at(ps, t0 + r + 1) - p0;
            while (r + run < nb && pos_at(ps, t0 + r + run) == p0 + (double)run * step) run++;
        }
        float *c = cb + (size_t)r * np, *s = sb + (size_t)r * np;
        if (run >= 2) {
            posenc__sincos_table(s, c, (size_t)np, 0, run, np, p0, step, j->w, j->scale);
        } else {
            posenc__sincos_at(s, c, 0, np, 1, p0, j->w, j->scale);
        }
        r += run;
    }
}

/* Rotate every head of tokens t0 .. t0+nb-1 with the rows in cb/sb; 0 when a head fails its
 * check (that head and everything after it untouched, see the kernels). */
static int rotate_rows(const rope_job *j, int32_t t0, int32_t nb, const float *cb,
                       const float *sb) {
    const size_t D = (size_t)j->dim, H = (size_t)j->heads, L = (size_t)j->length;
    const int32_t np = j->npairs;
    for (int32_t k = 0; k < nb; k++) {
        const size_t t = (size_t)(t0 + k);
        float *first = j->x + (j->htd ? t * D : t * H * D) + j->col0;
        if (j->rotate(first, j->heads, j->htd ? L * D : D, cb + (size_t)k * np, sb + (size_t)k * np,
                      np, j->tail, j->limit) < j->heads)
            return 0;
    }
    return 1;
}

/* Rows of block k (tokens t0 = k*ROWS ..) of an arithmetic sequence from the rows of block 0:
 * angle (offset + t0 + r) w = (offset + r) w + t0 w, so each element is one float32 complex
 * multiply of a block-0 value by the exact float64 cos/sin(t0 w) rounded once (the engine's own
 * scheme, error ~2.5e-7 * scale, not accumulated from block to block). Runs in SIMD. */
static void shift_rows(float *dc, float *ds, const float *b0c, const float *b0s, const float *fc,
                       const float *fs, int32_t nb, int32_t np) {
    for (int32_t r = 0; r < nb; r++) {
        const float *c0 = b0c + (size_t)r * np, *s0 = b0s + (size_t)r * np;
        float *c = dc + (size_t)r * np, *s = ds + (size_t)r * np;
        int32_t i = 0;
        for (; i + 4 <= np; i += 4) {
            pv4 a = pv4_load(c0 + i), b = pv4_load(s0 + i), C = pv4_load(fc + i),
                S = pv4_load(fs + i);
            pv4_store(c + i, pv4_sub(pv4_mul(a, C), pv4_mul(b, S)));
            pv4_store(s + i, pv4_add(pv4_mul(b, C), pv4_mul(a, S)));
        }
        for (; i < np; i++) {
            c[i] = c0[i] * fc[i] - s0[i] * fs[i];
            s[i] = s0[i] * fc[i] + c0[i] * fs[i];
        }
    }
}

static void apply_xpos(const rope_job *j, const pos_src *ps, int32_t t0, int32_t nb, float *cb,
                       float *sb) {
    const int32_t np = j->npairs;
    const double rd = 2.0 * np;
    for (int32_t k = 0; k < nb; k++) {
        const double e = j->xpos_sign * (pos_at(ps, t0 + k) - j->xpos_center) / j->xpos_base;
        for (int32_t i = 0; i < np; i++) {
            const double zeta = (2.0 * i + 0.4 * rd) / (1.4 * rd);
            const float f = (float)exp(e * log(zeta));
            cb[(size_t)k * np + i] *= f;
            sb[(size_t)k * np + i] *= f;
        }
    }
}

static int32_t run_job(const rope_job *j, const pos_src *ps, float *scratch) {
    const int32_t np = j->npairs;
    const size_t blk = (size_t)ROWS * np;
    float *cb = scratch, *sb = scratch + blk;
    if (ps->kind == POS_OFFSET && j->length > ROWS) {
        /* block 0 once into b0, every block derived from it (see shift_rows) */
        float *b0c = scratch + 2 * blk, *b0s = scratch + 3 * blk;
        float *fc = scratch + 4 * blk, *fs = fc + np;
        posenc__sincos_table(b0s, b0c, (size_t)np, 0, ROWS, np, ps->offset, 1.0, j->w, j->scale);
        for (int32_t t0 = 0; t0 < j->length; t0 += ROWS) {
            const int32_t nb = j->length - t0 < ROWS ? j->length - t0 : ROWS;
            for (int32_t i = 0; i < np; i++) {
                const double a = (double)t0 * j->w[i];
                fc[i] = (float)cos(a);
                fs[i] = (float)sin(a);
            }
            /* each row is made right before its token is rotated, into the same one row of
             * scratch: it stays in L1 beside the token (a row per token filled 32 KiB) */
            for (int32_t k = 0; k < nb; k++) {
                float *c = cb, *sn = sb;
                shift_rows(c, sn, b0c + (size_t)k * np, b0s + (size_t)k * np, fc, fs, 1, np);
                if (j->xpos_base != 0.0) apply_xpos(j, ps, t0 + k, 1, c, sn);
                if (!rotate_rows(j, t0 + k, 1, c, sn)) return POSENC_E_PARAM;
            }
        }
        return POSENC_OK;
    }
    for (int32_t t0 = 0; t0 < j->length; t0 += ROWS) {
        const int32_t nb = j->length - t0 < ROWS ? j->length - t0 : ROWS;
        fill_rows(j, ps, t0, nb, cb, sb);
        if (j->xpos_base != 0.0) apply_xpos(j, ps, t0, nb, cb, sb);
        if (!rotate_rows(j, t0, nb, cb, sb)) return POSENC_E_PARAM;
    }
    return POSENC_OK;
}

static void init_job(rope_job *j, float *x, int32_t length, int32_t heads, int32_t dim,
                     int32_t rotary_dim, posenc_layout layout, posenc_rope_order order,
                     const double *w, double scale) {
    j->x = x;
    j->length = length;
    j->heads = heads;
    j->dim = dim;
    j->npairs = rotary_dim / 2;
    j->col0 = 0;
    j->htd = order == POSENC_ROPE_HTD;
    j->rotate =
        layout == POSENC_LAYOUT_HALF ? posenc__rope_rotate_half : posenc__rope_rotate_interleaved;
    j->w = w;
    j->scale = scale;
    j->xpos_base = 0.0;
    j->xpos_center = 0.0;
    j->xpos_sign = 1.0;
    j->tail = dim - rotary_dim;
    j->limit = x_limit(2.0, fabs(scale), 1.0);
}

#define CHECK_COMMON()                                                                             \
    do {                                                                                           \
        TRY(check_shape(x, length, heads, dim, rotary_dim, layout, order));                        \
        TRY(check_freqs(inv_freq, rotary_dim / 2, scale));                                         \
        TRY(check_scratch(scratch, scratch_len, rotary_dim / 2));                                  \
    } while (0)

int32_t posenc_rope_apply(float *x, int32_t length, int32_t heads, int32_t dim, int32_t rotary_dim,
                          posenc_layout layout, posenc_rope_order order, const double *inv_freq,
                          double scale, double offset, float *scratch, int32_t scratch_len) {
    CHECK_COMMON();
    if (!posenc__finite(offset) || fabs(offset) + (double)length > 1073741824.0)
        return POSENC_E_PARAM;
    rope_job j;
    init_job(&j, x, length, heads, dim, rotary_dim, layout, order, inv_freq, scale);
    pos_src ps = {POS_OFFSET, offset, NULL, NULL, 0};
    return run_job(&j, &ps, scratch);
}

int32_t posenc_rope_apply_positions(float *x, int32_t length, int32_t heads, int32_t dim,
                                    int32_t rotary_dim, posenc_layout layout,
                                    posenc_rope_order order, const double *inv_freq, double scale,
                                    const int32_t *positions, float *scratch, int32_t scratch_len) {
    CHECK_COMMON();
    if (!positions) return POSENC_E_NULL;
    rope_job j;
    init_job(&j, x, length, heads, dim, rotary_dim, layout, order, inv_freq, scale);
    pos_src ps = {POS_I32, 0.0, positions, NULL, 0};
    return run_job(&j, &ps, scratch);
}

int32_t posenc_rope_apply_positions_f32(float *x, int32_t length, int32_t heads, int32_t dim,
                                        int32_t rotary_dim, posenc_layout layout,
                                        posenc_rope_order order, const double *inv_freq,
                                        double scale, const float *positions, float *scratch,
                                        int32_t scratch_len) {
    CHECK_COMMON();
    if (!positions) return POSENC_E_NULL;
    for (int32_t t = 0; t < length; t++)
        if (!posenc__finite(positions[t]) || fabs((double)positions[t]) > 1073741824.0)
            return POSENC_E_PARAM;
    rope_job j;
    init_job(&j, x, length, heads, dim, rotary_dim, layout, order, inv_freq, scale);
    pos_src ps = {POS_F32, 0.0, NULL, positions, 0};
    return run_job(&j, &ps, scratch);
}

int32_t posenc_rope_apply_xpos(float *x, int32_t length, int32_t heads, int32_t dim,
                               int32_t rotary_dim, posenc_layout layout, posenc_rope_order order,
                               const double *inv_freq, double scale, double offset,
                               const int32_t *positions, double scale_base, double center,
                               int32_t is_key, float *scratch, int32_t scratch_len) {
    CHECK_COMMON();
    if (!posenc__finite(offset) || fabs(offset) + (double)length > 1073741824.0)
        return POSENC_E_PARAM;
    if (!posenc__finite(scale_base) || scale_base <= 0 || !posenc__finite(center))
        return POSENC_E_PARAM;
    /* The largest factor is zeta_0^-|e| with zeta_0 = 2/7 and e = (p - center) / scale_base; past
     * e^80 (|e| > 80 / ln 3.5 ~ 64) float32 cos/sin and the rotated values overflow to inf/NaN
     * (lucidrains' float32 code does the same at |p - center| > 64 * scale_base). */
    double far = 0;
    if (positions) {
        for (int32_t t = 0; t < length; t++) {
            const double dist = fabs((double)positions[t] - center);
            if (dist > far) far = dist;
        }
    } else {
        far = fmax(fabs(offset - center), fabs(offset + (double)(length - 1) - center));
    }
    if (far / scale_base * log(3.5) > XPOS_MAX_LOG) return POSENC_E_RANGE;
    rope_job j;
    init_job(&j, x, length, heads, dim, rotary_dim, layout, order, inv_freq, scale);
    j.xpos_base = scale_base;
    j.xpos_center = center;
    j.xpos_sign = is_key ? -1.0 : 1.0;
    /* the largest factor, (7/2)^(far / scale_base), bounds |x| too */
    j.limit = x_limit(2.0, fabs(scale), pow(3.5, far / scale_base));
    pos_src ps = {positions ? POS_I32 : POS_OFFSET, offset, positions, NULL, 0};
    return run_job(&j, &ps, scratch);
}

int32_t posenc_rope_apply_axial(float *x, int32_t height, int32_t width, int32_t heads, int32_t dim,
                                int32_t rotary_dim, posenc_layout layout, posenc_rope_order order,
                                const double *inv_freq, double scale, float *scratch,
                                int32_t scratch_len) {
    if (height < 1 || width < 1 || posenc__check_elems2(height, width)) return POSENC_E_SIZE;
    const int32_t length = height * width;
    TRY(check_shape(x, length, heads, dim, rotary_dim, layout, order));
    if (rotary_dim % 4) return POSENC_E_ODD;
    TRY(check_freqs(inv_freq, rotary_dim / 4, scale));
    TRY(check_scratch(scratch, scratch_len, rotary_dim / 4));
    rope_job j;
    init_job(&j, x, length, heads, dim, rotary_dim / 2, layout, order, inv_freq, scale);
    /* two passes over x (rows, then columns): all of x is checked first, so a bad element
     * leaves x as it was */
    if (!posenc__within(x, (size_t)length * (size_t)heads * (size_t)dim, j.limit))
        return POSENC_E_PARAM;
    j.tail = 0;
    j.limit = UINT32_MAX; /* checked above */
    pos_src rows = {POS_ROW, 0.0, NULL, NULL, width}, cols = {POS_COL, 0.0, NULL, NULL, width};
    run_job(&j, &rows, scratch);
    j.col0 = rotary_dim / 2;
    return run_job(&j, &cols, scratch);
}

/* ---------------------------------------------------------------- caches */

int32_t posenc_rope_cache_fill(float *cos_out, float *sin_out, int32_t length, int32_t npairs,
                               const double *inv_freq, double scale, double offset) {
    if (!cos_out || !sin_out) return POSENC_E_NULL;
    if (posenc__check_elems2(length, npairs)) return POSENC_E_SIZE;
    TRY(check_freqs(inv_freq, npairs, scale));
    if (!posenc__finite(offset) || fabs(offset) + (double)length > 1073741824.0)
        return POSENC_E_PARAM;
    posenc__sincos_table(sin_out, cos_out, (size_t)npairs, 0, length, npairs, offset, 1.0, inv_freq,
                         scale);
    return POSENC_OK;
}

/* ---------------------------------------------------------------- M-RoPE */

/* Pairs i0, i0 + step, ... below i1 turn by the position of one stream (0 = t, 1 = h, 2 = w). */
typedef struct {
    int32_t stream, i0, i1, step;
} mrope_run;

/* The pairs of each stream as runs. Blocks: t, then h, then w (Qwen2-VL
 * apply_multimodal_rotary_pos_emb). Interleaved (Qwen3-VL apply_interleaved_mrope): pairs 1, 4,
 * 7, ... below 3 * sec_h take h, pairs 2, 5, 8, ... below 3 * sec_w take w, every other pair t. */
static int32_t mrope_runs(mrope_run *r, int32_t npairs, const int32_t *sec, int32_t interleaved) {
    if (!interleaved) {
        r[0] = (mrope_run){0, 0, sec[0], 1};
        r[1] = (mrope_run){1, sec[0], sec[0] + sec[1], 1};
        r[2] = (mrope_run){2, sec[0] + sec[1], npairs, 1};
        return 3;
    }
    const int32_t h = 3 * sec[1] < npairs ? 3 * sec[1] : npairs;
    const int32_t w = 3 * sec[2] < npairs ? 3 * sec[2] : npairs;
    r[0] = (mrope_run){0, 0, npairs, 3};
    r[1] = (mrope_run){1, 1, h, 3};
    r[2] = (mrope_run){0, h + 1, npairs, 3};
    r[3] = (mrope_run){2, 2, w, 3};
    r[4] = (mrope_run){0, w + 2, npairs, 3};
    return 5;
}

int32_t posenc_rope_mrope_fill(float *cos_out, float *sin_out, int32_t length, int32_t npairs,
                               const double *inv_freq, double scale, const double *positions,
                               int32_t sec_t, int32_t sec_h, int32_t sec_w, int32_t interleaved) {
    if (!cos_out || !sin_out || !positions) return POSENC_E_NULL;
    if (posenc__check_elems2(length, npairs) || posenc__check_elems2(3, length))
        return POSENC_E_SIZE;
    TRY(check_freqs(inv_freq, npairs, scale));
    if (sec_t < 0 || sec_h < 0 || sec_w < 0 || (int64_t)sec_t + sec_h + sec_w != npairs)
        return POSENC_E_PARAM;
    if (interleaved != 0 && interleaved != 1) return POSENC_E_PARAM;
    const size_t L = (size_t)length;
    for (size_t k = 0; k < 3 * L; k++)
        if (!posenc__finite(positions[k])) return POSENC_E_PARAM;
    const int32_t sec[3] = {sec_t, sec_h, sec_w};
    mrope_run runs[5];
    const int32_t nr = mrope_runs(runs, npairs, sec, interleaved);
    for (size_t t = 0; t < L; t++) {
        float *c = cos_out + t * (size_t)npairs, *s = sin_out + t * (size_t)npairs;
        for (int32_t k = 0; k < nr; k++) {
            const mrope_run *r = &runs[k];
            posenc__sincos_at(s, c, r->i0, r->i1, r->step, positions[(size_t)r->stream * L + t],
                              inv_freq, scale);
        }
    }
    return POSENC_OK;
}

int32_t posenc_rope_apply_cached(float *x, int32_t length, int32_t heads, int32_t dim,
                                 int32_t rotary_dim, posenc_layout layout, posenc_rope_order order,
                                 const float *cos_cache, const float *sin_cache, int32_t cache_rows,
                                 const int32_t *positions, int32_t offset) {
    TRY(check_shape(x, length, heads, dim, rotary_dim, layout, order));
    if (!cos_cache || !sin_cache) return POSENC_E_NULL;
    const int32_t np = rotary_dim / 2;
    if (posenc__check_elems2(cache_rows, np)) return POSENC_E_SIZE;
    if (positions) {
        for (int32_t t = 0; t < length; t++)
            if (positions[t] < 0 || positions[t] >= cache_rows) return POSENC_E_RANGE;
    } else if (offset < 0 || (int64_t)offset + length > cache_rows) {
        return POSENC_E_RANGE;
    }
    const rotate_fn rot =
        layout == POSENC_LAYOUT_HALF ? posenc__rope_rotate_half : posenc__rope_rotate_interleaved;
    const size_t D = (size_t)dim, H = (size_t)heads, L = (size_t)length;
    const int htd = order == POSENC_ROPE_HTD;
    /* Only the rows this call reads are checked, each right before its token (a decode step
     * reads one row of a long cache): finite, and max|cos| + max|sin| of the row bounds the
     * growth of the token's x (docs/errors.md). Rows with the same maxima share the limit. */
    uint32_t prev_c = UINT32_MAX, prev_s = UINT32_MAX, limit = 0;
    for (size_t t = 0; t < L; t++) {
        const size_t row = (size_t)(positions ? positions[t] : offset + (int32_t)t) * np;
        const float *cr = cos_cache + row, *sr = sin_cache + row;
        const float mc = posenc__max_abs(cr, (size_t)np), ms = posenc__max_abs(sr, (size_t)np);
        if (mc == INFINITY || ms == INFINITY) return POSENC_E_PARAM;
        if (posenc__fbits(mc) != prev_c || posenc__fbits(ms) != prev_s) {
            prev_c = posenc__fbits(mc);
            prev_s = posenc__fbits(ms);
            limit = x_limit(1.0, (double)mc + (double)ms, 1.0);
        }
        if (rot(x + (htd ? t * D : t * H * D), heads, htd ? L * D : D, cr, sr, np, dim - rotary_dim,
                limit) < heads)
            return POSENC_E_PARAM;
    }
    return POSENC_OK;
}

/* ---------------------------------------------------------------- decay */

int32_t posenc_rope_decay(double *out, int32_t dim, double base, int32_t max_distance) {
    if (!out) return POSENC_E_NULL;
    if (dim < 2 || dim > POSENC_MAX_ELEMENTS) return POSENC_E_SIZE;
    if (dim % 2) return POSENC_E_ODD;
    if (!posenc__finite(base) || base <= 1.0) return POSENC_E_PARAM;
    if (max_distance < 0 || posenc__check_elems2((int64_t)max_distance + 1, dim / 2))
        return POSENC_E_SIZE;
    const int32_t n = dim / 2;
    for (int32_t k = 0; k <= max_distance; k++) {
        double re = 0, im = 0, sum = 0;
        for (int32_t t = 0; t < n; t++) {
            /* S_{t+1} = S_t + e^{i k w_t}; |S_j| summed for j = 1 .. d/2 */
            const double a = (double)k * (1.0 / pow(base, (double)(2 * t) / dim));
            re += cos(a);
            im += sin(a);
            sum += sqrt(re * re + im * im);
        }
        out[k] = sum / n;
    }
    return POSENC_OK;
}
