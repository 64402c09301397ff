import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import type { EventType } from '../../../src/domain/webhooks/events.js';
import {
  buyerReportData,
  callCompletedData,
  callReceivedData,
  consentRevokedData,
  poolExhaustedData,
  type SessionFacts,
  touchFinalData,
  touchFinalType,
  touchQueuedData,
  uploadFailedData,
} from '../../../src/domain/webhooks/payloads.js';
import type { TouchFacts, TouchFinal } from '../../../src/domain/webhooks/ports.js';
import { EVENT_DATA_SCHEMAS } from '../../../src/domain/webhooks/schemas.js';

/**
 * Each event's data from the rows the store reads (src/domain/webhooks/payloads.ts): the exact
 * fields receivers get, and every one valid against the published schema of its type.
 */
const at = new Date('2026-03-01T12:00:00.000Z');
const earlier = new Date('2026-03-01T11:59:00.000Z');

function valid(type: EventType, data: unknown) {
  const errors = [...Value.Errors(EVENT_DATA_SCHEMAS[type], data)].map((e) => e.message);
  expect(errors, type).toEqual([]);
}

const session: SessionFacts = {
  id: 'ses_1',
  visitorId: 'v1',
  createdAt: earlier,
  expiresAt: at,
  ambiguous: false,
  landingUrl: 'https://example.com/a',
  gclid: 'G1',
  gbraid: null,
  wbraid: null,
  fbclid: null,
  fbc: null,
  fbp: null,
  msclkid: null,
  utmSource: 'google',
  utmMedium: 'cpc',
  utmCampaign: null,
  utmTerm: null,
  utmContent: null,
};

const touch: TouchFacts = {
  touchId: 'tch_1',
  orgId: 'org_1',
  campaignId: 'cmp_1',
  toE164: '+14155550100',
  channel: 'sms',
  consentBasis: 'pewc',
  variant: null,
  cadenceStep: 1,
};

describe('call events', () => {
  it('call.received carries the attributed session, or null', () => {
    const call = {
      callId: 'call_1',
      orgId: 'org_1',
      campaignId: 'cmp_1',
      campaignCode: 'c1',
      trackingNumber: '+14155550101',
      caller: '+12125550100',
      startedAt: at,
      attribution: { kind: 'session', sessionId: 'ses_1', ambiguous: false },
      carrier: null,
    } as const;
    const data = callReceivedData(call as never, session);
    expect(data).toEqual({
      call_id: 'call_1',
      campaign_id: 'cmp_1',
      campaign_code: 'c1',
      tracking_number: '+14155550101',
      caller: '+12125550100',
      started_at: '2026-03-01T12:00:00.000Z',
      attribution: 'session',
      ambiguous: false,
      session: {
        dni_session_id: 'ses_1',
        visitor_id: 'v1',
        created_at: '2026-03-01T11:59:00.000Z',
        expires_at: '2026-03-01T12:00:00.000Z',
        ambiguous: false,
        landing_url: 'https://example.com/a',
        click_ids: {
          gclid: 'G1',
          gbraid: null,
          wbraid: null,
          fbclid: null,
          fbc: null,
          fbp: null,
          msclkid: null,
        },
        utm: { source: 'google', medium: 'cpc', campaign: null, term: null, content: null },
      },
      carrier: null,
      carrier_call_sid: null,
    });
    valid('call.received', data);
    valid('call.received', callReceivedData(call as never, null));
    expect(callReceivedData(call as never, null).session).toBeNull();
  });

  it('call.completed', () => {
    const data = callCompletedData({
      id: 'call_1',
      campaignId: 'cmp_1',
      campaignCode: 'c1',
      trackingNumber: '+14155550101',
      fromNumber: '+12125550100',
      startedAt: earlier,
      endedAt: at,
      durationSeconds: 60,
      status: 'completed',
      carrier: 'twilio',
      carrierCallSid: 'CA1',
      dniSessionId: null,
    });
    expect(data).toEqual({
      call_id: 'call_1',
      campaign_id: 'cmp_1',
      campaign_code: 'c1',
      tracking_number: '+14155550101',
      caller: '+12125550100',
      started_at: '2026-03-01T11:59:00.000Z',
      ended_at: '2026-03-01T12:00:00.000Z',
      duration_seconds: 60,
      status: 'completed',
      carrier: 'twilio',
      carrier_call_sid: 'CA1',
      dni_session_id: null,
    });
    valid('call.completed', data);
  });
});

describe('touch events', () => {
  it('touch.queued, then delivered or failed by the dispatch status', () => {
    const queued = touchQueuedData(touch, at);
    expect(queued).toEqual({
      touch_id: 'tch_1',
      campaign_id: 'cmp_1',
      to_e164: '+14155550100',
      channel: 'sms',
      consent_basis: 'pewc',
      variant: null,
      cadence_step: 1,
      queued_at: '2026-03-01T12:00:00.000Z',
    });
    valid('touch.queued', queued);
    const final: TouchFinal = {
      dispatchStatus: 'unknown',
      attempts: 3,
      carrier: 'simulated',
      carrierIds: [],
      lastError: 'timeout',
    };
    expect(touchFinalType(final)).toBe('touch.failed');
    expect(touchFinalType({ ...final, dispatchStatus: 'delivered' })).toBe('touch.delivered');
    const data = touchFinalData(touch, final, at);
    expect(data).toEqual({
      ...queued,
      queued_at: undefined,
      dispatch_status: 'unknown',
      attempts: 3,
      carrier: 'simulated',
      carrier_ids: [],
      error: 'timeout',
      finalized_at: '2026-03-01T12:00:00.000Z',
    });
    expect('queued_at' in data).toBe(false);
    valid('touch.failed', data);
  });
});

describe('other events', () => {
  it('buyer_report.recorded, consent.revoked, pool.exhausted, conversion.upload_failed', () => {
    const report = buyerReportData(
      {
        orgId: 'org_1',
        eventId: 'evt_1',
        reportId: 'r1',
        callId: 'call_1',
        campaignCode: 'c1',
        disposition: 'success',
        notes: null,
      },
      at,
    );
    expect(report.reported_at).toBe('2026-03-01T12:00:00.000Z');
    valid('buyer_report.recorded', report);

    const revoked = consentRevokedData(
      {
        orgId: 'org_1',
        consentEventId: 'cns_1',
        e164: '+14155550100',
        kind: 'revoked',
        source: null,
        reason: null,
        actor: 'admin',
        revokedAt: earlier,
      },
      at,
    );
    // No source given: the actor stands in.
    expect(revoked).toMatchObject({ channel_scope: 'all', source: 'admin' });
    valid('consent.revoked', revoked);

    const pool = poolExhaustedData(
      {
        orgId: 'org_1',
        campaignId: 'cmp_1',
        campaignCode: 'c1',
        fallback: 'shared',
        trackingNumber: '+14155550101',
        poolSize: 3,
        intervalMs: 299_600,
      },
      at,
    );
    expect(pool.interval_seconds).toBe(300);
    valid('pool.exhausted', pool);

    const upload = uploadFailedData({
      id: 'cup_1',
      destinationId: 'cdst_1',
      callId: 'call_1',
      kind: 'conversion',
      reasonCode: 'no_click_id',
      reason: 'no click id',
      attempts: 1,
    });
    expect(upload).toEqual({
      upload_id: 'cup_1',
      destination_id: 'cdst_1',
      call_id: 'call_1',
      kind: 'conversion',
      reason_code: 'no_click_id',
      reason: 'no click id',
      attempts: 1,
    });
    valid('conversion.upload_failed', upload);
  });
});
