// Naming the argument behind a rejected value. The C core checks operand values itself (one
// vectorised pass: finite, and small enough that no float32 sum overflows), but a C status
// cannot say which array failed. On that failure path only, these scans find it, so a valid
// call pays nothing in JS.
import { PosencError, Status } from './errors.js';
import { fail } from './validate.js';

/** Max |x| of a heap array, or the first non-finite element's index as { bad } (or the first
 * one `rule` refuses: a js/encodings.js VALUE_RULES entry). `first`: the index of ptr's element
 * in the argument (a scan of the rows a call read). */
function scan(core, { ptr, n, negInf, rule, first = 0 }) {
  return core.withView(Float32Array, ptr + 4 * first, n, (a) => {
    let m = 0;
    for (let i = 0; i < n; i++) {
      const x = a[i];
      if (!Number.isFinite(x) && !(negInf && x === -Infinity)) return { bad: first + i, value: x, max: Infinity };
      if (rule && !rule.ok(x)) return { bad: first + i, value: x, max: Infinity };
      if (Number.isFinite(x) && Math.abs(x) > m) m = Math.abs(x);
    }
    return { max: m };
  });
}

/**
 * s.call(cname, ...args); if C rejects values (POSENC_E_PARAM), name the culprit: the first
 * non-finite element of `arrays` ([{ name, ptr, n, negInf, rule, first }]; negInf: -Infinity
 * allowed; rule: the table's js/encodings.js VALUE_RULES entry, whose violations are named too;
 * first: scan elements first .. first + n - 1 only; an argument may come in several parts; or a
 * function returning that list, called on the error path only), or
 * else the magnitude rule `rule(maxOf)` returns as { name, allowed, got }.
 */
export function callNamed(s, core, cname, args, arrays, rule) {
  try {
    return typeof cname === 'function' ? cname() : s.call(cname, ...args); // cname: or a body that calls C
  } catch (e) {
    if (!(e instanceof PosencError) || e.code !== Status.E_PARAM || e.argument !== undefined) throw e;
    const maxOf = {};
    for (const a of typeof arrays === 'function' ? arrays() : arrays) {
      if (!a.ptr) continue;
      const r = scan(core, a);
      if (r.bad !== undefined) {
        const allowed = a.rule?.allowed ?? (a.negInf ? 'finite or -Infinity' : 'finite');
        throw fail(s.fn, `${a.name}[${r.bad}]`, Status.E_PARAM, allowed, r.value);
      }
      maxOf[a.name] = Math.max(maxOf[a.name] ?? 0, r.max); // several parts of one argument
    }
    const why = rule && rule(maxOf);
    if (why) throw fail(s.fn, why.name, Status.E_PARAM, why.allowed, why.got);
    throw e;
  }
}

/** Float32 headroom the C core keeps for every logit and weighted sum (POSENC__LOGIT_LIMIT). */
export const LOGIT_LIMIT = 1e38;
