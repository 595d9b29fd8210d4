/*
 * ref_alibi.h -- ALiBi's double reference for tests/native/test_gqa.c (included through the
 * generated tests/native/ref_kinds.h): its descriptor for a problem (fixture_alibi) and the bias
 * it adds to a logit (ref_bias_alibi, the relative form m_h (j - i')).
 */
static void fixture_alibi(posenc_bias *b, int32_t H, int32_t D, int32_t DV, int seed) {
    (void)H, (void)D, (void)DV, (void)seed;
    b->form = POSENC_ALIBI_RELATIVE;
}
static double ref_bias_alibi(const posenc_bias *b, const ref_at *at) {
    (void)b;
    return posenc__alibi_slope(at->h, at->H) * (double)at->rp;
}
