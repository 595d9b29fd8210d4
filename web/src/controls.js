// The controls beside a view: one catalogue of them keyed by state key (bounds, steps and choices
// from the state's parsers), which of them a view shows (its declaration, views/<id>.view.js), the
// form kept in step with the state, and a view's panel controls moved above their panel in a
// narrow column.
import { esc } from './draw.js';
import { FIELDS } from './state.js';
import * as registry from './views/index.js';

// VIEW_INFO comes from the views' side; a view without it shows every control.
const VIEW_INFO = registry.VIEW_INFO ?? {};

export const opts = (list) =>
  list
    .map((x) => (Array.isArray(x) ? x : [x, x]))
    .map(([v, l]) => `<option value="${esc(v)}">${esc(l)}</option>`)
    .join('');
/** The one catalogue of controls, keyed by state key: [group, label, kind, options]. Order =
 * display order. Bounds, steps and choices are the state field's own (state.js FIELDS): a control
 * offers exactly what a link may hold. */
const CONTROLS = {
  method: ['Encoding', 'method', 'select'],
  dim: ['Encoding', 'dim', 'range'],
  length: ['Encoding', 'length', 'range'],
  base: ['Encoding', 'base', 'number', { step: 'any' }],
  heads: ['Encoding', 'heads', 'range'],
  // `head` is 0-based in the state; the control and its readout count from 1.
  head: ['Encoding', 'head shown', 'range', { toUi: (v) => v + 1, fromUi: (v) => v - 1 }],
  layout: ['Encoding', 'sinusoid layout', 'select'],
  rope: ['RoPE', 'pair layout', 'select'],
  scaling: ['RoPE', 'scaling', 'select'],
  factor: ['RoPE', 'factor', 'number', { step: 0.5 }],
  train: ['RoPE', 'train length', 'range'],
  buckets: ['Biases', 'T5 buckets', 'range'],
  maxdist: ['Biases', 'T5 max distance', 'range'],
  t5dir: ['Biases', 'T5 direction', 'select'],
  shawk: ['Biases', 'Shaw k', 'range'],
  vs: ['Display', 'compare with', 'select'],
  // Multi-panel views (Bias): which panel to show; the options are the view's VIEW_INFO panels.
  panel: ['Display', 'panel', 'select'],
  palette: ['Display', 'palette', 'select'],
};
/** [group, label, input]: the input's kind, bounds, step and list from the field's parser. */
const CONTROL_DEFS = Object.fromEntries(
  Object.entries(CONTROLS).map(([key, [group, label, kind, o = {}]]) => {
    const f = FIELDS[key][1];
    const ui = o.toUi ?? ((v) => v);
    return [
      key,
      [
        group,
        label,
        {
          kind,
          list: f.list,
          min: f.min === undefined ? undefined : ui(f.min),
          max: f.max === undefined ? undefined : ui(f.max),
          step: f.step ?? 1,
          ...o,
        },
      ],
    ];
  }),
);

function controlHtml(key, view) {
  const [, catalogued, d] = CONTROL_DEFS[key];
  // A view may name a control for what it means there (the learned table's "train length" is its
  // number of rows).
  const label = esc(VIEW_INFO[view]?.labels?.[key] ?? catalogued);
  const id = `c-${key}`;
  if (key === 'panel')
    return `<label>${label} <select name="panel">${opts([['', 'all'], ...(VIEW_INFO[view]?.panels ?? []).map((p) => [p.id, p.label])])}</select></label>`;
  if (d.kind === 'select') return `<label>${label} <select name="${key}">${opts(d.list)}</select></label>`;
  if (d.kind === 'number')
    return `<label>${label} <input name="${key}" type="number" min="${d.min}" max="${d.max}" step="${d.step}" inputmode="decimal"></label>`;
  return `<label>${label} <span class="io"><input name="${key}" type="range" min="${d.min}" max="${d.max}" step="${d.step}" aria-describedby="${id}"><output id="${id}"></output></span></label>`;
}

/** Which state keys get a control: the view's own (VIEW_INFO), all, or none. */
function controlKeys(view, mode, state) {
  if (mode === 'none') return [];
  // controlsFor(state): the subset the current method reads (e.g. no T5 sliders beside a sinusoid)
  const info = VIEW_INFO[view];
  const own = (state && info?.controlsFor?.(state)) ?? info?.controls;
  const keys = mode === 'all' || !Array.isArray(own) ? Object.keys(CONTROL_DEFS) : own;
  // The panel picker belongs to every view that has panels, and to no other.
  const panels = info?.panels?.length > 0;
  return Object.keys(CONTROL_DEFS).filter((k) => (k === 'panel' ? panels : keys.includes(k)));
}

