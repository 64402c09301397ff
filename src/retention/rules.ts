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
