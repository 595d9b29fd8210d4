'use client';
// React 18 and 19 components for posenc embeds (`import { PosencView, PosencFrame } from
// 'posenc-view/react'`): the markup of the posenc page's "Copy embed code", with the height it
// reserves, rendered on the server as on the client. The element's module defines a custom
// element, which needs a browser: it is imported from an effect, so server rendering (Next.js,
// Remix, Astro islands) never runs it. 'use client': React Server Components (Next.js's App Router)
// render them as client components, which they are (effects, refs).
import { createElement, useEffect, useRef } from 'react';
import { posencEmbed } from './embed.js';

let loading = null;
/** Load (once) the module that defines <posenc-view>. */
export const loadPosencView = () => {
  loading ??= import('./posenc-view.js');
  return loading;
};

/** `handler` on `ref`'s element for `type` while mounted (React 18 ignores on<custom-event> props). */
function useEvent(ref, type, handler) {
  useEffect(() => {
    const el = ref.current;
    if (!el || !handler) return undefined;
    el.addEventListener(type, handler);
    return () => el.removeEventListener(type, handler);
  }, [ref, type, handler]);
}

/**
 * <posenc-view> with its fallback link, which reserves the view's height from the column's width
 * before the element's script runs. Props: `view`, `page` (the posenc page's folder URL, where the
 * fallback link points; default '/posenc/'), `onRender`, `onError`, and every attribute of the
 * element (method, dim, theme, ...: strings or numbers). An unknown view or attribute throws, by name.
 */
export function PosencView({ page, onRender, onError, ...props }) {
  const e = posencEmbed({ ...props, page, embed: 'element' });
  const ref = useRef(null);
  useEffect(() => {
    loadPosencView();
  }, []);
  useEvent(ref, 'posenc-render', onRender);
  useEvent(ref, 'posenc-error', onError);
  // `class`, not className: React 18 passes className to a custom element as a `classname` attribute
  const attrs = { ref, class: 'posenc', ...Object.fromEntries(e.attrs) };
  attrs.style = { display: 'block', containerType: 'inline-size' };
  const link = { href: e.link, style: { display: 'block', overflow: 'hidden', height: e.height } };
  return createElement('posenc-view', attrs, createElement('a', link, e.fallback));
}

/** Add (once per page) the posenc page's posenc-embed.js, which sizes its frames to their views. */
function useEmbedHelper(page) {
  useEffect(() => {
    const src = new URL(`${page}posenc-embed.js`, document.baseURI).href;
    if ([...document.scripts].some((s) => s.src === src)) return;
    const script = document.createElement('script');
    script.src = src;
    script.async = true;
    document.head.append(script);
  }, [page]);
}

/**
 * The iframe embed (the posenc page in embed mode, served from `page`), in a size container that
 * reserves its height from the column's width, with a link under it for feed readers; the page's
 * posenc-embed.js leaves this box as it is (data-posenc-box). Props as PosencView's, less the events.
 */
export function PosencFrame({ page = '/posenc/', ...props }) {
  const e = posencEmbed({ ...props, page, embed: 'iframe' });
  useEmbedHelper(page);
  const frame = {
    src: e.frameSrc,
    title: e.title,
    width: '100%',
    height: String(e.frameHeight),
    frameBorder: '0',
    loading: 'lazy',
    'data-posenc-box': '', // posenc-embed.js keeps this box: the view scrolls inside what does not fit
    style: { display: 'block', width: '100%', border: 0, height: e.height },
  };
  return createElement(
    'div',
    { style: { containerType: 'inline-size' } },
    createElement('iframe', frame),
    createElement('a', { href: e.link }, e.fallback),
  );
}
