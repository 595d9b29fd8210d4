// posenc-embed.js: sizes every posenc iframe on a page to its content. Add it once, anywhere:
//   <iframe src="https://…/posenc/?embed=1&view=rotation" width="100%" height="420" loading="lazy"
//     title="posenc: RoPE rotation" style="border:0"></iframe>
//   <script src="https://…/posenc/posenc-embed.js" async></script>
// The embedded page posts { type: 'posenc:height', height } as soon as it knows its height (before its
// WebAssembly arrives) and whenever it changes; only messages from an iframe on this page count.
(() => {
  if (window.__posencEmbed) return;
  window.__posencEmbed = true;
  addEventListener('message', (e) => {
    const d = e.data;
    if (!d || d.type !== 'posenc:height' || !Number.isFinite(d.height) || d.height <= 0) return;
    for (const f of document.querySelectorAll('iframe')) {
      if (f.contentWindow !== e.source) continue;
      // The frame's own border and padding come on top of its content's height.
      const cs = getComputedStyle(f);
      const extra = cs.boxSizing === 'border-box'
        ? parseFloat(cs.borderTopWidth) + parseFloat(cs.borderBottomWidth) + parseFloat(cs.paddingTop) + parseFloat(cs.paddingBottom) : 0;
      f.style.height = `${Math.ceil(Math.min(d.height, 20000) + extra)}px`;
      f.dataset.posencHeight = String(d.height);
    }
  });
})();
