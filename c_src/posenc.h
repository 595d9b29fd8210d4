/*
 * posenc.h -- transformer positional encodings, exact and fast.
 *
 * WHAT THIS IS
 *   One numeric core for every major positional-encoding family: sinusoidal (1-D and MAE 2-D),
 *   learned tables, RoPE and its context-extension scalings, ALiBi, T5 buckets, Shaw and
 *   Transformer-XL relative attention, and the scaled dot-product attention that consumes them.
 *   The same C compiles natively (tests, sanitizers, fuzzing) and to WebAssembly with and
 *   without SIMD128; the npm package and the web page call exactly this code.
 *
 * MEMORY LAYOUT
 *   Every array is row-major and dense; the caller owns every buffer.
 *     absolute tables      [position][dim]            (sinusoidal, learned, 2-D: row = r*W + c)
 *     activations          [token][head][dim]  "thd"  (or [head][token][dim] "htd")
 *     bias matrices        [head][query][key]          masked entries are -INFINITY
 *     bucket/index maps    [query][key]  int32
 *   Query i sits at position i + offset, key j at position j; relative position rp = j - (i+offset).
 *
 * PAIRING LAYOUTS
 *   Sinusoids and rotations act on pairs of components. Pair i of a width-d vector is
 *     INTERLEAVED  (x[2i], x[2i+1])        paper PE table, GPT-J / RoFormer / Meta LLaMA RoPE
 *     SPLIT / HALF (x[i],  x[i + d/2])     tensor2tensor, fairseq, MAE, GPT-NeoX / HF Llama RoPE
 *   Getting this wrong gives finite but wrong numbers, so it is always an explicit argument.
 *
 * PRECISION
 *   The reference is float64 mathematics. Tables and rotations are stored as float32 but are
 *   accurate to 2e-6 absolute for every position below 2^20: angles are never formed in float32
 *   (p*w in float32 is 4e-4 off at p = 5000). Frequencies are computed in float64.
 *   Where a canonical implementation has a float32 or rounding quirk, posenc follows the
 *   mathematics and the docs say so.
 *
 * HOW SINUSOIDS ARE MADE FAST (ROTATED BLOCKS, c_src/trig.c)
 *   A table of sin/cos(p*w_i) is filled in blocks of B = 64 rows, using the shift identity
 *   PE[p+k] = M_k PE[p] (sin(a+b) = sin a cos b + cos a sin b, cos(a+b) = cos a cos b - sin a sin b).
 *   Per pair only three libm sin/cos calls are made, in float64: the start angle, the row step
 *   and the block step. The first block comes from a float64 rotation recurrence (drift ~B*1e-16)
 *   rounded once to float32; every later block b0.. is that block rotated, in float32 SIMD, by
 *   b0*step*w_i, itself advanced by a float64 recurrence. The only float32 error is that
 *   final complex multiply of two correctly rounded factors (~2.5e-7 * scale), independent of p.
 *   libm sin/cos per element would be no faster than Math.sin, and p*w formed in float32 is
 *   4e-4 off at p = 5000: angles are only ever advanced in float64.
 *
 * SIMD
 *   Kernels are written against the small vector layer in posenc_simd.h, which maps to wasm
 *   SIMD128 when __wasm_simd128__ is defined and to plain scalar C otherwise; a few keep a SIMD
 *   and a scalar path side by side (`#if POSENC_SIMD` in kvcache.c, rope.c, values.c). The SIMD
 *   and scalar builds agree within 1e-6; every kernel has a plain scalar reference in the native
 *   tests.
 *
 * STATUS CODES
 *   Every exported function returns int32_t: POSENC_OK (0) or a negative POSENC_E_* code, and
 *   writes nothing to the output when it fails validation. posenc_status_string() names a code.
 *   The core never aborts, prints, exits, allocates during compute, or touches memory outside
 *   the buffers it was given. Sizes are int32_t; an array may hold at most POSENC_MAX_ELEMENTS.
 *
 * DETERMINISM
 *   Results depend only on the arguments (learned-table initialisation takes an explicit seed).
 */
#ifndef POSENC_H
#define POSENC_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define POSENC_VERSION_MAJOR 0
#define POSENC_VERSION_MINOR 1
#define POSENC_VERSION_PATCH 0

/* The largest element count of any one array (1 GiB of float32): keeps every byte offset in
 * range of a 32-bit wasm address space with room for the inputs. */
#define POSENC_MAX_ELEMENTS (1 << 28)

/* <generated: status codes> by tools/gen_status.js from decl/status.js */
/* What every function returns: POSENC_OK or one of these (posenc_status_string names a code). */
typedef enum posenc_status {
    /* success */
    POSENC_OK = 0,
    /* a required pointer is NULL */
    POSENC_E_NULL = -1,
    /* a count or size is < 1 or its array would exceed POSENC_MAX_ELEMENTS */
    POSENC_E_SIZE = -2,
    /* a dimension that must be even (made of pairs) is odd */
    POSENC_E_ODD = -3,
    /* a real parameter is NaN, infinite or outside its range */
    POSENC_E_PARAM = -4,
    /* an enum argument is not one of its defined values */
    POSENC_E_ENUM = -5,
    /* an index or position lies outside the table it addresses */
    POSENC_E_RANGE = -6,
    /* a caller buffer is smaller than its posenc_*_size helper says */
    POSENC_E_SCRATCH = -7,
    /* a required parameter was not given (e.g. a scaling key) */
    POSENC_E_MISSING = -8,
    /* used by the JS layer: the wasm heap could not grow */
    POSENC_E_NOMEM = -9
} posenc_status;
/* </generated: status codes> */

/* Pairing of components; see PAIRING LAYOUTS above. HALF is the same as SPLIT. */
typedef enum posenc_layout {
    POSENC_LAYOUT_INTERLEAVED = 0,
    POSENC_LAYOUT_SPLIT = 1,
    POSENC_LAYOUT_HALF = 1
} posenc_layout;

