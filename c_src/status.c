/* status.c -- names of status codes (written with the enum by tools/gen_status.js from
 * decl/status.js), the struct layouts js/ writes into, and build flags. */
#include "posenc.h"

#include <stddef.h>

const char *posenc_status_string(int32_t code) {
    switch (code) {
        /* <generated: status codes> by tools/gen_status.js from decl/status.js */
        case POSENC_OK:
            return "ok";
        case POSENC_E_NULL:
            return "a required buffer is missing (NULL pointer)";
        case POSENC_E_SIZE:
            return "a size is out of range (below 1 or too many elements)";
        case POSENC_E_ODD:
            return "a dimension must be even";
        case POSENC_E_PARAM:
            return "a parameter is not finite or out of range";
        case POSENC_E_ENUM:
            return "an option has an unknown value";
        case POSENC_E_RANGE:
            return "an index or position lies outside its table";
        case POSENC_E_SCRATCH:
            return "a buffer is smaller than required";
        case POSENC_E_MISSING:
            return "a required parameter is missing";
        case POSENC_E_NOMEM:
            return "out of memory";
        /* </generated: status codes> */
        default:
            return "unknown status code";
    }
}

/* The wasm32 layout of each struct js/ writes into the heap, as the compiler lays it out: js/core.js
 * reads it (posenc_struct_layout, Core.layout), so no offset or field type is written down twice.
 * names is "struct field field ...;struct ..."; offsets holds, per struct, its size then each
 * field's offset in that order (declaration order: a field's size is the gap to the next); types
 * holds each field's type as the compiler sees it: 'i' int32 (enums included), 'f' float, 'd'
 * double, 'p' pointer, so a float scalar is written as a float. The _Static_asserts fail when a
 * field of posenc.h has no entry in its list here, or a type none of these. */
/* (clang-format reflows these chains differently on each run, so it leaves them alone) */
// clang-format off
// <generated: bias fields> by tools/gen_kinds.js from families/<family>/kind_<type>.js
#define BIAS_FIELDS(X, S) \
    X(S, kind) X(S, table) X(S, form) X(S, bidirectional) X(S, num_buckets) X(S, max_distance) \
    X(S, a_k) X(S, a_v) X(S, max_relative) X(S, u) X(S, vb) X(S, r) X(S, r_rows) \
    X(S, query_scale) X(S, chunk) X(S, window)
// </generated: bias fields>
// <generated: rope scalings> by tools/gen_scalings.js from js/scalings.js
#define SCALING_FIELDS(X, S) \
    X(S, type) X(S, truncate) X(S, short_factor) X(S, long_factor) X(S, factor) \
    X(S, original_max_positions) X(S, max_positions) X(S, seq_len) X(S, beta_fast) \
    X(S, beta_slow) X(S, attention_factor) X(S, mscale) X(S, mscale_all_dim) \
    X(S, low_freq_factor) X(S, high_freq_factor)
// </generated: rope scalings>
// clang-format on
#define NAME(S, f)   " " #f
#define OFFSET(S, f) (uint8_t) offsetof(S, f),
#define SIZE(S, f)   +sizeof(((S *)0)->f)
/* `+ 0` promotes an enum to int or unsigned, whichever the compiler chose for it; both are 32 bits
 * on every target posenc builds for (a wider field fails the size checks below) */
#define TYPE_OF(S, f)                                                                              \
    _Generic(((S *)0)->f + 0, int: 'i', unsigned: 'i', float: 'f', double: 'd', const float *: 'p', \
             const double *: 'p', default: 0)
#define TYPE(S, f) TYPE_OF(S, f),
#define TYPED(S, f)                                                                                \
    _Static_assert(TYPE_OF(S, f) != 0, #S "." #f ": a field type layout cannot name");
BIAS_FIELDS(TYPED, posenc_bias)
SCALING_FIELDS(TYPED, posenc_rope_scaling)

#if defined(__wasm32__)
_Static_assert(0 BIAS_FIELDS(SIZE, posenc_bias) == sizeof(posenc_bias),
               "posenc_bias: a field is missing from BIAS_FIELDS (or the struct gained padding)");
_Static_assert(0 SCALING_FIELDS(SIZE, posenc_rope_scaling) == sizeof(posenc_rope_scaling),
               "posenc_rope_scaling: a field is missing from SCALING_FIELDS (or gained padding)");
_Static_assert(sizeof(posenc_bias) < 256 && sizeof(posenc_rope_scaling) < 256, "uint8_t offsets");
#endif

static const uint8_t LAYOUT_OFFSETS[] = {
    sizeof(posenc_bias), BIAS_FIELDS(OFFSET, posenc_bias) sizeof(posenc_rope_scaling),
    SCALING_FIELDS(OFFSET, posenc_rope_scaling)};
static const char LAYOUT_TYPES[] = {BIAS_FIELDS(TYPE, posenc_bias)
                                        SCALING_FIELDS(TYPE, posenc_rope_scaling)};
static const struct {
    const char *names;
    const uint8_t *offsets;
    const char *types;
} LAYOUT = {"posenc_bias" BIAS_FIELDS(NAME, posenc_bias) ";posenc_rope_scaling" SCALING_FIELDS(
                NAME, posenc_rope_scaling),
            LAYOUT_OFFSETS, LAYOUT_TYPES};

const void *posenc_struct_layout(void) { return &LAYOUT; }

int32_t posenc_build_flags(void) {
#if defined(__wasm_simd128__)
    return 1;
#else
    return 0;
#endif
}

#ifdef __EMSCRIPTEN__
#include <malloc.h>
/* Bytes the wasm heap allocator has handed out and not taken back: lets the JS leak tests see
 * a forgotten free() that the (never shrinking) memory size would hide. */
int32_t posenc_heap_in_use(void) {
    struct mallinfo mi = mallinfo();
    return (int32_t)mi.uordblks;
}
#endif
