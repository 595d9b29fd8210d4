// Every ```js example in README.md and docs/*.md runs as written, against the packed package
// installed offline into a fresh project (so `import 'posenc'` resolves as it does for a user).
// Examples check themselves with console.assert, which in Node prints "Assertion failed" instead
// of throwing, so stderr is checked as well as the exit code. A block that uses require() runs as
// CommonJS, the others as ES modules.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { app, cleanup, root } from './package_helper.js';

after(cleanup);

const sources = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];

function blocks(file) {
  const text = readFileSync(join(root, file), 'utf8');
  const out = [];
  const re = /^```js\n([\s\S]*?)^```/gm;
  for (let m; (m = re.exec(text));) out.push({ line: text.slice(0, m.index).split('\n').length, code: m[1] });
  return out;
}

test('README.md has runnable examples and cites no file outside the repository', () => {
  const text = readFileSync(join(root, 'README.md'), 'utf8');
  assert.ok(blocks('README.md').length >= 4);
  assert.doesNotMatch(text, /SPEC|DESIGN\.md/, 'user docs must not cite developer-only files');
  for (const f of sources) assert.doesNotMatch(readFileSync(join(root, f), 'utf8'), /SPEC|DESIGN\.md/, f);
  // it still opens with the two commands
  assert.ok(text.startsWith('# posenc\n\n```sh\n./build.sh serve   #'));
  assert.match(text.split('\n')[4], /^\.\/build\.sh test {4}#/);
  // every relative link points at a file that exists
  for (const f of sources) {
    for (const [, target] of readFileSync(join(root, f), 'utf8').matchAll(/\]\((?!https?:|#)([^)#\s]+)/g)) {
      const base = f.includes('/') ? join(root, f, '..') : root;
      assert.doesNotThrow(() => readFileSync(join(base, target)), `${f} links to missing ${target}`);
    }
  }
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
