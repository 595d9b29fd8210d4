// Types for the CommonJS entry (require('posenc')); the API object is the ES entry's.
import type * as esm from './index.js' with { 'resolution-mode': 'import' };

declare namespace posenc {
  type Posenc = esm.Posenc;
  type InitOptions = esm.InitOptions;
  type F32 = esm.F32;
  type I32 = esm.I32;
  type PosencError = esm.PosencError;
  type ModelSpec = esm.ModelSpec;
  type PosencBuffer<T extends Float32Array | Int32Array | Float64Array = Float32Array> = esm.PosencBuffer<T>;
}

declare const posenc: {
  /** Loads the ES module and the wasm core; resolves to the same API object as the ES entry. */
  init(opts?: esm.InitOptions): Promise<esm.Posenc>;
  default(opts?: esm.InitOptions): Promise<esm.Posenc>;
  /** Resolves to the whole ES module (PosencError, PosencBuffer, Status, simdSupported, init). */
  load(): Promise<typeof esm>;
  /** instanceof works at any time; the class itself is the loaded module's. */
  readonly PosencError: typeof esm.PosencError;
  /** Available once init() or load() has resolved; reading it earlier throws. */
  readonly Status: typeof esm.Status;
  readonly PosencBuffer: typeof esm.PosencBuffer;
  readonly simdSupported: typeof esm.simdSupported;
};
export = posenc;
