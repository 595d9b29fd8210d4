// The package's Hugo shortcodes reserve what the page's button and the components reserve: the
// box of the state being embedded (partials/posenc/height.html, Hugo's copy of embedHeightCss)
// and the panel the button picks for a view of many. A Hugo site of shortcodes at every state the
// height tables measure, those states combined with the view's own controls, and states the
// tables never saw (hostile values included) is built with the Debian hugo build.sh installs;
// every embed's attributes, link and height are compared with posencEmbed (the components' source).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'node:test';
import { posencEmbed, VIEWS } from '../packages/posenc-view/src/embed.js';
import { SETTINGS } from '../web/src/embed-heights-settings.js';

const HUGO = '/usr/bin/hugo';
const pkg = new URL('../build/posenc-view/hugo/', import.meta.url).pathname;
const skip = !existsSync(HUGO)
  ? 'no hugo (./build.sh test installs it)'
  : !existsSync(`${pkg}data/posenc.json`) && 'build/posenc-view not built (./build.sh element)';

/** The states of `view`: its default, each probe of the height tables, each with the view's own
 * controls too, and values no probe measured. */
function states(view) {
  const probes = (SETTINGS[view]?.probes ?? []).map((p) => p.params);
  const out = [{}, { controls: 'all' }, ...probes, ...probes.map((p) => ({ controls: 'own', ...p }))];
  out.push({ dim: '48', length: '96' }, { dim: 'abc' }, { method: 'nope' }, { method: 'alibi', dim: '2048' });
  out.push({ sentence: 'x "<y> & javascript:z', theme: 'dark', hide: 'title' }, { controls: 'own', panel: 'zzz' });
  return [...new Map(out.map((p) => [JSON.stringify(p), p])).values()];
}

const shortcode = (name, view, params) =>
  `{{< ${name} view="${view}"${Object.entries(params)
    .map(([k, v]) => ` ${k}="${v.replaceAll('"', '\\"')}"`)
    .join('')} >}}`;

const fromHtml = (s) =>
  s
    .replaceAll('&amp;', '&')
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&#34;', '"')
    .replaceAll('&quot;', '"')
    .replaceAll('&#43;', '+')
    .replaceAll('&#39;', "'");

test('every Hugo shortcode reserves the box and panel posencEmbed computes for its state', { skip }, () => {
  const cases = [];
  for (const view of VIEWS)
    for (const params of states(view))
      for (const [name, embed] of [
        ['posenc', 'element'],
        ['posenc-frame', 'iframe'],
      ])
        cases.push({ name, embed, view, params });
  const dir = mkdtempSync(join(tmpdir(), 'posenc-hugo-'));
  try {
    for (const d of ['content', 'layouts']) mkdirSync(join(dir, d));
    symlinkSync(pkg, join(dir, 'posenc'));
    writeFileSync(
      join(dir, 'hugo.toml'),
      `baseURL = "/"\ndisableKinds = ["taxonomy", "term", "RSS", "sitemap", "404"]\n${[
        'content',
        'layouts',
        'posenc/layouts:layouts',
        'posenc/data:data',
      ]
        .map((m) => {
          const [source, target = m] = m.split(':');
          return `[[module.mounts]]\nsource = "${source}"\ntarget = "${target}"\n`;
        })
        .join('')}`,
    );
    writeFileSync(
      join(dir, 'layouts/index.html'),
      '<!doctype html><html lang="en"><body>{{ .Content }}</body></html>\n',
    );
    writeFileSync(
      join(dir, 'content/_index.md'),
      `---\ntitle: post\n---\n${cases.map((c, i) => `## case ${i}\n\n${shortcode(c.name, c.view, c.params)}\n`).join('\n')}`,
    );
    const r = spawnSync(HUGO, ['--quiet', '--destination', 'public'], { cwd: dir, encoding: 'utf8' });
    assert.equal(r.status, 0, `hugo: ${r.stderr}${r.stdout}`);
    const html = readFileSync(join(dir, 'public/index.html'), 'utf8');
    const parts = html.split(/<h2 id="case-\d+">case (\d+)<\/h2>/);
    const misses = [];
    for (let p = 1; p < parts.length; p += 2) {
      const c = cases[Number(parts[p])];
      const out = parts[p + 1];
      const want = posencEmbed({ view: c.view, embed: c.embed, ...c.params });
      const what = `${c.name} ${c.view} ${JSON.stringify(c.params)}`;
      const query = new URLSearchParams(want.attrs).toString();
      const got = {
        height: fromHtml(out.match(/height:([^"]*)"/)?.[1] ?? ''),
        link: new URLSearchParams(fromHtml(out.match(/href="[^"?]*\?([^"]*)"/)?.[1] ?? '')).toString(),
      };
      if (got.height !== want.height) misses.push(`${what}: height ${got.height} != ${want.height}`);
      if (
        new URLSearchParams([...new URLSearchParams(got.link)].sort()).toString() !==
        new URLSearchParams([...new URLSearchParams(query)].sort()).toString()
      )
        misses.push(`${what}: link ${got.link} != ${query}`);
      if (c.embed === 'iframe') {
        const h = Number(out.match(/ height="(\d+)"/)?.[1]);
        if (h !== want.frameHeight) misses.push(`${what}: height attribute ${h} != ${want.frameHeight}`);
      } else {
        const attrs = [...out.matchAll(/ ([a-z]+)="([^"]*)"/g)]
          .map(([, k, v]) => [k, fromHtml(v)])
          .filter(([k]) => k !== 'style' && k !== 'href' && k !== 'src' && k !== 'type');
        assert.deepEqual(
          Object.fromEntries(attrs),
          Object.fromEntries(want.attrs),
          `${what}: the element's attributes`,
        );
      }
    }
    assert.equal((parts.length - 1) / 2, cases.length, 'every case rendered');
    assert.deepEqual(misses, [], `${misses.length} of ${cases.length} shortcodes differ`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
