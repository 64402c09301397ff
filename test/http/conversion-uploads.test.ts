import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { attemptsOf, createDestination, uploadsOf, useUploads } from '../helpers/conversions.js';
import {
  adminCall,
  createTenant,
  dni,
  freshCode,
  freshNumbers,
  json,
  type Tenant,
  useHarness,
} from '../helpers/harness.js';
import { recordCall, report } from '../helpers/reports.js';
import { createBuyer, setRouting } from '../helpers/routing.js';
import { newSid, PUBLIC_BASE, TWILIO_TOKEN, twilioPost } from '../helpers/twilio-webhook.js';
import { callEnded, dialEnded, ring } from '../helpers/voice.js';

const h = useHarness({
  privateDatabase: 'the upload worker claims every organization’s uploads',
  twilio: { authToken: TWILIO_TOKEN, publicBaseUrl: PUBLIC_BASE },
});
const u = useUploads(h);
afterEach(() => {
  u.fake.script = () => null;
});

const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const CALLER = '+12125550142';
let seq = 0;

/** A DNI session with these fields, a call to its number, a buyer report; the call id. */
async function convert(t: Tenant, session: Record<string, unknown>, disposition = 'success') {
  const s = json(
    await dni(h, t.key, { campaign_code: t.code, visitor_id: `v-${seq++}`, ...session }),
  );
  const callId = await recordCall(h, t, { to: s.tracking_number, from: CALLER });
  const res = await report(h, t.key, t.code, {
    call_id: callId,
    report_id: `r-${seq++}`,
    disposition,
  });
  expect(res.statusCode).toBe(201);
  return callId;
}

async function drain() {
  let n = 0;
  while ((await u.worker.tick()) > 0 && n < 20) n++;
}

