// posenc/worker: the posenc API in a Worker, every call asynchronous, so a decode loop or a big
// table leaves the page's main thread free. The worker holds the one wasm build; results come
// back transferred (no copy), arguments are copied. Two halves of one module:
//
//   // posenc.worker.js, the worker's file:
//   import { serve } from 'posenc/worker';
//   serve();
//
//   // the page:
//   import { connect } from 'posenc/worker';
//   const pe = await connect(new Worker(new URL('./posenc.worker.js', import.meta.url), { type: 'module' }));
//   const table = await pe.sinusoidal({ length: 512, dim: 64 });
//   const cache = await pe.kvCache({ heads: 8, kvHeads: 2, dim: 64, capacity: 1024 });
//   await cache.append(k, v);
//   const { output } = await cache.attend(q);
//
// Objects the API returns that hold wasm memory (a KV cache) stay in the worker; the page gets a
// stand-in whose methods are asynchronous and whose length, capacity, heads and kvHeads are
// kept up to date after each call. Node's worker_threads work too (serve(parentPort)).
import { PosencError, Status } from './errors.js';
import { init } from './index.js';

const STATE = ['length', 'capacity', 'heads', 'kvHeads'];

/** Typed arrays in a result, to transfer rather than copy. */
function transferables(value) {
  const out = [];
  const add = (v) => {
    if (ArrayBuffer.isView(v) && !(typeof SharedArrayBuffer === 'function' && v.buffer instanceof SharedArrayBuffer))
      out.push(v.buffer);
  };
  add(value);
  if (value && typeof value === 'object' && !ArrayBuffer.isView(value)) for (const v of Object.values(value)) add(v);
  return [...new Set(out)];
}

/** The worker's half: answer the page's calls on `port` (the worker's global scope by default,
 * or a worker_threads parentPort). opts go to init() (simd, wasm). */
export function serve(port = globalThis, opts) {
  const ready = init(opts);
  const handles = new Map();
  let next = 1;
  const reply = (msg, transfer = []) => port.postMessage(msg, transfer);
  const onMessage = async (data) => {
    const { id, handle, method, args } = data ?? {};
    try {
      const pe = await ready;
      if (method === '@connect') return reply({ id, value: { backend: pe.backend } });
      const target = handle ? handles.get(handle) : pe;
      if (!target) throw new PosencError(Status.E_NULL, 'posenc/worker: this object was freed', 'handle');
      if (typeof method !== 'string' || !methodsOf(target, handle).includes(method))
        throw new PosencError(Status.E_PARAM, `posenc/worker: ${method} is not a function of the API`, 'method');
      const value = target[method](...args);
      if (handle && method === 'free') handles.delete(handle);
      if (value === target) return reply({ id, state: stateOf(target) });
      if (value && typeof value === 'object' && typeof value.free === 'function' && !ArrayBuffer.isView(value)) {
        const h = next++;
        handles.set(h, value);
        return reply({ id, handle: h, methods: methodsOf(value, h), state: stateOf(value) });
      }
      reply({ id, value, state: handle ? stateOf(target) : undefined }, transferables(value));
    } catch (e) {
      const error =
        e instanceof PosencError
          ? { code: e.code, message: e.message, argument: e.argument }
          : { message: `${e?.name ?? 'Error'}: ${e?.message ?? e}` };
      reply({ id, error });
    }
  };
  if (typeof port.addEventListener === 'function') {
    port.addEventListener('message', (e) => onMessage(e.data));
    port.start?.();
  } else port.on('message', onMessage);
}

/** The functions a message may call: the API object's own, or a handle's class methods. */
function methodsOf(obj, handle) {
  const names = handle ? Object.getOwnPropertyNames(Object.getPrototypeOf(obj)) : Object.keys(obj);
  return names.filter((k) => k !== 'constructor' && typeof obj[k] === 'function');
}

function stateOf(obj) {
  return Object.fromEntries(STATE.filter((k) => typeof obj[k] === 'number').map((k) => [k, obj[k]]));
}

/** The page's half: the API of the worker behind `worker` (a Worker, or a worker_threads Worker
 * that runs serve(parentPort)). Every function returns a Promise. */
export async function connect(worker) {
  if (!worker || typeof worker.postMessage !== 'function')
    throw new PosencError(Status.E_PARAM, 'posenc.connect: worker must be a Worker that runs serve()', 'worker');
  const pending = new Map();
  let next = 1;
  const onMessage = (data) => {
    const p = pending.get(data?.id);
    if (!p) return;
    pending.delete(data.id);
    if (data.error) {
      const { code, message, argument } = data.error;
      p.reject(code === undefined ? new Error(message) : new PosencError(code, message, argument));
    } else p.resolve(data);
  };
  if (typeof worker.addEventListener === 'function') worker.addEventListener('message', (e) => onMessage(e.data));
  else worker.on('message', onMessage);
  const call = (handle, method, args) =>
    new Promise((resolve, reject) => {
      const id = next++;
      pending.set(id, { resolve, reject });
      try {
        worker.postMessage({ id, handle, method, args });
      } catch (e) {
        pending.delete(id);
        // a function or another value structured clone cannot copy
        reject(
          new PosencError(
            Status.E_PARAM,
            `posenc.${method}: arguments cannot be sent to the worker (${e?.message ?? e})`,
            'arguments',
          ),
        );
      }
    });
  const wrap = (handle, methods, state) => {
    const obj = { ...state };
    for (const m of methods) {
      obj[m] = async (...args) => {
        const r = await call(handle, m, args);
        Object.assign(obj, r.state);
        return r.handle ? wrap(r.handle, r.methods, r.state) : r.value === undefined && r.state ? obj : r.value;
      };
    }
    return obj;
  };
  const { value } = await call(0, '@connect', []);
  return new Proxy(
    { backend: value.backend, terminate: () => worker.terminate() },
    {
      get(target, name) {
        if (typeof name !== 'string' || name in target || name === 'then') return target[name];
        return async (...args) => {
          const r = await call(0, name, args);
          return r.handle ? wrap(r.handle, r.methods, r.state) : r.value;
        };
      },
    },
  );
}
