// Only with lib dom (or @types/node): the platform types a browser user passes to init().
import { init } from 'posenc';

export async function withModule(bytes: ArrayBuffer): Promise<number> {
  const module: WebAssembly.Module = await WebAssembly.compile(bytes);
  const a = await init({ wasm: module });
  const b = await init({ wasm: new URL('./posenc.simd.wasm', 'https://example.org/') });
  const c = await init({ wasm: await (await fetch('/posenc.wasm')).arrayBuffer() });
  return a.sinusoidal({ length: 1, dim: 2 })[1] + b.heapBytes + c.heapBytes;
}
