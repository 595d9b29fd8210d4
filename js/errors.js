// PosencError: the only error type the API throws for bad input or a failed C call.
// Codes are posenc_status of c_src/posenc.h, so a JS-side validation failure and the same
// failure caught by C carry the same .code (tools/gen_status.js writes both from decl/status.js).

// <generated: status codes> by tools/gen_status.js from decl/status.js
export const Status = Object.freeze({
  OK: 0,
  E_NULL: -1,
  E_SIZE: -2,
  E_ODD: -3,
  E_PARAM: -4,
  E_ENUM: -5,
  E_RANGE: -6,
  E_SCRATCH: -7,
  E_MISSING: -8,
  E_NOMEM: -9,
});
// </generated: status codes>

const NAMES = Object.fromEntries(Object.entries(Status).map(([k, v]) => [v, `POSENC_${k}`]));

export class PosencError extends Error {
  /**
   * @param {number} code   a Status value (negative)
   * @param {string} message  names the function, the argument and the allowed range
   * @param {string} [argument]  the offending argument's name, when there is one
   */
  constructor(code, message, argument) {
    super(message);
    this.name = 'PosencError';
    this.code = code;
    this.codeName = NAMES[code] ?? 'POSENC_E_UNKNOWN';
    if (argument !== undefined) this.argument = argument;
  }
}
