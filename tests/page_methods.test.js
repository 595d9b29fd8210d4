// The page's method registry (web/src/methods.js METHODS) is the one place that knows a method: its
// label, the state keys it reads, whether it is a table or a score, and its Shuffle-lab encoding.
// Every method there must have a matrix (matrices.js MATRICES) and a filled-in formula
// (formula.js cellFormula) whose call reproduces its value, and an encoding selfAttention accepts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { init } from '../js/index.js';
import { METHODS, METHOD_CHOICES, makePool } from '../web/src/methods.js';
import { MATRICES, encodingMatrix } from '../web/src/matrices.js';
import { cellFormula } from '../web/src/formula.js';
import { FIELDS, parseState } from '../web/src/state.js';
import { VIEW_INFO } from '../web/src/views/registry.js';

const pe = await init();
const ids = Object.keys(METHODS);

test("registry: the state's method choices, the matrices and the controls follow it", () => {
  assert.deepEqual(FIELDS.method[1].list, METHOD_CHOICES);
  assert.deepEqual(FIELDS.vs[1].list, METHOD_CHOICES);
  assert.deepEqual(Object.keys(MATRICES), ids, 'one matrix per method, in the same order');
  for (const [id, m] of Object.entries(METHODS)) {
    assert.ok(m.label && m.paper, `${id}: label and paper`);
    assert.equal(typeof m.table, 'boolean');
    for (const k of m.keys) assert.ok(k in FIELDS, `${id}: ${k} is a state field`);
    // the heatmap shows exactly the method's keys beside it
    const shown = VIEW_INFO.heatmap.controlsFor({ method: id });
    for (const k of m.keys) assert.ok(shown.includes(k), `${id}: heatmap control ${k}`);
  }
});

test("registry: every method's matrix and formula come from the API, and its encoding runs in selfAttention", () => {
  const st = parseState(new URLSearchParams('dim=16&length=24'));
  const pool = makePool(pe);
  for (const id of ids) {
    const m = encodingMatrix(pe, st, id, pool);
    assert.ok(m.rows > 0 && m.cols > 0, `${id}: a matrix`);
    const f = cellFormula(pe, st, id, 5, 3, m);
    assert.ok(f.html.length > 0 && (f.call.startsWith('pe.') || f.call.startsWith('((')), `${id}: a call (${f.call})`);
    const api = new Function('pe', `return ${f.call};`)(pe);
    assert.ok(Object.is(api, f.value), `${id}: formula ${f.value} vs its call ${api}`);
    const n = 5,
      dModel = 16,
      heads = 2;
    const rand = (length, dim, seed, std = 0.5) => pe.learnedInit({ length, dim, std, seed });
    const w = () => rand(dModel, dModel, 1);
    const out = pe.selfAttention({
      tokens: rand(n, dModel, 2, 1),
      dModel,
      wq: w(),
      wk: w(),
      wv: w(),
      heads,
      encoding: METHODS[id].attention(pe, st, { n, heads, dModel, rand }),
    });
    assert.ok(out.output.every(Number.isFinite), `${id}: selfAttention output`);
  }
  pool.free();
});