/* Static text for a status code ("ok", "odd dimension", ...); never NULL. */
const char *posenc_status_string(int32_t code);

/* Bit 0: built with SIMD128. Lets a loader that was handed raw bytes report its backend. */
int32_t posenc_build_flags(void);

/* The wasm32 layout of posenc_bias and posenc_rope_scaling, for a caller that writes them into
 * the heap as bytes (js/core.js Core.layout): { const char *names; const uint8_t *offsets;
 * const char *types; }. names is "struct field field ...;struct ...", offsets per struct its size
 * then each field's offset, types each field's 'i' int32, 'f' float, 'd' double or 'p' pointer
 * (c_src/status.c). */
const void *posenc_struct_layout(void);

/* ======================================================================================
 * SINUSOIDAL (families/sinusoidal/sinusoidal.md)
 *
 * Frequencies, for h = floor(dim/2) pairs (pair i = 0..h-1):
 *   PAPER  w_i = base^(-2i/dim)          (Vaswani et al.; for odd dim see POSENC_ODD_*)
 *   T2T    w_i = base^(-i/max(h-1, 1))   (tensor2tensor / fairseq: lowest frequency is 1/base)
 * Row p (position offset + p):
 *   INTERLEAVED  [sin(p w_0), cos(p w_0), sin(p w_1), cos(p w_1), ...]
 *   SPLIT        [sin(p w_0) .. sin(p w_{h-1}), cos(p w_0) .. cos(p w_{h-1})]
 * ====================================================================================== */

typedef enum posenc_spacing { POSENC_SPACING_PAPER = 0, POSENC_SPACING_T2T = 1 } posenc_spacing;

/* What an odd dim means (the canonical codes disagree, so the caller chooses):
 *   ERROR  odd dim is POSENC_E_ODD (the PyTorch tutorial cannot build it either)
 *   PAD    h = floor(dim/2) pairs with frequencies computed for the even width 2h, then one
 *          zero column on the right (tensor2tensor, fairseq)
 *   XLM    channel j uses angle p / base^(2*floor(j/2)/dim) with the true dim: ceil(dim/2)
 *          sines and floor(dim/2) cosines. INTERLEAVED gives the XLM/DistilBERT table, SPLIT
 *          the Marian one (sines first). PAPER spacing only. */
typedef enum posenc_odd { POSENC_ODD_ERROR = 0, POSENC_ODD_PAD = 1, POSENC_ODD_XLM = 2 } posenc_odd;

/* The frequencies w_i (radians per position) as float64, into out[ceil(dim/2)]
 * (entries beyond the pairs actually used by a PAD table are not written; *count gets the number
 * written). base > 1 and finite. */
int32_t posenc_sinusoidal_freqs(double *out, int32_t *count, int32_t dim, double base,
                                posenc_spacing spacing, posenc_odd odd);

/* out[length][dim] = the sinusoidal table for positions offset .. offset+length-1.
 * offset may be fractional or negative; |offset| + length <= 2^31. */
int32_t posenc_sinusoidal_fill(float *out, int32_t length, int32_t dim, double base,
                               posenc_layout layout, posenc_spacing spacing, posenc_odd odd,
                               double offset);

/* MAE 2-D sin-cos: out[(cls ? 1 : 0) + height*width][dim], dim a multiple of 4.
 * Patch (r, c) is row r*width + c (after the optional all-zero cls row). The first dim/2
 * channels encode the column c, the last dim/2 the row r, each as a SPLIT paper-spacing table
 * of width dim/2 (this is MAE's order despite its variable names). */
int32_t posenc_sinusoidal2d_fill(float *out, int32_t height, int32_t width, int32_t dim,
                                 double base, int32_t cls_token);

/* out[length][length] = table . table^T (each entry a float64 sum of exact products, rounded
 * once), or cosine similarity when normalize != 0 (a zero row gives 0 similarity). out must not
 * overlap table (POSENC_E_PARAM). */
int32_t posenc_similarity(float *out, const float *table, int32_t length, int32_t dim,
                          int32_t normalize);

/* ======================================================================================
 * ROPE (families/rope/rope.md)
 * ====================================================================================== */

/* Pair i of the first rotary_dim components of a head is rotated by the angle p * w_i, where p is
 * the token's position and w_i (inv_freq, radians per position, float64) comes from
 * posenc_rope_freqs:  (u, v) -> (u cos - v sin, v cos + u sin), cos/sin pre-multiplied by the
 * attention scale. Components rotary_dim .. dim-1 are never read or written (partial rotary).
 * Pairing is posenc_layout: HALF (x[i], x[i + rotary_dim/2]; GPT-NeoX, HF Llama) or INTERLEAVED
 * (x[2i], x[2i+1]; GPT-J, RoFormer, Meta LLaMA).
 *
 * Two ways to apply, both in place on activations x:
 *   posenc_rope_apply*         angles made per block of 64 tokens into caller scratch by the
 *                              angle-addition engine; one cos/sin row serves every head.
 *   posenc_rope_apply_cached   with a cache from posenc_rope_cache_fill ([rows][rotary_dim/2]).
 * Every element of x (rotated or not) must be finite and small enough that no result overflows:
 * 2 |x| |scale| (times the largest xPos factor) <= FLT_MAX, or with a cache |x| (max|cos| +
 * max|sin|) <= FLT_MAX, the whole cache finite. Each token's block is checked right before it is
 * rotated (no separate pass over x); a bad one returns POSENC_E_PARAM with the tokens before it
 * rotated and it and every later token untouched (axial checks all of x first; a bad cache is
 * found before x is touched).
 * Angles are never formed in float32 (HF forms inv_freq * position in float32 and is 3.4e-3 off
 * at 131072): cos/sin are within 2e-6 of float64 for positions below 2^20. Frequencies are
 * float64 (HF computes inv_freq in float32); both are deliberate departures toward the math. */

