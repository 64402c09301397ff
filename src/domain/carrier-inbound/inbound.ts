import { enqueueConversions } from '../conversions/enqueue.js';
import type { Transaction } from '../ports.js';
import type { Random } from '../routing/choose.js';
import {
  closeLiveOffers,
  endOffer,
  type OfferEnded,
  outcomeOf,
  type RouteAnswer,
  type RoutedCall,
  routeCall,
} from '../routing/route-call.js';
import type { CarrierCall, InboundCallRepos } from './ports.js';

export interface CarrierContext {
  carrier: string;
  requestId: string | null;
  now: Date;
  /** Routing's draw among buyers of one priority (docs/routing.md). */
  random: Random;
}

export interface RingingCall {
  callSid: string;
  to: string;
  from: string;
  status: string | null;
}

export type InboundAnswer =
  | { kind: 'forward'; callId: string; forwardTo: string }
  | { kind: 'no_forward'; callId: string }
  /** The campaign has a routing plan: ring a buyer, or its fallback. */
  | { kind: 'routed'; callId: string; answer: RouteAnswer }
  | { kind: 'unknown_number' };

const routedCallOf = (c: CarrierCall): RoutedCall => ({
  callId: c.callId,
  orgId: c.orgId,
  campaignId: c.campaignId,
  fromNumber: c.fromNumber,
  startedAt: c.startedAt,
  campaignForwardTo: c.forwardTo,
  buyerId: c.buyerId,
  fallback: c.fallback,
});

/** The call routed by its campaign's plan, or forwarded as before when it has none. */
async function answerFor(
  r: InboundCallRepos,
  tx: Transaction,
  ctx: CarrierContext,
  call: RoutedCall,
  fresh = false,
): Promise<InboundAnswer> {
  const answer = await routeCall(r, tx, ctx, call, fresh);
  if (answer) return { kind: 'routed', callId: call.callId, answer };
  return answerOf({ callId: call.callId, forwardTo: call.campaignForwardTo });
}

const answerOf = (c: { callId: string; forwardTo: string | null }): InboundAnswer =>
  c.forwardTo
    ? { kind: 'forward', callId: c.callId, forwardTo: c.forwardTo }
    : { kind: 'no_forward', callId: c.callId };

/**
 * A carrier webhook about one call, in a transaction that holds the lock of its carrier call id
 * (a retried webhook waits for the first), with the call as stored so far (null: none yet).
 */
function withCarrierCall<T>(
  r: InboundCallRepos,
  ctx: CarrierContext,
  callSid: string,
  fn: (tx: Transaction, known: CarrierCall | null) => Promise<T>,
): Promise<T> {
  return r.transaction(async (tx) => {
    return fn(tx, await r.calls.lockCarrierCall(tx, ctx.carrier, callSid));
  });
}

/**
 * A carrier's voice webhook: attributes and stores the call once per
 * carrier call id (a retried webhook gets the same answer), and says where
 * to forward it.
 */
export async function acceptInboundCall(
  repos: InboundCallRepos,
  ctx: CarrierContext,
  call: RingingCall,
): Promise<InboundAnswer> {
  return withCarrierCall(repos, ctx, call.callSid, async (tx, known) => {
    if (known) return answerFor(repos, tx, ctx, routedCallOf(known));
    const recorded = await repos.calls.recordInboundCall(
      tx,
      null,
      {
        to: call.to,
        from: call.from,
        startedAt: ctx.now,
        carrier: { name: ctx.carrier, callSid: call.callSid, status: call.status },
      },
      `carrier:${ctx.carrier}`,
      ctx.requestId,
      ctx.now,
    );
    if (!recorded) return { kind: 'unknown_number' };
    return answerFor(
      repos,
      tx,
      ctx,
      {
        callId: recorded.callId,
        orgId: recorded.orgId,
        campaignId: recorded.campaignId,
        fromNumber: call.from,
        startedAt: ctx.now,
        campaignForwardTo: recorded.forwardTo,
        buyerId: null,
        fallback: null,
      },
      true,
    );
  });
}

export interface DialResult {
  callSid: string;
  /** The offer the Dial rang (the action URL's `offer`). */
  offerId: string;
  /** Twilio's DialCallStatus and DialCallDuration. */
  dialCallStatus: string;
  dialCallDuration: number | null;
}

