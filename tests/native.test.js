// Runs every native C test program (built by build.sh with ASan/UBSan) under node --test.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { test } from 'node:test';

const root = new URL('..', import.meta.url).pathname;
const sources = readdirSync(`${root}tests/native`).filter((f) => /^test_.*\.c$/.test(f));

test('native tests were built by build.sh', () => {
  assert.ok(sources.length > 0);
  for (const f of sources) {
    assert.ok(existsSync(`${root}build/native/${f.slice(0, -2)}`), `build/native/${f.slice(0, -2)} missing: run ./build.sh`);
  }
});

for (const f of sources) {
  const exe = `${root}build/native/${f.slice(0, -2)}`;
  test(`native ${f}`, { skip: !existsSync(exe) && 'not built' }, () => {
    const r = spawnSync(exe, { encoding: 'utf8', timeout: 300_000, env: { ...process.env, ASAN_OPTIONS: 'detect_leaks=1' } });
    assert.equal(r.status, 0, `${f} failed:\n${r.stdout}\n${r.stderr}`);
    assert.match(r.stdout, /\d+ passed, 0 failed/);
  });
}
