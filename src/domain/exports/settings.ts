/**
 * What a conversion is worth and how it is named, from the campaign's
 * `config.conversion` object; every field is optional.
 */
export interface ConversionSettings {
  /** Google Ads: the conversion action's exact name. */
  name: string;
  value: number;
  /** ISO 4217, three capital letters. */
  currency: string;
  /** Meta: the event name (a standard event such as Lead, or a custom one). */
  metaEventName: string;
  /** IANA zone the Google Ads conversion times are written in (with their offset). */
  timeZone: string;
}

export const DEFAULT_CONVERSION: ConversionSettings = {
  name: 'Phone call',
  value: 0,
  currency: 'USD',
  metaEventName: 'Lead',
  timeZone: 'UTC',
};

export type SettingsResult =
  | { ok: true; settings: ConversionSettings }
  | { ok: false; problem: string };

function validZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const isText = (v: unknown, max: number): v is string =>
  typeof v === 'string' && v.trim() !== '' && v.length <= max;

/** Reads `config.conversion`; a field of the wrong shape is a problem, not a silent default. */
export function conversionSettings(config: unknown): SettingsResult {
  const raw =
    typeof config === 'object' && config !== null
      ? (config as Record<string, unknown>).conversion
      : undefined;
  if (raw === undefined || raw === null) return { ok: true, settings: { ...DEFAULT_CONVERSION } };
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    return { ok: false, problem: 'config.conversion must be an object' };
  }
  const c = raw as Record<string, unknown>;
  const s = { ...DEFAULT_CONVERSION };
  if (c.name !== undefined) {
    if (!isText(c.name, 100))
      return { ok: false, problem: 'conversion.name must be 1-100 characters' };
    s.name = c.name;
  }
  if (c.value !== undefined) {
    if (typeof c.value !== 'number' || !Number.isFinite(c.value) || c.value < 0) {
      return { ok: false, problem: 'conversion.value must be a number >= 0' };
    }
    s.value = c.value;
  }
  if (c.currency !== undefined) {
    if (typeof c.currency !== 'string' || !/^[A-Z]{3}$/.test(c.currency)) {
      return { ok: false, problem: 'conversion.currency must be an ISO 4217 code such as USD' };
    }
    s.currency = c.currency;
  }
  if (c.meta_event_name !== undefined) {
    if (!isText(c.meta_event_name, 50)) {
      return { ok: false, problem: 'conversion.meta_event_name must be 1-50 characters' };
    }
    s.metaEventName = c.meta_event_name;
  }
  if (c.time_zone !== undefined) {
    if (typeof c.time_zone !== 'string' || !validZone(c.time_zone)) {
      return { ok: false, problem: 'conversion.time_zone must be an IANA time zone name' };
    }
    s.timeZone = c.time_zone;
  }
  return { ok: true, settings: s };
}