/* Activation order: [token][head][dim] or [head][token][dim]. */
typedef enum posenc_rope_order { POSENC_ROPE_THD = 0, POSENC_ROPE_HTD = 1 } posenc_rope_order;

/* Frequency scaling: the type and its parameters (js/scalings.js declares both; the block below is
 * generated from it). A double that is NaN means "not given" (a required one then gives
 * POSENC_E_MISSING); posenc_rope_scaling_init sets every field to "not given" or its default.
 * L0 = original_max_positions. NTK is the static "NTK-aware" base change b * factor^(d/(d-2)).
 * DYNAMIC without seq_len: L = max_positions, i.e. the default frequencies. YARN's mscale and
 * mscale_all_dim count when non-zero (0 or NaN = unset, as HF's truthiness). LONGROPE: short_factor
 * and long_factor are rotary_dim/2 long (long when seq_len > L0); factor absent: max_positions / L0
 * when given, else 1. families/rope/rope.js writes the struct at the offsets posenc_struct_layout reports (no
 * offset is written twice). */
/* <generated: rope scalings> by tools/gen_scalings.js from js/scalings.js */
/* Frequency-scaling variant (HF modeling_rope_utils.py rope_type):
 * families/rope/rope.md#frequency-scaling-long-context. */
typedef enum posenc_rope_type {
    POSENC_ROPE_DEFAULT = 0,
    POSENC_ROPE_LINEAR = 1,
    POSENC_ROPE_NTK = 2,
    POSENC_ROPE_DYNAMIC = 3,
    POSENC_ROPE_YARN = 4,
    POSENC_ROPE_LONGROPE = 5,
    POSENC_ROPE_LLAMA3 = 6
} posenc_rope_type;
#define POSENC_ROPE_TYPES 7 /* the number of types: valid ones are 0 .. this - 1 */

/* The fields each type reads (? optional, = the default posenc_rope_scaling_init sets):
 *   LINEAR    factor
 *   NTK       factor
 *   DYNAMIC   factor, max_positions, seq_len?
 *   YARN      factor, original_max_positions, beta_fast = 32, beta_slow = 1, attention_factor?,
 *             mscale?, mscale_all_dim?, truncate = 1
 *   LONGROPE  short_factor, long_factor, original_max_positions, factor?, max_positions?,
 *             attention_factor?, seq_len?
 *   LLAMA3    factor = 8, low_freq_factor = 1, high_freq_factor = 4, original_max_positions = 8192
 */
typedef struct posenc_rope_scaling {
    posenc_rope_type type;
    int32_t truncate;
    const double *short_factor;
    const double *long_factor;
    double factor;
    double original_max_positions;
    double max_positions;
    double seq_len;
    double beta_fast;
    double beta_slow;
    double attention_factor;
    double mscale;
    double mscale_all_dim;
    double low_freq_factor;
    double high_freq_factor;
} posenc_rope_scaling;
/* </generated: rope scalings> */

/* Fill *s with type's defaults (see above) and NaN for every key without one. */
int32_t posenc_rope_scaling_init(posenc_rope_scaling *s, posenc_rope_type type);

/* inv_freq[rotary_dim/2] (float64) and *attention_scale for base and scaling (NULL = default).
 * base > 1; rotary_dim even >= 2 (with 2, NTK and DYNAMIC give w = 1: the exponent d/(d-2) only
 * scales b, and b^0 = 1). Valid keys whose result overflows (a frequency not finite or
 * above 2^960, |attention scale| > FLT_MAX): POSENC_E_RANGE, nothing written. */
int32_t posenc_rope_freqs(double *inv_freq, double *attention_scale, int32_t rotary_dim,
                          double base, const posenc_rope_scaling *scaling);

/* cos/sin[length][npairs] = scale * cos/sin((offset + r) * inv_freq[i]): the HF cache without
 * its duplicated half. |offset| + length <= 2^30, scale finite. */
int32_t posenc_rope_cache_fill(float *cos_out, float *sin_out, int32_t length, int32_t npairs,
                               const double *inv_freq, double scale, double offset);

/* M-RoPE (Qwen2-VL, Qwen3-VL): cos/sin[length][npairs] = scale * cos/sin(p * inv_freq[i]), where
 * p = positions[s * length + t] for token t and pair i's stream s (positions is [3][length]: t,
 * then h, then w). sec_t + sec_h + sec_w = npairs pairs per stream: interleaved 0 takes them in
 * blocks (t, h, w: Qwen2-VL apply_multimodal_rotary_pos_emb); 1 gives pairs 1, 4, 7, ... below
 * 3 sec_h to h, pairs 2, 5, 8, ... below 3 sec_w to w, the rest to t (Qwen3-VL
 * apply_interleaved_mrope). Each stream's positions are arbitrary, so each angle is one float64
 * sin/cos rounded once (no recurrence): off by the float32 rounding (<= 6e-8 |scale|) plus the
 * float64 angle's own error (|p * w| * 1.1e-16 rad), for any finite p. A position not finite:
 * POSENC_E_PARAM, nothing written. */
int32_t posenc_rope_mrope_fill(float *cos_out, float *sin_out, int32_t length, int32_t npairs,
                               const double *inv_freq, double scale, const double *positions,
                               int32_t sec_t, int32_t sec_h, int32_t sec_w, int32_t interleaved);

/* Float count of the scratch every cache-free posenc_rope_apply* needs ((4*64 + 2) * rotary_dim/2,
 * 66 KiB for rotary_dim 128), or a negative status for an invalid rotary_dim. */
int32_t posenc_rope_scratch_size(int32_t rotary_dim);

/* Rotate x ([length][heads][dim] or [heads][length][dim]) in place; token t sits at position
 * offset + t. inv_freq has rotary_dim/2 entries; rotary_dim even, 2 <= rotary_dim <= dim. */
