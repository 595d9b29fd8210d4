// Heatmap of a sinusoidal table: rows = positions, columns = dimensions, colour = value.
const CONTROLS = [
  { key: 'dim', label: 'dim', min: 2, max: 1024, step: 2, def: 128 },
  { key: 'length', label: 'length', min: 1, max: 2048, step: 1, def: 256 },
  { key: 'base', label: 'base', min: 10, max: 100000, step: 10, def: 10000 },
];

// Colour-blind-safe diverging map (blue - white - orange), value in [-1, 1].
function colour(v) {
  const t = Math.max(-1, Math.min(1, v));
  return t < 0
    ? [255 + t * (255 - 33), 255 + t * (255 - 102), 255 + t * (255 - 172)]
    : [255 - t * (255 - 230), 255 - t * (255 - 97), 255 - t * (255 - 1)];
}

export function setupHeatmap(root, pe) {
  const params = new URLSearchParams(location.search);
  const state = Object.fromEntries(CONTROLS.map((c) => [c.key, Number(params.get(c.key) ?? c.def)]));
  const section = document.createElement('section');
  section.innerHTML = `<h2>Sinusoidal heatmap</h2><div class="controls"></div><canvas></canvas><p class="readout"></p>`;
  root.append(section);
  const controls = section.querySelector('.controls');
  const canvas = section.querySelector('canvas');
  const readout = section.querySelector('.readout');
  for (const c of CONTROLS) {
    const label = document.createElement('label');
    label.innerHTML = `${c.label} <input type="range" min="${c.min}" max="${c.max}" step="${c.step}" value="${state[c.key]}"> <output>${state[c.key]}</output>`;
    const input = label.querySelector('input');
    input.addEventListener('input', () => {
      state[c.key] = Number(input.value);
      label.querySelector('output').textContent = input.value;
      const url = new URL(location.href);
      url.searchParams.set(c.key, input.value);
      history.replaceState(null, '', url);
      draw();
    });
    controls.append(label);
  }
  function draw() {
    const t0 = performance.now();
    const { dim, length, base } = state;
    const table = pe.sinusoidal({ length, dim, base });
    canvas.width = dim;
    canvas.height = length;
    const ctx = canvas.getContext('2d');
    const img = ctx.createImageData(dim, length);
    for (let i = 0; i < table.length; i++) {
      const [r, g, b] = colour(table[i]);
      img.data.set([r, g, b, 255], 4 * i);
    }
    ctx.putImageData(img, 0, 0);
    canvas.style.width = `${Math.min(1000, dim * 4)}px`;
    readout.textContent = `${length} positions × ${dim} dims, base ${base}: ${(performance.now() - t0).toFixed(1)} ms`;
  }
  draw();
}
