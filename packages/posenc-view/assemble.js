// Assemble the posenc-view package in build/posenc-view/ after `vite build web --mode package`:
// its package.json (this repository's version), types, README and licence. Run by build.sh.
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';

const here = new URL('./', import.meta.url);
const out = new URL('../../build/posenc-view/', import.meta.url);
if (!existsSync(new URL('posenc-view.js', out))) {
  console.error('build/posenc-view/posenc-view.js missing: run `npx vite build web --mode package` first');
  process.exit(1);
}
const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
const pkg = JSON.parse(readFileSync(new URL('package.json', here), 'utf8'));
pkg.version = version;
writeFileSync(new URL('package.json', out), `${JSON.stringify(pkg, null, 2)}\n`);
for (const f of ['index.d.ts', 'react.d.ts', 'README.md']) copyFileSync(new URL(f, here), new URL(f, out));
copyFileSync(new URL('../../LICENSE', import.meta.url), new URL('LICENSE', out));
