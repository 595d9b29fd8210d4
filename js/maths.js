// Formulas more than one module uses, each written once here (their C twins are named). No
// imports, so the page's lean chunks can take one without pulling in the API.

/** The largest float32 (C's FLT_MAX) as a double: a float32 output above it would be inf. */
export const FLT_MAX = 3.4028234663852886e38;

/**
 * T5 _relative_position_bucket's exact range: the distances below it get a bucket each, half of
 * the buckets (of each direction's half when bidirectional). maxDistance must exceed it so the
 * log-spaced buckets are defined. C: c_src/posenc_internal.h posenc__t5_max_exact.
 */
export const t5MaxExact = (bidirectional, numBuckets) => (bidirectional ? numBuckets >> 1 : numBuckets) >> 1;

/**
 * YaRN's attention temperature get_mscale(scale, mscale) = 0.1 · mscale · ln(scale) + 1 (1 for
 * scale <= 1), as Hugging Face modeling_rope_utils.py _compute_yarn_parameters and DeepSeek-V2's
 * softmax scale use it. C: families/rope/rope.c get_mscale.
 */
export const yarnMscale = (scale, mscale = 1) => (scale <= 1 ? 1 : 0.1 * mscale * Math.log(scale) + 1);
