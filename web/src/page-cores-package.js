// The page's cores as the posenc-view package ships them (vite.config.js builds this file in place
// of page-cores.js): each a JS module holding the wasm gzipped as base64, loaded by a literal
// import(), the one way to name a file that every bundler follows with no configuration (a
// `new URL('….wasm', import.meta.url)` is copied by Vite, webpack and Parcel, and left dangling by
// esbuild and Rollup). A script, not a fetch, so a host's CSP needs no connect-src for it either.

/** The bytes of a core module (its default export: base64 text of the gzipped wasm). */
async function bytes(m) {
  const gz = Uint8Array.from(atob(m.default), (c) => c.charCodeAt(0));
  const stream = new Blob([gz]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

export const PAGE_CORES = {
  lean: () => import('../../dist/posenc-page.simd.wasm?gzip64').then(bytes),
  attention: () => import('../../dist/posenc-page-attention.simd.wasm?gzip64').then(bytes),
};
