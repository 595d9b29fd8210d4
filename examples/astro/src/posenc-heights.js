// Written by examples/heights.mjs from the posenc page's tables (web/src/embed-heights-element.js):
// the height <posenc-view> takes, per view, as a function of its column width, written as the CSS
// length the page's "Copy embed code" puts in the fallback link's min-height. Measured with
// method=rope dim=32; settings that make a view taller make it grow once it has loaded.

// biome-ignore format: one table
const STEPS = {"heatmap":[[0,1360],[288,1273],[352,1213],[416,1167],[512,1120],[544,1077],[672,1036],[928,770]],"waves":[[0,1693],[288,1560],[352,1434],[416,1366],[480,1307],[544,1235],[672,1176],[928,902]],"similarity":[[0,1957],[288,1899],[320,1855],[608,1318],[736,1260],[960,1202]],"rotation":[[0,2491],[288,2361],[320,2310],[352,2238],[384,2038],[432,1996],[440,1950],[448,1904],[464,1855],[480,1569],[608,1519],[704,1394],[768,1148],[832,1091]],"bias":[[0,4960],[280,5026],[384,4715],[408,4799],[464,4817],[480,4545],[504,4593],[536,4670],[608,4630],[640,4089],[696,4208],[768,4129],[824,4237],[928,3765],[960,3343],[984,3683],[1056,3016],[1208,3387],[1280,2962]],"learned":[[0,2040],[288,1992],[320,1942],[416,1894],[480,1828],[576,1786],[608,1746],[928,1459]],"extrapolation":[[0,2851],[288,2764],[352,2678],[384,2615],[416,2558],[480,2495],[544,1693],[672,1651],[832,1615],[928,1381]],"compare":[[0,2179],[288,2086],[352,2029],[416,1942],[512,1887],[544,1845],[608,1149],[928,877]],"shuffle":[[0,2392],[304,2351],[352,2287],[384,2191],[416,2105],[448,2015],[608,1253],[736,1213],[800,1168],[864,1107],[1176,1131]],"lab":[[0,2937],[288,2847],[320,2768],[352,2725],[384,2664],[448,2624],[512,2568],[576,2524],[608,2425],[640,2311],[672,2244],[704,2144],[736,2085],[800,2006],[864,1947],[928,1888],[992,1812],[1152,1753],[1216,1694]],"worked":[[0,1877],[288,1768],[352,1656],[384,1565],[416,1522],[512,1457],[576,1376],[608,1258],[640,1179],[928,970],[960,892]],"shift":[[0,2015],[288,1905],[320,1751],[336,1694],[392,1641],[416,1543],[448,1497],[480,1403],[512,1362],[544,1320],[576,1280],[640,1233],[800,1187],[832,1018],[1056,972]],"concat":[[0,1944],[288,1801],[320,1692],[352,1584],[384,1455],[432,1414],[448,1353],[512,1266],[544,1221],[640,1135],[704,1088],[736,1048],[1216,1007]],"scaling":[[0,2767],[288,2448],[320,2214],[352,2172],[416,1997],[448,1935],[480,1855],[512,1814],[544,1750],[576,1641],[704,1538],[896,1458],[928,1186]],"positions":[[0,2517],[288,2342],[320,2207],[352,2167],[384,2070],[416,1958],[448,1882],[480,1819],[544,1761],[608,1682],[640,1624],[736,1563],[896,1508],[1208,1841],[1280,1471]],"recap":[[0,3128],[288,2927],[320,2808],[352,2726],[384,2558],[416,2477],[448,2437],[480,2358],[544,2298],[576,2257],[608,1994],[640,1671],[768,1591],[800,1490],[832,1409],[864,1347],[896,1305],[960,1226],[992,1185],[1056,1144],[1120,1103],[1216,1044]]};

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
const TITLES = {"heatmap":"posenc: Heatmap","waves":"posenc: Waves","similarity":"posenc: Similarity","rotation":"posenc: Rotation","bias":"posenc: Attention biases","learned":"posenc: Learned table","extrapolation":"posenc: Extrapolation","compare":"posenc: Compare","shuffle":"posenc: Why positions? The shuffle lab","lab":"posenc: Extrapolation lab","worked":"posenc: Sinusoidal by hand: a 4-dimensional example","shift":"posenc: The shift identity PE(p+k) = M_k · PE(p)","concat":"posenc: Add or concatenate?","scaling":"posenc: RoPE scaling","positions":"posenc: Position ids","recap":"posenc: Recap"};

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
