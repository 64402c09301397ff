/**
 * Each event's `data`, built from the facts and rows the store reads: the one place a payload
 * takes its shape (src/domain/webhooks/schemas.ts validates it, docs/webhooks.md documents
 * it). The store writes what these return (src/store/repos/webhook-emitters.ts).
 */

import type { SessionRow } from '../dni/ports.js';
import { clickIdsOf, utmOf } from '../dni/session-fields.js';
import type {
  EndedOffer,
  Exhaustion,
  ReceivedCall,
  RecordedReport,
  Revocation,
  TouchFacts,
  TouchFinal,
} from './ports.js';

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

/** The DNI session a call was attributed to, as the store reads it. */
export interface SessionFacts extends SessionRow {
  id: string;
  createdAt: Date;
  expiresAt: Date;
  ambiguous: boolean;
}

/** A finished call and its campaign's code, as the store reads them. */
export interface CompletedCall {
  id: string;
  campaignId: string;
  campaignCode: string;
  trackingNumber: string;
  fromNumber: string;
  startedAt: Date;
  endedAt: Date | null;
  durationSeconds: number | null;
  status: string | null;
  carrier: string | null;
  carrierCallSid: string | null;
  dniSessionId: string | null;
}

/** What a failed conversion upload says, as the store reads it. */
export interface FailedUpload {
  id: string;
  destinationId: string;
  callId: string;
  kind: string;
  reasonCode: string | null;
  reason: string | null;
  attempts: number;
}

export function sessionData(s: SessionFacts | null) {
  if (!s) return null;
  return {
    dni_session_id: s.id,
    visitor_id: s.visitorId,
    created_at: iso(s.createdAt),
    expires_at: iso(s.expiresAt),
    ambiguous: s.ambiguous,
    landing_url: s.landingUrl,
    click_ids: clickIdsOf(s),
    utm: utmOf(s),
  };
}

/** call.received: the call as recorded, with the session it was attributed to. */
export const callReceivedData = (c: ReceivedCall, session: SessionFacts | null) => ({
  call_id: c.callId,
  campaign_id: c.campaignId,
  campaign_code: c.campaignCode,
  tracking_number: c.trackingNumber,
  caller: c.caller,
  started_at: iso(c.startedAt),
  attribution: c.attribution.kind,
  ambiguous: c.attribution.ambiguous,
  session: sessionData(session),
  carrier: c.carrier?.name ?? null,
  carrier_call_sid: c.carrier?.callSid ?? null,
});

export const callCompletedData = (c: CompletedCall) => ({
  call_id: c.id,
  campaign_id: c.campaignId,
  campaign_code: c.campaignCode,
  tracking_number: c.trackingNumber,
  caller: c.fromNumber,
  started_at: iso(c.startedAt),
  ended_at: iso(c.endedAt),
  duration_seconds: c.durationSeconds,
  status: c.status,
  carrier: c.carrier,
  carrier_call_sid: c.carrierCallSid,
  dni_session_id: c.dniSessionId,
});

export const buyerReportData = (r: RecordedReport, at: Date) => ({
  event_id: r.eventId,
  report_id: r.reportId,
  call_id: r.callId,
  campaign_code: r.campaignCode,
  disposition: r.disposition,
  notes: r.notes,
  reported_at: iso(at),
});

const touchData = (t: TouchFacts) => ({
  touch_id: t.touchId,
  campaign_id: t.campaignId,
  to_e164: t.toE164,
  channel: t.channel,
  consent_basis: t.consentBasis,
  variant: t.variant,
  cadence_step: t.cadenceStep,
});

export const touchQueuedData = (t: TouchFacts, at: Date) => ({
  ...touchData(t),
  queued_at: iso(at),
});

/** touch.delivered when the carrier accepted it; touch.failed otherwise (unknown included). */
export const touchFinalType = (f: TouchFinal) =>
  f.dispatchStatus === 'delivered' ? ('touch.delivered' as const) : ('touch.failed' as const);

export const touchFinalData = (t: TouchFacts, f: TouchFinal, at: Date) => ({
  ...touchData(t),
  dispatch_status: f.dispatchStatus,
  attempts: f.attempts,
  carrier: f.carrier,
  carrier_ids: f.carrierIds,
  error: f.lastError,
  finalized_at: iso(at),
});

export const consentRevokedData = (r: Revocation, at: Date) => ({
  consent_event_id: r.consentEventId,
  contact: r.e164,
  kind: r.kind,
  // Revoke-all (compliance-rules.md Part A): a revocation blocks every channel.
  channel_scope: 'all',
  source: r.source ?? r.actor,
  reason: r.reason,
  revoked_at: iso(r.revokedAt),
  recorded_at: iso(at),
});

export const poolExhaustedData = (p: Exhaustion, at: Date) => ({
  campaign_id: p.campaignId,
  campaign_code: p.campaignCode,
  fallback: p.fallback,
  tracking_number: p.trackingNumber,
  pool_size: p.poolSize,
  at: iso(at),
  interval_seconds: Math.round(p.intervalMs / 1000),
});

export const uploadFailedData = (u: FailedUpload) => ({
  upload_id: u.id,
  destination_id: u.destinationId,
  call_id: u.callId,
  kind: u.kind,
  reason_code: u.reasonCode,
  reason: u.reason,
  attempts: u.attempts,
});

/** The call an offer or a payout belongs to, as the call.routed and call.billable bodies name it. */
export interface RoutedCallFacts {
  id: string;
  campaignId: string;
  campaignCode: string;
  fromNumber: string;
  startedAt: Date;
}

/** call.routed: one offer of the call and how it ended. */
export const callRoutedData = (c: RoutedCallFacts, o: EndedOffer) => ({
  call_id: c.id,
  campaign_id: c.campaignId,
  campaign_code: c.campaignCode,
  caller: c.fromNumber,
  offer_id: o.id,
  seq: o.seq,
  buyer_id: o.buyerId,
  offered_at: iso(o.offeredAt),
  ended_at: iso(o.endedAt),
  outcome: o.outcome,
  duration_seconds: o.durationSeconds,
});

/** call.billable: the buyer who answered and the payout fixed when the leg ended. */
export const callBillableData = (
  c: RoutedCallFacts & { buyerId: string; payout: string },
  currency: string,
  at: Date,
) => ({
  call_id: c.id,
  campaign_id: c.campaignId,
  campaign_code: c.campaignCode,
  caller: c.fromNumber,
  started_at: iso(c.startedAt),
  buyer_id: c.buyerId,
  payout: c.payout,
  currency,
  fixed_at: iso(at),
});
