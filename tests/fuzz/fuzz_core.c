/*
 * fuzz_core.c -- libFuzzer target over every exported C entry point (built with ASan + UBSan).
 *
 * Each input picks one entry of ENTRIES (a table: one row per exported function) and feeds it
 * fuzz-chosen sizes and reals, invalid ones included. Every buffer is allocated at exactly the
 * size the header's contract gives for those parameters (one element when they are invalid),
 * so any read or write outside the contract, any UB, and any status outside posenc_status is a
 * crash. Float inputs come from the fuzz data, NaN and infinities included.
 *
 * Adding an entry point: write `static int32_t f_<name>(cursor *c, sizes z)` that allocates its
 * buffers with IN / OUT / NEED and returns the status, and add `E(<name>)` to ENTRIES. tests/
 * native.test.js checks that every function in c_src/exports.txt and c_src/exports_lab.txt (the
 * extrapolation lab's module) has a row.
 *
 * Bounded run (CI, from the test command): -runs=60000 (tests/native.test.js). A longer run:
 *   ./build.sh && mkdir -p /tmp/corpus && build/native/fuzz_core -max_len=512 \
 *       -rss_limit_mb=2048 -max_total_time=3600 -print_final_stats=1 /tmp/corpus
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "posenc.h"

typedef struct {
    const uint8_t *p;
    size_t n;
} cursor;
typedef struct {
    int32_t a, b, d, e;
} sizes;

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
    static const double pool[] = {10000.0, 2.0,   0.5, 1.0,  0.0,    -1.0,   1e-3, 500000.0,
                                  3.0,     1.5e9, 8.0, 32.0, 4096.0, 1e-300, -0.0, 7.5};
    uint8_t b = u8(c);
    if (b == 255) return NAN;
    if (b == 254) return INFINITY;
    if (b == 253) return -INFINITY;
    return pool[b % 16];
}
static int32_t small(cursor *c) { return (int32_t)u8(c) - 128; }
/* size product, 0 for invalid factors, saturating far above CAP */
static int64_t prod(int64_t a, int64_t b) {
    if (a <= 0 || b <= 0) return 0;
    return a > (int64_t)1 << 30 || b > (int64_t)1 << 30 ? (int64_t)1 << 60 : a * b;
}
static int64_t prod3(int64_t a, int64_t b, int64_t d) { return prod(prod(a, b), d); }

#define CAP (1 << 16)
/* every allocation of the current input, freed after the call */
static void *live[32];
static int nlive;
static void *keep(void *p) {
    if (nlive < 32) live[nlive++] = p;
    return p;
}
/* n elements of type T, owned by the current input. One element when n <= 0 or n > CAP: a
 * valid call whose contract needs more than CAP elements is skipped by NEED on its size product
 * first, so a single factor above CAP means some other factor is invalid and C must refuse. */
static int64_t count(int64_t n) { return n > 0 && n <= CAP ? n : 1; }
#define ALLOC(T, n) ((T *)keep(malloc(sizeof(T) * (size_t)count(n))))
static float *floats_in(cursor *c, int64_t n) {
    float *a = ALLOC(float, n);
    n = count(n);
    for (int64_t i = 0; i < n; i++) {
        uint8_t b = u8(c);
        a[i] = b == 255 ? NAN : b == 254 ? INFINITY : (float)(b - 128) / 32.0f;
    }
    return a;
}
/* an input of n floats from the fuzz data; an output of exactly n floats (1 when n <= 0) */
#define IN(n)  floats_in(c, (n))
#define OUT(n) ALLOC(float, (n))
/* inputs whose contract needs more than CAP elements are skipped rather than given a short buffer */
#define NEED(n)                                                                                    \
    do {                                                                                           \
        if ((n) > CAP) return 0;                                                                   \
    } while (0)
static int32_t *ints_in(cursor *c, int64_t n, int32_t lo) {
    int32_t *a = ALLOC(int32_t, n);
    n = count(n);
    for (int64_t i = 0; i < n; i++) a[i] = (int32_t)u8(c) + lo;
    return a;
}
/* an even rotary width in [2, min(d, 64)] (or an invalid one now and then) */
static int32_t rotary(cursor *c, int32_t d) {
    uint8_t b = u8(c);
    if (b == 255) return (int32_t)b % 7 - 3;
    int32_t hi = d < 64 ? d : 64;
    if (hi < 2) return 2;
    return 2 + 2 * (b % (hi / 2));
}
/* inv_freq for rotary width rd from the default frequencies (NULL when rd is not valid) */
static double *inv_for(int32_t rd) {
    if (rd < 2 || rd % 2 || rd > 128) return NULL;
    double *inv = ALLOC(double, rd / 2);
    if (posenc_rope_freqs(inv, &(double){0}, rd, 10000.0, NULL)) return NULL;
    return inv;
}

/* ---- one function per entry point ---- */

