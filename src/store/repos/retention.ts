import type { BatchResult, RetentionRepository } from '../../domain/retention/ports.js';
import type { Executor } from '../db.js';
import { positional, rowsOf } from '../rows.js';

/**
 * The retention rules: each deletes at most `batch` rows in one short
 * statement, so no lock or transaction outlives a few milliseconds and the
 * embedded store (which runs queries on the event loop) keeps serving between
 * batches. The audit log, calls, buyer reports, touches and consents are
 * records of what happened and are never deleted here.
 */

export const DAY_MS = 86_400_000;

export type { BatchResult };

/** The smallest id created at `ms` (src/domain/ids.ts: prefix, 12 hex digits of milliseconds). */
export function idFloor(prefix: string, ms: number): string {
  return `${prefix}_${Math.max(0, Math.floor(ms)).toString(16).padStart(12, '0')}`;
}

async function countDeleted(ex: Executor, sql: string, params: unknown[]) {
  const [row] = await rowsOf<{ n: number; last: string | null }>(ex, positional(sql, params));
  return { n: Number(row?.n ?? 0), last: row?.last ?? null };
}

type WalkOptions = { nowMs: number; days: number; batch: number; after: string };

/**
 * A rule that walks a time-ordered primary key from the cursor `o.after` up to the first id of
 * the cutoff (`days` ago), deleting at most `batch` rows: the statement takes $1 the cursor,
 * $2 that id, $3 the cutoff and $4 the batch, and answers `n` deleted and the `last` id.
 */
async function pruneWalking(
  ex: Executor,
  o: WalkOptions,
  idPrefix: string,
  statement: string,
): Promise<BatchResult> {
  const cutoff = new Date(o.nowMs - o.days * DAY_MS);
  const { n, last } = await countDeleted(ex, statement, [
    o.after,
    idFloor(idPrefix, cutoff.getTime()),
    cutoff,
    o.batch,
  ]);
  return { deleted: n, done: n < o.batch, cursor: last ?? o.after };
}

/**
 * DNI sessions that expired more than `days` ago, unless a recorded call
 * points at one (reports and conversion exports read its click ids). Ids are
 * time-ordered, so the scan walks the primary key from `after` up to the
 * cutoff and never needs an index of its own on this, the busiest table.
 */
export function pruneSessions(ex: Executor, o: WalkOptions): Promise<BatchResult> {
  return pruneWalking(
    ex,
    o,
    'ds',
    `with victims as (
       select s.id from dni_sessions s
        where s.id > $1 and s.id < $2 and s.expires_at < $3
          and not exists (select 1 from calls c where c.dni_session_id = s.id)
        order by s.id limit $4
     ), gone as (
       delete from dni_sessions d using victims v where d.id = v.id returning d.id
     )
     select count(*)::int as n, max(id) as last from gone`,
  );
}

/** Idempotency records past their 24 hours (contract: a key is kept 24 h). */
export async function pruneIdempotency(
  ex: Executor,
  o: { nowMs: number; batch: number },
): Promise<BatchResult> {
  const { n } = await countDeleted(
    ex,
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
  ex: Executor,
  o: { nowMs: number; days: number; batch: number },
): Promise<BatchResult> {
  const { n } = await countDeleted(
    ex,
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
  ex: Executor,
  o: { nowMs: number; days: number; batch: number },
): Promise<BatchResult> {
  const cutoff = o.nowMs - o.days * DAY_MS;
  const { n } = await countDeleted(
    ex,
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
  ex: Executor,
  o: { nowMs: number; days: number; batch: number },
): Promise<BatchResult & { attempts: number; events: number }> {
  const cutoff = new Date(o.nowMs - o.days * DAY_MS);
  const [row] = await rowsOf<{ n: number; attempts: number; events: number }>(
    ex,
    positional(
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
    ),
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
export function pruneWebhookEvents(ex: Executor, o: WalkOptions): Promise<BatchResult> {
  return pruneWalking(
    ex,
    o,
    'msg',
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
  );
}

/**
 * A lease row rather than pg_try_advisory_lock: it works on both stores through the same query
 * interface, needs no connection pinned out of the pool, and follows the injected clock in tests.
 */
async function takeLease(ex: Executor, name: string, holder: string, until: Date, now: Date) {
  const rows = await rowsOf<{ holder: string }>(
    ex,
    positional(
      `insert into retention_leases (name, holder, until) values ($1, $2, $3)
       on conflict (name) do update set holder = excluded.holder, until = excluded.until
        where retention_leases.until < $4 or retention_leases.holder = excluded.holder
       returning holder`,
      [name, holder, until, now],
    ),
  );
  return rows.length > 0;
}

async function releaseLease(ex: Executor, name: string, holder: string) {
  await ex.execute(
    positional('update retention_leases set until = $3 where name = $1 and holder = $2', [
      name,
      holder,
      new Date(0),
    ]),
  );
}

async function readCursor(ex: Executor, rule: string) {
  const [row] = await rowsOf<{ after: string; reset_at: Date | string }>(
    ex,
    positional('select after, reset_at from retention_cursors where rule = $1', [rule]),
  );
  return row ? { after: row.after, resetAt: new Date(row.reset_at) } : null;
}

async function resetCursor(ex: Executor, rule: string, at: Date) {
  await ex.execute(
    positional(
      `insert into retention_cursors (rule, after, reset_at) values ($1, '', $2)
       on conflict (rule) do update set after = '', reset_at = excluded.reset_at`,
      [rule, at],
    ),
  );
}

async function saveCursor(ex: Executor, rule: string, after: string) {
  await ex.execute(
    positional('update retention_cursors set after = $2 where rule = $1', [rule, after]),
  );
}

/**
 * Not a deletion: folds the report deltas (up to `batch` of each kind) into the rollups
 * (report_compact, migration 0022), so reports read few delta rows. On the retention round
 * because that is the one leased loop; reports are exact whether or not it has run.
 */
async function foldReportDeltas(ex: Executor, o: { batch: number }): Promise<BatchResult> {
  const [row] = await rowsOf<{ n: number }>(
    ex,
    positional('select report_compact($1) as n', [o.batch]),
  );
  const n = Number(row?.n ?? 0);
  return { deleted: n, done: n < o.batch, cursor: '' };
}

/**
 * The deltas tables are appended to by every DNI batch and emptied by each fold: without a
 * VACUUM their dead rows are never reclaimed (autovacuum off, or behind, as on this project's
 * test machines; PGlite has none), the files only grow, and every report reads them whole.
 * Vacuumed after each fold, they stay the size of one round's deltas, and a table emptied
 * whole is truncated.
 */
async function vacuumReportDeltas(ex: Executor): Promise<void> {
  await ex.execute(positional('vacuum report_traffic_deltas, report_touch_deltas', []));
}

/** `repos.retention`. */
export function createRetentionRepository(): RetentionRepository {
  return {
    foldReportDeltas,
    vacuumReportDeltas,
    takeLease,
    releaseLease,
    readCursor,
    resetCursor,
    saveCursor,
    pruneIdempotency,
    pruneDispatchJobs,
    pruneSimulatedMessages,
    pruneSessions,
    pruneWebhookDeliveries,
    pruneWebhookEvents,
  };
}
