/**
 * Routing one call (docs/routing.md): the first offer when the call arrives, the end of an
 * offer when the carrier's Dial ends, and the next offer or the fallback after it. Every step
 * runs in the caller's transaction, which holds the lock of the call's carrier id, so two
 * webhooks of one call never route it at once.
 */
import type { UploadOutbox } from '../conversions/ports.js';
import type { AuditEntry, Transaction } from '../ports.js';
import type { WebhookEmitters } from '../webhooks/ports.js';
import { namesCaller } from './caller-id.js';
import { billing, drawOrder, eligibleTargets, type Random } from './choose.js';
import type {
  BuyerRepository,
  NewOffer,
  PlaceMove,
  RoutingPlan,
  RoutingRepository,
} from './ports.js';
import { callerState } from './states.js';
import type { Offer, PricedOffer } from './types.js';
import { type Fallback, type FallbackReason, MAX_OFFERS, type OfferOutcome } from './vocabulary.js';

export interface CallRoutingRepos {
  routing: RoutingRepository;
  buyers: Pick<BuyerRepository, 'getBuyer'>;
  /** call.routed and call.billable, written in the transaction of their cause. */
  events: Pick<WebhookEmitters, 'emitCallRouted' | 'emitCallBillable'>;
  /** A payout fixed after the call's conversions were queued reaches those not sent yet. */
  uploads: Pick<UploadOutbox, 'priceUnsent'>;
}

/** The call being routed, as stored. */
export interface RoutedCall {
  callId: string;
  orgId: string;
  campaignId: string;
  fromNumber: string;
  startedAt: Date;
  /** The campaign's own forward_to: the `forward_to` fallback. */
  campaignForwardTo: string | null;
  /** Who answered; set once an offer was answered. */
  buyerId: string | null;
  /** Set once the call went to the fallback. */
  fallback: Fallback | null;
  /** Its offers so far in order, with their buyers' payout rules, read under the call's lock. */
  offers: readonly PricedOffer[];
  /**
   * The webhook event types its organization's enabled endpoints take ('*': all), read with
   * the call; null: not read, and each event reads it for itself.
   */
  events: ReadonlySet<string> | null;
}

/**
 * Whether an endpoint may take an event of this type, by the types read with the call (null:
 * not read, so maybe): one no endpoint takes is not built at all.
 */
export const takes = (call: { events: ReadonlySet<string> | null }, type: string) =>
  call.events === null || call.events.has(type) || call.events.has('*');

export interface RouteContext {
  carrier: string;
  requestId: string | null;
  now: Date;
  random: Random;
}

export type RouteAnswer =
  /**
   * Ring this buyer; the carrier reports the Dial's end for `offerId`. `fresh`: this request
   * made the offer (false: a retried webhook rings the live offer again).
   */
  | {
      kind: 'dial';
      offerId: string;
      forwardTo: string;
      ringTimeoutSeconds: number;
      fresh: boolean;
    }
  /**
   * Forward to the campaign's number, or (null) say goodbye. `reason`: why this request sent
   * the call there (null: it went there before, and a retried webhook asks again).
   */
  | { kind: 'fallback'; forwardTo: string | null; reason: FallbackReason | null }
  /** The call is over for routing: a buyer answered and the leg ended, or the caller left. */
  | { kind: 'hangup' };

const fallbackAnswer = (
  call: RoutedCall,
  fallback: Fallback,
  reason: FallbackReason | null,
): RouteAnswer => ({
  kind: 'fallback',
  forwardTo: fallback === 'forward_to' ? call.campaignForwardTo : null,
  reason,
});

const auditEntry = (
  ctx: RouteContext,
  call: RoutedCall,
  action: string,
  detail: Record<string, unknown>,
): AuditEntry => ({
  orgId: call.orgId,
  actor: `carrier:${ctx.carrier}`,
  action,
  subjectType: 'call',
  subjectId: call.callId,
  detail,
  requestId: ctx.requestId,
  at: ctx.now,
});

/**
 * The call's next offer as `offerFirst` takes it: the targets eligible now in draw order, or
 * none once five offers were made; the fallback's reason if none of them takes it.
 */
function nextOffer(
  ctx: RouteContext,
  call: RoutedCall,
  plan: RoutingPlan,
  offers: readonly Offer[],
): NewOffer {
  const full = offers.length >= MAX_OFFERS;
  const reason: FallbackReason = full
    ? 'max_offers'
    : offers.length === 0
      ? 'no_target'
      : 'no_more_targets';
  const eligible = full
    ? []
    : eligibleTargets(plan.candidates, {
        callerState: callerState(call.fromNumber),
        nowMs: ctx.now.getTime(),
        offered: new Set(offers.map((o) => o.buyerId)),
      });
  const seq = offers.length + 1;
  return {
    // The offer's id follows from the call's and its place in the order: a webhook retried
    // after a failure writes the same offer again, never a second one.
    id: `${call.callId.replace(/^call_/, 'ofr_')}${seq}`,
    seq,
    orgId: call.orgId,
    callId: call.callId,
    at: ctx.now,
    buyers: drawOrder(eligible, ctx.random).map((c) => c.buyerId),
    fallback: plan.settings.fallback,
    reason,
    actor: `carrier:${ctx.carrier}`,
    requestId: ctx.requestId,
  };
}

