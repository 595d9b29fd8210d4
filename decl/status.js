// The status codes, one row each: the C library's enum posenc_status and the JS API's Status and
// PosencError.code are the same numbers. tools/gen_status.js writes every list of them from this
// table: c_src/posenc.h's enum, c_src/status.c's posenc_status_string, js/errors.js Status,
// js/index.d.ts Status and the Codes table of docs/errors.md. Nothing here ships.
//
//   name   the C name without POSENC_ (the JS key: Status.E_ODD)
//   code   0 for OK, each error a distinct negative number (a published value: never renumber)
//   c      what the code means to a C caller (posenc.h)
//   text   what posenc_status_string(code) returns
//   docs   what it means to a JS caller (docs/errors.md)
export const STATUS_CODES = [
  { name: 'OK', code: 0, c: 'success', text: 'ok' },
  {
    name: 'E_NULL',
    code: -1,
    c: 'a required pointer is NULL',
    text: 'a required buffer is missing (NULL pointer)',
    docs: 'a freed `PosencBuffer` was passed (or a required buffer is missing)',
  },
  {
    name: 'E_SIZE',
    code: -2,
    c: 'a count or size is < 1 or its array would exceed POSENC_MAX_ELEMENTS',
    text: 'a size is out of range (below 1 or too many elements)',
    docs: 'a size is below 1, above its range, or the product of sizes exceeds 2^28 elements',
  },
  {
    name: 'E_ODD',
    code: -3,
    c: 'a dimension that must be even (made of pairs) is odd',
    text: 'a dimension must be even',
    docs: 'a dimension must be even (or a multiple of 4)',
  },
  {
    name: 'E_PARAM',
    code: -4,
    c: 'a real parameter is NaN, infinite or outside its range',
    text: 'a parameter is not finite or out of range',
    docs:
      'a value is of the wrong type, not finite, out of range, too large for float32 (below), or an output ' +
      'shares memory with another argument; also every `init()` failure',
  },
  {
    name: 'E_ENUM',
    code: -5,
    c: 'an enum argument is not one of its defined values',
    text: 'an option has an unknown value',
    docs: 'a string option is not one of its allowed values',
  },
  {
    name: 'E_RANGE',
    code: -6,
    c: 'an index or position lies outside the table it addresses',
    text: 'an index or position lies outside its table',
    docs:
      'a position or index lies outside its table, or valid options combine into an overflow (RoPE scaling, ' + 'xPos)',
  },
  {
    name: 'E_SCRATCH',
    code: -7,
    c: 'a caller buffer is smaller than its posenc_*_size helper says',
    text: 'a buffer is smaller than required',
    docs: 'an array has the wrong length (or is detached)',
  },
  {
    name: 'E_MISSING',
    code: -8,
    c: 'a required parameter was not given (e.g. a scaling key)',
    text: 'a required parameter is missing',
    docs: 'a required option is absent; also a call made before `init()` resolved',
  },
  {
    name: 'E_NOMEM',
    code: -9,
    c: 'used by the JS layer: the wasm heap could not grow',
    text: 'out of memory',
    docs: 'the wasm heap cannot grow far enough (the core is built with a 2 GiB maximum)',
  },
];
