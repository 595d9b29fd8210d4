// The view registry (the contract with the page shell):
//   SETUP[name]() -> Promise of setup(host, ctx) -> { update(state), exportData(), figure({ scale }), svg?(), canvas(), destroy? }
//   VIEW_INFO[name] = the view's declaration (views/registry.js says what it holds), with
//   height(state, width) the px reserved for it
//   A multi-panel view may mark where a panel's controls go in a narrow column:
//   <div class="control-slot" data-keys="buckets,maxdist"></div> (app.js moves them there).
// Every view is a chunk of its own, loaded with import() when it is first shown: an embed of one
// view downloads that view only. The API families a view calls beyond the encodings (NEEDS; the
// shell adds them with pe.use before the view is set up) are its declaration's.
import './views.css';
import { NEEDS, VIEW_INFO, VIEWS, setupName } from './registry.js';

export { NEEDS, VIEW_INFO };

// A loader per module of this folder, which the bundler makes a chunk of its own: every module
// but the declarations and what they and every view share (statically imported, so no chunk).
const MODULES = import.meta.glob([
  './*.js',
  '!./*.view.js',
  '!./index.js',
  '!./registry.js',
  '!./layout.js',
  '!./common.js',
  '!./scaling_models.js',
]);

/** The loader of view `v`'s module, resolving to its setup; a module the glob lacks fails here. */
function loader({ id, module }) {
  const load = MODULES[`./${module}.js`];
  if (!load) throw new Error(`views/index.js: view ${id}: no module ./${module}.js to load`);
  return () => load().then((m) => m[setupName(id)]);
}

export const SETUP = Object.fromEntries(VIEWS.map((v) => [v.id, loader(v)]));
