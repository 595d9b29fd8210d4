// The Scaling view's "pick a model" and "paste a config.json" in headless Chromium: every model
// button draws its own fromConfig result (the table's numbers are the API's), the per-layer
// strip picks a layer, and a pasted config reaches the page only as text (its error too).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pageSuite, skip } from './browser_embed_harness.js';
import { fromConfig } from '../families/config/config.js';
import { MODELS } from '../web/src/views/scaling_models.js';

const { open, settled, pageErrors } = pageSuite();

const cellOf = (page, head) =>
  page.evaluate((head) => {
    const t = document.querySelector('.host .params');
    const i = [...t.rows[0].cells].findIndex((c) => c.textContent === head);
    return i < 0 ? null : t.rows[1].cells[i].textContent;
  }, head);

test('pick a model: at least 12, each cited, each drawn with its own base, rotated pairs and softmax scale', {
  skip,
  timeout: 300000,
}, async () => {
  assert.ok(MODELS.length >= 12);
  const { page, ctx } = await open('/?view=scaling');
  for (const m of MODELS) {
    assert.match(m.source, /config\.json \(quoted in .+; fixture [\w.-]+\.json\)/, `${m.id}: cites its config`);
    const s = fromConfig(m.config);
    await page.click(`.host .presets [data-preset="${m.id}"]`);
    await settled(page);
    assert.equal(await page.getAttribute(`.host .presets [data-preset="${m.id}"]`, 'aria-pressed'), 'true', m.id);
    assert.equal(await cellOf(page, 'base'), String(s.rope.base), `${m.id}: base`);
    assert.equal(await cellOf(page, 'rotated pairs'), String((s.rope.rotaryDim ?? s.rope.dim) / 2), `${m.id}: pairs`);
    assert.match(
      await cellOf(page, 'softmax scale'),
      new RegExp(`^${String(+s.attention.scale.toPrecision(6)).replace('.', '\\.')}`),
      `${m.id}: scale`,
    );
    assert.ok((await page.textContent('.host .cite')).includes(m.source), `${m.id}: the page cites its config`);
  }
  // Gemma 3: the strip shows 26 layers, layer 5 is global (base 1e6), clicking it redraws
  await page.click('.host .presets [data-preset="gemma3-1b"]');
  await settled(page);
  assert.equal(await page.locator('.host .layer-cell').count(), 26);
  assert.equal(await cellOf(page, 'base'), '10000');
  await page.click('.host .layer-cell[data-layer="5"]');
  await page.waitForFunction(() => /Layer 5\./.test(document.querySelector('.host .cite').textContent));
  assert.equal(await cellOf(page, 'base'), '1000000');
  // DeepSeek-V2: transformers' DeepseekV2Attention scales by qk_head_dim^-½ alone (no mscale²)
  await page.click('.host .presets [data-preset="deepseek-v2-lite"]');
  await settled(page);
  assert.match(await cellOf(page, 'softmax scale'), /1\/√192/);
  await ctx.close();
  assert.deepEqual(pageErrors, []);
});

test('paste a config.json: hostile text stays text, errors name the key, a good config is drawn', {
  skip,
  timeout: 120000,
}, async () => {
  const { page, ctx } = await open('/?view=scaling');
  await page.click('.host details.paste summary');
  const evil = '<img src=x onerror="globalThis.__pwned = 1">';
  await page.fill(
    '.host details.paste textarea',
    JSON.stringify({ model_type: evil, num_attention_heads: 8, hidden_size: 512, rope_theta: 'x' }),
  );
  await page.click('.host details.paste .use');
  // an unmapped model_type is refused by name: the markup comes back inside the message, as text
  const msg = await page.textContent('.host .paste-error');
  assert.match(msg, /is not a model type fromConfig maps/);
  assert.ok(msg.includes('<img src=x onerror='), 'the refused model_type is shown as text');
  assert.equal(await page.locator('.host img').count(), 0, 'the model_type was not parsed as HTML');
  await page.fill(
    '.host details.paste textarea',
    JSON.stringify({ model_type: 'llama', num_attention_heads: 8, hidden_size: 512, rope_theta: evil }),
  );
  await page.click('.host details.paste .use');
  assert.match(await page.textContent('.host .paste-error'), /rope_theta must be a finite number/);
  await page.fill('.host details.paste textarea', '{ not json');
  await page.click('.host details.paste .use');
  assert.match(await page.textContent('.host .paste-error'), /^Not JSON/);
  await page.fill(
    '.host details.paste textarea',
    JSON.stringify({
      model_type: 'llama',
      num_attention_heads: 8,
      hidden_size: 512,
      max_position_embeddings: 32768,
      rope_scaling: { rope_type: 'yarn', factor: 4, original_max_position_embeddings: 8192 },
    }),
  );
  await page.click('.host details.paste .use');
  await page.waitForFunction(() => /Pasted config/.test(document.querySelector('.host .cite').textContent));
  assert.equal(await page.textContent('.host .paste-error'), '');
  assert.equal(await page.locator('.host img').count(), 0, 'the model_type was not parsed as HTML');
  assert.ok((await page.textContent('.host .cite')).includes('model_type llama'), 'the cite names the type');
  assert.equal(await page.evaluate(() => globalThis.__pwned), undefined);
  assert.equal(await cellOf(page, 'extended to'), '32768');
  assert.equal(await cellOf(page, 'RoPE attention factor (cos, sin ×)'), (0.1 * Math.log(4) + 1).toFixed(4));
  await ctx.close();
  assert.deepEqual(pageErrors, []);
});
