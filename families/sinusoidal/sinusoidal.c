/*
 * sinusoidal.c -- fixed sin/cos tables (families/sinusoidal/sinusoidal.md): paper and tensor2tensor spacing,
 * interleaved and split layouts, the three odd-dim conventions, MAE 2-D, and the Gram matrix.
 */
#include "posenc_internal.h"

/* Frequencies are produced in slices so no buffer proportional to dim is needed. */
#define WSLICE 256

typedef struct {
    int32_t nsin, ncos; /* sine and cosine channels (equal except XLM with odd dim) */
    int32_t pad;        /* 1 when a zero column closes the row */
    double lnbase;      /* ln(base) */
    double denom;       /* w_i = exp(-lnbase * i / denom) */
} freq_plan;

static int32_t plan_freqs(freq_plan *fp, int32_t dim, double base, posenc_spacing spacing,
                          posenc_odd odd) {
    if (dim < 1 || dim > POSENC_MAX_ELEMENTS) return POSENC_E_SIZE;
    if (!posenc__finite(base) || base <= 1.0) return POSENC_E_PARAM;
    if (spacing != POSENC_SPACING_PAPER && spacing != POSENC_SPACING_T2T) return POSENC_E_ENUM;
    if (odd != POSENC_ODD_ERROR && odd != POSENC_ODD_PAD && odd != POSENC_ODD_XLM)
        return POSENC_E_ENUM;
    const int32_t h = dim / 2;
    fp->lnbase = log(base);
    fp->pad = 0;
    fp->nsin = fp->ncos = h;
    if (dim % 2) {
        if (odd == POSENC_ODD_ERROR) return POSENC_E_ODD;
        if (odd == POSENC_ODD_XLM) {
            if (spacing != POSENC_SPACING_PAPER) return POSENC_E_ENUM;
            fp->nsin = h + 1;
        } else {
            fp->pad = 1;
        }
    }
    if (spacing == POSENC_SPACING_T2T)
        fp->denom = h > 1 ? (double)(h - 1) : 1.0; /* tensor2tensor's max(num_timescales-1, 1) */
    else if (dim % 2 && odd == POSENC_ODD_XLM)
        fp->denom = (double)dim / 2.0; /* XLM: 2*floor(j/2)/dim with the true (odd) dim */
    else
        fp->denom = (double)h; /* 2i/d for even d; the even width 2h for PAD */
    return POSENC_OK;
}

static inline double freq_at(const freq_plan *fp, int32_t i) {
    /* exp(-ln(b) * i/denom): the tutorial's div_term; i == 0 gives exactly 1 */
    return exp(-fp->lnbase * ((double)i / fp->denom));
}

int32_t posenc_sinusoidal_freqs(double *out, int32_t *count, int32_t dim, double base,
                                posenc_spacing spacing, posenc_odd odd) {
    freq_plan fp;
    if (!out || !count) return POSENC_E_NULL;
    int32_t st = plan_freqs(&fp, dim, base, spacing, odd);
    if (st) return st;
    for (int32_t i = 0; i < fp.nsin; i++) out[i] = freq_at(&fp, i);
    *count = fp.nsin;
    return POSENC_OK;
}

/* One row of exact values for the single unpaired sine of an odd XLM width: channel dim-1
 * (interleaved) or channel h (split). Its angle is advanced like every other in float64. */
static void fill_lone_sine(float *out, int32_t length, int32_t dim, size_t col, double w,
                           double offset) {
    for (int32_t p = 0; p < length; p++)
        out[(size_t)p * dim + col] = (float)sin((offset + (double)p) * w);
}

