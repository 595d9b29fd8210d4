// The RoPE scalings' one table (js/scalings.js): the generated blocks are current, the table is
// consistent, and families/rope/rope.c's own checks (check_scaling, posenc_rope_scaling_init) agree with
// it: every probe below is derived from the table's ranges, requirements, defaults and rules, and
// runs through the JS API and, by a struct written here, through C alone.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadCore } from '../js/api.js';
import { init } from '../js/index.js';
import { C_FIELDS, FACTOR_KEYS, HF_TYPES, SCALING_DOCS, SCALINGS } from '../js/scalings.js';
import { Status } from '../js/errors.js';
import { generated } from '../tools/gen_scalings.js';
import { fromConfig } from '../families/config/config.js';

const DIM = 8; // rotaryDim: 4 pairs
const BASE = 10000;
const snake = (k) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

test('the generated blocks (index.d.ts, families/rope/rope.md, posenc.h, status.c) are what js/scalings.js says', () => {
  for (const [f, [now, want]] of Object.entries(generated())) {
    assert.equal(now, want, `${f} is stale: run node tools/gen_scalings.js`);
  }
});

test('the table: C values 0..n-1 in order, keys once each in C_FIELDS, HF spellings once, bounds by name', () => {
  const types = Object.entries(SCALINGS);
  types.forEach(([type, t], i) => assert.equal(t.c, i, `SCALINGS.${type}.c is its position`));
  const names = new Set(types.flatMap(([, t]) => t.keys.map((k) => k.name)));
  assert.deepEqual([...names].sort(), [...C_FIELDS].sort(), 'C_FIELDS lists every key of the table, each once');
  const spellings = types.flatMap(([, t]) => t.hf);
  assert.equal(new Set(spellings).size, spellings.length, 'no HF spelling means two types');
  for (const [type, t] of types) {
    for (const k of t.keys) {
      const where = `SCALINGS.${type} ${k.name}`;
      assert.ok(['number', 'bool', 'factors'].includes(k.kind), `${where}: kind`);
      if (k.gtKey)
        assert.ok(
          t.keys.some((o) => o.name === k.gtKey),
          `${where}: gtKey names a key of ${type}`,
        );
      for (const other of types.flatMap(([, o]) => o.keys).filter((o) => o.name === k.name)) {
        assert.equal(other.kind, k.kind, `${k.name} has one kind in every type (one C field)`);
      }
    }
    if (t.rule) {
      assert.ok(
        t.rule.probes.some((p) => p.ok) && t.rule.probes.some((p) => !p.ok),
        `SCALINGS.${type}.rule: probes on both sides`,
      );
    }
  }
  assert.deepEqual(Object.keys(SCALING_DOCS), Object.keys(SCALINGS), 'SCALING_DOCS has each type, in order');
  assert.ok(FACTOR_KEYS.length > 0);
});

/** A valid scaling of `type`: each key's default, or for a required one the smallest round value in range. */
function baseline(type) {
  const v = {};
  for (const k of SCALINGS[type].keys) {
    if (k.kind === 'factors') v[k.name] = new Array(DIM / 2).fill(1);
    else if (k.def !== undefined) v[k.name] = k.def;
    else if (k.required) v[k.name] = (k.gtKey ? v[k.gtKey] : (k.gt ?? k.min ?? 0)) + 1;
  }
  return v;
}

/** The probes of one type: [what, keys, ok, missing] with keys over the baseline (undefined:
 * absent; missing: a required key absent, E_MISSING on both sides). */
function probes(type) {
  const t = SCALINGS[type];
  const base = baseline(type);
  const out = [['the baseline', {}, true]];
  for (const k of t.keys) {
    const n = k.name;
    if (k.kind === 'bool') continue;
    out.push([`${n} absent`, { [n]: undefined }, !k.required, k.required]);
    if (k.kind === 'factors') {
      out.push([`${n} with a 0`, { [n]: [1, 0, 1, 1] }, false]);
      out.push([`${n} with an Infinity`, { [n]: [1, 1, Infinity, 1] }, false]);
      continue;
    }
    out.push([`${n} Infinity`, { [n]: Infinity }, false]);
    const gt = k.gtKey ? base[k.gtKey] : k.gt;
    if (gt !== undefined)
      out.push([`${n} = its bound ${gt}`, { [n]: gt }, false], [`${n} just above`, { [n]: gt + 1 }, true]);
    if (k.min !== undefined)
      out.push([`${n} = its min`, { [n]: k.min }, true], [`${n} below`, { [n]: k.min - 1 }, false]);
    if (k.max !== undefined) out.push([`${n} past its max`, { [n]: k.max * 2 }, false]);
  }
  for (const p of t.rule?.probes ?? []) out.push([`rule ${JSON.stringify(p.set)}`, p.set, p.ok]);
  return out.map(([what, set, ok, missing]) => [what, { ...base, ...set }, ok, missing]);
}

