// posenc in VitePress: web/dist is copied to docs/public/posenc (tools/blog_recipes.sh does).
// - The scripts load from the site's head, not from a <script> in Markdown (VitePress reads that as
//   a Vue SFC block and the build fails); from head they also run after client-side navigation.
// - Vue must be told that posenc-view is a custom element, or the static HTML has <!----> where
//   the element should be and hydration reports a mismatch.
import { defineConfig } from 'vitepress';

export default defineConfig({
  title: 'posenc in VitePress',
  head: [
    ['script', { type: 'module', src: '/posenc/posenc-view.js' }],
    ['script', { src: '/posenc/posenc-embed.js', async: '' }],
    // the element's height before its script arrives (docs/embedding.md, Heights)
    ['style', {}, 'posenc-view { display: block; min-height: 1000px }'],
  ],
  vue: { template: { compilerOptions: { isCustomElement: (tag) => tag === 'posenc-view' } } },
  themeConfig: { nav: [{ text: 'Element', link: '/posts/element' }, { text: 'Iframe', link: '/posts/iframe' }] },
});
