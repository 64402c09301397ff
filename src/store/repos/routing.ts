/**
 * Routing plans, offers and the places offers take under the buyers' caps (docs/routing.md).
 *
 * Caps hold under any concurrency because an offer takes its place with one conditional UPDATE
 * of the buyer's buyer_usage row (takePlace): PostgreSQL locks the row for the update, and a
 * second update of the same row waits for the first transaction and then re-checks its WHERE
 * against the row the first one committed (READ COMMITTED's re-check of an updated row). The
 * count and the check are the same statement, so no two offers can both see the last place
 * free. Only offers to the same buyer wait for each other, for the rest of a short transaction;
 * a buyer belongs to one organization, so no call waits on another organization's calls. A
 * counter row rather than counting call_offers keeps the check O(1) whatever the history.
 */
import { and, asc, eq, gte, isNull, lt, ne, sql } from 'drizzle-orm';
import { newId } from '../../domain/ids.js';
import type { AuditEntry } from '../../domain/ports.js';
import type { OfferEnd, PlanSettings, RoutingRepository } from '../../domain/routing/ports.js';
import type { Candidate, Offer, Periods, Plan, Schedule } from '../../domain/routing/types.js';
import type {
  BuyerStatus,
  Fallback,
  FallbackReason,
  OfferOutcome,
} from '../../domain/routing/vocabulary.js';
import type { Executor, Tx } from '../db.js';
import { hotRows } from '../rows.js';
import { calls } from '../schema/index.js';
import {
  callOffers as O,
  campaignRouting as R,
  routingTargets as T,
  buyerUsage as U,
} from '../schema/routing.js';

export async function getPlan(
  ex: Executor,
  orgId: string,
  campaignId: string,
): Promise<Plan | null> {
  const [plan] = await ex
    .select()
    .from(R)
    .where(and(eq(R.orgId, orgId), eq(R.campaignId, campaignId)));
  if (!plan) return null;
  const targets = await ex
    .select({ buyerId: T.buyerId, priority: T.priority, weight: T.weight })
    .from(T)
    .where(eq(T.campaignId, campaignId))
    .orderBy(asc(T.priority), asc(T.buyerId));
  return {
    campaignId,
    targets,
    ringTimeoutSeconds: plan.ringTimeoutSeconds,
    fallback: plan.fallback as Fallback,
    updatedAt: plan.updatedAt,
  };
}

export async function putPlan(tx: Tx, orgId: string, plan: Plan): Promise<void> {
  await tx
    .insert(R)
    .values({
      campaignId: plan.campaignId,
      orgId,
      ringTimeoutSeconds: plan.ringTimeoutSeconds,
      fallback: plan.fallback,
      createdAt: plan.updatedAt,
      updatedAt: plan.updatedAt,
    })
    .onConflictDoUpdate({
      target: R.campaignId,
      set: {
        ringTimeoutSeconds: plan.ringTimeoutSeconds,
        fallback: plan.fallback,
        updatedAt: plan.updatedAt,
      },
    });
  await tx.delete(T).where(eq(T.campaignId, plan.campaignId));
  if (plan.targets.length > 0) {
    await tx
      .insert(T)
      .values(plan.targets.map((t) => ({ ...t, campaignId: plan.campaignId, orgId })));
  }
}

/** A campaign's plan and each target's buyer, in priority order (none: a plan with no targets). */
const CANDIDATES = `
  select r.ring_timeout_seconds, r.fallback, b.id as buyer_id, t.priority, t.weight,
         b.forward_to, b.time_zone, b.schedule, b.states, b.status
    from campaign_routing r
    left join routing_targets t on t.campaign_id = r.campaign_id
    left join buyers b on b.id = t.buyer_id
   where r.org_id = $1 and r.campaign_id = $2
   order by t.priority, t.buyer_id`;

interface CandidateRow {
  ring_timeout_seconds: number;
  fallback: Fallback;
  buyer_id: string | null;
  priority: number | null;
  weight: number | null;
  forward_to: string | null;
  time_zone: string | null;
  schedule: Schedule | null;
  states: string[] | null;
  status: BuyerStatus | null;
}

