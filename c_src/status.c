/* status.c -- names of status codes, and build flags. */
#include "posenc.h"

const char *posenc_status_string(int32_t code) {
    switch (code) {
    case POSENC_OK: return "ok";
    case POSENC_E_NULL: return "a required buffer is missing (NULL pointer)";
    case POSENC_E_SIZE: return "a size is out of range (below 1 or too many elements)";
    case POSENC_E_ODD: return "a dimension must be even";
    case POSENC_E_PARAM: return "a parameter is not finite or out of range";
    case POSENC_E_ENUM: return "an option has an unknown value";
    case POSENC_E_RANGE: return "an index or position lies outside its table";
    case POSENC_E_SCRATCH: return "a buffer is smaller than required";
    case POSENC_E_MISSING: return "a required parameter is missing";
    case POSENC_E_NOMEM: return "out of memory";
    default: return "unknown status code";
    }
}

int32_t posenc_build_flags(void) {
#if defined(__wasm_simd128__)
    return 1;
#else
    return 0;
#endif
}
