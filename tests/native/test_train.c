/* Native tests of the extrapolation lab (train.c).
 *
 * 1. Gradients: train.c is compiled a second time here in float64 (POSENC_TRAIN_F64) and every
 *    parameter's analytic gradient is compared with a central finite difference (fourth order, h = 1e-4) for
 *    each positional method and task, on a 2-layer model with random (not initial) weights.
 *    Metric: |analytic - numeric| / max(|analytic|, |numeric|, 1e-6), which must be <= 1e-4.
 * 2. The deterministic exp and sincos against libm (native only; train.c never calls libm).
 * 3. The float API: same seed -> same bits, learned tables refuse evaluation past their rows.
 * With `--dump METHOD TASK STEPS SEED` it prints a hash of the trained float32 weights, which
 * families/train/train.test.js compares with the SIMD and scalar wasm builds.
 */
#pragma GCC diagnostic ignored "-Wunused-function"
#define POSENC_TRAIN_F64 1
#include "../../families/train/train.c"
#undef POSENC_TRAIN_F64

#include <stdio.h>
#include <stdlib.h>

#include "check.h"

static void config(int32_t *ic, float *fc, int32_t method, int32_t task, int32_t length,
                   int32_t dim, int32_t heads, int32_t layers, int32_t hidden, int32_t batch,
                   int32_t steps, int32_t seed, int32_t k) {
    ic[POSENC_TRAIN_TASK] = task;
    ic[POSENC_TRAIN_METHOD] = method;
    ic[POSENC_TRAIN_LENGTH] = length;
    ic[POSENC_TRAIN_DIM] = dim;
    ic[POSENC_TRAIN_HEADS] = heads;
    ic[POSENC_TRAIN_LAYERS] = layers;
    ic[POSENC_TRAIN_HIDDEN] = hidden;
    ic[POSENC_TRAIN_BATCH] = batch;
    ic[POSENC_TRAIN_STEPS] = steps;
    ic[POSENC_TRAIN_SEED] = seed;
    ic[POSENC_TRAIN_MAX_LENGTH] = length;
    ic[POSENC_TRAIN_K] = k;
    fc[POSENC_TRAIN_LR] = 3e-3f;
    fc[POSENC_TRAIN_WEIGHT_DECAY] = 0.01f;
    fc[POSENC_TRAIN_CLIP] = 1.0f;
    fc[POSENC_TRAIN_BETA1] = 0.9f;
    fc[POSENC_TRAIN_BETA2] = 0.99f;
    fc[POSENC_TRAIN_EPS] = 1e-8f;
}

static void gradcheck(int32_t method, int32_t task) {
    int32_t ic[POSENC_TRAIN_NINT];
    float fc[POSENC_TRAIN_NFLOAT];
    config(ic, fc, method, task, 10, 8, 2, 2, 12, 2, 10, 7, 3);
    pt_header hh;
    CHECK(pt_check_config(ic, fc, &hh) == POSENC_OK, "config");
    const int64_t bytes = pt_total_bytes(&hh);
    void *arena = malloc((size_t)bytes);
    CHECK(pt_setup(arena, bytes, ic, fc) == POSENC_OK, "setup");
    pt_model m;
    pt_open(arena, &m);
    const int64_t n = m.h->nparams;
    /* move every parameter off its initial value (zero biases, unit gains, zero T5) */
    for (int64_t e = 0; e < n; e++) m.param[e] += 0.3 * pt_sym(pt_rand(99, 5, (uint64_t)e));
    pt_loss_grad(&m, 0);
    double *ga = malloc(sizeof(double) * (size_t)n);
    memcpy(ga, m.grad, sizeof(double) * (size_t)n);
    pt_counts cn;
    double worst = 0, gmax = 0;
    int64_t at = -1, checked = 0;
    pt_forward(&m, m.h->batch, m.h->length, &cn);
    for (int64_t e = 0; e < n; e++) {
        /* fourth-order central difference: truncation O(h^4), rounding ~1e-11 absolute */
        const double w = m.param[e], hstep = 1e-4;
        double f[4];
        const double at4[4] = {-2, -1, 1, 2};
        for (int s = 0; s < 4; s++) {
            m.param[e] = w + at4[s] * hstep;
            f[s] = pt_forward(&m, m.h->batch, m.h->length, &cn) / (double)cn.scored;
        }
        m.param[e] = w;
        const double num = (8 * (f[2] - f[1]) - (f[3] - f[0])) / (12 * hstep);
        double den = fabs(ga[e]) > fabs(num) ? fabs(ga[e]) : fabs(num);
        if (den < 1e-6) den = 1e-6;
        const double rel = fabs(ga[e] - num) / den;
        if (rel > worst) {
            worst = rel;
            at = e;
        }
        if (fabs(num) > gmax) gmax = fabs(num);
        checked++;
    }
    /* the padding between segments has zero gradient both ways; a gradient that is
     * identically zero everywhere would be a broken test */
    CHECK(gmax > 1e-3, "method %d task %d: gradients vanish (max %g)", method, task, gmax);
    CHECK(worst <= 1e-4,
          "method %d task %d: worst relative error %.3g at parameter %lld (analytic %.9g)", method,
          task, worst, (long long)at, at >= 0 ? ga[at] : 0.0);
    printf("gradcheck method %d task %d: %lld parameters, worst relative error %.2e\n", method,
           task, (long long)checked, worst);
    free(ga);
    free(arena);
}