describe('one conversion per platform, end to end', () => {
  it('Google Ads: the gclid, Google’s date-time format, value, order_id and hashed phone', async () => {
    h.clock.set('2026-03-02T15:04:05Z');
    const t = await createTenant(h);
    const d = await createDestination(h, t.orgId, 'google_ads', {
      campaigns: [t.code],
      value: { amount: 120.5, currency: 'USD' },
      settings: {
        customer_id: '123-456-7890',
        conversion_action: '987654321',
        time_zone: 'America/New_York',
        api: 'google_ads_api',
      },
    });
    const before = u.fake.google.length;
    const callId = await convert(t, { gclid: 'EAIaIQ-g1' });
    await drain();
    const got = u.fake.google.slice(before);
    expect(got).toEqual([
      {
        gclid: 'EAIaIQ-g1',
        conversionAction: 'customers/1234567890/conversionActions/987654321',
        conversionDateTime: '2026-03-02 10:04:05-05:00',
        conversionValue: 120.5,
        currencyCode: 'USD',
        orderId: callId,
        userIdentifiers: [{ hashedPhoneNumber: sha(CALLER) }],
        customerId: '1234567890',
      },
    ]);
    const [row] = await uploadsOf(h, t.orgId, d.destination_id);
    expect(row).toMatchObject({ call_id: callId, dedupe_key: callId, status: 'sent', attempts: 1 });
    // Nothing more on later rounds: exactly one.
    await drain();
    expect(u.fake.google.length).toBe(before + 1);
  });

  it('Meta: fbc, event_id, phone_call, hashed phone without the plus', async () => {
    h.clock.set('2026-03-02T15:00:00Z');
    const t = await createTenant(h);
    await createDestination(h, t.orgId, 'meta', { value: { amount: 80, currency: 'EUR' } });
    const before = u.fake.meta.length;
    const callId = await convert(t, { fbc: 'fb.1.1700000000000.AbCd' });
    await drain();
    expect(u.fake.meta.slice(before)).toEqual([
      {
        event_name: 'Lead',
        event_time: Date.parse('2026-03-02T15:00:00Z') / 1000,
        event_id: callId,
        action_source: 'phone_call',
        user_data: { fbc: 'fb.1.1700000000000.AbCd', ph: [sha(CALLER.slice(1))] },
        custom_data: { value: 80, currency: 'EUR' },
        pixel: '1122334455',
      },
    ]);
  });

  it('Microsoft Advertising: the msclkid from the landing URL, after an OAuth refresh', async () => {
    h.clock.set('2026-03-02T15:00:00Z');
    const t = await createTenant(h);
    await createDestination(h, t.orgId, 'microsoft_ads', {
      value: { amount: 50, currency: 'USD' },
    });
    const before = u.fake.microsoft.length;
    const refreshes = u.fake.tokenRefreshes.microsoft;
    await convert(t, { landing_url: 'https://shop.example/?msclkid=ms-click-1' });
    await drain();
    expect(u.fake.microsoft.slice(before)).toMatchObject([
      {
        MicrosoftClickId: 'ms-click-1',
        ConversionName: 'Qualified call',
        ConversionTime: '2026-03-02T15:00:00.000Z',
        ConversionValue: 50,
        ConversionCurrencyCode: 'USD',
        customer: '2233445',
        account: '55667788',
      },
    ]);
    expect(u.fake.tokenRefreshes.microsoft).toBeGreaterThan(refreshes);
  });

  it('GA4: the client id from the _ga parameter, transaction_id the call', async () => {
    h.clock.set('2026-03-02T15:00:00Z');
    const t = await createTenant(h);
    await createDestination(h, t.orgId, 'ga4', { value: { amount: 10, currency: 'GBP' } });
    const before = u.fake.ga4.length;
    const callId = await convert(t, {
      landing_url: 'https://shop.example/?_ga=GA1.1.1234567.1700000000',
    });
    await drain();
    expect(u.fake.ga4.slice(before)).toEqual([
      {
        client_id: '1234567.1700000000',
        timestamp_micros: Date.parse('2026-03-02T15:00:00Z') * 1000,
        events: [
          {
            name: 'close_convert_lead',
            params: { transaction_id: callId, value: 10, currency: 'GBP' },
          },
        ],
        measurement_id: 'G-TEST12345',
      },
    ]);
  });

  it('a session without a click id sends nothing, and the upload says why', async () => {
    const t = await createTenant(h);
    const g = await createDestination(h, t.orgId, 'google_ads');
    const ga = await createDestination(h, t.orgId, 'ga4');
    const before = u.fake.requests.length;
    const callId = await convert(t, { landing_url: 'https://shop.example/' });
    await drain();
    expect(u.fake.requests.length).toBe(before);
    expect(await uploadsOf(h, t.orgId, g.destination_id)).toMatchObject([
      { call_id: callId, status: 'failed', reason_code: 'no_click_id', attempts: 0 },
    ]);
    const [row] = await uploadsOf(h, t.orgId, ga.destination_id);
    expect(row).toMatchObject({ status: 'failed', reason_code: 'no_client_id' });
    expect(row.reason).toMatch(/client id/);
  });

  it('a campaign outside the destination’s list sends nothing at all', async () => {
    const t = await createTenant(h);
    const d = await createDestination(h, t.orgId, 'google_ads', { campaigns: [t.code] });
    const second = { ...t, code: freshCode(), numbers: freshNumbers(1) };
    await adminCall(h, 'POST', `/admin/orgs/${t.orgId}/campaigns`, {
      code: second.code,
      name: 'Second',
      numbers: second.numbers,
    });
    await convert(second, { gclid: 'G-out' });
    const inside = await convert(t, { gclid: 'G-in' });
    await drain();
    expect((await uploadsOf(h, t.orgId, d.destination_id)).map((r) => r.call_id)).toEqual([inside]);
  });
});

