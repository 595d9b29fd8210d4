// The extrapolation lab's worker: trains one model per request with its own posenc instance,
// so a training run never blocks a frame. Messages in: { id, opts: { task, steps, seed, method } };
// out: { id, type: 'progress', step, steps, loss, table } then { id, type: 'done', ... } or
// { id, type: 'error', message }. Cancelling is terminate(): training is one synchronous call.
import { init } from 'posenc';
import { runLab } from './views/lab.js';

// Loaded with the first request, which then reports a core that cannot load as its error.
let ready = null;
self.onmessage = async ({ data }) => {
  const { id } = data;
  try {
    const pe = await (ready ??= init({ lab: true }));
    const result = runLab(pe, data, (p) => self.postMessage({ id, type: 'progress', ...p }));
    self.postMessage({ id, type: 'done', ...result });
  } catch (e) {
    self.postMessage({ id, type: 'error', message: e.message });
  }
};
