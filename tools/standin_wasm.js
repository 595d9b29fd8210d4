// The page's stand-in core (web/src/stub.js): a wasm module with every C entry point of a posenc
// core, each returning OK and writing nothing (but the two numbers a result's size or use comes
// from: sinusoidal's frequency count and RoPE's attention scale), a bump allocator and the real
// core's struct layout. posenc/lite loads it as any core (init({ wasm })), so the page lays a view
// out with results of their real shapes before the real wasm has arrived.
//
//   node tools/standin_wasm.js [CORE.wasm] [OUT.wasm.js]
// reads the page's attention core (default dist/posenc-page-attention.simd.wasm) and writes
// dist/posenc-standin.wasm.js (the module as base64 text; ./build.sh runs it after the wasm).
import { readFileSync, writeFileSync } from 'node:fs';

const uleb = (n) => {
  const out = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return out;
};
const sleb = (n) => {
  const out = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && !(b & 0x40)) || (n === -1 && b & 0x40)) return [...out, b];
    out.push(b | 0x80);
  }
};
const str = (s) => [...uleb(s.length), ...Buffer.from(s)];
const vec = (items) => [...uleb(items.length), ...items.flat()];
const section = (id, body) => [id, ...uleb(body.length), ...body];

const I32 = 0x7f;
// function types: 0 () -> i32, 1 (i32) -> i32, 2 (i32) -> (), 3 (i32 i32 i32) -> i32
const TYPES = [
  [0x60, 0, 1, I32],
  [0x60, 1, I32, 1, I32],
  [0x60, 1, I32, 0],
  [0x60, 3, I32, I32, I32, 1, I32],
];
const op = {
  end: 0x0b,
  if: [0x04, 0x40],
  localGet: (i) => [0x20, i],
  localTee: (i) => [0x22, i],
  globalGet: [0x23, 0],
  globalSet: [0x24, 0],
  i32: (n) => [0x41, ...sleb(n)],
  f64one: [0x44, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f],
  add: 0x6a,
  sub: 0x6b,
  and: 0x71,
  shl: 0x74,
  shrU: 0x76,
  gtU: 0x4b,
  geU: 0x4f,
  select: 0x1b,
  drop: 0x1a,
  size: [0x3f, 0],
  grow: [0x40, 0],
  i32store: [0x36, 2, 0],
  f64store: [0x39, 3, 0],
};
const body = (locals, code) => {
  const b = [...vec(locals), ...code.flat(), op.end];
  return [...uleb(b.length), ...b];
};
const ret = (n) => body([], [op.i32(n)]);
// malloc(n): 16-aligned, at least one byte, growing the memory when the block passes its end
const MALLOC = body(
  [[1, I32]],
  [
    op.globalGet,
    op.i32(15),
    op.add,
    op.i32(-16),
    op.and,
    op.localTee(1),
    op.localGet(0),
    op.i32(1),
    op.localGet(0),
    op.i32(1),
    op.geU,
    op.select,
    op.add,
    op.globalSet,
    op.globalGet,
    op.size,
    op.i32(16),
    op.shl,
    op.gtU,
    op.if,
    op.globalGet,
    op.size,
    op.i32(16),
    op.shl,
    op.sub,
    op.i32(65535),
    op.add,
    op.i32(16),
    op.shrU,
    op.grow,
    op.drop,
    op.end,
    op.localGet(1),
  ],
);
// posenc_sinusoidal_freqs(out, count, dim): *count = (dim + 1) / 2
const SIN_FREQS = body(
  [],
  [op.localGet(1), op.localGet(2), op.i32(1), op.add, op.i32(1), op.shrU, op.i32store, op.i32(0)],
);
// posenc_rope_freqs(inv, attention_scale, ...): *attention_scale = 1
const ROPE_FREQS = body([], [op.localGet(1), op.f64one, op.f64store, op.i32(0)]);

/** The struct layout tables of `instance` (c_src/status.c), rebased to start at `at`. */
function layoutData(instance, at) {
  const { memory, posenc_struct_layout: table } = instance.exports;
  const u8 = new Uint8Array(memory.buffer);
  const [names, offsets, types] = new Uint32Array(memory.buffer, table(), 3);
  const text = u8.subarray(names, u8.indexOf(0, names) + 1);
  const structs = Buffer.from(text.subarray(0, -1)).toString().split(';');
  const nOffsets = structs.join(' ').split(' ').length;
  const off = u8.slice(offsets, offsets + nOffsets);
  const ty = u8.slice(types, types + nOffsets - structs.length);
  const head = new Uint32Array([at + 12, at + 12 + text.length, at + 12 + text.length + off.length]);
  return [...new Uint8Array(head.buffer), ...text, ...off, ...ty];
}

/** The stand-in module for a posenc core's bytes. */
export function standin(coreBytes) {
  const module = new WebAssembly.Module(coreBytes);
  const imports = {};
  for (const i of WebAssembly.Module.imports(module)) (imports[i.module] ??= {})[i.name] = () => {};
  const instance = new WebAssembly.Instance(module, imports);
  instance.exports._initialize?.();
  const entries = WebAssembly.Module.exports(module)
    .filter((e) => e.kind === 'function' && e.name.startsWith('posenc_'))
    .map((e) => e.name);
  const LAYOUT_AT = 16; // address 0 stays a NUL: posenc_status_string's empty text
  const data = layoutData(instance, LAYOUT_AT);
  const special = {
    posenc_build_flags: [0, ret(1)], // bit 0: the SIMD build, as the page's cores
    posenc_struct_layout: [0, ret(LAYOUT_AT)],
    posenc_sinusoidal_freqs: [3, SIN_FREQS],
    posenc_rope_freqs: [3, ROPE_FREQS],
  };
  const fns = [
    ['malloc', 1, MALLOC],
    ['free', 2, body([], [])],
    ...entries.map((name) => [name, ...(special[name] ?? [0, ret(0)])]),
  ];
  const heap = (LAYOUT_AT + data.length + 15) & ~15;
  const bytes = [
    ...[0, 0x61, 0x73, 0x6d, 1, 0, 0, 0],
    ...section(1, vec(TYPES)),
    ...section(3, vec(fns.map(([, t]) => uleb(t)))),
    ...section(5, vec([[0, ...uleb(16)]])), // 16 pages to start, as a small core
    ...section(6, vec([[I32, 1, ...op.i32(heap), op.end]])),
    ...section(7, vec([[...str('memory'), 2, 0], ...fns.map(([name], i) => [...str(name), 0, ...uleb(i)])])),
    ...section(10, vec(fns.map(([, , b]) => b))),
    ...section(11, vec([[0, ...op.i32(LAYOUT_AT), op.end, ...uleb(data.length), ...data]])),
  ];
  return new Uint8Array(bytes);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [src = 'dist/posenc-page-attention.simd.wasm', dst = 'dist/posenc-standin.wasm.js'] = process.argv.slice(2);
  const b64 = Buffer.from(standin(readFileSync(src))).toString('base64');
  const text = `// the page's stand-in core (tools/standin_wasm.js from ${src.split('/').pop()}), base64\nexport default "${b64}";\n`;
  let old = '';
  try {
    old = readFileSync(dst, 'utf8');
  } catch {}
  if (old !== text) writeFileSync(dst, text);
}
