import { PosencError, Status } from './errors.js';
import { reason, show } from './validate.js';

export { reason };

// Finds, compiles and instantiates the wasm core. Picks the SIMD128 build when the engine
// validates SIMD, else the scalar build; both come from the same C sources.

// Smallest module that uses a v128 instruction (i8x16.splat + i8x16.popcnt), the probe
// wasm-feature-detect uses: validate() is synchronous and compiles nothing real.
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11,
]);

export function simdSupported() {
  try {
    return WebAssembly.validate(SIMD_PROBE);
  } catch {
    return false;
  }
}

// The three shipped builds (core SIMD and scalar, lab SIMD) are JS modules (build.sh writes them
// next to the .wasm files): each holds its wasm gzipped and base64-encoded. A dynamic import()
// of a literal path is the one way to name a file that every bundler (Vite, webpack, Parcel,
// Rollup, esbuild) follows with no configuration; `new URL(file, import.meta.url)` is copied by
// some and left dangling by others. Each is a chunk of its own, so an app downloads only the
// build it runs (esbuild without --splitting inlines all of them). Gzipped they cost the tarball
// no more than the bare .wasm.
const BUILDS = {
  core: {
    simd: () => import('../dist/posenc.simd.wasm.js'),
    scalar: () => import('../dist/posenc.wasm.js'),
  },
  // The extrapolation lab's trainer is a module of its own (it would add a third to the core's
  // download), loaded only by pe.loadLab() / init({ lab: true }). The package ships its SIMD
  // build only, to keep the tarball small (docs/benchmark.md "Budgets"): every
  // engine that has DecompressionStream but no SIMD is a Chromium 85-90. A scalar lab is one
  // `./build.sh wasm` away (dist/posenc-lab.wasm) and loads with loadLab({ wasm }).
  lab: {
    simd: () => import('../dist/posenc-lab.simd.wasm.js'),
  },
  // posenc/lite's lean core: the sinusoidal and learned families' entry points only (c_src/
  // exports_lite.txt), a third of the core's download. SIMD only: an engine without SIMD loads the
  // scalar core, which has every entry point.
  lite: {
    simd: () => import('../dist/posenc-lite.simd.wasm.js'),
  },
};

/** The compiled module of each build the package loaded, by 'core.simd', 'lab.scalar', … */
const compiled = {};

/** The bytes of a build module: base64 text of the gzipped wasm. */
export async function unpack(base64) {
  let gz;
  if (typeof Uint8Array.fromBase64 === 'function') {
    gz = Uint8Array.fromBase64(base64);
  } else {
    const bin = atob(base64);
    gz = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) gz[i] = bin.charCodeAt(i);
  }
  // Node's zlib where Node offers it synchronously (20.16, 22.3): its DecompressionStream takes
  // 50-250 ms to start, zlib 3 ms (node, this 78 kB build)
  const zlib = nodeProcess?.getBuiltinModule?.('node:zlib');
  if (zlib) return zlib.gunzipSync(gz);
  if (typeof DecompressionStream !== 'function') {
    throw new Error('this engine has no DecompressionStream (Chrome 80, Firefox 113, Safari 16.4, Node 18)');
  }
  const ds = new DecompressionStream('gzip');
  const writer = ds.writable.getWriter();
  // a corrupt input rejects these too; the reader below reports it
  writer.write(gz).catch(() => {});
  writer.close().catch(() => {});
  const reader = ds.readable.getReader();
  const parts = [];
  let n = 0;
  for (let r = await reader.read(); !r.done; r = await reader.read()) {
    parts.push(r.value);
    n += r.value.length;
  }
  const out = new Uint8Array(n);
  for (let k = 0, at = 0; k < parts.length; at += parts[k].length, k++) out.set(parts[k], at);
  return out;
}

// Read through globalThis: a bare `process` makes some bundlers (Parcel) add a polyfill.
const nodeProcess = globalThis.process?.versions?.node ? globalThis.process : null;
const isNode = nodeProcess !== null;

/** The working directory as a file: URL ('#', '?', '%' in a name are part of the path). */
async function cwdUrl() {
  const urlName = 'node:url';
  const { pathToFileURL } = await import(/* webpackIgnore: true */ /* @vite-ignore */ urlName);
  return pathToFileURL(`${nodeProcess.cwd()}/`);
}

async function bytesFromUrl(url) {
  if (url.protocol === 'file:' && isNode) {
    // Only a file: URL the caller passes in Node reaches this line. The specifier is computed and
    // marked so bundlers neither resolve a Node builtin nor warn about the expression.
    const fsName = 'node:fs/promises';
    const { readFile } = await import(/* webpackIgnore: true */ /* @vite-ignore */ fsName);
    return readFile(url);
  }
  const res = await fetch(url);
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return res.arrayBuffer();
}

// The core imports nothing it calls in normal operation; whatever the toolchain still declares
// (WASI stubs, the memory-growth notification) gets a harmless stand-in, so a different
// Emscripten version cannot break loading.
function importsFor(module) {
  const imports = {};
  for (const imp of WebAssembly.Module.imports(module)) {
    if (imp.kind !== 'function') continue;
    imports[imp.module] ??= {};
    imports[imp.module][imp.name] =
      imp.name === 'emscripten_notify_memory_growth'
        ? () => {}
        : () => {
            throw new Error(`posenc: the wasm core called an unexpected import ${imp.module}.${imp.name}`);
          };
  }
  return imports;
}

