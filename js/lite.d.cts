// Types for the CommonJS entry of posenc/lite (require('posenc/lite')); the API is the ES entry's.
import type * as esm from './lite.js' with { 'resolution-mode': 'import' };

declare const lite: {
  /** Loads the ES module and the wasm core; the families given may be this object's stand-ins. */
  init: typeof esm.init;
  default: typeof esm.init;
  /** Loads the ES module; the families given may be this object's stand-ins. */
  use: typeof esm.use;
  /** Resolves to the whole ES module. */
  load(): Promise<typeof esm>;
  // <generated: families> by tools/gen_decls.js from the declarations (families/NAME/decl.js)
  readonly sinusoidalFamily: typeof esm.sinusoidalFamily;
  readonly ropeFamily: typeof esm.ropeFamily;
  readonly relativeFamily: typeof esm.relativeFamily;
  readonly learnedFamily: typeof esm.learnedFamily;
  readonly attentionFamily: typeof esm.attentionFamily;
  readonly kvCacheFamily: typeof esm.kvCacheFamily;
  readonly trainFamily: typeof esm.trainFamily;
  readonly configFamily: typeof esm.configFamily;
  // </generated: families>
  /** instanceof works at any time; the class itself is the loaded module's. */
  readonly PosencError: typeof esm.PosencError;
  /** Available once init() or load() has resolved; reading it earlier throws. */
  readonly Status: typeof esm.Status;
  readonly PosencBuffer: typeof esm.PosencBuffer;
  readonly simdSupported: typeof esm.simdSupported;
};
export = lite;
