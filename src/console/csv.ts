import { csvText } from '../domain/text/csv.js';
import type { Column } from './table.js';

/** A console table as CSV, through the service's one writer (src/domain/text/csv.ts). */
export function toCsv<T>(columns: Column<T>[], rows: T[]): string {
  return csvText([columns.map((c) => c.label), ...rows.map((r) => columns.map((c) => c.value(r)))]);
}
