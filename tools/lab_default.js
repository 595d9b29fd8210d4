// The guided lab step's default run, outside the page: task "first", the page's default steps, seeds
// 0-2, every lab method; prints each method's accuracy (median [min-max] over seeds) at 1x-8x the
// training length, as the lab's table shows it. Usage: node tools/lab_default.js [task] [steps]
import { init } from '../js/index.js';
import { runLab, summarise } from '../web/src/views/lab.js';
import { FIELDS, LAB_METHODS } from '../web/src/state.js';
import { STEPS } from '../web/src/steps.js';

// the guided step's state over the page's defaults, as the page opens it
const step = STEPS.find((s) => s.id === 'lab').state;
const n = step.labseeds ?? FIELDS.labseeds[0];
const first = step.labseed ?? FIELDS.labseed[0];
const DEFAULTS_LAB = {
  task: step.labtask ?? FIELDS.labtask[0],
  steps: step.labsteps ?? FIELDS.labsteps[0],
  seeds: Array.from({ length: n }, (_, i) => first + i),
};

const pe = await init({ lab: true });
await pe.use?.('train');
await pe.loadLab?.();
const task = process.argv[2] ?? DEFAULTS_LAB.task;
const steps = Number(process.argv[3] ?? DEFAULTS_LAB.steps);
const fmt = (s) => (s ? `${s.median.toFixed(2)} [${s.min.toFixed(2)}-${s.max.toFixed(2)}]` : 'n/a');
console.log(`task ${task}, ${steps} steps, seeds ${DEFAULTS_LAB.seeds.join(',')}`);
for (const [method] of LAB_METHODS) {
  const runs = DEFAULTS_LAB.seeds.map((seed) => runLab(pe, { opts: { task, steps, seed, method } }));
  const s = summarise(runs);
  const beyond = s.beyond.map((b, i) => `${[1, 2, 4, 8][i]}x ${fmt(b)}`).join('  ');
  // "1x" first: accuracy at the training length; then past it only (n/a at 1x: no positions past it)
  console.log(`${method.padEnd(11)} 1x ${fmt(s.train)}  ${beyond}  learned ${s.learned}`);
}
