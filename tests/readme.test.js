// Every ```js example in README.md and the docs pages (tests/paths.js DOC_PAGES: docs/*.md and
// each family's pages) runs as written, against the packed package
// installed offline into a fresh project (so `import 'posenc'` resolves as it does for a user).
// The first README example also runs the way a newcomer pastes it: into `npm init -y`'s project
// (which says "type": "commonjs") after the README's own install lines. README links must work
// from the npm page: absolute, an anchor of the README, or a file the package ships.
// Examples check themselves with console.assert, which in Node prints "Assertion failed" instead
// of throwing, so stderr is checked as well as the exit code. A block that uses require() runs as
// CommonJS, the others as ES modules.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { app, cleanup, pack, root } from './package_helper.js';
import { DOC_PAGES } from './paths.js';

after(cleanup);

const sources = ['README.md', ...DOC_PAGES];

// A citation of the developer-only spec and design notes, which are not in the repository. Built from
// pieces so that this file, which is scanned too, does not match its own pattern.
const citation = new RegExp(['\\bS', 'PEC\\b|\\bD', 'ESIGN(\\.md| §)'].join(''));

function blocks(file) {
  const text = readFileSync(join(root, file), 'utf8');
  const out = [];
  const re = /^```js\n([\s\S]*?)^```/gm;
  for (let m; (m = re.exec(text)); ) out.push({ line: text.slice(0, m.index).split('\n').length, code: m[1] });
  return out;
}

test('README.md has runnable examples and cites no file outside the repository', () => {
  const text = readFileSync(join(root, 'README.md'), 'utf8');
  assert.ok(blocks('README.md').length >= 4);
  assert.doesNotMatch(text, citation, 'user docs must not cite developer-only files');
  for (const f of sources) assert.doesNotMatch(readFileSync(join(root, f), 'utf8'), citation, f);
  // it still opens with the two commands
  assert.ok(text.startsWith('# posenc\n\n```sh\n./build.sh serve   #'));
  assert.match(text.split('\n')[4], /^\.\/build\.sh test {4}#/);
  // from the npm page, a relative link resolves only to a file in the package or a README anchor
  const shipped = new Set(pack().files.map((f) => f.path));
  const anchors = new Set(
    [...text.matchAll(/^#+ (.+)$/gm)].map(([, h]) =>
      h
        .toLowerCase()
        .replace(/[^\w\s-]/g, '')
        .replace(/\s/g, '-'),
    ),
  );
  for (const [, id] of text.matchAll(/<a id="([\w-]+)"><\/a>/g)) anchors.add(id);
  for (const [, target] of text.matchAll(/\]\((?!https?:)([^)\s]+)\)/g)) {
    if (target.startsWith('#'))
      assert.ok(anchors.has(target.slice(1)), `README.md links to a missing anchor ${target}`);
    else assert.ok(shipped.has(target), `README.md links to ${target}, which the npm package does not have`);
  }
  // in the repository, every relative link of docs/ points at a file that exists
  for (const f of sources) {
    for (const [, target] of readFileSync(join(root, f), 'utf8').matchAll(/\]\((?!https?:|#)([^)#\s]+)/g)) {
      const base = f.includes('/') ? join(root, f, '..') : root;
      assert.doesNotThrow(() => readFileSync(join(base, target)), `${f} links to missing ${target}`);
    }
  }
});

test('no code comment, doc, test name or message cites a file outside the repository', () => {
  const text = /\.(c|h|js|mjs|cjs|ts|md|css|html|sh|py|txt)$/;
  const files = [];
  const walk = (dir) => {
    for (const e of readdirSync(join(root, dir), { withFileTypes: true })) {
      const rel = `${dir}/${e.name}`;
      if (e.isDirectory()) {
        if (!['node_modules', 'dist', 'build'].includes(e.name)) walk(rel);
      } else if (text.test(e.name)) files.push(rel);
    }
  };
  for (const dir of ['c_src', 'js', 'tests', 'bench', 'tools', 'web/src', 'docs', 'families']) walk(dir);
  files.push('README.md', 'CONTRIBUTING.md', 'build.sh');
  assert.ok(files.includes('tests/readme.test.js') && files.includes('c_src/posenc.h') && files.length > 50);
  const found = [];
  for (const f of files) {
    readFileSync(join(root, f), 'utf8')
      .split('\n')
      .forEach((l, i) => {
        if (citation.test(l)) found.push(`${f}:${i + 1}: ${l.trim()}`);
      });
  }
  assert.deepEqual(
    found,
    [],
    'cite families/<family>/<page>.md or docs/<page>.md, the paper or the reference code (file and function) instead',
  );
});

let cwd;
for (const file of sources) {
  for (const { line, code } of blocks(file)) {
    test(`${file}:${line} runs as written`, { timeout: 120_000 }, () => {
      cwd ??= app('readme');
      const name = `${file.replace(/\W/g, '_')}_${line}.${/\brequire\(/.test(code) ? 'cjs' : 'mjs'}`;
      writeFileSync(join(cwd, name), code);
      const r = spawnSync(process.execPath, [name], { cwd, encoding: 'utf8', timeout: 100_000 });
      assert.equal(r.status, 0, `${file}:${line} exited ${r.status}\n${r.stderr}`);
      assert.doesNotMatch(r.stderr, /Assertion failed/, `${file}:${line}\n${r.stderr}`);
    });
  }
}

test('the first README example, pasted into a fresh `npm init -y` project after the install lines', {
  timeout: 300_000,
}, () => {
  const text = readFileSync(join(root, 'README.md'), 'utf8');
  const install = text.slice(text.indexOf('## Install and use'));
  const sh = /```sh\n([\s\S]*?)```/
    .exec(install)[1]
    .split('\n')
    .map((l) => l.replace(/#.*/, '').trim())
    .filter(Boolean);
  assert.equal(sh[0], 'npm install posenc');
  const [first] = blocks('README.md');
  assert.ok(install.indexOf('```js') > install.indexOf('```sh'), 'the install lines come before the first example');
  const cwd = join(pack().dir, 'npm-init');
  mkdirSync(cwd, { recursive: true });
  execFileSync('npm', ['init', '-y'], { cwd, stdio: 'ignore' });
  const made = JSON.parse(readFileSync(join(cwd, 'package.json'), 'utf8'));
  // npm 11 writes "type": "commonjs"; older npm writes no type, which Node also reads as CommonJS
  assert.ok(made.type === undefined || made.type === 'commonjs', `npm init -y wrote type ${made.type}`);
  for (const line of sh) {
    const [cmd, ...args] = line.split(/\s+/);
    assert.equal(cmd, 'npm', `an install line the test can run offline: ${line}`);
    // the tarball stands in for the registry's posenc
    const offline = args[0] === 'install' ? ['install', '--offline', '--no-audit', '--no-fund', pack().tgz] : args;
    execFileSync('npm', offline, { cwd, stdio: 'ignore' });
  }
  writeFileSync(join(cwd, 'index.js'), first.code);
  const r = spawnSync(process.execPath, ['index.js'], { cwd, encoding: 'utf8', timeout: 100_000 });
  assert.equal(r.status, 0, `README.md:${first.line} in an npm init -y project exited ${r.status}\n${r.stderr}`);
  assert.doesNotMatch(r.stderr, /Assertion failed/, r.stderr);
  assert.match(r.stdout, /^(simd|scalar)$/m);
});
