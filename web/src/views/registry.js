// The views' one table, importable anywhere (no CSS, no DOM, no imports: Node tools and tests read
// it too). One row per view, in the order of the explorer's tabs:
//   id       the `view` key of a link and the <posenc-view> attribute
//   label    its tab's name
//   module   the file that draws it, web/src/views/<module>.js (a chunk of its own, loaded when the
//            view is first shown; two views may share one); it exports setup<Id> (setupHeatmap)
//   needs    the API families (web/src/api.js LATER) it calls beyond the encodings: the shell adds
//            them (pe.use) before the view is set up, and a lone view that needs attention runs on
//            the page core with attention (app.js coreFor)
// Everything else that lists the views derives from this table: state.js VIEWS (the link's
// values), views/index.js SETUP and NEEDS, tools/element_sizes.js, the tests' view lists; the view
// facts kept elsewhere (views/info.js VIEW_INFO, the loaders in views/index.js, the element's
// README) are checked against it by tests/views_text.test.js.

export const VIEW_TABLE = [
  { id: 'heatmap', label: 'Heatmap', module: 'heatmap' },
  { id: 'waves', label: 'Waves', module: 'waves' },
  { id: 'similarity', label: 'Similarity', module: 'similarity' },
  { id: 'rotation', label: 'Rotation', module: 'rotation' },
  { id: 'bias', label: 'Bias', module: 'bias', needs: ['attention'] },
  { id: 'learned', label: 'Learned', module: 'learned' },
  { id: 'extrapolation', label: 'Extrapolation', module: 'learned' },
  { id: 'compare', label: 'Compare', module: 'heatmap' },
  { id: 'shuffle', label: 'Shuffle lab', module: 'shuffle', needs: ['attention'] },
  // The lab trains in its worker (its own copy of the library); only without a worker does it add
  // the trainer to the page's API, when Train is pressed (lab.js): no need listed here.
  { id: 'lab', label: 'Extrapolation lab', module: 'lab' },
  { id: 'worked', label: 'Worked example', module: 'worked' },
  { id: 'shift', label: 'Shift identity', module: 'shift' },
  { id: 'concat', label: 'Add vs concat', module: 'concat' },
  { id: 'scaling', label: 'RoPE scaling', module: 'scaling' },
  { id: 'positions', label: 'Position ids', module: 'positions', needs: ['attention'] },
  { id: 'recap', label: 'Recap', module: 'recap' },
];

/** The view ids, in tab order. */
export const VIEW_IDS = VIEW_TABLE.map((v) => v.id);

/** [id, label] per view, as the link's parser and the tabs take them. */
export const VIEW_LABELS = VIEW_TABLE.map((v) => [v.id, v.label]);

/** The export of a view's module that sets it up: setup + the id capitalised. */
export const setupName = (id) => `setup${id[0].toUpperCase()}${id.slice(1)}`;

/** id -> API families beyond the encodings, for the views that call any. */
export const NEEDS = Object.fromEntries(VIEW_TABLE.filter((v) => v.needs?.length).map((v) => [v.id, v.needs]));
