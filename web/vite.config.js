import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { build, defineConfig } from 'vite';

// The page imports the library from ../js and its wasm from ../dist, outside web/.
//
// `vite build web` makes three things in web/dist:
//   index.html + assets/   the page (and sw.js, a service worker caching those files as they are used)
//   posenc-view.js         the <posenc-view> custom element, a stable name for blog posts
//   posenc-single.html     one file with JS, CSS and both wasm builds inlined; opens from file://
// The single file comes from a second build in mode 'single' (`vite build web --mode single`
// alone writes it to build/web-single/).
const root = fileURLToPath(new URL('.', import.meta.url));
const singleOut = fileURLToPath(new URL('../build/web-single/', import.meta.url));
const wasmPath = (name) => fileURLToPath(new URL(`../dist/${name}`, import.meta.url));

/** `virtual:posenc-wasm`: null normally; { simd, scalar } base64 strings in the single file. */
function inlineWasm(single) {
  const id = 'virtual:posenc-wasm';
  // js/loader.js's four build modules (dist/*.wasm.js, 156 kB of gzipped base64): the single file
  // hands init() and loadLab() the inlined bytes, so it never imports them; without this they are
  // inlined too, unused (posenc-single.html was 839 kB, 684 kB without them). The page's stand-in
  // core (dist/posenc-standin.wasm.js, api.js stubApi) is the page's own and stays.
  const unused = /[\\/]dist[\\/]posenc(?!-standin)[\w.-]*\.wasm\.js$/;
  return {
    name: 'posenc-inline-wasm',
    resolveId: (s) => (s === id ? `\0${id}` : null),
    load(s) {
      if (single && unused.test(s))
        return "throw new Error('posenc single file: the wasm is inlined (virtual:posenc-wasm), not in a build module');";
      if (s !== `\0${id}`) return null;
      if (!single) return 'export default null;';
      const b64 = (n) => readFileSync(wasmPath(n)).toString('base64');
      return `export default ${JSON.stringify({ simd: b64('posenc.simd.wasm'), scalar: b64('posenc.wasm'), labSimd: b64('posenc-lab.simd.wasm'), labScalar: b64('posenc-lab.wasm') })};`;
    },
  };
}

/** The modules every embed runs (and the bundler's runtime helpers); everything else in web/src and
 * js/ is loaded on demand. */
const SHARED =
  /(?:[\\/](web[\\/]src[\\/](app|state|style|api|draw|palette|theme|methods|views[\\/](index|common|views|registry|layout|\w+\.view))|js[\\/](api|core|errors|loader|validate|values)|families[\\/](sinusoidal[\\/]sinusoidal|rope[\\/]rope|relative[\\/]relative|learned[\\/]learned)|dist[\\/]posenc-standin\.wasm)|\brolldown[\\/]runtime)\.(js|css)$/;
/**
 * The library's families the shell does not call, each a chunk of its own (before the shared
 * group, which would otherwise take them in: web/src/api.js imports posenc/lite, which re-exports
 * every family): attention and the trainer, which a view adds (api.js LATER, web/src/families/),
 * and fromConfig, which the scaling view calls (in that view's chunk).
 */
const LATER = [
  {
    name: 'attention',
    test: /[\\/](web[\\/]src[\\/]families[\\/]attention|families[\\/]attention[\\/]attention)\.js$/,
    priority: 2,
    includeDependenciesRecursively: false,
  },
  {
    name: 'train',
    test: /[\\/](web[\\/]src[\\/]families[\\/]train|families[\\/]train[\\/]train)\.js$/,
    priority: 2,
    includeDependenciesRecursively: false,
  },
  {
    name: 'scaling',
    test: /[\\/](families[\\/]config[\\/](config|models)|web[\\/]src[\\/]views[\\/]scaling(_models)?)\.js$/,
    priority: 2,
    includeDependenciesRecursively: false,
  },
  {
    name: 'kvcache',
    test: /[\\/]families[\\/]kvcache[\\/]kvcache\.js$/,
    priority: 2,
    includeDependenciesRecursively: false,
  },
];
/** Two chunks that most views load but not all: the filled-in formulas (not the Shuffle lab, Shift,
 * Concat) and the methods' matrices (the heatmap, Compare, Similarity and the learned views). */
