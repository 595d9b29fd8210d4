/*
 * attention.c -- multi-head scaled dot-product attention (families/attention/attention.md) with the positional
 * biases fused into the loop (one row of steps per bias kind: BIAS_OPS).
 *
 * Shape of the computation, per head:
 *   1. K is packed once into panels of 8 keys, transposed: panel[p][d][c] = K[8p + c][d]. The QK
 *      micro-kernel then takes 4 queries (packed transposed, qt[d][4]) x 8 keys at a time: per d
 *      it loads two vectors of keys, splats one q value per query and does 8 vector
 *      multiply-adds into 8 accumulators, which fit the 16 vector registers of the engines
 *      wasm lands on (no horizontal sums at all).
 *   2. Logits of a tile of POSENC_ATTENTION_TILE keys are scaled, biased and masked in place.
 *   3. Without weights: online softmax (running max m and sum l; when m grows the accumulated
 *      output is multiplied by exp(m_old - m_new)). With weights: the exact row softmax is
 *      written into the caller's weights buffer first.
 *   4. The PV micro-kernel accumulates 4 queries x 8 output columns per key.
 * Queries come in blocks of 4; a short last block repeats its last query (results discarded),
 * so every kernel always sees 4 rows.
 */
#include "posenc_internal.h"

#define TILE POSENC_ATTENTION_TILE
#define QB   4           /* queries per block */
#define PW   8           /* keys per panel */
#define GW   (TILE + 32) /* XL position-term tile: a tile spans TILE + 3 rows of r, panel-aligned */

/* The kernels and per-tile steps stay separate functions: inlined into one huge body, V8's
 * register allocator spills the micro-kernels' accumulators (measured 13.5 ms -> 10.5 ms for
 * 1024 x 64 with NOINLINE). */
#define NOINLINE __attribute__((noinline))

/* ---- micro-kernels ---- */

/* Inlined into callers that pass a constant drow (the packed panels: drow = 8), so the inner
 * loop walks b with one pointer increment and no multiply. */
static inline __attribute__((always_inline)) void kernel_qk(const float *const a[4], const float *b,
                                                            int32_t np, int32_t dim, size_t pstride,
                                                            size_t drow, float scale, float *out,
                                                            size_t ostride) {
    const pv4 sc = pv4_splat(scale);
    const float *a0 = a[0], *a1 = a[1], *a2 = a[2], *a3 = a[3];
    for (int32_t p = 0; p < np; p++) {
        const float *bp = b + (size_t)p * pstride;
        pv4 c00 = pv4_splat(0.0f), c01 = c00, c10 = c00, c11 = c00;
        pv4 c20 = c00, c21 = c00, c30 = c00, c31 = c00;
        const float *bd = bp;
        for (int32_t d = 0; d < dim; d++, bd += drow) {
            const pv4 b0 = pv4_load(bd), b1 = pv4_load(bd + 4);
            pv4 x = pv4_load_splat(a0 + d);
            c00 = pv4_add(c00, pv4_mul(x, b0));
            c01 = pv4_add(c01, pv4_mul(x, b1));
            x = pv4_load_splat(a1 + d);
            c10 = pv4_add(c10, pv4_mul(x, b0));
            c11 = pv4_add(c11, pv4_mul(x, b1));
            x = pv4_load_splat(a2 + d);
            c20 = pv4_add(c20, pv4_mul(x, b0));
            c21 = pv4_add(c21, pv4_mul(x, b1));
            x = pv4_load_splat(a3 + d);
            c30 = pv4_add(c30, pv4_mul(x, b0));
            c31 = pv4_add(c31, pv4_mul(x, b1));
        }
        float *o = out + (size_t)p * PW;
        pv4_store(o, pv4_mul(c00, sc));
        pv4_store(o + 4, pv4_mul(c01, sc));
        o += ostride;
        pv4_store(o, pv4_mul(c10, sc));
        pv4_store(o + 4, pv4_mul(c11, sc));
        o += ostride;
        pv4_store(o, pv4_mul(c20, sc));
        pv4_store(o + 4, pv4_mul(c21, sc));
        o += ostride;
        pv4_store(o, pv4_mul(c30, sc));
        pv4_store(o + 4, pv4_mul(c31, sc));
    }
}

void posenc__attn_kernel_qk(const float *const a[4], const float *b, int32_t np, int32_t dim,
                            size_t pstride, size_t drow, float scale, float *out, size_t ostride) {
    kernel_qk(a, b, np, dim, pstride, drow, scale, out, ostride);
}

/* The attention path: a query block packed transposed, qt[d][4], against K (or XL's r) packed
 * into panels of 8. One pointer walks qt and one walks the panel, and the four queries are
 * constant offsets from the first: per d the loop does 6 loads and 16 vector ops with 3 integer
 * ops, where four row pointers cost ~9 (V8 runs this loop front-end bound, so each instruction
 * counts). */
static NOINLINE void kernel_qk_t(const float *qt, const float *b, int32_t np, int32_t dim,
                                 float scale, float *out, size_t ostride) {
    const pv4 sc = pv4_splat(scale);
    const float *const qend = qt + (size_t)QB * (size_t)dim;
    for (int32_t p = 0; p < np; p++) {
        const float *bd = b + (size_t)p * (size_t)dim * PW;
        pv4 c00 = pv4_splat(0.0f), c01 = c00, c10 = c00, c11 = c00;
        pv4 c20 = c00, c21 = c00, c30 = c00, c31 = c00;
        for (const float *x4 = qt; x4 < qend; x4 += QB, bd += PW) {
            const pv4 b0 = pv4_load(bd), b1 = pv4_load(bd + 4);
            pv4 x = pv4_load_splat(x4);
            c00 = pv4_add(c00, pv4_mul(x, b0));
            c01 = pv4_add(c01, pv4_mul(x, b1));
            x = pv4_load_splat(x4 + 1);
            c10 = pv4_add(c10, pv4_mul(x, b0));
            c11 = pv4_add(c11, pv4_mul(x, b1));
            x = pv4_load_splat(x4 + 2);
            c20 = pv4_add(c20, pv4_mul(x, b0));
            c21 = pv4_add(c21, pv4_mul(x, b1));
            x = pv4_load_splat(x4 + 3);
            c30 = pv4_add(c30, pv4_mul(x, b0));
            c31 = pv4_add(c31, pv4_mul(x, b1));
        }
        float *o = out + (size_t)p * PW;
        pv4_store(o, pv4_mul(c00, sc));
        pv4_store(o + 4, pv4_mul(c01, sc));
        o += ostride;
        pv4_store(o, pv4_mul(c10, sc));
        pv4_store(o + 4, pv4_mul(c11, sc));
        o += ostride;
        pv4_store(o, pv4_mul(c20, sc));
        pv4_store(o + 4, pv4_mul(c21, sc));
        o += ostride;
        pv4_store(o, pv4_mul(c30, sc));
        pv4_store(o + 4, pv4_mul(c31, sc));
    }
}

