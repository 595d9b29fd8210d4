// <posenc-view> in React 18 and 19. Load the element once (index.html):
//   <script type="module" src="/posenc/posenc-view.js"></script>
// - Attributes as strings: React 18 passes custom-element props as attributes, numbers too, but
//   turns className into a `classname` attribute; `class` works in both.
// - Events through a ref: React 18 ignores on<custom-event> props on custom elements.
// - Unmounting is safe: a removed element frees its WebAssembly buffers, listeners and animation.
import { useEffect, useRef } from 'react';

export function PosencView({ view = 'heatmap', method = 'sinusoidal', dim = 64, theme = 'auto', minHeight = 1056, onRender, ...rest }) {
  const ref = useRef(null);
  useEffect(() => {
    const el = ref.current;
    if (!el || !onRender) return undefined;
    el.addEventListener('posenc-render', onRender);
    return () => el.removeEventListener('posenc-render', onRender);
  }, [onRender]);
  const attrs = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, String(v)]));
  return (
    <posenc-view ref={ref} class="posenc" view={view} method={method} dim={String(dim)} theme={theme}
      style={{ display: 'block', minHeight: `${minHeight}px` }} {...attrs} />
  );
}

// Usage, e.g. in a route:
//   <PosencView view="rotation" method="rope" dim={32} minHeight={1233} onRender={(e) => console.log(e.detail.ms)} />
