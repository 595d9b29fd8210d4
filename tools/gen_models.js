// Writes the model-type tables of families/config/models.md from families/config/models.js MODELS
// (one table row per row there, every cell derived from the row's fields) and the README's
// fromConfig paragraph with its counts (model types, real configs in tests/fixtures/configs/).
// What a row's fields do not say (a clause of prose on a cell) is in MODEL_DOCS of
// families/config/decl.js, which does not ship.
//
//   node tools/gen_models.js           rewrite the generated blocks
//   node tools/gen_models.js --check   exit 1 naming each stale file (tests/decls.test.js)
//
// Blocks: `<generated: model types>` (decoders and wrappers), `<generated: encoder model types>`
// (the rows whose attention reads no head_dim key, `hiddenOnly`, and the dual-tower wrappers) in
// models.md; `<generated: fromConfig counts>` in README.md (tools/gen_blocks.js).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MODEL_DOCS } from '../families/config/decl.js';
import { MODELS } from '../families/config/models.js';
import { cli, fillBlock } from './gen_blocks.js';

const root = new URL('..', import.meta.url).pathname;
const GEN = 'tools/gen_models.js';
const DOC = 'families/config/models.md';

// models.js `layers` (a key of config.js LAYER_RULES) and `scale`, said in words
const LAYERS = {
  full: 'every layer full',
  sliding: 'sliding_window on every layer (when set)',
  qwen2: 'use_sliding_window: layers ≥ max_window_layers slide',
  qwen2_moe: 'qwen2_moe',
  qwen_all: 'use_sliding_window: every layer slides',
  qwen3_5: 'every full_attention_interval-th layer full, else linear_attention',
  gemma2: 'even layers slide',
  alternate: 'even layers slide',
  pattern: 'every sliding_window_pattern-th layer full',
  llama4: 'RoPE layers chunked, NoPE full',
  smollm3: 'NoPE layers slide with use_sliding_window',
  jamba: 'attention at i % attn_layer_period = attn_layer_offset, else Mamba',
  gpt_neo: 'attention_types expanded per layer; `local` layers: window `window_size`',
  modernbert: 'layer i global when i % global_attn_every_n_layers = 0, else local',
  lfm2: 'layer_types (`full_attention` or `conv`), else full_attn_idxs (None: every layer attends)',
};
const SCALES = {
  head_dim: 'head_dim^-½',
  query_pre_attn_scalar: 'query_pre_attn_scalar^-½',
  attention_multiplier: 'attention_multiplier',
  one: '1',
  mla: '(qk_nope+qk_rope)^-½',
  gpt2: 'head_dim^-½ if scale_attn_weights, ÷ (layer + 1) if scale_attn_by_inverse_layer_idx',
  bigcode: 'head_dim^-½ if scale_attn_weights, else 1',
  mpt: 'attn_config.softmax_scale or head_dim^-½',
};