static int32_t f_status_string(cursor *c, sizes z) {
    (void)z;
    const char *s = posenc_status_string(small(c));
    return s && s[0] ? POSENC_OK : -100;
}
static int32_t f_build_flags(cursor *c, sizes z) {
    (void)c, (void)z;
    return posenc_build_flags() >= 0 ? POSENC_OK : -100;
}
static int32_t f_struct_layout(cursor *c, sizes z) {
    (void)c, (void)z;
    return posenc_struct_layout() ? POSENC_OK : -100;
}
static int32_t f_sinusoidal_freqs(cursor *c, sizes z) {
    NEED(z.a / 2 + 1);
    double *o = ALLOC(double, z.a > 0 ? (z.a + 1) / 2 : 1);
    int32_t count = -1;
    return posenc_sinusoidal_freqs(o, &count, z.a, real(c), u8(c) % 3, u8(c) % 4);
}
static int32_t f_sinusoidal_fill(cursor *c, sizes z) {
    NEED(prod(z.a, z.b));
    return posenc_sinusoidal_fill(OUT(prod(z.a, z.b)), z.a, z.b, real(c), u8(c) % 3, u8(c) % 3,
                                  u8(c) % 4, real(c));
}
static int32_t f_sinusoidal2d_fill(cursor *c, sizes z) {
    NEED(prod(prod(z.a, z.b) + 1, z.d));
    return posenc_sinusoidal2d_fill(OUT(prod(prod(z.a, z.b) + 1, z.d)), z.a, z.b, z.d, real(c),
                                    u8(c) & 1);
}
static int32_t f_similarity(cursor *c, sizes z) {
    NEED(prod(z.a, z.b));
    NEED(prod(z.a, z.a));
    float *t = IN(prod(z.a, z.b));
    return posenc_similarity(OUT(prod(z.a, z.a)), t, z.a, z.b, u8(c) & 1);
}
static int32_t f_max_abs(cursor *c, sizes z) {
    NEED(z.a);
    float *a = IN(z.a);
    return posenc_max_abs(OUT(1), a, z.a);
}
static int32_t f_rope_scaling_init(cursor *c, sizes z) {
    (void)z;
    posenc_rope_scaling s;
    return posenc_rope_scaling_init(u8(c) & 1 ? &s : NULL, u8(c) % 9);
}
static int32_t f_rope_freqs(cursor *c, sizes z) {
    int32_t rd = u8(c) & 1 ? z.a : rotary(c, 64);
    NEED(rd / 2 + 1);
    posenc_rope_scaling s;
    const int type = u8(c) % 8;
    const int ok = posenc_rope_scaling_init(&s, type) == POSENC_OK;
    if (ok) {
        double *f[] = {&s.factor,           &s.original_max_positions,
                       &s.max_positions,    &s.seq_len,
                       &s.beta_fast,        &s.beta_slow,
                       &s.attention_factor, &s.mscale,
                       &s.mscale_all_dim,   &s.low_freq_factor,
                       &s.high_freq_factor};
        for (int i = 0; i < 11; i++)
            if (u8(c) & 1) *f[i] = real(c);
        s.truncate = u8(c) & 1;
        if (rd > 0) {
            double *sf = ALLOC(double, rd / 2), *lf = ALLOC(double, rd / 2);
            for (int32_t i = 0; i < rd / 2; i++) sf[i] = real(c), lf[i] = real(c);
            s.short_factor = u8(c) == 7 ? NULL : sf;
            s.long_factor = lf;
        }
    }
    double *inv = ALLOC(double, rd > 0 ? rd / 2 : 1);
    return posenc_rope_freqs(inv, &(double){0}, rd, real(c), ok && (u8(c) & 1) ? &s : NULL);
}
static int32_t f_rope_cache_fill(cursor *c, sizes z) {
    int32_t np = z.b > 64 ? 64 : z.b;
    NEED(prod(z.a, np));
    double *inv = inv_for(2 * np);
    if (!inv) inv = ALLOC(double, 1), inv[0] = real(c);
    return posenc_rope_cache_fill(OUT(prod(z.a, np)), OUT(prod(z.a, np)), z.a, np, inv, real(c),
                                  real(c));
}
static int32_t f_rope_mrope_fill(cursor *c, sizes z) {
    int32_t np = z.b > 64 ? 64 : z.b;
    NEED(prod(z.a, np));
    NEED(prod(3, z.a));
    double *inv = inv_for(2 * np);
    if (!inv) inv = ALLOC(double, 1), inv[0] = real(c);
    const int64_t n = count(prod(3, z.a));
    double *pos = ALLOC(double, n);
    for (int64_t i = 0; i < n; i++) pos[i] = u8(c) & 1 ? real(c) * small(c) : (double)small(c);
    /* sections summing to np, or off by a small amount now and then */
    const int32_t m = np > 0 ? np : 0, h = u8(c) % (m + 1), w = u8(c) % (m - h + 1);
    const int32_t t = m - h - w + (u8(c) == 255 ? small(c) : 0);
    return posenc_rope_mrope_fill(OUT(prod(z.a, np)), OUT(prod(z.a, np)), z.a, np, inv, real(c),
                                  pos, t, h, w, u8(c) % 3);
}
static int32_t f_rope_scratch_size(cursor *c, sizes z) {
    (void)c;
    int32_t n = posenc_rope_scratch_size(z.a);
    return n > 0 ? POSENC_OK : n;
}