void posenc__attn_kernel_qk_t(const float *qt, const float *b, int32_t np, int32_t dim, float scale,
                              float *out, size_t ostride) {
    kernel_qk_t(qt, b, np, dim, scale, out, ostride);
}

/* P (4 rows at the tile's constant stride TILE) times V packed per head into column panels
 * vp[c][j][8], so each key's 8 values are one 32-byte run: the panel streams sequentially
 * (strided [key][head][dim_v] rows thrashed L1 sets). The rows are constant offsets from one
 * pointer, for the same reason as in kernel_qk_t. */
static NOINLINE void kernel_pv_tile(const float *p, int32_t n, const float *vp, int32_t nc,
                                    size_t cstride, float *acc, size_t astride) {
    const float *const pend = p + n;
    for (int32_t c = 0; c < nc; c++) {
        float *a0 = acc + (size_t)c * PW, *a1 = a0 + astride, *a2 = a1 + astride,
              *a3 = a2 + astride;
        const float *vj = vp + (size_t)c * cstride;
        pv4 s00 = pv4_load(a0), s01 = pv4_load(a0 + 4);
        pv4 s10 = pv4_load(a1), s11 = pv4_load(a1 + 4);
        pv4 s20 = pv4_load(a2), s21 = pv4_load(a2 + 4);
        pv4 s30 = pv4_load(a3), s31 = pv4_load(a3 + 4);
        for (const float *pj = p; pj < pend; pj++, vj += PW) {
            const pv4 v0 = pv4_load(vj), v1 = pv4_load(vj + 4);
            pv4 x = pv4_load_splat(pj);
            s00 = pv4_add(s00, pv4_mul(x, v0));
            s01 = pv4_add(s01, pv4_mul(x, v1));
            x = pv4_load_splat(pj + TILE);
            s10 = pv4_add(s10, pv4_mul(x, v0));
            s11 = pv4_add(s11, pv4_mul(x, v1));
            x = pv4_load_splat(pj + 2 * TILE);
            s20 = pv4_add(s20, pv4_mul(x, v0));
            s21 = pv4_add(s21, pv4_mul(x, v1));
            x = pv4_load_splat(pj + 3 * TILE);
            s30 = pv4_add(s30, pv4_mul(x, v0));
            s31 = pv4_add(s31, pv4_mul(x, v1));
        }
        pv4_store(a0, s00);
        pv4_store(a0 + 4, s01);
        pv4_store(a1, s10);
        pv4_store(a1 + 4, s11);
        pv4_store(a2, s20);
        pv4_store(a2 + 4, s21);
        pv4_store(a3, s30);
        pv4_store(a3 + 4, s31);
    }
}

void posenc__attn_kernel_pv(const float *p, int32_t n, const float *vp, int32_t nc, size_t cstride,
                            float *acc, size_t astride) {
    kernel_pv_tile(p, n, vp, nc, cstride, acc, astride);
}

static float dot(const float *a, const float *b, int32_t n) {
    pv4 s = pv4_splat(0.0f);
    int32_t d = 0;
    for (; d + 4 <= n; d += 4) s = pv4_add(s, pv4_mul(pv4_load(a + d), pv4_load(b + d)));
    float t = pv4_hsum(s);
    for (; d < n; d++) t += a[d] * b[d];
    return t;
}

/* ---- one call's arguments and scratch plan ---- */

typedef struct {
    float *out, *weights;
    const float *q, *k, *v;
    int32_t Q, K, H, KVH, D, DV, offset;
    int32_t window; /* > 0: a key window or more positions from its query is masked */
    float scale;
    posenc_attention_mask mask;
    posenc_bias b; /* the caller's descriptor (a zeroed one for NULL) */
    /* A KV cache hands over its keys and values already in the packed layouts (capt slots per
     * kv head, see kvcache.c) and the running max |k|, |v| of what it stored, so a decode step
     * reads the cache exactly once. NULL kpk: k and v are [keys][kv_heads][dim] rows. */
    const float *kpk, *vpk;
    int32_t capt;
    double mk, mv; /* < 0: scan k and v */
} job;

/* The scratch buffers of a call: the plan's offset (plan), the pointer a block works with (ctx)
 * and the line that points one at the other (POINT_CTX in run_group) all come from this list, so
 * a bias kind's buffer is one entry of its declaration's `scratch` (POSENC__KIND_SCRATCH, in the
 * generated bias_kinds.h) plus its TAKE in its plan step.
 *   expk    the exp kernel's constants
 *   kp, vp  K and V of one kv group packed into panels (a KV cache hands over its own)
 *   qt, acc, tile, qs  a block's queries transposed, output accumulators, logits, query scales */
#include "bias_kinds.h"
/* clang-format off */
#define SCRATCH_BUFFERS(X)                                                                         \
    X(const posenc__expk, expk)                                                                    \
    X(float, kp) X(float, vp)                                                                      \
    X(float, qt) X(float, acc) X(float, tile) X(float, qs)                                         \
    POSENC__KIND_SCRATCH(X)
/* clang-format on */

typedef struct {
#define PLAN_FIELD(type, name) size_t name;
    SCRATCH_BUFFERS(PLAN_FIELD)
#undef PLAN_FIELD
    int64_t o; /* floats taken so far: the total once the plan is made */
} plan;

#define TAKE(pl, field, n) ((pl)->field = (size_t)(pl)->o, (pl)->o += (n))

static inline int64_t round8(int64_t x) { return (x + PW - 1) / PW * PW; }
static inline int64_t round_tile(int64_t x) { return (x + TILE - 1) / TILE * TILE; }

/* A block is 4 rows, each a (query, query head) pair of one kv group: 4 queries of one head
 * (prefill), or 4 heads of the group for one query (decode: the group's keys are then read
 * once for all its heads). */
