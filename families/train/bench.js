// The extrapolation lab's budget: the default run (all six methods on the default task,
// trained and evaluated at 1x, 2x, 4x, 8x the training length) must fit in 30 s in Node.
// Rows: the whole default run, then ms per optimiser step for each method (SIMD build) and for
// RoPE on the scalar build. Timed once each: a run is seconds long, so repeats would not help.
const METHODS = ['none', 'learned', 'sinusoidal', 'rope', 'alibi', 't5'];

export default async function lab(h) {
  // the trainer is its own wasm module; the package ships its SIMD build, build.sh also writes the scalar one
  await Promise.all([
    h.simd.loadLab(),
    h.scalar.loadLab({ wasm: new URL('../../dist/posenc-lab.wasm', import.meta.url) }),
  ]);
  const rows = [];
  const perStep = [];
  const t0 = performance.now();
  for (const method of METHODS) {
    const a = performance.now();
    const { model, losses } = h.simd.train({ method });
    const b = performance.now();
    h.simd.evaluate(model);
    perStep.push({
      case: `lab step (${method}, batch 16 x 32 tokens, 4 heads)`,
      impl: 'posenc simd',
      ms: (b - a) / losses.length,
    });
  }
  const total = performance.now() - t0;
  rows.push({
    case: 'lab default run (6 methods x 300 steps, 4 heads, + evaluation; budget 30000 ms)',
    impl: 'posenc simd',
    ms: total,
  });
  rows.push(...perStep);
  const a = performance.now();
  h.scalar.train({ method: 'rope', steps: 60 });
  rows.push({
    case: 'lab step (rope, batch 16 x 32 tokens, 4 heads)',
    impl: 'posenc scalar',
    ms: (performance.now() - a) / 60,
  });
  process.stderr.write(`[bench] lab: default run ${(total / 1000).toFixed(1)} s (budget 30 s)\n`);
  return rows;
}

// `node families/train/bench.js [task ...] [seeds=3] [option=value ...]` prints the measured table for each
// task: accuracy at the training length and `beyond` (accuracy over the positions past it only)
// at 2x, 4x, 8x, as the median and range over the seeds, with the runs that did not learn marked
// (accuracy at 1x below 0.9 of the best possible), plus RoPE with scaling at evaluation.
if (process.argv[1] && import.meta.url === (await import('node:url')).pathToFileURL(process.argv[1]).href) {
  const { init } = await import('../../js/index.js');
  const pe = await init({ lab: true });
  const args = process.argv.slice(2);
  const extra = Object.fromEntries(
    args.filter((a) => a.includes('=')).map((a) => [a.split('=')[0], Number(a.split('=')[1])]),
  );
  const nSeeds = extra.seeds ?? 3;
  const seed0 = extra.seed ?? 0;
  delete extra.seeds;
  delete extra.seed;
  const named = args.filter((a) => !a.includes('='));
  const tasks = named.length ? named : ['copy'];
  const med = (v) => (v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2);
  const cell = (vals) => {
    const v = vals.filter((x) => x !== null).sort((a, b) => a - b);
    if (!v.length) return 'n/d';
    return v[0] === v[v.length - 1]
      ? med(v).toFixed(2)
      : `${med(v).toFixed(2)} (${v[0].toFixed(2)}–${v[v.length - 1].toFixed(2)})`;
  };
  for (const task of tasks) {
    const t0 = performance.now();
    console.log(
      `\n### task ${task} (train length 32, seeds ${seed0}..${seed0 + nSeeds - 1}${Object.keys(extra).length ? `, ${JSON.stringify(extra)}` : ''})\n`,
    );
    console.log(
      '| method | 1x (32) | beyond 2x (64) | beyond 4x (128) | beyond 8x (256) | learned |\n|---|---:|---:|---:|---:|---|',
    );
    const ropes = [];
    for (const method of METHODS) {
      const evs = [];
      for (let s = seed0; s < seed0 + nSeeds; s++) {
        const { model } = pe.train({ task, method, seed: s, ...extra });
        if (method === 'rope') ropes.push(model);
        evs.push(pe.evaluate(model, { count: 64 }));
      }
      const acc1 = evs.map((e) => e.accuracy[0]).sort((a, b) => a - b);
      const learned = med(acc1) >= 0.9 * evs[0].oracle[0];
      console.log(
        `| ${method} | ${cell(acc1)} | ${[1, 2, 3].map((i) => cell(evs.map((e) => e.beyond[i]))).join(' | ')} | ${learned ? 'yes' : '**did not learn**'} |`,
      );
    }
    for (const scaling of ['linear', 'ntk', 'yarn']) {
      const evs = ropes.map((m) => pe.evaluate(m, { scaling, count: 64 }));
      console.log(
        `| rope + ${scaling} at evaluation | ${cell(evs.map((e) => e.accuracy[0]))} | ${[1, 2, 3].map((i) => cell(evs.map((e) => e.beyond[i]))).join(' | ')} | |`,
      );
    }
    console.log(
      `\n(${((performance.now() - t0) / 1000).toFixed(1)} s; best possible accuracy ${pe.evaluate(ropes[0], { lengths: [32] }).oracle[0].toFixed(3)})`,
    );
  }
}
