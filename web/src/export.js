// CSV of a view's export payload (matrices as rows, series as columns; groups one after another).
const cell = (v) => (v === null || v === undefined ? '' : v === -Infinity ? '-inf' : String(v));

export function toCsv(d) {
  if (!d) return '';
  if (d.kind === 'group') return d.parts.map((p) => `# ${p.name}\n${toCsv(p)}`).join('\n');
  if (d.kind === 'matrix') {
    const lines = [`${d.rowLabel}\\${d.colLabel},${Array.from({ length: d.cols }, (_, c) => c).join(',')}`];
    for (let r = 0; r < d.rows; r++) lines.push(`${r},${d.values.slice(r * d.cols, (r + 1) * d.cols).map(cell).join(',')}`);
    return lines.join('\n');
  }
  if (d.kind === 'series') {
    const lines = [];
    for (const s of d.series) {
      lines.push(`# ${s.label}`, `${d.xLabel || 'x'},value`);
      s.x.forEach((x, i) => lines.push(`${x},${cell(s.y[i])}`));
    }
    return lines.join('\n');
  }
  if (d.kind === 'lab') {
    const lines = [`words,${d.words.join(' ')}`, `order,${d.order.join(' ')}`, 'encoding,max attention diff,max output diff,pooled cosine'];
    for (const s of d.sides) lines.push(`${s.encoding},${s.maxAttentionDiff},${s.maxOutputDiff},${s.pooledCosine}`);
    return lines.join('\n');
  }
  return JSON.stringify(d);
}
