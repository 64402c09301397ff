import { eq } from 'drizzle-orm';
import type {
  Exhaustion,
  ReceivedCall,
  RecordedReport,
  Revocation,
  TouchFacts,
  TouchFinal,
  WebhookEmitters,
} from '../../domain/webhooks/ports.js';
import type { Executor } from '../db.js';
import { calls, campaigns, dniSessions } from '../schema/index.js';
import { emitEvent, poolAlertGate } from './webhook-outbox.js';
import { poolSizeOf } from './webhooks.js';

export type { Exhaustion, ReceivedCall, RecordedReport, Revocation, TouchFacts, TouchFinal };

/**
 * One function per event type: each reads what its payload needs and writes the event in the
 * caller's transaction. Payload shapes: src/domain/webhooks/schemas.ts and docs/webhooks.md.
 */

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

async function sessionView(ex: Executor, sessionId: string | null) {
  if (!sessionId) return null;
  const [s] = await ex.select().from(dniSessions).where(eq(dniSessions.id, sessionId));
  if (!s) return null;
  return {
    dni_session_id: s.id,
    visitor_id: s.visitorId,
    created_at: iso(s.createdAt),
    expires_at: iso(s.expiresAt),
    ambiguous: s.ambiguous,
    landing_url: s.landingUrl,
    click_ids: {
      gclid: s.gclid,
      gbraid: s.gbraid,
      wbraid: s.wbraid,
      fbclid: s.fbclid,
      fbc: s.fbc,
      fbp: s.fbp,
      msclkid: s.msclkid,
    },
    utm: {
      source: s.utmSource,
      medium: s.utmMedium,
      campaign: s.utmCampaign,
      term: s.utmTerm,
      content: s.utmContent,
    },
  };
}

export async function emitCallReceived(ex: Executor, c: ReceivedCall, at: Date) {
  return emitEvent(ex, {
    orgId: c.orgId,
    type: 'call.received',
    at,
    data: {
      call_id: c.callId,
      campaign_id: c.campaignId,
      campaign_code: c.campaignCode,
      tracking_number: c.trackingNumber,
      caller: c.caller,
      started_at: iso(c.startedAt),
      attribution: c.attribution.kind,
      ambiguous: c.attribution.ambiguous,
      session: await sessionView(ex, c.attribution.sessionId),
      carrier: c.carrier?.name ?? null,
      carrier_call_sid: c.carrier?.callSid ?? null,
    },
  });
}

export async function emitCallCompleted(ex: Executor, callId: string, at: Date) {
  const [c] = await ex
    .select({ call: calls, code: campaigns.code })
    .from(calls)
    .innerJoin(campaigns, eq(campaigns.id, calls.campaignId))
    .where(eq(calls.id, callId));
  if (!c) return null;
  return emitEvent(ex, {
    orgId: c.call.orgId,
    type: 'call.completed',
    at,
    data: {
      call_id: c.call.id,
      campaign_id: c.call.campaignId,
      campaign_code: c.code,
      tracking_number: c.call.trackingNumber,
      caller: c.call.fromNumber,
      started_at: iso(c.call.startedAt),
      ended_at: iso(c.call.endedAt),
      duration_seconds: c.call.durationSeconds,
      status: c.call.status,
      carrier: c.call.carrier,
      carrier_call_sid: c.call.carrierCallSid,
      dni_session_id: c.call.dniSessionId,
    },
  });
}

export function emitBuyerReport(ex: Executor, r: RecordedReport, at: Date) {
  return emitEvent(ex, {
    orgId: r.orgId,
    type: 'buyer_report.recorded',
    at,
    data: {
      event_id: r.eventId,
      report_id: r.reportId,
      call_id: r.callId,
      campaign_code: r.campaignCode,
      disposition: r.disposition,
      notes: r.notes,
      reported_at: iso(at),
    },
  });
}

const touchData = (t: TouchFacts) => ({
  touch_id: t.touchId,
  campaign_id: t.campaignId,
  to_e164: t.toE164,
  channel: t.channel,
  consent_basis: t.consentBasis,
  variant: t.variant,
  cadence_step: t.cadenceStep,
});

export function emitTouchQueued(ex: Executor, t: TouchFacts, at: Date) {
  return emitEvent(ex, {
    orgId: t.orgId,
    type: 'touch.queued',
    at,
    data: { ...touchData(t), queued_at: iso(at) },
  });
}

export function emitTouchFinal(ex: Executor, t: TouchFacts, f: TouchFinal, at: Date) {
  return emitEvent(ex, {
    orgId: t.orgId,
    type: f.dispatchStatus === 'delivered' ? 'touch.delivered' : 'touch.failed',
    at,
    data: {
      ...touchData(t),
      dispatch_status: f.dispatchStatus,
      attempts: f.attempts,
      carrier: f.carrier,
      carrier_ids: f.carrierIds,
      error: f.lastError,
      finalized_at: iso(at),
    },
  });
}

export function emitConsentRevoked(ex: Executor, r: Revocation, at: Date) {
  return emitEvent(ex, {
    orgId: r.orgId,
    type: 'consent.revoked',
    at,
    data: {
      consent_event_id: r.consentEventId,
      contact: r.e164,
      kind: r.kind,
      // Revoke-all (compliance-rules.md Part A): a revocation blocks every channel.
      channel_scope: 'all',
      source: r.source ?? r.actor,
      reason: r.reason,
      revoked_at: iso(r.revokedAt),
      recorded_at: iso(at),
    },
  });
}

export function emitPoolExhausted(ex: Executor, p: Exhaustion, at: Date) {
  return emitEvent(
    ex,
    {
      orgId: p.orgId,
      type: 'pool.exhausted',
      at,
      data: {
        campaign_id: p.campaignId,
        campaign_code: p.campaignCode,
        fallback: p.fallback,
        tracking_number: p.trackingNumber,
        pool_size: p.poolSize,
        at: iso(at),
        interval_seconds: Math.round(p.intervalMs / 1000),
      },
    },
    poolAlertGate(p.campaignId, at, p.intervalMs),
  );
}

/** `repos.events`: webhook events, written in the caller's transaction. */
export function createWebhookEventRepository(): WebhookEmitters {
  return {
    poolSizeOf,
    emitCallReceived,
    emitCallCompleted,
    emitBuyerReport,
    emitTouchQueued,
    emitTouchFinal,
    emitConsentRevoked,
    emitPoolExhausted,
  };
}