/* the cache-free apply variants share sizes: x [a][b][d], rotary rd, inv, scratch */
typedef struct {
    float *x;
    int32_t rd;
    double *inv;
    float *scr;
    int32_t slen;
    int layout, order;
} rope_args;
static int rope_setup(cursor *c, sizes z, int32_t rd_div, rope_args *r) {
    if (prod3(z.a, z.b, z.d) > CAP) return 0;
    r->rd = rotary(c, z.d);
    if (rd_div == 2 && r->rd % 4) r->rd = r->rd >= 4 ? r->rd - 2 : 4;
    r->inv = inv_for(r->rd / rd_div);
    r->slen = posenc_rope_scratch_size(r->rd / rd_div);
    if (!r->inv || r->slen < 0 || r->slen > CAP) return 0;
    r->x = IN(prod3(z.a, z.b, z.d));
    if (u8(c) == 9) r->slen--; /* a short scratch must be refused, not overrun */
    r->scr = OUT(r->slen);
    r->layout = u8(c) & 1;
    r->order = u8(c) & 1;
    return 1;
}
static int32_t f_rope_apply(cursor *c, sizes z) {
    rope_args r;
    if (!rope_setup(c, z, 1, &r)) return 0;
    return posenc_rope_apply(r.x, z.a, z.b, z.d, r.rd, r.layout, r.order, r.inv, real(c), real(c),
                             r.scr, r.slen);
}
static int32_t f_rope_apply_positions(cursor *c, sizes z) {
    rope_args r;
    if (!rope_setup(c, z, 1, &r)) return 0;
    int32_t *pos = ints_in(c, z.a, -100);
    return posenc_rope_apply_positions(r.x, z.a, z.b, z.d, r.rd, r.layout, r.order, r.inv, real(c),
                                       pos, r.scr, r.slen);
}
static int32_t f_rope_apply_positions_f32(cursor *c, sizes z) {
    rope_args r;
    if (!rope_setup(c, z, 1, &r)) return 0;
    float *pos = IN(z.a);
    return posenc_rope_apply_positions_f32(r.x, z.a, z.b, z.d, r.rd, r.layout, r.order, r.inv,
                                           real(c), pos, r.scr, r.slen);
}
static int32_t f_rope_apply_xpos(cursor *c, sizes z) {
    rope_args r;
    if (!rope_setup(c, z, 1, &r)) return 0;
    int32_t *pos = u8(c) & 1 ? ints_in(c, z.a, -100) : NULL;
    const double scale = real(c), offset = real(c), base = real(c), center = real(c);
    return posenc_rope_apply_xpos(r.x, z.a, z.b, z.d, r.rd, r.layout, r.order, r.inv, scale, offset,
                                  pos, base, center, u8(c) & 1, r.scr, r.slen);
}
static int32_t f_rope_apply_axial(cursor *c, sizes z) {
    /* x [a*e][b][d]: height a, width e */
    sizes g = {(int32_t)(prod(z.a, z.e) > CAP ? CAP + 1 : prod(z.a, z.e)), z.b, z.d, 0};
    if (z.a <= 0 || z.e <= 0) g.a = 0;
    rope_args r;
    if (!rope_setup(c, g, 2, &r)) return 0;
    return posenc_rope_apply_axial(r.x, z.a, z.e, z.b, z.d, r.rd, r.layout, r.order, r.inv, real(c),
                                   r.scr, r.slen);
}
static int32_t f_rope_apply_cached(cursor *c, sizes z) {
    NEED(prod3(z.a, z.b, z.d));
    int32_t rd = rotary(c, z.d), rows = size(c);
    NEED(prod(rows, rd / 2 > 0 ? rd / 2 : 1));
    float *x = IN(prod3(z.a, z.b, z.d));
    float *cs = IN(prod(rows, rd / 2)), *sn = IN(prod(rows, rd / 2));
    int32_t *pos = u8(c) & 1 ? ints_in(c, z.a, -5) : NULL;
    return posenc_rope_apply_cached(x, z.a, z.b, z.d, rd, u8(c) & 1, u8(c) & 1, cs, sn, rows, pos,
                                    small(c));
}
static int32_t f_rope_decay(cursor *c, sizes z) {
    NEED(z.b + 1);
    NEED(prod(z.b + 1, z.a));
    return posenc_rope_decay(ALLOC(double, z.b >= 0 ? z.b + 1 : 1), z.a, real(c), z.b);
}
static int32_t f_alibi_slopes(cursor *c, sizes z) {
    (void)c;
    NEED(z.a);
    return posenc_alibi_slopes(OUT(z.a), z.a);
}
static int32_t f_alibi_bias(cursor *c, sizes z) {
    NEED(prod3(z.a, z.b, z.d));
    return posenc_alibi_bias(OUT(prod3(z.a, z.b, z.d)), z.a, z.b, z.d, u8(c) % 4, u8(c) & 1,
                             small(c));
}
static int32_t f_t5_buckets(cursor *c, sizes z) {
    NEED(prod(z.a, z.b));
    return posenc_t5_buckets(ALLOC(int32_t, prod(z.a, z.b)), z.a, z.b, u8(c) & 1, z.d, z.e,
                             small(c));
}
static int32_t f_t5_bias(cursor *c, sizes z) {
    /* heads a, queries b, keys d, buckets e */
    NEED(prod3(z.a, z.b, z.d));
    NEED(prod(z.e, z.a));
    float *w = IN(prod(z.e, z.a));
    return posenc_t5_bias(OUT(prod3(z.a, z.b, z.d)), w, z.a, z.b, z.d, u8(c) & 1, z.e, size(c),
                          small(c));
}
static int32_t f_shaw_indices(cursor *c, sizes z) {
    NEED(prod(z.a, z.b));
    return posenc_shaw_indices(ALLOC(int32_t, prod(z.a, z.b)), z.a, z.b, z.d, small(c));
}
static int32_t f_xl_positions(cursor *c, sizes z) {
    NEED(prod(z.a, z.b));
    return posenc_xl_positions(OUT(prod(z.a, z.b)), z.a, z.b, real(c), small(c));
}
static int32_t f_xl_rel_shift(cursor *c, sizes z) {
    /* x and out are [queries][queries + memory]; out may be x */
    int64_t k = (int64_t)z.a + (z.b > 0 ? z.b : 0);
    NEED(prod(z.a, k));
    float *x = IN(prod(z.a, k));
    return posenc_xl_rel_shift(u8(c) & 1 ? x : OUT(prod(z.a, k)), x, z.a, z.b);
}
static int32_t f_xl_scores(cursor *c, sizes z) {
    /* queries a, keys a + memory b, heads 1 + e % 3, dim d */
    const int64_t kk = (int64_t)z.a + (z.b > 0 ? z.b : 0);
    int32_t h = 1 + (z.e > 0 ? z.e % 3 : 0), keys = kk > INT32_MAX ? INT32_MAX : (int32_t)kk;
    if (u8(c) == 3) keys = z.b; /* keys < queries now and then */
    NEED(prod3(h, z.a, keys));
    NEED(prod3(keys, h, z.d));
    float *q = IN(prod3(z.a, h, z.d)), *k = IN(prod3(keys, h, z.d)), *r = IN(prod3(keys, h, z.d));
    float *u = IN(prod(h, z.d)), *v = IN(prod(h, z.d));
    return posenc_xl_scores(OUT(prod3(h, z.a, keys)), q, k, r, u, v, z.a, keys, h, z.d, real(c));
}
static int32_t f_learned_init(cursor *c, sizes z) {
    NEED(prod(z.a, z.b));
    uint32_t seed = (uint32_t)u8(c) << 24 | u8(c);
    return posenc_learned_init(OUT(prod(z.a, z.b)), z.a, z.b, real(c), seed, u8(c) & 1);
}
static int32_t f_learned_gather(cursor *c, sizes z) {
    /* table [a][b], count d */
    NEED(prod(z.d, z.b));
    NEED(prod(z.a, z.b));
    NEED(z.d);
    float *t = IN(prod(z.a, z.b));
    int32_t *pos = ints_in(c, z.d, -20);
    return posenc_learned_gather(OUT(prod(z.d, z.b)), t, z.a, z.b, pos, z.d, u8(c) % 4);
}
static int32_t f_learned_add(cursor *c, sizes z) {
    /* table [rows a][dim d], x [length b][dim d] */
    NEED(prod(z.a, z.d));
    NEED(prod(z.b, z.d));
    float *x = IN(prod(z.b, z.d)), *t = IN(prod(z.a, z.d));
    return posenc_learned_add(x, t, z.a, z.b, z.d, small(c), NULL);
}
static int32_t f_learned_concat(cursor *c, sizes z) {
    /* table [rows a][dim_p e], x [length b][dim_x d] */
    NEED(prod(z.a, z.e));
    NEED(prod(z.b, z.d));
    NEED(prod(z.b, (int64_t)z.d + z.e));
    float *x = IN(prod(z.b, z.d)), *t = IN(prod(z.a, z.e));
    int64_t no = z.d > 0 && z.e > 0 ? prod(z.b, (int64_t)z.d + z.e) : 0;
    return posenc_learned_concat(OUT(no), x, t, z.a, z.b, z.d, z.e, small(c));
}
static int32_t f_matmul(cursor *c, sizes z) {
    NEED(prod(z.a, z.b));
    NEED(prod(z.b, z.d));
    NEED(prod(z.a, z.d));
    float *a = IN(prod(z.a, z.b)), *b = IN(prod(z.b, z.d));
    return posenc_matmul(OUT(prod(z.a, z.d)), a, b, z.a, z.b, z.d);
}
/* kv_heads for h query heads: mostly a divisor of h, now and then any small value (0, negative,
 * or a non-divisor, which C must refuse) */
