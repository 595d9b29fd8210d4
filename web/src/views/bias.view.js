import { HEAD, matrixH, plotH } from './layout.js';

/** The height of the panels shown (one, or all three) at a container width. */
function estimate(st, width) {
  const show = (p) => !st.panel || st.panel === p;
  const heads = Math.min(st.heads, 8);
  const per = Math.max(1, Math.floor(width / 130));
  const small = matrixH(Math.max(110, width / per - 10), 32, 32, { small: true });
  let h = HEAD;
  if (show('alibi')) h += 40 + plotH(200) * (width > 600 ? 1 : 2) + Math.ceil(heads / per) * small;
  if (show('t5'))
    h +=
      40 +
      (width > 600
        ? Math.max(plotH(200), matrixH(Math.min(420, width / 2), 32, 32, { square: true }))
        : plotH(200) + matrixH(Math.min(420, width), 32, 32, { square: true }));
  if (show('shaw')) h += 40 + matrixH(Math.min(420, width), 32, 32, { square: true });
  return h;
}

export const view = {
  id: 'bias',
  module: 'bias',
  label: 'Bias',
  title: 'Attention biases',
  needs: ['attention'],
  controls: ['heads', 'buckets', 'maxdist', 't5dir', 'shawk', 'palette'],
  // one panel shown: only the controls it reads
  controlsFor: (st) =>
    ({ alibi: ['heads', 'palette'], t5: ['buckets', 'maxdist', 't5dir', 'palette'], shaw: ['shawk', 'palette'] })[
      st.panel
    ] ?? ['heads', 'buckets', 'maxdist', 't5dir', 'shawk', 'palette'],
  panels: [
    { id: 'alibi', label: 'ALiBi' },
    { id: 't5', label: 'T5 buckets' },
    { id: 'shaw', label: 'Shaw' },
  ],
  // one fit per panel (registry.js: all three shown take ALiBi's and the others' mean offset)
  height: { estimate, fit: { alibi: [572.6, -340.3], t5: [287.7, 62.7], shaw: [763.2, 183.0] } },
};
