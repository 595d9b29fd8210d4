/* limits.c -- the "speed of light" references the benchmark reports against, compiled to
 * wasm with the same flags as the core (-O3 -msimd128 -mbulk-memory). Each is the cheapest
 * loop that touches the same bytes as the kernel it bounds. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <wasm_simd128.h>

void *bench_alloc(int32_t bytes) { return malloc((size_t)bytes); }
void bench_free(void *p) { free(p); }

/* memory.fill over n bytes: the write-bandwidth limit of a table fill. */
void bench_fill(void *p, int32_t n) { memset(p, 0, (size_t)n); }

/* In-place f32x4 load-mul-add-store over n floats: the limit of an in-place streaming kernel
 * (RoPE with a cache reads x and writes it back). */
void bench_stream_madd(float *x, int32_t n, float a, float b) {
    v128_t va = wasm_f32x4_splat(a), vb = wasm_f32x4_splat(b);
    for (int32_t i = 0; i + 4 <= n; i += 4)
        wasm_v128_store(x + i, wasm_f32x4_add(wasm_f32x4_mul(wasm_v128_load(x + i), va), vb));
}

/* In-place f32x4 add of a second array over n floats: the limit of addTo (it reads x and the
 * table rows once and writes x back). */
void bench_stream_add(float *x, const float *t, int32_t n) {
    for (int32_t i = 0; i + 4 <= n; i += 4)
        wasm_v128_store(x + i, wasm_f32x4_add(wasm_v128_load(x + i), wasm_v128_load(t + i)));
}

/* memcpy of n bytes: the limit of a copy into another layout (a KV cache append reads its
 * keys and values once and writes them once). */
void bench_copy(void *dst, const void *src, int32_t n) { memcpy(dst, src, (size_t)n); }

/* Peak f32x4 mul+add rate: 8 independent accumulators, no memory traffic. Returns a value so
 * the loop is not removed; iters * 8 * 4 multiply-adds are done. */
float bench_peak_madd(int32_t iters, float x) {
    v128_t a0 = wasm_f32x4_splat(x), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0, a7 = a0;
    v128_t m = wasm_f32x4_splat(0.999999f), c = wasm_f32x4_splat(1e-7f);
    for (int32_t i = 0; i < iters; i++) {
        a0 = wasm_f32x4_add(wasm_f32x4_mul(a0, m), c);
        a1 = wasm_f32x4_add(wasm_f32x4_mul(a1, m), c);
        a2 = wasm_f32x4_add(wasm_f32x4_mul(a2, m), c);
        a3 = wasm_f32x4_add(wasm_f32x4_mul(a3, m), c);
        a4 = wasm_f32x4_add(wasm_f32x4_mul(a4, m), c);
        a5 = wasm_f32x4_add(wasm_f32x4_mul(a5, m), c);
        a6 = wasm_f32x4_add(wasm_f32x4_mul(a6, m), c);
        a7 = wasm_f32x4_add(wasm_f32x4_mul(a7, m), c);
    }
    v128_t s = wasm_f32x4_add(wasm_f32x4_add(wasm_f32x4_add(a0, a1), wasm_f32x4_add(a2, a3)),
                              wasm_f32x4_add(wasm_f32x4_add(a4, a5), wasm_f32x4_add(a6, a7)));
    return wasm_f32x4_extract_lane(s, 0);
}

/* memory.fill(0) can beat any store loop by 2-3x on some machines (zeroing fast paths), and a
 * bias matrix is never all zero bytes. These two bound a kernel that must store arbitrary
 * 32-bit values: memory.fill with a non-zero byte, and the plainest f32x4 store loop. */
void bench_fill_ff(void *p, int32_t n) { memset(p, 0xff, (size_t)n); }
void bench_store_f32x4(float *p, int32_t n) {
    v128_t v = wasm_f32x4_splat(-1.0f);
    for (int32_t i = 0; i + 4 <= n; i += 4) wasm_v128_store(p + i, v);
}

/* Read limit of a decode step: an f32x4 load stream over n floats with 8 independent
 * accumulators (load + add only, nothing stored). A decode step must read every key and value
 * of the cache once, so this is the floor of its time for the same bytes. */
