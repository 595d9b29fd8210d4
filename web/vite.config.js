import { defineConfig } from 'vite';

// The page imports the library from ../js and its wasm from ../dist, outside web/.
export default defineConfig({
  root: new URL('.', import.meta.url).pathname,
  base: './',
  server: { fs: { allow: ['..'] } },
  build: { outDir: 'dist', emptyOutDir: true, assetsInlineLimit: 0, target: 'es2022' },
});
