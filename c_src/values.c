/* values.c -- the finiteness scan behind the JS API's one rule for array inputs. */
#include <math.h>

#include "posenc.h"
#include "posenc_internal.h"

int32_t posenc_max_abs(float *out, const float *a, int32_t n) {
    if (!out || (!a && n > 0)) return POSENC_E_NULL;
    if (n < 0 || n > POSENC_MAX_ELEMENTS) return POSENC_E_SIZE;
    *out = n ? posenc__max_abs(a, (size_t)n) : 0.0f;
    return POSENC_OK;
}
