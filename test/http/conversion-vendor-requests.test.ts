import { afterEach, describe, expect, it } from 'vitest';
import {
  createDestination,
  destinationCall,
  GOOGLE_NO_DEV_TOKEN,
  uploadsOf,
  useUploads,
} from '../helpers/conversions.js';
import type { Seen } from '../helpers/fake-ad-platforms.js';
import { createTenant, dni, json, type Tenant, useHarness } from '../helpers/harness.js';
import { recordCall, report } from '../helpers/reports.js';
import {
  dataManagerType,
  ga4Problems,
  googleAdsType,
  metaProblems,
  microsoftProblems,
  protoProblems,
} from '../helpers/vendor-definitions.js';

/**
 * What reaches each platform, end to end (a DNI session with a click id, a call, a buyer's
 * success report, the upload worker), judged by the vendor's own published definition
 * (test/helpers/vendor-definitions.ts); and the Data Manager API's answers read in Google's
 * error model. The settings and version warnings: conversion-versions.test.ts.
 */
const h = useHarness({ privateDatabase: 'the upload worker claims every organization’s uploads' });
const u = useUploads(h);
afterEach(() => {
  u.fake.script = () => null;
});

const GOOGLE = { customer_id: '123-456-7890', conversion_action: '987654321' };
let seq = 0;

async function convert(t: Tenant, session: Record<string, unknown>, disposition = 'success') {
  const s = json(
    await dni(h, t.key, { campaign_code: t.code, visitor_id: `vr-${seq++}`, ...session }),
  );
  const callId = await recordCall(h, t, { to: s.tracking_number, from: '+12125550142' });
  const res = await report(h, t.key, t.code, {
    call_id: callId,
    report_id: `vr-${seq++}`,
    disposition,
  });
  expect(res.statusCode).toBe(201);
  return callId;
}

async function drain() {
  let n = 0;
  while ((await u.worker.tick()) > 0 && n < 20) n++;
}

/** Past the first check of the requests Data Manager accepted (confirmAfterMs), and drained. */
async function confirm() {
  h.clock.advance(u.worker.options.confirmAfterMs / 1000);
  await drain();
}

/** The requests to one path that the platform fakes saw from index `from` on. */
const sent = (from: number, path: RegExp): Seen[] =>
  u.fake.requests.slice(from).filter((s) => path.test(s.path));

