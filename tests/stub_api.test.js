// The page's stand-in API (web/src/api.js stubApi: posenc/lite on the stand-in core,
// tools/standin_wasm.js) lays a view out before the wasm arrives: every call a view makes must run
// on it, or the view is laid out without its figure and grows when the real core arrives. Its
// struct layout is the real core's, so every struct field the glue writes is there.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { ENCODINGS } from '../js/encodings.js';
import { stubApi, use } from '../web/src/api.js';

test('the stand-in core runs attention with every fused bias kind, and selfAttention', async () => {
  const pe = await use(await stubApi(), 'attention');
  assert.equal(pe.stub, true);
  const [T, H, D] = [3, 2, 4];
  const f = (n) => new Float32Array(n).fill(0.5);
  const biases = {
    alibi: { type: 'alibi' },
    t5: { type: 't5', weights: f(32 * H) },
    shaw: { type: 'shaw', maxRelative: 2, aK: f(5 * D), aV: f(5 * D) },
    xl: { type: 'xl', u: f(H * D), v: f(H * D), r: f(T * H * D) },
  };
  for (const kind of Object.keys(ENCODINGS).filter((k) => ENCODINGS[k].cArgs && k !== 'none')) {
    assert.ok(biases[kind], `tests/stub_api.test.js: add a ${kind} bias to this list`);
    const r = pe.attention({
      q: f(T * H * D),
      k: f(T * H * D),
      v: f(T * H * D),
      queries: T,
      heads: H,
      dim: D,
      bias: biases[kind],
    });
    assert.equal(r.output.length, T * H * D, kind);
  }
  const w = () => f(8 * 8);
  const s = pe.selfAttention({
    tokens: f(T * 8),
    dModel: 8,
    wq: w(),
    wk: w(),
    wv: w(),
    heads: 2,
    encoding: { type: 'alibi' },
  });
  assert.equal(s.output.length, T * 8);
});

test("the stand-in's results: float32 at a typical width, frequencies from 1, integers zero", async () => {
  const pe = await stubApi();
  assert.equal(pe.stub, true);
  assert.ok(Object.isFrozen(pe));
  const t = pe.sinusoidal({ length: 3, dim: 8 });
  assert.equal(t.length, 24);
  assert.ok(t.every((x) => x === Math.fround(-0.841470957)));
  const f = pe.ropeFrequencies({ dim: 8 });
  assert.equal(f.invFreq64[0], 1);
  assert.ok(f.invFreq64.subarray(1).every((x) => x > 0 && x < 1));
  assert.equal(f.attentionScale, 1);
  assert.equal(pe.sinusoidalFrequencies({ dim: 10 }).length, 5, 'the count the stand-in writes');
  const b = pe.t5Buckets({ queries: 3 });
  assert.ok(b instanceof Int32Array && b.length === 9 && b.every((x) => x === 0));
});

// dist/posenc-standin.wasm.js is written by build.sh from the attention core: a stale one lacks
// an entry point the core has, or lays a struct out differently.
test('the stand-in core is what tools/standin_wasm.js makes from the page attention core', async () => {
  const { standin } = await import('../tools/standin_wasm.js');
  const core = readFileSync(new URL('../dist/posenc-page-attention.simd.wasm', import.meta.url));
  const { default: built } = await import('../dist/posenc-standin.wasm.js');
  assert.equal(built, Buffer.from(standin(core)).toString('base64'), 'stale: ./build.sh wasm writes it');
});
