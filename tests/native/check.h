/* check.h -- the whole native test framework: CHECK counts failures, main returns them. */
#ifndef POSENC_CHECK_H
#define POSENC_CHECK_H
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static int check_failures = 0;
static int check_count = 0;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        check_count++;                                                                             \
        if (!(cond)) {                                                                             \
            check_failures++;                                                                      \
            fprintf(stderr, "%s:%d: CHECK(%s) failed: ", __FILE__, __LINE__, #cond);               \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
        }                                                                                          \
    } while (0)

/* The plain closing line the test runners read. */
#define CHECK_DONE()                                                                               \
    (printf("%d passed, %d failed\n", check_count - check_failures, check_failures),               \
     check_failures ? 1 : 0)

/* Seeded test data: an LCG, so every run and every build draws the same numbers. A test file
 * picks its own stream by defining CHECK_RNG_SEED before including this header. */
#ifndef CHECK_RNG_SEED
#define CHECK_RNG_SEED 12345u
#endif
static uint32_t rng_state = CHECK_RNG_SEED;
static inline float frand(void) { /* uniform in [-1, 1) */
    rng_state = rng_state * 1664525u + 1013904223u;
    return (float)((rng_state >> 8) * (1.0 / 8388608.0)) - 1.0f;
}
static inline float *rand_array(size_t n) { /* n values from frand(); the caller frees */
    float *a = malloc(sizeof(float) * (n ? n : 1));
    for (size_t i = 0; i < n; i++) a[i] = frand();
    return a;
}

#endif
