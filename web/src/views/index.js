// The view registry (the contract with the page shell):
//   SETUP[name](host, ctx) -> { update(state), exportData(), figure({ scale }), svg?(), canvas(), destroy? }
//   VIEW_INFO[name] = { title, controls: [state keys the view reads], panels: [{ id, label }], height(state, width) }
import './views.css';
import { setupBias } from './bias.js';
import { setupCompare, setupHeatmap } from './heatmap.js';
import { setupExtrapolation, setupLearned } from './learned.js';
import { setupLab } from './lab.js';
import { setupRotation } from './rotation.js';
import { setupShuffle } from './shuffle.js';
import { setupSimilarity } from './similarity.js';
import { setupWaves } from './waves.js';
import { setupWorked } from './worked.js';
import { setupShift } from './shift.js';
import { setupConcat } from './concat.js';
import { setupScaling } from './scaling.js';
export { VIEW_INFO } from './info.js';

export const SETUP = {
  heatmap: setupHeatmap,
  waves: setupWaves,
  similarity: setupSimilarity,
  rotation: setupRotation,
  bias: setupBias,
  learned: setupLearned,
  extrapolation: setupExtrapolation,
  compare: setupCompare,
  shuffle: setupShuffle,
  lab: setupLab,
  worked: setupWorked,
  shift: setupShift,
  concat: setupConcat,
  scaling: setupScaling,
};
