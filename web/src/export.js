// Exports of the current view: a figure (PNG through the view's figure(), SVG where it has one) and
// its numbers as CSV (matrices as rows, series as columns; groups one after another).

// RFC 4180: a cell holding a comma, a quote or a line break is quoted, quotes doubled. A cell that
// a spreadsheet would read as a formula (= + - @ at the start, also after a tab or CR) gets a
// leading ' so that opening the file never runs anything. Numbers are written as numbers.
export function csvCell(v) {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return v === -Infinity ? '-inf' : v === Infinity ? 'inf' : String(v);
  let s = String(v);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
const row = (cells) => cells.map(csvCell).join(',');

export function toCsv(d) {
  if (!d) return '';
  if (d.kind === 'group')
    return d.parts
      .filter(Boolean)
      .map((p) => `${row([`# ${p.name}`])}\r\n${toCsv(p)}`)
      .join('\r\n');
  const lines = [];
  if (d.kind === 'matrix') {
    lines.push(row([`${d.rowLabel}\\${d.colLabel}`, ...Array.from({ length: d.cols }, (_, c) => c)]));
    for (let r = 0; r < d.rows; r++) lines.push(row([r, ...d.values.slice(r * d.cols, (r + 1) * d.cols)]));
  } else if (d.kind === 'series') {
    for (const s of d.series) {
      lines.push(row([`# ${s.label}`]), row([d.xLabel || 'x', 'value']));
      s.x.forEach((x, i) => lines.push(row([x, s.y[i]])));
    }
  } else if (d.kind === 'lab') {
    lines.push(
      row(['words', d.words.join(' ')]),
      row(['order', d.order.join(' ')]),
      row(['encoding', 'max attention diff', 'max output diff', 'pooled cosine']),
    );
    for (const s of d.sides) lines.push(row([s.encoding, s.maxAttentionDiff, s.maxOutputDiff, s.pooledCosine]));
  } else {
    return JSON.stringify(d);
  }
  return lines.join('\r\n');
}

/**
 * The whole figure as a canvas at `scale` × its on-screen size. Views provide figure(); until every
 * view has it, the shell composes the view's main canvas under its title on the themed paper.
 */
export async function figureCanvas(api, host, { scale = 2 } = {}) {
  if (typeof api.figure === 'function') return await api.figure({ scale });
  const src = api.canvas?.() ?? host.querySelector('canvas');
  const css = getComputedStyle(host);
  const colour = (name, fallback) => css.getPropertyValue(name).trim() || fallback;
  const title = host.querySelector('h2')?.textContent ?? '';
  const caption = src?.closest('figure')?.querySelector('figcaption')?.textContent ?? '';
  const box = src?.getBoundingClientRect() ?? { width: 320, height: 0 };
  const w = Math.max(320, Math.round(box.width));
  const h = Math.round(box.height);
  const head = caption ? 52 : 34;
  const out = document.createElement('canvas');
  out.width = w * scale;
  out.height = (head + h + 8) * scale;
  const g = out.getContext('2d');
  g.scale(scale, scale);
  g.fillStyle = colour('--paper', '#fff');
  g.fillRect(0, 0, w, head + h + 8);
  g.fillStyle = colour('--ink', '#000');
  g.font = `600 18px ${css.fontFamily || 'sans-serif'}`;
  g.textBaseline = 'top';
  g.fillText(title, 4, 6, w - 8);
  if (caption) {
    g.font = `13px ${css.fontFamily || 'sans-serif'}`;
    g.fillStyle = colour('--muted', '#555');
    g.fillText(caption, 4, 30, w - 8);
  }
  if (src && h) {
    // A data-sized heatmap is scaled up cell by cell, as on screen.
    g.imageSmoothingEnabled = src.width >= w;
    g.drawImage(src, 0, head, w, h);
  }
  return out;
}

export async function svgOf(api) {
  return typeof api.svg === 'function' ? await api.svg() : '';
}