/** A loading failure as a PosencError naming the wasm option. */
function loadError(what, e, who = 'init') {
  if (e instanceof PosencError) return e;
  return new PosencError(Status.E_PARAM, `posenc.${who}: wasm ${what} (${reason(e)})`, 'wasm');
}

// The exports js/core.js needs before any family function runs; a module without them is not
// a posenc core (Core.call names any other missing export when it is first called).
const CORE_EXPORTS = ['malloc', 'free', 'posenc_status_string', 'posenc_build_flags', 'posenc_heap_in_use'];
const LAB_EXPORTS = ['posenc_train_size', 'posenc_train_init', 'posenc_train_step'];

/**
 * @param {{ simd?: boolean | 'auto', wasm?: BufferSource | WebAssembly.Module | URL | string }} opts
 *   an options snapshot (see validate.js snapshot): read once, own properties only
 * @returns {Promise<WebAssembly.Instance>}
 */
export async function instantiate(opts = {}, { lab = false, lite = false } = {}) {
  const who = lab ? 'loadLab' : 'init';
  const err = (what, e) => loadError(what, e, who);
  const want = opts.simd ?? 'auto';
  if (want !== 'auto' && want !== true && want !== false) {
    throw new PosencError(
      Status.E_PARAM,
      `posenc.${who}: simd must be 'auto', true or false (got ${show(want)})`,
      'simd',
    );
  }
  const given = opts.wasm !== undefined;
  const source = given ? opts.wasm : await packagedModule(who, want, lab, err, lite);
  const module = await compileSource(who, source, given, err);
  return start(who, module, lab, err);
}

/** The package's own build for `want` (simd true, false or 'auto'), compiled once per build. */
async function packagedModule(who, want, lab, err, lite = false) {
  const useSimd = want === 'auto' ? simdSupported() : want;
  if (useSimd && !simdSupported()) {
    throw new PosencError(
      Status.E_PARAM,
      `posenc.${who}: simd must be false or 'auto' here: this engine has no WebAssembly SIMD (got true)`,
      'simd',
    );
  }
  const name = useSimd ? 'simd' : 'scalar';
  const kind = lab ? 'lab' : lite && useSimd ? 'lite' : 'core';
  const key = `${kind}.${name}`;
  if (lab && !useSimd) {
    throw new PosencError(
      Status.E_MISSING,
      `posenc.${who}: the package ships the lab's SIMD build only, and this instance is scalar${simdSupported() ? ' (simd: false)' : ' (this engine has no WebAssembly SIMD)'}; pass { wasm } with a scalar lab build (./build.sh wasm writes dist/posenc-lab.wasm)`,
      'wasm',
    );
  }
  try {
    // unpacked and compiled once per build: a later init() only instantiates
    compiled[key] ??= BUILDS[kind]
      [name]()
      .then((m) => unpack(m.default))
      .then((b) => WebAssembly.compile(b));
    return await compiled[key];
  } catch (e) {
    delete compiled[key];
    const how = 'pass { wasm } to give the file, URL or bytes';
    throw err(`(the package's ${name} build) could not be loaded; ${how}`, e);
  }
}

/** The caller's wasm option (or the packaged module) as a WebAssembly.Module: a Module as is,
 * bytes compiled, a URL (or URL string, relative to the working directory or the page) read. */
async function compileSource(who, source, given, err) {
  try {
    if (typeof source === 'string') source = new URL(source, isNode ? await cwdUrl() : globalThis.location?.href);
  } catch (e) {
    throw err(`must be a valid URL string (got ${show(source)})`, e);
  }
  const bytes = ArrayBuffer.isView(source) || source instanceof ArrayBuffer;
  if (source instanceof WebAssembly.Module) return source;
  if (!(source instanceof URL || bytes)) {
    throw new PosencError(
      Status.E_PARAM,
      `posenc.${who}: wasm must be a BufferSource, a WebAssembly.Module, a URL or a URL string (got ${show(source)})`,
      'wasm',
    );
  }
  let data = source;
  if (!bytes) {
    try {
      data = await bytesFromUrl(source);
    } catch (e) {
      throw err(`could not be read from ${source}`, e);
    }
  }
  try {
    return await WebAssembly.compile(data);
  } catch (e) {
    throw err(`is not a valid WebAssembly module${given ? '' : " (the package's own build)"}`, e);
  }
}

/** Instantiate a module, check it is a posenc core (or lab), run its static constructors. */
async function start(who, module, lab, err) {
  let instance;
  try {
    instance = await WebAssembly.instantiate(module, importsFor(module));
  } catch (e) {
    throw err('could not be instantiated: it is not a posenc core', e);
  }
  const ex = instance.exports;
  const missing = [...CORE_EXPORTS, ...(lab ? LAB_EXPORTS : [])].filter((k) => typeof ex[k] !== 'function');
  if (!(ex.memory instanceof WebAssembly.Memory)) missing.unshift('memory');
  if (missing.length) {
    throw new PosencError(
      Status.E_PARAM,
      `posenc.${who}: wasm is not a posenc ${lab ? 'lab' : 'core'} (it does not export ${missing.join(', ')})`,
      'wasm',
    );
  }
  try {
    // Reactor modules run their static constructors from _initialize.
    if (typeof ex._initialize === 'function') ex._initialize();
  } catch (e) {
    throw err('failed to start (_initialize trapped)', e);
  }
  return instance;
}