describe('retries', () => {
  it('500 three times then 200: one conversion at the platform, four attempts in the history', async () => {
    h.clock.set('2026-03-02T15:00:00Z');
    const t = await createTenant(h);
    const d = await createDestination(h, t.orgId, 'google_ads');
    let fails = 0;
    u.fake.script = (s) =>
      s.path.endsWith(':uploadClickConversions') && fails++ < 3
        ? {
            status: 500,
            body: {
              error: { code: 500, status: 'INTERNAL', message: 'Internal error encountered.' },
            },
          }
        : null;
    const before = u.fake.google.length;
    const callId = await convert(t, { gclid: 'G-retry' });
    for (let i = 0; i < 4; i++) {
      expect(await u.worker.tick()).toBe(1);
      h.clock.advance(3600);
    }
    expect(u.fake.google.slice(before).map((c) => c.orderId)).toEqual([callId]);
    const attempts = await attemptsOf(h, t.orgId, d.destination_id);
    expect(attempts.map((a) => [a.attempt, a.outcome, a.status_code])).toEqual([
      [4, 'sent', 200],
      [3, 'retry', 500],
      [2, 'retry', 500],
      [1, 'retry', 500],
    ]);
    expect(attempts[1].reason).toMatch(/server error.*INTERNAL/);
    // The same order_id went out on every attempt.
    const bodies = u.fake.requests.filter(
      (r) =>
        r.path.endsWith(':uploadClickConversions') && r.body.conversions[0].gclid === 'G-retry',
    );
    expect(bodies.map((b) => b.body.conversions[0].orderId)).toEqual([
      callId,
      callId,
      callId,
      callId,
    ]);
  });

  it('a 429 with Retry-After: the next attempt waits exactly that long', async () => {
    h.clock.set('2026-03-02T15:00:00Z');
    const t = await createTenant(h);
    const d = await createDestination(h, t.orgId, 'meta');
    let once = true;
    u.fake.script = (s) => {
      if (!s.path.endsWith('/events') || !once) return null;
      once = false;
      return {
        status: 429,
        headers: { 'retry-after': '600' },
        body: { error: { message: 'throttled', code: 80004 } },
      };
    };
    await convert(t, { fbc: 'fb.1.1.x' });
    expect(await u.worker.tick()).toBe(1);
    const [row] = await uploadsOf(h, t.orgId, d.destination_id);
    expect(row.status).toBe('pending');
    expect(row.reason_code).toBe('rate_limited');
    expect(row.next_attempt_at).toBe('2026-03-02T15:10:00.000Z');
    h.clock.advance(599);
    expect(await u.worker.tick()).toBe(0);
    h.clock.advance(1);
    expect(await u.worker.tick()).toBe(1);
    expect((await uploadsOf(h, t.orgId, d.destination_id))[0].status).toBe('sent');
  });

  it('partial failures are read row by row: final, retryable and sent in one request', async () => {
    h.clock.set('2026-03-02T15:00:00Z');
    const t = await createTenant(h, { numbers: 4 });
    const d = await createDestination(h, t.orgId, 'google_ads');
    const ids = [];
    for (const gclid of ['EXPIRED_EVENT-1', 'TOO_RECENT_EVENT-1', 'CLICK_NOT_FOUND-1', 'fine-1']) {
      ids.push(await convert(t, { gclid }));
    }
    const requests = u.fake.requests.length;
    expect(await u.worker.tick()).toBe(4);
    expect(
      u.fake.requests.slice(requests).filter((r) => r.path.endsWith(':uploadClickConversions')),
    ).toHaveLength(1);
    const rows = await uploadsOf(h, t.orgId, d.destination_id);
    const byCall = Object.fromEntries(rows.map((r) => [r.call_id, r]));
    expect(byCall[ids[0]!]).toMatchObject({ status: 'failed', reason_code: 'EXPIRED_EVENT' });
    expect(byCall[ids[1]!]).toMatchObject({
      status: 'pending',
      reason_code: 'TOO_RECENT_EVENT',
      next_attempt_at: '2026-03-02T21:00:00.000Z',
    });
    expect(byCall[ids[2]!]).toMatchObject({ status: 'failed', reason_code: 'CLICK_NOT_FOUND' });
    expect(byCall[ids[3]!]).toMatchObject({ status: 'sent', reason_code: null });
    expect(byCall[ids[0]!].reason).toMatch(/older than the conversion window/);
  });

  it('an access token Google stops accepting is refreshed and the upload goes through', async () => {
    const t = await createTenant(h);
    const d = await createDestination(h, t.orgId, 'google_ads');
    await convert(t, { gclid: 'G-refresh' });
    u.fake.expireTokens();
    const refreshes = u.fake.tokenRefreshes.google;
    await drain();
    expect(u.fake.tokenRefreshes.google).toBe(refreshes + 1);
    expect((await uploadsOf(h, t.orgId, d.destination_id))[0].status).toBe('sent');
  });
});

