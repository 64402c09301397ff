import type { Column } from './layout.js';

/**
 * RFC 4180 fields. A text cell that a spreadsheet would read as a formula
 * (=, +, -, @, tab, CR at the start) gets a leading apostrophe: CSV injection.
 */
function field(v: string | number | null | undefined): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return String(v);
  const s = /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function toCsv<T>(columns: Column<T>[], rows: T[]): string {
  const lines = [columns.map((c) => field(c.label)).join(',')];
  for (const r of rows) lines.push(columns.map((c) => field(c.value(r))).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
