// Every ```js / ```ts example in README.md and docs/*.md type-checks as a TypeScript user's editor
// sees it (each js example also as a .ts file): the packed package installed into a fresh project, tsc --strict with checkJs over each
// block as its own module (a block that uses require() as CommonJS), under module nodenext and
// under module esnext + moduleResolution bundler. readme.test.js runs the same blocks; this file
// checks that the shipped declarations accept what the docs tell users to write (a fromConfig
// result narrowed on family goes to applyRope and kvCache as is).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { app, cleanup, root } from './package_helper.js';
import { DOC_PAGES } from './paths.js';

after(cleanup);

const sources = ['README.md', ...DOC_PAGES];

function blocks() {
  const out = [];
  for (const file of sources) {
    const text = readFileSync(join(root, file), 'utf8');
    const re = /^```(js|javascript|ts|typescript)\n([\s\S]*?)^```/gm;
    for (let m; (m = re.exec(text)); ) {
      const line = text.slice(0, m.index).split('\n').length;
      const ts = m[1] === 'ts' || m[1] === 'typescript';
      const cjs = /\brequire\(/.test(m[2]);
      const ext = ts ? (cjs ? 'cts' : 'mts') : cjs ? 'cjs' : 'mjs';
      out.push({ name: `${file.replace(/[/.]/g, '_')}_${line}.${ext}`, where: `${file}:${line}`, code: m[2] });
      // a TypeScript user pastes the JS examples into .ts files too: JSDoc casts do nothing there
      // and an untyped parameter is TS7006 (a require() block is not TypeScript's import = require)
      if (!ts && !cjs)
        out.push({ name: `${file.replace(/[/.]/g, '_')}_${line}.mts`, where: `${file}:${line}`, code: m[2] });
    }
  }
  return out;
}

let dir;
function project() {
  if (dir) return dir;
  dir = app('examples-types', { link: ['typescript', '@types'] });
  mkdirSync(join(dir, 'ex'), { recursive: true });
  for (const b of blocks()) writeFileSync(join(dir, 'ex', b.name), b.code);
  return dir;
}

for (const [name, compilerOptions] of [
  ['nodenext', { module: 'nodenext', moduleResolution: 'nodenext' }],
  ['bundler', { module: 'esnext', moduleResolution: 'bundler' }],
]) {
  test(`README and docs examples: tsc --strict --checkJs, ${name}`, { timeout: 600_000 }, () => {
    const cwd = project();
    const all = blocks();
    assert.ok(all.length >= 20, `${all.length} examples`);
    writeFileSync(
      join(cwd, `tsconfig.${name}.json`),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          allowJs: true,
          checkJs: true,
          noEmit: true,
          target: 'es2022',
          lib: ['es2022', 'dom'],
          types: ['node'],
          skipLibCheck: false,
          ...compilerOptions,
        },
        files: all.map((b) => `ex/${b.name}`),
      }),
    );
    const r = spawnSync(
      process.execPath,
      [join(cwd, 'node_modules/typescript/bin/tsc'), '-p', `tsconfig.${name}.json`],
      {
        cwd,
        encoding: 'utf8',
        timeout: 600_000,
      },
    );
    // name the doc and line of each error, not the scratch file
    const where = Object.fromEntries(all.map((b) => [b.name, b.where]));
    const report = `${r.stdout}${r.stderr}`.replace(/ex\/([\w.]+)\((\d+),(\d+)\)/g, (_, f, l) => {
      const [file, start] = where[f].split(':');
      return `${file}:${Number(start) + Number(l)}`;
    });
    assert.equal(r.status, 0, `tsc ${name}:\n${report}`);
  });
}
