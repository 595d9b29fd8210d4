// The page's own cores (build.sh; SIMD only: an engine without SIMD gets the npm scalar core), written
// out literally so Vite copies them:
// - 'lean': the encodings, for the views that call no attention (an embedded heatmap);
// - 'attention': the encodings and attention (the page itself, Bias, the Shuffle lab).
// The posenc-view package builds page-cores-package.js in place of this file (vite.config.js).
export const PAGE_CORES = {
  lean: () => new URL('../../dist/posenc-page.simd.wasm', import.meta.url),
  attention: () => new URL('../../dist/posenc-page-attention.simd.wasm', import.meta.url),
};
