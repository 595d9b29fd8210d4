// The height rules the recipes copy from the posenc page, written from the page's own tables so
// each recipe reserves what "Copy embed code" reserves (web/src/embed-code.js):
//   examples/hugo/data/posenc.json        per view: its title, the element's and the iframe's rule
//   examples/react/posenc-heights.js      the element's steps and the function that writes its rule
//   examples/astro/src/posenc-heights.js  the same module, for the Astro component
// Run from the repository root after tools/embed_heights.js re-measures the tables:
//   node examples/heights.mjs          rewrite the three files
//   node examples/heights.mjs --check  exit 1 if any of them differs from the tables (or its
//                                      function writes a rule other than the page's), if the
//                                      VitePress posts' pasted rules are not today's, or if a
//                                      recipe pins a posenc-view other than package.json's version
import { readFileSync, writeFileSync } from 'node:fs';
import { heightAt, heightCss } from '../web/src/embed-heights.js';
import { ELEMENT } from '../web/src/embed-heights-element.js';
import { IFRAME } from '../web/src/embed-heights-iframe.js';
import { FIELDS } from '../web/src/state.js';
import { VIEW_INFO } from '../web/src/views/info.js';

const here = (f) => new URL(f, import.meta.url);

// Every attribute the element and a link take (the page's URL keys, less the page-only `embed`),
// and the element's own `background`.
const keys = [...Object.keys(FIELDS).filter((k) => k !== 'embed'), 'background'];
const views = {};
for (const view of Object.keys(ELEMENT)) {
  views[view] = {
    title: `posenc: ${VIEW_INFO[view]?.title ?? view}`,
    element: heightCss(ELEMENT[view]),
    iframe: heightCss(IFRAME[view]),
    // the iframe's height attribute (a 680 px column) where a CSP drops style attributes
    height: heightAt(IFRAME[view], 680) || 1200,
  };
}
const hugo = `${JSON.stringify({ note: 'Written by examples/heights.mjs from web/src/embed-heights-*.js', keys, views }, null, 2)}\n`;

const module = `// Written by examples/heights.mjs from the posenc page's tables (web/src/embed-heights-element.js):
// the height <posenc-view> takes, per view, as a function of its column width, written as the CSS
// length the page's "Copy embed code" puts in the fallback link's min-height. Measured with
// method=rope dim=32; settings that make a view taller make it grow once it has loaded.

// biome-ignore format: one table
const STEPS = ${JSON.stringify(ELEMENT)};

/** Usable steps, or null. */
const valid = (s) => (Array.isArray(s) && s.length ? s : null);

${heightCss.toString()}

/** The views the table knows. */
export const POSENC_VIEWS = Object.keys(STEPS);

/** \`view\`, or an error naming it and the views there are. */
function known(view) {
  if (Object.hasOwn(STEPS, view)) return view;
  throw new Error(\`posenc: unknown view "\${view}" (one of: \${POSENC_VIEWS.join(', ')})\`);
}

// biome-ignore format: one table
const TITLES = ${JSON.stringify(Object.fromEntries(Object.entries(views).map(([v, h]) => [v, h.title])))};

/** The view's title as the page's snippet names it ("posenc: Rotation"), or throws for a view it does not know. */
export function posencTitle(view) {
  return TITLES[known(view)];
}

/**
 * The CSS min-height that reserves \`view\`'s height inside a box with
 * \`container-type:inline-size\` (so 100cqw is the column's width). Throws for a view it does not know.
 */
export function posencHeight(view) {
  return heightCss(STEPS[known(view)]);
}
`;

const files = [
  ['hugo/data/posenc.json', hugo],
  ['react/posenc-heights.js', module],
  ['astro/src/posenc-heights.js', module],
];
if (process.argv.includes('--check')) {
  let bad = 0;
  for (const [f, text] of files) {
    if (readFileSync(here(f), 'utf8') !== text) {
      console.error(`examples/${f} is stale: run node examples/heights.mjs`);
      bad++;
    }
  }
  for (const f of ['react/posenc-heights.js', 'astro/src/posenc-heights.js']) {
    const { posencHeight } = await import(here(f));
    for (const view of Object.keys(ELEMENT))
      if (posencHeight(view) !== heightCss(ELEMENT[view])) {
        console.error(`examples/${f}: ${view}'s rule differs from the page's`);
        bad++;
      }
  }
  // The VitePress posts hold the page's snippets as they are: their rules must be today's.
  for (const [f, rule] of [
    ['vitepress/docs/posts/element.md', `min-height:${heightCss(ELEMENT.heatmap)}"`],
    ['vitepress/docs/posts/iframe.md', `height:${heightCss(IFRAME.rotation)}"`],
  ]) {
    if (!readFileSync(here(f), 'utf8').includes(rule)) {
      console.error(`examples/${f}: its height rule is not the page's (paste the page's "Copy embed code" again)`);
      bad++;
    }
  }
  // The recipes that install posenc-view pin this repository's version (its heights are this version's).
  const { version } = JSON.parse(readFileSync(here('../package.json'), 'utf8'));
  for (const [f, pin] of [
    ['vitepress/package.json', `"posenc-view": "${version}"`],
    ['vitepress/docs/.vitepress/theme/index.ts', `posenc-view@${version}/`],
    ['README.md', `posenc-view@${version}/`],
  ]) {
    if (!readFileSync(here(f), 'utf8').includes(pin)) {
      console.error(`examples/${f}: does not pin posenc-view ${version}`);
      bad++;
    }
  }
  process.exit(bad ? 1 : 0);
}
for (const [f, text] of files) writeFileSync(here(f), text);
console.log(`wrote ${files.map(([f]) => `examples/${f}`).join(', ')} (${Object.keys(views).length} views)`);
