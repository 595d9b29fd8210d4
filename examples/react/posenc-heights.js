// Written by examples/heights.mjs from the posenc page's tables (web/src/embed-heights-element.js):
// the height <posenc-view> takes, per view, as a function of its column width, written as the CSS
// length the page's "Copy embed code" puts in the fallback link's min-height. Measured with
// method=rope dim=32; settings that make a view taller make it grow once it has loaded.

// biome-ignore format: one table
const STEPS = {"heatmap":[[0,1386],[280,1288],[304,1231],[408,1167],[512,1120],[528,1077],[672,1036],[912,770]],"waves":[[0,1693],[272,1611],[280,1560],[336,1501],[344,1454],[384,1413],[416,1366],[456,1325],[512,1281],[536,1235],[664,1176],[912,902]],"similarity":[[0,1916],[288,1857],[312,1823],[544,1855],[584,1334],[648,1279],[824,1220],[1000,1163]],"rotation":[[0,2491],[264,2430],[272,2389],[304,2314],[344,2256],[360,2167],[368,2101],[384,2038],[432,1996],[440,1950],[448,1904],[464,1593],[512,1548],[608,1519],[688,1437],[704,1394],[760,1148],[832,1091]],"bias":[[0,4505],[296,4538],[312,4620],[360,3941],[408,4004],[448,4026],[480,3703],[560,3737],[600,3462],[720,3413],[840,3372],[912,2854],[960,2689],[1176,2647]],"learned":[[0,1957],[296,1917],[328,1868],[432,1828],[488,1786],[584,1745],[608,1705],[912,1438]],"extrapolation":[[0,2586],[288,2540],[336,2492],[384,2432],[448,2371],[544,1569],[816,1530],[912,1282]],"compare":[[0,2226],[280,2128],[304,2071],[352,2029],[408,1963],[512,1908],[528,1865],[584,1170],[912,877]],"shuffle":[[0,2351],[304,2297],[352,2255],[376,2212],[384,2170],[408,2099],[424,2031],[456,1988],[584,1242],[736,1199],[824,1133],[896,1099],[1152,1131]],"lab":[[0,2779],[272,2730],[304,2671],[320,2630],[352,2587],[360,2546],[408,2506],[464,2465],[568,2406],[600,2366],[608,2307],[632,2248],[648,2193],[680,2086],[696,2046],[728,2006],[800,1927],[880,1868],[984,1793],[1024,1753],[1184,1694]],"worked":[[0,1877],[280,1817],[288,1768],[328,1698],[352,1656],[376,1608],[384,1565],[416,1522],[496,1478],[536,1435],[568,1376],[584,1258],[632,1179],[912,970],[944,892]],"shift":[[0,1723],[264,1654],[280,1614],[312,1567],[328,1521],[344,1475],[392,1432],[416,1376],[440,1330],[464,1236],[512,1196],[640,1150],[800,1103],[808,965],[832,914]],"concat":[[0,1903],[272,1845],[280,1804],[296,1714],[320,1671],[328,1630],[344,1543],[376,1477],[384,1435],[432,1353],[456,1312],[496,1263],[544,1221],[552,1179],[624,1135],[656,1088],[728,1048],[1056,1007]],"scaling":[[0,2538],[272,2426],[280,2318],[288,2239],[296,2177],[304,2116],[312,2075],[328,2026],[376,1984],[392,1918],[408,1871],[440,1809],[464,1747],[520,1667],[568,1626],[576,1557],[688,1495],[720,1455],[816,1415],[872,1374],[912,1102]]};

/** Usable steps, or null. */
const valid = (s) => (Array.isArray(s) && s.length ? s : null);

function heightCss(steps, width = '100cqw') {
  const s = valid(steps);
  if (!s) return '';
  const last = s[s.length - 1][1];
  const terms = [];
  for (let i = 1; i < s.length; i++) {
    const d = s[i - 1][1] - s[i][1]; // what the height below this breakpoint adds
    const at = s[i][0];
    if (d > 0) terms.push(`clamp(0px, (${at}px - ${width}) * 1000, ${d}px)`);
    else if (d < 0) terms.push(`clamp(${d}px, (${width} - ${at}px) * 1000, 0px)`);
  }
  return terms.length ? `calc(${last}px + ${terms.join(' + ')})` : `${last}px`;
}

/** The views the table knows. */
export const POSENC_VIEWS = Object.keys(STEPS);

/** `view`, or an error naming it and the views there are. */
function known(view) {
  if (Object.hasOwn(STEPS, view)) return view;
  throw new Error(`posenc: unknown view "${view}" (one of: ${POSENC_VIEWS.join(', ')})`);
}

// biome-ignore format: one table
const TITLES = {"heatmap":"posenc: Heatmap","waves":"posenc: Waves","similarity":"posenc: Similarity","rotation":"posenc: Rotation","bias":"posenc: Attention biases","learned":"posenc: Learned table","extrapolation":"posenc: Extrapolation","compare":"posenc: Compare","shuffle":"posenc: Why positions? The shuffle lab","lab":"posenc: Extrapolation lab","worked":"posenc: Sinusoidal by hand: a 4-dimensional example","shift":"posenc: The shift identity PE(p+k) = M_k · PE(p)","concat":"posenc: Add or concatenate?","scaling":"posenc: RoPE scaling"};

/** The view's title as the page's snippet names it ("posenc: Rotation"), or throws for a view it does not know. */
export function posencTitle(view) {
  return TITLES[known(view)];
}

/**
 * The CSS min-height that reserves `view`'s height inside a box with
 * `container-type:inline-size` (so 100cqw is the column's width). Throws for a view it does not know.
 */
export function posencHeight(view) {
  return heightCss(STEPS[known(view)]);
}
