// What every posenc instance has, declared: the functions of js/api.js, the C entry points that
// js/core.js and js/loader.js need of any module, and the family declarations in their order (the
// order of FAMILIES in js/index.js, of the export lists and of the README's table).
// tools/gen_decls.js writes every list of functions from these; tests/decls.test.js checks them.
// Nothing here ships: the package runs the generated lists, not the declarations.
import { declare as attention } from '../families/attention/decl.js';
import { declare as config } from '../families/config/decl.js';
import { declare as kvCache } from '../families/kvcache/decl.js';
import { declare as learned } from '../families/learned/decl.js';
import { declare as relative } from '../families/relative/decl.js';
import { declare as rope } from '../families/rope/decl.js';
import { declare as sinusoidal } from '../families/sinusoidal/decl.js';
import { declare as train } from '../families/train/decl.js';

export const FAMILY_DECLS = [sinusoidal, rope, relative, learned, attention, kvCache, train, config];

export const declare = {
  functions: [
    { name: 'alloc', c: ['malloc', 'free'], docs: 'docs/errors.md', heap: "the sweep's own filler (PosencBuffer)" },
    {
      name: 'loadLab',
      c: [],
      docs: 'families/train/lab.md',
      heap: "loads the lab's module, its own instance and memory",
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
