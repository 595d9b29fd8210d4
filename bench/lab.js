// The extrapolation lab's budget: the default run (all six methods on the default task,
// trained and evaluated at 1x, 2x, 4x, 8x the training length) must fit in 30 s in Node.
// Rows: the whole default run, then ms per optimiser step for each method (SIMD build) and for
// RoPE on the scalar build. Timed once each: a run is seconds long, so repeats would not help.
const METHODS = ['none', 'learned', 'sinusoidal', 'rope', 'alibi', 't5'];

export default async function lab(h) {
  await Promise.all([h.simd.loadLab(), h.scalar.loadLab()]); // the trainer is its own wasm module
  const rows = [];
  const perStep = [];
  const t0 = performance.now();
  for (const method of METHODS) {
    const a = performance.now();
    const { model, losses } = h.simd.train({ method });
    const b = performance.now();
    h.simd.evaluate(model);
    perStep.push({ case: `lab step (${method}, batch 16 x 32 tokens)`, impl: 'posenc simd', ms: (b - a) / losses.length });
  }
  const total = performance.now() - t0;
  rows.push({ case: 'lab default run (6 methods x 300 steps + evaluation; budget 30000 ms)', impl: 'posenc simd', ms: total });
  rows.push(...perStep);
  const a = performance.now();
  h.scalar.train({ method: 'rope', steps: 60 });
  rows.push({ case: 'lab step (rope, batch 16 x 32 tokens)', impl: 'posenc scalar', ms: (performance.now() - a) / 60 });
  process.stderr.write(`[bench] lab: default run ${(total / 1000).toFixed(1)} s (budget 30 s)\n`);
  return rows;
}

// `node bench/lab.js [task ...] [option=value ...]` prints the measured accuracy table (default
// run settings unless overridden, 64 evaluation sequences per length) for each task, plus RoPE
// with scaling at evaluation.
if (process.argv[1] && import.meta.url === (await import('node:url')).pathToFileURL(process.argv[1]).href) {
  const { init } = await import('../js/index.js');
  const pe = await init({ lab: true });
  // arguments: task names, and key=value training options (steps=1000, k=1, seed=3, ...)
  const args = process.argv.slice(2);
  const extra = Object.fromEntries(args.filter((a) => a.includes('=')).map((a) => [a.split('=')[0], Number(a.split('=')[1])]));
  const named = args.filter((a) => !a.includes('='));
  const tasks = named.length ? named : ['copy'];
  const fmt = (a) => (a === null ? 'n/d' : a.toFixed(3));
  for (const task of tasks) {
    const t0 = performance.now();
    console.log(`\n### task ${task} (train length 32, default options${Object.keys(extra).length ? `, ${JSON.stringify(extra)}` : ''})\n`);
    console.log('| method | final loss | 32 | 64 | 128 | 256 |\n|---|---:|---:|---:|---:|---:|');
    let rope = null;
    for (const method of METHODS) {
      const { model, losses } = pe.train({ task, method, ...extra });
      if (method === 'rope') rope = model;
      const ev = pe.evaluate(model);
      const tail = losses.slice(-20).reduce((a, b) => a + b, 0) / 20;
      console.log(`| ${method} | ${tail.toFixed(3)} | ${ev.accuracy.map(fmt).join(' | ')} |`);
    }
    for (const scaling of ['linear', 'ntk', 'yarn']) {
      const ev = pe.evaluate(rope, { scaling });
      console.log(`| rope + ${scaling} at evaluation | | ${ev.accuracy.map(fmt).join(' | ')} |`);
    }
    console.log(`\n(${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  }
}
