// Value rules of the registry (js/encodings.js VALUE_RULES): a table of an ENCODINGS row that
// states one (e.g. positive: true) must be refused, element by element, by every host the row
// lists, with a message naming the element: `bias.r1[3] must be finite and > 0 (got 0)`. The
// hosts learn the rule from the row alone (js/values.js, families/attention/attention.js, families/kvcache/kvcache.js), so a
// kind with such a table edits none of them; this test derives its cases from the registry.
// And the other way round: C must accept 0, -1 and 1 in a table whose row states no rule.
//
// The C core is the guard: attention and selfAttention check no table values in JS before the
// call (js/values.js names the culprit only after C returned E_PARAM), so a violating value that
// reaches C without an E_PARAM from the kind's values_<type> (families/<family>/fused_<type>.h) returns normally
// and fails here. kvCache copies its tables in JS and checks them when the cache is made
// (families/kvcache/kvcache.js tableCopy); the same values_<name> guards its attend, through attention's call.
import assert from 'node:assert/strict';
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ENCODINGS, VALUE_RULES, valueRule } from '../js/encodings.js';
import { init, Status } from '../js/index.js';
import { randomF32 } from './helpers.js';
import { randomBias } from './ref64.js';

const root = new URL('..', import.meta.url).pathname;
/** The folder of a fused kind's files (families/<family>/kind_<type>.js, fused_<type>.h), or undefined. */
const kindDir = (type) =>
  readdirSync(join(root, 'families'))
    .map((f) => `families/${f}`)
    .find((d) => existsSync(join(root, d, `kind_${type}.js`)));
/** Where ENCODINGS[type] is declared, for a message. */
const declaredIn = (type) => (kindDir(type) ? `${kindDir(type)}/kind_${type}.js` : `js/encodings.js ENCODINGS.${type}`);
const HEADS = 2,
  DIM = 4,
  T = 5;
const PREFIX = { attention: 'bias.', selfAttention: 'encoding.', kvCache: 'encoding.' };
// the scalar options of each fused kind as tests/ref64.js randomBias draws them (so a required
// one, such as Shaw's maxRelative, is given; the registry's parse fills every other default)
const SCALARS = Object.fromEntries(
  Object.keys(ENCODINGS)
    .filter((type) => type !== 'none' && ENCODINGS[type].cArgs)
    .map((type) => [
      type,
      Object.fromEntries(
        Object.entries(randomBias(type, { heads: 1, dim: 2, queries: 1, keys: 1 }, 1)).filter(
          ([k, v]) => k !== 'type' && !ArrayBuffer.isView(v),
        ),
      ),
    ]),
);

/** Every (type, host, table key, rule) the registry states; ctx sizes the tables. */
function constrained(registry, valueRuleOf) {
  const out = [];
  for (const [type, entry] of Object.entries(registry)) {
    for (const host of Object.keys(PREFIX)) {
      if (!entry.hosts[host]) continue;
      const parsed = parsed0(entry, type, host);
      for (const t of tablesOf(entry, parsed, host)) {
        const rule = valueRuleOf(t);
        if (rule) out.push({ type, host, key: t.key, rule });
      }
    }
  }
  return out;
}

const ctxOf = (host) => ({ fn: 'test', prefix: PREFIX[host], host, dim: DIM, causal: host === 'kvCache' });

/** The keys of `host` that parse passes through as tables (a scalar option refuses an array). */
function tableKeys(entry, type, host) {
  return entry.hosts[host].filter((key) => {
    if (SCALARS[type]?.[key] !== undefined) return false;
    try {
      entry.parse({ type, ...SCALARS[type], [key]: new Float32Array(1) }, ctxOf(host));
      return true;
    } catch {
      return false;
    }
  });
}

/** The row's parse of its defaults, every table present (so tables() lists them all). */
function parsed0(entry, type, host) {
  const tables = Object.fromEntries(tableKeys(entry, type, host).map((k) => [k, new Float32Array(1)]));
  try {
    return entry.parse({ type, ...SCALARS[type], ...tables }, ctxOf(host));
  } catch (e) {
    throw new Error(
      `tests/value_rules.test.js SCALARS: '${type}' needs scalar options this test does not give (${e.message}); draw them in tests/ref64.js randomBias`,
    );
  }
}

