import { googleAdsHeader, googleAdsRow } from './google-ads.js';
import { META_OPEN, metaClose, metaEvent, metaSeparator } from './meta.js';
import type { ConversionSettings } from './settings.js';
import type { ConversionRow, ExportCounts, ExportFormat, ExportProgress } from './types.js';

export interface ExportOptions {
  format: ExportFormat;
  settings: ConversionSettings;
  /** The export's own time: Meta's 7-day limit counts back from it. */
  now: Date;
  /** The number of rows, when counted first, so progress can show a fraction. */
  total?: number | null;
  onProgress?: (p: ExportProgress) => void;
}

export interface ConversionExport {
  contentType: string;
  extension: string;
  /** Filled in while `chunks` is read; final once it is exhausted. */
  counts: ExportCounts;
  /** The file, piece by piece: write each chunk as it comes. */
  chunks: AsyncGenerator<string, void, undefined>;
}

export const EXPORT_TYPES: Record<ExportFormat, { contentType: string; extension: string }> = {
  'google-ads': { contentType: 'text/csv; charset=utf-8', extension: 'csv' },
  meta: { contentType: 'application/json', extension: 'json' },
};

/**
 * Turns successful calls into a conversion upload file. Rows are read and
 * written one at a time, so a file of any size streams in constant memory.
 */
export function exportConversions(
  rows: AsyncIterable<ConversionRow>,
  o: ExportOptions,
): ConversionExport {
  const counts: ExportCounts = {
    candidates: 0,
    exported: 0,
    skippedNoClickId: 0,
    skippedTooOld: 0,
  };
  const total = o.total ?? null;

  async function* google(): AsyncGenerator<string, void, undefined> {
    yield googleAdsHeader(o.settings);
    for await (const row of rows) {
      counts.candidates++;
      const line = googleAdsRow(row, o.settings);
      if (line === null) counts.skippedNoClickId++;
      else {
        counts.exported++;
        yield line;
      }
      o.onProgress?.({ done: counts.candidates, total });
    }
  }

  async function* meta(): AsyncGenerator<string, void, undefined> {
    yield META_OPEN;
    for await (const row of rows) {
      counts.candidates++;
      const r = metaEvent(row, o.settings, o.now);
      if ('event' in r) {
        yield `${metaSeparator(counts.exported)}${JSON.stringify(r.event)}`;
        counts.exported++;
      } else if (r.skipped === 'too_old') counts.skippedTooOld++;
      else counts.skippedNoClickId++;
      o.onProgress?.({ done: counts.candidates, total });
    }
    yield metaClose(counts.exported);
  }

  return {
    ...EXPORT_TYPES[o.format],
    counts,
    chunks: o.format === 'google-ads' ? google() : meta(),
  };
}

/** Reads a whole export into one string (the admin API answers with the file). */
export async function collectExport(conversionExport: ConversionExport): Promise<string> {
  let out = '';
  for await (const chunk of conversionExport.chunks) out += chunk;
  return out;
}
