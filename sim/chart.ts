import type { RunResult } from './replay.js';

export interface Marker {
  label: string;
  size: number;
}

const W = 900;
const H = 520;
const M = { left: 70, right: 230, top: 50, bottom: 60 };
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/** Measured accuracy and wrong-visitor share against pool size, with the target, the advice and the rules of thumb marked. */
export function chartSvg(title: string, runs: RunResult[], target: number, markers: Marker[]) {
  const rows = [...runs].sort((a, b) => a.size - b.size);
  const maxX = Math.max(...rows.map((r) => r.size), ...markers.map((m) => m.size)) * 1.05;
  const x = (v: number) => M.left + (v / maxX) * (W - M.left - M.right);
  // Zoom on the accuracy range: the interesting part is the last few percent.
  const low = Math.min(target, ...rows.map((r) => r.accuracy)) - 0.01;
  const range = 1 - low <= 0.1 ? 0.1 : 1 - low <= 0.2 ? 0.2 : 0.5;
  const grid = range / 10;
  const lo = Math.max(0, Math.floor(low / grid) * grid);
  const y = (v: number) => M.top + ((1 - v) / (1 - lo)) * (H - M.top - M.bottom);
  const acc = (r: RunResult) => r.accuracy;
  const notWrong = (r: RunResult) => 1 - r.wrongVisitor / Math.max(1, r.calls);
  const path = (pick: (r: RunResult) => number) =>
    rows
      .map((r, i) => `${i === 0 ? 'M' : 'L'}${x(r.size).toFixed(1)},${y(pick(r)).toFixed(1)}`)
      .join(' ');
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif" font-size="14">`,
    `<title>Attribution accuracy by pool size: ${esc(title)}</title>`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
    `<text x="${(M.left + W - M.right) / 2}" y="28" text-anchor="middle" font-size="17" font-weight="bold">${esc(title)}</text>`,
  ];
  for (let k = 0; lo + k * grid <= 1.0001; k++) {
    const v = lo + k * grid;
    out.push(
      `<line x1="${M.left}" x2="${W - M.right}" y1="${y(v)}" y2="${y(v)}" stroke="#e5e5e5"/>`,
    );
    out.push(
      `<text x="${M.left - 8}" y="${y(v) + 5}" text-anchor="end">${(v * 100).toFixed(0)}%</text>`,
    );
  }
  const step = 10 ** Math.floor(Math.log10(maxX / 5));
  const tick = [1, 2, 5, 10].map((k) => k * step).find((s) => maxX / s <= 8) ?? step * 10;
  for (let v = 0; v <= maxX; v += tick) {
    out.push(
      `<line x1="${x(v)}" x2="${x(v)}" y1="${H - M.bottom}" y2="${H - M.bottom + 5}" stroke="black"/>`,
    );
    out.push(`<text x="${x(v)}" y="${H - M.bottom + 22}" text-anchor="middle">${v}</text>`);
  }
  out.push(
    `<text x="${(M.left + W - M.right) / 2}" y="${H - 12}" text-anchor="middle">pool size (numbers)</text>`,
  );
  out.push(
    `<rect x="${M.left}" y="${M.top}" width="${W - M.left - M.right}" height="${H - M.top - M.bottom}" fill="none" stroke="black"/>`,
  );
  out.push(
    `<line x1="${M.left}" x2="${W - M.right}" y1="${y(target)}" y2="${y(target)}" stroke="#2ca02c" stroke-width="2" stroke-dasharray="8 4"/>`,
  );
  // Marker lines first, their labels last (over the curves): see below.
  const markerColor = (m: Marker) => (m.label === 'recommended' ? '#ff7f0e' : '#9467bd');
  for (const m of markers) {
    const rec = m.label === 'recommended';
    out.push(
      `<line x1="${x(m.size)}" x2="${x(m.size)}" y1="${M.top}" y2="${H - M.bottom}" stroke="${markerColor(m)}" stroke-width="1.5" stroke-dasharray="${rec ? '' : '4 3'}"/>`,
    );
  }
  // Accuracy under, 1 − wrong-visitor share over it, dashed: where no call was
  // left at campaign level they coincide, and both stay visible.
  out.push(`<path d="${path(acc)}" fill="none" stroke="#1f77b4" stroke-width="3"/>`);
  for (const r of rows)
    out.push(`<circle cx="${x(r.size)}" cy="${y(acc(r))}" r="4.5" fill="#1f77b4"/>`);
  out.push(
    `<path d="${path(notWrong)}" fill="none" stroke="#d62728" stroke-width="2" stroke-dasharray="6 5"/>`,
  );
  // Labels carry a white halo so lines behind them do not cross the digits.
  const halo = 'stroke="white" stroke-width="4" paint-order="stroke"';
  // Marker labels run up along their own line, so neighbouring markers never overlap.
  for (const m of markers) {
    const lx = x(m.size) - 4;
    const ly = H - M.bottom - 6;
    out.push(
      `<text x="${lx}" y="${ly}" transform="rotate(-90 ${lx} ${ly})" fill="${markerColor(m)}" font-size="13" ${halo}>${esc(m.label)} ${m.size}</text>`,
    );
  }
  // Point labels last, over everything. Where the curve climbs to the next
  // point, below and to the right of the point (the segments leave it up and
  // arrive from below-left); elsewhere above it, over a flat or falling curve.
  rows.forEach((r, i) => {
    const next = rows[i + 1];
    const climbs = next !== undefined && y(next.accuracy) < y(r.accuracy) - 4;
    const [lx, ly, anchor] = climbs
      ? [x(r.size) + 7, y(r.accuracy) + 17, 'start']
      : [x(r.size), y(r.accuracy) - 10, 'middle'];
    out.push(
      `<text x="${lx}" y="${ly}" text-anchor="${anchor}" font-size="12" fill="#1f77b4" ${halo}>${(r.accuracy * 100).toFixed(1)}%</text>`,
    );
  });
  const legend = [
    ['measured accuracy', '#1f77b4'],
    ['1 − wrong-visitor share', '#d62728', '6 5'],
    [`target ${(target * 100).toFixed(0)}%`, '#2ca02c', '8 4'],
    [
      markers.some((m) => m.label === 'recommended') ? 'recommended size' : 'recommended: none',
      '#ff7f0e',
    ],
    ['vendor rules of thumb', '#9467bd', '4 3'],
  ];
  legend.forEach(([name, color, dash], i) => {
    const ly = M.top + 20 + i * 24;
    out.push(
      `<line x1="${W - M.right + 15}" x2="${W - M.right + 45}" y1="${ly - 5}" y2="${ly - 5}" stroke="${color}" stroke-width="3"${dash ? ` stroke-dasharray="${dash}"` : ''}/>`,
    );
    out.push(`<text x="${W - M.right + 52}" y="${ly}">${esc(name!)}</text>`);
  });
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}
