/*
 * attention.c -- multi-head scaled dot-product attention (docs/attention.md) with the positional
 * biases of sections 4-6 fused into the loop.
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
#define QB 4 /* queries per block */
#define PW 8 /* keys per panel */
#define GW (TILE + 32) /* XL position-term tile: a tile spans TILE + 3 rows of r, panel-aligned */

/* The kernels and per-tile steps stay separate functions: inlined into one huge body, V8's
 * register allocator spills the micro-kernels' accumulators (measured 13.5 ms -> 10.5 ms for
 * 1024 x 64 with NOINLINE). */
#define NOINLINE __attribute__((noinline))

/* ---- micro-kernels ---- */

/* Inlined into callers that pass a constant drow (the packed panels: drow = 8), so the inner
 * loop walks b with one pointer increment and no multiply. */
static inline __attribute__((always_inline)) void
kernel_qk(const float *const a[4], const float *b, int32_t np, int32_t dim, size_t pstride,
          size_t drow, float scale, float *out, size_t ostride) {
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

void posenc__attn_kernel_qk_t(const float *qt, const float *b, int32_t np, int32_t dim,
                              float scale, float *out, size_t ostride) {
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
        float *a0 = acc + (size_t)c * PW, *a1 = a0 + astride, *a2 = a1 + astride, *a3 = a2 + astride;
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

void posenc__attn_kernel_pv(const float *p, int32_t n, const float *vp, int32_t nc,
                            size_t cstride, float *acc, size_t astride) {
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
    int32_t window;       /* > 0: a key more than window-1 positions before its query is masked */
    float scale;
    posenc_attention_mask mask;
    posenc_attention_bias kind;
    const float *dense;
    posenc_alibi_form form;
    const float *t5;
    int32_t bidir, nb, maxd;
    const float *ak, *av;
    int32_t kr;
    const float *u, *vb, *r;
    int32_t rrows;
    /* A KV cache hands over its keys and values already in the packed layouts (capt slots per
     * kv head, see kvcache.c) and the running max |k|, |v| of what it stored, so a decode step
     * reads the cache exactly once. NULL kpk: k and v are [keys][kv_heads][dim] rows. */
    const float *kpk, *vpk;
    int32_t capt;
    double mk, mv; /* < 0: scan k and v */
} job;

typedef struct {
    size_t expk, kp, vp, qt, acc, tile, t5b, t5, qak, mass, rp, uk, qv, g;
    int64_t total;
} plan;

static inline int64_t round8(int64_t x) { return (x + PW - 1) / PW * PW; }
static inline int64_t round_tile(int64_t x) { return (x + TILE - 1) / TILE * TILE; }

/* G = query heads per kv head; packed = keys and values arrive packed (a KV cache) */
static void make_plan(plan *pl, int64_t Q, int64_t K, int64_t D, int64_t DV,
                      posenc_attention_bias kind, int64_t rel, int64_t G, int packed) {
    int64_t o = 0;
    memset(pl, 0, sizeof *pl);
#define TAKE(field, n) (pl->field = (size_t)o, o += (n))
    TAKE(expk, (int64_t)(sizeof(posenc__expk) / sizeof(float)));
    if (!packed) {
        TAKE(kp, round8(K) * D);
        TAKE(vp, round_tile(K) * round8(DV));
    }
    TAKE(qt, QB * D);
    TAKE(acc, QB * round8(DV));
    TAKE(tile, QB * TILE);
    if (kind == POSENC_BIAS_T5) {
        TAKE(t5b, Q + K - 1); /* bucket per relative position, shared by the group's heads */
        TAKE(t5, G * (Q + K - 1));
    }
    if (kind == POSENC_BIAS_SHAW) {
        TAKE(qak, QB * (2 * rel + 1));
        TAKE(mass, QB * (2 * rel + 1));
    }
    if (kind == POSENC_BIAS_XL) {
        TAKE(rp, (rel + PW - 1) / PW * PW * D);
        TAKE(uk, K);
        TAKE(qv, QB * D);
        TAKE(g, QB * GW);
    }
#undef TAKE
    pl->total = o;
}

static int32_t scratch_size(int32_t *floats, int32_t queries, int32_t keys, int32_t heads,
                            int32_t kv_heads, int32_t dim, int32_t dim_v,
                            posenc_attention_bias bias, int32_t rel, int packed) {
    if (!floats) return POSENC_E_NULL;
    if (posenc__check_elems2(queries, dim) || posenc__check_elems2(keys, dim) ||
        posenc__check_elems2(keys, dim_v) || heads < 1 || kv_heads < 1 || heads % kv_heads)
        return POSENC_E_SIZE;
    if (bias < POSENC_BIAS_NONE || bias > POSENC_BIAS_XL) return POSENC_E_ENUM;
    if ((bias == POSENC_BIAS_SHAW || bias == POSENC_BIAS_XL) &&
        (rel < 1 || rel > POSENC_MAX_ELEMENTS))
        return POSENC_E_SIZE;
    plan pl;
    make_plan(&pl, queries, keys, dim, dim_v, bias, rel, heads / kv_heads, packed);
    if (pl.total > POSENC_MAX_ELEMENTS) return POSENC_E_SIZE;
    *floats = (int32_t)pl.total;
    return POSENC_OK;
}

int32_t posenc_attention_scratch_size(int32_t *floats, int32_t queries, int32_t keys,
                                      int32_t dim, int32_t dim_v, posenc_attention_bias bias,
                                      int32_t rel) {
    return scratch_size(floats, queries, keys, 1, 1, dim, dim_v, bias, rel, 0);
}

int32_t posenc_attention_gqa_scratch_size(int32_t *floats, int32_t queries, int32_t keys,
                                          int32_t heads, int32_t kv_heads, int32_t dim,
                                          int32_t dim_v, posenc_attention_bias bias,
                                          int32_t rel) {
    return scratch_size(floats, queries, keys, heads, kv_heads, dim, dim_v, bias, rel, 0);
}

int32_t posenc_kvcache_scratch_size(int32_t *floats, int32_t queries, int32_t length,
                                    int32_t heads, int32_t kv_heads, int32_t dim, int32_t dim_v,
                                    posenc_attention_bias bias, int32_t rel) {
    if (bias == POSENC_BIAS_XL) return POSENC_E_ENUM;
    return scratch_size(floats, queries, length, heads, kv_heads, dim, dim_v, bias, rel, 1);
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
    switch (jb->kind) {
    case POSENC_BIAS_NONE:
        if (jb->dense && posenc__check_elems3(H, Q, K)) return POSENC_E_SIZE;
        break;
    case POSENC_BIAS_ALIBI:
        if (jb->form != POSENC_ALIBI_RELATIVE &&
            jb->form != POSENC_ALIBI_SYMMETRIC &&
            jb->form != POSENC_ALIBI_REFERENCE)
            return POSENC_E_ENUM;
        break;
    case POSENC_BIAS_T5: {
        if (!jb->t5) return POSENC_E_NULL;
        if (posenc__check_elems2(jb->nb, H)) return POSENC_E_SIZE;
        const int32_t half = jb->bidir ? jb->nb / 2 : jb->nb;
        if (jb->nb < (jb->bidir ? 4 : 2)) return POSENC_E_SIZE;
        if (jb->maxd <= half / 2) return POSENC_E_PARAM;
        break;
    }
    case POSENC_BIAS_SHAW:
        if (!jb->ak || !jb->av) return POSENC_E_NULL;
        if (jb->kr < 1 || jb->kr >= (1 << 27)) return POSENC_E_SIZE;
        rel = jb->kr;
        if (posenc__check_elems2(2 * rel + 1, D) || posenc__check_elems2(2 * rel + 1, DV))
            return POSENC_E_SIZE;
        break;
    case POSENC_BIAS_XL:
        if (jb->kpk) return POSENC_E_ENUM;
        if (!jb->u || !jb->vb || !jb->r) return POSENC_E_NULL;
        if (posenc__check_elems3(jb->rrows, H, D)) return POSENC_E_SIZE;
        rel = jb->rrows;
        break;
    default:
        return POSENC_E_ENUM;
    }
    make_plan(pl, Q, K, D, DV, jb->kind, rel, H / KVH, jb->kpk != NULL);
    if (pl->total > POSENC_MAX_ELEMENTS || scratch_floats < pl->total) return POSENC_E_SCRATCH;
    /* Values: a NaN or infinity in the operands would turn into silent garbage, and so would
     * finite operands large enough to overflow float32 inside a logit or the exp-weighted sum of
     * V (+inf, then inf - inf = NaN). Bound every partial dot product (unscaled and scaled), add
     * the largest positive bias, and bound the accumulators by keys * max|v| (exp weights <= 1).
     * Negative biases may be any size: HF masks with -FLT_MAX, and a logit that rounds to -inf
     * is only masked, while s - max(s) rounding to -inf gives the weight 0 it nearly is. */
    const double mq = posenc__max_abs(jb->q, (size_t)(Q * H * D));
    const double mk = jb->mk >= 0 ? jb->mk : posenc__max_abs(jb->k, (size_t)(K * KVH * D));
    const double mv = jb->mv >= 0 ? jb->mv : posenc__max_abs(jb->v, (size_t)(K * KVH * DV));
    if (!(mq < INFINITY && mk < INFINITY && mv < INFINITY)) return POSENC_E_PARAM;
    double dots = mq * mk, bias = 0.0, extra_v = 0.0;
    if (jb->kind == POSENC_BIAS_NONE && jb->dense) {
        const size_t n = (size_t)(H * Q * K);
        for (size_t i = 0; i < n; i++) {
            const float b = jb->dense[i];
            if (!(b < INFINITY)) return POSENC_E_PARAM; /* NaN or +inf; -inf masks */
            if (b > bias) bias = b;
        }
    }
    if (jb->kind == POSENC_BIAS_ALIBI) bias = 4.0e9; /* slope < 1, |rp| and j < 2^32 */
    if (jb->kind == POSENC_BIAS_T5) {
        const size_t n = (size_t)jb->nb * (size_t)H;
        if (!(posenc__max_abs(jb->t5, n) < INFINITY)) return POSENC_E_PARAM;
        for (size_t i = 0; i < n; i++)
            if (jb->t5[i] > bias) bias = jb->t5[i];
    }
    if (jb->kind == POSENC_BIAS_SHAW) {
        const double mak = posenc__max_abs(jb->ak, (size_t)(2 * rel + 1) * (size_t)D);
        extra_v = posenc__max_abs(jb->av, (size_t)(2 * rel + 1) * (size_t)DV);
        if (!(mak < INFINITY && extra_v < INFINITY)) return POSENC_E_PARAM;
        dots += mq * mak;
    }
    if (jb->kind == POSENC_BIAS_XL) {
        const double mu = posenc__max_abs(jb->u, (size_t)(H * D));
        const double mvb = posenc__max_abs(jb->vb, (size_t)(H * D));
        const double mr = posenc__max_abs(jb->r, (size_t)(rel * H * D));
        if (!(mu < INFINITY && mvb < INFINITY && mr < INFINITY)) return POSENC_E_PARAM;
        dots = (mq + mu) * mk + (mq + mvb) * mr;
    }
    const double as = fabs((double)jb->scale) > 1.0 ? fabs((double)jb->scale) : 1.0;
    if ((double)D * dots * as + bias > POSENC__LOGIT_LIMIT ||
        (double)K * mv + extra_v > POSENC__LOGIT_LIMIT)
        return POSENC_E_PARAM;
    return POSENC_OK;
}

/* ---- the per-group loop ---- */

/* A block is 4 rows, each a (query, query head) pair of one kv group: 4 queries of one head
 * (prefill), or 4 heads of the group for one query (decode: the group's keys are then read
 * once for all its heads). */
typedef struct {
    int32_t nq;           /* rows that are real (short blocks repeat the last) */
    int32_t ii[QB];       /* query index of each block row */
    int32_t hh[QB];       /* query head of each row, and its index within the group */
    int32_t hl[QB];
    int64_t ipos[QB];     /* position of that query: ii + offset */
    int64_t lim[QB];      /* last visible key (may be < 0: the row sees nothing) */
    int64_t lo[QB];       /* first visible key (the sliding window; 0 without one) */
    const float *qrow[QB];
    double slope[QB];     /* ALiBi, float64 so the fused bias rounds once, as posenc_alibi_bias */
    int64_t aref[QB];     /* ALiBi: the visible key with the largest bias (RELATIVE, REFERENCE),
                           * or its distance |j - ipos| (SYMMETRIC) */
    const posenc__expk *expk;
    size_t vblock;        /* floats per block of TILE keys of V (TILE * dim_v rounded to 8) */
    float *kp, *vp, *qt, *tile, *t5, *qak, *mass, *rp, *uk, *qv, *g, *acc;
    const int32_t *t5b;
} ctx;

static inline int32_t clamp_i64(int64_t x, int32_t lo, int32_t hi) {
    return x < lo ? lo : x > hi ? hi : (int32_t)x;
}

/* Logits of keys j0 .. j0+n-1 for the 4 block rows into cx->tile (row stride TILE); masked
 * entries and the pad up to a multiple of 4 are -INFINITY. j0 is a multiple of 8. */
static NOINLINE void scores(const job *jb, const ctx *cx, int32_t j0, int32_t n) {
    const int32_t D = jb->D, K = jb->K, np = (n + PW - 1) / PW;
    float *T = cx->tile;
    /* XL adds its terms before scaling; everything else is scaled in the kernel's store */
    const float scale = jb->scale, kscale = jb->kind == POSENC_BIAS_XL ? 1.0f : scale;
    kernel_qk_t(cx->qt, cx->kp + (size_t)(j0 / PW) * D * PW, np, D, kscale, T, TILE);
    if (jb->kind == POSENC_BIAS_XL) {
        /* content bias u.k_j, then the position term (q_i + v).r[c], c = j + K-1 - ipos: the four
         * rows (one head, ascending queries) need r rows [a, b], computed once for all of them
         * on panel-aligned rows. */
        const int32_t last = jb->rrows - 1;
        const int32_t a = clamp_i64(j0 + (int64_t)K - 1 - cx->ipos[QB - 1], 0, last);
        const int32_t b = clamp_i64(j0 + (int64_t)n - 1 + K - 1 - cx->ipos[0], 0, last);
        const int32_t pa = a / PW, pb = b / PW;
        kernel_qk_t(cx->qv, cx->rp + (size_t)pa * D * PW, pb - pa + 1, D, 1.0f, cx->g, GW);
        for (int r = 0; r < QB; r++)
            for (int32_t c = 0; c < n; c++) {
                const int64_t j = j0 + c;
                const int32_t row = clamp_i64(j + K - 1 - cx->ipos[r], 0, last);
                float *t = &T[r * TILE + c];
                *t = (*t + cx->uk[j] + cx->g[r * GW + row - pa * PW]) * scale;
            }
    }
    for (int r = 0; r < QB; r++) {
        float *t = T + (size_t)r * TILE;
        const int64_t ip = cx->ipos[r];
        int32_t c;
        switch (jb->kind) {
        case POSENC_BIAS_NONE:
            if (jb->dense) {
                const float *b = jb->dense + ((size_t)cx->hh[r] * jb->Q + cx->ii[r]) * K + j0;
                for (c = 0; c < n; c++) t[c] += b[c];
            }
            break;
        case POSENC_BIAS_ALIBI: {
            /* The bias minus the row's largest visible bias (set_row: aref), an exact integer
             * distance times m in float64, rounded once: softmax is shift-invariant, and the
             * plain m * rp is ~m * offset, whose float32 rounding (128 at offset 2^30) would
             * swamp the differences between keys. */
            const double m = cx->slope[r];
            const int64_t ref = cx->aref[r];
            if (jb->form == POSENC_ALIBI_SYMMETRIC) {
                for (c = 0; c < n; c++) {
                    const int64_t rp = j0 + c - ip;
                    t[c] += (float)(m * (double)(ref - (rp < 0 ? -rp : rp)));
                }
            } else { /* RELATIVE m * (j - ip) and REFERENCE m * j differ by a per-row constant */
                for (c = 0; c < n; c++) t[c] += (float)(m * (double)(j0 + c - ref));
            }
            break;
        }
        case POSENC_BIAS_T5: {
            /* t5[hl][idx] holds the bias of rp = idx - (offset + Q - 1) */
            const float *tb = cx->t5 + (size_t)cx->hl[r] * (jb->Q + K - 1) +
                              (j0 - cx->ii[r] + jb->Q - 1);
            for (c = 0; c < n; c++) t[c] += tb[c];
            break;
        }
        case POSENC_BIAS_SHAW: {
            const float *qa = cx->qak + (size_t)r * (2 * jb->kr + 1);
            for (c = 0; c < n; c++) {
                const int64_t rp = j0 + c - ip;
                t[c] += scale * qa[clamp_i64(rp, -jb->kr, jb->kr) + jb->kr];
            }
            break;
        }
        default:
            break;
        }
        const int64_t first_masked = cx->lim[r] + 1 - j0;
        for (c = first_masked < 0 ? 0 : first_masked < n ? (int32_t)first_masked : n; c < n; c++)
            t[c] = -INFINITY;
        const int64_t before = cx->lo[r] - j0; /* keys left of the window */
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
    float *mass = cx->mass + (size_t)r * (2 * jb->kr + 1);
    for (int32_t c = 0; c < n; c++) {
        const int64_t rp = j0 + c - cx->ipos[r];
        mass[clamp_i64(rp, -jb->kr, jb->kr) + jb->kr] += p[c];
    }
}

/* Row r of the block is query i of head h (hl = h's index within its group). */
static inline void set_row(const job *jb, ctx *cx, int r, int32_t i, int32_t h, int32_t hl) {
    const int32_t K = jb->K, Q = jb->Q;
    cx->ii[r] = i;
    cx->hh[r] = h;
    cx->hl[r] = hl;
    cx->ipos[r] = (int64_t)i + jb->offset;
    cx->qrow[r] = jb->q + ((size_t)i * jb->H + h) * jb->D;
    int64_t lim = K - 1;
    if (jb->mask == POSENC_MASK_CAUSAL_TOP_LEFT) lim = i;
    if (jb->mask == POSENC_MASK_CAUSAL_BOTTOM_RIGHT) lim = (int64_t)i + K - Q;
    cx->lim[r] = lim < K - 1 ? lim : K - 1;
    const int64_t lo = jb->window > 0 ? cx->ipos[r] - jb->window + 1 : 0;
    cx->lo[r] = lo > 0 ? lo : 0;
    if (jb->kind == POSENC_BIAS_ALIBI) {
        cx->slope[r] = posenc__alibi_slope(h, jb->H);
        /* slopes are > 0: m * (j - ip) and m * j peak at the last visible key, -m |j - ip| at
         * the visible key nearest the query (a row that sees nothing never reads this) */
        const int64_t hi = cx->lim[r] > cx->lo[r] ? cx->lim[r] : cx->lo[r];
        const int64_t near = cx->ipos[r] < cx->lo[r] ? cx->lo[r] : cx->ipos[r] > hi ? hi : cx->ipos[r];
        const int64_t d = near - cx->ipos[r];
        cx->aref[r] = jb->form == POSENC_ALIBI_SYMMETRIC ? (d < 0 ? -d : d) : cx->lim[r];
    }
}

static NOINLINE void run_block(const job *jb, ctx *cx) {
    const int32_t Q = jb->Q, K = jb->K, H = jb->H, D = jb->D, DV = jb->DV;
    const int32_t nc = (DV + PW - 1) / PW, DV8 = nc * PW;
    const int32_t R = jb->kind == POSENC_BIAS_SHAW ? 2 * jb->kr + 1 : 0;
    int64_t maxlim = -1, minlo = K;
    for (int r = 0; r < QB; r++) {
        if (cx->lim[r] > maxlim) maxlim = cx->lim[r];
        if (cx->lo[r] < minlo) minlo = cx->lo[r];
    }
    /* keys beyond jend are masked for every row, and so are keys before jstart */
    const int32_t jend = (int32_t)(maxlim + 1);
    const int32_t jstart = minlo >= jend ? 0 : (int32_t)(minlo / TILE * TILE); /* V block aligned */
    for (int32_t d = 0; d < D; d++)
        for (int r = 0; r < QB; r++) cx->qt[(size_t)d * QB + r] = cx->qrow[r][d];
    if (jb->kind == POSENC_BIAS_SHAW) {
        for (int r = 0; r < QB; r++)
            for (int32_t b = 0; b < R; b++)
                cx->qak[(size_t)r * R + b] = dot(cx->qrow[r], jb->ak + (size_t)b * D, D);
        memset(cx->mass, 0, sizeof(float) * QB * (size_t)R);
    }
    if (jb->kind == POSENC_BIAS_XL)
        for (int r = 0; r < QB; r++)
            for (int32_t d = 0; d < D; d++)
                cx->qv[(size_t)d * QB + r] = cx->qrow[r][d] + jb->vb[(size_t)cx->hh[r] * D + d];
    memset(cx->acc, 0, sizeof(float) * QB * (size_t)DV8);
    float m[QB], l[QB];
    for (int r = 0; r < QB; r++) m[r] = -INFINITY, l[r] = 0.0f;

    if (jb->weights) {
        /* exact path: logits into the weights rows, row softmax, then P V */
        float *wrow[QB];
        for (int r = 0; r < QB; r++) wrow[r] = jb->weights + ((size_t)cx->hh[r] * Q + cx->ii[r]) * K;
        for (int32_t j0 = 0; j0 < jend; j0 += TILE) {
            const int32_t n = jend - j0 < TILE ? jend - j0 : TILE;
            scores(jb, cx, j0, n);
            for (int r = 0; r < cx->nq; r++)
                memcpy(wrow[r] + j0, cx->tile + (size_t)r * TILE, sizeof(float) * n);
        }
        for (int r = 0; r < cx->nq; r++) {
            float *w = wrow[r];
            float mx = -INFINITY;
            for (int32_t j = 0; j < jend; j++) mx = w[j] > mx ? w[j] : mx;
            if (mx == -INFINITY) {
                memset(w, 0, sizeof(float) * K);
                continue;
            }
            const int32_t n4 = jend / 4 * 4;
            float sum = exp_sum(w, n4, mx, cx->expk);
            for (int32_t j = n4; j < jend; j++) sum += (w[j] = exp1(w[j] - mx));
            const float inv = 1.0f / sum;
            for (int32_t j = 0; j < jend; j++) w[j] *= inv;
            memset(w + jend, 0, sizeof(float) * (size_t)(K - jend));
            l[r] = 1.0f;
        }
        for (int32_t j0 = 0; j0 < jend; j0 += TILE) {
            const int32_t n = jend - j0 < TILE ? jend - j0 : TILE;
            /* the kernel wants its rows at the tile's stride: copying 4 x n is cheap
             * next to the 4 x n x dim_v multiply-adds */
            const float *prow[QB];
            for (int r = 0; r < QB; r++) {
                prow[r] = wrow[r] + j0;
                memcpy(cx->tile + (size_t)r * TILE, prow[r], sizeof(float) * n);
            }
            kernel_pv_tile(cx->tile, n, cx->vp + (size_t)(j0 / TILE) * cx->vblock, nc, (size_t)TILE * PW, cx->acc, DV8);
            if (jb->kind == POSENC_BIAS_SHAW)
                for (int r = 0; r < cx->nq; r++) shaw_mass(jb, cx, r, prow[r], j0, n);
        }
    } else {
        /* tiled path: online softmax, nothing of size queries x keys */
        for (int32_t j0 = jstart; j0 < jend; j0 += TILE) {
            const int32_t n = jend - j0 < TILE ? jend - j0 : TILE, n4 = (n + 3) / 4 * 4;
            scores(jb, cx, j0, n);
            for (int r = 0; r < QB; r++) {
                float *t = cx->tile + (size_t)r * TILE;
                const float mx = row_max(t, n4);
                const float mnew = mx > m[r] ? mx : m[r];
                if (mnew == -INFINITY) { /* nothing visible yet: weights stay 0 */
                    memset(t, 0, sizeof(float) * n4);
                    continue;
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
            const float *prow[QB] = {cx->tile, cx->tile + TILE, cx->tile + 2 * TILE, cx->tile + 3 * TILE};
            kernel_pv_tile(cx->tile, n, cx->vp + (size_t)(j0 / TILE) * cx->vblock, nc, (size_t)TILE * PW, cx->acc, DV8);
            if (jb->kind == POSENC_BIAS_SHAW)
                for (int r = 0; r < cx->nq; r++) shaw_mass(jb, cx, r, prow[r], j0, n);
        }
    }

    for (int r = 0; r < cx->nq; r++) {
        float *o = jb->out + ((size_t)cx->ii[r] * H + cx->hh[r]) * DV;
        const float *a = cx->acc + (size_t)r * DV8;
        if (l[r] == 0.0f) { /* a fully masked row */
            memset(o, 0, sizeof(float) * DV);
            continue;
        }
        const float inv = 1.0f / l[r];
        for (int32_t c = 0; c < DV; c++) o[c] = a[c] * inv;
        if (R) { /* Shaw's value term: sum_j p_ij aV[idx] = sum_b mass_b aV[b] */
            const float *ms = cx->mass + (size_t)r * R;
            for (int32_t b = 0; b < R; b++) {
                const float wb = ms[b] * inv;
                if (wb == 0.0f) continue;
                const float *avb = jb->av + (size_t)b * DV;
                for (int32_t c = 0; c < DV; c++) o[c] += wb * avb[c];
            }
        }
    }
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
    cx.qt = scratch + pl->qt;
    cx.expk = (const posenc__expk *)(const void *)(scratch + pl->expk);
    cx.acc = scratch + pl->acc;
    cx.tile = scratch + pl->tile;
    cx.t5 = scratch + pl->t5;
    cx.t5b = (const int32_t *)(const void *)(scratch + pl->t5b);
    cx.qak = scratch + pl->qak;
    cx.mass = scratch + pl->mass;
    cx.rp = scratch + pl->rp;
    cx.uk = scratch + pl->uk;
    cx.qv = scratch + pl->qv;
    cx.g = scratch + pl->g;

    cx.vblock = (size_t)TILE * nc * PW;
    if (jb->kpk) {
        cx.kp = (float *)jb->kpk + (size_t)g * jb->capt * D;
        cx.vp = (float *)jb->vpk + (size_t)g * nc * jb->capt * PW;
    } else {
        /* pack K_g and V_g once for every query head of the group */
        cx.kp = scratch + pl->kp;
        cx.vp = scratch + pl->vp;
        pack_k(cx.kp, jb->k + (size_t)g * D, (size_t)KVH * D, K, D);
        pack_v(cx.vp, jb->v + (size_t)g * DV, (size_t)KVH * DV, K, DV);
    }
    if (jb->kind == POSENC_BIAS_T5)
        for (int32_t hl = 0; hl < G; hl++) {
            const int32_t h = g * G + hl;
            float *t5 = cx.t5 + (size_t)hl * (Q + K - 1);
            for (int32_t t = 0; t < Q + K - 1; t++)
                t5[t] = jb->t5[(size_t)cx.t5b[t] * H + h];
        }

    /* Blocks over (query, head) rows: 4 queries of one head, or 4 heads of one query,
     * whichever needs fewer blocks (decode: 1 query, 4 heads; the group's keys are read once). */
    const int64_t by_query = (int64_t)G * ((Q + QB - 1) / QB);
    const int64_t by_head = (int64_t)Q * ((G + QB - 1) / QB);
    if (jb->kind != POSENC_BIAS_XL && by_head < by_query) {
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
        if (jb->kind == POSENC_BIAS_XL) {
            pack_k(cx.rp, jb->r + (size_t)h * D, (size_t)H * D, jb->rrows, D);
            for (int32_t j = 0; j < K; j++)
                cx.uk[j] = dot(jb->u + (size_t)h * D, jb->k + ((size_t)j * KVH + g) * D, D);
        }
        for (int32_t i0 = 0; i0 < Q; i0 += QB) {
            cx.nq = Q - i0 < QB ? Q - i0 : QB;
            for (int r = 0; r < QB; r++) set_row(jb, &cx, r, i0 + (r < cx.nq ? r : cx.nq - 1), h, hl);
            run_block(jb, &cx);
        }
    }
}

static int32_t attend(job *jb, double scale, float *scratch, int32_t scratch_floats) {
    if (!posenc__finite(scale) || fabs(scale) > 3.0e38) return POSENC_E_PARAM;
    jb->scale = (float)scale;
    plan pl;
    int32_t st = validate(jb, scratch, scratch_floats, &pl);
    if (st) return st;
    const posenc__expk k = posenc__expk_make();
    memcpy(scratch + pl.expk, &k, sizeof k);
    if (jb->kind == POSENC_BIAS_T5) {
        int32_t *b = (int32_t *)(void *)(scratch + pl.t5b);
        for (int32_t t = 0; t < jb->Q + jb->K - 1; t++) {
            const int64_t rp = (int64_t)t - ((int64_t)jb->offset + jb->Q - 1);
            b[t] = posenc__t5_bucket(rp, jb->bidir, jb->nb, jb->maxd);
        }
    }
    for (int32_t g = 0; g < jb->KVH; g++) run_group(jb, &pl, scratch, g);
    return POSENC_OK;
}

#define FILL_COMMON(jb, kvh)                                                                   \
    job jb;                                                                                    \
    memset(&jb, 0, sizeof jb);                                                                 \
    jb.out = out, jb.weights = weights, jb.q = q, jb.k = k, jb.v = v;                          \
    jb.Q = queries, jb.K = keys, jb.H = heads, jb.KVH = kvh, jb.D = dim, jb.DV = dim_v;        \
    jb.mask = mask, jb.offset = offset, jb.mk = -1.0, jb.mv = -1.0

int32_t posenc_attention(POSENC_ATTENTION_ARGS, const float *bias) {
    return posenc_attention_gqa(out, weights, q, k, v, queries, keys, heads, dim, dim_v, scale,
                                mask, offset, scratch, scratch_floats, heads, bias);
}

int32_t posenc_attention_alibi(POSENC_ATTENTION_ARGS, posenc_alibi_form form) {
    return posenc_attention_gqa_alibi(out, weights, q, k, v, queries, keys, heads, dim, dim_v,
                                      scale, mask, offset, scratch, scratch_floats, heads, form);
}

int32_t posenc_attention_t5(POSENC_ATTENTION_ARGS, const float *table, int32_t bidirectional,
                            int32_t num_buckets, int32_t max_distance) {
    return posenc_attention_gqa_t5(out, weights, q, k, v, queries, keys, heads, dim, dim_v, scale,
                                   mask, offset, scratch, scratch_floats, heads, table,
                                   bidirectional, num_buckets, max_distance);
}

int32_t posenc_attention_shaw(POSENC_ATTENTION_ARGS, const float *a_k, const float *a_v,
                              int32_t max_relative) {
    return posenc_attention_gqa_shaw(out, weights, q, k, v, queries, keys, heads, dim, dim_v,
                                     scale, mask, offset, scratch, scratch_floats, heads, a_k,
                                     a_v, max_relative);
}

int32_t posenc_attention_xl(POSENC_ATTENTION_ARGS, const float *u, const float *vb,
                            const float *r, int32_t r_rows) {
    return posenc_attention_gqa_xl(out, weights, q, k, v, queries, keys, heads, dim, dim_v, scale,
                                   mask, offset, scratch, scratch_floats, heads, u, vb, r, r_rows);
}

int32_t posenc_attention_gqa(POSENC_ATTENTION_ARGS, int32_t kv_heads, const float *bias) {
    FILL_COMMON(jb, kv_heads);
    jb.kind = POSENC_BIAS_NONE;
    jb.dense = bias;
    return attend(&jb, scale, scratch, scratch_floats);
}

int32_t posenc_attention_gqa_alibi(POSENC_ATTENTION_ARGS, int32_t kv_heads,
                                   posenc_alibi_form form) {
    FILL_COMMON(jb, kv_heads);
    jb.kind = POSENC_BIAS_ALIBI;
    jb.form = form;
    return attend(&jb, scale, scratch, scratch_floats);
}

int32_t posenc_attention_gqa_t5(POSENC_ATTENTION_ARGS, int32_t kv_heads, const float *table,
                                int32_t bidirectional, int32_t num_buckets,
                                int32_t max_distance) {
    FILL_COMMON(jb, kv_heads);
    jb.kind = POSENC_BIAS_T5;
    jb.t5 = table;
    jb.bidir = bidirectional ? 1 : 0;
    jb.nb = num_buckets;
    jb.maxd = max_distance;
    return attend(&jb, scale, scratch, scratch_floats);
}

int32_t posenc_attention_gqa_shaw(POSENC_ATTENTION_ARGS, int32_t kv_heads, const float *a_k,
                                  const float *a_v, int32_t max_relative) {
    FILL_COMMON(jb, kv_heads);
    jb.kind = POSENC_BIAS_SHAW;
    jb.ak = a_k;
    jb.av = a_v;
    jb.kr = max_relative;
    return attend(&jb, scale, scratch, scratch_floats);
}

int32_t posenc_attention_gqa_xl(POSENC_ATTENTION_ARGS, int32_t kv_heads, const float *u,
                                const float *vb, const float *r, int32_t r_rows) {
    FILL_COMMON(jb, kv_heads);
    jb.kind = POSENC_BIAS_XL;
    jb.u = u;
    jb.vb = vb;
    jb.r = r;
    jb.rrows = r_rows;
    return attend(&jb, scale, scratch, scratch_floats);
}

/* ---- the KV cache (layout and appends in kvcache.c) ---- */

/* The cache geometry must be one posenc_kvcache_size accepts (it sized kc and vc): checking
 * only length * kv_heads * dim would let a capacity whose cache exceeds POSENC_MAX_ELEMENTS
 * through, and the kernels would index past any buffer a caller can have. */
#define KVCACHE_FILL(jb)                                                                       \
    if (!state) return POSENC_E_NULL;                                                          \
    if (capacity < 1 || capacity > POSENC_MAX_ELEMENTS || length < 1 || length > capacity ||   \
        queries < 1 || queries > length)                                                       \
        return POSENC_E_SIZE;                                                                  \
    {                                                                                          \
        int32_t nk_, nv_;                                                                      \
        const int32_t sz_ = posenc_kvcache_size(&nk_, &nv_, kv_heads, dim, dim_v, capacity);   \
        if (sz_) return sz_;                                                                   \
    }                                                                                          \
    job jb;                                                                                    \
    memset(&jb, 0, sizeof jb);                                                                 \
    jb.out = out, jb.q = q, jb.kpk = kc, jb.vpk = vc, jb.capt = (int32_t)round_tile(capacity); \
    jb.Q = queries, jb.K = length, jb.H = heads, jb.KVH = kv_heads, jb.D = dim, jb.DV = dim_v; \
    jb.mask = POSENC_MASK_CAUSAL_BOTTOM_RIGHT, jb.offset = length - queries;                   \
    jb.window = window, jb.mk = state[0], jb.mv = state[1];                                    \
    if (!(jb.mk >= 0 && jb.mv >= 0)) return POSENC_E_PARAM

int32_t posenc_kvcache_attend(POSENC_KVCACHE_ARGS) {
    KVCACHE_FILL(jb);
    jb.kind = POSENC_BIAS_NONE;
    return attend(&jb, scale, scratch, scratch_floats);
}

int32_t posenc_kvcache_attend_alibi(POSENC_KVCACHE_ARGS, posenc_alibi_form form) {
    KVCACHE_FILL(jb);
    jb.kind = POSENC_BIAS_ALIBI;
    jb.form = form;
    return attend(&jb, scale, scratch, scratch_floats);
}

int32_t posenc_kvcache_attend_t5(POSENC_KVCACHE_ARGS, const float *table, int32_t bidirectional,
                                 int32_t num_buckets, int32_t max_distance) {
    KVCACHE_FILL(jb);
    jb.kind = POSENC_BIAS_T5;
    jb.t5 = table;
    jb.bidir = bidirectional ? 1 : 0;
    jb.nb = num_buckets;
    jb.maxd = max_distance;
    return attend(&jb, scale, scratch, scratch_floats);
}

int32_t posenc_kvcache_attend_shaw(POSENC_KVCACHE_ARGS, const float *a_k, const float *a_v,
                                   int32_t max_relative) {
    KVCACHE_FILL(jb);
    jb.kind = POSENC_BIAS_SHAW;
    jb.ak = a_k;
    jb.av = a_v;
    jb.kr = max_relative;
    return attend(&jb, scale, scratch, scratch_floats);
}

/* ---- projections ---- */

int32_t posenc_matmul(float *out, const float *a, const float *b, int32_t m, int32_t kdim,
                      int32_t n) {
    if (!out || !a || !b) return POSENC_E_NULL;
    if (posenc__check_elems2(m, kdim) || posenc__check_elems2(kdim, n) || posenc__check_elems2(m, n))
        return POSENC_E_SIZE;
    /* finite, and no partial sum can overflow float32 (|sum| <= kdim * max|a| * max|b|) */
    const double ma = posenc__max_abs(a, (size_t)m * kdim), mb = posenc__max_abs(b, (size_t)kdim * n);
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