int32_t posenc_rope_apply(float *x, int32_t length, int32_t heads, int32_t dim, int32_t rotary_dim,
                          posenc_layout layout, posenc_rope_order order, const double *inv_freq,
                          double scale, double offset, float *scratch, int32_t scratch_len);

/* As posenc_rope_apply with explicit positions[length] (any integers, e.g. packed sequences;
 * runs of evenly spaced positions use the engine, others exact sin/cos per element). */
int32_t posenc_rope_apply_positions(float *x, int32_t length, int32_t heads, int32_t dim,
                                    int32_t rotary_dim, posenc_layout layout,
                                    posenc_rope_order order, const double *inv_freq, double scale,
                                    const int32_t *positions, float *scratch, int32_t scratch_len);

/* Float positions (interpolated / fractional positions), finite, |p| <= 2^30. */
int32_t posenc_rope_apply_positions_f32(float *x, int32_t length, int32_t heads, int32_t dim,
                                        int32_t rotary_dim, posenc_layout layout,
                                        posenc_rope_order order, const double *inv_freq,
                                        double scale, const float *positions, float *scratch,
                                        int32_t scratch_len);

/* xPos (arXiv:2212.10554): RoPE, then pair i at position p scaled by zeta_i^(+-(p - center)/scale_base),
 * zeta_i = (2i + 0.4 r)/(1.4 r), r = rotary_dim; + for queries (is_key = 0), - for keys.
 * positions may be NULL (then p = offset + t). scale_base > 0; a factor beyond e^80 (any
 * |p - center| > 80 / ln 3.5 * scale_base) would overflow float32: POSENC_E_RANGE. */
int32_t posenc_rope_apply_xpos(float *x, int32_t length, int32_t heads, int32_t dim,
                               int32_t rotary_dim, posenc_layout layout, posenc_rope_order order,
                               const double *inv_freq, double scale, double offset,
                               const int32_t *positions, double scale_base, double center,
                               int32_t is_key, float *scratch, int32_t scratch_len);

/* 2-D axial RoPE (lucidrains get_axial_freqs): token t = r*width + c of a height x width grid (length =
 * height*width); components [0, rotary_dim/2) are rotated by the row r, [rotary_dim/2,
 * rotary_dim) by the column c, each block paired by layout within itself. inv_freq has
 * rotary_dim/4 entries (the frequencies of one rotary_dim/2 block); rotary_dim % 4 == 0. */
int32_t posenc_rope_apply_axial(float *x, int32_t height, int32_t width, int32_t heads, int32_t dim,
                                int32_t rotary_dim, posenc_layout layout, posenc_rope_order order,
                                const double *inv_freq, double scale, float *scratch,
                                int32_t scratch_len);

/* With a cache of cache_rows rows (cos/sin[cache_rows][rotary_dim/2]): token t uses row
 * positions[t] (positions may be NULL: row offset + t). Rows outside the cache: POSENC_E_RANGE. */
int32_t posenc_rope_apply_cached(float *x, int32_t length, int32_t heads, int32_t dim,
                                 int32_t rotary_dim, posenc_layout layout, posenc_rope_order order,
                                 const float *cos_cache, const float *sin_cache, int32_t cache_rows,
                                 const int32_t *positions, int32_t offset);

/* RoFormer long-term decay (Su et al. 2021 §3.4.3): out[k] = (2/d) sum_{j=1..d/2} |sum_{t<j} e^{i k w_t}|
 * for relative distance k = 0 .. max_distance, w_t = base^(-2t/d); float64. */
int32_t posenc_rope_decay(double *out, int32_t dim, double base, int32_t max_distance);

/* ======================================================================================
 * RELATIVE AND LEARNED (families/learned/learned.md, alibi.md, t5.md, relative.md)
 *
 * Bias and index matrices are [head][query][key] (or [query][key]); query i sits at position
 * i + offset, key j at j, rp = j - (i + offset). Every matrix below except ALiBi's REFERENCE
 * form depends only on rp, so it is built as a Toeplitz fill: row 0 and the first column are
 * computed, every other row is the previous row shifted one column (store bandwidth, and the
 * T5 log is evaluated once per distance rather than once per element).
 * ====================================================================================== */

/* ALiBi bias forms (families/relative/alibi.md, Bias). RELATIVE m*(j-i) and REFERENCE m*j give identical softmax rows
 * under a causal mask; SYMMETRIC -m*|j-i| (encoders) does not, so the form is explicit. */
typedef enum posenc_alibi_form {
    POSENC_ALIBI_RELATIVE = 0,
    POSENC_ALIBI_SYMMETRIC = 1,
    POSENC_ALIBI_REFERENCE = 2
} posenc_alibi_form;

/* out[heads] = the ALiBi slopes (fairseq get_slopes in closed form with exp2, rounded once to float32).
 * Python's reference accumulates pow() rounding in float64; after float32 rounding they agree. */
int32_t posenc_alibi_slopes(float *out, int32_t heads);

/* out[heads][queries][keys]: slope_h * f(rp), rounded once from float64. causal != 0 masks keys
 * with rp > 0 (j > i + offset) with -INFINITY. REFERENCE uses f = key index j. */
int32_t posenc_alibi_bias(float *out, int32_t heads, int32_t queries, int32_t keys,
                          posenc_alibi_form form, int32_t causal, int32_t offset);

/* out[queries][keys] = T5 bucket of rp (families/relative/t5.md), exact integers. Requires num_buckets >= 2
 * (>= 4 when bidirectional) and max_distance > max_exact (num_buckets/2, halved again when
 * bidirectional); otherwise POSENC_E_PARAM. */
int32_t posenc_t5_buckets(int32_t *out, int32_t queries, int32_t keys, int32_t bidirectional,
                          int32_t num_buckets, int32_t max_distance, int32_t offset);

/* out[heads][queries][keys] = weights[bucket(rp)][h]; weights is [num_buckets][heads] (HF's
 * relative_attention_bias) and must be finite. */
