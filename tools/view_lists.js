// The lists of views in files that cannot import the views' declarations (web/src/views/registry.js):
// the posenc-view package's README (the `view` attribute's values, between <!-- views --> and
// <!-- /views -->) and its types (PosencViewAttributes' `view`). `node tools/view_lists.js` writes
// them; tests/views_text.test.js regenerates them and fails on any difference.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { VIEW_IDS } from '../web/src/views/registry.js';

const WIDTH = 100;
const README = 'packages/posenc-view/README.md';
const TYPES = 'packages/posenc-view/index.d.ts';
const path = (file) => new URL(`../${file}`, import.meta.url);

/** The ids as a comma list wrapped at WIDTH, its first line starting at column `start`. */
function wrapped(ids, start) {
  const lines = [];
  let line = '';
  let col = start;
  for (const [i, id] of ids.entries()) {
    const word = i < ids.length - 1 ? `${id},` : id;
    const add = line ? ` ${word}` : word;
    if (line && col + add.length > WIDTH) {
      lines.push(line);
      line = word;
      col = word.length;
    } else {
      line += add;
      col += add.length;
    }
  }
  return [...lines, line].join('\n');
}

/** The README with its list of views written from the declarations. */
function readme(text) {
  const m = /^(.*<!-- views -->)[\s\S]*?(<!-- \/views -->)/m.exec(text);
  if (!m) throw new Error(`${README}: no <!-- views --> ... <!-- /views --> list`);
  return text.replace(m[0], `${m[1]}${wrapped(VIEW_IDS, m[1].length)}${m[2]}`);
}

/** The types with PosencViewAttributes' `view` union written from the declarations. */
function types(text) {
  const m = /^( {2}view\?:\n)[^;]*;/m.exec(text);
  if (!m) throw new Error(`${TYPES}: no \`view?:\` union`);
  return text.replace(m[0], `${m[1]}${VIEW_IDS.map((id) => `    | '${id}'`).join('\n')};`);
}

/** [file, its text now, its text as written from the declarations] for each list. */
export function lists() {
  return [
    [README, readme],
    [TYPES, types],
  ].map(([file, write]) => {
    const now = readFileSync(path(file), 'utf8');
    return [file, now, write(now)];
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url))
  for (const [file, now, want] of lists())
    if (now !== want) {
      writeFileSync(path(file), want);
      console.log(`wrote ${file}`);
    }
