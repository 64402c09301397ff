import { and, eq, gt, gte, isNotNull, lt, or, sql } from 'drizzle-orm';
import { newId } from '../../domain/ids.js';
import type {
  AttemptRecord,
  ClaimedDelivery,
  DeliveryClaim,
  DeliveryRepository,
  DisableRule,
} from '../../domain/webhooks/ports.js';
import type { Db, Executor } from '../db.js';
import { rowsOf } from '../rows.js';
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from '../schema/webhooks.js';
import { writeAudit } from './audit.js';
import { released, stillLeased } from './leases.js';

export type { AttemptRecord, ClaimedDelivery, DeliveryClaim, DisableRule };

// Serialises claimers for the length of a claim, so per-endpoint limits hold across workers.
const CLAIM_LOCK = 7_350_011;

/**
 * Leases due deliveries: for each enabled endpoint, its oldest due rows up to its free slots
 * (perEndpoint minus the leases already out), then the oldest of those overall. A dead or slow
 * endpoint therefore holds at most `perEndpoint` slots and never delays the others.
 */
export async function claimDeliveries(db: Db, c: DeliveryClaim): Promise<ClaimedDelivery[]> {
  if (c.limit <= 0) return [];
  const now = new Date(c.nowMs).toISOString();
  const until = new Date(c.nowMs + c.leaseMs).toISOString();
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${CLAIM_LOCK})`);
    const rows = await rowsOf<{
      id: string;
      event_id: string;
      endpoint_id: string;
      org_id: string;
      attempts: number;
      body: string;
      url: string;
      secret: string;
      previous_secret: string | null;
      previous_secret_until: string | Date | null;
    }>(
      tx,
      sql`with picked as (
        select x.id, x.next_attempt_at from webhook_endpoints e
        cross join lateral (
          select d.id, d.next_attempt_at from webhook_deliveries d
           where d.endpoint_id = e.id and d.state = 'pending'
             and d.next_attempt_at <= ${now}::timestamptz
             and (d.lease_until is null or d.lease_until <= ${now}::timestamptz)
           order by d.next_attempt_at, d.id
           limit greatest(0, ${c.perEndpoint}::integer - (
             select count(*) from webhook_deliveries b
              where b.endpoint_id = e.id and b.lease_until > ${now}::timestamptz
                and b.state = 'pending'))
        ) x
        where e.enabled
        order by x.next_attempt_at, x.id
        limit ${c.limit}::integer
      )
      update webhook_deliveries d
         set lease_until = ${until}::timestamptz, leased_by = ${c.worker},
             attempts = d.attempts + 1, updated_at = ${now}::timestamptz
        from picked, webhook_events ev, webhook_endpoints ep
       where d.id = picked.id and ev.id = d.event_id and ep.id = d.endpoint_id
      returning d.id, d.event_id, d.endpoint_id, d.org_id, d.attempts, ev.payload::text as body,
        ep.url, ep.secret, ep.previous_secret, ep.previous_secret_until`,
    );
    return rows.map((r) => {
      const graceUntil = r.previous_secret_until ? new Date(r.previous_secret_until).getTime() : 0;
      return {
        deliveryId: r.id,
        eventId: r.event_id,
        endpointId: r.endpoint_id,
        orgId: r.org_id,
        attempt: Number(r.attempts),
        body: r.body,
        url: r.url,
        secrets:
          r.previous_secret && graceUntil > c.nowMs ? [r.secret, r.previous_secret] : [r.secret],
      };
    });
  });
}

/** The attempt's row: outcome, status, latency and the first bytes of the answer. */
async function insertAttempt(
  tx: Executor,
  delivery: ClaimedDelivery,
  record: AttemptRecord,
  now: Date,
): Promise<void> {
  await tx.insert(webhookAttempts).values({
    id: newId('wat', now.getTime()),
    deliveryId: delivery.deliveryId,
    eventId: delivery.eventId,
    endpointId: delivery.endpointId,
    orgId: delivery.orgId,
    attempt: delivery.attempt,
    outcome: record.outcome,
    statusCode: record.statusCode,
    latencyMs: record.latencyMs,
    responseHead: record.responseHead,
    error: record.error,
    startedAt: record.startedAt,
    finishedAt: now,
  });
}

/** Moves the delivery to its next state and releases it; false when the lease was lost. */
async function moveDelivery(
  tx: Executor,
  delivery: ClaimedDelivery,
  worker: string,
  record: AttemptRecord,
  now: Date,
): Promise<boolean> {
  const next = record.next;
  const moved = await tx
    .update(webhookDeliveries)
    .set({
      state: next.state,
      ...(next.state === 'pending' ? { nextAttemptAt: new Date(next.retryAtMs) } : {}),
      ...(next.state === 'delivered' ? { deliveredAt: now } : {}),
      ...released,
      lastStatus: record.statusCode,
      lastError: record.error,
      updatedAt: now,
    })
    .where(stillLeased(webhookDeliveries, delivery.deliveryId, worker, delivery.attempt))
    .returning({ id: webhookDeliveries.id });
  return moved.length > 0;
}

/**
 * Ends the endpoint's failure run, only when one is open: every success taking the endpoint's
 * row lock would serialise the endpoint's concurrent deliveries on it.
 */
async function endFailureRun(tx: Executor, endpointId: string): Promise<void> {
  await tx
    .update(webhookEndpoints)
    .set({ consecutiveFailures: 0, failingSince: null })
    .where(
      and(
        eq(webhookEndpoints.id, endpointId),
        or(gt(webhookEndpoints.consecutiveFailures, 0), isNotNull(webhookEndpoints.failingSince)),
      ),
    );
}

/**
 * Counts a failure on the endpoint and disables it (with an audit entry) when the receiver said
 * gone or the run passed `rule`. Returns why it was disabled, if it was.
 */
async function countFailure(
  tx: Executor,
  delivery: ClaimedDelivery,
  record: AttemptRecord,
  rule: DisableRule,
  now: Date,
): Promise<string | null> {
  const [ep] = await tx
    .update(webhookEndpoints)
    .set({
      consecutiveFailures: sql`${webhookEndpoints.consecutiveFailures} + 1`,
      failingSince: sql`coalesce(${webhookEndpoints.failingSince}, ${now.toISOString()}::timestamptz)`,
    })
    .where(eq(webhookEndpoints.id, delivery.endpointId))
    .returning();
  if (!ep?.enabled) return null;
  const nowMs = now.getTime();
  const longRun =
    ep.consecutiveFailures >= rule.afterFailures &&
    nowMs - (ep.failingSince?.getTime() ?? nowMs) >= rule.afterMs;
  const reason = record.outcome === 'gone' ? 'gone' : longRun ? 'failing' : null;
  if (!reason) return null;
  await tx
    .update(webhookEndpoints)
    .set({ enabled: false, disabledReason: reason, disabledAt: now, updatedAt: now })
    .where(eq(webhookEndpoints.id, delivery.endpointId));
  await writeAudit(tx, {
    orgId: delivery.orgId,
    actor: 'webhook-worker',
    action: 'webhook.disabled',
    subjectType: 'webhook',
    subjectId: delivery.endpointId,
    detail: {
      reason,
      status_code: record.statusCode,
      consecutive_failures: ep.consecutiveFailures,
      failing_since: ep.failingSince?.toISOString() ?? null,
    },
    at: now,
  });
  return reason;
}

/**
 * Records an attempt and moves the delivery and the endpoint's failure run on, in one
 * transaction. Fenced by the lease. Returns why the endpoint was disabled, if it was.
 */
export async function recordAttempt(
  db: Db,
  delivery: ClaimedDelivery,
  worker: string,
  record: AttemptRecord,
  rule: DisableRule,
  nowMs: number,
): Promise<{ kept: boolean; disabled: string | null }> {
  const now = new Date(nowMs);
  return db.transaction(async (tx) => {
    await insertAttempt(tx, delivery, record, now);
    if (!(await moveDelivery(tx, delivery, worker, record, now))) {
      return { kept: false, disabled: null };
    }
    if (record.outcome === 'delivered') {
      await endFailureRun(tx, delivery.endpointId);
      return { kept: true, disabled: null };
    }
    return { kept: true, disabled: await countFailure(tx, delivery, record, rule, now) };
  });
}

/**
 * Sends an event again (any state), or every failed delivery created since a time: a fresh
 * schedule from now, same event id. An event of the organization this endpoint never had a
 * delivery for (it was created later) gets one. Returns how many were queued.
 */
export async function replay(
  ex: Executor,
  orgId: string,
  endpointId: string,
  what: { eventId: string } | { since: Date },
  nowMs: number,
): Promise<number> {
  const now = new Date(nowMs).toISOString();
  if ('eventId' in what) {
    const rows = await rowsOf<{ id: string }>(
      ex,
      sql`insert into webhook_deliveries (id, event_id, endpoint_id, org_id, state, attempts,
          next_attempt_at, created_at, updated_at)
        select 'wdl_' || md5(ev.id || ':' || ${endpointId}), ev.id, ${endpointId}, ${orgId},
          'pending', 0, ${now}::timestamptz, ${now}::timestamptz, ${now}::timestamptz
          from webhook_events ev where ev.id = ${what.eventId} and ev.org_id = ${orgId}
        on conflict (event_id, endpoint_id) do update
          set state = 'pending', attempts = 0, next_attempt_at = excluded.next_attempt_at,
              lease_until = null, leased_by = null, updated_at = excluded.updated_at
        returning id`,
    );
    return rows.length;
  }
  const rows = await ex
    .update(webhookDeliveries)
    .set({
      state: 'pending',
      attempts: 0,
      nextAttemptAt: new Date(nowMs),
      ...released,
      updatedAt: new Date(nowMs),
    })
    .where(
      and(
        eq(webhookDeliveries.orgId, orgId),
        eq(webhookDeliveries.endpointId, endpointId),
        eq(webhookDeliveries.state, 'failed'),
        gte(webhookDeliveries.createdAt, what.since),
        lt(webhookDeliveries.createdAt, new Date(nowMs + 1)),
      ),
    )
    .returning({ id: webhookDeliveries.id });
  return rows.length;
}

/** `repos.deliveries`. */
export function createDeliveryRepository(): DeliveryRepository {
  return { claimDeliveries, recordAttempt };
}
