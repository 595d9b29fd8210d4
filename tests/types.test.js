// The shipped TypeScript declarations compile under --strict against tests/types/usage.ts.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, mkdirSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

const root = new URL('..', import.meta.url).pathname;

test('index.d.ts type-checks real usage (tsc --strict)', { timeout: 600_000 }, () => {
  // resolve 'posenc' the way a user does: through node_modules/posenc/package.json exports
  const dir = mkdtempSync(join(tmpdir(), 'posenc-types-'));
  try {
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(root, join(dir, 'node_modules', 'posenc'));
    copyFileSync(join(root, 'tests/types/usage.ts'), join(dir, 'usage.ts'));
    const r = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '--noEmit', '--strict',
      '--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--lib', 'es2022,dom,esnext.disposable', 'usage.ts'],
    { cwd: dir, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stdout + r.stderr);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
