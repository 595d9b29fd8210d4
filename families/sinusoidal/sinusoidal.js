// Sinusoidal family (families/sinusoidal/sinusoidal.md): 1-D tables, MAE 2-D tables, Gram matrices.
import { PosencError, Status } from '../../js/errors.js';
import { bool, choice, elements, fail, int, num, options } from '../../js/validate.js';
import { LOGIT_LIMIT } from '../../js/values.js';

export const LAYOUT = { interleaved: 0, split: 1 };
export const SPACING = { paper: 0, t2t: 1 };
export const ODD = { error: 0, pad: 1, xlm: 2 };

export function sinusoidalFamily(core) {
  return {
    sinusoidal(opts) {
      const fn = 'sinusoidal';
      const o = options(fn, opts, ['length', 'dim', 'base', 'layout', 'spacing', 'offset', 'oddDim', 'out']);
      const length = int(fn, 'length', o.length);
      const dim = int(fn, 'dim', o.dim);
      const base = num(fn, 'base', o.base, { gt: 1, def: 10000 });
      const layout = choice(fn, 'layout', o.layout, LAYOUT, 'interleaved');
      const spacing = choice(fn, 'spacing', o.spacing, SPACING, 'paper');
      const odd = choice(fn, 'oddDim', o.oddDim, ODD, 'error');
      const offset = num(fn, 'offset', o.offset, { min: -(2 ** 31) + length, max: 2 ** 31 - length, def: 0 });
      const n = elements(fn, 'length * dim', length, dim);
      if (dim % 2 && odd === ODD.error) {
        throw oddError(fn, dim);
      }
      if (dim % 2 && odd === ODD.xlm && spacing !== SPACING.paper) {
        throw fail(
          fn,
          'spacing',
          Status.E_PARAM,
          "'paper' when oddDim is 'xlm' (XLM defines only the paper spacing)",
          o.spacing,
        );
      }
      return core.run(fn, (s) => {
        const out = s.out('out', o.out, Float32Array, n);
        s.call('posenc_sinusoidal_fill', out.ptr, length, dim, base, layout, spacing, odd, offset);
        return out.take();
      });
    },

    /** The frequencies w_i (radians per position) of a sinusoidal table, as float64. */
    sinusoidalFrequencies(opts) {
      const fn = 'sinusoidalFrequencies';
      const o = options(fn, opts, ['dim', 'base', 'spacing', 'oddDim']);
      const dim = int(fn, 'dim', o.dim, { max: 2 ** 28 });
      const base = num(fn, 'base', o.base, { gt: 1, def: 10000 });
      const spacing = choice(fn, 'spacing', o.spacing, SPACING, 'paper');
      const odd = choice(fn, 'oddDim', o.oddDim, ODD, 'error');
      if (dim % 2 && odd === ODD.error) throw oddError(fn, dim);
      if (dim % 2 && odd === ODD.xlm && spacing !== SPACING.paper) {
        throw fail(fn, 'spacing', Status.E_PARAM, "'paper' when oddDim is 'xlm'", o.spacing);
      }
      return core.run(fn, (s) => {
        const cap = Math.ceil(dim / 2);
        const out = s.alloc(Float64Array, cap);
        const count = s.alloc(Int32Array, 1);
        s.call('posenc_sinusoidal_freqs', out, count, dim, base, spacing, odd);
        const k = s.read(Int32Array, count, 1)[0];
        return s.read(Float64Array, out, k);
      });
    },

    sinusoidal2d(opts) {
      const fn = 'sinusoidal2d';
      const o = options(fn, opts, ['height', 'width', 'dim', 'base', 'clsToken', 'out']);
      const height = int(fn, 'height', o.height);
      const width = int(fn, 'width', o.width);
      const dim = int(fn, 'dim', o.dim);
      const base = num(fn, 'base', o.base, { gt: 1, def: 10000 });
      const cls = bool(fn, 'clsToken', o.clsToken, false);
      if (dim % 4) {
        throw fail(fn, 'dim', Status.E_ODD, 'a multiple of 4 (each axis gets dim/2 channels of sin/cos pairs)', dim);
      }
      const rows = height * width + (cls ? 1 : 0);
      const n = elements(fn, '(height * width + clsToken) * dim', rows, dim);
      return core.run(fn, (s) => {
        const out = s.out('out', o.out, Float32Array, n);
        s.call('posenc_sinusoidal2d_fill', out.ptr, height, width, dim, base, cls ? 1 : 0);
        return out.take();
      });
    },

    similarity(table, opts) {
      const fn = 'similarity';
      const o = options(fn, opts, ['length', 'dim', 'normalize', 'out']);
      const length = int(fn, 'length', o.length);
      const dim = int(fn, 'dim', o.dim);
      const normalize = bool(fn, 'normalize', o.normalize, false);
      const n = elements(fn, 'length * dim', length, dim);
      const nn = elements(fn, 'length * length', length, length);
      return core.run(fn, (s) => {
        const t = s.in('table', table, Float32Array, n, { finite: 'all' });
        // every Gram entry (and squared norm) is bounded by dim · max|x|^2
        s.fits('table', dim * s.maxAbs.table ** 2, `dim · max|table|^2 = ${dim} · ${s.maxAbs.table}^2`, LOGIT_LIMIT);
        const out = s.out('out', o.out, Float32Array, nn);
        s.call('posenc_similarity', out.ptr, t, length, dim, normalize ? 1 : 0);
        return out.take();
      });
    },
  };
}

function oddError(fn, dim) {
  return new PosencError(
    Status.E_ODD,
    `posenc.${fn}: dim must be even, or pass oddDim: 'pad' (zero last column, tensor2tensor) or 'xlm' (got ${dim})`,
    'dim',
  );
}
sinusoidalFamily.core = 'lean'; // the smallest core with its C entry points (js/lite.js)
