// posenc-embed.js: sizes every posenc iframe on a page to its content and tells it the page's theme.
// Add it once, anywhere:
//   <iframe src="https://…/posenc/?embed=1&view=rotation" width="100%" height="1160" loading="lazy"
//     title="posenc: RoPE rotation"></iframe>
//   <script src="https://…/posenc/posenc-embed.js" async></script>
// The embedded page posts { type: 'posenc:height', height } as soon as it knows its height (before
// its WebAssembly arrives) and whenever it changes. Only a posenc frame counts: an iframe whose src
// is on an origin this page registered, and whose window sent the message from that origin ('null'
// for a sandboxed frame without allow-same-origin). The registered origins are this script's own
// origin, the origins listed in its data-origins attribute (space-separated), and any added later
// with window.posencEmbed.register(origin). Nothing in a frame's URL makes it a posenc frame: an
// ad or a reader-supplied iframe from another origin is left alone whatever its link says.
// A frame with theme=auto (or none) is told this page's theme whenever it changes: a `dark`/`light`
// class or data-theme on <html>, else its color-scheme (the same rule as web/src/theme.js hostTheme).
(() => {
  /** An origin string of http(s) or nothing. */
  const originOf = (u) => {
    try {
      const url = new URL(u, location.href);
      return /^https?:$/.test(url.protocol) ? url.origin : '';
    } catch {
      return '';
    }
  };
  const me = document.currentScript;
  const listed = [me?.src ?? '', ...String(me?.dataset.origins ?? '').split(/\s+/)].map(originOf).filter(Boolean);
  // A second copy of this script (two snippets in one post) adds its origins to the first's.
  if (window.posencEmbed?.register) {
    for (const o of listed) window.posencEmbed.register(o);
    return;
  }
  const origins = new Set(listed);
  window.posencEmbed = Object.freeze({
    /** Count frames from `origin` (e.g. 'https://posenc.example') as posenc frames. */
    register(origin) {
      const o = originOf(origin);
      if (!o || o !== String(origin).replace(/\/$/, ''))
        throw new TypeError(`posencEmbed.register: not an http(s) origin: ${origin}`);
      origins.add(o);
    },
  });
  /** The posenc frames of this page: iframe -> the origin its messages must come from. */
  const known = () => {
    const out = new Map();
    for (const f of document.querySelectorAll('iframe[src]')) {
      let u;
      try {
        u = new URL(f.getAttribute('src'), location.href);
      } catch {
        continue;
      }
      if (!/^https?:$/.test(u.protocol) || !origins.has(u.origin)) continue;
      const opaque = f.hasAttribute('sandbox') && !f.sandbox.contains('allow-same-origin');
      out.set(f, {
        origin: opaque ? 'null' : u.origin,
        auto: !/^(light|dark)$/.test(u.searchParams.get('theme') ?? ''),
      });
    }
    return out;
  };
  const theme = () => {
    const h = document.documentElement;
    const t = (h.getAttribute('data-theme') ?? '').toLowerCase();
    if (h.classList.contains('dark') || t === 'dark') return 'dark';
    if (h.classList.contains('light') || t === 'light') return 'light';
    const cs = getComputedStyle(h).colorScheme.trim().split(/\s+/);
    return cs.length === 1 && (cs[0] === 'dark' || cs[0] === 'light') ? cs[0] : 'auto';
  };
  const tell = (f, info, t) =>
    f.contentWindow?.postMessage({ type: 'posenc:theme', theme: t }, info.origin === 'null' ? '*' : info.origin);
  let last = theme();
  addEventListener('message', (e) => {
    const d = e.data;
    if (!d || d.type !== 'posenc:height' || !Number.isFinite(d.height) || d.height <= 0) return;
    for (const [f, info] of known()) {
      if (f.contentWindow !== e.source || e.origin !== info.origin) continue;
      // The frame's own border and padding come on top of its content's height.
      const cs = getComputedStyle(f);
      const extra =
        cs.boxSizing === 'border-box'
          ? parseFloat(cs.borderTopWidth) +
            parseFloat(cs.borderBottomWidth) +
            parseFloat(cs.paddingTop) +
            parseFloat(cs.paddingBottom)
          : 0;
      f.style.height = `${Math.ceil(Math.min(d.height, 20000) + extra)}px`;
      f.dataset.posencHeight = String(d.height);
      // A frame that has just laid out learns the page's theme (its first height comes first).
      if (info.auto && f.dataset.posencTheme !== last) {
        f.dataset.posencTheme = last;
        tell(f, info, last);
      }
    }
  });
  const watch = () => {
    const t = theme();
    if (t === last) return;
    last = t;
    for (const [f, info] of known()) {
      if (!info.auto || !f.dataset.posencHeight) continue;
      f.dataset.posencTheme = t;
      tell(f, info, t);
    }
  };
  new MutationObserver(watch).observe(document.documentElement, {
    attributes: true,
    attributeFilter: ['class', 'data-theme', 'style'],
  });
  matchMedia('(prefers-color-scheme: dark)').addEventListener?.('change', watch);
})();
