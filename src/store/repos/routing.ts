/**
 * Routing plans, offers and the places offers take under the buyers' caps (docs/routing.md).
 *
 * Caps hold under any concurrency because an offer takes its place with one conditional UPDATE
 * of the buyer's buyer_usage row (src/store/sql/routing_offer_first.sql): PostgreSQL locks the
 * row for the update, and the count and the check are the same statement, so no two offers can
 * both see the last place free. The rows a batch of calls may take are locked first in buyer
 * order (a lone call locks only the row it takes), so transactions wait for each other only
 * when they share a buyer, and never in a cycle. A buyer belongs to one organization, so no call waits on another organization's
 * calls' caps. A counter row rather than counting call_offers keeps the check O(1) whatever
 * the history.
 */
import { and, asc, eq, gte, lt, ne, sql } from 'drizzle-orm';
import { newId } from '../../domain/ids.js';
import type {
  NewOffer,
  OfferEndWrite,
  PlaceMove,
  RoutingPlan,
  RoutingRepository,
} from '../../domain/routing/ports.js';
import type { Offer, Plan, Schedule } from '../../domain/routing/types.js';
import type { BuyerStatus, Fallback, OfferOutcome } from '../../domain/routing/vocabulary.js';
import type { Executor, Tx } from '../db.js';
import { closingRows, hotRows, type InlinedStatement } from '../rows.js';
import { calls } from '../schema/index.js';
import { callOffers as O, campaignRouting as R, routingTargets as T } from '../schema/routing.js';
import { AUDIT_COLUMNS, auditPlaceholders, auditValues } from './audit.js';

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

/**
 * The plans of the campaigns `keys` names (a relation of organization and campaign ids) and
 * each target's buyer, in priority order; a plan with no targets has one row of nulls.
 */
export const planRows = (keys: string) => `
  select r.campaign_id, r.ring_timeout_seconds, r.fallback, b.id as buyer_id, t.priority,
         t.weight, b.forward_to, b.time_zone, b.schedule, b.states, b.status
    from ${keys} as k(org_id, campaign_id)
    join campaign_routing r on r.org_id = k.org_id and r.campaign_id = k.campaign_id
    left join routing_targets t on t.campaign_id = r.campaign_id
    left join buyers b on b.id = t.buyer_id
   order by r.campaign_id, t.priority, t.buyer_id`;

/** $1: organizations, $2: campaigns, pairwise. */
const CANDIDATES = planRows('unnest($1::text[], $2::text[])');

