// Runs JOBS off the main thread with its own instance of the posenc core (the page's API: the
// encodings, which is all JOBS call).
import { init } from './api.js';
import { JOBS } from './jobs.js';

let ready = null;
self.onmessage = async ({ data: { id, job, st, core } }) => {
  // Loaded with the first job, so a failure has a job to report to; a core that cannot load is
  // fatal (compute.js drops the worker and runs its jobs on the main thread).
  ready ??= init({ core });
  let pe;
  try {
    pe = await ready;
  } catch {
    self.postMessage({ id, fatal: true });
    return;
  }
  try {
    const result = JOBS[job](pe, st);
    const transfer = result
      ? Object.values(result)
          .filter((v) => ArrayBuffer.isView(v))
          .map((v) => v.buffer)
      : [];
    self.postMessage({ id, result }, transfer);
  } catch (e) {
    self.postMessage({ id, error: { message: e.message, unavailable: e.name === 'Unavailable' } });
  }
};