export async function candidates(
  ex: Executor,
  orgId: string,
  campaignId: string,
): Promise<{ settings: PlanSettings; candidates: Candidate[] } | null> {
  const rows = await hotRows<CandidateRow>(ex, CANDIDATES, [orgId, campaignId]);
  const [head] = rows;
  if (!head) return null;
  return {
    settings: {
      ringTimeoutSeconds: head.ring_timeout_seconds,
      fallback: head.fallback,
    },
    candidates: rows.flatMap((r) =>
      r.buyer_id === null || r.forward_to === null || r.time_zone === null || r.status === null
        ? []
        : [
            {
              buyerId: r.buyer_id,
              priority: r.priority as number,
              weight: r.weight as number,
              forwardTo: r.forward_to,
              timeZone: r.time_zone,
              schedule: r.schedule,
              states: r.states,
              status: r.status,
            },
          ],
    ),
  };
}

const TAKE_PLACE = `
  with p as (
    select b.id, b.cap_hourly, b.cap_daily, b.cap_monthly, b.cap_total, b.cap_concurrency,
           date_trunc('hour', $1::timestamptz, b.time_zone) as h,
           date_trunc('day', $1::timestamptz, b.time_zone) as d,
           date_trunc('month', $1::timestamptz, b.time_zone) as m
      from buyers b
     where b.id = $2 and b.org_id = $3 and b.status = 'active'),
  u as (
    update buyer_usage u set
      hour_count = case when u.hour_start >= p.h then u.hour_count + 1 else 1 end,
      hour_start = greatest(u.hour_start, p.h),
      day_count = case when u.day_start >= p.d then u.day_count + 1 else 1 end,
      day_start = greatest(u.day_start, p.d),
      month_count = case when u.month_start >= p.m then u.month_count + 1 else 1 end,
      month_start = greatest(u.month_start, p.m),
      total_count = u.total_count + 1,
      live_count = u.live_count + 1
    from p
    where u.buyer_id = p.id
      and (p.cap_hourly is null
           or (case when u.hour_start >= p.h then u.hour_count else 0 end) < p.cap_hourly)
      and (p.cap_daily is null
           or (case when u.day_start >= p.d then u.day_count else 0 end) < p.cap_daily)
      and (p.cap_monthly is null
           or (case when u.month_start >= p.m then u.month_count else 0 end) < p.cap_monthly)
      and (p.cap_total is null or u.total_count < p.cap_total)
      and (p.cap_concurrency is null or u.live_count < p.cap_concurrency)
    returning u.hour_start, u.day_start, u.month_start),
  o as (
    insert into call_offers (id, org_id, call_id, seq, buyer_id, offered_at,
                             hour_start, day_start, month_start)
    select $4, $3, $5, $6, $2, $1::timestamptz, u.hour_start, u.day_start, u.month_start
      from u
    returning id),
  a as (
    insert into audit_log (id, org_id, actor, action, subject_type, subject_id, detail,
                           request_id, at)
    select $7, $8, $9, $10, $11, $12, $13::jsonb, $14, $15::timestamptz
      from o)
  select hour_start, day_start, month_start from u`;

/**
 * The one statement that counts an offer (see the head of this file). Each period's start is
 * the later of the stored one and the buyer's period at `now`, so a request whose clock reads
 * a little behind a concurrent one's counts in the newer period rather than resetting it.
 */