static int32_t kv_of(cursor *c, int32_t h) {
    uint8_t b = u8(c);
    if (b >= 224) return (int32_t)(b % 11) - 2;
    int32_t div[8], n = 0;
    for (int32_t g = 1; g <= h; g++)
        if (h % g == 0) div[n++] = g;
    return div[b % n];
}
static int kv_divides(int32_t h, int32_t kvh) { return h >= 1 && kvh >= 1 && h % kvh == 0; }
/* zeroed floats (a KV cache and its state start zeroed) */
static float *zeros(int64_t n) {
    float *a = ALLOC(float, n);
    memset(a, 0, sizeof(float) * (size_t)count(n));
    return a;
}

/* A bias descriptor from the fuzz data: any kind (now and then one out of range), its tables
 * (rel: Shaw's max_relative or XL's r_rows), a per-query scale over `q` queries now and then,
 * a chunk of -2 .. 13 or a sliding window of -2 .. 9 now and then (negative must be refused).
 * Tables are drawn last. */
typedef struct {
    posenc_bias b;
    int32_t rel, h, dim, dv, q, tables;
} bias_draw;
// <generated: bias kinds> by tools/gen_kinds.js from families/<family>/kind_<type>.js
// clang-format off
/* the relative-row count of a kind (its relField), 0 for the kinds without one */
static int32_t kind_rel(cursor *c, posenc_attention_bias kind) {
    if (kind == POSENC_BIAS_SHAW) return 1 + u8(c) % 6;
    if (kind == POSENC_BIAS_XL) return size(c);
    (void)c;
    return 0;
}
/* every kind's scalars (drawn whatever the kind, so the data stay aligned) */
static void kind_scalars(cursor *c, posenc_bias *b, int32_t rel) {
    if (b->kind == POSENC_BIAS_SHAW) b->max_relative = rel;
    if (b->kind == POSENC_BIAS_XL) b->r_rows = rel;
    b->form = u8(c) % 4;
    b->bidirectional = u8(c) & 1;
    b->num_buckets = 2 + u8(c) % 40;
    b->max_distance = size(c);
}
/* the kinds a KV cache takes */
static const posenc_attention_bias KV_KINDS[] = {POSENC_BIAS_NONE, POSENC_BIAS_ALIBI, POSENC_BIAS_T5, POSENC_BIAS_SHAW};
/* its tables; 0 when they do not fit */
static int kind_tables(cursor *c, bias_draw *d) {
    posenc_bias *b = &d->b;
    const int32_t h = d->h, dim = d->dim, dv = d->dv, rel = d->rel;
    (void)dim, (void)dv, (void)rel;
    switch (b->kind) {
        case POSENC_BIAS_NONE: {
            if (u8(c) & 1) {
                if (prod3(h, d->q, d->tables) > CAP) return 0;
                b->table = IN(prod3(h, d->q, d->tables));
            }
            break;
        }
        case POSENC_BIAS_T5: {
            b->table = IN(prod(b->num_buckets, h));
            break;
        }
        case POSENC_BIAS_SHAW: {
            if (prod(2 * rel + 1, dim) > CAP || prod(2 * rel + 1, dv) > CAP) return 0;
            b->a_k = IN(prod(2 * rel + 1, dim)), b->a_v = IN(prod(2 * rel + 1, dv));
            break;
        }
        case POSENC_BIAS_XL: {
            if (prod3(rel, h, dim) > CAP) return 0;
            b->u = IN(prod(h, dim)), b->vb = IN(prod(h, dim)), b->r = IN(prod3(rel, h, dim));
            break;
        }
        default:
            break;
    }
    return 1;
}
// clang-format on
// </generated: bias kinds>
static void bias_kind(cursor *c, bias_draw *d, int kv) {
    memset(&d->b, 0, sizeof d->b);
    const uint8_t k = u8(c);
    /* kv: every kind the cache takes (KV_KINDS) */
    const int32_t nkv = (int32_t)(sizeof KV_KINDS / sizeof KV_KINDS[0]);
    const int32_t kind = kv ? (int32_t)KV_KINDS[k % nkv] : k % POSENC_BIAS_COUNT;
    d->b.kind = (posenc_attention_bias)(k == 255 ? POSENC_BIAS_COUNT : kind);
    d->rel = kind_rel(c, d->b.kind);
    kind_scalars(c, &d->b, d->rel);
    const uint8_t x = u8(c);
    d->b.chunk = x >= 200 ? (int32_t)(x % 16) - 2 : 0;
    d->b.window = x < 40 ? (int32_t)(x % 12) - 2 : 0;
    d->tables = 1;
}
/* the tables of a drawn descriptor (after the sizes were checked); 0 when they do not fit */
static int bias_tables(cursor *c, bias_draw *d) {
    if (!kind_tables(c, d)) return 0;
    if (u8(c) % 4 == 0) d->b.query_scale = IN(d->q > 0 ? d->q : 0);
    return 1;
}

