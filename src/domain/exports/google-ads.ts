import { googleDateTime } from '../conversions/facts.js';
import type { ConversionSettings } from './settings.js';
import type { ConversionRow } from './types.js';

/** Google's click ids are URL-safe base64; anything else would not upload, and could be a formula. */
const GCLID = /^[A-Za-z0-9_-]{1,512}$/;

/** RFC 4180: quote a field that holds a comma, a quote or a line break. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** `yyyy-MM-dd HH:mm:ss±hhmm` in the given zone: the form Google's CSV template asks for. */
export function conversionTime(at: Date, timeZone: string): string {
  // The API's form (src/domain/conversions/facts.ts) has a colon in the offset; the CSV's not.
  return googleDateTime(at, timeZone).replace(/([+-]\d{2}):(\d{2})$/, '$1$2');
}

export const GOOGLE_ADS_COLUMNS = [
  'Google Click ID',
  'Conversion Name',
  'Conversion Time',
  'Conversion Value',
  'Conversion Currency',
];

export function googleAdsHeader(s: ConversionSettings): string {
  return `Parameters:TimeZone=${s.timeZone}\n${GOOGLE_ADS_COLUMNS.join(',')}\n`;
}

/** One CSV line, or null when the call has no usable gclid. */
export function googleAdsRow(row: ConversionRow, s: ConversionSettings): string | null {
  if (!row.gclid || !GCLID.test(row.gclid)) return null;
  return `${[
    row.gclid,
    s.name,
    conversionTime(row.startedAt, s.timeZone),
    String(s.value),
    s.currency,
  ]
    .map(csvField)
    .join(',')}\n`;
}