typedef struct {
    int32_t nq;     /* rows that are real (short blocks repeat the last) */
    int32_t ii[QB]; /* query index of each block row */
    int32_t hh[QB]; /* query head of each row, and its index within the group */
    int32_t hl[QB];
    int64_t ipos[QB]; /* position of that query: ii + offset */
    int64_t lim[QB];  /* last visible key (may be < 0: the row sees nothing) */
    int64_t lo[QB];   /* first visible key (window, chunk; 0 without them) */
    const float *qrow[QB];
#define ROW_STATE(type, name) type name[QB]; /* a kind's per-row state (its row step sets it) */
    POSENC__KIND_ROW_STATE(ROW_STATE)
#undef ROW_STATE
    size_t vblock; /* floats per block of TILE keys of V (TILE * dim_v rounded to 8) */
#define CTX_FIELD(type, name) type *name;
    SCRATCH_BUFFERS(CTX_FIELD)
#undef CTX_FIELD
} ctx;

static inline int32_t clamp_i64(int64_t x, int32_t lo, int32_t hi) {
    return x < lo ? lo : x > hi ? hi : (int32_t)x;
}

/* ---- the bias kinds: one row of steps per kind of POSENC_BIAS_KINDS ----
 * Each fused kind's steps are its families/<family>/fused_<type>.h (none's are below), included
 * further down through the generated c_src/bias_kinds.h (tools/gen_kinds.js).
 * rows    the rows of its relative table from the descriptor alone (the scratch size is asked
 *         before the tables exist), 0 if none; E_ENUM if it cannot run on a packed KV cache
 * check   argument checks; *rel = rows of its relative table (the scratch plan), 0 if none
 * plan    the scratch it needs beyond the common plan (G = query heads per kv head)
 * values  the float32 bound of its terms (posenc.h POSENC_ATTENTION_ARGS): adds to the dot
 *         products per unit of dim, the largest positive bias and the value sum; E_PARAM
 *         when a table holds a non-finite number
 * setup   once per call, per group, per head (XL; NULL: blocks of 4 heads may share a query),
 *         per block of rows (NULL: nothing)
 * row     per block row (ALiBi's slope), NULL: nothing
 * add_<name> (not in the table: scores() switches on the kind so it is inlined) adds its
 *         terms into row r of a tile of logits (keys j0 .. j0+n-1), before the mask
 * prescaled  the kernel's q.k is scaled in its store (0: add scales, as XL adds before scaling) */
typedef struct {
    int32_t (*rows)(const posenc_bias *b, int packed, int64_t *rel);
    int32_t (*check)(const job *jb, int64_t *rel);
    void (*plan)(plan *pl, int64_t Q, int64_t K, int64_t D, int64_t rel, int64_t G);
    int32_t (*values)(const job *jb, int64_t rel, double mq, double mk, double *dots, double *bias,
                      double *extra_v);
    void (*call_setup)(const job *jb, const plan *pl, float *scratch);
    void (*group_setup)(const job *jb, ctx *cx, int32_t g);
    void (*head_setup)(const job *jb, ctx *cx, int32_t h, int32_t g);
    void (*block_setup)(const job *jb, ctx *cx);
    void (*row)(const job *jb, ctx *cx, int r);
    int prescaled;
} bias_ops;

/* NONE: an optional dense bias [heads][queries][keys] */
static int32_t rows_none(const posenc_bias *b, int packed, int64_t *rel) {
    (void)b, (void)packed, (void)rel;
    return POSENC_OK;
}
static int32_t check_none(const job *jb, int64_t *rel) {
    (void)rel;
    return jb->b.table && posenc__check_elems3(jb->H, jb->Q, jb->K) ? POSENC_E_SIZE : POSENC_OK;
}
static void plan_none(plan *pl, int64_t Q, int64_t K, int64_t D, int64_t rel, int64_t G) {
    (void)pl, (void)Q, (void)K, (void)D, (void)rel, (void)G;
}
static int32_t values_none(const job *jb, int64_t rel, double mq, double mk, double *dots,
                           double *bias, double *extra_v) {
    (void)rel, (void)mq, (void)mk, (void)dots, (void)extra_v;
    if (!jb->b.table) return POSENC_OK;
    const size_t n = (size_t)jb->H * jb->Q * jb->K;
    for (size_t i = 0; i < n; i++) {
        const float b = jb->b.table[i];
        if (!(b < INFINITY)) return POSENC_E_PARAM; /* NaN or +inf; -inf masks */
        if (b > *bias) *bias = b;
    }
    return POSENC_OK;
}
static inline void add_none(const job *jb, const ctx *cx, int r, float *t, int32_t j0, int32_t n) {
    if (!jb->b.table) return;
    const float *b = jb->b.table + ((size_t)cx->hh[r] * jb->Q + cx->ii[r]) * jb->K + j0;
    for (int32_t c = 0; c < n; c++) t[c] += b[c];
}

/* The fused kinds' own steps (families/<family>/fused_<kind>.h), and the defaults of the
 * optional ones a kind leaves out (its ROWS_, PLAN_, ..._SETUP_, ROW_, PRESCALED_<NAME>). */
#define POSENC__KIND_STEPS
#include "bias_kinds.h"
#undef POSENC__KIND_STEPS