/* attention (heads 1..8, kv_heads kv_of(heads)): queries a, keys b, dim d, dim_v e, any bias */
static int32_t f_attention_gqa(cursor *c, sizes z) {
    const int32_t h = 1 + u8(c) % 8, kvh = kv_of(c, h);
    const int32_t q = z.a, k = z.b, dim = z.d, dv = u8(c) & 1 ? z.d : z.e;
    bias_draw bd;
    bias_kind(c, &bd, 0);
    bd.h = h, bd.dim = dim, bd.dv = dv, bd.q = q, bd.tables = k;
    int32_t scratch_n = 0;
    /* a kv_heads that does not divide heads gets the scratch of kv_heads 1 (the largest), so
     * the call itself has to refuse it */
    const int32_t st_size = posenc_attention_gqa_scratch_size(
        &scratch_n, q, k, h, kv_divides(h, kvh) ? kvh : 1, dim, dv, &bd.b);
    if (st_size || scratch_n > CAP) return 0;
    NEED(prod3(q, h, dim));
    NEED(prod3(k, kvh, dim));
    NEED(prod3(k, kvh, dv));
    NEED(prod3(q, h, dv));
    NEED(prod3(h, q, k));
    float *Q = IN(prod3(q, h, dim)), *K = IN(prod3(k, kvh, dim)), *V = IN(prod3(k, kvh, dv));
    float *O = OUT(prod3(q, h, dv)), *W = u8(c) & 1 ? OUT(prod3(h, q, k)) : NULL;
    int32_t short_scratch = u8(c) == 9;
    float *S = OUT(scratch_n - short_scratch);
    const double scale = real(c);
    const int mask = u8(c) % 4;
    const int32_t offset = small(c), sn = scratch_n - short_scratch;
    if (!bias_tables(c, &bd)) return 0;
    const int32_t st = posenc_attention_gqa(O, W, Q, K, V, q, k, h, dim, dv, scale, mask, offset, S,
                                            sn, kvh, u8(c) == 3 ? NULL : &bd.b);
    /* a kv_heads that does not divide heads must have been refused */
    return st == POSENC_OK && !kv_divides(h, kvh) ? -100 : st;
}
static int32_t f_attention_gqa_scratch_size(cursor *c, sizes z) {
    int32_t n = 0;
    const int32_t h = size(c);
    bias_draw bd;
    bias_kind(c, &bd, 0);
    return posenc_attention_gqa_scratch_size(u8(c) == 5 ? NULL : &n, z.a, z.b, h,
                                             kv_of(c, h > 8   ? 8
                                                      : h > 0 ? h
                                                              : 1),
                                             z.d, z.e, u8(c) == 6 ? NULL : &bd.b);
}

/* KV cache: kv_heads, dim, dim_v, capacity; NULL outputs now and then */
static int32_t f_kvcache_size(cursor *c, sizes z) {
    int32_t nk = 0, nv = 0;
    const int null = u8(c) % 8;
    return posenc_kvcache_size(null == 1 ? NULL : &nk, null == 2 ? NULL : &nv, z.a, z.d, z.e, z.b);
}
/* a zeroed cache for kv_heads kvh, dim, dim_v, capacity (one-element buffers when the sizes are
 * invalid); 0 when the cache would exceed CAP */
typedef struct {
    float *kc, *vc, *state;
} kvcache;
static int kvcache_make(kvcache *kv, int32_t kvh, int32_t dim, int32_t dv, int32_t cap) {
    int32_t nk = 0, nv = 0;
    if (posenc_kvcache_size(&nk, &nv, kvh, dim, dv, cap)) nk = nv = 0;
    if (nk > CAP || nv > CAP) return 0;
    kv->kc = zeros(nk), kv->vc = zeros(nv), kv->state = zeros(2);
    return 1;
}
static int32_t f_kvcache_store(cursor *c, sizes z) {
    /* n tokens a at slot `length` of a cache of capacity b; dim d, dim_v e, kv_heads 1..4 */
    const int32_t kvh = u8(c) == 7 ? size(c) : 1 + u8(c) % 4, n = z.a, cap = z.b;
    const int32_t length = u8(c) & 1 ? size(c) : 0;
    kvcache kv;
    if (!kvcache_make(&kv, kvh, z.d, z.e, cap)) return 0;
    NEED(prod3(n, kvh, z.d));
    NEED(prod3(n, kvh, z.e));
    float *k = IN(prod3(n, kvh, z.d)), *v = IN(prod3(n, kvh, z.e));
    return posenc_kvcache_store(kv.kc, kv.vc, kv.state, k, v, n, length, cap, kvh, z.d, z.e);
}
static int32_t f_kvcache_scratch_size(cursor *c, sizes z) {
    int32_t n = 0;
    const int32_t h = size(c);
    bias_draw bd;
    bias_kind(c, &bd, 0); /* XL included: the cache must refuse it */
    return posenc_kvcache_scratch_size(u8(c) == 5 ? NULL : &n, z.a, z.b, h,
                                       kv_of(c, h > 8   ? 8
                                                : h > 0 ? h
                                                        : 1),
                                       z.d, z.e, u8(c) == 6 ? NULL : &bd.b);
}