const FORMULA = /[\\/]web[\\/]src[\\/]formula\.js$/;
const MATRICES = /[\\/]web[\\/]src[\\/]matrices\.js$/;

// The page's Content-Security-Policy. Only in builds: the dev server injects styles inline.
// 'wasm-unsafe-eval' lets WebAssembly compile; nothing else is evaluated, no inline style or script.
const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'";
const cspMeta = (policy) => `<meta http-equiv="Content-Security-Policy" content="${policy}" />`;

function csp() {
  return {
    name: 'posenc-csp',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler: (html) => html.replace('<meta charset="utf-8" />', (m) => `${m}\n    ${cspMeta(CSP)}`),
    },
  };
}

/** Precompressed siblings (.gz, .br) of the wasm and JS, for servers that can send them as they are. */
function precompress() {
  return {
    name: 'posenc-precompress',
    apply: 'build',
    writeBundle(options, bundle) {
      for (const name of Object.keys(bundle)) {
        if (!/\.(wasm|js|css|html)$/.test(name)) continue;
        const file = `${options.dir}/${name}`;
        const body = readFileSync(file);
        writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
        writeFileSync(`${file}.br`, brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }));
      }
    },
  };
}

/**
 * `vite preview` gzips JS and CSS on the fly but sends the wasm (the largest file) as it is: answer
 * .wasm, .js and .css requests with the precompressed sibling the build wrote (brotli first), as a
 * static server configured for precompressed files would (docs/embedding.md).
 */
/**
 * The caching a host should send (docs/embedding.md, "Caching and deploys"): files whose name
 * carries a content hash (assets/) never change, so they may be kept for a year; every other file
 * (index.html, posenc-view.js, posenc-embed.js, sw.js) names the current build's hashed files and
 * must be revalidated, or a deploy leaves readers with a page naming files that are gone.
 */
export const cacheControl = (path) =>
  /\/assets\/[^/]+-[\w-]{8}\.\w+$/.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache';

function previewWasm() {
  return {
    name: 'posenc-preview-wasm',
    configurePreviewServer(server) {
      server.middlewares.use((req, res, next) => {
        const path = new URL(req.url, 'http://x').pathname;
        res.setHeader('cache-control', cacheControl(path));
        const type = { wasm: 'application/wasm', js: 'text/javascript', css: 'text/css' }[path.split('.').pop()];
        if (!type) return next();
        const accept = String(req.headers['accept-encoding'] ?? '');
        const file = fileURLToPath(new URL(`./dist${decodeURIComponent(path)}`, import.meta.url));
        if (!file.startsWith(`${root}dist/`)) return next();
        for (const [enc, ext] of [
          ['br', '.br'],
          ['gzip', '.gz'],
        ]) {
          if (!accept.includes(enc)) continue;
          let body;
          try {
            body = readFileSync(file + ext);
          } catch {
            continue;
          }
          res.writeHead(200, {
            'content-type': type,
            'content-encoding': enc,
            vary: 'Accept-Encoding',
            'cache-control': cacheControl(path),
            'content-length': body.length,
          });
          return res.end(body);
        }
        return next();
      });
    },
  };
}