export async function takePlace(
  tx: Tx,
  offer: Pick<Offer, 'id' | 'orgId' | 'callId' | 'seq' | 'buyerId' | 'offeredAt'>,
  audit: AuditEntry,
): Promise<Periods | null> {
  const [row] = await hotRows<{
    hour_start: string | Date;
    day_start: string | Date;
    month_start: string | Date;
  }>(tx, TAKE_PLACE, [
    offer.offeredAt.toISOString(),
    offer.buyerId,
    offer.orgId,
    offer.id,
    offer.callId,
    offer.seq,
    newId('aud', audit.at.getTime()),
    audit.orgId,
    audit.actor,
    audit.action,
    audit.subjectType,
    audit.subjectId,
    JSON.stringify(audit.detail ?? {}),
    audit.requestId ?? null,
    audit.at.toISOString(),
  ]);
  if (!row) return null;
  return {
    hourStart: new Date(row.hour_start),
    dayStart: new Date(row.day_start),
    monthStart: new Date(row.month_start),
  };
}

/** Takes the offer from each period's count while that period is still the one counted. */
export async function givePlace(tx: Tx, offer: Offer): Promise<void> {
  await tx
    .update(U)
    .set({
      hourCount: sql`${U.hourCount} - case when ${U.hourStart} = ${offer.hourStart.toISOString()}::timestamptz then 1 else 0 end`,
      dayCount: sql`${U.dayCount} - case when ${U.dayStart} = ${offer.dayStart.toISOString()}::timestamptz then 1 else 0 end`,
      monthCount: sql`${U.monthCount} - case when ${U.monthStart} = ${offer.monthStart.toISOString()}::timestamptz then 1 else 0 end`,
      totalCount: sql`${U.totalCount} - 1`,
      liveCount: sql`${U.liveCount} - 1`,
    })
    .where(eq(U.buyerId, offer.buyerId));
}

export async function endLive(tx: Tx, buyerId: string): Promise<void> {
  await tx
    .update(U)
    .set({ liveCount: sql`${U.liveCount} - 1` })
    .where(eq(U.buyerId, buyerId));
}

export async function offersOfCall(ex: Executor, orgId: string, callId: string): Promise<Offer[]> {
  const rows = await ex
    .select()
    .from(O)
    .where(and(eq(O.orgId, orgId), eq(O.callId, callId)))
    .orderBy(asc(O.seq));
  return rows.map((r) => ({ ...r, outcome: r.outcome as OfferOutcome | null }));
}

export async function endOffer(tx: Tx, offerId: string, end: OfferEnd): Promise<boolean> {
  const done = await tx
    .update(O)
    .set({ outcome: end.outcome, durationSeconds: end.durationSeconds, endedAt: end.endedAt })
    .where(and(eq(O.id, offerId), isNull(O.outcome)))
    .returning({ id: O.id });
  return done.length > 0;
}

export async function setAnswered(
  tx: Tx,
  callId: string,
  answer: { buyerId: string; billable: boolean; payout: string },
): Promise<void> {
  await tx
    .update(calls)
    .set({ buyerId: answer.buyerId, billable: answer.billable, payout: answer.payout })
    .where(eq(calls.id, callId));
}

export async function setFallback(
  tx: Tx,
  callId: string,
  fallback: Fallback,
  reason: FallbackReason,
): Promise<void> {
  await tx.update(calls).set({ fallback, fallbackReason: reason }).where(eq(calls.id, callId));
}

export async function billableWithin(
  ex: Executor,
  orgId: string,
  q: { buyerId: string; fromNumber: string; since: Date; before: Date; callId: string },
): Promise<boolean> {
  const rows = await ex
    .select({ id: calls.id })
    .from(calls)
    .where(
      and(
        eq(calls.buyerId, q.buyerId),
        eq(calls.fromNumber, q.fromNumber),
        sql`${calls.billable}`,
        gte(calls.startedAt, q.since),
        lt(calls.startedAt, q.before),
        eq(calls.orgId, orgId),
        ne(calls.id, q.callId),
      ),
    )
    .limit(1);
  return rows.length > 0;
}

/** `repos.routing`. */
export function createRoutingRepository(): RoutingRepository {
  return {
    getPlan,
    putPlan,
    candidates,
    takePlace,
    givePlace,
    endLive,
    offersOfCall,
    endOffer,
    setAnswered,
    setFallback,
    billableWithin,
  };
}
