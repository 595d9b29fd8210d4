// Functions short enough to hold in mind (CONTRIBUTING.md, "How the code is written"): every
// function in the shipped code has at most LIMIT lines of its own (its span minus the functions
// nested in it), measured by tools/function_lengths.js.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import test from 'node:test';
import { allFunctions, cFunctions, jsFunctions, LIMIT, SPAN_LIMIT } from '../tools/function_lengths.js';
import { C_SOURCES } from './paths.js';

test('the measure counts what a reader holds: nested functions apart, C by its layout', () => {
  const js = jsFunctions(
    'x.js',
    [
      'export function outer() {',
      '  const a = 1;',
      '  function inner() {',
      '    return 2;',
      '  }',
      '  return () => a;',
      '}',
    ].join('\n'),
  );
  assert.deepEqual(
    js.map(({ name, span, own }) => [name, span, own]),
    [
      ['outer', 7, 3],
      ['inner', 3, 3],
      ['(anonymous)', 1, 1],
    ],
  );
  const c = cFunctions(
    'x.c',
    [
      'static int f(int a,',
      '             int b) {',
      '    return a + b;',
      '}',
      'int g(void) { /* why */',
      '    return 1;',
      '}',
      'static inline int one(int x) { return x; }',
      'static inline __attribute__((always_inline)) void h(int *p,',
      '                                                    int n) {',
      '    p[0] = n;',
      '}',
      'typedef struct {',
      '    int x;',
      '} s;',
    ].join('\n'),
  );
  assert.deepEqual(
    c.map(({ name, own }) => [name, own]),
    [
      ['f', 4],
      ['g', 3],
      ['one', 1],
      ['h', 4],
    ],
  );
});

test('the C measure skips no definition: every body-closing brace at column 0 ends one it found', () => {
  for (const f of C_SOURCES) {
    const text = readFileSync(new URL(`../${f}`, import.meta.url), 'utf8');
    const closing = text.split('\n').filter((l) => l === '}').length;
    const lines = text.split('\n');
    const bodies = cFunctions(f, text).filter((fn) => lines[fn.line + fn.span - 2] === '}');
    assert.equal(bodies.length, closing, `${f}: a definition tools/function_lengths.js cannot read`);
  }
});

test(`every shipped function has at most ${LIMIT} lines of its own`, () => {
  const fns = allFunctions();
  assert.ok(fns.some((f) => f.file.endsWith('.c')) && fns.some((f) => f.file.startsWith('web/src/')), 'files found');
  const long = fns.filter((f) => f.own > LIMIT).map((f) => `${f.file}:${f.line} ${f.name}: ${f.own} own lines`);
  assert.deepEqual(long, [], `split these along what they do (node tools/function_lengths.js):\n${long.join('\n')}`);
});

test(`no function in web/src spans more than ${SPAN_LIMIT} lines, the functions nested in it included`, () => {
  const fns = allFunctions(['web/src']);
  assert.ok(fns.length > 100, "the page's functions found");
  const long = fns
    .filter((f) => f.span > SPAN_LIMIT)
    .map((f) => `${f.file}:${f.line} ${f.name}: spans ${f.span} lines`);
  assert.deepEqual(
    long,
    [],
    `keep the state in one object and the work in short functions that take it (views/rotation.js):\n${long.join('\n')}`,
  );
});