/** Ring the buyer that took the offer, or the fallback when none did. */
function offerAnswer(
  call: RoutedCall,
  plan: RoutingPlan,
  offer: NewOffer,
  buyerId: string | null,
): RouteAnswer {
  const target = buyerId === null ? null : plan.candidates.find((c) => c.buyerId === buyerId);
  if (!target) return fallbackAnswer(call, plan.settings.fallback, offer.reason);
  return {
    kind: 'dial',
    offerId: offer.id,
    forwardTo: target.forwardTo,
    ringTimeoutSeconds: plan.settings.ringTimeoutSeconds,
    fresh: true,
  };
}

/** A call stored in this transaction, with the request that brought it. */
export interface NewCall {
  ctx: RouteContext;
  call: RoutedCall;
}

/**
 * The first offer of calls stored in this transaction (none has an offer yet), all in one
 * statement: each goes to the first eligible target with a place under its caps, in a draw
 * among the targets of its plan's first priority that has one, or to its fallback. Null at a
 * call's place: its campaign has no routing plan (it forwards as before). `plans`: their
 * campaigns' plans, read when the calls were stored. Last statement of the transaction
 * (offerFirst).
 */
export async function routeNewCalls(
  r: CallRoutingRepos,
  tx: Transaction,
  calls: readonly NewCall[],
  plans: ReadonlyMap<string, RoutingPlan>,
): Promise<(RouteAnswer | null)[]> {
  const routed = calls.flatMap(({ ctx, call }) => {
    const plan = plans.get(call.campaignId);
    return plan ? [{ call, plan, offer: nextOffer(ctx, call, plan, []) }] : [];
  });
  const taken = await r.routing.offerFirst(
    tx,
    routed.map((x) => x.offer),
  );
  const answers = new Map(
    routed.map((x, i) => [x.call.callId, offerAnswer(x.call, x.plan, x.offer, taken[i] ?? null)]),
  );
  return calls.map(({ call }) => answers.get(call.callId) ?? null);
}

/**
 * Where the call goes now: its live offer again (a retried webhook), nothing more once a buyer
 * answered, its fallback once it fell back, else the next offer. Null: the campaign has no
 * routing plan and the call was never routed (it forwards as before). `plans`: the plans read
 * already, with the call's lock (else read here).
 */
export async function routeCall(
  r: CallRoutingRepos,
  tx: Transaction,
  ctx: RouteContext,
  call: RoutedCall,
  plans?: ReadonlyMap<string, RoutingPlan>,
): Promise<RouteAnswer | null> {
  if (call.buyerId !== null) return { kind: 'hangup' };
  if (call.fallback !== null) return fallbackAnswer(call, call.fallback, null);
  const plan = (plans ?? (await r.routing.plans(tx, [call]))).get(call.campaignId);
  // Plans are replaced, never removed: a call of a campaign without one was never routed.
  if (!plan) return null;
  const offers = call.offers;
  const live = offers.find((o) => o.outcome === null);
  if (live) {
    // A retried webhook: ring the live offer's buyer again (taken off the plan since, or not).
    const forwardTo =
      plan.candidates.find((c) => c.buyerId === live.buyerId)?.forwardTo ??
      (await r.buyers.getBuyer(tx, call.orgId, live.buyerId))?.forwardTo;
    if (forwardTo) {
      return {
        kind: 'dial',
        offerId: live.id,
        forwardTo,
        ringTimeoutSeconds: plan.settings.ringTimeoutSeconds,
        fresh: false,
      };
    }
  }
  if (offers.some((o) => o.outcome === 'canceled')) return { kind: 'hangup' };
  const offer = nextOffer(ctx, call, plan, offers);
  const [buyerId] = await r.routing.offerFirst(tx, [offer]);
  return offerAnswer(call, plan, offer, buyerId ?? null);
}

/** Twilio's DialCallStatus as an offer's outcome (anything unknown is a failure). */
export function outcomeOf(dialCallStatus: string): OfferOutcome {
  switch (dialCallStatus) {
    case 'completed':
    case 'answered':
      return 'answered';
    case 'busy':
      return 'busy';
    case 'no-answer':
      return 'no_answer';
    case 'canceled':
      return 'canceled';
    default:
      return 'failed';
  }
}

export type OfferEnded =
  | { kind: 'unknown_offer' }
  | { kind: 'already_ended'; offer: Offer }
  | {
      kind: 'ended';
      offer: Offer;
      /** For an answered offer: whether it is billable and its payout, fixed now. */
      billing: { billable: boolean; payout: string } | null;
    };

