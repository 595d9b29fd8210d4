// posenc in VitePress.
// - The element comes from npm (`npm install posenc-view`), imported once in the browser by
//   .vitepress/theme/index.ts. Vite's dev server must leave it out of dependency pre-bundling, or
//   its views and WebAssembly cores are not found next to it.
// - Vue must be told that posenc-view is a custom element, or the static HTML has <!----> where
//   the element should be and hydration reports a mismatch.
// - The iframe post frames the posenc page itself, served by the site under /posenc/ (web/dist
//   copied to docs/public/posenc: tools/blog_recipes.sh does), or by another host. posenc-embed.js
//   (which sizes posenc frames) loads from the site's head, not from a script in Markdown (VitePress
//   reads that as a Vue SFC block and the build fails); from head it also runs after client-side
//   navigation.
// - No style element and no height here: each snippet carries its height rule as an inline style.
import { defineConfig } from 'vitepress';

export default defineConfig({
  title: 'posenc in VitePress',
  head: [['script', { src: '/posenc/posenc-embed.js', async: '' }]],
  vue: { template: { compilerOptions: { isCustomElement: (tag) => tag === 'posenc-view' } } },
  vite: { optimizeDeps: { exclude: ['posenc-view'] } },
  themeConfig: { nav: [{ text: 'Element', link: '/posts/element' }, { text: 'Iframe', link: '/posts/iframe' }] },
});
