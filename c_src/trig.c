/*
 * trig.c -- tables of sin/cos(p * w) that are exact to float32 and cost one complex multiply
 * per element. Shared by the sinusoidal tables, the RoPE cos/sin cache and Transformer-XL's R.
 *
 * Why this shape: libm sin/cos per element is no faster than JavaScript's Math.sin, and forming
 * p*w in float32 loses 4e-4 at p = 5000. So angles are only ever advanced in float64:
 *   1. per pair, three float64 sin/cos calls: the start angle p0*w, the row step step*w and the
 *      block step B*step*w;
 *   2. the first block of B rows is produced by a float64 rotation recurrence (drift ~B*1e-16),
 *      rounded once to float32;
 *   3. every later block is the first block rotated, in float32 SIMD, by the block's start
 *      angle, itself advanced by a float64 recurrence (drift ~(rows/B)*1e-16).
 * The only float32 error is the final complex multiply of two correctly rounded factors:
 * |err| <= ~2.5e-7 * scale, independent of the position (until p*w itself is large enough for
 * float64 to lose 1e-7 rad, beyond 2^30).
 *
 * A position with no run to advance (an isolated token, M-RoPE's per-stream positions) gets
 * posenc__sincos_at instead: float64 sin/cos of p*w per element, rounded once to float32.
 */
#include "posenc_internal.h"

/* Pairs processed together. Wide chunks keep the passes over the output few (each pass walks
 * every row at the row stride, one TLB page per row); B rows x CHUNK pairs stays in L2. */
#define CHUNK 256
/* Rows per block: large enough to amortise the per-block set-up, small enough to stay cached. */
#define BLOCK 64

typedef struct {
    double s, c;
} sc64;

static inline sc64 rot64(sc64 a, sc64 b) {
    /* angle addition: (a + b) */
    sc64 r = {a.s * b.c + a.c * b.s, a.c * b.c - a.s * b.s};
    return r;
}

static inline sc64 sincos64(double x) {
    sc64 r = {sin(x), cos(x)};
    return r;
}

/* Rotate row src into row dst for n interleaved pairs: [s, c] -> [s*C + c*S, c*C - s*S].
 * rc holds C twice per pair, rs holds (S, -S) per pair, so one pass is v*rc + swap(v)*rs. */
static void rotate_interleaved(float *dst, const float *src, const float *rc, const float *rs,
                               int32_t n) {
    int32_t m = 2 * n, j = 0;
    for (; j + 4 <= m; j += 4) {
        pv4 v = pv4_load(src + j);
        pv4 o = pv4_add(pv4_mul(v, pv4_load(rc + j)), pv4_mul(pv4_swap_pairs(v), pv4_load(rs + j)));
        pv4_store(dst + j, o);
    }
    for (; j < m; j += 2) {
        float s = src[j], c = src[j + 1];
        dst[j] = s * rc[j] + c * rs[j];
        dst[j + 1] = c * rc[j + 1] + s * rs[j + 1];
    }
}

/* Planar form: sines and cosines in separate runs. */
static void rotate_planar(float *ds, float *dc, const float *ss, const float *sc, const float *C,
                          const float *S, int32_t n) {
    int32_t j = 0;
    for (; j + 4 <= n; j += 4) {
        pv4 s = pv4_load(ss + j), c = pv4_load(sc + j);
        pv4 cc = pv4_load(C + j), sn = pv4_load(S + j);
        pv4_store(ds + j, pv4_add(pv4_mul(s, cc), pv4_mul(c, sn)));
        pv4_store(dc + j, pv4_sub(pv4_mul(c, cc), pv4_mul(s, sn)));
    }
    for (; j < n; j++) {
        float s = ss[j], c = sc[j];
        ds[j] = s * C[j] + c * S[j];
        dc[j] = c * C[j] - s * S[j];
    }
}

void posenc__sincos_table(float *sin_out, float *cos_out, size_t row_stride, int interleaved,
                          int32_t rows, int32_t npairs, double p0, double step, const double *w,
                          double scale) {
    const size_t ps = interleaved ? 2 : 1;
    const int32_t first = rows < BLOCK ? rows : BLOCK;
    sc64 state[CHUNK], rowstep[CHUNK], blk[CHUNK], blkstep[CHUNK];
    float rc[2 * CHUNK], rs[2 * CHUNK];

    for (int32_t i0 = 0; i0 < npairs; i0 += CHUNK) {
        const int32_t n = npairs - i0 < CHUNK ? npairs - i0 : CHUNK;
        float *s0 = sin_out + (size_t)i0 * ps, *c0 = cos_out + (size_t)i0 * ps;

        for (int32_t i = 0; i < n; i++) {
            const double wi = w[i0 + i];
            state[i] = sincos64(p0 * wi);
            rowstep[i] = sincos64(step * wi);
            blkstep[i] = sincos64((double)BLOCK * step * wi);
            blk[i] = blkstep[i];
        }
        for (int32_t r = 0; r < first; r++) {
            float *sr = s0 + (size_t)r * row_stride, *cr = c0 + (size_t)r * row_stride;
            for (int32_t i = 0; i < n; i++) {
                sr[(size_t)i * ps] = (float)(scale * state[i].s);
                cr[(size_t)i * ps] = (float)(scale * state[i].c);
                state[i] = rot64(state[i], rowstep[i]);
            }
        }
        for (int32_t b0 = BLOCK; b0 < rows; b0 += BLOCK) {
            const int32_t kmax = rows - b0 < BLOCK ? rows - b0 : BLOCK;
            for (int32_t i = 0; i < n; i++) {
                float C = (float)blk[i].c, S = (float)blk[i].s;
                if (interleaved) {
                    rc[2 * i] = rc[2 * i + 1] = C;
                    rs[2 * i] = S;
                    rs[2 * i + 1] = -S;
                } else {
                    rc[i] = C;
                    rs[i] = S;
                }
                blk[i] = rot64(blk[i], blkstep[i]);
            }
            for (int32_t k = 0; k < kmax; k++) {
                const size_t src = (size_t)k * row_stride, dst = (size_t)(b0 + k) * row_stride;
                if (interleaved)
                    rotate_interleaved(s0 + dst, s0 + src, rc, rs, n);
                else
                    rotate_planar(s0 + dst, c0 + dst, s0 + src, c0 + src, rc, rs, n);
            }
        }
    }
}

void posenc__sincos_at(float *sin_out, float *cos_out, int32_t i0, int32_t i1, int32_t step,
                       double p, const double *w, double scale) {
    for (int32_t i = i0; i < i1; i += step) {
        const double a = p * w[i];
        cos_out[i] = (float)(scale * cos(a));
        sin_out[i] = (float)(scale * sin(a));
    }
}
