// The views, in the order of the explorer's tabs: each is declared once, in views/<id>.view.js,
// which exports `view`:
//   id        the `view` key of a link and the <posenc-view> attribute
//   module    the file that draws it, web/src/views/<module>.js, which exports setup<Id>
//             (setupHeatmap; the contract at the top of views/index.js): a chunk of its own,
//             loaded when the view is first shown (two views may share one)
//   label     its tab's name; title: its heading (and an embed's title)
//   needs     the API families (web/src/api.js LATER) it calls beyond the encodings: the shell adds
//             them (use(pe, name)) before the view is set up, and a lone view that needs attention runs
//             on the page core with attention (app.js coreFor)
//   controls  the state keys it reads (the controls the shell shows beside it); controlsFor(state),
//             if given, those shown in that state; groups and labels rename a control's group and
//             name for this view; panels [{ id, label }] are what `panel=` can pick
//   height    { estimate(state, width), fit }: the px it will take in a column of `width`, so the
//             page can reserve the space before the view's chunk or the wasm arrives. `estimate`
//             carries what depends on the state (matrix sizes, plots, panels); text wraps with the
//             width (intros, captions, formula panels), so `fit` [a, b] adds a + b·1000/width,
//             fitted to the embed measured in headless Chromium at 1280 and 390 px (a view of
//             panels: one [a, b] per panel)
// The declarations hold no DOM and no import(), and import only views/layout.js: Node tools, tests
// and the workers read this file, and the page reads it before any view's chunk is loaded.
// Everything that lists the views derives from VIEWS (pure calls: a bundle that reads none of it,
// the lab's worker, drops the declarations): state.js VIEWS (the link's values and the tabs),
// views/index.js SETUP, tools/element_sizes.js, tools/embed_heights.js, the package's embed.js and
// Hugo data, the tests' view lists; node tools/view_lists.js writes the lists in the package's
// README and types.
import { view as bias } from './bias.view.js';
import { view as compare } from './compare.view.js';
import { view as concat } from './concat.view.js';
import { view as extrapolation } from './extrapolation.view.js';
import { view as heatmap } from './heatmap.view.js';
import { view as lab } from './lab.view.js';
import { view as learned } from './learned.view.js';
import { view as positions } from './positions.view.js';
import { view as recap } from './recap.view.js';
import { view as rotation } from './rotation.view.js';
import { view as scaling } from './scaling.view.js';
import { view as shift } from './shift.view.js';
import { view as shuffle } from './shuffle.view.js';
import { view as similarity } from './similarity.view.js';
import { view as waves } from './waves.view.js';
import { view as worked } from './worked.view.js';

/** The views' declarations, in tab order. */
export const VIEWS = [
  heatmap,
  waves,
  similarity,
  rotation,
  bias,
  learned,
  extrapolation,
  compare,
  shuffle,
  lab,
  worked,
  shift,
  concat,
  scaling,
  positions,
  recap,
];

// Each table below is a pure call on VIEWS (a bundle that reads none of them drops them).
const ids = (views) => views.map((v) => v.id);
const labels = (views) => views.map((v) => [v.id, v.label]);
const panelValues = (views) => ['', ...new Set(views.flatMap((v) => v.panels.map((p) => p.id)))];
const needs = (views) => Object.fromEntries(views.filter((v) => v.needs.length).map((v) => [v.id, v.needs]));
const byId = (views) => Object.fromEntries(views.map((v) => [v.id, { ...v, height: reserved(v) }]));

/** The view ids, in tab order. */
export const VIEW_IDS = /* @__PURE__ */ ids(VIEWS);

/** [id, label] per view, as the link's parser and the tabs take them. */
export const VIEW_LABELS = /* @__PURE__ */ labels(VIEWS);

/** `panel=`'s values: '' (all of a view's panels) and every panel any view has. */
export const PANEL_VALUES = /* @__PURE__ */ panelValues(VIEWS);

/** The export of a view's module that sets it up: setup + the id capitalised. */
export const setupName = (id) => `setup${id[0].toUpperCase()}${id.slice(1)}`;

/** id -> API families beyond the encodings, for the views that call any. */
export const NEEDS = /* @__PURE__ */ needs(VIEWS);

/**
 * A declaration's height (state, width) -> px: its estimate plus its fit. With panels, the fit of
 * the panel shown; all of them shown take the first panel's fit and the mean offset of the others.
 */
function reserved({ height: { estimate, fit }, panels }) {
  if (Array.isArray(fit)) {
    const [a, b] = fit;
    return (st, width) => Math.round(estimate(st, width) + a + (b * 1000) / width);
  }
  const [first, ...others] = panels.map((p) => p.id);
  const rest = others.reduce((s, id) => s + fit[id][0], 0) / others.length;
  return (st, width) => {
    const panel = st.panel || first;
    const [a, b] = Object.hasOwn(fit, panel) ? fit[panel] : [0, 0];
    return Math.round(estimate(st, width) + a + (b * 1000) / width + (st.panel ? 0 : rest));
  };
}

/** id -> the view's declaration, with height(state, width) the px reserved for it. */
export const VIEW_INFO = /* @__PURE__ */ byId(VIEWS);
