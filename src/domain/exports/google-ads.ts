import { googleDateTime } from '../conversions/facts.js';
import { csvText } from '../text/csv.js';
import type { ConversionSettings } from './settings.js';
import type { ConversionRow } from './types.js';

/** Google's click ids are URL-safe base64; anything else would not upload, and could be a formula. */
const GCLID = /^[A-Za-z0-9_-]{1,512}$/;

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

export function googleAdsHeader(settings: ConversionSettings): string {
  return csvText([[`Parameters:TimeZone=${settings.timeZone}`], GOOGLE_ADS_COLUMNS], '\n');
}

/** One CSV line, or null when the call has no usable gclid. */
export function googleAdsRow(row: ConversionRow, s: ConversionSettings): string | null {
  if (!row.gclid || !GCLID.test(row.gclid)) return null;
  return csvText(
    [[row.gclid, s.name, conversionTime(row.startedAt, s.timeZone), s.value, s.currency]],
    '\n',
  );
}
