#!/usr/bin/env node
// Where the bytes of a wasm file go: size of each section and of each function body, largest
// first. Names come from the "name" section when present (build with --profiling-funcs to keep
// it), else from the exports; unnamed functions print as f<index>.
//   node tools/wasm_sizes.js dist/posenc.simd.wasm [top=30]
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

const file = process.argv[2] ?? 'dist/posenc.simd.wasm';
const top = Number(process.argv[3] ?? 30);
const bytes = readFileSync(file);

let pos = 8;
function u32() {
  let result = 0,
    shift = 0,
    b;
  do {
    b = bytes[pos++];
    result |= (b & 0x7f) << shift;
    shift += 7;
  } while (b & 0x80);
  return result >>> 0;
}
function str() {
  const n = u32();
  const s = bytes.subarray(pos, pos + n).toString('utf8');
  pos += n;
  return s;
}

const SECTION = [
  'custom',
  'type',
  'import',
  'function',
  'table',
  'memory',
  'global',
  'export',
  'start',
  'element',
  'code',
  'data',
  'datacount',
];
const sections = [];
let importedFuncs = 0;
const names = new Map();
const bodies = [];
while (pos < bytes.length) {
  const id = bytes[pos++];
  const size = u32();
  const start = pos,
    end = pos + size;
  let label = SECTION[id] ?? `id${id}`;
  if (id === 0) label = `custom "${str()}"`;
  if (id === 2) {
    for (let n = u32(); n--; ) {
      str();
      str();
      const kind = bytes[pos++];
      if (kind === 0) {
        u32();
        importedFuncs++;
      } else if (kind === 1) {
        pos++;
        const f = u32();
        u32();
        if (f & 1) u32();
      } else if (kind === 2) {
        const f = u32();
        u32();
        if (f & 1) u32();
      } else if (kind === 3) {
        pos += 2;
      }
    }
  } else if (id === 7) {
    for (let n = u32(); n--; ) {
      const name = str();
      const kind = bytes[pos++];
      const idx = u32();
      if (kind === 0 && !names.has(idx)) names.set(idx, name);
    }
  } else if (id === 10) {
    const n = u32();
    for (let i = 0; i < n; i++) {
      const sz = u32();
      bodies.push({ index: importedFuncs + i, size: sz, body: bytes.subarray(pos, pos + sz) });
      pos += sz;
    }
  } else if (label === 'custom "name"') {
    while (pos < end) {
      const sub = bytes[pos++];
      const sz = u32();
      const subEnd = pos + sz;
      if (sub === 1)
        for (let n = u32(); n--; ) {
          const idx = u32();
          names.set(idx, str());
        }
      pos = subEnd;
    }
  }
  sections.push({ label, size: end - start });
  pos = end;
}

const gz = gzipSync(bytes, { level: 9 }).length;
console.log(`${file}: ${bytes.length} bytes, ${gz} gzipped`);
console.log('sections:');
for (const s of sections) console.log(`  ${s.label.padEnd(24)} ${String(s.size).padStart(8)}`);
bodies.sort((a, b) => b.size - a.size);
const total = bodies.reduce((s, b) => s + b.size, 0);
console.log(`functions: ${bodies.length}, code ${total} bytes; largest ${top} (bytes, gzipped alone, share of code):`);
for (const b of bodies.slice(0, top)) {
  const name = names.get(b.index) ?? `f${b.index}`;
  console.log(
    `  ${String(b.size).padStart(7)} ${String(gzipSync(b.body, { level: 9 }).length).padStart(6)} ${((100 * b.size) / total).toFixed(1).padStart(5)}%  ${name}`,
  );
}