float bench_load_stream(const float *x, int32_t n) {
    v128_t a0 = wasm_f32x4_splat(0.0f), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0,
           a7 = a0;
    int32_t i = 0;
    for (; i + 32 <= n; i += 32) {
        a0 = wasm_f32x4_add(a0, wasm_v128_load(x + i));
        a1 = wasm_f32x4_add(a1, wasm_v128_load(x + i + 4));
        a2 = wasm_f32x4_add(a2, wasm_v128_load(x + i + 8));
        a3 = wasm_f32x4_add(a3, wasm_v128_load(x + i + 12));
        a4 = wasm_f32x4_add(a4, wasm_v128_load(x + i + 16));
        a5 = wasm_f32x4_add(a5, wasm_v128_load(x + i + 20));
        a6 = wasm_f32x4_add(a6, wasm_v128_load(x + i + 24));
        a7 = wasm_f32x4_add(a7, wasm_v128_load(x + i + 28));
    }
    for (; i + 4 <= n; i += 4) a0 = wasm_f32x4_add(a0, wasm_v128_load(x + i));
    v128_t s = wasm_f32x4_add(wasm_f32x4_add(wasm_f32x4_add(a0, a1), wasm_f32x4_add(a2, a3)),
                              wasm_f32x4_add(wasm_f32x4_add(a4, a5), wasm_f32x4_add(a6, a7)));
    return wasm_f32x4_extract_lane(s, 0);
}

/* RoPE's rotation with a cos/sin cache and no check at all: the same vector operations as
 * rope.c's cached SIMD kernels (half: four loads, six arithmetic ops, two stores per 8 values;
 * interleaved: even/odd shuffles, the half rotation, zips), for x [tokens][heads][dim] with
 * dim = 2 * pairs rotated whole and cos/sin [tokens][pairs]. applyRope's rows next to these
 * show what its finiteness check costs (docs/errors.md). */
void bench_rope_nocheck(float *x, int32_t tokens, int32_t heads, int32_t pairs, const float *cs,
                        const float *sn, int32_t interleaved) {
    const size_t dim = 2 * (size_t)pairs;
    for (int32_t t = 0; t < tokens; t++) {
        const float *c = cs + (size_t)t * pairs, *s = sn + (size_t)t * pairs;
        for (int32_t h = 0; h < heads; h++) {
            float *p = x + ((size_t)t * heads + h) * dim;
            for (int32_t i = 0; i + 4 <= pairs; i += 4) {
                const v128_t cc = wasm_v128_load(c + i), ss = wasm_v128_load(s + i);
                if (interleaved) {
                    const v128_t lo = wasm_v128_load(p + 2 * i), hi = wasm_v128_load(p + 2 * i + 4);
                    const v128_t u = wasm_i32x4_shuffle(lo, hi, 0, 2, 4, 6);
                    const v128_t v = wasm_i32x4_shuffle(lo, hi, 1, 3, 5, 7);
                    const v128_t u2 = wasm_f32x4_sub(wasm_f32x4_mul(u, cc), wasm_f32x4_mul(v, ss));
                    const v128_t v2 = wasm_f32x4_add(wasm_f32x4_mul(v, cc), wasm_f32x4_mul(u, ss));
                    wasm_v128_store(p + 2 * i, wasm_i32x4_shuffle(u2, v2, 0, 4, 1, 5));
                    wasm_v128_store(p + 2 * i + 4, wasm_i32x4_shuffle(u2, v2, 2, 6, 3, 7));
                } else {
                    const v128_t a = wasm_v128_load(p + i), b = wasm_v128_load(p + pairs + i);
                    wasm_v128_store(p + i,
                                    wasm_f32x4_sub(wasm_f32x4_mul(a, cc), wasm_f32x4_mul(b, ss)));
                    wasm_v128_store(p + pairs + i,
                                    wasm_f32x4_add(wasm_f32x4_mul(b, cc), wasm_f32x4_mul(a, ss)));
                }
            }
        }
    }
}