int32_t posenc_t5_bias(float *out, const float *weights, int32_t heads, int32_t queries,
                       int32_t keys, int32_t bidirectional, int32_t num_buckets,
                       int32_t max_distance, int32_t offset);

/* out[queries][keys] = clip(rp, -max_relative, max_relative) + max_relative (Shaw et al.,
 * families/relative/relative.md), indices into a [2*max_relative + 1][depth] table. tensor2tensor places the
 * queries on the last `queries` key positions: pass offset = keys - queries for that. */
int32_t posenc_shaw_indices(int32_t *out, int32_t queries, int32_t keys, int32_t max_relative,
                            int32_t offset);

/* Transformer-XL's R (PositionalEmbedding): out[klen][dim], row t = [sin(p w_0..), cos(p w_0..)] (SPLIT)
 * for the distance p = klen-1-t, clamped to clamp_len when clamp_len > 0; w_i = base^(-2i/dim). */
int32_t posenc_xl_positions(float *out, int32_t klen, int32_t dim, double base, int32_t clamp_len);

/* Transformer-XL rel-shift without the reshape trick: out[i][j] = x[i][j + queries-1-i] for
 * j <= i + memory (keys = queries + memory) and 0 elsewhere (XL's zero_triu). x is
 * [queries][keys]; out may equal x (in place). */
int32_t posenc_xl_rel_shift(float *out, const float *x, int32_t queries, int32_t memory);

/* Transformer-XL score out[heads][queries][keys], keys = queries + memory:
 *   scale * ((q_i + u)·k_j + (q_i + v)·r_{j + queries-1-i})   for j <= i + memory, else -INF,
 * i.e. terms (a)+(c) and (b)+(d) with the rel-shift applied by indexing. q is
 * [queries][heads][dim], k and r (= r_net(R), row t for distance keys-1-t) are
 * [keys][heads][dim], u and v are [heads][dim]. All finite, and dim * ((|q|+|u|)|k| +
 * (|q|+|v|)|r|) * max(1, |scale|) <= 1e38 (max magnitudes) so no sum overflows: else E_PARAM. */
int32_t posenc_xl_scores(float *out, const float *q, const float *k, const float *r, const float *u,
                         const float *v, int32_t queries, int32_t keys, int32_t heads, int32_t dim,
                         double scale);

/* What a learned table does with a position outside [0, rows): ERROR is POSENC_E_RANGE (BERT,
 * GPT-2), CLAMP uses the nearest row, ZERO gives a zero embedding (tensor2tensor). */
typedef enum posenc_out_of_range {
    POSENC_OOR_ERROR = 0,
    POSENC_OOR_CLAMP = 1,
    POSENC_OOR_ZERO = 2
} posenc_out_of_range;

/* out[length][dim] ~ N(0, std^2), or truncated at 2 std by redrawing (TF truncated_normal).
 * 0 <= std <= 1e37 (the draws reach 8.3 std; larger would round to float32 infinity).
 * Bit-identical on every build: a counter-based integer hash of (seed, element, attempt) and an
 * inverse-CDF transform that uses only + - * / sqrt (its log is our own, not libm's). */
int32_t posenc_learned_init(float *out, int32_t length, int32_t dim, double std, uint32_t seed,
                            int32_t truncated);

/* out[count][dim] = table[positions[c]] for a table[rows][dim]; see posenc_out_of_range. The
 * rows gathered must be finite (POSENC_E_PARAM, nothing written); other rows are not read. */
int32_t posenc_learned_gather(float *out, const float *table, int32_t rows, int32_t dim,
                              const int32_t *positions, int32_t count, posenc_out_of_range mode);

/* x[p][dim] += table[offset + p] for p < length, in place; offset + length <= rows. The values
 * are checked as they are added (docs/errors.md), in blocks of 512 elements in order: a block
 * is added once every element of x and of the rows read, up to the end of that block, is finite
 * and max|x| + max|table| over them is at most FLT_MAX. POSENC_E_PARAM: the blocks before the
 * one that failed are added, the rest of x is as given. `maxima` (NULL, or 2 floats) receives
 * max|x| and max|table| over all of x as given and the rows read (inf for NaN or inf). */
int32_t posenc_learned_add(float *x, const float *table, int32_t rows, int32_t length, int32_t dim,
                           int32_t offset, float *maxima);

/* out[length][dim_x + dim_p] = [x[p], table[offset + p]]; offset + length <= rows. */
int32_t posenc_learned_concat(float *out, const float *x, const float *table, int32_t rows,
                              int32_t length, int32_t dim_x, int32_t dim_p, int32_t offset);