function tablesOf(entry, parsed, host) {
  const dim = DIM;
  if (host === 'selfAttention') return entry.tables(parsed, { heads: HEADS, dim });
  return entry.tables(parsed, { heads: HEADS, dim, dimV: dim, rRows: T });
}

/** An encoding object of `type` for `host`, each table filled with fill(table). */
function encodingOf(registry, type, host, fill) {
  const entry = registry[type];
  const parsed = parsed0(entry, type, host);
  const enc = { type, ...SCALARS[type] };
  for (const t of tablesOf(entry, parsed, host)) enc[t.key] = new Float32Array(t.length).fill(fill(t));
  return enc;
}

const layer = {
  dModel: HEADS * DIM,
  heads: HEADS,
  wq: randomF32(HEADS * DIM * HEADS * DIM, 1),
  wk: randomF32(HEADS * DIM * HEADS * DIM, 2),
  wv: randomF32(HEADS * DIM * HEADS * DIM, 3),
};
const qkv = () => [1, 2, 3].map((s) => randomF32(T * HEADS * DIM, 10 + s));

const CALL = {
  attention: (pe, enc) => {
    const [q, k, v] = qkv();
    return pe.attention({ q, k, v, queries: T, heads: HEADS, dim: DIM, bias: enc });
  },
  selfAttention: (pe, enc) => pe.selfAttention({ ...layer, tokens: randomF32(T * HEADS * DIM, 4), encoding: enc }),
  kvCache: (pe, enc) => {
    const [q, k, v] = qkv();
    const cache = pe.kvCache({ heads: HEADS, dim: DIM, capacity: T, encoding: enc });
    try {
      cache.append(k, v);
      return cache.attend(q);
    } finally {
      cache.free();
    }
  },
};

/** The host refuses each violating value of table `key` at index 1, naming it (and accepts a valid one). */
function checkTable(pe, registry, { type, host, key, rule }, candidates = rule.probes) {
  const named = `js/encodings.js VALUE_RULES, the probes of the rule '${rule.allowed}'`;
  assert.ok(Array.isArray(candidates), `${named}: none (values on both sides of its bounds)`);
  const ok = candidates.find((x) => rule.ok(x));
  assert.ok(ok !== undefined, `${named}: no value keeps the rule`);
  const enc = encodingOf(registry, type, host, () => ok);
  CALL[host](pe, enc); // all valid: no error
  const bad = candidates.filter((x) => !rule.ok(x));
  assert.ok(bad.length > 0, `${named}: no value breaks the rule`);
  for (const x of bad) {
    const table = Float32Array.from(enc[key]);
    table[1] = x;
    const where = `${host} ${type} ${PREFIX[host]}${key}[1] = ${x}`;
    let err;
    try {
      CALL[host](pe, { ...enc, [key]: table });
    } catch (e) {
      err = e;
    }
    assert.ok(
      err,
      `${where}: accepted; the rule '${rule.allowed}' its tables() state (${declaredIn(type)}) must be refused` +
        (host === 'kvCache'
          ? ' (families/kvcache/kvcache.js tableCopy)'
          : ` by the C core (values_${type} in ${kindDir(type) ?? 'families/attention'}/fused_${type}.h returns E_PARAM;` +
            ` or its fields in ${declaredIn(type)} do not match the fields C reads)`),
    );
    assert.ok(err.constructor.name === 'PosencError' && err.code === Status.E_PARAM, `${where}: ${err}`);
    const want = `posenc.${host}: ${PREFIX[host]}${key}[1] must be ${rule.allowed} (got ${Object.is(x, -0) ? 0 : Math.fround(x)})`;
    const namer =
      host === 'kvCache'
        ? 'families/kvcache/kvcache.js tableCopy'
        : 'js/values.js scan, via families/attention/attention.js';
    assert.equal(err.message, want, `${where}: the host must name the element (${namer})`);
  }
}

