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
  return [
    ...inputs.flatMap((i) => sfield(1, i)),
    ...outputs.flatMap((o) => sfield(2, o)),
    ...sfield(4, op),
    ...attrs.flatMap((a) => bfield(5, a)),
  ];
}
const intsAttr = (name, xs) => [...sfield(1, name), ...xs.flatMap((x) => vfield(8, x)), ...vfield(20, 7 /* INTS */)];
const intAttr = (name, x) => [...sfield(1, name), ...vfield(3, x), ...vfield(20, 2 /* INT */)];

/** ModelProto bytes for q, k, v [L][D] (and [S][D]) -> out [L][Dv]. */
export function attentionModel(L, S, D, Dv, scale) {
  const scaleTensor = [
    ...vfield(2, 1 /* FLOAT */),
    ...sfield(8, 'scale'),
    ...bfield(9, [...new Uint8Array(new Float32Array([scale]).buffer)]),
  ];
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
  const model = [
    ...vfield(1, 8 /* ir_version */),
    ...sfield(2, 'posenc-bench'),
    ...bfield(7, graph),
    ...bfield(8, opset),
  ];
  return new Uint8Array(model);
}

// ---- a general graph builder (grouped-query prefill and decode) ----

const f32bytes = (x) => [...new Uint8Array(Float32Array.from(x).buffer)];
const ELEM = { float32: 1, int32: 6, int64: 7 };

/** Attribute: number (int if integer and asInt, float otherwise), number[] (ints), or string. */
function attr(name, value, kind) {
  if (kind === 'float') return [...sfield(1, name), ...key(2, 5), ...f32bytes([value]), ...vfield(20, 1 /* FLOAT */)];
  if (kind === 'ints') return intsAttr(name, value);
  return intAttr(name, value);
}

function valueInfoT(name, dims, elem = 'float32') {
  // a string is a symbolic dimension (dim_param)
  const shape = dims.flatMap((d) => bfield(1, typeof d === 'string' ? sfield(2, d) : vfield(1, d)));
  const tensor = [...vfield(1, ELEM[elem]), ...key(2, 2), ...varint(shape.length), ...shape];
  return [...sfield(1, name), ...bfield(2, bfield(1, tensor))];
}

/** TensorProto initializer with raw little-endian data. */
function initializer(name, dims, data, elem = 'float32') {
  const bytes =
    elem === 'float32'
      ? new Uint8Array(Float32Array.from(data).buffer)
      : new Uint8Array((elem === 'int64' ? BigInt64Array.from(data.map(BigInt)) : Int32Array.from(data)).buffer);
  return [...dims.flatMap((d) => vfield(1, d)), ...vfield(2, ELEM[elem]), ...sfield(8, name), ...bfield(9, bytes)];
}

/**
 * ModelProto bytes. nodes: [{ op, inputs, outputs, domain?, attrs: [[name, value, kind]] }];
 * inputs / outputs: [[name, dims, elem?]]; inits: [[name, dims, data, elem?]].
 */
export function onnxModel({ nodes, inputs, outputs, inits = [], msOpset = false }) {
  const graph = [
    ...nodes.flatMap((n) =>
      bfield(1, [
        ...n.inputs.flatMap((i) => sfield(1, i)),
        ...n.outputs.flatMap((o) => sfield(2, o)),
        ...sfield(4, n.op),
        ...(n.attrs ?? []).flatMap(([a, v, k]) => bfield(5, attr(a, v, k))),
        ...(n.domain ? sfield(7, n.domain) : []),
      ]),
    ),
    ...sfield(2, 'g'),
    ...inits.flatMap(([name, dims, data, elem]) => bfield(5, initializer(name, dims, data, elem))),
    ...inputs.flatMap(([name, dims, elem]) => bfield(11, valueInfoT(name, dims, elem))),
    ...outputs.flatMap(([name, dims, elem]) => bfield(12, valueInfoT(name, dims, elem))),
  ];
  const opsets = [
    ...bfield(8, [...sfield(1, ''), ...vfield(2, 17)]),
    ...(msOpset ? bfield(8, [...sfield(1, 'com.microsoft'), ...vfield(2, 1)]) : []),
  ];
  return new Uint8Array([...vfield(1, 8), ...sfield(2, 'posenc-bench'), ...bfield(7, graph), ...opsets]);
}

