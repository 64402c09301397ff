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

/** A drawing's size in SVG units, and how many axis labels fit under it. */
interface Frame {
  w: number;
  h: number;
}
/** Drawn twice: wide for a desktop's box, narrow for a phone's, so labels stay 12 px-ish. */
const WIDE: Frame = { w: 800, h: 260 };
const NARROW: Frame = { w: 360, h: 240 };
const PAD = { left: 56, right: 16, top: 16, bottom: 40 };

/** A label's width in SVG units at font-size 12 (a generous average glyph width). */
const labelWidth = (label: string) => label.length * 7;
/** Room kept between two labels. */
const GAP = 12;

/**
 * The x-axis labels that fit: the last one always (it ends at the plot's right
 * edge, so it is never clipped), the first from the plot's left edge, and
 * between them every label whose box clears the one before it and the last.
 */
function axisLabels(f: Frame, labels: string[], xOf: (i: number) => number): string[] {
  const n = labels.length;
  if (n === 0) return [];
  const extent = (i: number): [number, number, 'start' | 'middle' | 'end', number] => {
    const w = labelWidth(labels[i]!);
    if (n > 1 && i === n - 1) return [f.w - PAD.right - w, f.w - PAD.right, 'end', f.w - PAD.right];
    if (i === 0) return [PAD.left - 8, PAD.left - 8 + w, 'start', PAD.left - 8];
    const x = xOf(i);
    return [x - w / 2, x + w / 2, 'middle', x];
  };
  const last = extent(n - 1);
  const kept: number[] = [];
  let right = Number.NEGATIVE_INFINITY;
  // Evenly spaced candidates: no more than fit side by side at the widest label.
  const widest = Math.max(...labels.map(labelWidth)) + GAP;
  const slots = Math.max(1, Math.floor((f.w - PAD.left - PAD.right) / widest));
  const every = Math.max(1, Math.ceil(n / slots));
  for (let i = 0; i < n - 1; i += every) {
    const [l, r] = extent(i);
    if (l >= right + GAP && r + GAP <= last[0]) {
      kept.push(i);
      right = r;
    }
  }
  kept.push(n - 1);
  return [...new Set(kept)].map((i) => {
    const [, , anchor, at] = extent(i);
    return `<text x="${at.toFixed(1)}" y="${f.h - PAD.bottom + 18}" text-anchor="${anchor}" font-size="12" fill="#4a5568">${escapeText(labels[i]!)}</text>`;
  });
}

/** Both drawings; CSS shows the one that fits the box (.chart-fit in console.css). */
function fitted(draw: (f: Frame) => string): Html {
  return trusted(
    `<div class="chart-fit"><div class="chart-wide">${draw(WIDE)}</div><div class="chart-narrow">${draw(NARROW)}</div></div>`,
  );
}

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
  return fitted((f) => drawLines(o, f));
}

function drawLines(
  o: { title: string; labels: string[]; series: Series[]; format: (n: number) => string },
  f: Frame,
): string {
  const { w: W, h: H } = f;
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
  parts.push(...axisLabels(f, o.labels, x));
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
  return `<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="${title}" xmlns="http://www.w3.org/2000/svg"><title>${title}</title>${parts.join('')}</svg>`;
}

/** Bars for a pool's hourly peak held numbers against its size. */
interface Bars {
  title: string;
  labels: string[];
  values: number[];
  limit?: number;
  colour: string;
  format: (n: number) => string;
}

export function barChart(o: Bars): Html {
  return fitted((f) => drawBars(o, f));
}

function drawBars(o: Bars, f: Frame): string {
  const { w: W, h: H } = f;
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
  parts.push(...axisLabels(f, o.labels, (i) => PAD.left + i * bw + bw / 2));
  if (o.limit !== undefined) {
    parts.push(
      `<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${y(o.limit)}" y2="${y(o.limit)}" stroke="#b91c1c" stroke-width="2" stroke-dasharray="6 4"/>`,
      `<text x="${W - PAD.right}" y="${y(o.limit) - 6}" text-anchor="end" font-size="12" fill="#b91c1c">${escapeText(`pool size ${o.format(o.limit)}`)}</text>`,
    );
  }
  const title = escapeText(o.title);
  return `<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="${title}" xmlns="http://www.w3.org/2000/svg"><title>${title}</title>${parts.join('')}</svg>`;
}
