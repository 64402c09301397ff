import type { Store } from '../store/db.js';

/**
 * The retention rules: each deletes at most `batch` rows in one short
 * statement, so no lock or transaction outlives a few milliseconds and the
 * embedded store (which runs queries on the event loop) keeps serving between
 * batches. The audit log, calls, buyer reports, touches and consents are
 * records of what happened and are never deleted here.
 */

export const DAY_MS = 86_400_000;

export interface BatchResult {
  deleted: number;
  /** Nothing left to delete now. */
  done: boolean;
  /** Where the next batch of a cursor rule starts ('' for the others). */
  cursor: string;
}

/** The smallest id created at `ms` (src/domain/ids.ts: prefix, 12 hex digits of milliseconds). */
export function idFloor(prefix: string, ms: number): string {
  return `${prefix}_${Math.max(0, Math.floor(ms)).toString(16).padStart(12, '0')}`;
}

async function countDeleted(store: Store, sql: string, params: unknown[]) {
  const [row] = await store.query<{ n: number; last: string | null }>(sql, params);
  return { n: Number(row?.n ?? 0), last: row?.last ?? null };
}

/**
 * DNI sessions that expired more than `days` ago, unless a recorded call
 * points at one (reports and conversion exports read its click ids). Ids are
 * time-ordered, so the scan walks the primary key from `after` up to the
 * cutoff and never needs an index of its own on this, the busiest table.
 */
export async function pruneSessions(
  store: Store,
  o: { nowMs: number; days: number; batch: number; after: string },
): Promise<BatchResult> {
  const cutoff = new Date(o.nowMs - o.days * DAY_MS);
  const { n, last } = await countDeleted(
    store,
    `with victims as (
       select s.id from dni_sessions s
        where s.id > $1 and s.id < $2 and s.expires_at < $3
          and not exists (select 1 from calls c where c.dni_session_id = s.id)
        order by s.id limit $4
     ), gone as (
       delete from dni_sessions d using victims v where d.id = v.id returning d.id
     )
     select count(*)::int as n, max(id) as last from gone`,
    [o.after, idFloor('ds', cutoff.getTime()), cutoff, o.batch],
  );
  return { deleted: n, done: n < o.batch, cursor: last ?? o.after };
}

/** Idempotency records past their 24 hours (contract: a key is kept 24 h). */
export async function pruneIdempotency(
  store: Store,
  o: { nowMs: number; batch: number },
): Promise<BatchResult> {
  const { n } = await countDeleted(
    store,
    `with victims as (
       select org_id, campaign_id, key from outbound_idempotency
        where expires_at <= $1 order by expires_at limit $2
     ), gone as (
       delete from outbound_idempotency i using victims v
        where i.org_id = v.org_id and i.campaign_id = v.campaign_id and i.key = v.key
        returning 1
     )
     select count(*)::int as n, null as last from gone`,
    [new Date(o.nowMs), o.batch],
  );
  return { deleted: n, done: n < o.batch, cursor: '' };
}

/** Dispatch jobs finished (done or dead) more than `days` ago; the touch keeps the outcome. */
export async function pruneDispatchJobs(
  store: Store,
  o: { nowMs: number; days: number; batch: number },
): Promise<BatchResult> {
  const { n } = await countDeleted(
    store,
    `with victims as (
       select id from dispatch_jobs
        where state <> 'pending' and updated_at < $1 order by updated_at limit $2
     ), gone as (
       delete from dispatch_jobs j using victims v where j.id = v.id returning 1
     )
     select count(*)::int as n, null as last from gone`,
    [new Date(o.nowMs - o.days * DAY_MS), o.batch],
  );
  return { deleted: n, done: n < o.batch, cursor: '' };
}

/** The simulated carrier's ledger, on the dispatch jobs' schedule (ids are time-ordered). */
export async function pruneSimulatedMessages(
  store: Store,
  o: { nowMs: number; days: number; batch: number },
): Promise<BatchResult> {
  const cutoff = o.nowMs - o.days * DAY_MS;
  const { n } = await countDeleted(
    store,
    `with victims as (
       select id from simulated_carrier_messages
        where id < $1 and last_request_at < $2 order by id limit $3
     ), gone as (
       delete from simulated_carrier_messages m using victims v where m.id = v.id returning 1
     )
     select count(*)::int as n, null as last from gone`,
    [idFloor('sim', cutoff), new Date(cutoff), o.batch],
  );
  return { deleted: n, done: n < o.batch, cursor: '' };
}