/* attend: queries a (or, now and then, 1 + a % length) of a cache holding `length` <=
 * capacity b tokens (stored in one or two appends, so attend reads real data), dim d, dim_v e,
 * heads 1..8, kv_heads kv_of(heads). The scalar arguments are drawn before the cache contents,
 * so they stay fuzz-chosen when a long cache uses up the data. */
static int32_t f_kvcache_attend(cursor *c, sizes z) {
    const int32_t h = 1 + u8(c) % 8, kvh = kv_of(c, h), cap = z.b, dim = z.d,
                  dv = u8(c) & 1 ? z.d : z.e;
    int32_t length = cap;
    const uint8_t lb = u8(c);
    if (lb < 200 && cap > 0)
        length = 1 + lb % cap;
    else if (lb >= 250)
        length = (int32_t)(lb % 3) - 1;
    const int32_t q = u8(c) & 1 && z.a > 0 && length > 0 ? 1 + z.a % length : z.a;
    bias_draw bd;
    bias_kind(c, &bd, 1);
    bd.h = h, bd.dim = dim, bd.dv = dv, bd.q = q, bd.tables = length;
    const int short_scratch = u8(c) == 9;
    const double scale = real(c);
    /* window -8 .. 7 (negative must be refused); 0, no window, once the data runs out */
    const int32_t window = (int8_t)u8(c) / 16;
    kvcache kv;
    if (!kvcache_make(&kv, kvh, dim, dv, cap)) return 0;
    if (length > 0 && length <= cap) {
        NEED(prod3(length, kvh, dim));
        NEED(prod3(length, kvh, dv));
        const int32_t first = 1 + u8(c) % length; /* tokens in the first append */
        float *k = IN(prod3(length, kvh, dim)), *v = IN(prod3(length, kvh, dv));
        int32_t st =
            posenc_kvcache_store(kv.kc, kv.vc, kv.state, k, v, first, 0, cap, kvh, dim, dv);
        if (st == POSENC_OK && first < length)
            st = posenc_kvcache_store(kv.kc, kv.vc, kv.state, k + (size_t)first * kvh * dim,
                                      v + (size_t)first * kvh * dv, length - first, first, cap, kvh,
                                      dim, dv);
        if (st < -9 || st > 0) return st;
    }
    int32_t scratch_n = 0;
    if (posenc_kvcache_scratch_size(&scratch_n, q, length, h, kv_divides(h, kvh) ? kvh : 1, dim, dv,
                                    &bd.b) ||
        scratch_n > CAP)
        return 0;
    NEED(prod3(q, h, dim));
    NEED(prod3(q, h, dv));
    float *Q = IN(prod3(q, h, dim)), *O = OUT(prod3(q, h, dv));
    float *S = OUT(scratch_n - short_scratch);
    const int32_t sn = scratch_n - short_scratch;
    if (bd.b.kind != POSENC_BIAS_NONE && !bias_tables(c, &bd)) return 0;
    if (bd.b.kind == POSENC_BIAS_NONE && u8(c) % 4 == 0) bd.b.query_scale = IN(q > 0 ? q : 0);
    const int32_t st =
        posenc_kvcache_attend(O, Q, kv.kc, kv.vc, kv.state, cap, length, q, h, kvh, dim, dv, scale,
                              window, S, sn, u8(c) == 3 ? NULL : &bd.b);
    return st == POSENC_OK && !kv_divides(h, kvh) ? -100 : st;
}

/* ---- the extrapolation lab's trainer (c_src/exports_lab.txt) ----
 * A small configuration from the fuzz data: length z.a, max_length z.b (either may be invalid or
 * large), heads 1..2 of width 2..8, 1..2 layers, batch 1..2, and now and then one int or float
 * key replaced by a fuzz value (invalid ones included). The arena is exactly posenc_train_size
 * bytes (skipped above LAB_CAP), initialised before step / evaluate / attention. */