int32_t posenc_sinusoidal_fill(float *out, int32_t length, int32_t dim, double base,
                               posenc_layout layout, posenc_spacing spacing, posenc_odd odd,
                               double offset) {
    freq_plan fp;
    if (!out) return POSENC_E_NULL;
    if (posenc__check_elems2(length, dim)) return POSENC_E_SIZE;
    if (layout != POSENC_LAYOUT_INTERLEAVED && layout != POSENC_LAYOUT_SPLIT) return POSENC_E_ENUM;
    if (!posenc__finite(offset) || fabs(offset) + (double)length > 2147483648.0)
        return POSENC_E_PARAM;
    int32_t st = plan_freqs(&fp, dim, base, spacing, odd);
    if (st) return st;

    const int32_t h = fp.ncos; /* full (sin, cos) pairs */
    const int interleaved = layout == POSENC_LAYOUT_INTERLEAVED;
    double w[WSLICE];
    for (int32_t i0 = 0; i0 < h; i0 += WSLICE) {
        const int32_t n = h - i0 < WSLICE ? h - i0 : WSLICE;
        for (int32_t i = 0; i < n; i++) w[i] = freq_at(&fp, i0 + i);
        if (interleaved)
            posenc__sincos_table(out + 2 * (size_t)i0, out + 2 * (size_t)i0 + 1, (size_t)dim, 1,
                                 length, n, offset, 1.0, w, 1.0);
        else /* the cosine run starts after all nsin sines */
            posenc__sincos_table(out + i0, out + fp.nsin + i0, (size_t)dim, 0, length, n, offset,
                                 1.0, w, 1.0);
    }
    if (fp.nsin > h) /* XLM odd: one more sine at frequency w_h */
        fill_lone_sine(out, length, dim, interleaved ? (size_t)dim - 1 : (size_t)h, freq_at(&fp, h),
                       offset);
    if (fp.pad)
        for (int32_t p = 0; p < length; p++) out[(size_t)p * dim + dim - 1] = 0.0f;
    return POSENC_OK;
}

int32_t posenc_sinusoidal2d_fill(float *out, int32_t height, int32_t width, int32_t dim,
                                 double base, int32_t cls_token) {
    if (!out) return POSENC_E_NULL;
    if (height < 1 || width < 1 || dim < 1) return POSENC_E_SIZE;
    const int64_t rows = (int64_t)height * width + (cls_token ? 1 : 0);
    if (rows > POSENC_MAX_ELEMENTS || posenc__check_elems2(rows, dim)) return POSENC_E_SIZE;
    if (dim % 4) return POSENC_E_ODD;
    if (!posenc__finite(base) || base <= 1.0) return POSENC_E_PARAM;

    const size_t D = (size_t)dim, E = D / 2;
    float *grid = out;
    if (cls_token) {
        for (size_t j = 0; j < D; j++) out[j] = 0.0f;
        grid += D;
    }
    /* Column codes go into the first half of row (0, c); row codes into the second half of
     * row (r, 0): two strided 1-D tables, then every other cell is copied from them. */
    freq_plan fp;
    int32_t st = plan_freqs(&fp, (int32_t)E, base, POSENC_SPACING_PAPER, POSENC_ODD_ERROR);
    if (st) return st;
    const int32_t h = (int32_t)(E / 2);
    double w[WSLICE];
    for (int32_t i0 = 0; i0 < h; i0 += WSLICE) {
        const int32_t n = h - i0 < WSLICE ? h - i0 : WSLICE;
        for (int32_t i = 0; i < n; i++) w[i] = freq_at(&fp, i0 + i);
        posenc__sincos_table(grid + i0, grid + h + i0, D, 0, width, n, 0.0, 1.0, w, 1.0);
        posenc__sincos_table(grid + E + i0, grid + E + h + i0, D * (size_t)width, 0, height, n, 0.0,
                             1.0, w, 1.0);
    }
    for (int32_t r = 0; r < height; r++) {
        float *row0 = grid + (size_t)r * width * D;
        for (int32_t c = 0; c < width; c++) {
            float *cell = row0 + (size_t)c * D;
            if (r > 0) memcpy(cell, grid + (size_t)c * D, E * sizeof(float));
            if (c > 0) memcpy(cell + E, row0 + E, E * sizeof(float));
        }
    }
    return POSENC_OK;
}

