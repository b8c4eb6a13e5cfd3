// A small hand-written SVG line chart: lookup p50 and p99 against table size (log x), one
// colour per database, solid p50 and dashed p99, circles for "none active" and squares for
// "active". No chart library: the output is a few kilobytes of plain SVG.

export interface Series {
  label: string;
  color: string;
  dashed: boolean;
  marker: 'circle' | 'square';
  points: { x: number; y: number }[];
}

const W = 720;
const H = 420;
const M = { left: 64, right: 220, top: 40, bottom: 56 };

const esc = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
const fmt = (n: number) => (Number.isFinite(n) ? Number(n.toFixed(1)) : 0);

/** A "nice" upper bound for the y axis and its tick step. */
function niceScale(max: number): { top: number; step: number } {
  const raw = max / 5 || 1;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((f) => f * mag).find((s) => s >= raw) ?? 10 * mag;
  return { top: Math.ceil(max / step) * step || step, step };
}

/** Renders the chart; `title` and `subtitle` go on top, axes are labelled. */
export function lineChart(options: {
  title: string;
  subtitle: string;
  xLabel: string;
  yLabel: string;
  series: Series[];
}): string {
  const all = options.series.flatMap((s) => s.points).filter((p) => Number.isFinite(p.y));
  const xs = all.map((p) => Math.log10(p.x));
  const xMin = Math.floor(Math.min(...xs, 3));
  const xMax = Math.ceil(Math.max(...xs, xMin + 1));
  const { top, step } = niceScale(Math.max(...all.map((p) => p.y), 0.001));
  const plotW = W - M.left - M.right;
  const plotH = H - M.top - M.bottom;
  const px = (x: number) => M.left + ((Math.log10(x) - xMin) / (xMax - xMin)) * plotW;
  const py = (y: number) => M.top + plotH - (y / top) * plotH;

  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="system-ui, sans-serif" font-size="12">`,
    `<rect width="${W}" height="${H}" fill="#fff"/>`,
    `<text x="${M.left}" y="18" font-size="15" font-weight="600">${esc(options.title)}</text>`,
    `<text x="${M.left}" y="33" fill="#555">${esc(options.subtitle)}</text>`,
  );
  for (let y = 0; y <= top + step / 2; y += step) {
    out.push(
      `<line x1="${M.left}" x2="${M.left + plotW}" y1="${fmt(py(y))}" y2="${fmt(py(y))}" stroke="#e5e5e5"/>`,
      `<text x="${M.left - 6}" y="${fmt(py(y) + 4)}" text-anchor="end" fill="#333">${Number(y.toPrecision(3))}</text>`,
    );
  }
  for (let e = xMin; e <= xMax; e++) {
    const x = fmt(px(10 ** e));
    out.push(
      `<line x1="${x}" x2="${x}" y1="${M.top}" y2="${M.top + plotH}" stroke="#e5e5e5"/>`,
      `<text x="${x}" y="${M.top + plotH + 16}" text-anchor="middle" fill="#333">10<tspan dy="-5" font-size="9">${e}</tspan></text>`,
    );
  }
  out.push(
    `<rect x="${M.left}" y="${M.top}" width="${plotW}" height="${plotH}" fill="none" stroke="#999"/>`,
    `<text x="${M.left + plotW / 2}" y="${H - 14}" text-anchor="middle">${esc(options.xLabel)}</text>`,
    `<text transform="translate(16 ${M.top + plotH / 2}) rotate(-90)" text-anchor="middle">${esc(options.yLabel)}</text>`,
  );
  options.series.forEach((s, i) => {
    const pts = s.points.filter((p) => Number.isFinite(p.y)).sort((a, b) => a.x - b.x);
    const path = pts.map((p) => `${fmt(px(p.x))},${fmt(py(p.y))}`).join(' ');
    const dash = s.dashed ? ' stroke-dasharray="6 4"' : '';
    out.push(
      `<polyline points="${path}" fill="none" stroke="${s.color}" stroke-width="2"${dash}/>`,
    );
    for (const p of pts) out.push(marker(s, px(p.x), py(p.y)));
    const ly = M.top + 10 + i * 20;
    const lx = M.left + plotW + 16;
    out.push(
      `<line x1="${lx}" x2="${lx + 28}" y1="${ly}" y2="${ly}" stroke="${s.color}" stroke-width="2"${dash}/>`,
      marker(s, lx + 14, ly),
      `<text x="${lx + 36}" y="${ly + 4}">${esc(s.label)}</text>`,
    );
  });
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}

function marker(s: Series, x: number, y: number): string {
  return s.marker === 'circle'
    ? `<circle cx="${fmt(x)}" cy="${fmt(y)}" r="3.5" fill="${s.color}"/>`
    : `<rect x="${fmt(x - 3.5)}" y="${fmt(y - 3.5)}" width="7" height="7" fill="${s.color}"/>`;
}
