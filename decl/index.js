// What every posenc instance has, declared: the functions of js/api.js, the C entry points that
// js/core.js and js/loader.js need of any module, and the family declarations in their declared
// `order` (the order of FAMILIES in js/index.js, of the export lists and of the README's table).
// tools/gen_decls.js writes every list of functions from these; tests/decls.test.js checks them.
// Nothing here ships: the package runs the generated lists, not the declarations.
import { readdirSync } from 'node:fs';

// Every family folder with a declaration (families/<family>/decl.js), in the order each declares
// (`order`): a new family is found here without an edit.
const families = new URL('../families/', import.meta.url);
const found = await Promise.all(
  readdirSync(families, { withFileTypes: true })
    .filter((e) => e.isDirectory() && readdirSync(new URL(`${e.name}/`, families)).includes('decl.js'))
    .map(async (e) => (await import(new URL(`${e.name}/decl.js`, families))).declare),
);
for (const f of found)
  if (!Number.isFinite(f.order) || found.some((g) => g !== f && g.order === f.order))
    throw new Error(`${f.family}: its decl.js needs an \`order\` of its own (a number no other family has)`);
export const FAMILY_DECLS = found.sort((a, b) => a.order - b.order);

export const declare = {
  functions: [
    {
      name: 'alloc',
      c: ['malloc', 'free'],
      docs: 'docs/errors.md',
      heap: "the sweep's own filler (PosencBuffer)",
      // a buffer of the element type asked for: one signature per type
      overloads: [
        { args: { length: 'number', type: "'int32'" }, returns: 'PosencBuffer<Int32Array>' },
        { args: { length: 'number', type: "'float64'" }, returns: 'PosencBuffer<Float64Array>' },
      ],
      args: { length: 'number', 'type?': "'float32'" },
      returns: 'PosencBuffer<Float32Array>',
    },
    {
      name: 'loadLab',
      c: [],
      docs: 'families/train/lab.md',
      heap: "loads the lab's module, its own instance and memory",
      tsDoc: "Load the lab's trainer wasm (train, evaluate, attentionMap and loadModel need it); resolves to the API.",
      returns: 'Promise<Posenc>',
      options: {
        wasm: {
          ts: 'ArrayBuffer | ArrayBufferView | WasmModuleLike | UrlLike | string',
          doc: "the lab's module (bytes, a compiled WebAssembly.Module or a URL) instead of the package's file",
        },
      },
    },
  ],
  // what js/core.js and js/loader.js call in any module (the lab's and the lean core's included)
  cModule: ['malloc', 'free', 'posenc_status_string', 'posenc_build_flags'],
  // the npm core: struct offsets for js/ (rope scaling, bias), the heap figure, the finiteness scan
  cLayout: 'posenc_struct_layout',
  cHeap: 'posenc_heap_in_use',
  cValues: 'posenc_max_abs',
  readmeTail: [
    '| Speed against plain JS, onnxruntime-web and the memory limit | `./build.sh bench` | [docs/benchmark.md](https://github.com/posenc/posenc/blob/main/docs/benchmark.md) |',
  ],
};