#define LAB_CAP (1 << 21)
typedef struct {
    int32_t ic[POSENC_TRAIN_NINT];
    float fc[POSENC_TRAIN_NFLOAT];
    void *arena;
    int32_t bytes;
    int uninit;
} lab;
static void lab_config(cursor *c, sizes z, lab *L) {
    int32_t *ic = L->ic;
    float *fc = L->fc;
    const int32_t heads = 1 + (u8(c) & 1), dh = 2 * (1 + u8(c) % 4);
    ic[POSENC_TRAIN_TASK] = u8(c) % 3;
    ic[POSENC_TRAIN_METHOD] = u8(c) % 6;
    ic[POSENC_TRAIN_LENGTH] = z.a;
    ic[POSENC_TRAIN_DIM] = heads * dh;
    ic[POSENC_TRAIN_HEADS] = heads;
    ic[POSENC_TRAIN_LAYERS] = 1 + (u8(c) & 1);
    ic[POSENC_TRAIN_HIDDEN] = 1 + u8(c) % 8;
    ic[POSENC_TRAIN_BATCH] = 1 + (u8(c) & 1);
    ic[POSENC_TRAIN_STEPS] = 1 + u8(c) % 20;
    ic[POSENC_TRAIN_SEED] = (int32_t)((uint32_t)u8(c) << 24 | u8(c));
    ic[POSENC_TRAIN_MAX_LENGTH] = u8(c) & 1 ? z.b : z.a;
    ic[POSENC_TRAIN_K] = 1 + u8(c) % 6;
    const float fdef[POSENC_TRAIN_NFLOAT] = {3e-3f, 0.01f, 1.0f, 0.9f, 0.99f, 1e-8f};
    memcpy(fc, fdef, sizeof fdef);
    /* one key now and then from the fuzz data */
    const uint8_t bi = u8(c), bf = u8(c);
    if (bi >= 200) ic[bi % POSENC_TRAIN_NINT] = bi & 1 ? size(c) : small(c);
    if (bf >= 200) fc[bf % POSENC_TRAIN_NFLOAT] = (float)real(c);
}
/* size, exact arena and init. Returns the status to report (0 with L->arena NULL: skipped). */
static int32_t lab_open(cursor *c, sizes z, lab *L) {
    lab_config(c, z, L);
    L->arena = NULL;
    L->uninit = 0;
    const int32_t bytes = posenc_train_size(L->ic, L->fc);
    if (bytes <= 0) return bytes ? bytes : -100;
    if (bytes > LAB_CAP) return 0;
    const uint8_t b = u8(c);
    L->bytes = b == 9 ? bytes - 1 : bytes; /* a short arena must be refused */
    L->arena = keep(malloc((size_t)L->bytes));
    if (b == 8) { /* never initialised: every call must refuse it */
        memset(L->arena, 0, (size_t)L->bytes);
        L->uninit = 1;
        return POSENC_OK;
    }
    const int32_t st = posenc_train_init(L->arena, L->bytes, L->ic, L->fc);
    if (b == 9) {
        L->arena = NULL;
        return st == POSENC_E_SCRATCH ? POSENC_OK : -100;
    }
    if (st != POSENC_OK) L->arena = NULL;
    return st;
}
/* a call on a never-initialised arena must not succeed */
static int32_t lab_result(const lab *L, int32_t st) {
    return L->uninit && st == POSENC_OK ? -100 : st;
}
static int32_t f_train_size(cursor *c, sizes z) {
    lab L;
    lab_config(c, z, &L);
    const uint8_t b = u8(c);
    const int32_t n = posenc_train_size(b == 1 ? NULL : L.ic, b == 2 ? NULL : L.fc);
    return n > 0 ? POSENC_OK : n == 0 ? -100 : n;
}
static int32_t f_train_init(cursor *c, sizes z) {
    lab L;
    const int32_t st = lab_open(c, z, &L);
    if (st || !L.arena || L.uninit) return st;
    return posenc_train_param_count(L.arena) > 0 ? POSENC_OK : -100;
}
static int32_t f_train_param_count(cursor *c, sizes z) {
    lab L;
    int32_t st = lab_open(c, z, &L);
    if (st || !L.arena) return st;
    const int32_t n = posenc_train_param_count(u8(c) == 3 ? NULL : L.arena);
    return lab_result(&L, n > 0 ? POSENC_OK : n == 0 ? -100 : n);
}
static int32_t f_train_params(cursor *c, sizes z) {
    lab L;
    int32_t st = lab_open(c, z, &L);
    if (st || !L.arena) return st;
    int32_t n = L.uninit ? 4 : posenc_train_param_count(L.arena);
    const uint8_t b = u8(c);
    if (b == 5)
        n--;
    else if (b == 6)
        n++; /* a wrong count must be refused */
    NEED(n);
    const int32_t store = u8(c) & 1;
    float *v = store ? IN(n) : OUT(n);
    return lab_result(&L, posenc_train_params(L.arena, b == 7 ? NULL : v, n, store));
}
static int32_t f_train_step(cursor *c, sizes z) {
    lab L;
    int32_t st = lab_open(c, z, &L);
    if (st || !L.arena) return st;
    const uint8_t b = u8(c);
    const int32_t steps = b >= 250 ? (int32_t)(b % 3) - 1 : 1 + b % 3;
    return lab_result(&L, posenc_train_step(L.arena, steps, u8(c) == 7 ? NULL : OUT(steps)));
}
/* an evaluation length around the trained ones: length, max_length, one past either, short */
static int32_t lab_length(cursor *c, const lab *L) {
    const int32_t n = L->ic[POSENC_TRAIN_LENGTH], m = L->ic[POSENC_TRAIN_MAX_LENGTH];
    const int32_t t = n > m ? n : m;
    switch (u8(c) % 8) {
        case 0:
            return n;
        case 1:
            return t;
        case 2:
            return t + 1;
        case 3:
            return n + 1;
        case 4:
            return n - 1;
        case 5:
            return 2 + u8(c) % (t > 2 ? t - 1 : 1);
        case 6:
            return small(c);
        default:
            return size(c);
    }
}
/* inv_freq: NULL, or dim/heads/2 finite or not, small or huge (any finite value >= 0 is in
 * the contract) */
