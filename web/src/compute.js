// Runs a job from jobs.js in the worker, or on the main thread when workers are unavailable.
// Only the newest request per job resolves, so a slider drag never queues stale work.
import { coreOf } from './api.js';
import { JOBS } from './jobs.js';
import { Unavailable } from './methods.js';

export function createCompute(pe, { useWorker = true } = {}) {
  // The worker and its own core are started by the first heavy job, not before: most views and
  // sizes never send one, and an embed should not download a second core it does not use.
  let worker = null;
  let usable = useWorker && typeof Worker !== 'undefined' && /^https?:$/.test(location.protocol);
  let next = 1;
  const pending = new Map();
  const latest = new Map();
  // A worker that fails (cannot load its script or its core, crashes) is dropped for good; its
  // pending jobs rerun here.
  function drop() {
    worker?.terminate();
    worker = null;
    usable = false;
    for (const [id, p] of pending) {
      pending.delete(id);
      try {
        p.resolve(JOBS[p.job](pe, p.st));
      } catch (e) {
        p.reject(e);
      }
    }
  }
  function start() {
    try {
      worker = new Worker(new URL('./compute.worker.js', import.meta.url), { type: 'module' });
    } catch {
      usable = false;
      return null;
    }
    worker.onerror = drop;
    worker.addEventListener('message', ({ data }) => {
      if (data.fatal) return drop();
      const p = pending.get(data.id);
      pending.delete(data.id);
      if (!p) return;
      if (data.error)
        p.reject(data.error.unavailable ? new Unavailable(data.error.message) : new Error(data.error.message));
      else p.resolve(data.result);
    });
    return worker;
  }
  return {
    get inWorker() {
      return usable;
    },
    /** Resolves with the result, or with undefined when a newer request for `job` superseded it. */
    run(job, st, { heavy = true } = {}) {
      const id = next++;
      latest.set(job, id);
      const fresh = (r) => (latest.get(job) === id ? r : undefined);
      const w = heavy && usable ? (worker ?? start()) : null;
      if (!w) return Promise.resolve().then(() => fresh(JOBS[job](pe, st)));
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve: (r) => resolve(fresh(r)), reject, job, st: { ...st } });
        // The worker loads the core this page loaded (api.js): it is in the cache.
        w.postMessage({ id, job, st: { ...st }, core: coreOf(pe) });
      });
    },
  };
}