/** Service worker knowing every emitted file and the page's shell; its version changes whenever any file's bytes do. */
function serviceWorker() {
  return {
    name: 'posenc-sw',
    apply: 'build',
    enforce: 'post', // after the HTML plugin has emitted the pages
    generateBundle(_, bundle) {
      const pub = readdirSync(new URL('./public/', import.meta.url)).filter((f) => f !== 'posenc-embed.js');
      const files = [...Object.keys(bundle).filter((f) => !f.endsWith('.map')), ...pub];
      const list = ['./', ...files.sort().map((f) => `./${f}`)];
      // The version hashes every file's bytes, not only the names: a deploy that changes only
      // index.html (same asset names) is a new worker, so the reader gets the new page.
      const hash = createHash('sha256').update(list.join('\n'));
      for (const f of files.sort()) {
        const item = bundle[f];
        hash.update(
          item
            ? item.type === 'chunk'
              ? item.code
              : item.source
            : readFileSync(new URL(`./public/${f}`, import.meta.url)),
        );
      }
      const version = hash.digest('hex').slice(0, 12);
      // The shell: the page and what its HTML names (entry script, shared chunk, stylesheet, icon);
      // views, cores and workers are stored when first used (sw.template.js).
      const html = String(bundle['index.html']?.source ?? '');
      const named = [...html.matchAll(/(?:src|href)="\.\/([^"]+)"/g)].map((m) => `./${m[1]}`);
      const shell = ['./', ...new Set(named.filter((f) => list.includes(f)))];
      const source = readFileSync(new URL('./sw.template.js', import.meta.url), 'utf8')
        .replace('__VERSION__', version)
        .replace('__FILES__', JSON.stringify(list))
        .replace('__SHELL__', JSON.stringify(shell));
      this.emitFile({ type: 'asset', fileName: 'sw.js', source });
    },
  };
}

/**
 * posenc-view.js (src/element-entry.js) names the element module by its hashed file name, written
 * in here once the bundle is known: the entry has no static import at all, so a copy of it from a
 * host's cache cannot fail to define the element because a file it names is gone after a deploy.
 */
function elementEntry() {
  return {
    name: 'posenc-element-entry',
    apply: 'build',
    generateBundle(_, bundle) {
      const entry = bundle['posenc-view.js'];
      if (!entry) return;
      const module = Object.values(bundle).find((c) => c.type === 'chunk' && c.isEntry && c.name === 'element-module');
      if (!module || !entry.code.includes('__POSENC_ELEMENT_MODULE__'))
        this.error('posenc-view.js: the element module or its placeholder is missing');
      entry.code = entry.code.replace('__POSENC_ELEMENT_MODULE__', `./${module.fileName}`);
    },
  };
}

/** Single-file build: inline the entry chunk and the CSS into the HTML. */
function singleFile() {
  const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return {
    name: 'posenc-single-file',
    apply: 'build',
    enforce: 'post',
    generateBundle(_, bundle) {
      let html = bundle['index.html'].source;
      for (const [name, item] of Object.entries(bundle)) {
        if (item.type === 'chunk' && html.includes(name)) {
          // The views' import()s are inlined into this one chunk: their preload lists stay
          // empty (Vite leaves its placeholder when there is no chunk to list).
          const code = item.code.replace(/__VITE_PRELOAD__/g, 'void 0').replace(/<\/script/gi, '<\\/script');
          html = html.replace(
            new RegExp(`<script[^>]*src="[^"]*${esc(name)}"[^>]*></script>`),
            () => `<script type="module">${code}</script>`,
          );
        } else if (name.endsWith('.css') && html.includes(name)) {
          html = html.replace(
            new RegExp(`<link[^>]*href="[^"]*${esc(name)}"[^>]*>`),
            () => `<style>${item.source}</style>`,
          );
        }
      }
      html = html.replace(/<link rel="modulepreload"[^>]*>/g, '');
      // The single file runs inline code: its CSP allows exactly that code, by hash.
      const hash = (t) => `'sha256-${createHash('sha256').update(t).digest('base64')}'`;
      const scripts = [...html.matchAll(/<script type="module">([\s\S]*?)<\/script>/g)].map((m) => hash(m[1]));
      const styles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => hash(m[1]));
      const policy = `default-src 'self'; script-src ${scripts.join(' ')} 'wasm-unsafe-eval'; style-src 'self' ${styles.join(' ')}`;
      html = html.replace(/<meta http-equiv="Content-Security-Policy"[^>]*>/, () => cspMeta(policy));
      html = html.replace(/<link rel="icon"[^>]*>/, '');
      this.emitFile({ type: 'asset', fileName: 'posenc-single.html', source: html });
    },
  };
}

