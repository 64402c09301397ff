import { eq, type SQL, sql } from 'drizzle-orm';
import * as payload from '../../domain/webhooks/payloads.js';
import type * as W from '../../domain/webhooks/ports.js';
import type { Executor } from '../db.js';
import { first } from '../rows.js';
import { calls, campaigns, dniSessions, orgs } from '../schema/index.js';
import { emitEvent, poolAlertGate } from './webhook-outbox.js';
import { poolSizeOf } from './webhooks.js';

/**
 * One function per event type: each reads the rows its payload needs and writes the event,
 * with the `data` the domain builds from them (src/domain/webhooks/payloads.ts), in the
 * caller's transaction.
 */

async function sessionRow(ex: Executor, sessionId: string | null) {
  if (!sessionId) return null;
  return first(ex.select().from(dniSessions).where(eq(dniSessions.id, sessionId)));
}

export async function emitCallReceived(ex: Executor, c: W.ReceivedCall, at: Date) {
  const session = await sessionRow(ex, c.attribution.sessionId);
  return emitEvent(ex, {
    orgId: c.orgId,
    type: 'call.received',
    at,
    data: payload.callReceivedData(c, session),
  });
}

/**
 * Whether an enabled endpoint of the call's organization takes `type`, read with the row the
 * payload needs: an event no endpoint takes costs that one read, and emitEvent (which checks
 * again, in its own statement) is not run. A carrier webhook's transaction runs a round trip
 * for each statement, and most organizations take few of these events.
 */
const wanted = (type: string): SQL<boolean> =>
  sql<boolean>`exists (select 1 from webhook_endpoints e
    where e.org_id = ${calls.orgId} and e.enabled
      and (${type}::text = any(e.events) or '*' = any(e.events)))`;

export async function emitCallCompleted(ex: Executor, callId: string, at: Date) {
  const [c] = await ex
    .select({ call: calls, campaignCode: campaigns.code, wanted: wanted('call.completed') })
    .from(calls)
    .innerJoin(campaigns, eq(campaigns.id, calls.campaignId))
    .where(eq(calls.id, callId));
  if (!c?.wanted) return null;
  return emitEvent(ex, {
    orgId: c.call.orgId,
    type: 'call.completed',
    at,
    data: payload.callCompletedData({ ...c.call, campaignCode: c.campaignCode }),
  });
}

/** The call with its campaign's code and its organization's currency, and whether `type` is wanted. */
async function routedCallRow(ex: Executor, callId: string, type: string) {
  const [c] = await ex
    .select({
      call: calls,
      campaignCode: campaigns.code,
      currency: orgs.currency,
      wanted: wanted(type),
    })
    .from(calls)
    .innerJoin(campaigns, eq(campaigns.id, calls.campaignId))
    .innerJoin(orgs, eq(orgs.id, calls.orgId))
    .where(eq(calls.id, callId));
  return c ?? null;
}

export async function emitCallRouted(ex: Executor, o: W.EndedOffer, at: Date) {
  const c = await routedCallRow(ex, o.callId, 'call.routed');
  if (!c?.wanted) return null;
  return emitEvent(ex, {
    orgId: o.orgId,
    type: 'call.routed',
    at,
    data: payload.callRoutedData({ ...c.call, campaignCode: c.campaignCode }, o),
  });
}

export async function emitCallBillable(ex: Executor, callId: string, at: Date) {
  const c = await routedCallRow(ex, callId, 'call.billable');
  if (!c?.wanted || !c.call.billable || !c.call.buyerId || c.call.payout === null) return null;
  return emitEvent(ex, {
    orgId: c.call.orgId,
    type: 'call.billable',
    at,
    data: payload.callBillableData(
      {
        ...c.call,
        campaignCode: c.campaignCode,
        buyerId: c.call.buyerId,
        payout: Number(c.call.payout).toFixed(2),
      },
      c.currency,
      at,
    ),
  });
}

export function emitBuyerReport(ex: Executor, r: W.RecordedReport, at: Date) {
  return emitEvent(ex, {
    orgId: r.orgId,
    type: 'buyer_report.recorded',
    at,
    data: payload.buyerReportData(r, at),
  });
}

export function emitTouchQueued(ex: Executor, t: W.TouchFacts, at: Date) {
  return emitEvent(ex, {
    orgId: t.orgId,
    type: 'touch.queued',
    at,
    data: payload.touchQueuedData(t, at),
  });
}

export function emitTouchFinal(ex: Executor, t: W.TouchFacts, f: W.TouchFinal, at: Date) {
  return emitEvent(ex, {
    orgId: t.orgId,
    type: payload.touchFinalType(f),
    at,
    data: payload.touchFinalData(t, f, at),
  });
}

export function emitConsentRevoked(ex: Executor, r: W.Revocation, at: Date) {
  return emitEvent(ex, {
    orgId: r.orgId,
    type: 'consent.revoked',
    at,
    data: payload.consentRevokedData(r, at),
  });
}

export function emitPoolExhausted(ex: Executor, p: W.Exhaustion, at: Date) {
  return emitEvent(
    ex,
    { orgId: p.orgId, type: 'pool.exhausted', at, data: payload.poolExhaustedData(p, at) },
    poolAlertGate(p.campaignId, at, p.intervalMs),
  );
}

/** `repos.events`: webhook events, written in the caller's transaction. */
export function createWebhookEventRepository(): W.WebhookEmitters {
  return {
    poolSizeOf,
    emitCallReceived,
    emitCallCompleted,
    emitCallRouted,
    emitCallBillable,
    emitBuyerReport,
    emitTouchQueued,
    emitTouchFinal,
    emitConsentRevoked,
    emitPoolExhausted,
  };
}
