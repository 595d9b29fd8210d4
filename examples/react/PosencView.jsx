// <posenc-view> in React 18 and 19, from the posenc-view package (`npm install posenc-view`), with
// posenc-heights.js next to this file (examples/heights.mjs writes it from the posenc page's tables:
// the package does not export them).
// - What the posenc page's "Copy embed code" writes: the element is a size container and the link
//   inside it reserves the view's height from the column's width alone (posencHeight: a
//   calc(clamp()) min-height), in the server's HTML and before the element's script runs, so
//   nothing below it moves when the view arrives. The link is the fallback: feed readers and
//   readers without JavaScript see it, and it shows under the element's message if the view
//   cannot start. `page` is where the posenc page is served (a copy of its web/dist, or its host).
// - The element's module defines a custom element when it runs, which needs a browser: it is
//   imported from an effect, so server rendering (Next.js, Remix, Astro islands) never runs it; a
//   client-only app may `import 'posenc-view'` at the top instead. Vite's dev server: add
//   `optimizeDeps: { exclude: ['posenc-view'] }`.
// - Attributes as strings: React 18 passes custom-element props as attributes, numbers too, but
//   turns className into a `classname` attribute; `class` works in both.
// - Events through a ref: React 18 ignores on<custom-event> props on custom elements.
// - Unmounting is safe: a removed element frees its WebAssembly buffers, listeners and animation.
// TypeScript with React 19: `import type {} from 'posenc-view/react';` once declares the element.
import { useEffect, useRef } from 'react';
import { posencHeight, posencTitle } from './posenc-heights.js';

let loading = null;
const load = () => {
  loading ??= import('posenc-view');
  return loading;
};

// Every prop but view/page/onRender is an attribute of the element and a key of the link (the
// page's URL keys: method, dim, theme, ...); the fallback is the link, so children are not taken.
export function PosencView({ view = 'heatmap', page = '/posenc/', onRender, children: _children, ...rest }) {
  const ref = useRef(null);
  useEffect(() => {
    load();
  }, []);
  useEffect(() => {
    const el = ref.current;
    if (!el || !onRender) return undefined;
    el.addEventListener('posenc-render', onRender);
    return () => el.removeEventListener('posenc-render', onRender);
  }, [onRender]);
  const attrs = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, String(v)]));
  const link = `${page}?${new URLSearchParams({ view, ...attrs })}`;
  return (
    <posenc-view ref={ref} class="posenc" view={view} {...attrs} style={{ display: 'block', containerType: 'inline-size' }}>
      <a href={link} style={{ display: 'block', minHeight: posencHeight(view) }}>
        {`${posencTitle(view)} (interactive)`}
      </a>
    </posenc-view>
  );
}

// Usage, e.g. in a route:
//   <PosencView view="rotation" method="rope" dim={32} theme="auto" onRender={(e) => console.log(e.detail.ms)} />