/** After the normal build, make the single file and put it beside the page. */
function alsoSingle() {
  return {
    name: 'posenc-also-single',
    apply: 'build',
    async closeBundle() {
      await build({ configFile: fileURLToPath(import.meta.url), mode: 'single', logLevel: 'warn' });
      mkdirSync(`${root}dist`, { recursive: true });
      copyFileSync(`${singleOut}posenc-single.html`, `${root}dist/posenc-single.html`);
    },
  };
}

/**
 * The package build's own rules (`--mode package`), so that the package builds in any bundler and
 * from a CDN with no configuration:
 * - the page's cores come from page-cores-package.js (JS modules, loaded by a literal import());
 *   `FILE.wasm?gzip64` is such a module: the wasm gzipped, as base64; posenc/lite's lean core,
 *   which no view loads, is left out;
 * - the element module's reload of a newer deploy (element.js freshImpl, a computed import()) is
 *   left out: a version of the package never changes, and bundlers refuse or warn on the import;
 * - no chunk may keep an import() of anything but a literal relative path (the minifier folds
 *   js/loader.js's computed `node:` imports into literals; `globalThis.process` is undefined in a
 *   browser, so the define below drops that Node-only code instead), and no stylesheet file is
 *   shipped (the element adopts its styles from the JS).
 */
const RELOAD =
  /import\(\s*\/\*\s*@vite-ignore\s*\*\/\s*`\$\{entry\.split\('\?'\)\[0\]\}\?posenc-reload=\$\{Date\.now\(\)\}`\s*\)/;
