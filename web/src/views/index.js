// The view registry (the contract with the page shell):
//   SETUP[name]() -> Promise of setup(host, ctx) -> { update(state), exportData(), figure({ scale }), svg?(), canvas(), destroy? }
//   VIEW_INFO[name] = { title, controls: [state keys the view reads], panels: [{ id, label }], height(state, width) }
//   A multi-panel view may mark where a panel's controls go in a narrow column:
//   <div class="control-slot" data-keys="buckets,maxdist"></div> (app.js moves them there).
// Every view is a chunk of its own, loaded with import() when it is first shown: an embed of one
// view downloads that view only. NEEDS lists the API families (web/src/api.js) a view calls
// beyond the encodings; the shell adds them (pe.use) before the view is set up.
import './views.css';
export { VIEW_INFO } from './info.js';

export const SETUP = {
  heatmap: () => import('./heatmap.js').then((m) => m.setupHeatmap),
  waves: () => import('./waves.js').then((m) => m.setupWaves),
  similarity: () => import('./similarity.js').then((m) => m.setupSimilarity),
  rotation: () => import('./rotation.js').then((m) => m.setupRotation),
  bias: () => import('./bias.js').then((m) => m.setupBias),
  learned: () => import('./learned.js').then((m) => m.setupLearned),
  extrapolation: () => import('./learned.js').then((m) => m.setupExtrapolation),
  compare: () => import('./heatmap.js').then((m) => m.setupCompare),
  shuffle: () => import('./shuffle.js').then((m) => m.setupShuffle),
  lab: () => import('./lab.js').then((m) => m.setupLab),
  worked: () => import('./worked.js').then((m) => m.setupWorked),
  shift: () => import('./shift.js').then((m) => m.setupShift),
  concat: () => import('./concat.js').then((m) => m.setupConcat),
  scaling: () => import('./scaling.js').then((m) => m.setupScaling),
  positions: () => import('./positions.js').then((m) => m.setupPositions),
  recap: () => import('./recap.js').then((m) => m.setupRecap),
};

// The lab trains in its worker (its own copy of the library); only without a worker does it add
// the trainer to the page's API, when Train is pressed (lab.js).
export const NEEDS = { bias: ['attention'], shuffle: ['attention'], positions: ['attention'] };
