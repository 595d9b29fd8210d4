// The shift identity of the sinusoidal table: for every offset k there is one fixed matrix M_k
// (block-diagonal, a 2 × 2 rotation by k·ωᵢ per pair) with PE(p + k) = M_k · PE(p) for every p.
// The rotation entries are themselves a row of the table, PE(k); both sides come from the API and
// the page only multiplies the 2 × 2 blocks out to show they agree to float32 rounding.
import { createPlot, f32, fmt, signed } from '../draw.js';
import { exactAngle } from '../methods.js';
import { shell } from './common.js';

// The table's figures have a fixed width (sign, 7 decimals; the values are in [−1, 1]): its
// columns, and so the view's height, do not depend on the numbers. The exact float32 values are in
// the formula above.
const num = (v) => signed(v, 7);

export function setupShift(el, ctx) {
  const v = shell(
    el,
    'The shift identity: PE(p + k) = M_k · PE(p)',
    'Each (sin, cos) pair of PE(p) is a point on a circle, turned by p·ωᵢ. Pick p and k: the figure turns ' +
      'every pair of PE(p) by k·ωᵢ, one 2 × 2 rotation built from the row PE(k), and sets the result beside ' +
      'PE(p + k) from the API. <a href="https://arxiv.org/abs/1706.03762">Vaswani et al. 2017</a> (§3.5) give ' +
      'two hopes for sinusoids: that a layer could learn to attend by relative position through this linear ' +
      'map, and, their stated reason for preferring them to learned positions (which scored “nearly ' +
      'identical”), that they “may allow the model to extrapolate to sequence lengths longer than the ones ' +
      'encountered during training”. Neither was shown there; <a href="https://arxiv.org/abs/2108.12409">Press ' +
      'et al. 2022</a> later measured sinusoids extrapolating worst of the encodings they compared. RoPE builds ' +
      'the rotation into the score itself.',
  );
  v.body.innerHTML = `<div class="row">
      <label>p <input type="range" class="p" min="0" max="512" step="1"></label><output class="pv"></output>
      <label>k <input type="range" class="k" min="0" max="256" step="1"></label><output class="kv"></output></div>
    <div class="fl-box formula"><h4>For pair i: one 2 × 2 rotation</h4><div class="fbody"></div></div>
    <div class="scroll"><table class="numbers"></table></div><div class="plotbox"></div>`;
  const pIn = v.body.querySelector('.p'),
    kIn = v.body.querySelector('.k');
  pIn.addEventListener('input', () => ctx.setState({ pos: Number(pIn.value) }));
  kIn.addEventListener('input', () => ctx.setState({ shift: Number(kIn.value) }));
  const tbl = v.body.querySelector('table');
  const fbody = v.body.querySelector('.fbody');
  const plot = createPlot(v.body.querySelector('.plotbox'), { height: 240 });
  let exported = null;

  function draw(st) {
    const pe = ctx.pe;
    const d = st.dim,
      p = Math.min(st.pos, 512),
      k = st.shift;
    pIn.value = String(p);
    kIn.value = String(k);
    v.body.querySelector('.pv').textContent = String(p);
    v.body.querySelector('.kv').textContent = String(k);
    const opts = { length: 1, dim: d, base: st.base, layout: 'interleaved' };
    const at = pe.sinusoidal({ ...opts, offset: p });
    const rot = pe.sinusoidal({ ...opts, offset: k }); // sin(kω), cos(kω): the entries of M_k
    const want = pe.sinusoidal({ ...opts, offset: p + k });
    const got = new Float64Array(d);
    let worst = 0;
    for (let i = 0; i < d / 2; i++) {
      const s = rot[2 * i],
        c = rot[2 * i + 1];
      // [sin((p+k)ω); cos((p+k)ω)] = [[cos kω, sin kω], [−sin kω, cos kω]] · [sin pω; cos pω]
      got[2 * i] = c * at[2 * i] + s * at[2 * i + 1];
      got[2 * i + 1] = -s * at[2 * i] + c * at[2 * i + 1];
      worst = Math.max(worst, Math.abs(got[2 * i] - want[2 * i]), Math.abs(got[2 * i + 1] - want[2 * i + 1]));
    }
    fbody.innerHTML = `<div class="fl">[ sin((<var>p</var>+<var>k</var>)ω<sub><var>i</var></sub>) ; cos((<var>p</var>+<var>k</var>)ω<sub><var>i</var></sub>) ] =
      [[ cos <var>k</var>ω<sub><var>i</var></sub>, sin <var>k</var>ω<sub><var>i</var></sub> ], [ −sin <var>k</var>ω<sub><var>i</var></sub>, cos <var>k</var>ω<sub><var>i</var></sub> ]] · [ sin <var>p</var>ω<sub><var>i</var></sub> ; cos <var>p</var>ω<sub><var>i</var></sub> ]</div>
      <div class="fl">pair 0, <var>p</var> = ${p}, <var>k</var> = ${k}: [[ ${f32(rot[1])}, ${f32(rot[0])} ], [ ${f32(-rot[0])}, ${f32(rot[1])} ]] · [ ${f32(at[0])} ; ${f32(at[1])} ] = [ ${fmt(got[0])} ; ${fmt(got[1])} ]</div>
      <div class="fl">PE(${p + k}) from the API: [ <b class="exact">${f32(want[0])}</b> ; <b class="exact">${f32(want[1])}</b> ] — largest difference over all ${d} dims: <b data-maxdiff="${worst}">${worst.toExponential(2)}</b> (float32 rounding)</div>
      <p class="fhint">M<sub>k</sub>’s entries are the row PE(k) itself: <code>pe.sinusoidal({ length: 1, dim: ${d}, base: ${st.base}, offset: ${k} })</code>.<span data-after-predict> p appears nowhere in it: the same M<sub>k</sub> shifts every position.</span></p>`;
    const show = [...new Set([0, 1, 2, Math.floor(d / 8), Math.floor(d / 4), d / 2 - 1])].filter(
      (i) => i >= 0 && i < d / 2,
    );
    tbl.innerHTML =
      // The two columns to compare come first: on a phone the table scrolls sideways from the left.
      `<caption>Selected pairs (all ${d / 2} agree)</caption><tr><th>pair i</th><th>M_k · PE(p)</th><th>PE(p + k) from the API</th><th>k·ωᵢ mod 2π (rad)</th><th>PE(p) sin, cos</th></tr>` +
      show
        .map(
          (i) =>
            `<tr><th>${i}</th><td>${num(got[2 * i])}, ${num(got[2 * i + 1])}</td><td>${num(want[2 * i])}, ${num(want[2 * i + 1])}</td><td>${exactAngle(rot[2 * i], rot[2 * i + 1]).toFixed(5)}</td><td>${num(at[2 * i])}, ${num(at[2 * i + 1])}</td></tr>`,
        )
        .join('');
    // Drawn last, the PE(p + k) line lies on top of M_k · PE(p)'s own line, and its dots (wider than
    // a line) show around it: both stay visible where they agree.
    plot.setTitle(`Every dimension: M_${k} · PE(${p}) (dots) and PE(${p + k}) from the API (line, on top)`);
    plot.draw(
      [
        { y: at, label: `PE(${p}) (before the shift, grey)`, colour: 'muted' },
        { y: Float32Array.from(got), label: `M_${k} · PE(${p}) (dots)`, colour: 1, dots: d <= 128 },
        { y: want, label: `PE(${p + k}) from the API (line)`, colour: 0 },
      ],
      { xLabel: 'dimension (sin, cos interleaved)', yLabel: 'value', yRange: [-1.05, 1.05], integerX: true },
    );
    exported = {
      kind: 'series',
      name: 'shift identity',
      xLabel: 'dim',
      series: [
        { label: `PE(${p + k})`, x: Array.from({ length: d }, (_, i) => i), y: Array.from(want) },
        { label: `M_k PE(p)`, x: Array.from({ length: d }, (_, i) => i), y: Array.from(got) },
      ],
    };
  }

  return {
    update(st) {
      v.clear();
      v.guard(() => draw(st), 'shift identity');
    },
    exportData: () => exported,
    figure: (o) => plot.figure(o),
    svg: () => plot.svg(),
    canvas: () => plot.canvas,
  };
}