/** The status of posenc_rope_freqs on a struct written here from `values` over posenc_rope_scaling_init. */
function cStatus(core, type, values) {
  return core.run('test', (s) => {
    const L = core.layout.posenc_rope_scaling;
    const ptr = s.alloc(Uint8Array, L.size);
    const lists = {};
    for (const k of FACTOR_KEYS) {
      if (values[k] === undefined) continue;
      lists[k] = s.alloc(Float64Array, values[k].length, false);
      s.write(Float64Array, lists[k], values[k]);
    }
    const inv = s.alloc(Float64Array, DIM / 2, false);
    const att = s.alloc(Float64Array, 1, false);
    s.call('posenc_rope_scaling_init', ptr, SCALINGS[type].c);
    s.with(DataView, ptr, L.size, (dv) => {
      // absent: what posenc_rope_scaling_init left (the default, NaN for "not given", NULL)
      for (const [k, v] of Object.entries(values)) {
        if (v !== undefined) L.set(dv, snake(k), FACTOR_KEYS.includes(k) ? lists[k] : Number(v));
      }
    });
    try {
      s.call('posenc_rope_freqs', inv, att, DIM, BASE, ptr);
      return Status.OK;
    } catch (e) {
      return e.code;
    }
  });
}

/** The status of the JS API on the same values (absent keys left out). */
function jsStatus(pe, type, values) {
  const scaling = { type };
  for (const [k, v] of Object.entries(values)) if (v !== undefined) scaling[k] = v;
  try {
    pe.ropeFrequencies({ dim: DIM, base: BASE, scaling });
    return Status.OK;
  } catch (e) {
    if (typeof e.code !== 'number') throw e;
    return e.code;
  }
}

test('posenc_rope_scaling_init sets the defaults of the table and NaN for every other key of the type', async () => {
  const core = await loadCore({ simd: true });
  const L = core.layout.posenc_rope_scaling;
  for (const [type, t] of Object.entries(SCALINGS)) {
    core.run('test', (s) => {
      const ptr = s.alloc(Uint8Array, L.size);
      s.call('posenc_rope_scaling_init', ptr, t.c);
      const dv = new DataView(s.read(Uint8Array, ptr, L.size).slice().buffer);
      assert.equal(dv.getInt32(L.at('type'), true), t.c, `${type}: type`);
      for (const k of t.keys) {
        const at = L.at(snake(k.name));
        if (k.kind === 'factors') assert.equal(dv.getUint32(at, true), 0, `${type}.${k.name}: NULL`);
        else if (k.kind === 'bool') assert.equal(dv.getInt32(at, true), Number(k.def), `${type}.${k.name}`);
        else
          assert.equal(dv.getFloat64(at, true), k.def ?? Number.NaN, `${type}.${k.name}: C's default is the table's`);
      }
    });
  }
  // a value past the last type is refused by C, as the table's count says
  core.run('test', (s) => {
    const ptr = s.alloc(Uint8Array, L.size);
    assert.throws(
      () => s.call('posenc_rope_scaling_init', ptr, Object.keys(SCALINGS).length),
      (e) => e.code === Status.E_ENUM,
    );
  });
});

test("C's check_scaling and the JS API agree on every probe of the table, and both are the table's", async () => {
  const core = await loadCore({ simd: true });
  const pe = await init();
  let n = 0;
  for (const type of Object.keys(SCALINGS)) {
    for (const [what, values, ok, missing] of probes(type)) {
      const c = cStatus(core, type, values);
      const js = jsStatus(pe, type, values);
      assert.equal(c === Status.OK, ok, `${type}, ${what}: C ${ok ? 'refused' : 'accepted'} it (status ${c})`);
      assert.equal(js === Status.OK, ok, `${type}, ${what}: JS ${ok ? 'refused' : 'accepted'} it (status ${js})`);
      if (missing) {
        assert.equal(c, Status.E_MISSING, `${type}, ${what}: C says missing`);
        assert.equal(js, Status.E_MISSING, `${type}, ${what}: JS says missing`);
      }
      n++;
    }
  }
  assert.ok(n > 50, `${n} probes`);
});

test('fromConfig reads every HF spelling of the table as its type, with the keys under their HF names', () => {
  for (const [spelling, type] of Object.entries(HF_TYPES)) {
    const base = baseline(type);
    const rs = { rope_type: spelling };
    for (const k of SCALINGS[type].keys) if (k.hf && base[k.name] !== undefined) rs[k.hf] = base[k.name];
    const config = {
      model_type: 'llama',
      hidden_size: 4 * DIM,
      num_attention_heads: 4,
      max_position_embeddings: 64,
      rope_theta: BASE,
      rope_scaling: rs,
    };
    const sc = fromConfig(config).rope.scaling ?? { type: 'default' };
    assert.equal(sc.type, type, `rope_type ${spelling}`);
    for (const k of SCALINGS[type].keys) {
      if (k.hf && rs[k.hf] !== undefined && !k.context)
        assert.deepEqual(sc[k.name], rs[k.hf], `${spelling}: ${k.hf} -> scaling.${k.name}`);
    }
  }
});
