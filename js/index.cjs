'use strict';
// CommonJS entry: `const { init } = require('posenc')`. The package itself is ES modules; this
// file loads them with import(), which CommonJS may do on every supported Node (>= 18). init()
// is async anyway, so it returns exactly the object the ES entry's init() returns.
//
// The ES module's other exports (PosencError, PosencBuffer, Status, simdSupported) cannot be
// handed out synchronously before it has loaded. `load()` resolves to the whole ES module;
// after init() (or load()) resolves they are also properties of this object. PosencError works
// with instanceof at any time, since errors only exist once the module has loaded.

let esm = null;
let loading = null;

function load() {
  loading ??= import('./index.js').then((m) => {
    esm = m;
    return m;
  });
  return loading;
}

async function init(opts) {
  return (await load()).init(opts);
}

function notLoaded(name) {
  throw new Error(
    `posenc: ${name} is available once init() or load() has resolved (CommonJS loads the ES module asynchronously)`,
  );
}

// A stand-in whose instanceof defers to the real class once the ES module is loaded.
function PosencError() {
  if (!esm) notLoaded('PosencError');
  throw new TypeError('posenc: construct errors with the PosencError of the loaded module');
}
Object.defineProperty(PosencError, Symbol.hasInstance, { value: (e) => esm !== null && e instanceof esm.PosencError });

module.exports = {
  init,
  default: init,
  load,
  PosencError,
  get Status() {
    return esm ? esm.Status : notLoaded('Status');
  },
  get PosencBuffer() {
    return esm ? esm.PosencBuffer : notLoaded('PosencBuffer');
  },
  get simdSupported() {
    return esm ? esm.simdSupported : notLoaded('simdSupported');
  },
};
