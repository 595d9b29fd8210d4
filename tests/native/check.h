/* check.h -- the whole native test framework: CHECK counts failures, main returns them. */
#ifndef POSENC_CHECK_H
#define POSENC_CHECK_H
#include <math.h>
#include <stdio.h>

static int check_failures = 0;
static int check_count = 0;

#define CHECK(cond, ...)                                                        \
    do {                                                                        \
        check_count++;                                                          \
        if (!(cond)) {                                                          \
            check_failures++;                                                   \
            fprintf(stderr, "%s:%d: CHECK(%s) failed: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                       \
            fputc('\n', stderr);                                                \
        }                                                                       \
    } while (0)

/* The plain closing line the test runners read. */
#define CHECK_DONE()                                                            \
    (printf("%d passed, %d failed\n", check_count - check_failures, check_failures), \
     check_failures ? 1 : 0)

#endif
