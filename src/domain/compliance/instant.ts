import type { Instant } from './types.js';

/** Epoch ms of an instant; ISO strings must carry an offset or `Z` so they are unambiguous. */
export function toMs(instant: Instant): number {
  let ms: number;
  if (typeof instant === 'number') ms = instant;
  else if (instant instanceof Date) ms = instant.getTime();
  else if (/(Z|[+-]\d{2}:?\d{2})$/i.test(instant) && /^\d{4}-\d{2}-\d{2}T/.test(instant)) {
    ms = Date.parse(instant);
  } else ms = Number.NaN;
  if (!Number.isFinite(ms)) throw new RangeError(`not an instant: ${String(instant)}`);
  return ms;
}

export function toIso(ms: number): string {
  return new Date(ms).toISOString();
}