const DAY_MS = 86_400_000;

/**
 * Ends a live offer with the carrier's result. Unanswered, it gives its place under the caps
 * back; answered, its leg has ended: it leaves the concurrency count, the call gets its buyer,
 * and billable and payout are fixed by the buyer's payout rules as they stand now.
 *
 * The call's final status and the Dial's action are posted at once when the caller hangs up,
 * in either order: an offer the final status closed as canceled that the Dial reports answered
 * was answered (the carrier's report of the leg wins over our guess), so it takes back its
 * place in its periods and is billed like any answered leg.
 */
export async function endOffer(
  r: CallRoutingRepos,
  tx: Transaction,
  ctx: RouteContext,
  call: RoutedCall,
  offerId: string,
  result: { outcome: OfferOutcome; durationSeconds: number | null },
): Promise<OfferEnded> {
  const offer = call.offers.find((o) => o.id === offerId);
  if (!offer) return { kind: 'unknown_offer' };
  const late = offer.outcome === 'canceled' && result.outcome === 'answered';
  if (offer.outcome !== null && !late) return { kind: 'already_ended', offer };
  const duration = result.outcome === 'answered' ? (result.durationSeconds ?? 0) : null;
  const ended: Offer = {
    ...offer,
    outcome: result.outcome,
    durationSeconds: duration,
    endedAt: ctx.now,
  };
  let fixed: { billable: boolean; payout: string } | null = null;
  if (result.outcome === 'answered') {
    const payout = offer.payout ?? {
      amount: '0.00',
      min_duration_seconds: 0,
      duplicate_window_days: 0,
    };
    const days = payout.duplicate_window_days;
    // A withheld caller id names nobody: such a call is never a duplicate (caller-id.ts).
    const before =
      days > 0 &&
      namesCaller(call.fromNumber) &&
      (await r.routing.billableWithin(tx, call.orgId, {
        buyerId: offer.buyerId,
        fromNumber: call.fromNumber,
        since: new Date(call.startedAt.getTime() - days * DAY_MS),
        before: call.startedAt,
        callId: call.callId,
      }));
    fixed = billing(payout, duration ?? 0, before);
  }
  const place: PlaceMove = late ? 'retake' : result.outcome === 'answered' ? 'end_live' : 'give';
  const routed = takes(call, 'call.routed');
  const billable = fixed?.billable === true && takes(call, 'call.billable');
  // What follows the writes (the events, the late payout's conversions) goes before the place's
  // move: the buyer's usage row stays locked only until the commit. Mostly nothing does, and
  // the move is in the writes' own statement.
  const after = routed || billable || late;
  const written = await r.routing.recordOfferEnd(tx, {
    offer,
    end: { outcome: result.outcome, durationSeconds: duration, endedAt: ctx.now },
    from: late ? 'canceled' : null,
    answer: fixed ? { buyerId: offer.buyerId, ...fixed } : null,
    audit: auditEntry(ctx, call, 'call.offer_ended', {
      buyer_id: offer.buyerId,
      seq: offer.seq,
      outcome: result.outcome,
      duration_seconds: duration,
      ...(fixed ? { billable: fixed.billable, payout: fixed.payout } : {}),
    }),
    place: after ? null : place,
  });
  // Read under the call's lock, the offer cannot have moved since; if it had, nothing is written.
  if (!written) return { kind: 'already_ended', offer };
  if (!after) return { kind: 'ended', offer: ended, billing: fixed };
  // Reported after the call's final status, which queued its answered-call conversions
  // without a payout: those not sent yet carry it now.
  if (late && fixed)
    await r.uploads.priceUnsent(tx, call.orgId, call.callId, fixed.payout, ctx.now);
  if (routed)
    await r.events.emitCallRouted(
      tx,
      {
        id: offer.id,
        orgId: call.orgId,
        callId: call.callId,
        seq: offer.seq,
        buyerId: offer.buyerId,
        offeredAt: offer.offeredAt,
        endedAt: ctx.now,
        outcome: result.outcome,
        durationSeconds: duration,
      },
      ctx.now,
    );
  if (billable) await r.events.emitCallBillable(tx, call.callId, ctx.now);
  await r.routing.movePlace(tx, offer, place);
  return { kind: 'ended', offer: ended, billing: fixed };
}

/**
 * The call itself ended (the carrier's final status): an offer still live was never reported
 * by its Dial, so it ends as canceled and gives its place back.
 */
export async function closeLiveOffers(
  r: CallRoutingRepos,
  tx: Transaction,
  ctx: RouteContext,
  call: RoutedCall,
): Promise<Offer[]> {
  const closed: Offer[] = [];
  for (const o of call.offers.filter((x) => x.outcome === null)) {
    const done = await endOffer(r, tx, ctx, call, o.id, {
      outcome: 'canceled',
      durationSeconds: null,
    });
    if (done.kind === 'ended') closed.push(done.offer);
  }
  return closed;
}
