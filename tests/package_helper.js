// Shared by the package tests: pack the package once per test file (npm pack), install the
// tarball offline into fresh directories the way a user would, and find an old Node to run on.
// Not a test file itself (the runner only picks up *.test.js).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const root = new URL('..', import.meta.url).pathname;

// Script text every runtime test runs (after a line that obtains init): the values it puts in
// `out` per backend are checked against EXPECTED.
export const PROBE = `
  const out = {};
  for (const simd of [true, false]) {
    const pe = await init({ simd });
    const t = pe.sinusoidal({ length: 4, dim: 8 });
    out[pe.backend] = [t[8], t[9], pe.ropeFrequencies({ dim: 8 }).invFreq64[1]];
  }`;

/** The numbers every runtime test checks: row 1 of sinusoidal({ length: 4, dim: 8 }) starts with
 * sin(1), cos(1); RoPE inverse frequency 1 of dim 8 is 10000^(-2/8) = 0.1. */
export const EXPECTED = { sin1: Math.sin(1), cos1: Math.cos(1), invFreq1: 0.1 };

let packed = null;
/** npm pack into a temp directory, once per process: { dir, tgz, size, unpackedSize, files }. */
export function pack() {
  if (packed) return packed;
  const dir = mkdtempSync(join(tmpdir(), 'posenc-pack-'));
  const [info] = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', dir], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }),
  );
  packed = { dir, tgz: join(dir, info.filename), size: info.size, unpackedSize: info.unpackedSize, files: info.files };
  return packed;
}

/** Remove the temp directory of this process's tarball (call from after()). */
export function cleanup() {
  if (packed) rmSync(packed.dir, { recursive: true, force: true });
  packed = null;
}

/**
 * A fresh project with the tarball installed offline (it has no dependencies, so npm must not
 * fetch anything). `link` lists dev tools (vite, typescript) linked from the repository's
 * node_modules instead of downloaded.
 */
export function app(name, { type = 'module', link = [] } = {}) {
  const { dir, tgz } = pack();
  const cwd = join(dir, name);
  mkdirSync(cwd, { recursive: true });
  writeFileSync(
    join(cwd, 'package.json'),
    JSON.stringify({ name: `app-${name}`, version: '1.0.0', private: true, type }),
  );
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--no-package-lock', tgz], {
    cwd,
    stdio: 'ignore',
  });
  for (const dep of link) symlinkSync(join(root, 'node_modules', dep), join(cwd, 'node_modules', dep));
  return cwd;
}

let node18 = undefined;
/**
 * The path of a Node 18 binary (the oldest in `engines`) from the `node@18` npm package, or null.
 * npx keeps it in the npm cache, so only the first run on a machine downloads it; offline first.
 */
export function oldestNode() {
  if (node18 !== undefined) return node18;
  node18 = null;
  const probe = ['-y', '-p', 'node@18', 'node', '-e', 'process.stdout.write(process.execPath + " " + process.version)'];
  for (const extra of [['--offline'], []]) {
    const r = spawnSync('npx', [...extra, ...probe], { encoding: 'utf8', timeout: 180_000, cwd: tmpdir() });
    const [path, version] = (r.stdout ?? '').trim().split(' ');
    if (r.status === 0 && /^v18\./.test(version ?? '')) {
      node18 = path;
      break;
    }
  }
  return node18;
}

export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--disable-quic',
];
