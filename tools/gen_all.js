// Runs every generator, so a change to a declaration is one command whatever it touches (a new
// kind_<type>.js needs both gen_decls, for package.json "files", and gen_kinds):
//
//   node tools/gen_all.js           rewrite what each generator writes
//   node tools/gen_all.js --check   exit 1 when any generated file is stale (each names its files)
//
// gen_decls runs before gen_kinds: both write blocks of js/index.d.ts, and gen_decls formats it.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const GENERATORS = ['gen_decls.js', 'gen_kinds.js', 'gen_status.js', 'gen_scalings.js', 'gen_models.js'];
const args = process.argv.includes('--check') ? ['--check'] : [];
let failed = 0;
for (const g of GENERATORS) {
  const r = spawnSync(process.execPath, [join(root, 'tools', g), ...args], { stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`tools/${g} ${args.join(' ')}: exit ${r.status ?? r.signal}`);
    failed++;
  }
}
process.exit(failed ? 1 : 0);
