// Runs a job from jobs.js in the worker, or on the main thread when workers are unavailable.
// Only the newest request per job resolves, so a slider drag never queues stale work.
import { JOBS } from './jobs.js';
import { Unavailable } from './methods.js';

export function createCompute(pe, { useWorker = true } = {}) {
  let worker = null;
  if (useWorker && typeof Worker !== 'undefined' && /^https?:$/.test(location.protocol)) {
    try {
      worker = new Worker(new URL('./compute.worker.js', import.meta.url), { type: 'module' });
      // A worker that fails (cannot load, crashes) is dropped; its pending jobs rerun here.
      worker.onerror = () => {
        worker = null;
        for (const [id, p] of pending) {
          pending.delete(id);
          try {
            p.resolve(JOBS[p.job](pe, p.st));
          } catch (e) {
            p.reject(e);
          }
        }
      };
    } catch {
      worker = null;
    }
  }
  let next = 1;
  const pending = new Map();
  const latest = new Map();
  worker?.addEventListener('message', ({ data }) => {
    const p = pending.get(data.id);
    pending.delete(data.id);
    if (!p) return;
    if (data.error) p.reject(data.error.unavailable ? new Unavailable(data.error.message) : new Error(data.error.message));
    else p.resolve(data.result);
  });
  return {
    get inWorker() {
      return !!worker;
    },
    /** Resolves with the result, or with undefined when a newer request for `job` superseded it. */
    run(job, st, { heavy = true } = {}) {
      const id = next++;
      latest.set(job, id);
      const fresh = (r) => (latest.get(job) === id ? r : undefined);
      if (!worker || !heavy) return Promise.resolve().then(() => fresh(JOBS[job](pe, st)));
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve: (r) => resolve(fresh(r)), reject, job, st: { ...st } });
        worker.postMessage({ id, job, st: { ...st } });
      });
    },
  };
}