function controlsHtml(keys, view, folded) {
  const groups = new Map();
  for (const k of keys) {
    const g = VIEW_INFO[view]?.groups?.[k] ?? CONTROL_DEFS[k][0];
    if (!groups.has(g)) groups.set(g, []);
    groups.get(g).push(controlHtml(k, view));
  }
  // In a narrow column the controls sit above the figure; the fold button (shown there only)
  // tucks them away so the figure comes up.
  const fold = `<button type="button" class="fold" aria-expanded="${!folded}" aria-controls="control-sets">${folded ? 'Show controls' : 'Hide controls'}</button>`;
  return `${fold}<div class="sets" id="control-sets">${[...groups].map(([g, items]) => `<fieldset><legend>${g}</legend>${items.join('')}</fieldset>`).join('')}</div>`;
}

// The column width at and below which the controls sit above the figure (style.css @container).
const NARROW = 700;

/**
 * Wire `form` (in `root`, beside the view in `host`) to `state`: an input sets the state through
 * setState(); sync(mode) rebuilds the form when the view or mode changes and writes the state's
 * values into it. width() is the root's width as last observed (0 = not yet).
 */
export function mountControls({ root, host, form, state, setState, activeElement, width }) {
  let formFor = '';
  let folded = false;
  let placed = false; // panel controls moved into the view's slots
  /** Show the controls `state.view` reads (mode: own, all or none), in step with the state. */
  function sync(mode) {
    const keys = controlKeys(state.view, mode, state);
    const key = `${state.view}|${mode}|${keys.join()}`;
    const build = () => {
      formFor = key;
      form.innerHTML = controlsHtml(keys, state.view, folded);
      // Every input names its form, so it stays one of form.elements wherever it is placed.
      for (const el of form.querySelectorAll('input, select')) el.setAttribute('form', form.id);
      form.classList.toggle('folded', folded);
      form.hidden = keys.length === 0;
      root.classList.toggle('no-controls', keys.length === 0);
      for (const slot of host.querySelectorAll('.control-slot')) slot.replaceChildren();
      placed = false;
    };
    if (key !== formFor) build();
    // In a narrow column (the CSS puts the controls above the figure there) a view's panel
    // controls go right above the panel they change: the view marks the place with
    // <div class="control-slot" data-keys="buckets,maxdist">. Back in the sidebar when wide.
    const slots = [...host.querySelectorAll('.control-slot')];
    const want = !form.hidden && slots.length > 0 && (width() || root.clientWidth) <= NARROW;
    if (placed && (!want || slots.some((x) => !x.dataset.placed))) build();
    if (want && !placed) {
      for (const slot of slots) {
        for (const k of slot.dataset.keys.split(',')) {
          const label = form.querySelector(`[name="${k}"]`)?.closest('label');
          if (label) slot.append(label);
        }
        slot.dataset.placed = '1';
      }
      for (const fs of form.querySelectorAll('fieldset')) fs.hidden = !fs.querySelector('label');
      placed = true;
    }
    if (!form.hidden) syncControls();
  }

  function syncControls() {
    for (const el of form.elements) {
      if (!el.name || !(el.name in state)) continue;
      const d = CONTROL_DEFS[el.name]?.[2];
      // Touch the DOM only on change: a drag must not restyle every control each frame.
      const v = String(d?.toUi ? d.toUi(state[el.name]) : state[el.name]);
      if (el.name === 'head' && el.max !== String(state.heads)) el.max = String(state.heads);
      if (el.value !== v && (activeElement() !== el || el.type !== 'number')) el.value = v;
      const out = el.parentElement.querySelector('output');
      if (out && out.textContent !== v) out.textContent = v;
    }
  }

  form.addEventListener('submit', (e) => e.preventDefault());
  form.addEventListener('click', (e) => {
    const b = e.target.closest('.fold');
    if (!b) return;
    folded = !folded;
    form.classList.toggle('folded', folded);
    b.setAttribute('aria-expanded', String(!folded));
    b.textContent = folded ? 'Show controls' : 'Hide controls';
  });
  // On the root: a control placed in a view's slot is outside the form element.
  root.addEventListener('input', (e) => {
    const el = e.target;
    if (el.form !== form) return;
    const f = FIELDS[el.name];
    if (!f) return;
    if (el.type === 'number' && el.value === '') return;
    const d = CONTROL_DEFS[el.name]?.[2];
    const raw = d?.fromUi ? String(d.fromUi(Number(el.value))) : el.value;
    setState({ [el.name]: f[1](raw, state[el.name]) });
  });
  return { sync };
}
