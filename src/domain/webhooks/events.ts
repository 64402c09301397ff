/**
 * The event types and the envelope every receiver gets. The shape of each `data` is fixed by
 * src/domain/webhooks/schemas.ts and documented in docs/webhooks.md; fields are only ever added.
 */
import { EVENT_TYPES, type EventType } from '../vocabulary.js';

export { EVENT_TYPES, type EventType };

export const isEventType = (value: string): value is EventType =>
  (EVENT_TYPES as readonly string[]).includes(value);

/** Standard Webhooks' recommended body: type, timestamp, data (plus our id and organization). */
export interface Envelope {
  id: string;
  type: EventType;
  timestamp: string;
  org_id: string;
  data: Record<string, unknown>;
}

export function envelope(
  id: string,
  orgId: string,
  type: EventType,
  at: Date,
  data: Record<string, unknown>,
): Envelope {
  return { id, type, timestamp: at.toISOString(), org_id: orgId, data };
}

/** Whether an endpoint subscribed to `events` receives `type`. */
export function subscribed(events: readonly string[], type: string): boolean {
  return events.includes('*') || events.includes(type);
}
