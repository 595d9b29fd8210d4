// A hand-encoded ONNX model for single-head attention, so the bench can run onnxruntime-web
// without any ONNX tooling: O = Softmax((Q . K^T) * scale) . V with standard opset-17 ops.
// Protobuf wire format: field key = (field << 3) | wireType; 0 = varint, 2 = bytes, 5 = fixed32.

function varint(n) {
  const out = [];
  let x = BigInt(n);
  do {
    let b = Number(x & 0x7fn);
    x >>= 7n;
    if (x) b |= 0x80;
    out.push(b);
  } while (x);
  return out;
}
const enc = new TextEncoder();
const key = (field, wire) => varint((field << 3) | wire);
const vfield = (field, n) => [...key(field, 0), ...varint(n)];
const bfield = (field, bytes) => [...key(field, 2), ...varint(bytes.length), ...bytes];
const sfield = (field, str) => bfield(field, [...enc.encode(str)]);


function valueInfo(name, dims) {
  const shape = dims.flatMap((d) => bfield(1, vfield(1, d)));
  const tensor = [...vfield(1, 1 /* FLOAT */), ...bfield(2, shape)];
  return [...sfield(1, name), ...bfield(2, bfield(1, tensor))];
}

function node(op, inputs, outputs, attrs = []) {
  return [...inputs.flatMap((i) => sfield(1, i)), ...outputs.flatMap((o) => sfield(2, o)), ...sfield(4, op), ...attrs.flatMap((a) => bfield(5, a))];
}
const intsAttr = (name, xs) => [...sfield(1, name), ...xs.flatMap((x) => vfield(8, x)), ...vfield(20, 7 /* INTS */)];
const intAttr = (name, x) => [...sfield(1, name), ...vfield(3, x), ...vfield(20, 2 /* INT */)];

/** ModelProto bytes for q, k, v [L][D] (and [S][D]) -> out [L][Dv]. */
export function attentionModel(L, S, D, Dv, scale) {
  const scaleTensor = [...vfield(2, 1 /* FLOAT */), ...sfield(8, 'scale'), ...bfield(9, [...new Uint8Array(new Float32Array([scale]).buffer)])];
  const graph = [
    ...bfield(1, node('Transpose', ['k'], ['kt'], [intsAttr('perm', [1, 0])])),
    ...bfield(1, node('MatMul', ['q', 'kt'], ['s'])),
    ...bfield(1, node('Mul', ['s', 'scale'], ['s2'])),
    ...bfield(1, node('Softmax', ['s2'], ['p'], [intAttr('axis', 1)] /* the key axis of [L][S] */)),
    ...bfield(1, node('MatMul', ['p', 'v'], ['out'])),
    ...sfield(2, 'attention'),
    ...bfield(5, scaleTensor),
    ...bfield(11, valueInfo('q', [L, D])),
    ...bfield(11, valueInfo('k', [S, D])),
    ...bfield(11, valueInfo('v', [S, Dv])),
    ...bfield(12, valueInfo('out', [L, Dv])),
  ];
  const opset = [...sfield(1, ''), ...vfield(2, 17)];
  const model = [...vfield(1, 8 /* ir_version */), ...sfield(2, 'posenc-bench'), ...bfield(7, graph), ...bfield(8, opset)];
  return new Uint8Array(model);
}