#define POSENC__BIAS_OPS(NAME, name)                                                               \
    [POSENC_BIAS_##NAME] = {ROWS_##NAME,       check_##name,       PLAN_##NAME,                    \
                            values_##name,     CALL_SETUP_##NAME,  GROUP_SETUP_##NAME,             \
                            HEAD_SETUP_##NAME, BLOCK_SETUP_##NAME, ROW_##NAME,                     \
                            PRESCALED_##NAME},
/* One row per kind of POSENC_BIAS_KINDS, by construction: a kind without its check_<name> or
 * values_<name> is a compile error here, never a row of NULLs (and add_<name> in scores()). */
static const bias_ops BIAS_OPS[] = {POSENC_BIAS_KINDS(POSENC__BIAS_OPS)};

/* The plan of a call: the common buffers, then the kind's own. packed = keys and values
 * arrive packed (a KV cache); qscale = a per-query scale is given. */
static void make_plan(plan *pl, int64_t Q, int64_t K, int64_t D, int64_t DV,
                      posenc_attention_bias kind, int64_t rel, int64_t G, int packed, int qscale) {
    memset(pl, 0, sizeof *pl);
    TAKE(pl, expk, (int64_t)(sizeof(posenc__expk) / sizeof(float)));
    if (!packed) {
        TAKE(pl, kp, round8(K) * D);
        TAKE(pl, vp, round_tile(K) * round8(DV));
    }
    TAKE(pl, qt, QB * D);
    TAKE(pl, acc, QB * round8(DV));
    TAKE(pl, tile, QB * TILE);
    if (qscale) TAKE(pl, qs, QB * D);
    BIAS_OPS[kind].plan(pl, Q, K, D, rel, G);
}

static const posenc_bias NO_BIAS; /* zeroed: POSENC_BIAS_NONE without a table */

/* The kind-independent checks of a descriptor, then the kind's own (check), for the sizes. */
static int32_t check_bias(const job *jb, int64_t *rel) {
    if (jb->b.kind < 0 || jb->b.kind >= POSENC_BIAS_COUNT) return POSENC_E_ENUM;
    if (jb->b.chunk < 0 || jb->b.window < 0) return POSENC_E_PARAM;
    *rel = 0;
    return BIAS_OPS[jb->b.kind].check(jb, rel);
}

static int32_t scratch_size(int32_t *floats, int32_t queries, int32_t keys, int32_t heads,
                            int32_t kv_heads, int32_t dim, int32_t dim_v, const posenc_bias *bias,
                            int packed) {
    if (!floats) return POSENC_E_NULL;
    if (posenc__check_elems2(queries, dim) || posenc__check_elems2(keys, dim) ||
        posenc__check_elems2(keys, dim_v) || heads < 1 || kv_heads < 1 || heads % kv_heads)
        return POSENC_E_SIZE;
    job jb;
    memset(&jb, 0, sizeof jb);
    jb.Q = queries, jb.K = keys, jb.H = heads, jb.KVH = kv_heads, jb.D = dim, jb.DV = dim_v;
    jb.b = bias ? *bias : NO_BIAS;
    /* the sizes only: a descriptor's tables may come later (NULL here is fine) */
    if (jb.b.kind < 0 || jb.b.kind >= POSENC_BIAS_COUNT) return POSENC_E_ENUM;
    int64_t rel = 0;
    const int32_t st = BIAS_OPS[jb.b.kind].rows(&jb.b, packed, &rel);
    if (st) return st;
    plan pl;
    make_plan(&pl, queries, keys, dim, dim_v, jb.b.kind, rel, heads / kv_heads, packed,
              jb.b.query_scale != NULL);
    if (pl.o > POSENC_MAX_ELEMENTS) return POSENC_E_SIZE;
    *floats = (int32_t)pl.o;
    return POSENC_OK;
}

int32_t posenc_attention_gqa_scratch_size(int32_t *floats, int32_t queries, int32_t keys,
                                          int32_t heads, int32_t kv_heads, int32_t dim,
                                          int32_t dim_v, const posenc_bias *bias) {
    return scratch_size(floats, queries, keys, heads, kv_heads, dim, dim_v, bias, 0);
}

int32_t posenc_kvcache_scratch_size(int32_t *floats, int32_t queries, int32_t length, int32_t heads,
                                    int32_t kv_heads, int32_t dim, int32_t dim_v,
                                    const posenc_bias *bias) {
    return scratch_size(floats, queries, length, heads, kv_heads, dim, dim_v, bias, 1);
}

static int32_t validate(const job *jb, const float *scratch, int32_t scratch_floats, plan *pl) {
    if (!jb->out || !jb->q || !scratch) return POSENC_E_NULL;
    if (jb->kpk ? !jb->vpk : (!jb->k || !jb->v)) return POSENC_E_NULL;
    const int64_t Q = jb->Q, K = jb->K, H = jb->H, KVH = jb->KVH, D = jb->D, DV = jb->DV;
    if (KVH < 1 || H < 1 || H % KVH) return POSENC_E_SIZE;
    if (posenc__check_elems3(Q, H, D) || posenc__check_elems3(K, KVH, D) ||
        posenc__check_elems3(K, KVH, DV) || posenc__check_elems3(Q, H, DV))
        return POSENC_E_SIZE;
    if (jb->weights && posenc__check_elems3(H, Q, K)) return POSENC_E_SIZE;
    if (jb->mask != POSENC_MASK_NONE && jb->mask != POSENC_MASK_CAUSAL_TOP_LEFT &&
        jb->mask != POSENC_MASK_CAUSAL_BOTTOM_RIGHT)
        return POSENC_E_ENUM;
    if (jb->window < 0) return POSENC_E_PARAM;
    if (!posenc__finite(jb->scale)) return POSENC_E_PARAM;
    if (jb->offset < -(1 << 30) || jb->offset > (1 << 30)) return POSENC_E_PARAM;
    int64_t rel = 0;
    const int32_t st = check_bias(jb, &rel);
    if (st) return st;
    make_plan(pl, Q, K, D, DV, jb->b.kind, rel, H / KVH, jb->kpk != NULL,
              jb->b.query_scale != NULL);
    if (pl->o > POSENC_MAX_ELEMENTS || scratch_floats < pl->o) return POSENC_E_SCRATCH;
    /* Values: a NaN or infinity in the operands would turn into silent garbage, and so would
     * finite operands large enough to overflow float32 inside a logit or the exp-weighted sum of
     * V (+inf, then inf - inf = NaN). Bound every partial dot product (unscaled and scaled), add
     * the largest positive bias, and bound the accumulators by keys * max|v| (exp weights <= 1).
     * Negative biases may be any size: HF masks with -FLT_MAX, and a logit that rounds to -inf
     * is only masked, while s - max(s) rounding to -inf gives the weight 0 it nearly is. */
    double mq = posenc__max_abs(jb->q, (size_t)(Q * H * D));
    if (jb->b.query_scale) mq *= posenc__max_abs(jb->b.query_scale, (size_t)Q);
    const double mk = jb->mk >= 0 ? jb->mk : posenc__max_abs(jb->k, (size_t)(K * KVH * D));
    const double mv = jb->mv >= 0 ? jb->mv : posenc__max_abs(jb->v, (size_t)(K * KVH * DV));
    if (!(mq < INFINITY && mk < INFINITY && mv < INFINITY)) return POSENC_E_PARAM;
    double dots = mq * mk, bias = 0.0, extra_v = 0.0;
    if (BIAS_OPS[jb->b.kind].values(jb, rel, mq, mk, &dots, &bias, &extra_v)) return POSENC_E_PARAM;
    const double as = fabs((double)jb->scale) > 1.0 ? fabs((double)jb->scale) : 1.0;
    if ((double)D * dots * as + bias > POSENC__LOGIT_LIMIT ||
        (double)K * mv + extra_v > POSENC__LOGIT_LIMIT)
        return POSENC_E_PARAM;
    return POSENC_OK;
}

/* ---- the per-group loop ---- */

/* Logits of keys j0 .. j0+n-1 for the 4 block rows into cx->tile (row stride TILE); masked
 * entries and the pad up to a multiple of 4 are -INFINITY. j0 is a multiple of 8. */
static NOINLINE void scores(const job *jb, const ctx *cx, int32_t j0, int32_t n) {
    const bias_ops *ops = &BIAS_OPS[jb->b.kind];
    const int32_t D = jb->D;
    float *T = cx->tile;
    kernel_qk_t(cx->qt, cx->kp + (size_t)(j0 / PW) * D * PW, (n + PW - 1) / PW, D,
                ops->prescaled ? jb->scale : 1.0f, T, TILE);
    for (int r = 0; r < QB; r++) {
        float *t = T + (size_t)r * TILE;
        /* a switch made from the kind list rather than ops->add: each add_* is inlined here
         * (its loop is the hot part of this step) */
        switch (jb->b.kind) {
#define ADD_CASE(NAME, name)                                                                       \
    case POSENC_BIAS_##NAME:                                                                       \
        add_##name(jb, cx, r, t, j0, n);                                                           \
        break;
            POSENC_BIAS_KINDS(ADD_CASE)
#undef ADD_CASE
            default:
                break;
        }
        int32_t c;
        const int64_t first_masked = cx->lim[r] + 1 - j0;
        for (c = first_masked < 0 ? 0 : first_masked < n ? (int32_t)first_masked : n; c < n; c++)
            t[c] = -INFINITY;
        const int64_t before = cx->lo[r] - j0; /* keys left of the window or chunk */
        for (c = 0; c < before && c < n; c++) t[c] = -INFINITY;
        for (c = n; c % 4; c++) t[c] = -INFINITY;
    }
}

static NOINLINE float row_max(const float *t, int32_t n4) {
    pv4 m = pv4_splat(-INFINITY);
    for (int32_t c = 0; c < n4; c += 4) m = pv4_max(m, pv4_load(t + c));
    return pv4_hmax(m);
}

/* t[c] = exp(t[c] - m) over a multiple of 4, m >= every t[c]; returns the sum. kmem holds
 * posenc__expk in scratch memory (see posenc__expk: constants as loop-invariant locals, not
 * v128.const). */
static NOINLINE float exp_sum(float *t, int32_t n4, float m, const posenc__expk *kmem) {
    const posenc__expk k = *kmem;
    const pv4 mv = pv4_splat(m);
    pv4 s = pv4_splat(0.0f);
    for (int32_t c = 0; c < n4; c += 4) {
        const pv4 e = posenc__exp4k_nonpos(pv4_sub(pv4_load(t + c), mv), &k);
        pv4_store(t + c, e);
        s = pv4_add(s, e);
    }
    return pv4_hsum(s);
}

static inline float exp1(float x) {
    float r[4];
    pv4_store(r, posenc__exp4(pv4_splat(x)));
    return r[0];
}

static void shaw_mass(const job *jb, const ctx *cx, int r, const float *p, int32_t j0, int32_t n) {
    const int32_t kr = jb->b.max_relative;
    float *mass = cx->mass + (size_t)r * (2 * kr + 1);
    for (int32_t c = 0; c < n; c++) {
        const int64_t rp = j0 + c - cx->ipos[r];
        mass[clamp_i64(rp, -kr, kr) + kr] += p[c];
    }
}

static inline int64_t floor_div(int64_t a, int64_t b) {
    return a >= 0 ? a / b : -((-a + b - 1) / b);
}

/* Row r of the block is query i of head h (hl = h's index within its group). */
static inline void set_row(const job *jb, ctx *cx, int r, int32_t i, int32_t h, int32_t hl) {
    const int32_t K = jb->K, Q = jb->Q;
    cx->ii[r] = i;
    cx->hh[r] = h;
    cx->hl[r] = hl;
    const int64_t ip = (int64_t)i + jb->offset;
    cx->ipos[r] = ip;
    cx->qrow[r] = jb->q + ((size_t)i * jb->H + h) * jb->D;
    int64_t lim = K - 1, lo = 0;
    if (jb->mask == POSENC_MASK_CAUSAL_TOP_LEFT) lim = i;
    if (jb->mask == POSENC_MASK_CAUSAL_BOTTOM_RIGHT) lim = (int64_t)i + K - Q;
    if (jb->window > 0) { /* |ip - j| < window; the upper side only bites without a causal mask */
        if (ip - jb->window + 1 > lo) lo = ip - jb->window + 1;
        if (ip + jb->window - 1 < lim) lim = ip + jb->window - 1;
    }
    if (jb->b.chunk > 0) { /* keys of the query's own chunk of positions */
        const int64_t c0 = floor_div(ip, jb->b.chunk) * jb->b.chunk;
        if (c0 > lo) lo = c0;
        if (c0 + jb->b.chunk - 1 < lim) lim = c0 + jb->b.chunk - 1;
    }
    cx->lim[r] = lim < K - 1 ? lim : K - 1;
    cx->lo[r] = lo;
    if (BIAS_OPS[jb->b.kind].row) BIAS_OPS[jb->b.kind].row(jb, cx, r);
}

/* ---- one block of 4 rows: run_block and its steps ----
 * The steps are ALWAYS_INLINE, so run_block compiles to the one function it was written as,
 * while the kernels and per-tile steps it calls (scores, row_max, exp_sum, kernel_pv_tile) stay
 * NOINLINE, as the note at the top says. The loops over tiles and rows stay in run_block: a
 * step holding a loop that tests R (Shaw or not) is optimised alone before it is inlined, and
 * there LLVM unswitches the loop into a copy per case (1.3 kB more wasm for the same work);
 * among run_block's many loops the cost of that copy is judged too high. */

/* Exact path, first step: the logits of keys 0 .. jend-1 into the caller's weights rows. */
ALWAYS_INLINE void exact_logits(const job *jb, ctx *cx, float *const wrow[QB], int32_t jend) {
    for (int32_t j0 = 0; j0 < jend; j0 += TILE) {
        const int32_t n = jend - j0 < TILE ? jend - j0 : TILE;
        scores(jb, cx, j0, n);
        for (int r = 0; r < cx->nq; r++)
            memcpy(wrow[r] + j0, cx->tile + (size_t)r * TILE, sizeof(float) * n);
    }
}

/* Exact path, second step: the exact softmax of one weights row w in place (keys from jend on
 * are masked for every row: weight 0). Returns 0, the row all zeros, when it sees no key. */
ALWAYS_INLINE int exact_softmax_row(const ctx *cx, float *w, int32_t K, int32_t jend) {
    float mx = -INFINITY;
    for (int32_t j = 0; j < jend; j++) mx = w[j] > mx ? w[j] : mx;
    if (mx == -INFINITY) {
        memset(w, 0, sizeof(float) * K);
        return 0;
    }
    const int32_t n4 = jend / 4 * 4;
    float sum = exp_sum(w, n4, mx, cx->expk);
    for (int32_t j = n4; j < jend; j++) sum += (w[j] = exp1(w[j] - mx));
    const float inv = 1.0f / sum;
    for (int32_t j = 0; j < jend; j++) w[j] *= inv;
    memset(w + jend, 0, sizeof(float) * (size_t)(K - jend));
    return 1;
}

/* Both paths, per tile of keys j0 .. j0+n-1: the weights in cx->tile (4 rows at stride TILE)
 * times the tile's block of V into the accumulators, and Shaw's value mass from prow. */
ALWAYS_INLINE void tile_pv(const job *jb, ctx *cx, const float *const prow[QB], int32_t j0,
                           int32_t n, int32_t nc, int32_t DV8, int32_t R) {
    kernel_pv_tile(cx->tile, n, cx->vp + (size_t)(j0 / TILE) * cx->vblock, nc, (size_t)TILE * PW,
                   cx->acc, DV8);
    if (R)
        for (int r = 0; r < cx->nq; r++) shaw_mass(jb, cx, r, prow[r], j0, n);
}

/* Exact path, third step, for one tile: the weights rows' keys j0 .. j0+n-1 into the tile,
 * then P V. */
ALWAYS_INLINE void exact_tile_pv(const job *jb, ctx *cx, float *const wrow[QB], int32_t j0,
                                 int32_t n, int32_t nc, int32_t DV8, int32_t R) {
    /* the kernel wants its rows at the tile's stride: copying 4 x n is cheap
     * next to the 4 x n x dim_v multiply-adds */
    const float *prow[QB];
    for (int r = 0; r < QB; r++) {
        prow[r] = wrow[r] + j0;
        memcpy(cx->tile + (size_t)r * TILE, prow[r], sizeof(float) * n);
    }
    tile_pv(jb, cx, prow, j0, n, nc, DV8, R);
}

/* Tiled path, row r of a tile of logits (n4 of them): one online-softmax step. The logits
 * become exp(t - m_new) in place; when the running max m grows, the output accumulated so far
 * (and Shaw's value mass) is multiplied by exp(m_old - m_new), and the running sum l with it. */
ALWAYS_INLINE void online_softmax_row(ctx *cx, int r, int32_t n4, int32_t DV8, int32_t R, float *m,
                                      float *l) {
    float *t = cx->tile + (size_t)r * TILE;
    const float mx = row_max(t, n4);
    const float mnew = mx > m[r] ? mx : m[r];
    if (mnew == -INFINITY) { /* nothing visible yet: weights stay 0 */
        memset(t, 0, sizeof(float) * n4);
        return;
    }
    const float sum = exp_sum(t, n4, mnew, cx->expk);
    /* once the running max settles most tiles leave it unchanged: no rescale */
    const float corr = mnew == m[r] ? 1.0f : exp1(m[r] - mnew); /* 0 if m was -inf */
    if (corr != 1.0f) {
        float *a = cx->acc + (size_t)r * DV8;
        const pv4 cv = pv4_splat(corr);
        for (int32_t c = 0; c < DV8; c += 4) pv4_store(a + c, pv4_mul(pv4_load(a + c), cv));
        if (R) {
            float *ms = cx->mass + (size_t)r * R;
            for (int32_t b = 0; b < R; b++) ms[b] *= corr;
        }
    }
    l[r] = l[r] * corr + sum;
    m[r] = mnew;
}

/* Row r of the block into out: the accumulated P V over the softmax sum lr, plus Shaw's value
 * term; a fully masked row (lr = 0) is zeros. */
ALWAYS_INLINE void output_row(const job *jb, const ctx *cx, int r, float lr, int32_t H, int32_t DV,
                              int32_t DV8, int32_t R) {
    float *o = jb->out + ((size_t)cx->ii[r] * H + cx->hh[r]) * DV;
    const float *a = cx->acc + (size_t)r * DV8;
    if (lr == 0.0f) { /* a fully masked row */
        memset(o, 0, sizeof(float) * DV);
        return;
    }
    const float inv = 1.0f / lr;
    for (int32_t c = 0; c < DV; c++) o[c] = a[c] * inv;
    if (R) { /* Shaw's value term: sum_j p_ij aV[idx] = sum_b mass_b aV[b] */
        const float *ms = cx->mass + (size_t)r * R;
        for (int32_t b = 0; b < R; b++) {
            const float wb = ms[b] * inv;
            if (wb == 0.0f) continue;
            const float *avb = jb->b.a_v + (size_t)b * DV;
            for (int32_t c = 0; c < DV; c++) o[c] += wb * avb[c];
        }
    }
}

/* The block's 4 rows against the group's keys: queries packed, then the exact path (weights
 * asked for: logits into the weights rows, row softmax, then P V) or the tiled path (online
 * softmax, nothing of size queries x keys), then the rows of out. */
static NOINLINE void run_block(const job *jb, ctx *cx) {
    const int32_t Q = jb->Q, K = jb->K, H = jb->H, D = jb->D, DV = jb->DV;
    const int32_t nc = (DV + PW - 1) / PW, DV8 = nc * PW;
    const bias_ops *ops = &BIAS_OPS[jb->b.kind];
    /* Shaw's value term: mass per clipped relative position, applied to a_v at the end */
    const int32_t R = jb->b.kind == POSENC_BIAS_SHAW ? 2 * jb->b.max_relative + 1 : 0;
    int64_t maxlim = -1, minlo = K;
    for (int r = 0; r < QB; r++) {
        if (cx->lim[r] > maxlim) maxlim = cx->lim[r];
        if (cx->lo[r] < minlo) minlo = cx->lo[r];
    }
    /* keys beyond jend are masked for every row, and so are keys before jstart */
    const int32_t jend = (int32_t)(maxlim + 1);
    const int32_t jstart = minlo >= jend ? 0 : (int32_t)(minlo / TILE * TILE); /* V block aligned */
    if (jb->b.query_scale) /* the scaled queries stand in for q from here on */
        for (int r = 0; r < QB; r++) {
            float *qs = cx->qs + (size_t)r * D;
            const float f = jb->b.query_scale[cx->ii[r]];
            for (int32_t d = 0; d < D; d++) qs[d] = cx->qrow[r][d] * f;
            cx->qrow[r] = qs;
        }
    for (int32_t d = 0; d < D; d++) /* transposed, qt[d][4], for kernel_qk_t */
        for (int r = 0; r < QB; r++) cx->qt[(size_t)d * QB + r] = cx->qrow[r][d];
    if (ops->block_setup) ops->block_setup(jb, cx);
    memset(cx->acc, 0, sizeof(float) * QB * (size_t)DV8);
    float m[QB], l[QB];
    for (int r = 0; r < QB; r++) m[r] = -INFINITY, l[r] = 0.0f;

    if (jb->weights) {
        float *wrow[QB];
        for (int r = 0; r < QB; r++)
            wrow[r] = jb->weights + ((size_t)cx->hh[r] * Q + cx->ii[r]) * K;
        exact_logits(jb, cx, wrow, jend);
        for (int r = 0; r < cx->nq; r++) /* l = 1: the weights already sum to 1 */
            if (exact_softmax_row(cx, wrow[r], K, jend)) l[r] = 1.0f;
        for (int32_t j0 = 0; j0 < jend; j0 += TILE)
            exact_tile_pv(jb, cx, wrow, j0, jend - j0 < TILE ? jend - j0 : TILE, nc, DV8, R);
    } else {
        for (int32_t j0 = jstart; j0 < jend; j0 += TILE) {
            const int32_t n = jend - j0 < TILE ? jend - j0 : TILE, n4 = (n + 3) / 4 * 4;
            scores(jb, cx, j0, n);
            for (int r = 0; r < QB; r++) online_softmax_row(cx, r, n4, DV8, R, m, l);
            const float *prow[QB] = {cx->tile, cx->tile + TILE, cx->tile + 2 * TILE,
                                     cx->tile + 3 * TILE};
            tile_pv(jb, cx, prow, j0, n, nc, DV8, R);
        }
    }
    for (int r = 0; r < cx->nq; r++) output_row(jb, cx, r, l[r], H, DV, DV8, R);
}

/* Pack n rows of width w (row j at src + j*stride) into panels of 8 transposed,
 * dst[p][d][c] = row 8p + c, element d; rows beyond n are zero. */
static void pack_k(float *dst, const float *src, size_t stride, int32_t n, int32_t w) {
    const int32_t panels = (n + PW - 1) / PW;
    for (int32_t p = 0; p < panels; p++)
        for (int32_t c = 0; c < PW; c++) {
            const int32_t j = p * PW + c;
            float *o = dst + (size_t)p * w * PW + c;
            const float *s = src + (size_t)j * stride;
            for (int32_t d = 0; d < w; d++) o[(size_t)d * PW] = j < n ? s[d] : 0.0f;
        }
}

/* Pack n rows of width w into blocks of TILE keys, each block column panels of 8:
 * dst[j / TILE][c][j % TILE][8] (posenc__kv_v_index), zero-padded columns. A tile of P V then
 * streams one contiguous block (column panels a whole cache apart cost TLB and prefetch
 * streams on long caches). */
static void pack_v(float *dst, const float *src, size_t stride, int32_t n, int32_t w) {
    for (int32_t j = 0; j < n; j++)
        for (int32_t d = 0; d < (int32_t)round8(w); d++)
            dst[posenc__kv_v_index(j, d, w)] = d < w ? src[(size_t)j * stride + d] : 0.0f;
}

static NOINLINE void run_group(const job *jb, const plan *pl, float *scratch, int32_t g) {
    const int32_t Q = jb->Q, K = jb->K, H = jb->H, KVH = jb->KVH, D = jb->D, DV = jb->DV;
    const int32_t G = H / KVH, nc = (DV + PW - 1) / PW;
    ctx cx;
    memset(&cx, 0, sizeof cx);
    const bias_ops *ops = &BIAS_OPS[jb->b.kind];
    /* every buffer of the plan; a buffer a call did not take points at offset 0, unused */
#define POINT_CTX(type, name) cx.name = (type *)(void *)(scratch + pl->name);
    SCRATCH_BUFFERS(POINT_CTX)
#undef POINT_CTX

    cx.vblock = (size_t)TILE * nc * PW;
    if (jb->kpk) {
        cx.kp = (float *)jb->kpk + (size_t)g * jb->capt * D;
        cx.vp = (float *)jb->vpk + (size_t)g * nc * jb->capt * PW;
    } else {
        /* pack K_g and V_g once for every query head of the group */
        pack_k(cx.kp, jb->k + (size_t)g * D, (size_t)KVH * D, K, D);
        pack_v(cx.vp, jb->v + (size_t)g * DV, (size_t)KVH * DV, K, DV);
    }
    if (ops->group_setup) ops->group_setup(jb, &cx, g);

    /* Blocks over (query, head) rows: 4 queries of one head, or 4 heads of one query,
     * whichever needs fewer blocks (decode: 1 query, 4 heads; the group's keys are read once). */
    const int64_t by_query = (int64_t)G * ((Q + QB - 1) / QB);
    const int64_t by_head = (int64_t)Q * ((G + QB - 1) / QB);
    if (!ops->head_setup && by_head < by_query) {
        for (int32_t i = 0; i < Q; i++)
            for (int32_t h0 = 0; h0 < G; h0 += QB) {
                cx.nq = G - h0 < QB ? G - h0 : QB;
                for (int r = 0; r < QB; r++) {
                    const int32_t hl = h0 + (r < cx.nq ? r : cx.nq - 1);
                    set_row(jb, &cx, r, i, g * G + hl, hl);
                }
                run_block(jb, &cx);
            }
        return;
    }
    for (int32_t hl = 0; hl < G; hl++) {
        const int32_t h = g * G + hl;
        if (ops->head_setup) ops->head_setup(jb, &cx, h, g);
        for (int32_t i0 = 0; i0 < Q; i0 += QB) {
            cx.nq = Q - i0 < QB ? Q - i0 : QB;
            for (int r = 0; r < QB; r++)
                set_row(jb, &cx, r, i0 + (r < cx.nq ? r : cx.nq - 1), h, hl);
            run_block(jb, &cx);
        }
    }
}

static int32_t attend(job *jb, double scale, float *scratch, int32_t scratch_floats) {
    if (!posenc__finite(scale) || fabs(scale) > 3.0e38) return POSENC_E_PARAM;
    jb->scale = (float)scale;
    /* the descriptor's window and a KV cache's own: both mask, so the narrower one counts */
    if (jb->b.window > 0 && (jb->window == 0 || jb->b.window < jb->window))
        jb->window = jb->b.window;
    plan pl;
    int32_t st = validate(jb, scratch, scratch_floats, &pl);
    if (st) return st;
    const posenc__expk k = posenc__expk_make();
    memcpy(scratch + pl.expk, &k, sizeof k);
    if (BIAS_OPS[jb->b.kind].call_setup) BIAS_OPS[jb->b.kind].call_setup(jb, &pl, scratch);
    for (int32_t g = 0; g < jb->KVH; g++) run_group(jb, &pl, scratch, g);
    return POSENC_OK;
}

int32_t posenc_attention_gqa(POSENC_ATTENTION_ARGS, int32_t kv_heads, const posenc_bias *bias) {
    job jb;
    memset(&jb, 0, sizeof jb);
    jb.out = out, jb.weights = weights, jb.q = q, jb.k = k, jb.v = v;
    jb.Q = queries, jb.K = keys, jb.H = heads, jb.KVH = kv_heads, jb.D = dim, jb.DV = dim_v;
    jb.mask = mask, jb.offset = offset, jb.mk = -1.0, jb.mv = -1.0;
    jb.b = bias ? *bias : NO_BIAS;
    return attend(&jb, scale, scratch, scratch_floats);
}

/* ---- the KV cache (layout and appends in kvcache.c) ---- */

int32_t posenc_kvcache_attend(POSENC_KVCACHE_ARGS, const posenc_bias *bias) {
    if (!state) return POSENC_E_NULL;
    /* The cache geometry must be one posenc_kvcache_size accepts (it sized kc and vc): checking
     * only length * kv_heads * dim would let a capacity whose cache exceeds POSENC_MAX_ELEMENTS
     * through, and the kernels would index past any buffer a caller can have. */
    if (capacity < 1 || capacity > POSENC_MAX_ELEMENTS || length < 1 || length > capacity ||
        queries < 1 || queries > length)
        return POSENC_E_SIZE;
    int32_t nk, nv;
    const int32_t sz = posenc_kvcache_size(&nk, &nv, kv_heads, dim, dim_v, capacity);
    if (sz) return sz;
    job jb;
    memset(&jb, 0, sizeof jb);
    jb.out = out, jb.q = q, jb.kpk = kc, jb.vpk = vc, jb.capt = (int32_t)round_tile(capacity);
    jb.Q = queries, jb.K = length, jb.H = heads, jb.KVH = kv_heads, jb.D = dim, jb.DV = dim_v;
    jb.mask = POSENC_MASK_CAUSAL_BOTTOM_RIGHT, jb.offset = length - queries;
    jb.window = window, jb.mk = state[0], jb.mv = state[1];
    if (!(jb.mk >= 0 && jb.mv >= 0)) return POSENC_E_PARAM;
    jb.b = bias ? *bias : NO_BIAS;
    return attend(&jb, scale, scratch, scratch_floats);
}

/* ---- projections ---- */

int32_t posenc_matmul(float *out, const float *a, const float *b, int32_t m, int32_t kdim,
                      int32_t n) {
    if (!out || !a || !b) return POSENC_E_NULL;
    if (posenc__check_elems2(m, kdim) || posenc__check_elems2(kdim, n) ||
        posenc__check_elems2(m, n))
        return POSENC_E_SIZE;
    /* finite, and no partial sum can overflow float32 (|sum| <= kdim * max|a| * max|b|) */
    const double ma = posenc__max_abs(a, (size_t)m * kdim),
                 mb = posenc__max_abs(b, (size_t)kdim * n);
    if (!(ma < INFINITY && mb < INFINITY) || (double)kdim * ma * mb > POSENC__LOGIT_LIMIT)
        return POSENC_E_PARAM;
    enum { NPAN = 8 };
    float tmp[QB * NPAN * PW];
    const int32_t nfull = n / PW * PW;
    for (int32_t i0 = 0; i0 < m; i0 += QB) {
        const int32_t nq = m - i0 < QB ? m - i0 : QB;
        const float *rows[QB];
        for (int r = 0; r < QB; r++) rows[r] = a + (size_t)(i0 + (r < nq ? r : nq - 1)) * kdim;
        for (int32_t c0 = 0; c0 < nfull; c0 += NPAN * PW) {
            const int32_t np = (nfull - c0) / PW < NPAN ? (nfull - c0) / PW : NPAN;
            posenc__attn_kernel_qk(rows, b + c0, np, kdim, PW, (size_t)n, 1.0f, tmp, NPAN * PW);
            for (int r = 0; r < nq; r++)
                memcpy(out + (size_t)(i0 + r) * n + c0, tmp + r * NPAN * PW,
                       sizeof(float) * (size_t)np * PW);
        }
        for (int r = 0; r < nq; r++)
            for (int32_t c = nfull; c < n; c++) {
                float s = 0.0f;
                for (int32_t d = 0; d < kdim; d++) s += rows[r][d] * b[(size_t)d * n + c];
                out[(size_t)(i0 + r) * n + c] = s;
            }
    }
    return POSENC_OK;
}
