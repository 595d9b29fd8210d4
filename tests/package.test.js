// The npm package as a user gets it: pack, install the tarball offline into a fresh directory,
// import it by name from Node and check that both builds load and compute.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

const root = new URL('..', import.meta.url).pathname;

test('npm pack -> offline install in a fresh directory -> import posenc', { timeout: 600_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'posenc-pack-'));
  try {
    const packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', dir], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
    const files = packed[0].files.map((f) => f.path);
    for (const f of ['js/index.js', 'js/index.d.ts', 'dist/posenc.wasm', 'dist/posenc.simd.wasm', 'package.json']) {
      assert.ok(files.includes(f), `tarball lacks ${f}`);
    }
    assert.ok(!files.some((f) => f.startsWith('tests/') || f.startsWith('web/') || f.startsWith('node_modules/')), 'tarball ships only the package');
    const app = join(dir, 'app');
    execFileSync('mkdir', ['-p', app]);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', type: 'module', private: true }));
    // --offline: the tarball has no dependencies, so nothing may be fetched
    execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', join(dir, packed[0].filename)], { cwd: app, stdio: 'ignore' });
    writeFileSync(join(app, 'main.js'), `
      import { init, PosencError } from 'posenc';
      const out = {};
      for (const simd of [true, false]) {
        const pe = await init({ simd });
        const t = pe.sinusoidal({ length: 4, dim: 8 });
        out[pe.backend] = Array.from(t.slice(8, 10));
      }
      try { (await init()).sinusoidal({ length: 0, dim: 8 }); } catch (e) { out.error = e instanceof PosencError && e.code; }
      console.log(JSON.stringify(out));
    `);
    const result = JSON.parse(execFileSync('node', ['main.js'], { cwd: app, encoding: 'utf8' }));
    assert.ok(Math.abs(result.simd[0] - Math.sin(1)) < 1e-7);
    assert.ok(Math.abs(result.scalar[1] - Math.cos(1)) < 1e-7);
    assert.equal(result.error, -2);
    const pkg = JSON.parse(readFileSync(join(app, 'node_modules/posenc/package.json'), 'utf8'));
    assert.equal(pkg.exports['.'].types, './js/index.d.ts');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
