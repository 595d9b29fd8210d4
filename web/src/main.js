// The page: state in the URL, views computed through the posenc API (nothing is computed here).
import { init } from '../../js/index.js';
import { setupHeatmap } from './views/heatmap.js';

const pe = await init();
setupHeatmap(document.querySelector('#app'), pe);
