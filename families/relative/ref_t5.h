/*
 * ref_t5.h -- T5's double reference for tests/native/test_gqa.c (included through the generated
 * tests/native/ref_kinds.h): a random table of buckets x heads (an encoder's 32 bidirectional
 * buckets, or seed 1: a decoder's 16) and the bias of a bucket.
 */
static void fixture_t5(posenc_bias *b, int32_t H, int32_t D, int32_t DV, int seed) {
    (void)D, (void)DV;
    b->num_buckets = seed ? 16 : 32, b->max_distance = seed ? 40 : 128, b->bidirectional = !seed;
    b->table = rand_array((size_t)b->num_buckets * (size_t)H);
}
static double ref_bias_t5(const posenc_bias *b, const ref_at *at) {
    const int32_t bucket =
        posenc__t5_bucket(at->rp, b->bidirectional, b->num_buckets, b->max_distance);
    return b->table[(size_t)bucket * at->H + at->h];
}
