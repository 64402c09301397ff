import type { ConversionSettings } from './settings.js';
import type { ConversionRow } from './types.js';

/** Meta's Conversions API refuses events whose event_time is more than 7 days old. */
export const META_MAX_AGE_MS = 7 * 86_400_000;

export interface MetaEvent {
  event_name: string;
  event_time: number;
  event_id: string;
  action_source: 'phone_call';
  user_data: { fbc?: string; fbp?: string };
  custom_data: { value: number; currency: string };
}

export type MetaResult = { event: MetaEvent } | { skipped: 'no_click_id' | 'too_old' };

export function metaEvent(row: ConversionRow, s: ConversionSettings, now: Date): MetaResult {
  if (!row.fbc && !row.fbp) return { skipped: 'no_click_id' };
  if (now.getTime() - row.startedAt.getTime() > META_MAX_AGE_MS) return { skipped: 'too_old' };
  return {
    event: {
      event_name: s.metaEventName,
      event_time: Math.floor(row.startedAt.getTime() / 1000),
      event_id: row.eventId,
      action_source: 'phone_call',
      user_data: { ...(row.fbc ? { fbc: row.fbc } : {}), ...(row.fbp ? { fbp: row.fbp } : {}) },
      custom_data: { value: s.value, currency: s.currency },
    },
  };
}

/**
 * The request body Meta takes, one event per line so it can be written as it is read:
 * `{"data":[` + `\n<event>` for the first event, `,\n<event>` for the others + `\n]}\n`, and
 * `{"data":[]}\n` with no event (not an empty line inside the brackets).
 */
export const META_OPEN = '{"data":[';
export const metaSeparator = (index: number) => (index === 0 ? '\n' : ',\n');
export const metaClose = (events: number) => (events === 0 ? ']}\n' : '\n]}\n');