/* ======================================================================================
 * ATTENTION (families/attention/attention.md)
 *
 * Per head h:  scores = Q_h K_h^T * scale + bias,  P = softmax over keys,  out_h = P V_h.
 * Layouts (row-major, heads interleaved per token as everywhere in posenc):
 *   q    [queries][heads][dim]      k [keys][kv_heads][dim]   v [keys][kv_heads][dim_v]
 *   out  [queries][heads][dim_v]    weights (optional) [heads][queries][keys]
 *   (kv_heads = heads but with grouped-query attention, below)
 *   dense bias [heads][queries][keys], -INFINITY = blocked.
 * Query i sits at position i + offset, key j at j; rp = j - (i + offset) (key minus query).
 *
 * MASKS. TOP_LEFT lets query i see keys j <= i (torch SDPA is_causal, even when queries !=
 * keys); BOTTOM_RIGHT lets it see j <= i + (keys - queries) (decoding with a KV cache, GPT-2,
 * flash-attention >= 2.1). A row that sees no key at all yields zero output and zero weights,
 * never NaN.
 *
 * MEMORY. Without weights nothing of size queries x keys exists: keys are processed in tiles of
 * POSENC_ATTENTION_TILE with an online softmax (running max and sum, rescaled per tile), so the
 * caller's scratch is O(keys * dim) (posenc_attention_gqa_scratch_size). With weights the
 * exact row softmax is written into the weights buffer, then multiplied by V.
 *
 * FUSED POSITIONAL BIASES (computed inside the loop, never materialised):
 *   ALIBI  slope m_h (families/relative/alibi.md); form RELATIVE m*rp, SYMMETRIC -m*|rp|, REFERENCE m*j,
 *          each less the row's largest visible bias (the softmax is unchanged), so the float32
 *          logits stay exact at any offset: float64 weights within 1e-6 at offset 2^30
 *   T5     table[bucket(rp)][h], buckets as posenc__t5_bucket (families/relative/t5.md); scale is yours
 *          (T5 itself uses scale 1)
 *   SHAW   logit += scale * q_i . aK[clip(rp, -k, k) + k];  out_i += sum_j p_ij aV[...]
 *          (Shaw et al. 2018; aK [2k+1][dim], aV [2k+1][dim_v], shared by all heads)
 *   XL     logit = scale * ((q_i + u_h) . k_j + (q_i + v_h) . r[c]_h), row c = keys-1-d of r
 *          for distance d = (i + offset) - j: r [r_rows][heads][dim] is Transformer-XL's
 *          r_head_k in its own descending order (r_rows = keys covers d = keys-1 .. 0; extra
 *          rows continue to negative distances). This index arithmetic is _rel_shift
 *          (families/relative/relative.md). Rows outside the table clamp to the nearest row (like clamp_len).
 * ====================================================================================== */

/* Keys per tile of the online softmax (a multiple of 8, the key-panel width). 256 rather than
 * 128: fewer accumulator reloads and rescales per key (measured 4% faster at 1024 x 64). */
#define POSENC_ATTENTION_TILE 256

typedef enum posenc_attention_mask {
    POSENC_MASK_NONE = 0,
    POSENC_MASK_CAUSAL_TOP_LEFT = 1,    /* j <= i */
    POSENC_MASK_CAUSAL_BOTTOM_RIGHT = 2 /* j <= i + keys - queries */
} posenc_attention_mask;

/* The bias kinds, listed once: each fused kind is declared in families/<family>/kind_<type>.js
 * (its JS type, camelCase kept, upper snake case here), and tools/gen_kinds.js writes this list,
 * the posenc_bias fields, attention.c's table of per-kind steps (c_src/bias_kinds.h) and the
 * JS registry's list from the declarations. */
/* <generated: bias kinds> by tools/gen_kinds.js from families/<family>/kind_<type>.js */
/* clang-format off */
#define POSENC_BIAS_KINDS(X) X(NONE, none) X(ALIBI, alibi) X(T5, t5) X(SHAW, shaw) X(XL, xl)
/* clang-format on */
/* </generated: bias kinds> */

typedef enum posenc_attention_bias {
#define POSENC__BIAS_ENUM(NAME, name) POSENC_BIAS_##NAME,
    POSENC_BIAS_KINDS(POSENC__BIAS_ENUM)
#undef POSENC__BIAS_ENUM
        POSENC_BIAS_COUNT
} posenc_attention_bias;

/* What an attention call adds to (or masks from) its logits beyond scale * q.k: the bias kind
 * with its tables, and two options real models need. Fields the kind does not read are
 * ignored; a zeroed struct (or a NULL pointer) is no bias at all.
 *   NONE   table: a dense bias [heads][queries][keys] or NULL (entries may be -INFINITY, never
 *          NaN or +INFINITY)
 *   ALIBI  form (posenc_alibi_form), slopes for `heads` heads
 *   T5     table [num_buckets][heads] (HF relative_attention_bias), bidirectional, num_buckets,
 *          max_distance (as posenc_t5_buckets); scale is yours (T5 itself uses 1)
 *   SHAW   a_k [2*max_relative+1][dim], a_v [2*max_relative+1][dim_v], shared by all heads
 *   XL     u, vb [heads][dim] (r_w_bias, r_r_bias), r [r_rows][heads][dim] (not in a KV cache)
 *   query_scale  NULL, or [queries] finite factors: query i is multiplied by query_scale[i]
 *          before its dot products, as Llama 4's attention temperature tuning and Qwen 1's logn
 *          scaling multiply the query states (the bias is not scaled)
 *   chunk  0, or > 0: chunked local attention (Llama 4 attention_chunk_size): a query at
 *          position p sees only keys in its own chunk, floor(j / chunk) == floor(p / chunk)
 *   window 0, or > 0: sliding-window attention (Mistral, Gemma, HF sliding_window): a query at
 *          position p sees only keys with |p - j| < window; with a causal mask ending at p that
 *          is the keys in (p - window, p], without one window - 1 keys either side (HF's inclusive
 *          bidirectional overlay |p - j| <= w is window = w + 1). In a KV cache it narrows the
 *          cache's own window argument (the smaller wins).
 * Every mask (causal, window, chunk) applies on top of the others: a key is seen only if all
 * allow it; a query none allows gets zeros.
 * families/attention/attention.js writes it at the offsets posenc_struct_layout reports (no offset written twice). */
/* <generated: bias fields> by tools/gen_kinds.js from families/<family>/kind_<type>.js */
/* clang-format off */
typedef struct posenc_bias {
    posenc_attention_bias kind;
    const float *table;
    int32_t form;
    int32_t bidirectional;
    int32_t num_buckets;
    int32_t max_distance;
    const float *a_k;
    const float *a_v;
    int32_t max_relative;
    const float *u;
    const float *vb;
    const float *r;
    int32_t r_rows;
    const float *query_scale;
    int32_t chunk;
    int32_t window;
} posenc_bias;
/* clang-format on */
/* </generated: bias fields> */