static double *lab_inv(cursor *c, const lab *L) {
    if (u8(c) & 1) return NULL;
    const int32_t np = L->ic[POSENC_TRAIN_DIM] / L->ic[POSENC_TRAIN_HEADS] / 2;
    double *inv = ALLOC(double, np);
    static const double wide[] = {1e30, 1e300, 1.7976931348623157e308, 4.9e-324};
    for (int32_t i = 0; i < np; i++) {
        const uint8_t b = u8(c);
        inv[i] = b >= 240 ? wide[b % 4] : b >= 160 ? real(c) : (double)(b % 64) / 16.0;
    }
    return inv;
}
/* 0..2 training steps first (1 + b % 3 - 1) */
static int32_t lab_train(cursor *c, const lab *L) {
    const int32_t steps = u8(c) % 3;
    if (!steps || L->uninit) return POSENC_OK;
    float losses[2];
    const int32_t st = posenc_train_step(L->arena, steps, losses);
    return st == POSENC_E_PARAM ? POSENC_OK : st; /* a diverging configuration: still evaluate */
}
static int32_t f_train_evaluate(cursor *c, sizes z) {
    lab L;
    int32_t st = lab_open(c, z, &L);
    if (st || !L.arena) return st;
    if ((st = lab_train(c, &L))) return st;
    const int32_t length = lab_length(c, &L), n = u8(c) == 4 ? small(c) : 1 + u8(c) % 3;
    const int32_t seed = (int32_t)u8(c);
    double *inv = lab_inv(c, &L);
    const double scale = inv ? real(c) : 1.0;
    double *res = u8(c) == 7 ? NULL : ALLOC(double, POSENC_TRAIN_NRESULT);
    return lab_result(&L, posenc_train_evaluate(L.arena, length, n, seed, inv, scale, res));
}
static int32_t f_train_sequences(cursor *c, sizes z) {
    lab L;
    int32_t st = lab_open(c, z, &L);
    if (st || !L.arena) return st;
    const int32_t length = lab_length(c, &L), n = u8(c) == 4 ? small(c) : 1 + u8(c) % 3;
    const int32_t seed = (int32_t)u8(c);
    NEED(prod(n, length));
    int32_t *tok = ALLOC(int32_t, prod(n, length)), *tgt = ALLOC(int32_t, prod(n, length));
    const uint8_t b = u8(c);
    return lab_result(&L, posenc_train_sequences(L.arena, length, n, seed, b == 7 ? NULL : tok,
                                                 b == 8 ? NULL : tgt));
}
static int32_t f_train_attention(cursor *c, sizes z) {
    lab L;
    int32_t st = lab_open(c, z, &L);
    if (st || !L.arena) return st;
    if ((st = lab_train(c, &L))) return st;
    const uint8_t lb = u8(c);
    const int32_t length = lab_length(c, &L),
                  layer = lb < 224 ? lb % L.ic[POSENC_TRAIN_LAYERS] : (int32_t)(lb % 4) - 1;
    const int32_t seed = (int32_t)u8(c);
    double *inv = lab_inv(c, &L);
    const double scale = inv ? real(c) : 1.0;
    NEED(prod3(L.ic[POSENC_TRAIN_HEADS], length, length));
    float *w = OUT(prod3(L.ic[POSENC_TRAIN_HEADS], length, length));
    int32_t *tok = ALLOC(int32_t, length);
    const uint8_t b = u8(c);
    return lab_result(&L, posenc_train_attention(L.arena, length, layer, seed, inv, scale,
                                                 b == 7 ? NULL : w, b == 8 ? NULL : tok));
}

/* ---- the table: one row per exported entry point (name as in c_src/exports.txt) ---- */
typedef struct {
    const char *name;
    int32_t (*run)(cursor *, sizes);
} entry;
#define E(fn)                                                                                      \
    { "posenc_" #fn, f_##fn }
/* <generated: entries> by tools/gen_decls.js from the declarations (families/NAME/decl.js) */
static const entry ENTRIES[] = {
    E(status_string),
    E(build_flags),
    E(struct_layout),
    E(max_abs),
    E(sinusoidal_fill),
    E(sinusoidal_freqs),
    E(sinusoidal2d_fill),
    E(similarity),
    E(rope_scaling_init),
    E(rope_freqs),
    E(rope_cache_fill),
    E(rope_mrope_fill),
    E(rope_scratch_size),
    E(rope_apply),
    E(rope_apply_positions),
    E(rope_apply_positions_f32),
    E(rope_apply_xpos),
    E(rope_apply_axial),
    E(rope_apply_cached),
    E(rope_decay),
    E(alibi_slopes),
    E(alibi_bias),
    E(t5_buckets),
    E(t5_bias),
    E(shaw_indices),
    E(xl_positions),
    E(xl_rel_shift),
    E(xl_scores),
    E(learned_init),
    E(learned_gather),
    E(learned_add),
    E(learned_concat),
    E(attention_gqa_scratch_size),
    /* 5 rows: it carries every bias kind, so it keeps the runs per-kind entries had */
    E(attention_gqa),
    E(attention_gqa),
    E(attention_gqa),
    E(attention_gqa),
    E(attention_gqa),
    E(matmul),
    E(kvcache_size),
    E(kvcache_store),
    E(kvcache_scratch_size),
    /* 4 rows: it carries every bias kind, so it keeps the runs per-kind entries had */
    E(kvcache_attend),
    E(kvcache_attend),
    E(kvcache_attend),
    E(kvcache_attend),
    /* the lab's module (c_src/exports_lab.txt) */
    E(train_size),
    E(train_init),
    E(train_param_count),
    E(train_params),
    E(train_step),
    E(train_evaluate),
    E(train_sequences),
    E(train_attention),
};
/* </generated: entries> */
#define NENTRIES (sizeof ENTRIES / sizeof ENTRIES[0])

#ifdef FUZZ_STATS
/* -DFUZZ_STATS: per entry, how many calls ran and how many returned POSENC_OK, printed at exit
 * (shows that every entry point gets past its validation, not only into it). */
#include <stdio.h>
static long calls[NENTRIES], oks[NENTRIES];
static void report(void) {
    for (size_t i = 0; i < NENTRIES; i++)
        fprintf(stderr, "%-34s %8ld calls %8ld ok\n", ENTRIES[i].name, calls[i], oks[i]);
}
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n) {
    cursor c = {data, n};
    const entry *e = &ENTRIES[u8(&c) % NENTRIES];
    sizes z;
    z.a = size(&c), z.b = size(&c), z.d = size(&c), z.e = size(&c);
    nlive = 0;
    const int32_t st = e->run(&c, z);
#ifdef FUZZ_STATS
    static int registered;
    if (!registered) registered = 1, atexit(report);
    calls[e - ENTRIES]++;
    oks[e - ENTRIES] += st == POSENC_OK;
#endif
    for (int i = 0; i < nlive; i++) free(live[i]);
    if (st > 0 || st < -9) abort(); /* a status outside posenc_status */
    return 0;
}
