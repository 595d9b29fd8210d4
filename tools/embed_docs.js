// Write docs/embedding.md's two snippets (the blocks after <!-- snippet:iframe --> and
// <!-- snippet:element -->) with web/src/embed-code.js, the code behind the page's "Copy embed
// code": node tools/embed_docs.js. tests/embed_code.test.js fails while they differ.
import { readFileSync, writeFileSync } from 'node:fs';
import { DOCS_BASE, DOCS_STATE, embedCode } from '../web/src/embed-code.js';

const file = new URL('../docs/embedding.md', import.meta.url);
let md = readFileSync(file, 'utf8');
const code = embedCode(DOCS_STATE, DOCS_BASE);
for (const kind of ['iframe', 'element']) {
  const re = new RegExp(`(<!-- snippet:${kind} -->\\n\`\`\`html\\n)[\\s\\S]*?(\\n\`\`\`)`);
  if (!re.test(md)) throw new Error(`docs/embedding.md has no <!-- snippet:${kind} --> block`);
  md = md.replace(re, (_, a, b) => `${a}${code[kind]}${b}`);
}
writeFileSync(file, md);
console.log('docs/embedding.md: snippets written');
