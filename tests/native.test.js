// Runs every native C test program (built by build.sh with ASan/UBSan) under node --test.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
    const r = spawnSync(exe, { encoding: 'utf8', timeout: 900_000, env: { ...process.env, ASAN_OPTIONS: 'detect_leaks=1' } });
    assert.equal(r.status, 0, `${f} failed:\n${r.stdout}\n${r.stderr}`);
    assert.match(r.stdout, /\d+ passed, 0 failed/);
  });
}

// libFuzzer targets: a bounded, seeded run per target (a crash leaves its input in the temp dir
// named in the failure message, to replay with build/native/<target> <file>).
for (const f of readdirSync(`${root}tests/fuzz`).filter((x) => /^fuzz_.*\.c$/.test(x))) {
  const exe = `${root}build/native/${f.slice(0, -2)}`;
  test(`fuzz ${f} (60000 runs)`, { skip: !existsSync(exe) && 'libFuzzer not available', timeout: 900_000 }, () => {
    const dir = mkdtempSync(join(tmpdir(), 'posenc-fuzz-'));
    const r = spawnSync(exe, ['-runs=60000', '-seed=20261122', '-max_len=512', '-rss_limit_mb=2048', `-artifact_prefix=${dir}/`], { cwd: dir, encoding: 'utf8', timeout: 880_000, env: { ...process.env, ASAN_OPTIONS: 'detect_leaks=1' } });
    assert.equal(r.status, 0, `${f} found a failure (inputs kept in ${dir}):\n${r.stderr.slice(-4000)}`);
    rmSync(dir, { recursive: true, force: true });
  });
}
