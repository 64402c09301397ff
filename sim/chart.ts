import type { RunResult } from './replay.js';

export interface Marker {
  label: string;
  size: number;
}

const W = 900;
const H = 520;
const M = { left: 70, right: 200, top: 50, bottom: 60 };
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/** Accuracy, wrong-visitor and campaign-only shares against pool size, with the target and the advice marked. */
export function chartSvg(title: string, runs: RunResult[], target: number, markers: Marker[]) {
  const rows = [...runs].sort((a, b) => a.size - b.size);
  const maxX = Math.max(...rows.map((r) => r.size), ...markers.map((m) => m.size)) * 1.05;
  const x = (v: number) => M.left + (v / maxX) * (W - M.left - M.right);
  const y = (v: number) => M.top + (1 - v) * (H - M.top - M.bottom);
  const path = (pick: (r: RunResult) => number) =>
    rows
      .map((r, i) => `${i === 0 ? 'M' : 'L'}${x(r.size).toFixed(1)},${y(pick(r)).toFixed(1)}`)
      .join(' ');
  const series = [
    { name: 'accuracy', color: '#1f77b4', pick: (r: RunResult) => r.accuracy },
    {
      name: 'wrong visitor',
      color: '#d62728',
      pick: (r: RunResult) => r.wrongVisitor / Math.max(1, r.calls),
    },
    {
      name: 'campaign only',
      color: '#7f7f7f',
      pick: (r: RunResult) => (r.campaignOnly + r.campaignOnlyUnavoidable) / Math.max(1, r.calls),
    },
  ];
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif" font-size="14">`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
    `<text x="${W / 2}" y="28" text-anchor="middle" font-size="17" font-weight="bold">${esc(title)}</text>`,
  ];
  for (let v = 0; v <= 1.0001; v += 0.1) {
    out.push(
      `<line x1="${M.left}" x2="${W - M.right}" y1="${y(v)}" y2="${y(v)}" stroke="#e5e5e5"/>`,
    );
    out.push(
      `<text x="${M.left - 8}" y="${y(v) + 5}" text-anchor="end">${Math.round(v * 100)}%</text>`,
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
    `<line x1="${M.left}" x2="${W - M.right}" y1="${y(target)}" y2="${y(target)}" stroke="#2ca02c" stroke-dasharray="6 4"/>`,
  );
  markers.forEach((m, i) => {
    const color = i === 0 ? '#ff7f0e' : '#9467bd';
    out.push(
      `<line x1="${x(m.size)}" x2="${x(m.size)}" y1="${M.top}" y2="${H - M.bottom}" stroke="${color}" stroke-dasharray="${i === 0 ? '' : '3 3'}"/>`,
    );
    out.push(
      `<text x="${x(m.size) + 4}" y="${M.top + 16 + 16 * i}" fill="${color}" font-size="12">${esc(m.label)} ${m.size}</text>`,
    );
  });
  for (const s of series) {
    out.push(`<path d="${path(s.pick)}" fill="none" stroke="${s.color}" stroke-width="2.5"/>`);
    for (const r of rows)
      out.push(`<circle cx="${x(r.size)}" cy="${y(s.pick(r))}" r="3" fill="${s.color}"/>`);
  }
  const legend = [...series.map((s) => [s.name, s.color]), [`target ${target * 100}%`, '#2ca02c']];
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