/* The dot products of row a with rows b[0..nb) (nb <= 4), each sum of exact products in
 * float64: two pd2 accumulators per row (components 4k, 4k+1 and 4k+2, 4k+3), then the tail in
 * order. Every row gets the same operations in the same order whatever nb is, so a result does
 * not depend on which block its row fell in, and the scalar build gives the same bits. */
static void dots(const float *a, const float *const b[4], int nb, size_t D, double s[4]) {
    pd2 lo[4], hi[4];
    for (int r = 0; r < 4; r++) lo[r] = hi[r] = pd2_zero();
    size_t k = 0;
    if (nb == 4) {
        /* a widened once for four rows: 8 independent float64 chains */
        for (; k + 4 <= D; k += 4) {
            const pv4 av = pv4_load(a + k);
            const pd2 al = pd2_lo(av), ah = pd2_hi(av);
            for (int r = 0; r < 4; r++) {
                const pv4 bv = pv4_load(b[r] + k);
                lo[r] = pd2_add(lo[r], pd2_mul(al, pd2_lo(bv)));
                hi[r] = pd2_add(hi[r], pd2_mul(ah, pd2_hi(bv)));
            }
        }
    } else {
        for (int r = 0; r < nb; r++) {
            for (k = 0; k + 4 <= D; k += 4) {
                const pv4 av = pv4_load(a + k), bv = pv4_load(b[r] + k);
                lo[r] = pd2_add(lo[r], pd2_mul(pd2_lo(av), pd2_lo(bv)));
                hi[r] = pd2_add(hi[r], pd2_mul(pd2_hi(av), pd2_hi(bv)));
            }
        }
    }
    const size_t k0 = D / 4 * 4;
    for (int r = 0; r < nb; r++) {
        double t = pd2_hsum(pd2_add(lo[r], hi[r]));
        for (k = k0; k < D; k++) t += (double)a[k] * (double)b[r][k];
        s[r] = t;
    }
}

int32_t posenc_similarity(float *out, const float *table, int32_t length, int32_t dim,
                          int32_t normalize) {
    if (!out || !table) return POSENC_E_NULL;
    if (posenc__check_elems2(length, dim) || posenc__check_elems2(length, length))
        return POSENC_E_SIZE;
    const size_t L = (size_t)length, D = (size_t)dim;
    /* out is written while table is read: they must not share memory */
    const uintptr_t o0 = (uintptr_t)out, o1 = (uintptr_t)(out + L * L);
    const uintptr_t t0 = (uintptr_t)table, t1 = (uintptr_t)(table + L * D);
    if (o0 < t1 && t0 < o1) return POSENC_E_PARAM;
    for (size_t i = 0; i < L; i++) {
        const float *a = table + i * D;
        for (size_t j = i; j < L; j += 4) {
            const int nb = L - j < 4 ? (int)(L - j) : 4;
            const float *b[4] = {a, a, a, a};
            double s[4];
            for (int r = 0; r < nb; r++) b[r] = table + (j + (size_t)r) * D;
            dots(a, b, nb, D, s);
            for (int r = 0; r < nb; r++)
                out[i * L + j + (size_t)r] = out[(j + (size_t)r) * L + i] = (float)s[r];
        }
    }
    if (normalize) {
        /* the diagonal holds the squared norms; read them before overwriting it */
        for (size_t i = 0; i < L; i++)
            for (size_t j = 0; j < L; j++) {
                if (i == j) continue;
                double ni = out[i * L + i], nj = out[j * L + j];
                double v = (ni > 0 && nj > 0) ? out[i * L + j] / sqrt(ni * nj) : 0.0;
                out[i * L + j] = (float)v;
            }
        for (size_t i = 0; i < L; i++) out[i * L + i] = out[i * L + i] > 0 ? 1.0f : 0.0f;
    }
    return POSENC_OK;
}
