// The lab's task, methods, steps and seed are edited inside the view.
export const view = {
  id: 'lab',
  module: 'lab',
  label: 'Extrapolation lab',
  title: 'Extrapolation lab',
  // The lab trains in its worker (its own copy of the library); only without a worker does it add
  // the trainer to the page's API, when Train is pressed (lab.js): no need listed here.
  needs: [],
  controls: [],
  panels: [],
  // not fitted: the estimate is the box
  height: { estimate: (st, width) => (width > 900 ? 1500 : 2300), fit: [0, 0] },
};