/**
 * Grouped-query attention in standard opset-17 ops: q [KVH][G][S][D], k and v [KVH][1][N][D]
 * (MatMul broadcasts the kv head over its G query heads), causal additive mask [S][N] when
 * causal (bottom-right), out [KVH][G][S][D].
 */
export function gqaStandardModel({ H, KVH, S, N, D, scale, causal }) {
  const G = H / KVH;
  const nodes = [
    { op: 'Transpose', inputs: ['k'], outputs: ['kt'], attrs: [['perm', [0, 1, 3, 2], 'ints']] },
    { op: 'MatMul', inputs: ['q', 'kt'], outputs: ['s'] },
    { op: 'Mul', inputs: ['s', 'scale'], outputs: ['s2'] },
  ];
  const inits = [['scale', [], [scale]]];
  let logits = 's2';
  if (causal) {
    const mask = new Float32Array(S * N);
    for (let i = 0; i < S; i++) for (let j = 0; j < N; j++) mask[i * N + j] = j <= i + N - S ? 0 : -1e30;
    inits.push(['mask', [S, N], mask]);
    nodes.push({ op: 'Add', inputs: ['s2', 'mask'], outputs: ['s3'] });
    logits = 's3';
  }
  nodes.push({ op: 'Softmax', inputs: [logits], outputs: ['p'], attrs: [['axis', 3]] });
  nodes.push({ op: 'MatMul', inputs: ['p', 'v'], outputs: ['out'] });
  return onnxModel({
    nodes,
    inits,
    inputs: [
      ['q', [KVH, G, S, D]],
      ['k', [KVH, 1, N, D]],
      ['v', [KVH, 1, N, D]],
    ],
    outputs: [['out', [KVH, G, S, D]]],
  });
}

/**
 * com.microsoft.GroupQueryAttention (always causal), RoPE inside the op (do_rotary, half layout,
 * cos/sin caches [maxSeq][D/2] as initializers). Prefill: past of length 0; decode: past
 * [1][KVH][P][D] and one new token. query [1][S][H*D], key/value [1][S][KVH*D].
 */
export function gqaContribModel({ H, KVH, S, P, D, scale, maxSeq }) {
  const cos = new Float32Array((maxSeq * D) / 2),
    sin = new Float32Array((maxSeq * D) / 2);
  for (let p = 0; p < maxSeq; p++) {
    for (let i = 0; i < D / 2; i++) {
      const a = p * 10000 ** (-(2 * i) / D);
      cos[(p * D) / 2 + i] = Math.cos(a);
      sin[(p * D) / 2 + i] = Math.sin(a);
    }
  }
  return onnxModel({
    msOpset: true,
    nodes: [
      {
        op: 'GroupQueryAttention',
        domain: 'com.microsoft',
        inputs: [
          'query',
          'key',
          'value',
          'past_key',
          'past_value',
          'seqlens_k',
          'total_sequence_length',
          'cos_cache',
          'sin_cache',
        ],
        outputs: ['out', 'present_key', 'present_value'],
        attrs: [
          ['num_heads', H],
          ['kv_num_heads', KVH],
          ['scale', scale, 'float'],
          ['do_rotary', 1],
          ['rotary_interleaved', 0],
        ],
      },
    ],
    inits: [
      ['cos_cache', [maxSeq, D / 2], cos],
      ['sin_cache', [maxSeq, D / 2], sin],
    ],
    inputs: [
      ['query', [1, S, H * D]],
      ['key', [1, S, KVH * D]],
      ['value', [1, S, KVH * D]],
      ['past_key', [1, KVH, P, D]],
      ['past_value', [1, KVH, P, D]],
      ['seqlens_k', [1], 'int32'],
      ['total_sequence_length', [], 'int32'],
    ],
    // present's length is max(past, total), known only at run time
    outputs: [
      ['out', [1, S, H * D]],
      ['present_key', [1, KVH, 'present', D]],
      ['present_value', [1, KVH, 'present', D]],
    ],
  });
}
