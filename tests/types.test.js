// The shipped TypeScript declarations, as a user's project sees them: the tarball installed into
// a fresh directory (typescript linked from the repository), tsc --strict over tests/types/usage.ts
// under moduleResolution node16 and bundler, each with lib es2022 alone and with dom, no @types.
// usage.ts holds @ts-expect-error lines, so things that must not compile are checked too.
// usage.cts checks the CommonJS entry's declarations (node16); usage-dom.ts what a browser
// user passes to init (a compiled WebAssembly.Module, a URL) where the DOM lib is on.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { app, cleanup, root } from './package_helper.js';

after(cleanup);

let cwd;
function project() {
  if (cwd) return cwd;
  cwd = app('types', { link: ['typescript'] });
  copyFileSync(join(root, 'tests/types/usage.ts'), join(cwd, 'usage.ts'));
  copyFileSync(join(root, 'tests/types/usage.cts'), join(cwd, 'usage.cts'));
  copyFileSync(join(root, 'tests/types/usage-dom.ts'), join(cwd, 'usage-dom.ts'));
  copyFileSync(join(root, 'tests/types/usage-lite.ts'), join(cwd, 'usage-lite.ts'));
  return cwd;
}

function tsc(name, compilerOptions, files) {
  const dir = project();
  const config = `tsconfig.${name}.json`;
  writeFileSync(
    join(dir, config),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        target: 'es2022',
        types: [],
        skipLibCheck: false,
        ...compilerOptions,
      },
      files,
    }),
  );
  const r = spawnSync(process.execPath, [join(dir, 'node_modules/typescript/bin/tsc'), '-p', config], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 300_000,
  });
  assert.equal(r.status, 0, `tsc ${name}: ${r.stdout}${r.stderr}`);
}

for (const [resolution, module] of [
  ['node16', 'node16'],
  ['bundler', 'esnext'],
]) {
  for (const lib of [['es2022'], ['es2022', 'dom']]) {
    const name = `${resolution}-${lib.join('-')}`;
    test(`types from the tarball: moduleResolution ${resolution}, lib ${lib.join(' + ')}, --strict`, {
      timeout: 300_000,
    }, () => {
      const files = [
        'usage.ts',
        'usage-lite.ts',
        ...(resolution === 'node16' ? ['usage.cts'] : []),
        ...(lib.includes('dom') ? ['usage-dom.ts'] : []),
      ];
      tsc(name, { module, moduleResolution: resolution, lib }, files);
    });
  }
}

test('a TypeScript CommonJS project: import syntax compiled to require(), then run', { timeout: 300_000 }, () => {
  const dir = app('types-cjs', { type: 'commonjs', link: ['typescript'] });
  copyFileSync(join(root, 'tests/types/usage-cjs.ts'), join(dir, 'main.ts'));
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        module: 'node16',
        moduleResolution: 'node16',
        target: 'es2022',
        lib: ['es2022'],
        types: ['node'],
        typeRoots: [join(root, 'node_modules/@types')],
        outDir: 'out',
      },
      files: ['main.ts'],
    }),
  );
  const tsc = spawnSync(process.execPath, [join(dir, 'node_modules/typescript/bin/tsc'), '-p', '.'], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 300_000,
  });
  assert.equal(tsc.status, 0, tsc.stdout + tsc.stderr);
  const run = spawnSync(process.execPath, ['out/main.js'], { cwd: dir, encoding: 'utf8', timeout: 120_000 });
  assert.equal(run.status, 0, run.stderr);
  const r = JSON.parse(run.stdout);
  assert.ok(Math.abs(r.sin1 - Math.sin(1)) < 2e-7 && Math.abs(r.cos1 - Math.cos(1)) < 2e-7, run.stdout);
  assert.equal(r.code, -2);
  assert.equal(r.backends[1], 'scalar');
});