/** A default as the table says it: a scaling dict by its type and factor, a list without quotes. */
function value(v) {
  if (v && typeof v === 'object' && !Array.isArray(v)) return `${v.type ?? v.rope_type} ×${v.factor}`;
  return Array.isArray(v) ? JSON.stringify(v).replace(/"/g, '').replace(/,/g, ', ') : String(v);
}

const need = (map, key, type, field) => {
  if (!(key in map)) throw new Error(`families/config/models.js ${type}: ${field} '${key}' has no words in ${GEN}`);
  return map[key];
};

/** The wrapper's per-layer cell: which text model, and what a missing text_config means. */
function wrapped(row) {
  const which = row.vision
    ? `text model \`${row.text}\`, vision model \`${row.vision}\` always (their model_type not read)`
    : `text model \`${row.text}\` ${
        row.fixedText
          ? "always (the class's own; text_config.model_type not read)"
          : 'unless text_config.model_type says (null: refused, CONFIG_MAPPING[None] fails)'
      }`;
  const none = row.fromRoot
    ? 'the top-level keys'
    : row.textDefaults
      ? `${row.config}'s own ${row.textDefaults.model_type} values`
      : `the ${row.vision ? '' : 'text '}class defaults`;
  return `${which}; no ${row.vision ? 'tower' : 'text_config'} config: ${none}`.replace(
    'no text_config config',
    'no text_config',
  );
}

/** The family cell: a learned table's rows and offset, a stack of its own, remote code. */
function family(row) {
  const stacks = Object.entries(row.stacks ?? {});
  if (stacks.some(([, s]) => s.table))
    return stacks.map(([n, s]) => `${s.table ?? row.family} ${n} (\`${s.rows}\` rows)`).join(', ');
  const parts = [row.remote ? `${row.family} (remote code)` : row.family];
  if (row.offset) parts.push(`offset ${row.offset}`);
  if (row.padOffset) parts.push('offset `pad_token_id + 1`');
  if (row.patches) parts.push(`(image_size // patch_size)²${row.patches.cls ? ` + ${row.patches.cls}` : ''} rows`);
  if (stacks.length > 1) parts.push('both stacks');
  return parts.join(', ');
}

/** The defaults cell: the class's defaults fromConfig reads, and a base the modeling file fixes. */
function defaults(row, hide = []) {
  const d = Object.entries(row.defaults ?? {}).filter(([k, v]) => v !== undefined && !hide.includes(k));
  const note = (k) =>
    k === 'rope_theta' && row.baseKey
      ? ` (\`${row.baseKey}\` read first)`
      : row.nullFails?.includes(k)
        ? ' (null refused)'
        : k === 'num_layers' && row.family === 't5'
          ? ' (num_decoder_layers None → num_layers)'
          : '';
  const said = d.map(([k, v]) => `${k} ${value(v)}${note(k)}`);
  if (row.base) {
    // the keys the row ignores for the same reason as rope_theta: the file's own base
    const why = row.ignores?.rope_theta;
    const keys = Object.keys(row.ignores ?? {}).filter((k) => why && row.ignores[k] === why);
    return `${said.length ? `${said.join(', ')}; ` : ''}base ${row.base} always (${keys.join(', ')} not read: noted)`;
  }
  return `${said.length ? said.join(', ') : '–'}${refused(row)}`;
}

/** What the row refuses of the scaling keys: remote code's exact rope_scaling, a class's rope types. */
function refused(row) {
  if (row.scalingTypes)
    return `; rope_scaling exactly { type: ${row.scalingTypes.join(' / ')}, factor${
      row.scalingFactorMin ? ` ≥ ${row.scalingFactorMin}` : ''
    } }, rope_parameters refused`;
  const only = row.onlyRopeTypes?.filter((t) => t !== 'default');
  return only ? `; rope types other than ${only.join(' / ')} refused` : '';
}

/** The per-layer cell: the rule, what wins, which layers do not rotate, which do not attend. */
function layerCell(type, row) {
  const layer = need(LAYERS, row.layers, type, 'layers');
  const wins = row.kinds
    ? `layer_types wins; only these ${row.kinds.length === 2 ? 'two ' : ''}kinds`
    : 'layer_types wins';
  const other = Object.keys(row.otherLayers ?? {}).map((k) => `\`${k}\``);
  return [
    `${layer}${row.layerTypes && !layer.startsWith('layer_types') ? ` (${wins})` : ''}`,
    row.nope === 'no_rope_layers' && 'no_rope_layers (else every no_rope_layer_interval-th)',
    row.nope === 'full_if_sliding' && 'full layers: no RoPE when sliding_window set',
    row.local === 'local_base' && 'sliding: rope_local_base_freq, unscaled',
    other.length && `${other.join(', ')} layers: no attention (\`attention: null\`)`,
  ]
    .filter(Boolean)
    .join('; ');
}

/** The derived cells of one row, before MODEL_DOCS' clauses. */
function derived(type, row, doc) {
  if (row.family === 'wrapper')
    return {
      family: `wrapper: text_config${row.vision ? ", or vision_config with `tower: 'vision'`" : ''}`,
      pairing: '',
      layer: wrapped(row),
      scale: '',
      defaults: '',
    };
  return {
    family: family(row),
    pairing:
      row.family !== 'rope'
        ? '–'
        : row.interleaveKey
          ? `${row.layout} (half if ${row.interleaveKey}: false)`
          : row.layout,
    layer: layerCell(type, row),
    scale: `${need(SCALES, row.scale, type, 'scale')}${row.mlaMscale ? ' · mscale²' : ''}${
      row.headDimFromHidden
        ? ' (head_dim = hidden_size / num_attention_heads; a head_dim key that disagrees is refused)'
        : ''
    }`,
    defaults: defaults(row, doc.hide),
  };
}

/** One table line: the derived cells, each with MODEL_DOCS' clause (`more`) or its own words (`is`). */
function line(type) {
  const row = MODELS[type];
  const doc = MODEL_DOCS[type] ?? {};
  const made = derived(type, row, doc);
  for (const k of Object.keys({ ...doc.more, ...doc.is }))
    if (!(k in made)) throw new Error(`families/config/decl.js MODEL_DOCS.${type}: no cell '${k}'`);
  for (const k of doc.hide ?? [])
    if (row.defaults?.[k] === undefined)
      throw new Error(`families/config/decl.js MODEL_DOCS.${type}: hides ${k}, no default`);
  const cell = (k) => doc.is?.[k] ?? `${made[k]}${doc.more?.[k] ?? ''}`;
  const all = [`\`${type}\``, ...['family', 'pairing', 'layer', 'scale', 'defaults'].map(cell)];
  // a wrapper's empty cells are written `| |`; a | inside a cell is escaped
  const cells = [...all, `\`${row.config}\` · \`${row.hf.replace(/\|/g, '\\|')}\``];
  return `|${cells.map((c) => (c ? ` ${c} ` : ' ')).join('|')}|`;
}

for (const type of Object.keys(MODEL_DOCS))
  if (!MODELS[type]) throw new Error(`families/config/decl.js MODEL_DOCS.${type}: not a row of MODELS`);

const encoder = (row) => row.hiddenOnly || row.vision;
const table = (rows) => [
  '| model_type | family | pairing | per-layer rule | softmax scale | defaults for omitted keys | follows |',
  '|---|---|---|---|---|---|---|',
  ...rows.map(line),
];

const configs = () =>
  readdirSync(join(root, 'tests/fixtures/configs')).filter((f) => f.endsWith('.json') && f !== 'SOURCES.json');

/** README.md: the fromConfig paragraph, its counts, from MODELS and the fixtures. */
const readme = () => [
  "`fromConfig` reads a model's parsed `config.json` (`rope_scaling` or `rope_parameters`, head sizes,",
  "the model type's pairing layout, per-layer windows, chunks, NoPE and attention-free layers, the",
  "config class's defaults for omitted keys) and returns options the other functions take as they are.",
  `It maps ${Object.keys(MODELS).length} model types, each as its Hugging Face code does, and refuses any other \`model_type\` by`,
  'name ([families/config/models.md](https://github.com/posenc/posenc/blob/main/families/config/models.md) lists the types,',
  `the file each follows, and ${configs().length} real configs checked). Feeding its caches to onnxruntime-web or`,
  'transformers.js: [docs/interop.md](https://github.com/posenc/posenc/blob/main/docs/interop.md).',
];

/** The first cells of the rows of every table of `doc` headed `| fixture |`. */
function fixtureRows(doc) {
  const names = [];
  let inTable = false;
  for (const l of doc.split('\n')) {
    if (l.startsWith('| fixture |')) inTable = true;
    else if (!l.startsWith('|')) inTable = false;
    else if (inTable && !l.startsWith('|---')) names.push(l.split('|')[1].trim());
  }
  return names;
}

/** Every generated file: path -> [current text, wanted text]. */
export function generated() {
  const types = Object.keys(MODELS);
  const by = `${GEN} from families/config/models.js`;
  const doc = readFileSync(join(root, DOC), 'utf8');
  // the "Models tried" tables are written by hand (fromConfig's result and the code read, per
  // file: hand-read evidence the fixtures do not hold), so only their rows are held to the fixtures
  for (const f of configs())
    if (!doc.includes(`\n| ${f.slice(0, -5)} |`)) throw new Error(`${DOC} has no row for tests/fixtures/configs/${f}`);
  for (const name of fixtureRows(doc))
    if (!configs().includes(`${name}.json`))
      throw new Error(`${DOC} has a row for ${name}, but tests/fixtures/configs/${name}.json does not exist`);
  let want = fillBlock(DOC, doc, 'model types', table(types.filter((t) => !encoder(MODELS[t]))), by);
  want = fillBlock(DOC, want, 'encoder model types', table(types.filter((t) => encoder(MODELS[t]))), by);
  const text = readFileSync(join(root, 'README.md'), 'utf8');
  return {
    [DOC]: [doc, want],
    'README.md': [text, fillBlock('README.md', text, 'fromConfig counts', readme(), by)],
  };
}

await cli(import.meta, GEN, generated);
