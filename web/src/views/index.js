// The view registry: name -> setup(element, ctx) returning { update(state), exportData(), canvas(), destroy? }.
import { setupBias } from './bias.js';
import { setupCompare, setupHeatmap } from './heatmap.js';
import { setupExtrapolation, setupLearned } from './learned.js';
import { setupLab } from './lab.js';
import { setupRotation } from './rotation.js';
import { setupShuffle } from './shuffle.js';
import { setupSimilarity } from './similarity.js';
import { setupWaves } from './waves.js';

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
};
