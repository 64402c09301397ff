import { escapeText, type Html, trusted } from './html.js';

/**
 * A line chart as inline SVG, drawn on the server: no chart library to ship,
 * nothing for the CSP to allow, and it prints. Colours are presentation
 * attributes (a style attribute would need 'unsafe-inline').
 */
export interface Series {
  name: string;
  colour: string;
  values: number[];
}

const W = 800;
const H = 260;
const PAD = { left: 56, right: 16, top: 16, bottom: 40 };

/** 1, 2 or 5 times a power of ten: ticks a person reads at a glance. */
function niceStep(max: number, ticks: number): number {
  const raw = Math.max(max, 1) / ticks;
  const p = 10 ** Math.floor(Math.log10(raw));
  return ([1, 2, 5, 10].find((m) => m * p >= raw) ?? 10) * p;
}

export function lineChart(o: {
  title: string;
  labels: string[];
  series: Series[];
  format: (n: number) => string;
}): Html {
  const n = o.labels.length;
  const max = Math.max(0, ...o.series.flatMap((s) => s.values));
  const step = niceStep(max, 4);
  const top = Math.max(step, Math.ceil(max / step) * step);
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const x = (i: number) => PAD.left + (n <= 1 ? plotW / 2 : (i * plotW) / (n - 1));
  const y = (v: number) => PAD.top + plotH - (v / top) * plotH;
  const parts: string[] = [];
  for (let v = 0; v <= top + 1e-9; v += step) {
    parts.push(
      `<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${y(v)}" y2="${y(v)}" stroke="#d5dae1" stroke-width="1"/>`,
      `<text x="${PAD.left - 8}" y="${y(v) + 4}" text-anchor="end" font-size="12" fill="#4a5568">${escapeText(o.format(v))}</text>`,
    );
  }
  const every = Math.max(1, Math.ceil(n / 8));
  o.labels.forEach((label, i) => {
    if (i % every !== 0 && i !== n - 1) return;
    parts.push(
      `<text x="${x(i)}" y="${H - PAD.bottom + 18}" text-anchor="middle" font-size="12" fill="#4a5568">${escapeText(label)}</text>`,
    );
  });
  for (const s of o.series) {
    const points = s.values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
    parts.push(
      `<polyline fill="none" stroke="${s.colour}" stroke-width="2.5" stroke-linejoin="round" points="${points}"/>`,
    );
    s.values.forEach((v, i) => {
      parts.push(
        `<circle cx="${x(i).toFixed(1)}" cy="${y(v).toFixed(1)}" r="3" fill="${s.colour}"><title>${escapeText(`${s.name}, ${o.labels[i]}: ${o.format(v)}`)}</title></circle>`,
      );
    });
  }
  const title = escapeText(o.title);
  return trusted(
    `<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="${title}" xmlns="http://www.w3.org/2000/svg"><title>${title}</title>${parts.join('')}</svg>`,
  );
}

/** Bars for a pool's hourly peak held numbers against its size. */
export function barChart(o: {
  title: string;
  labels: string[];
  values: number[];
  limit?: number;
  colour: string;
  format: (n: number) => string;
}): Html {
  const n = o.values.length;
  const max = Math.max(o.limit ?? 0, 0, ...o.values);
  const step = niceStep(max, 4);
  const top = Math.max(step, Math.ceil(max / step) * step);
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const y = (v: number) => PAD.top + plotH - (v / top) * plotH;
  const bw = n > 0 ? plotW / n : plotW;
  const parts: string[] = [];
  for (let v = 0; v <= top + 1e-9; v += step) {
    parts.push(
      `<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${y(v)}" y2="${y(v)}" stroke="#d5dae1" stroke-width="1"/>`,
      `<text x="${PAD.left - 8}" y="${y(v) + 4}" text-anchor="end" font-size="12" fill="#4a5568">${escapeText(o.format(v))}</text>`,
    );
  }
  o.values.forEach((v, i) => {
    const h = Math.max(0, PAD.top + plotH - y(v));
    parts.push(
      `<rect x="${(PAD.left + i * bw + bw * 0.1).toFixed(1)}" y="${y(v).toFixed(1)}" width="${Math.max(1, bw * 0.8).toFixed(1)}" height="${h.toFixed(1)}" fill="${o.colour}"><title>${escapeText(`${o.labels[i]}: ${o.format(v)}`)}</title></rect>`,
    );
  });
  const every = Math.max(1, Math.ceil(n / 8));
  o.labels.forEach((label, i) => {
    if (i % every !== 0) return;
    parts.push(
      `<text x="${(PAD.left + i * bw + bw / 2).toFixed(1)}" y="${H - PAD.bottom + 18}" text-anchor="middle" font-size="12" fill="#4a5568">${escapeText(label)}</text>`,
    );
  });
  if (o.limit !== undefined) {
    parts.push(
      `<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${y(o.limit)}" y2="${y(o.limit)}" stroke="#b91c1c" stroke-width="2" stroke-dasharray="6 4"/>`,
      `<text x="${W - PAD.right}" y="${y(o.limit) - 6}" text-anchor="end" font-size="12" fill="#b91c1c">${escapeText(`pool size ${o.format(o.limit)}`)}</text>`,
    );
  }
  const title = escapeText(o.title);
  return trusted(
    `<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="${title}" xmlns="http://www.w3.org/2000/svg"><title>${title}</title>${parts.join('')}</svg>`,
  );
}