static void test_math(void) {
    double worst = 0;
    for (int i = 0; i <= 200000; i++) {
        const double x = -60.0 + 60.0 * i / 200000.0, e = pt_exp(x), r = exp(x);
        const double rel = fabs(e - r) / r;
        if (rel > worst) worst = rel;
    }
    CHECK(worst < 1e-14, "pt_exp relative error %g", worst);
    CHECK(pt_exp(-INFINITY) == 0.0 && pt_exp(-800) == 0.0, "pt_exp underflow");
    worst = 0;
    for (int i = 0; i <= 200000; i++) {
        const double x = -3000.0 + 6000.0 * i / 200000.0;
        double s, c;
        pt_sincos(x, &s, &c);
        const double err = fmax(fabs(s - sin(x)), fabs(c - cos(x)));
        if (err > worst) worst = err;
    }
    CHECK(worst < 1e-13, "pt_sincos abs error %g", worst);
}

static uint64_t fnv(const void *p, size_t n) {
    const unsigned char *b = p;
    uint64_t h = 14695981039346656037ull;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

/* trains with the float32 API and returns the FNV-1a hash of the weights */
static uint64_t train_hash(int32_t method, int32_t task, int32_t steps, int32_t seed,
                           float *last_loss) {
    int32_t ic[POSENC_TRAIN_NINT];
    float fc[POSENC_TRAIN_NFLOAT];
    config(ic, fc, method, task, 16, 16, 2, 2, 32, 4, steps, seed, 3);
    const int32_t bytes = posenc_train_size(ic, fc);
    if (bytes < 0) return 0;
    void *arena = malloc((size_t)bytes);
    uint64_t h = 0;
    if (posenc_train_init(arena, bytes, ic, fc) == POSENC_OK) {
        float *losses = malloc(sizeof(float) * (size_t)steps);
        if (posenc_train_step(arena, steps, losses) == POSENC_OK) {
            const int32_t n = posenc_train_param_count(arena);
            float *w = malloc(sizeof(float) * (size_t)n);
            posenc_train_params(arena, w, n, 0);
            h = fnv(w, sizeof(float) * (size_t)n);
            free(w);
            if (last_loss) *last_loss = losses[steps - 1];
        }
        free(losses);
    }
    free(arena);
    return h;
}

static void test_float_api(void) {
    float l1 = 0, l2 = 0;
    const uint64_t a = train_hash(POSENC_PE_ROPE, POSENC_TASK_COPY, 5, 3, &l1);
    const uint64_t b = train_hash(POSENC_PE_ROPE, POSENC_TASK_COPY, 5, 3, &l2);
    const uint64_t c = train_hash(POSENC_PE_ROPE, POSENC_TASK_COPY, 5, 4, NULL);
    CHECK(a != 0 && a == b && l1 == l2, "same seed, same bits");
    CHECK(a != c, "another seed, other weights");

    int32_t ic[POSENC_TRAIN_NINT];
    float fc[POSENC_TRAIN_NFLOAT];
    double res[POSENC_TRAIN_NRESULT];
    for (int32_t method = 0; method <= POSENC_PE_T5; method++) {
        config(ic, fc, method, POSENC_TASK_COPY, 16, 16, 2, 1, 32, 4, 10, 1, 3);
        ic[POSENC_TRAIN_MAX_LENGTH] = 64;
        const int32_t bytes = posenc_train_size(ic, fc);
        CHECK(bytes > 0, "size");
        void *arena = malloc((size_t)bytes);
        CHECK(posenc_train_init(arena, bytes, ic, fc) == POSENC_OK, "init");
        CHECK(posenc_train_init(arena, bytes - 1, ic, fc) == POSENC_E_SCRATCH, "short arena");
        CHECK(posenc_train_init(arena, bytes, ic, fc) == POSENC_OK, "init");
        CHECK(posenc_train_evaluate(arena, 16, 8, 0, NULL, 1.0, res) == POSENC_OK,
              "in-table evaluation");
        CHECK(res[0] >= 0 && res[0] <= 1, "accuracy in [0, 1]");
        const int32_t st = posenc_train_evaluate(arena, 64, 8, 0, NULL, 1.0, res);
        if (method == POSENC_PE_LEARNED)
            CHECK(st == POSENC_E_RANGE, "learned past its table: %d", st);
        else
            CHECK(st == POSENC_OK, "method %d evaluates at 4x", method);
        CHECK(posenc_train_evaluate(arena, 65, 8, 0, NULL, 1.0, res) == POSENC_E_SIZE,
              "past the arena");
        free(arena);
    }
    config(ic, fc, 9, 0, 16, 16, 2, 1, 32, 4, 10, 1, 3);
    CHECK(posenc_train_size(ic, fc) == POSENC_E_ENUM, "bad method");
    config(ic, fc, 0, 0, 16, 18, 4, 1, 32, 4, 10, 1, 3);
    CHECK(posenc_train_size(ic, fc) == POSENC_E_ODD, "heads must divide dim into even widths");
    config(ic, fc, 0, 0, 16, 16, 2, 1, 32, 4, 10, 1, 16);
    CHECK(posenc_train_size(ic, fc) == POSENC_E_PARAM, "k below length");
    config(ic, fc, 0, 0, 16, 16, 2, 1, 32, 4, 10, 1, 3);
    fc[POSENC_TRAIN_LR] = NAN;
    CHECK(posenc_train_size(ic, fc) == POSENC_E_PARAM, "NaN rate");
}

/* Evaluation frequencies far above 1 (found by fuzz_core): an angle t * inv_freq beyond
 * pt_sincos's domain overflowed its int64 quotient (UB; a trap in wasm). inv_freq above 16 is
 * refused; 16 itself still evaluates at the arena's longest length. */
static void test_eval_freqs(void) {
    int32_t ic[POSENC_TRAIN_NINT];
    float fc[POSENC_TRAIN_NFLOAT];
    double res[POSENC_TRAIN_NRESULT];
    float w[2 * 16 * 16];
    int32_t tok[16];
    config(ic, fc, POSENC_PE_ROPE, POSENC_TASK_COPY, 8, 16, 2, 1, 16, 2, 4, 1, 3);
    ic[POSENC_TRAIN_MAX_LENGTH] = 16;
    const int32_t bytes = posenc_train_size(ic, fc);
    CHECK(bytes > 0, "size");
    void *arena = malloc((size_t)bytes);
    CHECK(posenc_train_init(arena, bytes, ic, fc) == POSENC_OK, "init");
    const double big[] = {1e300, 1.7976931348623157e308, 1e30, 16.5};
    for (int i = 0; i < 4; i++) {
        const double inv[4] = {1.0, 0.5, big[i], 0.0};
        CHECK(posenc_train_evaluate(arena, 16, 2, 0, inv, 1.0, res) == POSENC_E_PARAM,
              "evaluate inv_freq %g", big[i]);
        CHECK(posenc_train_attention(arena, 16, 0, 0, inv, 1.0, w, tok) == POSENC_E_PARAM,
              "attention inv_freq %g", big[i]);
    }
    const double edge[4] = {16.0, 1.0, 1e-3, 0.0};
    CHECK(posenc_train_evaluate(arena, 16, 2, 0, edge, 1.0, res) == POSENC_OK,
          "inv_freq 16 evaluates");
    CHECK(res[0] >= 0 && res[0] <= 1, "accuracy in [0, 1]");
    CHECK(posenc_train_attention(arena, 16, 0, 0, edge, 1.0, w, tok) == POSENC_OK,
          "inv_freq 16 attention");
    free(arena);
}

/* The arena's header is not trusted (found by a reproduction: one field edited after init made
 * posenc_train_step lay the arena out past its end, an ASan heap overflow): every edited field
 * is refused, as is an arena that is not 8-byte aligned. */
static void test_arena_header(void) {
    int32_t ic[POSENC_TRAIN_NINT];
    float fc[POSENC_TRAIN_NFLOAT];
    float losses[2];
    config(ic, fc, POSENC_PE_ROPE, POSENC_TASK_COPY, 16, 16, 2, 1, 16, 4, 10, 1, 4);
    const int32_t bytes = posenc_train_size(ic, fc);
    CHECK(bytes > 0, "size");
    char *raw = malloc((size_t)bytes + 16);
    CHECK(posenc_train_init(raw + 1, bytes, ic, fc) == POSENC_E_PARAM, "misaligned arena refused");
    CHECK(posenc_train_init(raw + 4, bytes, ic, fc) == POSENC_E_PARAM,
          "4-byte aligned arena refused");
    CHECK(posenc_train_init(raw, bytes, ic, fc) == POSENC_OK, "init");
    CHECK(posenc_train_step(raw, 1, losses) == POSENC_OK, "a step on the untouched arena");
    char *copy = malloc((size_t)bytes);
    memcpy(copy, raw, (size_t)bytes);
    /* each int32 of the configuration in turn, set to a plausible other value */
    const size_t first = offsetof(pt_header, task), last = offsetof(pt_header, tcap);
    int refused = 0, fields = 0;
    for (size_t off = first; off <= last; off += 4) {
        memcpy(raw, copy, (size_t)bytes);
        int32_t v;
        memcpy(&v, raw + off, 4);
        v = v == 4 ? 1 : 4;
        memcpy(raw + off, &v, 4);
        fields++;
        refused += posenc_train_step(raw, 1, losses) == POSENC_E_PARAM &&
                   posenc_train_param_count(raw) == POSENC_E_PARAM;
    }
    CHECK(fields == 14 && refused == fields, "edited header fields refused: %d of %d", refused,
          fields);
    memcpy(raw, copy, (size_t)bytes);
    ((pt_header *)raw)->bytes = (int64_t)bytes * 4;
    CHECK(posenc_train_step(raw, 1, losses) == POSENC_E_PARAM, "edited arena size refused");
    memcpy(raw, copy, (size_t)bytes);
    CHECK(posenc_train_step(raw, 1, losses) == POSENC_OK, "the restored arena trains");
    free(copy);
    free(raw);
}

/* A forward pass that overflows (finite parameters far outside what training produces) is an
 * error from evaluate and attention, never NaN weights or an accuracy computed from NaN. */
static void test_nonfinite_forward(void) {
    int32_t ic[POSENC_TRAIN_NINT];
    float fc[POSENC_TRAIN_NFLOAT];
    double res[POSENC_TRAIN_NRESULT];
    float w[2 * 16 * 16];
    int32_t tok[16];
    config(ic, fc, POSENC_PE_ROPE, POSENC_TASK_COPY, 16, 16, 2, 1, 16, 4, 10, 1, 4);
    const int32_t bytes = posenc_train_size(ic, fc);
    void *arena = malloc((size_t)bytes);
    CHECK(posenc_train_init(arena, bytes, ic, fc) == POSENC_OK, "init");
    const int32_t n = posenc_train_param_count(arena);
    float *p = malloc(sizeof(float) * (size_t)n);
    posenc_train_params(arena, p, n, 0);
    CHECK(posenc_train_evaluate(arena, 16, 4, 1, NULL, 1.0, res) == POSENC_OK, "evaluates");
    CHECK(posenc_train_attention(arena, 16, 0, 1, NULL, 1.0, w, tok) == POSENC_OK, "attention");
    for (int32_t e = 0; e < n; e++) p[e] *= 1e10f;
    CHECK(posenc_train_params(arena, p, n, 1) == POSENC_OK, "store");
    CHECK(posenc_train_evaluate(arena, 16, 4, 1, NULL, 1.0, res) == POSENC_E_PARAM,
          "overflowing evaluate refused");
    CHECK(posenc_train_attention(arena, 16, 0, 1, NULL, 1.0, w, tok) == POSENC_E_PARAM,
          "overflowing attention refused");
    free(p);
    free(arena);
}

int main(int argc, char **argv) {
    if (argc == 6 && strcmp(argv[1], "--dump") == 0) {
        float loss = 0;
        const uint64_t h =
            train_hash(atoi(argv[2]), atoi(argv[3]), atoi(argv[4]), atoi(argv[5]), &loss);
        printf("%016llx %.9g\n", (unsigned long long)h, (double)loss);
        return h ? 0 : 1;
    }
    test_math();
    for (int32_t method = 0; method <= POSENC_PE_T5; method++) gradcheck(method, POSENC_TASK_COPY);
    gradcheck(POSENC_PE_ROPE, POSENC_TASK_PERIODIC);
    gradcheck(POSENC_PE_T5, POSENC_TASK_FIRST);
    gradcheck(POSENC_PE_LEARNED, POSENC_TASK_FIRST);
    gradcheck(POSENC_PE_ALIBI, POSENC_TASK_NGRAM);
    test_float_api();
    test_arena_header();
    test_nonfinite_forward();
    test_eval_freqs();
    return CHECK_DONE();
}
