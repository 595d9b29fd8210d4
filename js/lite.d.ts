// Types for 'posenc/lite': init({ families }) returns the API with the functions of the families
// given (and what every instance has: backend, alloc, heap figures, the lab's loader); use(pe, ...)
// adds families later.
// <generated: family types> by tools/gen_decls.js from the declarations (families/NAME/decl.js)
import type {
  AttentionApi,
  ConfigApi,
  InitOptions,
  KvCacheApi,
  LearnedApi,
  Posenc,
  RelativeApi,
  RopeApi,
  SinusoidalApi,
  TrainApi,
} from './index.js';
// </generated: family types>

export { PosencBuffer, PosencError, Status, simdSupported } from './index.js';
export type * from './index.js';

/** A family of functions (one docs/ page); pass it to init({ families }). */
export interface Family<Api> {
  (core: never, lab?: never): Api;
}
// <generated: families> by tools/gen_decls.js from the declarations (families/NAME/decl.js)
export declare const sinusoidalFamily: Family<SinusoidalApi>;
export declare const ropeFamily: Family<RopeApi>;
/** ALiBi, T5, Shaw and Transformer-XL. */
export declare const relativeFamily: Family<Omit<RelativeApi, keyof LearnedApi>>;
export declare const learnedFamily: Family<LearnedApi>;
export declare const attentionFamily: Family<AttentionApi>;
export declare const kvCacheFamily: Family<KvCacheApi>;
export declare const trainFamily: Family<Omit<TrainApi, 'loadLab' | 'labLoaded'>>;
/** fromConfig: a Hugging Face config.json to one layer's scheme. */
export declare const configFamily: Family<ConfigApi>;
// </generated: families>

/** What every API object has, whatever its families. */
export type PosencBase = Pick<Posenc, 'backend' | 'alloc' | 'heapBytes' | 'heapInUse' | 'labLoaded'> & {
  loadLab(opts?: Parameters<Posenc['loadLab']>[0]): Promise<PosencBase>;
};

type Union<F> = F extends Family<infer A> ? A : never;
type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** The API object for the given families. */
export type PosencWith<F extends readonly Family<unknown>[]> = PosencBase & Intersection<Union<F[number]>>;

/**
 * An API object with `pe`'s families and the given ones. It runs on `pe`'s core when that core has
 * their entry points (the same heap: buffers of either work in both), else on the smallest core
 * that has them, loaded now (from init's `cores`, else the package's). Asking again for the same
 * family resolves to the same object. `pe` is an object of init() or use().
 */
export declare function use<P extends PosencBase, const G extends readonly Family<unknown>[]>(
  pe: P,
  ...families: G
): Promise<P & Intersection<Union<G[number]>>>;

/** A wasm core as init's `wasm` takes it, or a function returning one (called when it is needed). */
export type CoreSource = InitOptions['wasm'] | (() => InitOptions['wasm'] | Promise<InitOptions['wasm']>);

/**
 * Cores use() may load, by kind, smallest first: lean (sinusoidal, learned), encodings (+ RoPE,
 * the relative biases, the trainer), attention, full (+ the KV cache). use() loads the smallest
 * kind the families need: a core given here of that kind or a larger one, else the package's lean
 * or full core, and only when an API needs it. init() itself loads `wasm`, or the package's.
 */
export interface LiteCores {
  lean?: CoreSource;
  encodings?: CoreSource;
  attention?: CoreSource;
  full?: CoreSource;
}

export interface LiteInitOptions<F extends readonly Family<unknown>[]> extends InitOptions {
  /** The families whose functions the API object gets, e.g. [sinusoidalFamily, ropeFamily]. */
  families: F;
  /** Cores smaller than the package's full one, for use() (see LiteCores). */
  cores?: LiteCores;
}

export declare function init<const F extends readonly Family<unknown>[]>(
  opts: LiteInitOptions<F>,
): Promise<PosencWith<F>>;
export default init;
