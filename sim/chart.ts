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
  markers.forEach((m, i) => {
    const rec = m.label === 'recommended';
    const color = rec ? '#ff7f0e' : '#9467bd';
    out.push(
      `<line x1="${x(m.size)}" x2="${x(m.size)}" y1="${M.top}" y2="${H - M.bottom}" stroke="${color}" stroke-width="1.5" stroke-dasharray="${rec ? '' : '4 3'}"/>`,
    );
    out.push(
      `<text x="${x(m.size) + 4}" y="${H - M.bottom - 10 - 18 * i}" fill="${color}" font-size="13">${esc(m.label)} ${m.size}</text>`,
    );
  });
  for (const [pick, color] of [
    [notWrong, '#d62728'],
    [acc, '#1f77b4'],
  ] as const) {
    out.push(`<path d="${path(pick)}" fill="none" stroke="${color}" stroke-width="2.5"/>`);
    for (const r of rows)
      out.push(`<circle cx="${x(r.size)}" cy="${y(pick(r))}" r="4" fill="${color}"/>`);
  }
  for (const r of rows) {
    out.push(
      `<text x="${x(r.size)}" y="${y(r.accuracy) + 20}" text-anchor="middle" font-size="12" fill="#1f77b4">${(r.accuracy * 100).toFixed(1)}%</text>`,
    );
  }
  const legend = [
    ['measured accuracy', '#1f77b4'],
    ['1 − wrong-visitor share', '#d62728'],
    [`target ${(target * 100).toFixed(0)}%`, '#2ca02c'],
    ['recommended size', '#ff7f0e'],
    ['vendor rules of thumb', '#9467bd'],
  ];
  legend.forEach(([name, color], i) => {
    const ly = M.top + 20 + i * 24;
    out.push(
      `<line x1="${W - M.right + 15}" x2="${W - M.right + 45}" y1="${ly - 5}" y2="${ly - 5}" stroke="${color}" stroke-width="3"/>`,
    );
    out.push(`<text x="${W - M.right + 52}" y="${ly}">${esc(name!)}</text>`);
  });
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}
