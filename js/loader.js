import { PosencError, Status } from './errors.js';

// Finds, compiles and instantiates the wasm core. Picks the SIMD128 build when the engine
// validates SIMD, else the scalar build; both come from the same C sources.

// Smallest module that uses a v128 instruction (i8x16.splat + i8x16.popcnt), the probe
// wasm-feature-detect uses: validate() is synchronous and compiles nothing real.
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253,
  15, 253, 98, 11,
]);

export function simdSupported() {
  try {
    return WebAssembly.validate(SIMD_PROBE);
  } catch {
    return false;
  }
}

// Both URLs are written out literally so bundlers (Vite, webpack, esbuild) see and copy them.
const simdUrl = () => new URL('../dist/posenc.simd.wasm', import.meta.url);
const scalarUrl = () => new URL('../dist/posenc.wasm', import.meta.url);

const isNode = typeof process !== 'undefined' && !!process.versions?.node;

async function bytesFromUrl(url) {
  if (url.protocol === 'file:' && isNode) {
    // The specifier is computed so browser bundlers do not try to resolve a Node builtin.
    const fsName = 'node:fs/promises';
    const { readFile } = await import(/* @vite-ignore */ fsName);
    return readFile(url);
  }
  const res = await fetch(url);
  if (!res.ok) throw new Error(`posenc: could not fetch ${url} (HTTP ${res.status})`);
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

/**
 * @param {{ simd?: boolean | 'auto', wasm?: BufferSource | WebAssembly.Module | URL | string }} opts
 * @returns {Promise<WebAssembly.Instance>}
 */
export async function instantiate(opts = {}) {
  const want = opts.simd ?? 'auto';
  if (want !== 'auto' && want !== true && want !== false) {
    throw new PosencError(Status.E_PARAM, `posenc.init: simd must be 'auto', true or false (got ${String(want)})`, 'simd');
  }
  let module;
  let source = opts.wasm;
  if (source === undefined) {
    const useSimd = want === 'auto' ? simdSupported() : want;
    if (useSimd && !simdSupported()) {
      throw new PosencError(Status.E_PARAM, 'posenc.init: simd must be false or \'auto\' here: this engine has no WebAssembly SIMD (got true)', 'simd');
    }
    source = useSimd ? simdUrl() : scalarUrl();
  }
  if (typeof source === 'string') source = new URL(source, isNode ? `file://${process.cwd()}/` : globalThis.location?.href);
  if (source instanceof WebAssembly.Module) module = source;
  else if (source instanceof URL) module = await WebAssembly.compile(await bytesFromUrl(source));
  else if (ArrayBuffer.isView(source) || source instanceof ArrayBuffer) module = await WebAssembly.compile(source);
  else throw new PosencError(Status.E_PARAM, 'posenc.init: wasm must be a BufferSource, a WebAssembly.Module, a URL or a URL string', 'wasm');
  const instance = await WebAssembly.instantiate(module, importsFor(module));
  // Reactor modules run their static constructors from _initialize.
  if (typeof instance.exports._initialize === 'function') instance.exports._initialize();
  return instance;
}
