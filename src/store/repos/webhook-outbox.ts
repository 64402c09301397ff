import { type SQL, sql } from 'drizzle-orm';
import { newId } from '../../domain/ids.js';
import { type EventType, envelope } from '../../domain/webhooks/events.js';
import type { Executor } from '../db.js';
import { rowsOf } from '../rows.js';

/** drizzle's `execute` answers an array (postgres.js) or `{ rows }` (PGlite). */
export interface NewEvent {
  orgId: string;
  type: EventType;
  data: Record<string, unknown>;
  at: Date;
}

/**
 * Writes an event and its deliveries (one per enabled endpoint of the organization subscribed
 * to the type) in one statement, in the caller's transaction: the event commits with its cause
 * or not at all. Nothing is written when no endpoint wants it. Returns the event id, or null.
 * `gate`, when given, is a statement that must return a row for anything to be written.
 */
export async function emitEvent(ex: Executor, e: NewEvent, gate?: SQL): Promise<string | null> {
  const id = newId('msg', e.at.getTime());
  const body = JSON.stringify(envelope(id, e.orgId, e.type, e.at, e.data));
  const at = e.at.toISOString();
  const [row] = await rowsOf<{ id: string | null }>(
    ex,
    sql`with ${gate ? sql`gate as (${gate}), ` : sql``}ep as (
      select id from webhook_endpoints
       where org_id = ${e.orgId} and enabled
         and (${e.type}::text = any(events) or '*' = any(events))
         ${gate ? sql`and exists (select 1 from gate)` : sql``}
    ), ev as (
      insert into webhook_events (id, org_id, type, payload, created_at)
      select ${id}, ${e.orgId}, ${e.type}, ${body}::jsonb, ${at}::timestamptz
       where exists (select 1 from ep)
      returning id
    ), d as (
      insert into webhook_deliveries (id, event_id, endpoint_id, org_id, state, attempts,
        next_attempt_at, created_at, updated_at)
      select 'wdl_' || md5(ev.id || ':' || ep.id), ev.id, ep.id, ${e.orgId}, 'pending', 0,
        ${at}::timestamptz, ${at}::timestamptz, ${at}::timestamptz
        from ev cross join ep
      returning 1
    )
    select (select id from ev) as id, (select count(*) from d) as n`,
  );
  return row?.id ?? null;
}

/**
 * pool.exhausted at most once per campaign per interval, across processes: the gate row per
 * campaign moves forward only when the interval has passed, in the same statement.
 */
export function poolAlertGate(campaignId: string, at: Date, intervalMs: number): SQL {
  const now = at.toISOString();
  const before = new Date(at.getTime() - intervalMs).toISOString();
  return sql`insert into webhook_pool_alerts (campaign_id, last_at)
      values (${campaignId}, ${now}::timestamptz)
      on conflict (campaign_id) do update set last_at = excluded.last_at
       where webhook_pool_alerts.last_at <= ${before}::timestamptz
      returning 1`;
}

/** Whether any enabled endpoint of the organization takes this event type. */
export async function wantsEvent(ex: Executor, orgId: string, type: EventType): Promise<boolean> {
  const rows = await rowsOf<{ one: number }>(
    ex,
    sql`select 1 as one from webhook_endpoints
         where org_id = ${orgId} and enabled and (${type}::text = any(events) or '*' = any(events))
         limit 1`,
  );
  return rows.length > 0;
}
