import { type ConsentEvent, eventView } from '../consents/consents.js';
import { clickIdsOf, utmOf } from '../dni/session-fields.js';
import type { CallRow, CampaignSummaryRow, TouchRow, TrackingNumberRow } from './queries.js';

/** The admin API's JSON for rows it lists and shows; snake_case, times as ISO 8601. */
const iso = (d: Date | null | undefined) => d?.toISOString() ?? null;
/** Only the fields that have a value. */
const present = (o: Record<string, string | null>) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null));

export const campaignSummary = (row: CampaignSummaryRow) => ({
  campaign_id: row.campaign.id,
  code: row.campaign.code,
  name: row.campaign.name,
  pool_size: Number(row.poolSize),
  overflow_number: row.overflowNumber,
  forward_to: row.campaign.forwardTo,
  session_ttl_seconds: row.campaign.sessionTtlSeconds,
  report_window_days: row.campaign.reportWindowDays,
  created_at: iso(row.campaign.createdAt),
  updated_at: iso(row.campaign.updatedAt),
});

/** `holder` is the live DNI session holding the number, null when nobody holds it now. */
export const numberView = (row: TrackingNumberRow) => ({
  e164: row.number.e164,
  role: row.number.role,
  holder: row.sessionId ? { dni_session_id: row.sessionId, visitor_id: row.visitorId } : null,
  held_until: row.sessionId ? iso(row.number.heldUntil) : null,
  last_assigned_at: iso(row.number.lastAssignedAt),
  created_at: iso(row.number.createdAt),
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
export const touchView = (touch: TouchRow, campaignCode?: string) => ({
  touch_id: touch.id,
  campaign_id: touch.campaignId,
  ...(campaignCode === undefined ? {} : { campaign_code: campaignCode }),
  to_e164: touch.toE164,
  channel: touch.channel,
  status: touch.status,
  reasons: touch.reasons,
  checks: touch.checks,
  consent_basis: touch.consentBasis,
  decided_at: iso(touch.decidedAt),
  next_allowed_at: iso(touch.nextAllowedAt),
  variant: touch.variant,
  cadence_step: touch.cadenceStep,
  dispatch: touch.placed
    ? {
        status: touch.dispatchStatus,
        attempts: touch.attempts,
        carrier: touch.carrier,
        carrier_ids: touch.carrierIds,
        last_error: touch.lastError,
        finalized_at: iso(touch.finalizedAt),
      }
    : null,
});

export const consentEventView = (e164: string, e: ConsentEvent) => ({ e164, ...eventView(e) });
