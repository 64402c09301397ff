import { AREA_CODES } from './tables.js';
import { canonicalZone, isValidTimeZone } from './tz.js';

export interface ResolvedLocation {
  resolved: true;
  nanp: boolean;
  npa: number | null;
  /** ISO country of the number's area code; null outside the NANP. */
  country: string | null;
  /** USPS code when US law applies (a state, DC or a territory); null otherwise. */
  state: string | null;
  /** The area code's region (state, province or country); null outside the NANP. */
  region: string | null;
  /** Area-code zones first, then `lead_timezone` if it adds one. */
  zones: string[];
  area_code_zones: string[];
  lead_timezone: string | null;
}

export interface UnresolvedLocation {
  resolved: false;
  nanp: boolean;
  npa: number | null;
  reason: 'malformed_number' | 'unknown_area_code' | 'no_zone_for_non_nanp_number';
  zones: [];
  lead_timezone: string | null;
}

export type Location = ResolvedLocation | UnresolvedLocation;

function addZone(zones: string[], zone: string): string[] {
  const canonical = canonicalZone(zone);
  return zones.some((z) => canonicalZone(z) === canonical) ? zones : [...zones, zone];
}

/**
 * Candidate zones and state for a number (compliance-rules.md Part A point 4, Part B §3.5).
 * `lead_timezone` adds a zone and never replaces the area code's. NANP numbers whose area code is
 * not a listed geographic one (toll-free, 5XX, 900, a code newer than the table) stay unresolved
 * even with a `lead_timezone`: no state could be presumed, so state rules could not be applied.
 * An invalid `lead_timezone` is a validation error upstream (422) and throws here.
 */
export function resolveLocation(e164: string, leadTimezone?: string): Location {
  if (leadTimezone !== undefined && !isValidTimeZone(leadTimezone)) {
    throw new RangeError(`unknown time zone: ${leadTimezone}`);
  }
  const lead = leadTimezone ?? null;
  const unresolved = (
    reason: UnresolvedLocation['reason'],
    nanp: boolean,
    npa: number | null,
  ): UnresolvedLocation => ({ resolved: false, nanp, npa, reason, zones: [], lead_timezone: lead });

  if (!/^\+[1-9]\d{1,14}$/.test(e164)) return unresolved('malformed_number', false, null);
  if (e164.startsWith('+1')) {
    if (e164.length !== 12) return unresolved('malformed_number', true, null);
    const npa = Number(e164.slice(2, 5));
    const entry = AREA_CODES.get(npa);
    if (!entry) return unresolved('unknown_area_code', true, npa);
    const areaZones = [...entry.zones];
    return {
      resolved: true,
      nanp: true,
      npa,
      country: entry.country,
      state: entry.us ? entry.region : null,
      region: entry.region,
      zones: lead ? addZone(areaZones, lead) : areaZones,
      area_code_zones: areaZones,
      lead_timezone: lead,
    };
  }
  if (!lead) return unresolved('no_zone_for_non_nanp_number', false, null);
  return {
    resolved: true,
    nanp: false,
    npa: null,
    country: null,
    state: null,
    region: null,
    zones: [lead],
    area_code_zones: [],
    lead_timezone: lead,
  };
}