/* Every attention call shares these leading arguments:
 *   out, weights (NULL = do not return them), q, k, v, queries, keys, heads, dim, dim_v,
 *   scale (finite), mask, offset (|offset| <= 2^30), scratch, scratch_floats.
 * q, k, v and every table must be finite, and small enough for float32: a bound on every
 * logit (dim * max|q| * max|query_scale| * max|k| * max(1, |scale|) plus the largest positive
 * bias; Shaw and XL count their tables in the dot bound) and keys * max|v| must be <= 1e38,
 * else an overflow would come out as inf or NaN (POSENC_E_PARAM otherwise). Negative biases
 * may be any size. */
#define POSENC_ATTENTION_ARGS                                                                      \
    float *out, float *weights, const float *q, const float *k, const float *v, int32_t queries,   \
        int32_t keys, int32_t heads, int32_t dim, int32_t dim_v, double scale,                     \
        posenc_attention_mask mask, int32_t offset, float *scratch, int32_t scratch_floats

/* ---- MULTI-HEAD AND GROUPED-QUERY ATTENTION: one entry point for every bias ----
 * kv_heads (dividing heads; heads = multi-head, 1 = multi-query) key/value heads: k is
 * [keys][kv_heads][dim], v [keys][kv_heads][dim_v], and query head h reads kv head
 * h / (heads / kv_heads). Every bias stays per query head (ALiBi slope m_h of `heads`, T5
 * column h, XL u_h, v_h and r[.][h]). Each group's keys and values are packed once for all its
 * query heads; with few queries a block holds 4 heads of one query, so a decode step reads each
 * kv head's keys once. bias may be NULL (none). *floats = the scratch a call with these sizes
 * and this bias needs. */
int32_t posenc_attention_gqa_scratch_size(int32_t *floats, int32_t queries, int32_t keys,
                                          int32_t heads, int32_t kv_heads, int32_t dim,
                                          int32_t dim_v, const posenc_bias *bias);
int32_t posenc_attention_gqa(POSENC_ATTENTION_ARGS, int32_t kv_heads, const posenc_bias *bias);

/* ---- KV CACHE ----
 * Keys and values of the tokens seen so far, in caller memory, in the kernels' packed layouts
 * (see kvcache.c; sizes from posenc_kvcache_size, zero the buffers once). The key of token t
 * sits at position t. The caller rotates keys (RoPE) before storing them.
 *   posenc_kvcache_store   appends n tokens (k [n][kv_heads][dim], v [n][kv_heads][dim_v]) at
 *                          slot `length`; length + n > capacity is POSENC_E_RANGE, nothing
 *                          written; a NaN or inf POSENC_E_PARAM, nothing stored (the
 *                          slots from `length` up to the bad token are zero after it: the
 *                          check is folded into the copy). state (2 floats, zeroed at
 *                          creation) tracks max |k| and max |v|.
 *   posenc_kvcache_attend  the last `queries` tokens (q [queries][heads][dim], positions
 *                          length - queries ..) against the first `length` keys, causal
 *                          (bottom-right), out [queries][heads][dim_v]. window > 0 also masks
 *                          keys at positions <= query - window (Mistral's sliding window);
 *                          0 = none. bias (NULL = none) as in attention, from true positions;
 *                          no XL. */
#define POSENC_KVCACHE_ARGS                                                                        \
    float *out, const float *q, const float *kc, const float *vc, const float *state,              \
        int32_t capacity, int32_t length, int32_t queries, int32_t heads, int32_t kv_heads,        \
        int32_t dim, int32_t dim_v, double scale, int32_t window, float *scratch,                  \
        int32_t scratch_floats
int32_t posenc_kvcache_size(int32_t *k_floats, int32_t *v_floats, int32_t kv_heads, int32_t dim,
                            int32_t dim_v, int32_t capacity);
int32_t posenc_kvcache_store(float *kc, float *vc, float *state, const float *k, const float *v,
                             int32_t n, int32_t length, int32_t capacity, int32_t kv_heads,
                             int32_t dim, int32_t dim_v);
int32_t posenc_kvcache_scratch_size(int32_t *floats, int32_t queries, int32_t length, int32_t heads,
                                    int32_t kv_heads, int32_t dim, int32_t dim_v,
                                    const posenc_bias *bias);
int32_t posenc_kvcache_attend(POSENC_KVCACHE_ARGS, const posenc_bias *bias);

/* out[m][n] = a[m][kdim] . b[kdim][n] (the projections of selfAttention; float32 accumulation).
 * a, b finite with kdim * max|a| * max|b| <= 1e38 (no overflow to inf), else POSENC_E_PARAM. */
int32_t posenc_matmul(float *out, const float *a, const float *b, int32_t m, int32_t kdim,
                      int32_t n);

/* ======================================================================================
 * EXTRAPOLATION LAB (train.c): a tiny causal transformer trained from a seed
 *
 *   Pre-norm, 1-4 layers, `heads` heads of width dim/heads (even), a ReLU MLP of `hidden`
 *   units, a vocabulary of POSENC_TRAIN_VOCAB tokens, AdamW with global-norm clipping, a
 *   linear warm-up (5%) and linear decay to 10% of the rate. The positional method is one of
 *   posenc_train_method; tasks are generated on the fly from the seed:
 *     COPY      random tokens; at position i >= k predict the token at i - k
 *     PERIODIC  p distinct tokens (p in [2, k]) repeated; predict the next token once two
 *               periods have been seen
 *     FIRST     random tokens with two markers; from the later marker on, predict which
 *               marker came first
 *     NGRAM     a seeded order-k source (k = 2 or 3): the next token is its context's token
 *               (a random table of the last k - 1 tokens, drawn from the seed) 3 times in 4,
 *               else uniform; predict every next token (the best possible accuracy is 0.77)
 *   Everything lives in one caller arena of posenc_train_size bytes (nothing is allocated
 *   later); the same seed gives the same bits on every build (see DETERMINISM in train.c).
 *   The arena must be 8-byte aligned (malloc's is; the header holds int64 and double fields):
 *   a misaligned arena is refused with POSENC_E_PARAM. init records the arena's size and a
 *   hash of its header; every later call checks both and refuses an arena whose header was
 *   changed (POSENC_E_PARAM) rather than trust it.
 *   Configuration travels as two arrays indexed by the enums below.
 * ====================================================================================== */
