/*
 * lite_exp_data.c -- posenc/lite's lean core only (build.sh links it into
 * dist/posenc-lite.simd.wasm and nothing else): the data of musl's exp(), with its table of
 * 2^(k/128) computed when the module starts instead of shipped.
 *
 * Why: the table is 256 words of incompressible bits, 2 kB of the lean core's download; exp()
 * is the sinusoidal frequencies' w_i = exp(-ln(base) * i/denom). The constants below are musl's
 * (emscripten's system/lib/libc/musl, src/math/exp_data.c, Copyright (c) 2018, Arm Limited,
 * SPDX-License-Identifier: MIT) in its struct's layout; a definition here keeps the linker from
 * taking libc's, and exp() reads this one. fill_table() writes the very words musl ships:
 * 2^(k/128) in 128-bit fixed point (exact integer arithmetic, error below 2^-118), H = that
 * rounded to a double and T = (2^(k/128) - H) / H correctly rounded, as musl's comment defines
 * them (tab[2k] = asuint64(T), tab[2k+1] = asuint64(H) - (k << 45)). All 128 pairs equal musl's
 * (checked word for word, 2026-11-28); tests/lite.test.js compares exp() through the lean core's
 * float64 frequencies, which read every entry, with the whole core's.
 */
/* Only in the lean core's build (build.sh defines this): the native tests link every c_src
 * file with the system's libc. */
#ifdef POSENC_LITE_CORE
#include <stdint.h>
#include <string.h>

#define N 128

struct exp_data {
    double invln2N;
    double shift;
    double negln2hiN;
    double negln2loN;
    double poly[4];
    double exp2_shift;
    double exp2_poly[5];
    uint64_t tab[2 * N];
};

struct exp_data __exp_data = {
    .invln2N = 0x1.71547652b82fep0 * N,
    .negln2hiN = -0x1.62e42fefa0000p-8,
    .negln2loN = -0x1.cf79abc9e3b3ap-47,
    .shift = 0x1.8p52,
    .poly = {0x1.ffffffffffdbdp-2, 0x1.555555555543cp-3, 0x1.55555cf172b91p-5,
             0x1.1111167a4d017p-7},
    .exp2_shift = 0x1.8p52 / N,
    .exp2_poly = {0x1.62e42fefa39efp-1, 0x1.ebfbdff82c424p-3, 0x1.c6b08d70cf4b5p-5,
                  0x1.3b2abd24650ccp-7, 0x1.5d7e09b4e3a84p-10},
};

/* v *= c in fixed point with 126 fraction bits (four 32-bit limbs, least significant first);
 * the product is truncated. */
static void mul126(uint32_t v[4], const uint32_t c[4]) {
    uint32_t p[8] = {0};
    for (int i = 0; i < 4; i++) {
        uint64_t carry = 0;
        for (int j = 0; j < 4; j++) {
            const uint64_t t = (uint64_t)v[i] * c[j] + p[i + j] + carry;
            p[i + j] = (uint32_t)t;
            carry = t >> 32;
        }
        p[i + 4] = (uint32_t)carry;
    }
    for (int i = 0; i < 4; i++) v[i] = (p[i + 3] >> 30) | (p[i + 4] << 2);
}

static uint64_t bits_of(double x) {
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

/* One pair from v = 2^(k/128) * 2^126 (hi:lo its 128 bits). */
static void fill_pair(uint64_t *pair, uint64_t hi, uint64_t lo, uint64_t k) {
    const uint64_t m = (hi >> 10) + ((hi >> 9) & 1); /* v's 53 leading bits, rounded */
    uint64_t rhi = hi - (m << 10), rlo = lo;         /* r = v - m * 2^74, below 2^74 */
    const int neg = (int64_t)rhi < 0;
    if (neg) {
        rlo = -rlo;
        rhi = ~rhi + (rlo == 0);
    }
    uint64_t q = 0, rem = 0; /* (|r| << 40) / m, bit by bit */
    for (int b = 113; b >= 0; b--) {
        const int s = b - 40;
        const uint64_t bit = s < 0 ? 0 : s < 64 ? (rlo >> s) & 1 : (rhi >> (s - 64)) & 1;
        rem = 2 * rem + bit;
        q <<= 1;
        if (rem >= m) {
            rem -= m;
            q |= 1;
        }
    }
    const double t = (double)(q | (rem != 0)) * 0x1p-114; /* the sticky bit rounds it once */
    pair[0] = q == 0 && rem == 0 ? 0 : bits_of(neg ? -t : t);
    pair[1] = bits_of((double)m * 0x1p-52) - (k << 45);
}

__attribute__((constructor)) static void fill_table(void) {
    static const uint32_t c[4] = {0xdb737e90, 0x1299ab8c, 0xecccd5b6, 0x4058f6a7}; /* 2^(1/128) */
    uint32_t v[4] = {0, 0, 0, 0x40000000};                                         /* 1 */
    for (uint64_t k = 0; k < N; k++) {
        if (k) mul126(v, c);
        fill_pair(__exp_data.tab + 2 * k, (uint64_t)v[3] << 32 | v[2], (uint64_t)v[1] << 32 | v[0],
                  k);
    }
}

#endif /* POSENC_LITE_CORE */