function elementPackage() {
  const src = `${root}src/`;
  return {
    name: 'posenc-element-package',
    enforce: 'pre',
    resolveId(id, importer) {
      if (id === './page-cores.js' && importer?.startsWith(src)) return `${src}page-cores-package.js`;
      // posenc/lite's lean core: the views never ask for it (init({ lite }) is the npm API's)
      if (id.endsWith('/dist/posenc-lite.simd.wasm.js')) return '\0posenc-no-lite';
      return null;
    },
    load(id) {
      if (id === '\0posenc-no-lite') return 'export default null; // posenc/lite is not in the element';
      // Vite wraps each import() in its preload helper, which builds URLs from a variable (webpack
      // warns on it) to preload a list of chunks by their names in this build, names a blog's
      // bundler changes (404s): the package's imports stay plain import()s.
      if (id === '\0vite/preload-helper.js') return 'export const __vitePreload = (load) => load();';
      const [file, query] = id.split('?');
      if (query !== 'gzip64') return null;
      return `export default ${JSON.stringify(gzipSync(readFileSync(file), { level: 9 }).toString('base64'))};`;
    },
    transform(code, id) {
      if (id !== `${src}element.js`) return null;
      if (!RELOAD.test(code)) this.error('element.js: the reload import() the package build leaves out was not found');
      return code.replace(RELOAD, "Promise.reject(new Error('a versioned package has no newer build'))");
    },
    generateBundle(_, bundle) {
      for (const [name, item] of Object.entries(bundle)) {
        if (item.type === 'asset' && name.endsWith('.css')) delete bundle[name];
        if (item.type !== 'chunk') continue;
        const bad = [...item.code.matchAll(/\bimport\(\s*([^)]{0,60})/g)].filter((m) => !/^[`'"]\.\.?\//.test(m[1]));
        if (bad.length)
          this.error(`${name}: import() of ${bad.map((m) => m[1]).join(', ')} (only literal relative paths)`);
        if (/__vitePreload|\.f\s*=\s*\[|new URL\([a-z]\w*,\s*import\.meta\.url\)/.test(item.code))
          this.error(`${name}: Vite's preload helper or a preload list is left in the package`);
      }
    },
  };
}

/**
 * `vite build web --mode package`: the versioned element package (packages/posenc-view, assembled
 * by packages/posenc-view/assemble.js; `./build.sh element` runs both and packs it) in
 * build/posenc-view/: posenc-view.js (the element module itself: at a versioned path nothing is
 * replaced under a reader, so no stable loader is needed) and chunks/ (its shared code, one chunk
 * per view, the wasm cores as JS modules, the lab's training worker), named by content hash.
 * Bundlers follow its literal import()s as for any dependency.
 */
const CHUNK = 'chunks/[name]-[hash].js';
const packageBuild = () => ({
  root,
  base: './',
  publicDir: false,
  plugins: [elementPackage(), inlineWasm(false)],
  define: { 'globalThis.process': 'undefined' },
  // The lab's worker as an ES module whose chunks are the element's own (same content, same name):
  // each core is in the package once.
  worker: {
    format: 'es',
    plugins: () => [elementPackage(), inlineWasm(false)],
    rolldownOptions: { output: { entryFileNames: CHUNK, chunkFileNames: CHUNK } },
  },
  build: {
    outDir: fileURLToPath(new URL('../build/posenc-view/', import.meta.url)),
    emptyOutDir: true,
    assetsInlineLimit: 0,
    target: 'es2022',
    manifest: true, // tools/element_sizes.js reads it; not in the package's files
    modulePreload: false,
    rolldownOptions: {
      input: { 'posenc-view': `${root}src/element.js` },
      // Its timing notes on a loaded machine are not warnings about the package.
      checks: { pluginTimings: false },
      preserveEntrySignatures: 'allow-extension',
      output: {
        entryFileNames: 'posenc-view.js',
        chunkFileNames: CHUNK,
        assetFileNames: 'chunks/[name]-[hash][extname]',
        codeSplitting: {
          groups: [
            ...LATER,
            { name: 'posenc', test: SHARED, priority: 1 },
            { name: 'formula', test: FORMULA, priority: 1 },
            { name: 'matrices', test: MATRICES, priority: 1 },
          ],
        },
      },
    },
  },
});

export default defineConfig(({ mode }) => {
  if (mode === 'package') return packageBuild();
  const single = mode === 'single';
  return {
    root,
    base: './',
    server: { fs: { allow: ['..'] } },
    worker: { format: 'es' },
    plugins: single
      ? [inlineWasm(true), csp(), singleFile()]
      : [inlineWasm(false), csp(), elementEntry(), serviceWorker(), precompress(), previewWasm(), alsoSingle()],
    build: single
      ? // One chunk by design, over Vite's 500 kB warning: it carries the four wasm builds as base64.
        {
          outDir: singleOut,
          emptyOutDir: true,
          assetsInlineLimit: 0,
          target: 'es2022',
          chunkSizeWarningLimit: 1000,
          rolldownOptions: { input: `${root}index.html`, output: { codeSplitting: false } },
        }
      : {
          outDir: 'dist',
          emptyOutDir: true,
          assetsInlineLimit: 0,
          target: 'es2022',
          // Every browser with wasm SIMD and top-level await has modulepreload: no polyfill to ship.
          modulePreload: { polyfill: false },
          rolldownOptions: {
            input: {
              index: `${root}index.html`,
              element: `${root}element.html`,
              // The stable entry names the hashed element module (element-entry.js says why).
              'posenc-view': `${root}src/element-entry.js`,
              'element-module': `${root}src/element.js`,
            },
            // posenc-view.js exports `ready` and the element module its `impl` (element.js).
            preserveEntrySignatures: 'allow-extension',
            output: {
              entryFileNames: (c) => (c.name === 'posenc-view' ? 'posenc-view.js' : 'assets/[name]-[hash].js'),
              // What every embed runs (the shell, the encodings' API, the views' drawing kit) is
              // one chunk: fewer requests, and a second embed revalidates fewer files. Each view,
              // the guided path's texts, exports, the compute worker and the API families only
              // some views call (attention, trainer, KV cache) stay chunks of their own.
              codeSplitting: {
                groups: [
                  ...LATER,
                  { name: 'posenc', test: SHARED, priority: 1 },
                  { name: 'formula', test: FORMULA, priority: 1 },
                  { name: 'matrices', test: MATRICES, priority: 1 },
                ],
              },
            },
          },
        },
  };
});
