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
import { embedHeight, embedHeightCss, embedSteps, heightCss } from '../web/src/embed-heights.js';
import { ELEMENT } from '../web/src/embed-heights-element.js';
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
    // the box of the view at its default state (web/src/embed-heights.js embedHeight)
    element: embedHeightCss({ view, embed: 'element' }),
    iframe: embedHeightCss({ view, embed: 'iframe' }),
    // the iframe's height attribute (a 680 px column) where a CSP drops style attributes
    height: embedHeight({ view, embed: 'iframe', width: 680 }),
  };
}
const hugo = `${JSON.stringify({ note: 'Written by examples/heights.mjs from web/src/embed-heights-*.js', keys, views }, null, 2)}\n`;

const module = `// Written by examples/heights.mjs from the posenc page's tables (web/src/embed-heights.js embedSteps):
// the box <posenc-view> holds, per view at its default state, as a function of its column width,
// written as the CSS length the page's "Copy embed code" puts in the fallback link's height. Another
// state has another box (embedHeight in web/src/embed-heights.js counts the attributes).

// biome-ignore format: one table
const STEPS = ${JSON.stringify(Object.fromEntries(Object.keys(ELEMENT).map((view) => [view, embedSteps({ view })])))};

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

// The VitePress posts hold the page's snippets as they are (a heatmap element, a rotation iframe):
// this script rewrites their rules, --check wants them to be today's.
const POSTS = [
  ['vitepress/docs/posts/element.md', `height:${embedHeightCss({ view: 'heatmap' })}"`],
  [
    'vitepress/docs/posts/iframe.md',
    `height:${embedHeightCss({ view: 'rotation', embed: 'iframe', params: { method: 'rope', dim: '32' } })}"`,
  ],
];

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
      if (posencHeight(view) !== embedHeightCss({ view })) {
        console.error(`examples/${f}: ${view}'s rule differs from the page's`);
        bad++;
      }
  }
  // The VitePress posts hold the page's snippets as they are: their rules must be today's.
  for (const [f, rule] of POSTS) {
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
for (const [f, rule] of POSTS) {
  const text = readFileSync(here(f), 'utf8');
  writeFileSync(here(f), text.replace(/height:calc\([^"]*\)"/, rule));
}
console.log(`wrote ${files.map(([f]) => `examples/${f}`).join(', ')} (${Object.keys(views).length} views)`);
