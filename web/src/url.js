// The state in the link: the guided path's steps (a chunk of their own), the state of a step, the
// link of a state, and the URL kept in step with the state (app.js's lifecycle calls these).
import { ENV_KEYS, FIELDS, parseState, toParams, urlValue } from './state.js';
import * as registry from './views/index.js';

const { SETUP } = registry;

// The guided path's steps (their texts) are a chunk of their own, loaded only in guided mode:
// loadSteps() before resolveState() or goStep() of a guided state. A step whose view is not
// registered in this build is skipped.
let STEPS = [];
let RENAMED = {};
let stepsLoading = null;
export function loadSteps() {
  stepsLoading ??= import('./steps.js').then((m) => {
    // A step drawn by a view this build lacks falls back to the view its `fallback` names, if any.
    STEPS = m.STEPS.map((s) => (SETUP[s.view] || !s.fallback ? s : { ...s, ...s.fallback })).filter(
      (s) => SETUP[s.view],
    );
    RENAMED = m.RENAMED ?? {};
    return STEPS;
  });
  return stepsLoading;
}
/** The guided path's steps, once loadSteps() has brought them (else none). */
export const steps = () => STEPS;

/** Apply a guided step: defaults, then the step's patch, keeping where/how the page is shown. */
export function stepState(step, env, overrides = null) {
  const st = parseState(new URLSearchParams());
  // An environment key the previous step set itself (the ALiBi step's panel) is that step's, not the
  // reader's: it does not follow the reader to the next step's link.
  const from = env.guided ? STEPS.find((s) => s.id === env.step) : null;
  for (const k of ENV_KEYS) if (k in env && !(from?.state && k in from.state)) st[k] = env[k];
  Object.assign(st, step.state, { view: step.view, step: step.id, guided: true });
  if (overrides) {
    for (const k of Object.keys(FIELDS))
      if (overrides.has(k) && k !== 'view' && k !== 'step') st[k] = FIELDS[k][1](overrides.get(k), st[k]);
  }
  st.head = Math.min(st.head, st.heads - 1);
  return st;
}

/** Resolve the initial state: a link without view or with step is the guided path. */
export function resolveState(state, params = new URLSearchParams()) {
  if (!state.guided || !STEPS.length) return Object.assign(state, { guided: false, step: '' });
  // A link to a step that was renamed (steps.js RENAMED) opens that step under its new name.
  const id = Object.hasOwn(RENAMED, state.step) ? RENAMED[state.step] : state.step;
  const step = STEPS.find((s) => s.id === id) ?? STEPS[0];
  return Object.assign(state, stepState(step, state, params));
}

/** The link of a state: guided → ?step=id plus what differs from the step; explorer → ?view=…. */
export function urlOf(st) {
  if (st.guided) {
    const step = STEPS.find((s) => s.id === st.step) ?? STEPS[0];
    const p = new URLSearchParams([['step', step.id]]);
    for (const [k, [def]] of Object.entries(FIELDS)) {
      if (k === 'view' || k === 'step') continue;
      const base = k in step.state ? step.state[k] : def;
      if (st[k] !== undefined && st[k] !== base) p.set(k, urlValue(st[k]));
    }
    return `?${p}`;
  }
  const p = toParams({ ...st, step: '' });
  p.delete('view');
  return `?${new URLSearchParams([['view', st.view], ...p]).toString()}`;
}

/** The URL follows `state`: replace() at most every 200 ms (browsers throttle, and warn about, a
 * replaceState per animation frame during a drag or the rotation animation); push() for a
 * navigation; cancel() drops a pending replace. */
export function urlWriter(state) {
  let timer = 0;
  return {
    replace() {
      if (timer) return;
      timer = setTimeout(() => {
        timer = 0;
        history.replaceState(null, '', urlOf(state));
      }, 200);
    },
    push() {
      this.cancel();
      history.pushState(null, '', urlOf(state));
    },
    cancel() {
      clearTimeout(timer);
      timer = 0;
    },
  };
}
