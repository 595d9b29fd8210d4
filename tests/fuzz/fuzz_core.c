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
 * buffers with IN / OUT / NEED and returns the status, in its family's families/<family>/
 * fuzz_<family>.h (the shared c_src entry points' are here); `node tools/gen_decls.js` writes its
 * `E(<name>)` row in ENTRIES and the family's #include from the declarations. An entry point
 * without its f_<name> fails to compile here.
 *
 * Bounded run (CI, from the test command): -runs=40000 (tests/native.test.js). A longer run:
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

/* ---- one function per entry point: the shared ones (c_src) ---- */

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
static int32_t f_max_abs(cursor *c, sizes z) {
    NEED(z.a);
    float *a = IN(z.a);
    return posenc_max_abs(OUT(1), a, z.a);
}
/* ---- what the attention hosts draw (fuzz_attention.h, fuzz_kvcache.h): heads, bias kinds ---- */
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

/* ---- each family's entry points: families/<family>/fuzz_<family>.h ---- */
/* <generated: families> by tools/gen_decls.js from the declarations (families/NAME/decl.js) */
#include "../../families/sinusoidal/fuzz_sinusoidal.h"
#include "../../families/rope/fuzz_rope.h"
#include "../../families/relative/fuzz_relative.h"
#include "../../families/learned/fuzz_learned.h"
#include "../../families/attention/fuzz_attention.h"
#include "../../families/kvcache/fuzz_kvcache.h"
#include "../../families/train/fuzz_train.h"
/* </generated: families> */

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
