// Types for 'posenc/worker': the posenc API in a Worker, every function asynchronous.
import type { InitOptions, KvCache, Posenc, PosencBuffer } from './index.js';

// A result comes back as a typed array (heap buffers stay in their thread: pass no out)
type Unbuffer<R> = R extends PosencBuffer<infer T> ? T : R;
type Async<F> = F extends (...args: infer A) => infer R ? (...args: A) => Promise<Unbuffer<Awaited<R>>> : never;

/** A KV cache that lives in the worker: its methods resolve when the worker has run them; length,
 * capacity, heads and kvHeads are updated after each call. */
export type WorkerKvCache = {
  readonly length: number;
  readonly capacity: number;
  readonly heads: number;
  readonly kvHeads: number;
} & {
  [K in 'append' | 'attend' | 'importPast' | 'exportPresent' | 'truncate' | 'free']: KvCache[K] extends (
    ...args: infer A
  ) => infer R
    ? (...args: A) => Promise<R extends KvCache ? WorkerKvCache : R>
    : never;
};

/** The API object of posenc, each function returning a Promise; kvCache resolves to a WorkerKvCache. */
export type PosencWorker = {
  [K in Exclude<keyof Posenc, 'backend' | 'alloc' | 'heapBytes' | 'heapInUse' | 'labLoaded' | 'kvCache'>]: Async<
    Posenc[K]
  >;
} & {
  readonly backend: 'simd' | 'scalar';
  kvCache(...args: Parameters<Posenc['kvCache']>): Promise<WorkerKvCache>;
  /** Ends the worker. */
  terminate(): void;
};

/** In the worker's file: answer the page's calls (port: the worker's scope, or worker_threads' parentPort). */
export declare function serve(
  port?: { postMessage(message: unknown, transfer?: unknown[]): void },
  opts?: InitOptions,
): void;
/** On the page: the API of the worker, once its wasm has loaded. */
export declare function connect(worker: {
  postMessage(message: unknown, transfer?: unknown[]): void;
  terminate(): unknown;
}): Promise<PosencWorker>;
