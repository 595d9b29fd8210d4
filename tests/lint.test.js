// Lint and format: `./build.sh lint` (Biome over the JS/TS with biome.json, clang-format over the
// C with .clang-format) passes on the tree. `./build.sh format` rewrites the tree in that style.
// The checks are shown to catch what they are for: a lint error, a misformatted JS line and a
// misformatted C line, each fed to the same tools with the same configuration, must fail.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { root } from './package_helper.js';

const biome = join(root, 'node_modules/@biomejs/biome/bin/biome');

function run(cmd, args, input) {
  return spawnSync(cmd, args, {
    cwd: root,
    input,
    encoding: 'utf8',
    timeout: 300_000,
    env: { ...process.env, NO_COLOR: '1' },
  });
}

test('./build.sh lint passes: no Biome error, every JS/TS and C file formatted', { timeout: 300_000 }, () => {
  const r = run(join(root, 'build.sh'), ['lint']);
  assert.equal(
    r.status,
    0,
    `./build.sh lint failed (./build.sh format fixes formatting):\n${(r.stdout + r.stderr).slice(-6000)}`,
  );
});

test('Biome with biome.json fails on a lint error and on a misformatted line, and passes clean code', () => {
  const dir = mkdtempSync(join(tmpdir(), 'posenc-lint-'));
  try {
    copyFileSync(join(root, 'biome.json'), join(dir, 'biome.json'));
    const files = {
      'error.js': 'const x = 1;\nx = 2;\nexport { x };\n',
      'unformatted.js': 'export const a = {b:"c"}\n',
      'clean.js': "export const a = { b: 'c' };\n",
    };
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    const check = (file) =>
      spawnSync(process.execPath, [biome, 'check', '--vcs-enabled=false', '--colors=off', file], {
        cwd: dir,
        encoding: 'utf8',
        timeout: 60_000,
      });
    const error = check('error.js');
    assert.notEqual(error.status, 0, 'assigning a const must be a lint error');
    assert.match(error.stdout + error.stderr, /noConstAssign/);
    const unformatted = check('unformatted.js');
    assert.notEqual(unformatted.status, 0, 'a misformatted line must fail the check');
    assert.match(unformatted.stdout + unformatted.stderr, /format/);
    const clean = check('clean.js');
    assert.equal(clean.status, 0, clean.stdout + clean.stderr);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('clang-format with .clang-format fails on a misformatted C line', () => {
  const bad = run(
    'clang-format',
    ['--dry-run', '--Werror', '--assume-filename=c_src/probe.c'],
    'int f(int *p){if(!p) return -1;return 0;}\n',
  );
  assert.notEqual(bad.status, 0, 'a misformatted line must fail');
  const good = run(
    'clang-format',
    ['--assume-filename=c_src/probe.c'],
    'static int f(int *p) {\n    if (!p) return -1;\n    return 0;\n}\n',
  );
  assert.equal(
    good.stdout,
    'static int f(int *p) {\n    if (!p) return -1;\n    return 0;\n}\n',
    'the house style is a fixed point',
  );
});
