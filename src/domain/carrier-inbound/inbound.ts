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
  routeNewCalls,
  takes,
} from '../routing/route-call.js';
import type { CarrierCall, InboundCallRepos, InboundCallRequest } from './ports.js';

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
  | { kind: 'forward'; callId: string; orgId: string; forwardTo: string }
  | { kind: 'no_forward'; callId: string; orgId: string }
  /** The campaign has a routing plan: ring a buyer, or its fallback. */
  | { kind: 'routed'; callId: string; orgId: string; answer: RouteAnswer }
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
  offers: c.offers,
  events: c.events,
});

/** The call routed by its campaign's plan, or forwarded as before when it has none. */
async function answerFor(
  r: InboundCallRepos,
  tx: Transaction,
  ctx: CarrierContext,
  call: RoutedCall,
): Promise<InboundAnswer> {
  const answer = await routeCall(r, tx, ctx, call);
  return answerOf(call, answer);
}

/** Routed by its plan, or forwarded as before (no plan: `route` null). */
const answerOf = (call: RoutedCall, route: RouteAnswer | null): InboundAnswer => {
  const { callId, orgId } = call;
  if (route) return { kind: 'routed', callId, orgId, answer: route };
  return call.campaignForwardTo
    ? { kind: 'forward', callId, orgId, forwardTo: call.campaignForwardTo }
    : { kind: 'no_forward', callId, orgId };
};

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
    const known = await r.calls.lockCarrierCalls(tx, ctx.carrier, [callSid]);
    return fn(tx, known.get(callSid) ?? null);
  });
}

/** A voice webhook: the ringing call and the request that brought it. */
export interface RingingRequest {
  ctx: CarrierContext;
  call: RingingCall;
}

/**
 * A carrier's voice webhooks for calls that arrived together (deps.ringing batches them): each
 * call is attributed and stored once per carrier call id and offered to a buyer or forwarded,
 * in one transaction of a few statements whatever the batch's size (docs/routing.md, "What a
 * call costs"). A retried webhook, whose call was stored before (or earlier in this batch),
 * gets the same answer as the first, in a transaction of its own after the batch's. All of
 * one carrier.
 */
export async function acceptInboundCalls(
  repos: InboundCallRepos,
  requests: readonly RingingRequest[],
): Promise<InboundAnswer[]> {
  const carrier = requests[0]?.ctx.carrier ?? '';
  const answers = await repos.transaction(async (tx) => {
    const inbound = requests.map(({ ctx, call }) => ({
      call: {
        to: call.to,
        from: call.from,
        startedAt: ctx.now,
        carrier: { name: carrier, callSid: call.callSid, status: call.status },
      },
      requestId: ctx.requestId,
      now: ctx.now,
    }));
    const { known, gathered } = await repos.calls.lockRingingCalls(tx, carrier, inbound);
    // The first webhook of each call not stored yet; the others are retries (answered after).
    const seen = new Set(known.keys());
    const fresh: RingingRequest[] = [];
    const freshInbound: InboundCallRequest[] = [];
    requests.forEach((r, i) => {
      if (seen.has(r.call.callSid)) return;
      seen.add(r.call.callSid);
      fresh.push(r);
      freshInbound.push(inbound[i]!);
    });
    const { calls: recorded, plans } = await repos.calls.recordRoutedCalls(
      tx,
      freshInbound,
      `carrier:${carrier}`,
      gathered,
    );
    const stored = fresh.flatMap((r, i) => {
      const c = recorded[i];
      if (!c) return [];
      const call: RoutedCall = {
        callId: c.callId,
        orgId: c.orgId,
        campaignId: c.campaignId,
        fromNumber: r.call.from,
        startedAt: r.ctx.now,
        campaignForwardTo: c.forwardTo,
        buyerId: null,
        fallback: null,
        offers: [],
        events: null,
      };
      return [{ request: r, ctx: r.ctx, call }];
    });
    const routes = await routeNewCalls(repos, tx, stored, plans);
    const out = new Map<RingingRequest, InboundAnswer>();
    fresh.forEach((r, i) => {
      if (!recorded[i]) out.set(r, { kind: 'unknown_number' });
    });
    stored.forEach(({ request, call }, i) => {
      out.set(request, answerOf(call, routes[i] ?? null));
    });
    return out;
  });
  const all: InboundAnswer[] = [];
  for (const r of requests) all.push(answers.get(r) ?? (await answerRetried(repos, r)));
  return all;
}

/** A retried voice webhook: its call's answer as it stands, under the call's lock. */
async function answerRetried(repos: InboundCallRepos, r: RingingRequest): Promise<InboundAnswer> {
  const answer = await withCarrierCall(repos, r.ctx, r.call.callSid, async (tx, known) =>
    known ? answerFor(repos, tx, r.ctx, routedCallOf(known)) : null,
  );
  // Stored under the lock by then, unless the batch that stored it rolled back: record it now.
  return answer ?? (await acceptInboundCalls(repos, [r]))[0]!;
}

export interface DialResult {
  callSid: string;
  /** The offer the Dial rang (the action URL's `offer`). */
  offerId: string;
  /** Twilio's DialCallStatus and DialCallDuration. */
  dialCallStatus: string;
  dialCallDuration: number | null;
  /** The call's own status as the carrier sent it with the result (Twilio's CallStatus). */
  callStatus?: string | null;
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
    const ended = await endOffer(repos, tx, ctx, call, result.offerId, {
      outcome,
      durationSeconds: result.dialCallDuration,
    });
    return { ended, call };
  });
  if (first === null) return { kind: 'unknown_call' };
  const { ended } = first;
  // Nothing more to offer, and the second transaction would only find it so: the buyer answered
  // (the call has its buyer now), or the caller left while the buyer rang (the Dial canceled, or
  // the call's own status in the request final, whatever the Dial's result says).
  const done =
    (ended.kind === 'ended' && outcome === 'answered') ||
    outcome === 'canceled' ||
    FINAL_STATUSES.has(result.callStatus ?? '');
  if (done) return { kind: 'routed', ended, answer: { kind: 'hangup' } };
  // The call's lock and its campaign's plan in one round trip (lockRoutedCall); the call's
  // organization and campaign are the first transaction's.
  const answer = await repos.transaction(async (tx) => {
    const { known, plans } = await repos.calls.lockRoutedCall(
      tx,
      ctx.carrier,
      result.callSid,
      first.call,
    );
    // The call's final status came in since the first transaction: the caller left, nothing
    // more to offer, and nothing would end an offer made now.
    if (!known || FINAL_STATUSES.has(known.status ?? '')) return { kind: 'hangup' } as const;
    return (
      (await routeCall(repos, tx, ctx, routedCallOf(known), plans)) ?? ({ kind: 'hangup' } as const)
    );
  });
  return { kind: 'routed', ended, answer };
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
    await repos.calls.setCarrierCallStatus(tx, call.callId, change, {
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
    if (final && takes(call, 'call.completed'))
      await repos.events.emitCallCompleted(tx, call.callId, ctx.now);
    const seconds = change.durationSeconds;
    const converts = call.conversionTriggers.has('answered_call');
    if (report.status === 'completed' && seconds !== null && converts) {
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
    // locks the buyer's usage row until the commit). A call a buyer answered, or that went to
    // its fallback, has none: each offer ends before the next is made, and the answered one
    // ended when the call got its buyer.
    const mayHaveLive = call.buyerId === null && call.fallback === null;
    if (final && mayHaveLive) await closeLiveOffers(repos, tx, ctx, routedCallOf(call));
    return 'recorded';
  });
}
