// The default theme, plus <posenc-view> from the posenc-view package. The element's module defines
// a custom element when it runs, which needs a browser: import it on the client only (the SSR
// build renders the element's tag, its attributes and its fallback link as they are). One import
// serves every page, client-side navigation included.
// Without npm: the versioned file from an npm CDN, in config.mts's head instead,
//   ['script', { type: 'module', src: 'https://cdn.jsdelivr.net/npm/posenc-view@0.1.0/posenc-view.js' }]
import DefaultTheme from 'vitepress/theme';

export default {
  extends: DefaultTheme,
  enhanceApp() {
    if (!import.meta.env.SSR) import('posenc-view');
  },
};
