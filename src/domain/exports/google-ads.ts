import type { ConversionSettings } from './settings.js';
import type { ConversionRow } from './types.js';

/** Google's click ids are URL-safe base64; anything else would not upload, and could be a formula. */
const GCLID = /^[A-Za-z0-9_-]{1,512}$/;

/** RFC 4180: quote a field that holds a comma, a quote or a line break. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** `yyyy-MM-dd HH:mm:ss±hhmm` in the given zone: the form Google's template asks for. */
export function conversionTime(at: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    timeZoneName: 'longOffset',
  }).formatToParts(at);
  const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value;
  // longOffset reads "GMT" at zero and "GMT-05:00" elsewhere.
  const offset = /([+-])(\d{2}):(\d{2})/.exec(get('timeZoneName') ?? '');
  const zone = offset ? `${offset[1]}${offset[2]}${offset[3]}` : '+0000';
  return `${get('year')}-${get('month')}-${get('day')} ${get('hour')}:${get('minute')}:${get('second')}${zone}`;
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