describe('corrections', () => {
  it('rejected after an uploaded success: a Google retraction, Meta not_retractable', async () => {
    h.clock.set('2026-03-02T15:00:00Z');
    const t = await createTenant(h);
    const g = await createDestination(h, t.orgId, 'google_ads');
    const m = await createDestination(h, t.orgId, 'meta');
    const s = json(
      await dni(h, t.key, {
        campaign_code: t.code,
        visitor_id: 'v-rr',
        gclid: 'G-rr',
        fbc: 'fb.1.1.rr',
      }),
    );
    const callId = await recordCall(h, t, { to: s.tracking_number, from: CALLER });
    expect(
      (
        await report(h, t.key, t.code, {
          call_id: callId,
          report_id: 'ok-1',
          disposition: 'success',
        })
      ).statusCode,
    ).toBe(201);
    await drain();
    expect(
      (
        await report(h, t.key, t.code, {
          call_id: callId,
          report_id: 'no-1',
          disposition: 'rejected',
        })
      ).statusCode,
    ).toBe(201);
    const adjustments = u.fake.googleAdjustments.length;
    await drain();
    expect(u.fake.googleAdjustments.slice(adjustments)).toMatchObject([
      {
        adjustmentType: 'RETRACTION',
        orderId: callId,
        conversionAction: 'customers/1234567890/conversionActions/987654321',
      },
    ]);
    const google = await uploadsOf(h, t.orgId, g.destination_id);
    expect(google.map((r) => [r.kind, r.status]).sort()).toEqual([
      ['conversion', 'retracted'],
      ['retraction', 'sent'],
    ]);
    const meta = await uploadsOf(h, t.orgId, m.destination_id);
    expect(meta).toMatchObject([
      { kind: 'conversion', status: 'not_retractable', reason_code: 'not_retractable' },
    ]);
    expect(meta[0].reason).toMatch(/cannot retract/);
  });

  it('rejected before the upload: nothing is sent', async () => {
    const t = await createTenant(h);
    const g = await createDestination(h, t.orgId, 'google_ads');
    const s = json(
      await dni(h, t.key, { campaign_code: t.code, visitor_id: 'v-rb', gclid: 'G-rb' }),
    );
    const callId = await recordCall(h, t, { to: s.tracking_number, from: CALLER });
    await report(h, t.key, t.code, { call_id: callId, report_id: 'ok-2', disposition: 'success' });
    await report(h, t.key, t.code, { call_id: callId, report_id: 'no-2', disposition: 'rejected' });
    const before = u.fake.requests.length;
    await drain();
    expect(u.fake.requests.length).toBe(before);
    expect(await uploadsOf(h, t.orgId, g.destination_id)).toMatchObject([
      { status: 'failed', reason_code: 'rejected_before_upload' },
    ]);
  });
});

describe('answered-call trigger', () => {
  it('an answered call of at least min_seconds is a conversion; a shorter one and a buyer report are not', async () => {
    h.clock.set('2026-03-02T15:00:00Z');
    const t = await createTenant(h);
    const d = await createDestination(h, t.orgId, 'meta', {
      trigger: { event: 'answered_call', min_seconds: 60 },
    });
    const calls: string[] = [];
    for (const [visitor, duration] of [
      ['short', '30'],
      ['long', '90'],
    ] as const) {
      const s = json(
        await dni(h, t.key, {
          campaign_code: t.code,
          visitor_id: visitor,
          fbc: `fb.1.1.${visitor}`,
        }),
      );
      const sid = newSid('CA');
      const base = {
        CallSid: sid,
        From: CALLER,
        To: s.tracking_number,
        AccountSid: 'AC0123456789abcdef0123456789abcdef',
      };
      expect(
        (await twilioPost(h, '/carrier/twilio/voice', { ...base, CallStatus: 'ringing' }))
          .statusCode,
      ).toBe(200);
      const st = await twilioPost(h, '/carrier/twilio/status', {
        ...base,
        CallStatus: 'completed',
        CallDuration: duration,
      });
      expect(st.statusCode).toBe(204);
      const [row] = await h.store.query<{ id: string }>(
        'select id from calls where carrier_call_sid = $1',
        [sid],
      );
      calls.push(row!.id);
    }
    // A buyer success on the short call: not this destination's trigger.
    await report(h, t.key, t.code, {
      call_id: calls[0],
      report_id: 'ac-1',
      disposition: 'success',
    });
    const before = u.fake.meta.length;
    await drain();
    expect(u.fake.meta.slice(before).map((e) => [e.event_id, e.user_data.fbc])).toEqual([
      [calls[1], 'fb.1.1.long'],
    ]);
    expect((await uploadsOf(h, t.orgId, d.destination_id)).map((r) => r.call_id)).toEqual([
      calls[1],
    ]);
  });
});

