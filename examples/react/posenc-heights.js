// Written by examples/heights.mjs from the posenc page's tables (web/src/embed-heights-element.js):
// the height <posenc-view> takes, per view, as a function of its column width, written as the CSS
// length the page's "Copy embed code" puts in the fallback link's min-height. Measured with
// method=rope dim=32; settings that make a view taller make it grow once it has loaded.

// biome-ignore format: one table
const STEPS = {"heatmap":[[0,1386],[280,1288],[304,1231],[408,1167],[512,1120],[528,1077],[672,1036],[912,770]],"waves":[[0,1693],[272,1611],[280,1560],[336,1501],[344,1454],[384,1413],[416,1366],[456,1325],[512,1281],[536,1235],[664,1176],[912,902]],"similarity":[[0,1957],[272,1916],[296,1847],[544,1855],[584,1355],[648,1279],[864,1222],[1248,1165]],"rotation":[[0,2491],[264,2430],[272,2389],[304,2307],[344,2256],[360,2167],[368,2101],[384,2038],[432,1996],[440,1950],[448,1904],[464,1578],[584,1519],[688,1437],[704,1394],[760,1148],[832,1091]],"bias":[[0,4808],[312,4866],[360,4493],[392,4555],[424,4615],[448,4657],[480,4401],[528,4446],[552,4494],[584,4510],[600,4470],[632,3939],[800,3969],[840,3828],[912,3334],[960,3194],[1048,2856],[1256,2802]],"learned":[[0,2040],[272,1997],[312,1942],[392,1907],[456,1848],[528,1807],[584,1766],[640,1725],[912,1459]],"extrapolation":[[0,2885],[264,2816],[288,2764],[336,2717],[360,2661],[384,2615],[408,2558],[456,2515],[496,2474],[544,1693],[664,1651],[816,1615],[912,1385],[1136,1359]],"compare":[[0,2205],[264,2158],[280,2107],[304,2050],[360,2008],[408,1963],[496,1913],[528,1845],[584,1170],[912,877]],"shuffle":[[0,2392],[280,2359],[336,2313],[376,2233],[384,2191],[408,2120],[424,2052],[456,2011],[520,1995],[584,1253],[728,1213],[776,1168],[848,1113],[976,1099],[1152,1131]],"lab":[[0,2937],[272,2868],[304,2809],[320,2768],[352,2725],[360,2664],[424,2624],[512,2568],[568,2524],[608,2425],[632,2347],[648,2291],[672,2244],[680,2185],[696,2144],[728,2085],[800,2006],[840,1947],[928,1888],[984,1832],[1112,1773],[1184,1714]],"worked":[[0,1877],[280,1817],[288,1768],[328,1698],[352,1656],[376,1608],[384,1565],[416,1522],[496,1478],[536,1435],[568,1376],[584,1258],[632,1179],[912,970],[944,892]],"shift":[[0,2015],[264,1966],[280,1905],[296,1864],[304,1823],[320,1751],[336,1683],[392,1641],[408,1592],[416,1543],[440,1497],[464,1423],[504,1383],[544,1320],[568,1280],[640,1233],[800,1187],[808,1049],[840,992]],"concat":[[0,1944],[272,1886],[280,1825],[296,1755],[312,1695],[336,1651],[344,1584],[368,1543],[376,1497],[384,1455],[432,1373],[456,1333],[496,1284],[544,1221],[616,1176],[624,1135],[704,1088],[736,1048],[1200,1007]],"scaling":[[0,2767],[272,2635],[280,2527],[288,2448],[296,2386],[304,2304],[312,2263],[320,2214],[344,2172],[392,2064],[408,1997],[440,1935],[464,1873],[504,1814],[520,1771],[568,1731],[576,1641],[688,1579],[704,1538],[872,1458],[912,1186]],"positions":[[0,2397],[272,2300],[280,2242],[296,2183],[312,2124],[328,2047],[368,1989],[400,1910],[416,1838],[440,1762],[464,1720],[504,1662],[552,1622],[600,1562],[632,1504],[712,1443],[896,1388]],"recap":[[0,3128],[264,3068],[272,3028],[280,2947],[304,2868],[320,2808],[336,2746],[368,2680],[376,2599],[384,2558],[400,2518],[416,2477],[440,2437],[472,2358],[544,2298],[576,2257],[584,1994],[616,1671],[752,1612],[776,1530],[800,1490],[824,1409],[864,1347],[888,1305],[952,1246],[984,1205],[1000,1165],[1080,1124],[1160,1083],[1280,1024]]};

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
