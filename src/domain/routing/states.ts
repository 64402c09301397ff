import { resolveLocation } from '../compliance/location.js';
import { AREA_CODES } from '../compliance/tables.js';

/**
 * The codes a caller's state can be read as: the US states, DC and the territories that have
 * area codes, as the outbound gate reads a number (compliance/location.ts). A buyer's `states`
 * takes only these, since no caller could be read as any other.
 */
export const US_STATE_CODES: ReadonlySet<string> = new Set(
  [...AREA_CODES.values()].filter((e) => e.us).map((e) => e.region),
);

export function usStateProblem(v: unknown): string | null {
  return typeof v === 'string' && US_STATE_CODES.has(v)
    ? null
    : 'must be the two-letter code of a US state or territory, such as CA or PR';
}

/** The caller's state read from their number as the outbound gate reads it; null: unknown. */
export function callerState(e164: string): string | null {
  const location = resolveLocation(e164);
  return location.resolved ? location.state : null;
}
