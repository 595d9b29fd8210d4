/* status.c -- names of status codes (tests/one_source.test.js checks each posenc.h code has a
 * case), and build flags. */
#include "posenc.h"

const char *posenc_status_string(int32_t code) {
    switch (code) {
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
        default:
            return "unknown status code";
    }
}

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
