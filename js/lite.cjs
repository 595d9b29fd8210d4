'use strict';
// CommonJS entry of posenc/lite: `const { init, sinusoidalFamily } = require('posenc/lite')` on
// every supported Node (>= 18; Node 18 cannot require() an ES module). Like index.cjs it loads the
// ES module with import(); the families are needed before that has happened (they are passed to
// init), so each *Family here is a stand-in that init() swaps for the ES module's family of the
// same name. PosencError, PosencBuffer, Status and simdSupported: as in index.cjs.

let esm = null;
let loading = null;

function load() {
  loading ??= import('./lite.js').then((m) => {
    esm = m;
    return m;
  });
  return loading;
}

function notLoaded(name) {
  throw new Error(
    `posenc/lite: ${name} is available once init() or load() has resolved (CommonJS loads the ES module asynchronously)`,
  );
}

// js/lite.js's families
// <generated: families> by tools/gen_decls.js from the declarations (families/NAME/decl.js)
const FAMILIES = [
  'sinusoidalFamily',
  'ropeFamily',
  'relativeFamily',
  'learnedFamily',
  'attentionFamily',
  'kvCacheFamily',
  'trainFamily',
  'configFamily',
];
// </generated: families>
// Once the ES module is loaded a stand-in is its family (use() is given the stand-ins as they
// are): it calls it and reads its core mark.
const standIns = new Map(
  FAMILIES.map((name) => {
    const f = {
      [name](core, lab) {
        if (!esm) throw new Error(`posenc/lite: pass ${name} to init({ families }); it is not called directly`);
        return esm[name](core, lab);
      },
    }[name];
    Object.defineProperty(f, 'core', { get: () => esm?.[name].core });
    return [f, name];
  }),
);

async function init(opts) {
  const m = await load();
  // one read of the caller's options (as the ES entry's snapshot), the stand-ins swapped
  if (opts !== null && typeof opts === 'object' && !Array.isArray(opts)) {
    const o = Object.assign({}, opts);
    if (Array.isArray(o.families))
      o.families = Array.from(o.families, (f) => (standIns.has(f) ? m[standIns.get(f)] : f));
    return m.init(o);
  }
  return m.init(opts);
}

async function use(pe, ...families) {
  return (await load()).use(pe, ...families);
}

function PosencError() {
  if (!esm) notLoaded('PosencError');
  throw new TypeError('posenc/lite: construct errors with the PosencError of the loaded module');
}
Object.defineProperty(PosencError, Symbol.hasInstance, { value: (e) => esm !== null && e instanceof esm.PosencError });

module.exports = {
  init,
  default: init,
  use,
  load,
  PosencError,
  ...Object.fromEntries([...standIns].map(([f, name]) => [name, f])),
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
