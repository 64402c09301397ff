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

export function sessionData(session: SessionFacts | null) {
  if (!session) return null;
  return {
    dni_session_id: session.id,
    visitor_id: session.visitorId,
    created_at: iso(session.createdAt),
    expires_at: iso(session.expiresAt),
    ambiguous: session.ambiguous,
    landing_url: session.landingUrl,
    click_ids: clickIdsOf(session),
    utm: utmOf(session),
  };
}

/** call.received: the call as recorded, with the session it was attributed to. */
export const callReceivedData = (call: ReceivedCall, session: SessionFacts | null) => ({
  call_id: call.callId,
  campaign_id: call.campaignId,
  campaign_code: call.campaignCode,
  tracking_number: call.trackingNumber,
  caller: call.caller,
  started_at: iso(call.startedAt),
  attribution: call.attribution.kind,
  ambiguous: call.attribution.ambiguous,
  session: sessionData(session),
  carrier: call.carrier?.name ?? null,
  carrier_call_sid: call.carrier?.callSid ?? null,
});

export const callCompletedData = (call: CompletedCall) => ({
  call_id: call.id,
  campaign_id: call.campaignId,
  campaign_code: call.campaignCode,
  tracking_number: call.trackingNumber,
  caller: call.fromNumber,
  started_at: iso(call.startedAt),
  ended_at: iso(call.endedAt),
  duration_seconds: call.durationSeconds,
  status: call.status,
  carrier: call.carrier,
  carrier_call_sid: call.carrierCallSid,
  dni_session_id: call.dniSessionId,
});

export const buyerReportData = (report: RecordedReport, at: Date) => ({
  event_id: report.eventId,
  report_id: report.reportId,
  call_id: report.callId,
  campaign_code: report.campaignCode,
  disposition: report.disposition,
  notes: report.notes,
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

export const touchQueuedData = (touch: TouchFacts, at: Date) => ({
  ...touchData(touch),
  queued_at: iso(at),
});

/** touch.delivered when the carrier accepted it; touch.failed otherwise (unknown included). */
export const touchFinalType = (final: TouchFinal) =>
  final.dispatchStatus === 'delivered' ? ('touch.delivered' as const) : ('touch.failed' as const);

export const touchFinalData = (touch: TouchFacts, f: TouchFinal, at: Date) => ({
  ...touchData(touch),
  dispatch_status: f.dispatchStatus,
  attempts: f.attempts,
  carrier: f.carrier,
  carrier_ids: f.carrierIds,
  error: f.lastError,
  finalized_at: iso(at),
});

export const consentRevokedData = (revocation: Revocation, at: Date) => ({
  consent_event_id: revocation.consentEventId,
  contact: revocation.e164,
  kind: revocation.kind,
  // Revoke-all (compliance-rules.md Part A): a revocation blocks every channel.
  channel_scope: 'all',
  source: revocation.source ?? revocation.actor,
  reason: revocation.reason,
  revoked_at: iso(revocation.revokedAt),
  recorded_at: iso(at),
});

export const poolExhaustedData = (exhaustion: Exhaustion, at: Date) => ({
  campaign_id: exhaustion.campaignId,
  campaign_code: exhaustion.campaignCode,
  fallback: exhaustion.fallback,
  tracking_number: exhaustion.trackingNumber,
  pool_size: exhaustion.poolSize,
  at: iso(at),
  interval_seconds: Math.round(exhaustion.intervalMs / 1000),
});

export const uploadFailedData = (upload: FailedUpload) => ({
  upload_id: upload.id,
  destination_id: upload.destinationId,
  call_id: upload.callId,
  kind: upload.kind,
  reason_code: upload.reasonCode,
  reason: upload.reason,
  attempts: upload.attempts,
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
export const callRoutedData = (call: RoutedCallFacts, o: EndedOffer) => ({
  call_id: call.id,
  campaign_id: call.campaignId,
  campaign_code: call.campaignCode,
  caller: call.fromNumber,
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
  call: RoutedCallFacts & { buyerId: string; payout: string },
  currency: string,
  at: Date,
) => ({
  call_id: call.id,
  campaign_id: call.campaignId,
  campaign_code: call.campaignCode,
  caller: call.fromNumber,
  started_at: iso(call.startedAt),
  buyer_id: call.buyerId,
  payout: call.payout,
  currency,
  fixed_at: iso(at),
});
