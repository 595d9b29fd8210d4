// build.sh's per-target stamps (fresh / stamp): a target is skipped only while it exists and its
// stamp holds the hash of its inputs (taken before the compile), so a failed build that removed a binary, an edited input or
// a stamp from another build never lets the next run skip it. The functions are taken from
// build.sh itself and run in a temporary directory.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';

const root = new URL('..', import.meta.url).pathname;
const src = readFileSync(join(root, 'build.sh'), 'utf8');
const fns = ['hash_of', 'fresh', 'stamp'].map((name) => {
  const m = new RegExp(`^${name}\\(\\) \\{[\\s\\S]*?\\}$`, 'm').exec(src);
  assert.ok(m, `build.sh defines ${name}()`);
  return m[0];
});
const dir = mkdtempSync(join(tmpdir(), 'posenc-stamps-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Run `script` after build.sh's functions, in dir; true when it exits 0. */
const sh = (script) =>
  spawnSync('bash', ['-c', `set -euo pipefail\n${fns.join('\n')}\n${script}`], { cwd: dir }).status === 0;

test('a stamp is valid only with its target present and its inputs unchanged', () => {
  writeFileSync(join(dir, 'a.c'), 'int a;');
  writeFileSync(join(dir, 'out'), 'binary');
  assert.equal(sh('fresh out "$(hash_of a.c)"'), false, 'no stamp yet: not fresh');
  assert.ok(sh('stamp out "$(hash_of a.c)"'));
  assert.equal(sh('fresh out "$(hash_of a.c)"'), true, 'built and stamped: fresh');
  writeFileSync(join(dir, 'a.c'), 'int b;');
  assert.equal(sh('fresh out "$(hash_of a.c)"'), false, 'an edited input: not fresh');
  writeFileSync(join(dir, 'a.c'), 'int a;');
  assert.equal(sh('fresh out "$(hash_of a.c)"'), true, 'the input back as stamped: fresh again');
  // the fuzz-build trap: a failed build removes the binary, and the inputs are reverted
  rmSync(join(dir, 'out'));
  assert.equal(sh('fresh out "$(hash_of a.c)"'), false, 'a stamp beside a missing target is never fresh');
});

test('build.sh builds each native and fuzz target through fresh and stamps it after its compiler', () => {
  const body = /^build_native\(\) \{[\s\S]*?^\}$/m.exec(src)[0];
  const compiles = [...body.matchAll(/^\s+(clang|emcc) -std=c11(?:[^\n]*\\\n)*[^\n]*/gm)];
  assert.equal(compiles.length, 3, 'the native, SIMD and fuzz compiles');
  for (const c of compiles) {
    const before = body.slice(0, c.index).split('\n').slice(-4).join('\n');
    assert.match(before, /key=\$\(hash_of [^)]*\)\n\s*fresh/, `the key is taken before: ${c[0].slice(0, 60)}`);
    const afterIt = body
      .slice(c.index + c[0].length)
      .split('\n')
      .slice(0, 2)
      .join('\n');
    assert.match(before, /fresh "\$out" "\$key"/, `a fresh check guards: ${c[0].slice(0, 60)}`);
    assert.match(afterIt, /stamp "\$out" "\$key"/, `the stamp follows: ${c[0].slice(0, 60)}`);
  }
  assert.doesNotMatch(body, /build\/native\/\.stamp/, 'no stamp for all targets at once');
});

test('a wasm built before a C edit is reported as stale, naming the edited file', async () => {
  const { staleBuild } = await import('./helpers.js');
  const root = join(dir, 'checkout/');
  const line = /^\s*(sha256sum \$\(lib_sources\) > dist\/\.sources)$/m.exec(src);
  assert.ok(line, 'build.sh writes dist/.sources with sha256sum after a wasm build');
  const sources = /^lib_sources\(\) \{.*\}$/m.exec(src);
  assert.ok(sources, 'build.sh defines lib_sources() on one line');
  spawnSync('mkdir', ['-p', join(root, 'c_src'), join(root, 'dist'), join(root, 'families/f')]);
  writeFileSync(join(root, 'c_src/a.c'), 'int a;');
  writeFileSync(join(root, 'c_src/b.h'), 'int b;');
  writeFileSync(join(root, 'families/f/f.c'), 'int f;');
  assert.equal(staleBuild(root), null, 'no dist/.sources (an older build): not judged');
  assert.equal(spawnSync('bash', ['-c', `${sources[0]}\n${line[1]}`], { cwd: root }).status, 0);
  assert.equal(staleBuild(root), null, 'just built: fresh');
  writeFileSync(join(root, 'c_src/b.h'), 'int b2;');
  assert.match(staleBuild(root) ?? '', /stale: c_src\/b\.h changed since the last \.\/build\.sh wasm/);
  writeFileSync(join(root, 'c_src/b.h'), 'int b;');
  writeFileSync(join(root, 'families/f/f.c'), 'int f2;');
  assert.match(staleBuild(root) ?? '', /stale: families\/f\/f\.c changed/, "a family's C file too");
  writeFileSync(join(root, 'families/f/f.c'), 'int f;');
  writeFileSync(join(root, 'c_src/new.c'), 'int n;');
  assert.match(staleBuild(root) ?? '', /c_src\/new\.c/, 'a new C file makes it stale too');
  rmSync(join(root, 'c_src/new.c'));
  rmSync(join(root, 'c_src/a.c'));
  assert.match(staleBuild(root) ?? '', /c_src\/a\.c/, 'a removed C file makes it stale too');
});