export type DialOutcome =
  | { kind: 'unknown_call' }
  | { kind: 'routed'; ended: OfferEnded; answer: RouteAnswer };

/**
 * The carrier's Dial ended (Twilio's Dial action): the offer ends with its outcome, then the
 * call goes to the next eligible buyer or the fallback. Two transactions, each under the
 * call's lock: giving the ended offer's place back and taking the next buyer's are never held
 * together, so no two calls lock two buyers in opposite orders (docs/routing.md).
 */
export async function acceptDialResult(
  repos: InboundCallRepos,
  ctx: CarrierContext,
  result: DialResult,
): Promise<DialOutcome> {
  const outcome = outcomeOf(result.dialCallStatus);
  const first = await withCarrierCall(repos, ctx, result.callSid, async (tx, known) => {
    if (!known) return null;
    const call = routedCallOf(known);
    return endOffer(repos, tx, ctx, call, result.offerId, {
      outcome,
      durationSeconds: result.dialCallDuration,
    });
  });
  if (first === null) return { kind: 'unknown_call' };
  const answer = await withCarrierCall(repos, ctx, result.callSid, async (tx, known) => {
    // The caller left while the buyer rang: nothing more to offer.
    if (!known || outcome === 'canceled') return { kind: 'hangup' } as const;
    return (await routeCall(repos, tx, ctx, routedCallOf(known))) ?? ({ kind: 'hangup' } as const);
  });
  return { kind: 'routed', ended: first, answer };
}

/** Twilio's final call statuses; anything else is a call still in progress. */
export const FINAL_STATUSES = new Set(['completed', 'busy', 'no-answer', 'failed', 'canceled']);
const PROGRESS = ['queued', 'initiated', 'ringing', 'in-progress'];

/** Whether a callback moves the call forward: a late or repeated callback moves nothing. */
export function advancesStatus(current: string | null, next: string): boolean {
  if (current === null) return true;
  if (FINAL_STATUSES.has(current)) return false;
  if (FINAL_STATUSES.has(next)) return true;
  return PROGRESS.indexOf(next) > PROGRESS.indexOf(current);
}

export interface StatusReport {
  callSid: string;
  status: string;
  durationSeconds: number | null;
}

export type StatusOutcome = 'recorded' | 'unchanged' | 'unknown_call';

/**
 * A carrier's status callback. The first final status wins: callbacks are
 * retried and may arrive out of order, and a repeat changes nothing.
 */
export async function recordCallStatus(
  repos: InboundCallRepos,
  ctx: CarrierContext,
  report: StatusReport,
): Promise<StatusOutcome> {
  return withCarrierCall(repos, ctx, report.callSid, async (tx, call) => {
    if (!call) return 'unknown_call';
    if (!advancesStatus(call.status, report.status)) return 'unchanged';
    const final = FINAL_STATUSES.has(report.status);
    const change = {
      status: report.status,
      durationSeconds: final ? report.durationSeconds : null,
      endedAt: final ? ctx.now : null,
    };
    await repos.calls.setCarrierCallStatus(tx, call.callId, change);
    await repos.audit.writeAudit(tx, {
      orgId: call.orgId,
      actor: `carrier:${ctx.carrier}`,
      action: 'call.status_recorded',
      subjectType: 'call',
      subjectId: call.callId,
      detail: {
        status: change.status,
        duration_seconds: change.durationSeconds,
        ended_at: change.endedAt?.toISOString() ?? null,
      },
      requestId: ctx.requestId,
      at: ctx.now,
    });
    if (final) await repos.events.emitCallCompleted(tx, call.callId, ctx.now);
    const seconds = change.durationSeconds;
    if (report.status === 'completed' && seconds !== null) {
      // Destinations triggered by an answered call of at least their min_seconds.
      await enqueueConversions(
        repos.uploads,
        tx,
        {
          orgId: call.orgId,
          campaignCode: call.campaignCode,
          callId: call.callId,
          eventId: call.callId,
          at: ctx.now,
        },
        'answered_call',
        (d) => seconds >= (d.trigger.min_seconds ?? 0),
      );
    }
    // An offer whose Dial never reported its end stops counting when the call ends (last: it
    // locks the buyer's usage row until the commit).
    if (final) await closeLiveOffers(repos, tx, ctx, routedCallOf(call));
    return 'recorded';
  });
}