/**
 * Webhook deliveries that became final (delivered, or failed: given up after the last attempt
 * or refused with 410) more than `days` ago, with their attempts and, when no other delivery
 * of it is left, their event, in one statement. A final row's `updated_at` is when it became
 * final: only a replay writes it again, and a replay makes it pending. Pending deliveries
 * (retrying, leased, or waiting for a disabled endpoint to be enabled) are never deleted, nor
 * is an event one of them belongs to; the delete repeats the tests on the row it locks, so a
 * delivery replayed while the statement runs stays. A batch is `batch` deliveries, their
 * attempts (at most WEBHOOK_MAX_ATTEMPTS each per send, usually one) and at most `batch`
 * events. Ids go in arrays (`= any(array(…))`) so every step is an index lookup: a join on
 * the CTE let the planner hash-join the whole table.
 */
export async function pruneWebhookDeliveries(
  store: Store,
  o: { nowMs: number; days: number; batch: number },
): Promise<BatchResult & { attempts: number; events: number }> {
  const cutoff = new Date(o.nowMs - o.days * DAY_MS);
  const [row] = await store.query<{ n: number; attempts: number; events: number }>(
    `with gone as (
       delete from webhook_deliveries d
        where d.id = any(array(
            select id from webhook_deliveries
             where state <> 'pending' and updated_at < $1 order by updated_at limit $2))
          and d.state <> 'pending' and d.updated_at < $1
        returning d.id, d.event_id
     ), attempts as (
       delete from webhook_attempts a where a.delivery_id = any(array(select id from gone))
       returning 1
     ), events as (
       delete from webhook_events e
        where e.id = any(array(select event_id from gone)) and e.created_at < $1
          and not exists (
            select 1 from webhook_deliveries d
             where d.event_id = e.id and d.id not in (select id from gone))
        returning 1
     )
     select (select count(*)::int from gone) as n, (select count(*)::int from attempts) as attempts,
       (select count(*)::int from events) as events`,
    [cutoff, o.batch],
  );
  const n = Number(row?.n ?? 0);
  return {
    deleted: n,
    attempts: Number(row?.attempts ?? 0),
    events: Number(row?.events ?? 0),
    done: n < o.batch,
    cursor: '',
  };
}

/**
 * Webhook events older than `days` that no delivery points at: their endpoints were deleted,
 * taking the deliveries along (an event whose deliveries the rule above deletes goes with its
 * last one). Event ids are time-ordered, so the scan walks the primary key from a cursor like
 * the session rule's and does not read again, each batch, the old events still kept for a
 * pending delivery.
 */
export async function pruneWebhookEvents(
  store: Store,
  o: { nowMs: number; days: number; batch: number; after: string },
): Promise<BatchResult> {
  const cutoff = new Date(o.nowMs - o.days * DAY_MS);
  const { n, last } = await countDeleted(
    store,
    `with gone as (
       delete from webhook_events x
        where x.id = any(array(
            select e.id from webhook_events e
             where e.id > $1 and e.id < $2 and e.created_at < $3
               and not exists (select 1 from webhook_deliveries d where d.event_id = e.id)
             order by e.id limit $4))
        returning x.id
     )
     select count(*)::int as n, max(id) as last from gone`,
    [o.after, idFloor('msg', cutoff.getTime()), cutoff, o.batch],
  );
  return { deleted: n, done: n < o.batch, cursor: last ?? o.after };
}

/**
 * Not a deletion: folds the report deltas (up to `batch` of each kind) into the rollups
 * (report_compact, migration 0022), so reports read few delta rows. On the retention round
 * because that is the one leased loop; reports are exact whether or not it has run.
 */
export async function foldReportDeltas(store: Store, o: { batch: number }): Promise<BatchResult> {
  const [row] = await store.query<{ n: number }>('select report_compact($1) as n', [o.batch]);
  const n = Number(row?.n ?? 0);
  return { deleted: n, done: n < o.batch, cursor: '' };
}
