// CSV export rules (web/src/export.js), without a browser: RFC 4180 quoting, CRLF line ends, and a
// leading ' on text cells a spreadsheet would run as a formula. Numbers stay numbers.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { csvCell, toCsv } from '../web/src/export.js';

test('csvCell: quoting, doubled quotes, formula prefixes, numbers untouched', () => {
  assert.equal(csvCell('plain'), 'plain');
  assert.equal(csvCell('a,b'), '"a,b"');
  assert.equal(csvCell('say "hi"'), '"say ""hi"""');
  assert.equal(csvCell('two\nlines'), '"two\nlines"');
  assert.equal(csvCell('cr\rhere'), '"cr\rhere"');
  for (const c of ['=', '+', '-', '@']) assert.equal(csvCell(`${c}1+2`), `'${c}1+2`);
  assert.equal(csvCell('=SUM(A1,A2)'), `"'=SUM(A1,A2)"`);
  assert.equal(csvCell('\t=1'), `'\t=1`);
  assert.equal(csvCell(-0.5), '-0.5', 'a negative number is a number, not a formula');
  assert.equal(csvCell(-Infinity), '-inf');
  assert.equal(csvCell(1e-7), '1e-7');
  assert.equal(csvCell(null), '');
  assert.equal(csvCell(undefined), '');
});

test('toCsv: matrices, series, lab and groups with CRLF', () => {
  const m = toCsv({
    kind: 'matrix',
    rows: 2,
    cols: 2,
    rowLabel: 'position',
    colLabel: 'dim',
    values: [0, 1, -2, null],
  });
  assert.equal(m, 'position\\dim,0,1\r\n0,0,1\r\n1,-2,');
  const s = toCsv({ kind: 'series', xLabel: 'x, units', series: [{ label: '=bad', x: [0, 1], y: [0.5, -1] }] });
  assert.equal(s, '# =bad\r\n"x, units",value\r\n0,0.5\r\n1,-1');
  const lab = toCsv({
    kind: 'lab',
    words: ['=1+1', 'a,b'],
    order: [1, 0],
    sides: [{ encoding: 'rope', maxAttentionDiff: 0.1, maxOutputDiff: 0.2, pooledCosine: 0.9 }],
  });
  assert.equal(lab.split('\r\n')[0], 'words,"\'=1+1 a,b"');
  assert.equal(lab.split('\r\n')[3], 'rope,0.1,0.2,0.9');
  const g = toCsv({
    kind: 'group',
    parts: [{ kind: 'matrix', name: 'left, a', rows: 1, cols: 1, rowLabel: 'r', colLabel: 'c', values: [3] }],
  });
  assert.equal(g, '"# left, a"\r\nr\\c,0\r\n0,3');
});
