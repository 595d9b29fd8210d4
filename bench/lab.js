// The extrapolation lab's budget: the default run (all six methods on the default task,
// trained and evaluated at 1x, 2x, 4x, 8x the training length) must fit in 30 s in Node.
// Rows: the whole default run, then ms per optimiser step for each method (SIMD build) and for
// RoPE on the scalar build. Timed once each: a run is seconds long, so repeats would not help.
const METHODS = ['none', 'learned', 'sinusoidal', 'rope', 'alibi', 't5'];

export default async function lab(h) {
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
