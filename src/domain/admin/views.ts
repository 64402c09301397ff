import { type ConsentEvent, eventView } from '../consents/consents.js';
import { clickIdsOf, utmOf } from '../dni/session-fields.js';
import type { CallRow, CampaignSummaryRow, TouchRow, TrackingNumberRow } from './queries.js';

/** The admin API's JSON for rows it lists and shows; snake_case, times as ISO 8601. */
const iso = (d: Date | null | undefined) => d?.toISOString() ?? null;
/** Only the fields that have a value. */
const present = (o: Record<string, string | null>) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null));

export const campaignSummary = (r: CampaignSummaryRow) => ({
  campaign_id: r.campaign.id,
  code: r.campaign.code,
  name: r.campaign.name,
  pool_size: Number(r.poolSize),
  overflow_number: r.overflowNumber,
  forward_to: r.campaign.forwardTo,
  session_ttl_seconds: r.campaign.sessionTtlSeconds,
  report_window_days: r.campaign.reportWindowDays,
  created_at: iso(r.campaign.createdAt),
  updated_at: iso(r.campaign.updatedAt),
});

/** `holder` is the live DNI session holding the number, null when nobody holds it now. */
export const numberView = (r: TrackingNumberRow) => ({
  e164: r.number.e164,
  role: r.number.role,
  holder: r.sessionId ? { dni_session_id: r.sessionId, visitor_id: r.visitorId } : null,
  held_until: r.sessionId ? iso(r.number.heldUntil) : null,
  last_assigned_at: iso(r.number.lastAssignedAt),
  created_at: iso(r.number.createdAt),
});

export const callView = ({ call: c, campaignCode, session: s }: CallRow) => ({
  call_id: c.id,
  campaign_code: campaignCode,
  tracking_number: c.trackingNumber,
  from: c.fromNumber,
  started_at: iso(c.startedAt),
  attribution: {
    kind: c.attribution,
    ambiguous: c.ambiguous,
    dni_session_id: c.dniSessionId,
    visitor_id: s?.visitorId ?? null,
    landing_url: s?.landingUrl ?? null,
    click_ids: s ? present(clickIdsOf(s)) : {},
    utm: s ? present(utmOf(s)) : {},
  },
  carrier: c.carrier,
  carrier_call_sid: c.carrierCallSid,
  status: c.status,
  duration_seconds: c.durationSeconds,
  ended_at: iso(c.endedAt),
  disposition: c.disposition,
  disposition_at: iso(c.dispositionAt),
  buyer_id: c.buyerId,
  billable: c.billable,
  payout: c.payout,
  created_at: iso(c.createdAt),
});

/** A touch as decided (status, reasons, every check) and, once placed, as dispatched. */
export const touchView = (t: TouchRow, campaignCode?: string) => ({
  touch_id: t.id,
  campaign_id: t.campaignId,
  ...(campaignCode === undefined ? {} : { campaign_code: campaignCode }),
  to_e164: t.toE164,
  channel: t.channel,
  status: t.status,
  reasons: t.reasons,
  checks: t.checks,
  consent_basis: t.consentBasis,
  decided_at: iso(t.decidedAt),
  next_allowed_at: iso(t.nextAllowedAt),
  variant: t.variant,
  cadence_step: t.cadenceStep,
  dispatch: t.placed
    ? {
        status: t.dispatchStatus,
        attempts: t.attempts,
        carrier: t.carrier,
        carrier_ids: t.carrierIds,
        last_error: t.lastError,
        finalized_at: iso(t.finalizedAt),
      }
    : null,
});

export const consentEventView = (e164: string, e: ConsentEvent) => ({ e164, ...eventView(e) });
