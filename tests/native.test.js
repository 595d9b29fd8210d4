// Runs every native C test program (built by build.sh with ASan/UBSan) under node --test.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { FAMILY_DIRS, filesIn } from './paths.js';

const root = new URL('..', import.meta.url).pathname;
// each family's C tests (families/<family>/test_*.c) and the cross-family ones (tests/native), as
// build.sh's native_tests builds them: one program each, named by its file
const sources = filesIn([...FAMILY_DIRS, 'tests/native'], /^test_.*\.c$/).map((f) => f.split('/').pop());

test('native tests were built by build.sh', () => {
  assert.ok(sources.length > 0);
  for (const f of sources) {
    assert.ok(
      existsSync(`${root}build/native/${f.slice(0, -2)}`),
      `build/native/${f.slice(0, -2)} missing: run ./build.sh`,
    );
  }
});

for (const f of sources) {
  const exe = `${root}build/native/${f.slice(0, -2)}`;
  test(`native ${f}`, { skip: !existsSync(exe) && 'not built' }, () => {
    const r = spawnSync(exe, {
      encoding: 'utf8',
      timeout: 900_000,
      env: { ...process.env, ASAN_OPTIONS: 'detect_leaks=1' },
    });
    assert.equal(r.status, 0, `${f} failed:\n${r.stdout}\n${r.stderr}`);
    assert.match(r.stdout, /\d+ passed, 0 failed/);
  });
}

// The same programs built by emcc with simd128, so the SIMD kernels run against the scalar
// references in each test (POSENC_SIMD is 1 there).
for (const f of sources) {
  const js = `${root}build/native/simd/${f.slice(0, -2)}.js`;
  test(`native ${f} (wasm simd128)`, () => {
    assert.ok(existsSync(js), `build/native/simd/${f.slice(0, -2)}.js missing: run ./build.sh`);
    const r = spawnSync(process.execPath, [js], { encoding: 'utf8', timeout: 900_000 });
    assert.equal(r.status, 0, `${f} (simd) failed:\n${r.stdout.slice(-4000)}\n${r.stderr.slice(-4000)}`);
    assert.match(r.stdout, /\d+ passed, 0 failed/);
    if (f === 'test_rope.c') assert.match(r.stdout, /POSENC_SIMD 1/);
  });
}

// libFuzzer targets: a bounded, seeded run per target (a crash leaves its input in the temp dir
// named in the failure message, to replay with build/native/<target> <file>). The run is kept
// short for CI (about 30 s on 2 shared cores; max_total_time caps it on a slower machine); the
// longer run is documented at the top of tests/fuzz/fuzz_core.c and in docs/errors.md.
for (const f of readdirSync(`${root}tests/fuzz`).filter((x) => /^fuzz_.*\.c$/.test(x))) {
  const exe = `${root}build/native/${f.slice(0, -2)}`;
  // skipped only for the reason build.sh wrote when it found no libFuzzer; a target missing
  // without that note is a failed or never-run build, and fails here
  const unavailable = `${root}build/native/fuzz.unavailable`;
  const skip = existsSync(unavailable) && readFileSync(unavailable, 'utf8').trim();
  test(`fuzz ${f} (40000 runs)`, { skip, timeout: 900_000 }, () => {
    assert.ok(
      existsSync(exe),
      `build/native/${f.slice(0, -2)} missing (and libFuzzer not reported unavailable): run ./build.sh`,
    );
    const dir = mkdtempSync(join(tmpdir(), 'posenc-fuzz-'));
    const r = spawnSync(
      exe,
      [
        '-runs=40000',
        '-max_total_time=60',
        '-seed=20261122',
        '-max_len=512',
        '-rss_limit_mb=2048',
        `-artifact_prefix=${dir}/`,
      ],
      { cwd: dir, encoding: 'utf8', timeout: 880_000, env: { ...process.env, ASAN_OPTIONS: 'detect_leaks=1' } },
    );
    assert.equal(r.status, 0, `${f} found a failure (inputs kept in ${dir}):\n${r.stderr.slice(-4000)}`);
    rmSync(dir, { recursive: true, force: true });
  });
}