describe('each request as sent, judged by the vendor’s definition', () => {
  it('Google, by default: one Data Manager events:ingest that decodes against its protos', async () => {
    h.clock.set('2026-11-20T15:04:05Z');
    const t = await createTenant(h);
    const d = await createDestination(h, t.orgId, 'google_ads', {
      value: { amount: 120.5, currency: 'USD' },
      settings: { ...GOOGLE, login_customer_id: '111-222-3333', consent: 'granted' },
      secrets: GOOGLE_NO_DEV_TOKEN,
    });
    expect(d.api).toEqual({ name: 'data_manager', version: 'v1', retires_on: null, warning: null });
    const from = u.fake.requests.length;
    const callId = await convert(t, { gclid: 'EAIaIQ-dm1' });
    await drain();
    const [req, ...more] = sent(from, /^\/datamanager\//);
    expect(more).toEqual([]);
    expect(req!.path).toBe('/datamanager/v1/events:ingest');
    expect(req!.headers.authorization).toMatch(/^Bearer ya29\./);
    expect(protoProblems(dataManagerType('IngestEventsRequest'), req!.body)).toEqual([]);
    expect(req!.body).toMatchObject({
      destinations: [
        {
          operatingAccount: { accountType: 'GOOGLE_ADS', accountId: '1234567890' },
          loginAccount: { accountType: 'GOOGLE_ADS', accountId: '1112223333' },
          productDestinationId: '987654321',
        },
      ],
      events: [
        {
          transactionId: callId,
          eventTimestamp: '2026-11-20T15:04:05.000Z',
          adIdentifiers: { gclid: 'EAIaIQ-dm1' },
          eventSource: 'PHONE',
          conversionValue: 120.5,
          currency: 'USD',
        },
      ],
      consent: { adUserData: 'CONSENT_GRANTED', adPersonalization: 'CONSENT_GRANTED' },
      validateOnly: false,
      encoding: 'HEX',
    });
    // Nothing went to the Google Ads API.
    expect(sent(from, /^\/google\//)).toEqual([]);
    // Accepted: Google reports processing it later, under the request id it answered.
    const [accepted] = await uploadsOf(h, t.orgId, d.destination_id);
    expect(accepted).toMatchObject({
      call_id: callId,
      status: 'pending',
      reason_code: 'awaiting_confirmation',
      attempts: 1,
    });
    const requestId = /request (\S+)$/.exec(accepted.reason)?.[1];
    expect(u.fake.dataManagerRequests.has(requestId!)).toBe(true);
    await confirm();
    const [check, ...others] = sent(from, /^\/datamanager\/v1\/requestStatus:retrieve$/);
    expect(others).toEqual([]);
    expect(check!.query.get('requestId')).toBe(requestId);
    expect(check!.headers.authorization).toMatch(/^Bearer ya29\./);
    expect(
      protoProblems(
        dataManagerType('RetrieveRequestStatusRequest'),
        Object.fromEntries(check!.query),
      ),
    ).toEqual([]);
    const [row] = await uploadsOf(h, t.orgId, d.destination_id);
    expect(row).toMatchObject({ call_id: callId, status: 'sent', reason_code: null, attempts: 2 });
  });

  it('Google Ads API mode: one uploadClickConversions at v25 that decodes against its protos', async () => {
    h.clock.set('2026-11-20T15:04:05Z');
    const t = await createTenant(h);
    const d = await createDestination(h, t.orgId, 'google_ads', {
      settings: { ...GOOGLE, api: 'google_ads_api', consent: 'denied' },
    });
    expect(d.api).toMatchObject({ name: 'google_ads_api', version: 'v25', warning: null });
    const from = u.fake.requests.length;
    await convert(t, { gclid: 'EAIaIQ-ads1' });
    await drain();
    const [req, ...more] = sent(from, /^\/(google|datamanager)\//);
    expect(more).toEqual([]);
    const m = /^\/google\/v25\/customers\/(\d{10}):uploadClickConversions$/.exec(req!.path);
    expect(m?.[1]).toBe('1234567890');
    const problems = protoProblems(googleAdsType('UploadClickConversionsRequest'), {
      ...req!.body,
      customerId: m![1],
    });
    expect(problems).toEqual([]);
    expect(req!.body.conversions[0].consent).toEqual({ adUserData: 'DENIED' });
  });

  it("Meta: one events request; the SDK's normalize() leaves each event unchanged", async () => {
    h.clock.set('2026-11-20T15:00:00Z');
    const t = await createTenant(h);
    const d = await createDestination(h, t.orgId, 'meta', {
      value: { amount: 80, currency: 'EUR' },
      settings: { pixel_id: '1122334455', consent: 'denied' },
    });
    expect(d.api).toMatchObject({ name: 'meta_graph', version: 'v24.0', warning: null });
    const from = u.fake.requests.length;
    await convert(t, { fbc: 'fb.1.1763650000000.AbCd', fbp: 'fb.1.1763650000000.99' });
    await drain();
    const [req, ...more] = sent(from, /^\/meta\//);
    expect(more).toEqual([]);
    expect(req!.path).toBe('/meta/v24.0/1122334455/events');
    expect(Object.keys(req!.body).sort()).toEqual(['access_token', 'data']);
    expect(req!.body.data).toHaveLength(1);
    for (const e of req!.body.data) expect(metaProblems(e)).toEqual([]);
    expect(req!.body.data[0]).toMatchObject({
      data_processing_options: ['LDU'],
      data_processing_options_country: 0,
      data_processing_options_state: 0,
    });
  });

  it("Microsoft: one OfflineConversions/Apply whose rows match Microsoft's reference, with the hashed phone", async () => {
    h.clock.set('2026-11-20T15:00:00Z');
    const t = await createTenant(h);
    await createDestination(h, t.orgId, 'microsoft_ads', {
      value: { amount: 50, currency: 'USD' },
    });
    const from = u.fake.requests.length;
    await convert(t, { landing_url: 'https://shop.example/?msclkid=ms-vr-1' });
    await drain();
    const [req, ...more] = sent(from, /^\/microsoft\//);
    expect(more).toEqual([]);
    expect(req!.path).toBe('/microsoft/CampaignManagement/v13/OfflineConversions/Apply');
    expect(Object.keys(req!.body)).toEqual(['OfflineConversions']);
    for (const row of req!.body.OfflineConversions)
      expect(microsoftProblems('OfflineConversion', row)).toEqual([]);
    expect(req!.body.OfflineConversions[0].HashedPhoneNumber).toMatch(/^[0-9a-f]{64}$/);
  });

  it('GA4: one collect whose body matches the Measurement Protocol reference, with session_id and consent', async () => {
    h.clock.set('2026-11-20T15:00:00Z');
    const t = await createTenant(h);
    await createDestination(h, t.orgId, 'ga4', {
      settings: { measurement_id: 'G-TEST12345', consent: 'granted' },
    });
    const from = u.fake.requests.length;
    await convert(t, {
      landing_url:
        'https://shop.example/?_ga=GA1.1.1234567.1763650000&_ga_TEST12345=GS2.1.s1763650111$o1$g1$t1763650200',
    });
    await drain();
    const [req, ...more] = sent(from, /^\/ga4\//);
    expect(more).toEqual([]);
    expect(req!.path).toBe('/ga4/mp/collect');
    expect(ga4Problems(req!.body)).toEqual([]);
    expect(req!.body.consent).toEqual({ ad_user_data: 'GRANTED', ad_personalization: 'GRANTED' });
    expect(req!.body.events[0].params.session_id).toBe('1763650111');
  });
});

describe('Google through the Data Manager API', () => {
  it('a fast-fail refusal naming one event: that one fails with the reason, the others are sent', async () => {
    h.clock.set('2026-11-20T15:00:00Z');
    const t = await createTenant(h);
    const d = await createDestination(h, t.orgId, 'google_ads', {
      settings: GOOGLE,
      secrets: GOOGLE_NO_DEV_TOKEN,
    });
    const good = await convert(t, { gclid: 'EAIaIQ-good' });
    const bad = await convert(t, { gclid: 'INVALID-gclid' });
    const from = u.fake.requests.length;
    const kept = u.fake.dataManager.length;
    await u.worker.tick();
    const reqs = sent(from, /^\/datamanager\//);
    // The refused request held both; Google kept neither, so the good one went again alone.
    expect(reqs.map((r) => r.body.events.map((e: any) => e.adIdentifiers.gclid).sort())).toEqual([
      ['EAIaIQ-good', 'INVALID-gclid'],
      ['EAIaIQ-good'],
    ]);
    expect(u.fake.dataManager.slice(kept).map((e) => e.transactionId)).toEqual([good]);
    await confirm();
    const rows = await uploadsOf(h, t.orgId, d.destination_id);
    const byCall = Object.fromEntries(rows.map((r: any) => [r.call_id, r]));
    expect(byCall[good]).toMatchObject({ status: 'sent' });
    expect(byCall[bad]).toMatchObject({ status: 'failed', reason_code: 'rejected_by_platform' });
    expect(byCall[bad].reason).toContain('INVALID_FORMAT');
  });

  it('test: validateOnly, nothing kept, and the request decodes against the protos', async () => {
    const t = await createTenant(h);
    const d = await createDestination(h, t.orgId, 'google_ads', {
      settings: GOOGLE,
      secrets: GOOGLE_NO_DEV_TOKEN,
    });
    const from = u.fake.requests.length;
    const kept = u.fake.dataManager.length;
    const res = await destinationCall(
      h,
      'POST',
      `/admin/orgs/${t.orgId}/conversion-destinations/${d.destination_id}/test`,
    );
    expect(res.statusCode).toBe(200);
    const [req] = sent(from, /^\/datamanager\//);
    expect(req!.body.validateOnly).toBe(true);
    expect(protoProblems(dataManagerType('IngestEventsRequest'), req!.body)).toEqual([]);
    expect(u.fake.dataManager.length).toBe(kept);
  });

  it('a rejected report retracts through the Ads API conversion adjustments, which decode against v25', async () => {
    h.clock.set('2026-11-20T15:00:00Z');
    const t = await createTenant(h);
    const d = await createDestination(h, t.orgId, 'google_ads', { settings: GOOGLE });
    const callId = await convert(t, { gclid: 'EAIaIQ-retract' });
    await drain();
    await confirm();
    const from = u.fake.requests.length;
    const res = await report(h, t.key, t.code, {
      call_id: callId,
      report_id: `vr-${seq++}`,
      disposition: 'rejected',
    });
    expect(res.statusCode).toBe(201);
    await drain();
    const [req, ...more] = sent(from, /^\/(google|datamanager)\//);
    expect(more).toEqual([]);
    const m = /^\/google\/v25\/customers\/(\d{10}):uploadConversionAdjustments$/.exec(req!.path);
    expect(m).not.toBeNull();
    expect(
      protoProblems(googleAdsType('UploadConversionAdjustmentsRequest'), {
        ...req!.body,
        customerId: m![1],
      }),
    ).toEqual([]);
    expect(req!.body.conversionAdjustments[0]).toMatchObject({
      adjustmentType: 'RETRACTION',
      orderId: callId,
    });
    const rows = await uploadsOf(h, t.orgId, d.destination_id);
    expect(rows.find((r: any) => r.kind === 'conversion')).toMatchObject({ status: 'retracted' });
  });
});

describe('Data Manager answers, in Google’s error model', () => {
  /** One conversion to a fresh Data Manager destination, the fake answering `answer` first. */
  async function answered(answer: { status: number; body?: unknown }) {
    h.clock.set('2026-11-20T15:00:00Z');
    const t = await createTenant(h);
    const d = await createDestination(h, t.orgId, 'google_ads', {
      settings: GOOGLE,
      secrets: GOOGLE_NO_DEV_TOKEN,
    });
    let first = true;
    u.fake.script = (s) => {
      if (!s.path.startsWith('/datamanager/') || !first) return null;
      first = false;
      return answer;
    };
    await convert(t, { gclid: `EAIaIQ-ans-${seq}` });
    await u.worker.tick();
    const [row] = await uploadsOf(h, t.orgId, d.destination_id);
    return row;
  }
  const status = (code: number, name: string, reason: string) => ({
    status: code,
    body: {
      error: {
        code,
        status: name,
        message: `${name} from Google`,
        details: [
          {
            '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
            reason,
            domain: 'datamanager.googleapis.com',
          },
        ],
      },
    },
  });

  it('ALREADY_EXISTS: the conversion is there, sent', async () => {
    expect(await answered(status(409, 'ALREADY_EXISTS', 'ALREADY_EXISTS'))).toMatchObject({
      status: 'sent',
    });
  });

  it('PERMISSION_DENIED: refused credentials, final, with Google’s words', async () => {
    const row = await answered(status(403, 'PERMISSION_DENIED', 'PERMISSION_DENIED'));
    expect(row).toMatchObject({ status: 'failed', reason_code: 'auth_failed' });
    expect(row.reason).toContain('PERMISSION_DENIED');
    expect(row.reason).toContain('https://www.googleapis.com/auth/datamanager');
  });

  it('UNAVAILABLE: retried later', async () => {
    const row = await answered(status(503, 'UNAVAILABLE', 'INTERNAL_ERROR'));
    expect(row).toMatchObject({ status: 'pending', reason_code: 'server_error', attempts: 1 });
  });

  it('an access token Google stops accepting is refreshed once and the event goes through', async () => {
    h.clock.set('2026-11-20T15:00:00Z');
    const t = await createTenant(h);
    const d = await createDestination(h, t.orgId, 'google_ads', {
      settings: GOOGLE,
      secrets: GOOGLE_NO_DEV_TOKEN,
    });
    await convert(t, { gclid: 'EAIaIQ-refresh' });
    u.fake.expireTokens();
    const refreshes = u.fake.tokenRefreshes.google;
    await drain();
    await confirm();
    expect(u.fake.tokenRefreshes.google).toBe(refreshes + 1);
    const [row] = await uploadsOf(h, t.orgId, d.destination_id);
    expect(row).toMatchObject({ status: 'sent' });
  });

  it('without a developer token a rejected report retracts nothing: not_retractable, and why', async () => {
    h.clock.set('2026-11-20T15:00:00Z');
    const t = await createTenant(h);
    const d = await createDestination(h, t.orgId, 'google_ads', {
      settings: GOOGLE,
      secrets: GOOGLE_NO_DEV_TOKEN,
    });
    const callId = await convert(t, { gclid: 'EAIaIQ-noretract' });
    await drain();
    const from = u.fake.requests.length;
    await report(h, t.key, t.code, {
      call_id: callId,
      report_id: `vr-${seq++}`,
      disposition: 'rejected',
    });
    await drain();
    // Google's report on the upload is still followed (only checks), and nothing retracts it.
    await confirm();
    expect(sent(from, /^\/google\//)).toEqual([]);
    expect(sent(from, /^\/datamanager\//).map((s) => s.path)).toEqual([
      '/datamanager/v1/requestStatus:retrieve',
    ]);
    // No retraction row: the destination cannot retract (conversion-retractability.test.ts).
    const rows = await uploadsOf(h, t.orgId, d.destination_id);
    expect(rows).toMatchObject([
      { kind: 'conversion', status: 'not_retractable', reason_code: 'not_retractable' },
    ]);
    expect(rows[0].reason).toContain('developer_token');
  });
});
