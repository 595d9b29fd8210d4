/*
 * ref_shaw.h -- Shaw et al.'s double reference for tests/native/test_gqa.c (included through the
 * generated tests/native/ref_kinds.h): random aK, aV of 2k+1 rows (k = 3, or seed 1: 2), the
 * logit term scale q.aK[clip(rp)] and the value term aV[clip(rp)].
 */
static void fixture_shaw(posenc_bias *b, int32_t H, int32_t D, int32_t DV, int seed) {
    (void)H;
    b->max_relative = seed ? 2 : 3;
    b->a_k = rand_array((size_t)(2 * b->max_relative + 1) * (size_t)D);
    b->a_v = rand_array((size_t)(2 * b->max_relative + 1) * (size_t)DV);
}
static int32_t shaw_row(const posenc_bias *b, int64_t rp) {
    const int32_t k = b->max_relative;
    return (int32_t)(rp < -k ? -k : rp > k ? k : rp) + k;
}
static double ref_bias_shaw(const posenc_bias *b, const ref_at *at) {
    double e = 0;
    for (int32_t c = 0; c < at->D; c++)
        e += at->f * at->qi[c] * b->a_k[(size_t)shaw_row(b, at->rp) * at->D + c];
    return at->scale * e;
}
static double ref_value_shaw(const posenc_bias *b, const ref_at *at, int32_t c) {
    return b->a_v[(size_t)shaw_row(b, at->rp) * at->DV + c];
}
#define REF_VALUE_SHAW ref_value_shaw