describe("a destination without a value: the buyer's payout (contract §10, §11)", () => {
  /** An organization paid in euros whose campaign routes to one buyer paying 42.50. */
  async function routedInEuros() {
    h.clock.set('2026-03-02T15:00:00Z');
    const t = await createTenant(h);
    await adminCall(h, 'PATCH', `/admin/orgs/${t.orgId}`, { currency: 'EUR' });
    const buyer = await createBuyer(h, t.orgId, { payout: { amount: '42.50' } });
    await setRouting(h, t.orgId, t.code, {
      targets: [{ buyer_id: buyer.buyer_id, priority: 1 }],
    });
    return t;
  }

  it("a routed call answered by a buyer uploads its payout in the organization's currency", async () => {
    const t = await routedInEuros();
    const plain = await createDestination(h, t.orgId, 'google_ads', { campaigns: [t.code] });
    const s = json(
      await dni(h, t.key, { campaign_code: t.code, visitor_id: 'payout', gclid: 'G-P' }),
    );
    const call = await ring(h, s.tracking_number, CALLER);
    await dialEnded(h, call, call.step, 'completed', 120);
    const [row] = await h.store.query<{ id: string }>(
      'select id from calls where carrier_call_sid = $1',
      [call.callSid],
    );
    const res = await report(h, t.key, t.code, {
      call_id: row!.id,
      report_id: 'payout-1',
      disposition: 'success',
    });
    expect(res.statusCode, res.body).toBe(201);
    const before = u.fake.google.length;
    await drain();
    const sent = u.fake.google.slice(before).filter((g) => g.orderId === row!.id);
    expect(sent.map((g) => [g.conversionValue, g.currencyCode])).toEqual([[42.5, 'EUR']]);
    expect(await uploadsOf(h, t.orgId, plain.destination_id)).toMatchObject([{ status: 'sent' }]);
  });

  it('queued at the final status, before the Dial reported the answer: it still carries the payout', async () => {
    const t = await routedInEuros();
    const d = await createDestination(h, t.orgId, 'google_ads', {
      trigger: { event: 'answered_call', min_seconds: 60 },
    });
    const s = json(
      await dni(h, t.key, { campaign_code: t.code, visitor_id: 'late-payout', gclid: 'G-L' }),
    );
    const call = await ring(h, s.tracking_number, CALLER);
    h.clock.advance(300);
    // The caller hung up during the conversation: Twilio posts the call's final status and the
    // Dial's action at once, and the final status (which queues the conversion) comes first.
    expect((await callEnded(h, call.callSid, 'completed', 300)).statusCode).toBe(204);
    await dialEnded(h, call, call.step, 'completed', 290);
    const [row] = await h.store.query<{ id: string }>(
      'select id from calls where carrier_call_sid = $1',
      [call.callSid],
    );
    const before = u.fake.google.length;
    await drain();
    const sent = u.fake.google.slice(before).filter((g) => g.orderId === row!.id);
    expect(sent.map((g) => [g.conversionValue, g.currencyCode])).toEqual([[42.5, 'EUR']]);
    expect(await uploadsOf(h, t.orgId, d.destination_id)).toMatchObject([{ status: 'sent' }]);
  });
});
