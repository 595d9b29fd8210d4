// Written by examples/heights.mjs from the posenc page's tables (web/src/embed-heights.js embedSteps):
// the box <posenc-view> holds, per view at its default state, as a function of its column width,
// written as the CSS length the page's "Copy embed code" puts in the fallback link's height. Another
// state has another box (embedHeight in web/src/embed-heights.js counts the attributes).

// biome-ignore format: one table
const STEPS = {"heatmap":[[0,1404],[288,1317],[352,1257],[360,1237],[416,1191],[480,1211],[512,1164],[544,1121],[640,1101],[672,1060],[928,794]],"waves":[[0,1700],[288,1582],[352,1456],[360,1439],[416,1371],[480,1309],[544,1237],[640,1259],[672,1200],[800,1179],[928,905],[1000,925]],"similarity":[[0,1700],[480,1929],[608,1392],[640,1395],[736,1337],[800,1318],[960,1260],[1000,1278]],"rotation":[[0,1700],[480,1593],[608,1543],[704,1418],[768,1172],[832,1115]],"bias":[[0,1700],[480,4545],[504,4593],[536,4670],[608,4630],[640,4089],[696,4208],[768,4129],[824,4237],[928,3765],[960,3343],[984,3683],[1056,3016],[1208,3387],[1280,2962]],"learned":[[0,1700],[480,1866],[576,1824],[608,1784],[640,1764],[928,1477]],"extrapolation":[[0,1700],[480,2539],[544,1737],[640,1734],[672,1692],[800,1660],[832,1624],[928,1390],[1000,1441]],"compare":[[0,1700],[480,1983],[512,1928],[544,1886],[608,1190],[640,1177],[928,905]],"shuffle":[[0,1700],[480,2015],[608,1253],[736,1213],[800,1168],[864,1107],[1176,1131]],"lab":[[0,1700],[480,2624],[512,2568],[576,2524],[608,2425],[640,2311],[672,2244],[704,2144],[736,2085],[800,2006],[864,1947],[928,1888],[992,1812],[1152,1753],[1216,1694]],"worked":[[0,1700],[352,1656],[384,1565],[416,1522],[512,1457],[576,1376],[608,1258],[640,1179],[928,970],[960,892]],"shift":[[0,1700],[392,1691],[416,1593],[448,1547],[480,1427],[512,1386],[544,1344],[576,1304],[640,1257],[800,1211],[832,1042],[1056,996]],"concat":[[0,1700],[352,1628],[360,1608],[384,1479],[432,1438],[448,1377],[512,1290],[544,1245],[640,1159],[704,1112],[736,1072],[1216,1031]],"scaling":[[0,1700],[480,1879],[512,1838],[544,1774],[576,1665],[704,1562],[896,1482],[928,1210]],"positions":[[0,1700],[480,1863],[544,1805],[608,1726],[640,1648],[736,1587],[800,1605],[896,1550],[1000,1532],[1208,1865],[1280,1495]],"recap":[[0,1700],[480,2382],[544,2322],[576,2281],[608,2018],[640,1695],[768,1615],[800,1514],[832,1433],[864,1371],[896,1329],[960,1250],[992,1209],[1056,1168],[1120,1127],[1216,1068]]};

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
    // steep: a step of up to 5,000 px is done within 0.05 px of its breakpoint
    if (d > 0) terms.push(`clamp(0px, (${at}px - ${width}) * 100000, ${d}px)`);
    else if (d < 0) terms.push(`clamp(${d}px, (${width} - ${at}px) * 100000, 0px)`);
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