#define POSENC_TRAIN_VOCAB 16

typedef enum posenc_train_task {
    POSENC_TASK_COPY = 0,
    POSENC_TASK_PERIODIC = 1,
    POSENC_TASK_FIRST = 2,
    POSENC_TASK_NGRAM = 3
} posenc_train_task;

typedef enum posenc_train_method {
    POSENC_PE_NONE = 0,       /* NoPE: only the causal mask orders tokens */
    POSENC_PE_LEARNED = 1,    /* a trained [length][dim] table added to the embeddings */
    POSENC_PE_SINUSOIDAL = 2, /* the fixed interleaved table (base 10000) added */
    POSENC_PE_ROPE = 3,       /* q, k rotated per head (HALF pairing, base 10000) */
    POSENC_PE_ALIBI = 4,      /* -slope_h * (i - j) added to the scores */
    POSENC_PE_T5 = 5          /* trained causal buckets (32, max distance 128), shared by layers */
} posenc_train_method;

/* indices into the int32 configuration */
typedef enum posenc_train_ikey {
    POSENC_TRAIN_TASK = 0,
    POSENC_TRAIN_METHOD,
    POSENC_TRAIN_LENGTH,
    POSENC_TRAIN_DIM,
    POSENC_TRAIN_HEADS,
    POSENC_TRAIN_LAYERS,
    POSENC_TRAIN_HIDDEN,
    POSENC_TRAIN_BATCH,
    POSENC_TRAIN_STEPS,
    POSENC_TRAIN_SEED,
    POSENC_TRAIN_MAX_LENGTH,
    POSENC_TRAIN_K,
    POSENC_TRAIN_NINT
} posenc_train_ikey;

/* indices into the float configuration */
typedef enum posenc_train_fkey {
    POSENC_TRAIN_LR = 0,
    POSENC_TRAIN_WEIGHT_DECAY,
    POSENC_TRAIN_CLIP,
    POSENC_TRAIN_BETA1,
    POSENC_TRAIN_BETA2,
    POSENC_TRAIN_EPS,
    POSENC_TRAIN_NFLOAT
} posenc_train_fkey;

/* Bytes of arena for a configuration (max_length: the longest sequence it will evaluate). */
int32_t posenc_train_size(const int32_t *icfg, const float *fcfg);
/* Initialise the arena: configuration, parameters drawn from the seed, optimiser at step 0. */
int32_t posenc_train_init(void *arena, int32_t bytes, const int32_t *icfg, const float *fcfg);
/* Number of float parameters (learned table first, then T5's [32][heads], then the rest). */
int32_t posenc_train_param_count(const void *arena);
/* Copy the parameters out (store = 0) or in (store = 1; all finite). */
int32_t posenc_train_params(void *arena, float *values, int32_t count, int32_t store);
/* Run `steps` optimiser steps; losses[steps] receives each batch's mean cross-entropy. */
int32_t posenc_train_step(void *arena, int32_t steps, float *losses);
/* indices into posenc_train_evaluate's result. "Beyond": only the scored positions at or past
 * the training length (index >= length; 0 and SCORED 0 when there are none). ORACLE: the
 * accuracy of the best possible predictor on the same targets (1 except for NGRAM). */
typedef enum posenc_train_rkey {
    POSENC_TRAIN_R_ACCURACY = 0,
    POSENC_TRAIN_R_LOSS,
    POSENC_TRAIN_R_BEYOND_ACCURACY,
    POSENC_TRAIN_R_BEYOND_LOSS,
    POSENC_TRAIN_R_SCORED,
    POSENC_TRAIN_R_BEYOND_SCORED,
    POSENC_TRAIN_R_ORACLE,
    POSENC_TRAIN_NRESULT
} posenc_train_rkey;

/* Accuracy and mean loss over every scored position, and over those past the training length
 * (result[POSENC_TRAIN_NRESULT], float64, counted exactly) on `count` fresh sequences of
 * `length` tokens. inv_freq (dim/heads/2 float64 in [0, 16], NULL = as trained; others:
 * POSENC_E_PARAM) and attention_scale (finite, > 0) replace RoPE's frequencies.
 * A learned table evaluated past its rows: POSENC_E_RANGE (never clamped). A forward pass with
 * a non-finite output (parameters too large): POSENC_E_PARAM, never a number made from NaN. */
int32_t posenc_train_evaluate(void *arena, int32_t length, int32_t count, int32_t eval_seed,
                              const double *inv_freq, double attention_scale, double *result);
/* tokens and targets [count][length] (target -1: not scored) of the sequences evaluate scores:
 * the first `count` of those evaluate draws at `length` with `eval_seed`. */
int32_t posenc_train_sequences(void *arena, int32_t length, int32_t count, int32_t eval_seed,
                               int32_t *tokens, int32_t *targets);
/* weights[heads][length][length] of `layer` and tokens[length] on the first evaluation input
 * (POSENC_E_PARAM, like evaluate, when the forward pass is not finite). */
int32_t posenc_train_attention(void *arena, int32_t length, int32_t layer, int32_t eval_seed,
                               const double *inv_freq, double attention_scale, float *weights,
                               int32_t *tokens);

/* ======================================================================================
 * VALUES -- the JS API rejects non-finite array inputs (docs/errors.md); this is its scan.
 * ====================================================================================== */

/* *out = max |a[t]| over n floats (0 for n = 0), or +INFINITY when any element is NaN or
 * infinite (one vectorised pass; the caller then looks for the element to name). */
int32_t posenc_max_abs(float *out, const float *a, int32_t n);

#ifdef __cplusplus
}
#endif

#endif /* POSENC_H */
