// The npm package as a user gets it: `npm pack`, the tarball installed offline into fresh
// projects, then used from Node by name: ES modules, CommonJS (on this Node and on the oldest
// Node in `engines`), and a worker_thread. Each computes values and checks them against known
// numbers. Also: what the tarball contains and the size budget.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { after, test } from 'node:test';
import { EXPECTED, PROBE, app, cleanup, oldestNode, pack, root } from './package_helper.js';

after(cleanup);

const KiB = 1024;
// Budgets (gzip -9 for the wasm). The margins left under them are printed by the test.
// The tarball target of 90 KiB is not met (171 KB): the two core builds (~38 + ~37 KB gzipped) and
// the lab's pair (~21 + ~21 KB; loaded only by pe.loadLab()) are 117 KB before any JS, and no flag
// that keeps the kernels fast gets them near it (docs/benchmark.md, "Size"). Meeting it means
// shipping one build fewer (the scalar fallback, or the lab in a package of its own): a product
// decision, so it is a todo that reports its size. The hard ceiling catches an accidental addition
// (the C sources, the page) and a regression of the size flags.
const BUDGET = { simdWasmGz: 48 * KiB, tarballTarget: 90 * KiB, tarballCeiling: 180 * KiB };

function sizes() {
  const out = {};
  for (const f of ['dist/posenc.simd.wasm', 'dist/posenc.wasm']) {
    const bytes = readFileSync(join(root, f));
    out[f] = { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
  }
  return out;
}

// One script checked by every Node runtime; `load` is the line that obtains init + PosencError.
const body = `${PROBE}
  try { (await init()).sinusoidal({ length: 0, dim: 8 }); } catch (e) { out.error = [e instanceof PosencError, e.code, e.argument]; }
  return out;`;

function check(result, what) {
  for (const backend of ['simd', 'scalar']) {
    const [s, c, w] = result[backend] ?? [];
    assert.ok(Math.abs(s - EXPECTED.sin1) < 2e-7, `${what} ${backend}: sin(1) = ${s}`);
    assert.ok(Math.abs(c - EXPECTED.cos1) < 2e-7, `${what} ${backend}: cos(1) = ${c}`);
    assert.ok(Math.abs(w - EXPECTED.invFreq1) < 1e-15, `${what} ${backend}: invFreq[1] = ${w}`);
  }
  assert.deepEqual(result.error, [true, -2, 'length'], `${what}: a PosencError naming length`);
}

function run(node, cwd, file) {
  const r = spawnSync(node, [file], { cwd, encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.status, 0, `${node} ${file}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

test('the tarball holds the package and nothing else', () => {
  const files = pack().files.map((f) => f.path).sort();
  for (const f of ['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md', 'js/index.js', 'js/index.cjs', 'js/index.d.ts', 'js/index.d.cts', 'dist/posenc.wasm', 'dist/posenc.simd.wasm']) {
    assert.ok(files.includes(f), `tarball lacks ${f}`);
  }
  const stray = files.filter((f) => !/^(package\.json|README\.md|LICENSE|CHANGELOG\.md|js\/[\w.]+\.(js|cjs|d\.ts|d\.cts)|dist\/posenc(-lab)?(\.simd)?\.wasm)$/.test(f));
  assert.deepEqual(stray, [], 'only the API, its types, the wasm builds (core and lab, SIMD and scalar) and the docs files ship');
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  assert.equal(pkg.license, 'MIT');
  assert.match(readFileSync(join(root, 'LICENSE'), 'utf8'), /MIT License[\s\S]*posenc authors/);
  for (const k of ['repository', 'homepage', 'bugs']) assert.ok(pkg[k], `package.json lacks ${k}`);
});

test('size budget: SIMD wasm at most 48 KiB gzipped; tarball under its ceiling', () => {
  const wasm = sizes();
  const { size, unpackedSize } = pack();
  const simd = wasm['dist/posenc.simd.wasm'].gzip;
  console.log(`# sizes: ${JSON.stringify(wasm)}, tarball ${size} bytes (${unpackedSize} unpacked); ` +
    `margins: SIMD wasm ${BUDGET.simdWasmGz - simd} bytes, tarball ${BUDGET.tarballCeiling - size} bytes to the ceiling`);
  assert.ok(simd <= BUDGET.simdWasmGz, `SIMD wasm is ${simd} bytes gzipped, budget ${BUDGET.simdWasmGz}`);
  assert.ok(size <= BUDGET.tarballCeiling, `tarball is ${size} bytes, ceiling ${BUDGET.tarballCeiling}`);
});

test('size target: tarball at most 90 KiB', { todo: 'not met: needs one wasm build fewer in the tarball (the scalar fallback or the lab)' }, () => {
  const { size } = pack();
  assert.ok(size <= BUDGET.tarballTarget, `tarball is ${size} bytes, target ${BUDGET.tarballTarget}`);
});

test('Node ESM from the tarball: import by name, both builds', { timeout: 300_000 }, () => {
  const cwd = app('esm');
  writeFileSync(join(cwd, 'main.mjs'), `import { init, PosencError } from 'posenc';\nconsole.log(JSON.stringify(await (async () => {${body}})()));`);
  check(run(process.execPath, cwd, 'main.mjs'), 'ESM');
  // the types condition of the import entry is what TypeScript resolves
  const pkg = JSON.parse(readFileSync(join(cwd, 'node_modules/posenc/package.json'), 'utf8'));
  assert.equal(pkg.exports['.'].import.types, './js/index.d.ts');
});

const cjsMain = `const { init, PosencError, load } = require('posenc');
(async () => {
  let early;
  try { require('posenc').Status; } catch (e) { early = e.message; }
  const out = await (async () => {${body}})();
  const m = await load();
  out.sameStatus = require('posenc').Status === m.Status && m.Status.E_SIZE === -2;
  out.early = early;
  console.log(JSON.stringify(out));
})().catch((e) => { console.error(e); process.exit(1); });`;

function checkCjs(result, what) {
  check(result, what);
  assert.equal(result.sameStatus, true, `${what}: Status is the ES module's`);
  assert.match(result.early, /available once init\(\) or load\(\) has resolved/);
}

test('CommonJS from the tarball (a "type": "commonjs" project, as npm init writes)', { timeout: 300_000 }, () => {
  const cwd = app('cjs', { type: 'commonjs' });
  writeFileSync(join(cwd, 'main.js'), cjsMain);
  checkCjs(run(process.execPath, cwd, 'main.js'), 'CommonJS node ' + process.version);
});

test('Node 18 (the oldest in engines): CommonJS and ESM from the tarball', { timeout: 400_000 }, (t) => {
  const node = oldestNode();
  if (!node) return t.skip('node@18 could not be had from the npm cache or registry (npx -p node@18 failed)');
  const engines = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).engines.node;
  assert.equal(engines, '>=18', 'test the oldest Node in engines');
  const cwd = app('node18', { type: 'commonjs' });
  writeFileSync(join(cwd, 'main.js'), cjsMain);
  writeFileSync(join(cwd, 'main.mjs'), `import { init, PosencError } from 'posenc';\nconsole.log(JSON.stringify(await (async () => {${body}})()));`);
  const version = execFileSync(node, ['-p', 'process.version'], { encoding: 'utf8' }).trim();
  assert.match(version, /^v18\./);
  checkCjs(run(node, cwd, 'main.js'), `CommonJS ${version}`);
  check(run(node, cwd, 'main.mjs'), `ESM ${version}`);
});

test('Node worker_threads from the tarball', { timeout: 300_000 }, () => {
  const cwd = app('worker');
  writeFileSync(join(cwd, 'work.mjs'), `import { parentPort } from 'node:worker_threads';
import { init, PosencError } from 'posenc';
parentPort.postMessage(await (async () => {${body}})());`);
  writeFileSync(join(cwd, 'main.mjs'), `import { Worker } from 'node:worker_threads';
const w = new Worker(new URL('./work.mjs', import.meta.url));
w.once('message', (m) => { console.log(JSON.stringify(m)); w.terminate(); });
w.once('error', (e) => { console.error(e); process.exit(1); });`);
  check(run(process.execPath, cwd, 'main.mjs'), 'worker_thread');
});
