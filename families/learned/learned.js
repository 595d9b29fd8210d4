// Learned absolute position tables (families/learned/learned.md): deterministic initialisation, gather
// with an explicit out-of-range policy, add in place, concatenate. Tables are [rows][dim].
import { arrayLike } from '../../js/core.js';
import { Status } from '../../js/errors.js';
import { bool, choice, elements, fail, int, list, MAX_INT32, num, options } from '../../js/validate.js';
import { callNamed } from '../../js/values.js';
import { FLT_MAX } from '../../js/maths.js';

export const OUT_OF_RANGE = { error: 0, clamp: 1, zero: 2 };

/** Rows of `table` ([rows][dim]): given, or its length / dim. */
function tableRows(fn, table, rows, dim) {
  if (rows !== undefined) return int(fn, 'rows', rows);
  const len = arrayLike(table)?.length;
  if (!Number.isInteger(len) || len < dim || len % dim) {
    throw fail(
      fn,
      'table',
      Status.E_SIZE,
      `a Float32Array or posenc buffer of rows * dim elements (dim = ${dim}), or pass rows`,
      table,
    );
  }
  return len / dim;
}

export function learnedFamily(core) {
  return {
    learnedInit(opts) {
      const fn = 'learnedInit';
      const o = options(fn, opts, ['length', 'dim', 'std', 'seed', 'truncated', 'out']);
      const length = int(fn, 'length', o.length);
      const dim = int(fn, 'dim', o.dim);
      const std = num(fn, 'std', o.std, { min: 0, max: 1e37, def: 0.02 }); // larger rounds to float32 infinity
      const seed = int(fn, 'seed', o.seed, { min: 0, max: 2 ** 32 - 1, def: 0 });
      const truncated = bool(fn, 'truncated', o.truncated, false);
      const n = elements(fn, 'length * dim', length, dim);
      return core.run(fn, (s) => {
        const out = s.out('out', o.out, Float32Array, n);
        s.call('posenc_learned_init', out.ptr, length, dim, std, seed | 0, truncated ? 1 : 0);
        return out.take();
      });
    },

    gather(table, opts) {
      const fn = 'gather';
      const o = options(fn, opts, ['rows', 'dim', 'positions', 'outOfRange', 'out']);
      const dim = int(fn, 'dim', o.dim);
      const rows = tableRows(fn, table, o.rows, dim);
      const mode = choice(fn, 'outOfRange', o.outOfRange, OUT_OF_RANGE, 'error');
      let positions = list(fn, 'positions', o.positions);
      if (Array.isArray(positions)) {
        positions.forEach((p, c) => int(fn, `positions[${c}]`, p, { min: -MAX_INT32 - 1, max: MAX_INT32 }));
        positions = Int32Array.from(positions);
      }
      if (positions === undefined) {
        throw fail(fn, 'positions', Status.E_MISSING, 'given (an Int32Array of row indices)');
      }
      if (arrayLike(positions)?.Type !== Int32Array) {
        throw fail(
          fn,
          'positions',
          Status.E_PARAM,
          'an Int32Array, an int32 posenc buffer or an array of integers',
          positions,
        );
      }
      const count = int(fn, 'positions.length', arrayLike(positions).length, { min: 1 });
      const nt = elements(fn, 'rows * dim', rows, dim);
      const n = elements(fn, 'positions.length * dim', count, dim);
      return core.run(fn, (s) => {
        const t = s.in('table', table, Float32Array, nt); // C checks the rows it gathers
        const p = s.in('positions', positions, Int32Array, count);
        if (mode === OUT_OF_RANGE.error) {
          s.with(Int32Array, p, count, (pv) => {
            for (let c = 0; c < count; c++) {
              if (pv[c] < 0 || pv[c] >= rows) {
                throw fail(
                  fn,
                  `positions[${c}]`,
                  Status.E_RANGE,
                  `in [0, ${rows - 1}] (the table has ${rows} rows; outOfRange: 'clamp' or 'zero' allow it)`,
                  pv[c],
                );
              }
            }
          });
        }
        const out = s.out('out', o.out, Float32Array, n);
        callNamed(s, core, 'posenc_learned_gather', [out.ptr, t, rows, dim, p, count, mode], () =>
          s.with(Int32Array, p, count, (pv) =>
            Array.from(pv, (q) => {
              const r = Math.min(Math.max(q, 0), rows - 1); // the row read; none for 'zero'
              return { name: 'table', ptr: r === q || mode !== OUT_OF_RANGE.zero ? t : 0, n: dim, first: r * dim };
            }),
          ),
        );
        return out.take();
      });
    },

    /** x[p] += table[offset + p] in place; returns x. */
    addTo(x, table, opts) {
      const fn = 'addTo';
      const o = options(fn, opts, ['length', 'dim', 'offset', 'rows']);
      const length = int(fn, 'length', o.length);
      const dim = int(fn, 'dim', o.dim);
      const rows = tableRows(fn, table, o.rows, dim);
      const offset = int(fn, 'offset', o.offset, { min: 0, def: 0 });
      checkFits(fn, offset, length, rows);
      const n = elements(fn, 'length * dim', length, dim);
      const nt = elements(fn, 'rows * dim', rows, dim);
      return core.run(fn, (s) => {
        // C checks x and the rows read block by block as it adds them (docs/errors.md)
        const xi = s.inout('x', x, Float32Array, n);
        const t = s.in('table', table, Float32Array, nt);
        const maxima = s.alloc(Float32Array, 2, false);
        callNamed(
          s,
          core,
          'posenc_learned_add',
          [xi.ptr, t, rows, length, dim, offset, maxima],
          [
            { name: 'x', ptr: xi.ptr, n },
            { name: 'table', ptr: t, n, first: offset * dim },
          ],
          () => {
            const [mx, mt] = s.read(Float32Array, maxima, 2); // over x as given
            return {
              name: 'x, table',
              allowed: `small enough that the result fits float32: max|x| + max|table| = ${mx} + ${mt} <= ${FLT_MAX}`,
              got: mx + mt,
            };
          },
        );
        return xi.take();
      });
    },

    /** out[p] = [x[p], table[offset + p]]: [length][dimX + dimP]. */
    concat(x, table, opts) {
      const fn = 'concat';
      const o = options(fn, opts, ['length', 'dimX', 'dimP', 'offset', 'rows', 'out']);
      const length = int(fn, 'length', o.length);
      const dimX = int(fn, 'dimX', o.dimX);
      const dimP = int(fn, 'dimP', o.dimP);
      const rows = tableRows(fn, table, o.rows, dimP);
      const offset = int(fn, 'offset', o.offset, { min: 0, def: 0 });
      checkFits(fn, offset, length, rows);
      const nx = elements(fn, 'length * dimX', length, dimX);
      const nt = elements(fn, 'rows * dimP', rows, dimP);
      const n = elements(fn, 'length * (dimX + dimP)', length, dimX + dimP);
      return core.run(fn, (s) => {
        const xi = s.in('x', x, Float32Array, nx, { finite: 'all' });
        const t = s.in('table', table, Float32Array, nt);
        s.scan('table', t, length * dimP, false, offset * dimP);
        const out = s.out('out', o.out, Float32Array, n);
        s.call('posenc_learned_concat', out.ptr, xi, t, rows, length, dimX, dimP, offset);
        return out.take();
      });
    },
  };
}
learnedFamily.core = 'lean'; // the smallest core with its C entry points (js/lite.js)

function checkFits(fn, offset, length, rows) {
  if (offset + length > rows) {
    throw fail(fn, 'offset + length', Status.E_RANGE, `at most the table's ${rows} rows`, offset + length);
  }
}
