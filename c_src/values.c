/* values.c -- the finiteness scans: posenc_max_abs behind the JS API's one rule for array
 * inputs, and the block check the in-place kernels run before they read a block. */
#include <math.h>

#include "posenc.h"
#include "posenc_internal.h"

/* Magnitudes are compared as bit patterns (see posenc_internal.h): NaN and inf are the
 * patterns above 0x7f7fffff (FLT_MAX). */
#define MAG_INF 0x7f800000u

#if POSENC_SIMD
static inline v128_t mag_max(v128_t m, const float *p) {
    return wasm_u32x4_max(m, wasm_f32x4_abs(wasm_v128_load(p)));
}

/* max magnitude bits over a[0, n): four accumulators, so the loop runs at load speed */
static uint32_t max_bits(const float *a, size_t n) {
    v128_t m0 = wasm_i32x4_splat(0), m1 = m0, m2 = m0, m3 = m0;
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        m0 = mag_max(m0, a + i);
        m1 = mag_max(m1, a + i + 4);
        m2 = mag_max(m2, a + i + 8);
        m3 = mag_max(m3, a + i + 12);
    }
    for (; i + 4 <= n; i += 4) m0 = mag_max(m0, a + i);
    m0 = wasm_u32x4_max(wasm_u32x4_max(m0, m1), wasm_u32x4_max(m2, m3));
    m0 = wasm_u32x4_max(m0, wasm_i32x4_shuffle(m0, m0, 2, 3, 0, 1));
    m0 = wasm_u32x4_max(m0, wasm_i32x4_shuffle(m0, m0, 1, 0, 3, 2));
    uint32_t r = wasm_u32x4_extract_lane(m0, 0);
    for (; i < n; i++) {
        const uint32_t b = posenc__fbits(a[i]) & 0x7fffffffu;
        r = b > r ? b : r;
    }
    return r;
}

int posenc__within(const float *a, size_t n, uint32_t limit) { return max_bits(a, n) <= limit; }
#else
/* Integer selects (a conditional move), never float ones (a branch in V8). */
static uint32_t max_bits(const float *a, size_t n) {
    uint32_t m0 = 0, m1 = 0, m2 = 0, m3 = 0, b;
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        b = posenc__fbits(a[i]) & 0x7fffffffu;
        m0 = b > m0 ? b : m0;
        b = posenc__fbits(a[i + 1]) & 0x7fffffffu;
        m1 = b > m1 ? b : m1;
        b = posenc__fbits(a[i + 2]) & 0x7fffffffu;
        m2 = b > m2 ? b : m2;
        b = posenc__fbits(a[i + 3]) & 0x7fffffffu;
        m3 = b > m3 ? b : m3;
    }
    for (; i < n; i++) {
        b = posenc__fbits(a[i]) & 0x7fffffffu;
        m0 = b > m0 ? b : m0;
    }
    m0 = m0 > m1 ? m0 : m1;
    m2 = m2 > m3 ? m2 : m3;
    return m0 > m2 ? m0 : m2;
}

/* Two magnitudes per 64-bit word: adding (0x7fffffff - limit) to a 31-bit magnitude sets its
 * lane's top bit exactly when it exceeds limit, and no carry crosses into the other lane. Three
 * integer operations per two floats and no compare at all: cheaper than the max, so the scalar
 * RoPE kernel pays little for its check. */
int posenc__within(const float *a, size_t n, uint32_t limit) {
    if (limit >= 0x7fffffffu) return 1; /* no limit (the add below needs limit < 2^31) */
    const uint64_t mask = 0x7fffffff7fffffffull, top = 0x8000000080000000ull;
    const uint64_t add = (uint64_t)(0x7fffffffu - limit) * 0x100000001ull;
    uint64_t acc0 = 0, acc1 = 0, w0, w1;
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        memcpy(&w0, a + i, sizeof w0);
        memcpy(&w1, a + i + 2, sizeof w1);
        acc0 |= (w0 & mask) + add;
        acc1 |= (w1 & mask) + add;
    }
    int ok = ((acc0 | acc1) & top) == 0;
    for (; i < n; i++) ok &= (posenc__fbits(a[i]) & 0x7fffffffu) <= limit;
    return ok;
}
#endif

float posenc__max_abs(const float *a, size_t n) {
    const uint32_t m = max_bits(a, n);
    if (m >= MAG_INF) return INFINITY;
    float f;
    memcpy(&f, &m, sizeof f);
    return f;
}

int32_t posenc_max_abs(float *out, const float *a, int32_t n) {
    if (!out || (!a && n > 0)) return POSENC_E_NULL;
    if (n < 0 || n > POSENC_MAX_ELEMENTS) return POSENC_E_SIZE;
    *out = n ? posenc__max_abs(a, (size_t)n) : 0.0f;
    return POSENC_OK;
}