export interface CandidateRow {
  campaign_id: string;
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

export async function plans(
  ex: Executor,
  campaigns: readonly { orgId: string; campaignId: string }[],
): Promise<Map<string, RoutingPlan>> {
  if (campaigns.length === 0) return new Map();
  const { text, params } = plansStatement(campaigns);
  return plansOf(await hotRows<CandidateRow>(ex, text, params));
}

/** The read of `plans`, as hotRows or an opening (openingRowSets) sends it. */
export function plansStatement(
  campaigns: readonly { orgId: string; campaignId: string }[],
): InlinedStatement {
  return {
    text: CANDIDATES,
    params: [campaigns.map((c) => c.orgId), campaigns.map((c) => c.campaignId)],
  };
}

/** The plans planRows read, by campaign. */
export function plansOf(rows: readonly CandidateRow[]): Map<string, RoutingPlan> {
  const out = new Map<string, RoutingPlan>();
  for (const r of rows) {
    let plan = out.get(r.campaign_id);
    if (!plan) {
      plan = {
        settings: { ringTimeoutSeconds: r.ring_timeout_seconds, fallback: r.fallback },
        candidates: [],
      };
      out.set(r.campaign_id, plan);
    }
    if (r.buyer_id === null || r.forward_to === null || r.time_zone === null || r.status === null)
      continue;
    plan.candidates.push({
      buyerId: r.buyer_id,
      priority: r.priority as number,
      weight: r.weight as number,
      forwardTo: r.forward_to,
      timeZone: r.time_zone,
      schedule: r.schedule,
      states: r.states,
      status: r.status,
    });
  }
  return out;
}

/**
 * Offers each call to the first buyer of its order with a place under every cap, or sends it
 * to its fallback: one statement for a batch (src/store/sql/routing_offer_first.sql), which
 * locks the usage rows it may take. The last statement of its transaction: on PostgreSQL it
 * goes with the `commit` (closingRows), so the rows are held for no round trip after it.
 */
export async function offerFirst(tx: Tx, offers: readonly NewOffer[]): Promise<(string | null)[]> {
  if (offers.length === 0) return [];
  // Each buyer id once; a call's order as places in that list (routing_offer_first.sql).
  const place = new Map<string, number>();
  for (const o of offers) for (const b of o.buyers) if (!place.has(b)) place.set(b, place.size + 1);
  const rows = await closingRows<{ ord: number; buyer_id: string | null }>(
    tx,
    'select ord, buyer_id from routing_offer_first($1::text[], $2::jsonb)',
    [
      [...place.keys()],
      JSON.stringify(
        offers.map((o, i) => ({
          ord: i + 1,
          id: o.id,
          org_id: o.orgId,
          call_id: o.callId,
          seq: o.seq,
          at: o.at.toISOString(),
          buyers: o.buyers.map((b) => place.get(b)),
          fallback: o.fallback,
          reason: o.reason,
          audit_id: newId('aud', o.at.getTime()),
          actor: o.actor,
          request_id: o.requestId,
        })),
      ),
    ],
  );
  const taken = new Map(rows.map((r) => [Number(r.ord), r.buyer_id]));
  return offers.map((_, i) => taken.get(i + 1) ?? null);
}

/**
 * An ended offer's place (PlaceMove): `$2` is added to each of its periods' counts while that
 * period is still the one counted, and to the total; `$3` is taken from the live count. Give
 * back: -1, 1; end the live leg: 0, 1; take back after a cancel: 1, 0. An hour that has passed
 * is never reopened.
 */
const MOVE: Record<PlaceMove, readonly [number, number]> = {
  give: [-1, 1],
  end_live: [0, 1],
  retake: [1, 0],
};

const MOVE_PLACE = `
  update buyer_usage u
     set hour_count = u.hour_count + case when u.hour_start = $4::timestamptz then $2::int else 0 end,
         day_count = u.day_count + case when u.day_start = $5::timestamptz then $2::int else 0 end,
         month_count = u.month_count + case when u.month_start = $6::timestamptz then $2::int else 0 end,
         total_count = u.total_count + $2::int,
         live_count = u.live_count - $3::int
   where u.buyer_id = $1`;

const placeParams = (offer: Offer, move: PlaceMove) => [
  offer.buyerId,
  ...MOVE[move],
  offer.hourStart,
  offer.dayStart,
  offer.monthStart,
];

export async function movePlace(tx: Tx, offer: Offer, move: PlaceMove): Promise<void> {
  await hotRows(tx, MOVE_PLACE, placeParams(offer, move));
}

/**
 * recordOfferEnd's statement: each write after the offer's end runs only if the offer was in
 * the state expected (`ended` has its row). $1–$6: the usage move as in MOVE_PLACE (with $7
 * false, no move); then the offer, its end, the answer and the audit line.
 */
const RECORD_OFFER_END = `
  with ended as (
    update call_offers
       set ended_at = $10::timestamptz, outcome = $11, duration_seconds = $12::int
     where id = $8 and outcome is not distinct from $9::text
    returning id),
  answered as (
    update calls set buyer_id = $13, billable = $14::boolean, payout = $15::numeric
     where id = $16 and $13::text is not null and exists (select 1 from ended)
    returning id),
  audited as (
    insert into audit_log (${AUDIT_COLUMNS}) select ${auditPlaceholders(17)} from ended
    returning id),
  moved as (
    ${MOVE_PLACE.trim()} and $7::boolean and exists (select 1 from ended)
    returning u.buyer_id)
  select (select count(*) from ended)::int as ended`;

export async function recordOfferEnd(tx: Tx, w: OfferEndWrite): Promise<boolean> {
  const { offer, end, answer } = w;
  const [row] = await hotRows<{ ended: number }>(tx, RECORD_OFFER_END, [
    ...placeParams(offer, w.place ?? 'give'),
    w.place !== null,
    offer.id,
    w.from,
    end.endedAt,
    end.outcome,
    end.durationSeconds,
    answer?.buyerId ?? null,
    answer?.billable ?? null,
    answer?.payout ?? null,
    offer.callId,
    ...auditValues(w.audit),
  ]);
  return Number(row?.ended ?? 0) > 0;
}

export async function offersOfCall(ex: Executor, orgId: string, callId: string): Promise<Offer[]> {
  const rows = await ex
    .select()
    .from(O)
    .where(and(eq(O.orgId, orgId), eq(O.callId, callId)))
    .orderBy(asc(O.seq));
  return rows.map((r) => ({ ...r, outcome: r.outcome as OfferOutcome | null }));
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
    plans,
    offerFirst,
    offersOfCall,
    recordOfferEnd,
    movePlace,
    billableWithin,
  };
}
