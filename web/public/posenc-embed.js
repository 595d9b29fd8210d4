// posenc-embed.js: sizes every posenc iframe on a page to its content and tells it the page's theme.
// Add it once, anywhere:
//   <iframe src="https://…/posenc/?embed=1&view=rotation" width="100%" height="1160" loading="lazy"
//     title="posenc: RoPE rotation"></iframe>
//   <script src="https://…/posenc/posenc-embed.js" async></script>
// The embedded page posts { type: 'posenc:height', height } as soon as it knows its height (before
// its WebAssembly arrives) and whenever it changes. Only a posenc frame counts: an iframe whose src
// is on an origin this page registered, and whose window sent the message from that origin ('null'
// for a sandboxed frame without allow-same-origin). The registered origins are this script's own
// origin, the absolute http(s) origins listed in its data-origins attribute (space-separated; any
// other entry is ignored with a console warning), and any added later with
// window.posencEmbed.register(origin). The host page's own origin is not one unless listed. Nothing
// in a frame's URL makes it a posenc frame: an ad or a reader-supplied iframe from another origin
// is left alone whatever its link says. A frame whose post reserved its box (the snippet's
// data-posenc-box: its height is decided from the column width before any script runs) keeps that
// height: the view fits the box, so nothing below it moves; only bare frames are resized.
// A frame with theme=auto (or none) is told this page's theme whenever it changes: a `dark`/`light`
// class or data-theme on <html>, else its color-scheme (the same rule as web/src/theme.js hostTheme).
(() => {
  /** The origin of an absolute http(s) URL, or ''. Never resolved against this page: an empty or
   * relative string (a missing data-origins, "null", a bare host name) must not register the host
   * page's own origin, whose other frames (a comments widget, an upload) are not posenc's. */
  const originOf = (u) => {
    try {
      const url = new URL(String(u));
      return /^https?:$/.test(url.protocol) ? url.origin : '';
    } catch {
      return '';
    }
  };
  /** `s` when it is exactly an http(s) origin (a trailing slash allowed), else ''. */
  const exactOrigin = (s) => {
    const o = originOf(s);
    return o && o === String(s).replace(/\/$/, '') ? o : '';
  };
  const me = document.currentScript;
  const listed = [originOf(me?.src ?? '')].filter(Boolean);
  for (const entry of String(me?.dataset.origins ?? '')
    .split(/\s+/)
    .filter(Boolean)) {
    const o = exactOrigin(entry);
    if (o) listed.push(o);
    else console.warn(`posenc-embed.js: data-origins entry ignored, not an http(s) origin: ${entry}`);
  }
  // A second copy of this script (two snippets in one post) adds its origins to the first's.
  if (window.posencEmbed?.register) {
    for (const o of listed) window.posencEmbed.register(o);
    return;
  }
  const origins = new Set(listed);
  window.posencEmbed = Object.freeze({
    /** Count frames from `origin` (e.g. 'https://posenc.example') as posenc frames. */
    register(origin) {
      const o = exactOrigin(origin);
      if (!o) throw new TypeError(`posencEmbed.register: not an http(s) origin: ${origin}`);
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
  /** Size a bare frame to its content's height; its own border and padding come on top. */
  const size = (f, height) => {
    const cs = getComputedStyle(f);
    const extra =
      cs.boxSizing === 'border-box'
        ? parseFloat(cs.borderTopWidth) +
          parseFloat(cs.borderBottomWidth) +
          parseFloat(cs.paddingTop) +
          parseFloat(cs.paddingBottom)
        : 0;
    f.style.height = `${Math.ceil(Math.min(height, 20000) + extra)}px`;
  };
  let last = theme();
  addEventListener('message', (e) => {
    const d = e.data;
    if (!d || d.type !== 'posenc:height' || !Number.isFinite(d.height) || d.height <= 0) return;
    for (const [f, info] of known()) {
      if (f.contentWindow !== e.source || e.origin !== info.origin) continue;
      f.dataset.posencHeight = String(d.height);
      if (!f.hasAttribute('data-posenc-box')) size(f, d.height);
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
