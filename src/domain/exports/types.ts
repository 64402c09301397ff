/** A call whose current disposition is success, with its session's click ids. */
export interface ConversionRow {
  callId: string;
  /** The success event that made it a conversion: Meta deduplicates on it. */
  eventId: string;
  /** When the call came in: the conversion time. */
  startedAt: Date;
  gclid: string | null;
  fbc: string | null;
  fbp: string | null;
}

export type ExportFormat = 'google-ads' | 'meta';

export interface ExportCounts {
  /** Successful calls in the range. */
  candidates: number;
  exported: number;
  /** Calls without a click id the format is keyed on (gclid; fbc or fbp). */
  skippedNoClickId: number;
  /** Meta only: calls older than Meta accepts (7 days before the export). */
  skippedTooOld: number;
}

export interface ExportProgress {
  done: number;
  /** Null when the caller did not count the rows first. */
  total: number | null;
}
