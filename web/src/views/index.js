// The view registry (the contract with the page shell):
//   SETUP[name]() -> Promise of setup(host, ctx) -> { update(state), exportData(), figure({ scale }), svg?(), canvas(), destroy? }
//   VIEW_INFO[name] = { title, controls: [state keys the view reads], panels: [{ id, label }], height(state, width) }
//   A multi-panel view may mark where a panel's controls go in a narrow column:
//   <div class="control-slot" data-keys="buckets,maxdist"></div> (app.js moves them there).
// Every view is a chunk of its own, loaded with import() when it is first shown: an embed of one
// view downloads that view only. Which module draws a view and the API families it calls beyond
// the encodings (NEEDS; the shell adds them with pe.use before the view is set up) are the views'
// one table's, registry.js.
import './views.css';
export { VIEW_INFO } from './info.js';

import { NEEDS, VIEW_TABLE, setupName } from './registry.js';

export { NEEDS };

// One loader per module (registry.js `module`), each import() written out so that the bundler
// makes the module a chunk of its own.
const MODULES = {
  heatmap: () => import('./heatmap.js'),
  waves: () => import('./waves.js'),
  similarity: () => import('./similarity.js'),
  rotation: () => import('./rotation.js'),
  bias: () => import('./bias.js'),
  learned: () => import('./learned.js'),
  shuffle: () => import('./shuffle.js'),
  lab: () => import('./lab.js'),
  worked: () => import('./worked.js'),
  shift: () => import('./shift.js'),
  concat: () => import('./concat.js'),
  scaling: () => import('./scaling.js'),
  positions: () => import('./positions.js'),
  recap: () => import('./recap.js'),
};

export const SETUP = Object.fromEntries(
  VIEW_TABLE.map(({ id, module }) => [id, () => MODULES[module]().then((m) => m[setupName(id)])]),
);
