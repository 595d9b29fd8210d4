// Runs JOBS off the main thread with its own instance of the posenc core.
import { init } from '../../js/index.js';
import { JOBS } from './jobs.js';

const ready = init();
self.onmessage = async ({ data: { id, job, st } }) => {
  try {
    const pe = await ready;
    const result = JOBS[job](pe, st);
    const transfer = result ? Object.values(result).filter((v) => ArrayBuffer.isView(v)).map((v) => v.buffer) : [];
    self.postMessage({ id, result }, transfer);
  } catch (e) {
    self.postMessage({ id, error: { message: e.message, unavailable: e.name === 'Unavailable' } });
  }
};