test('every rule of VALUE_RULES carries probes on both sides; a table stating an unknown rule is named', () => {
  for (const [name, rule] of Object.entries(VALUE_RULES)) {
    const where = `js/encodings.js VALUE_RULES.${name}`;
    assert.ok(typeof rule.allowed === 'string' && typeof rule.ok === 'function', `${where}: allowed and ok`);
    assert.ok(Array.isArray(rule.probes), `${where}: probes (values on both sides of its bounds)`);
    assert.ok(rule.probes.some(rule.ok) && !rule.probes.every(rule.ok), `${where}.probes: both sides`);
  }
  assert.throws(
    () => valueRule({ key: 'r2', length: 2, product: 'heads', upTo2: true }),
    /table r2 states upTo2, neither a field \(key, length, product, shape\) nor a rule of VALUE_RULES \(js\/encodings\.js\)/,
  );
  assert.equal(valueRule({ key: 'w', length: 1, product: 'heads', shape: '[heads]' }), undefined);
  assert.equal(valueRule({ key: 'w', length: 1, product: 'heads', positive: true }), VALUE_RULES.positive);
});

test('every table with a value rule in js/encodings.js is refused by name in every host', async () => {
  const pe = await init();
  const cases = constrained(ENCODINGS, valueRule);
  console.log(
    `${cases.length} constrained (kind, host, table) cases: ${cases.map((c) => `${c.type}.${c.key}@${c.host}`)}`,
  );
  for (const c of cases) checkTable(pe, ENCODINGS, c);
});

// The other way round: a table whose row states no rule must take any small finite value in
// every host (C refusing one is a rule the row does not state, so no host could name it).
const PLAIN = [0, -1, 1];
test('every table without a value rule takes 0, -1 and 1 in every host (C refuses no value the row does not state)', async () => {
  const pe = await init();
  for (const [type, entry] of Object.entries(ENCODINGS)) {
    for (const host of Object.keys(PREFIX)) {
      if (!entry.hosts[host]) continue;
      const tables = tablesOf(entry, parsed0(entry, type, host), host);
      const plain = tables.filter((t) => !valueRule(t));
      if (plain.length === 0) continue;
      for (const x of PLAIN) {
        // a table with a rule keeps a value it allows
        const fill = (t) => (valueRule(t) ? valueRule(t).probes.find((c) => valueRule(t).ok(c)) : x);
        try {
          CALL[host](pe, encodingOf(ENCODINGS, type, host, fill));
        } catch (e) {
          assert.fail(
            `${host} '${type}' with ${plain.map((t) => t.key)} = ${x} is refused (${e.message}): if they ` +
              `must satisfy a rule, state it in the tables() of ${declaredIn(type)} (a rule of js/encodings.js VALUE_RULES)`,
          );
        }
      }
    }
  }
});

// The check above must be able to fail, and must hold before any kind uses a rule. A copy of
// js/ (and families/) whose registry marks T5's weights positive has every host enforce it from that mark alone.
// T5's C check (values_t5) refuses only non-finite weights and positive ones too large for
// float32 logits, so in attention and selfAttention the violating value is -Infinity (refused by
// C; the message must carry the rule's words); kvCache checks in JS, so 0 is refused there too.
test('a rule marked on an existing table is enforced by every host; the unmarked registry fails the check', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'posenc-rules-'));
  try {
    cpSync(`${root}js`, `${dir}/js`, { recursive: true });
    cpSync(`${root}families`, `${dir}/families`, { recursive: true }); // js/ imports the families' glue
    symlinkSync(`${root}dist`, `${dir}/dist`);
    const file = `${dir}/families/relative/kind_t5.js`;
    const src = readFileSync(file, 'utf8');
    const mark = "shape: '[numBuckets][heads]' }";
    assert.ok(
      src.includes(mark),
      `families/relative/kind_t5.js: its weights table no longer reads ${mark}; update this test`,
    );
    writeFileSync(file, src.replace(mark, "shape: '[numBuckets][heads]', positive: true }"));
    const marked = await import(`${dir}/js/encodings.js`);
    const api = await import(`${dir}/js/index.js`);
    const pe = await api.init();
    const cases = constrained(marked.ENCODINGS, marked.valueRule).filter((c) => c.type === 't5');
    assert.deepEqual(
      cases.map((c) => c.host),
      ['attention', 'selfAttention', 'kvCache'],
    );
    const values = (host) => (host === 'kvCache' ? [0.5, 0, -1, -Infinity] : [0.5, -Infinity]);
    for (const c of cases) checkTable(pe, marked.ENCODINGS, c, values(c.host));
    // the same check on the real registry (weights unmarked) fails: it can fail
    const real = await init();
    for (const c of cases) {
      assert.throws(
        () => checkTable(real, ENCODINGS, { ...c, rule: VALUE_RULES.positive }, values(c.host)),
        assert.AssertionError,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
