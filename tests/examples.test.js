// The blog recipes in examples/ reserve the heights the page's "Copy embed code" reserves: their
// rules are written from web/src/embed-heights-*.js by examples/heights.mjs, so a re-measured
// table (tools/embed_heights.js) that was not carried into them fails here, naming the file.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';

test('examples/: every recipe carries the current height rules and posenc-view version', () => {
  const r = spawnSync(process.execPath, ['examples/heights.mjs', '--check'], { encoding: 'utf8' });
  assert.equal(
    r.status,
    0,
    `node examples/heights.mjs --check failed (run node examples/heights.mjs):\n${r.stdout}${r.stderr}`,
  );
});
