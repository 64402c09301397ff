import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import twilio from 'twilio';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, adminCall, createTenant, dni, json, useHarness } from '../helpers/harness.js';
import { report } from '../helpers/reports.js';
import {
  allowPrivateTargets,
  checkEventSchema,
  createWebhook,
  Receiver,
  webhookWorker,
} from '../helpers/webhooks.js';

const TOKEN = 'f0e1d2c3b4a5968778695a4b3c2d1e0f';
const BASE = 'https://calls.example.com';

const h = useHarness({
  twilio: { authToken: TOKEN, publicBaseUrl: BASE },
  privateDatabase: "the webhook worker delivers every organization's pending events",
});
const receivers: Receiver[] = [];
beforeAll(() => {
  allowPrivateTargets(h);
});
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

/** A sample of the admin app's GET /metrics, or 0 when the series is absent. */
async function metric(series: string): Promise<number> {
  const res = await h.admin.inject({
    method: 'GET',
    url: '/metrics',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
  });
  expect(res.statusCode).toBe(200);
  const line = res.body.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

async function receiver(answer?: (n: number) => number | 'hang') {
  const r = await new Receiver(answer).start();
  receivers.push(r);
  return r;
}

let sidSeq = 0;
const newSid = () => `CA${(Date.now() * 1000 + sidSeq++).toString(16).padStart(32, '0')}`;

function twilioPost(path: string, params: Record<string, string>) {
  const signature = twilio.getExpectedTwilioSignature(TOKEN, `${BASE}${path}`, params);
  return h.app.inject({
    method: 'POST',
    url: path,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-twilio-signature': signature,
    },
    payload: new URLSearchParams(params).toString(),
  });
}

describe('call.received and call.completed through the Twilio webhooks', () => {
  it('delivers a signed call.received with the attributed session, verified by standardwebhooks', async () => {
    h.clock.ms = Date.now();
    const t = await createTenant(h);
    const r = await receiver();
    const w = await createWebhook(h, t.orgId, r.url, ['call.received', 'call.completed']);
    const session = json(
      await dni(h, t.key, {
        campaign_code: t.code,
        visitor_id: 'v-1',
        gclid: 'G-123',
        landing_url: 'https://shop.example/?utm_source=google&utm_medium=cpc&msclkid=M-9',
      }),
    );
    const sid = newSid();
    const voice = await twilioPost('/carrier/twilio/voice', {
      CallSid: sid,
      CallStatus: 'ringing',
      From: '+12125550142',
      To: session.tracking_number,
    });
    expect(voice.statusCode).toBe(200);
    const { worker } = webhookWorker(h);
    expect(await worker.tick()).toBe(1);
    expect(r.received).toHaveLength(1);
    const got = r.received[0]!;
    const verified = new Webhook(w.secret).verify(got.body, got.headers as Record<string, string>);
    expect(verified).toMatchObject({ type: 'call.received', org_id: t.orgId });
    const body = JSON.parse(got.body);
    checkEventSchema(body);
    expect(got.headers['webhook-id']).toBe(body.id);
    expect(body.data).toMatchObject({
      campaign_code: t.code,
      tracking_number: session.tracking_number,
      caller: '+12125550142',
      attribution: 'session',
      carrier: 'twilio',
      carrier_call_sid: sid,
      session: {
        dni_session_id: session.dni_session_id,
        visitor_id: 'v-1',
        click_ids: { gclid: 'G-123', msclkid: 'M-9' },
        utm: { source: 'google', medium: 'cpc', campaign: null },
      },
    });
    expect(body.data.call_id).toMatch(/^call_/);

    // The carrier's final status produces call.completed with the duration.
    await twilioPost('/carrier/twilio/status', {
      CallSid: sid,
      CallStatus: 'completed',
      CallDuration: '73',
    });
    expect(await worker.tick()).toBe(1);
    const done = JSON.parse(r.received[1]!.body);
    checkEventSchema(done);
    expect(done.type).toBe('call.completed');
    expect(done.data).toMatchObject({
      call_id: body.data.call_id,
      status: 'completed',
      duration_seconds: 73,
    });
    const attempts = await adminCall(
      h,
      'GET',
      `/admin/orgs/${t.orgId}/webhooks/${w.webhook_id}/attempts`,
    );
    expect(attempts.attempts).toHaveLength(2);
    expect(attempts.attempts[0]).toMatchObject({
      outcome: 'delivered',
      status_code: 200,
      response_head: 'answer 200',
    });
    expect(attempts.attempts[0].latency_ms).toBeGreaterThanOrEqual(0);
  });
});

describe('retries', () => {
  it('500 three times then 200: four requests, one webhook-id, growing intervals', async () => {
    h.clock.ms = Date.parse('2026-05-01T12:00:00Z');
    const t = await createTenant(h);
    const r = await receiver((n) => (n <= 3 ? 500 : 200));
    const w = await createWebhook(h, t.orgId, r.url);
    await adminCall(h, 'POST', `/admin/orgs/${t.orgId}/calls`, {
      to: t.numbers[0],
      from: '+12125550100',
    });
    const { worker } = webhookWorker(h, { backoffBaseMs: 10_000, backoffMaxMs: 3_600_000 });
    const sentAt: number[] = [];
    for (let i = 0; i < 4; i++) {
      expect(await worker.tick()).toBe(1);
      sentAt.push(h.clock.now());
      expect(r.received).toHaveLength(i + 1);
      // Not due again yet: a tick now sends nothing.
      expect(await worker.tick()).toBe(0);
      const [d] = (
        await adminCall(h, 'GET', `/admin/orgs/${t.orgId}/webhooks/${w.webhook_id}/deliveries`)
      ).items;
      if (i < 3) {
        expect(d.state).toBe('pending');
        h.clock.ms = Date.parse(d.next_attempt_at);
      } else expect(d).toMatchObject({ state: 'delivered', attempts: 4, last_status: 200 });
    }
    const ids = new Set(r.received.map((x) => x.headers['webhook-id']));
    expect(ids.size).toBe(1);
    expect(new Set(r.received.map((x) => x.body)).size).toBe(1);
    const stamps = r.received.map((x) => Number(x.headers['webhook-timestamp']) * 1000);
    expect(stamps).toEqual(sentAt.map((ms) => Math.floor(ms / 1000) * 1000));
    const gaps = stamps.slice(1).map((s, i) => s - stamps[i]!);
    expect(gaps[0]).toBeGreaterThanOrEqual(10_000);
    expect(gaps[1]).toBeGreaterThan(gaps[0]!);
    expect(gaps[2]).toBeGreaterThan(gaps[1]!);
  });

  it('410 Gone disables the endpoint with an audit line; nothing more is sent', async () => {
    const t = await createTenant(h);
    const r = await receiver(() => 410);
    const w = await createWebhook(h, t.orgId, r.url);
    for (let i = 0; i < 2; i++) {
      await adminCall(h, 'POST', `/admin/orgs/${t.orgId}/calls`, {
        to: t.numbers[0],
        from: '+12125550100',
      });
    }
    const { worker } = webhookWorker(h, { perEndpoint: 1 });
    expect(await worker.tick()).toBe(1);
    expect(await worker.tick()).toBe(0);
    expect(r.received).toHaveLength(1);
    const shown = await adminCall(h, 'GET', `/admin/orgs/${t.orgId}/webhooks/${w.webhook_id}`);
    expect(shown).toMatchObject({ enabled: false, disabled_reason: 'gone' });
    const audit = await adminCall(h, 'GET', `/admin/orgs/${t.orgId}/audit?action=webhook.disabled`);
    expect(audit.items[0]).toMatchObject({ actor: 'webhook-worker', subject_id: w.webhook_id });
  });

  it('a long run of failures disables the endpoint (metric and audit line)', async () => {
    const t = await createTenant(h);
    const r = await receiver(() => 503);
    const w = await createWebhook(h, t.orgId, r.url);
    await adminCall(h, 'POST', `/admin/orgs/${t.orgId}/calls`, {
      to: t.numbers[0],
      from: '+12125550100',
    });
    const { worker } = webhookWorker(h, {
      disableAfterFailures: 3,
      disableAfterMs: 60_000,
      maxAttempts: 10,
    });
    for (let i = 0; i < 3; i++) {
      expect(await worker.tick()).toBe(1);
      h.clock.advance(3600);
    }
    const shown = await adminCall(h, 'GET', `/admin/orgs/${t.orgId}/webhooks/${w.webhook_id}`);
    expect(shown).toMatchObject({ enabled: false, disabled_reason: 'failing' });
    expect(shown.consecutive_failures).toBe(3);
    expect(await worker.tick()).toBe(0);
    const audit = await adminCall(h, 'GET', `/admin/orgs/${t.orgId}/audit?action=webhook.disabled`);
    expect(audit.items[0].detail).toMatchObject({ reason: 'failing', consecutive_failures: 3 });
    expect(await metric('webhook_endpoints_disabled_total{reason="failing"}')).toBe(1);
    expect(
      await metric('webhook_delivery_attempts_total{outcome="failed"}'),
    ).toBeGreaterThanOrEqual(3);
  });
});

describe('other events', () => {
  it('a buyer report produces buyer_report.recorded', async () => {
    const t = await createTenant(h);
    const r = await receiver();
    await createWebhook(h, t.orgId, r.url, ['buyer_report.recorded']);
    const call = await adminCall(h, 'POST', `/admin/orgs/${t.orgId}/calls`, {
      to: t.numbers[0],
      from: '+12125550100',
    });
    const res = await report(h, t.key, t.code, {
      call_id: call.call_id,
      report_id: 'r-1',
      disposition: 'rejected',
    });
    expect(res.statusCode).toBe(201);
    // A replay of the report writes no second event.
    await report(h, t.key, t.code, {
      call_id: call.call_id,
      report_id: 'r-1',
      disposition: 'rejected',
    });
    const { worker } = webhookWorker(h);
    expect(await worker.tick()).toBe(1);
    expect(r.bodies()[0]).toMatchObject({
      type: 'buyer_report.recorded',
      data: {
        event_id: json(res).event_id,
        report_id: 'r-1',
        call_id: call.call_id,
        disposition: 'rejected',
      },
    });
  });

  it("an organization's events never reach another organization's endpoints", async () => {
    const a = await createTenant(h);
    const b = await createTenant(h);
    const ra = await receiver();
    const rb = await receiver();
    await createWebhook(h, a.orgId, ra.url);
    await createWebhook(h, b.orgId, rb.url);
    await adminCall(h, 'POST', `/admin/orgs/${a.orgId}/calls`, {
      to: a.numbers[0],
      from: '+12125550100',
    });
    const { worker } = webhookWorker(h);
    await worker.tick();
    expect(ra.received).toHaveLength(1);
    expect(rb.received).toHaveLength(0);
  });

  it('pool.exhausted at most once per campaign per interval', async () => {
    const t = await createTenant(h, { numbers: 1 });
    const r = await receiver();
    await createWebhook(h, t.orgId, r.url, ['pool.exhausted']);
    for (let i = 0; i < 4; i++) {
      const res = await dni(h, t.key, { campaign_code: t.code, visitor_id: `pv-${i}` });
      expect(res.statusCode).toBe(201);
    }
    const { worker } = webhookWorker(h);
    expect(await worker.tick()).toBe(1);
    expect(r.bodies()[0]).toMatchObject({
      type: 'pool.exhausted',
      data: { campaign_code: t.code, fallback: 'shared', pool_size: 1, interval_seconds: 3600 },
    });
    expect(await worker.tick()).toBe(0);
    // After the interval (the earlier sessions have expired too): the first visitor gets the
    // free number, the second shares it, and that is worth a new alert.
    h.clock.advance(3601);
    await dni(h, t.key, { campaign_code: t.code, visitor_id: 'pv-late-1' });
    await dni(h, t.key, { campaign_code: t.code, visitor_id: 'pv-late-2' });
    expect(await worker.tick()).toBe(1);
    expect(r.received).toHaveLength(2);
  });
});

describe('replay', () => {
  it('replays one event, and every failed delivery since a time, with the same webhook-id', async () => {
    const t = await createTenant(h);
    let up = false;
    const r = await receiver(() => (up ? 200 : 500));
    const w = await createWebhook(h, t.orgId, r.url);
    await adminCall(h, 'POST', `/admin/orgs/${t.orgId}/calls`, {
      to: t.numbers[0],
      from: '+12125550100',
    });
    const { worker } = webhookWorker(h, { maxAttempts: 1 });
    expect(await worker.tick()).toBe(1);
    const path = `/admin/orgs/${t.orgId}/webhooks/${w.webhook_id}`;
    const [failed] = (await adminCall(h, 'GET', `${path}/deliveries?state=failed`)).items;
    expect(failed.event_type).toBe('call.received');
    up = true;
    const since = new Date(h.clock.now() - 60_000).toISOString();
    const res = await adminCall(h, 'POST', `${path}/replay`, { since });
    expect(res).toEqual({ webhook_id: w.webhook_id, queued: 1 });
    expect(await worker.tick()).toBe(1);
    const one = await adminCall(h, 'POST', `${path}/replay`, { event_id: failed.event_id });
    expect(one.queued).toBe(1);
    expect(await worker.tick()).toBe(1);
    expect(r.received.map((x) => x.headers['webhook-id'])).toEqual([
      failed.event_id,
      failed.event_id,
      failed.event_id,
    ]);
    const other = await createTenant(h);
    const w2 = await createWebhook(h, other.orgId, r.url);
    const foreign = await h.admin.inject({
      method: 'POST',
      url: `/admin/orgs/${other.orgId}/webhooks/${w2.webhook_id}/replay`,
      headers: { authorization: `Bearer adm_test_token_0123456789abcdef` },
      payload: { event_id: failed.event_id },
    });
    expect(foreign.statusCode).toBe(404);
    expect(json(foreign)).toEqual({ detail: 'event_not_found' });
  });
});

describe('safe targets at delivery time', () => {
  it('a name resolving to loopback is refused when connecting, not only at creation', async () => {
    const t = await createTenant(h);
    const r = await receiver();
    const w = await createWebhook(h, t.orgId, r.url.replace('127.0.0.1', 'localhost'));
    await adminCall(h, 'POST', `/admin/orgs/${t.orgId}/calls`, {
      to: t.numbers[0],
      from: '+12125550100',
    });
    const { worker } = webhookWorker(h, {}, { allowPrivate: false });
    expect(await worker.tick()).toBe(1);
    expect(r.received).toHaveLength(0);
    const [a] = (
      await adminCall(h, 'GET', `/admin/orgs/${t.orgId}/webhooks/${w.webhook_id}/attempts`)
    ).attempts;
    expect(a).toMatchObject({ outcome: 'failed', status_code: null });
    expect(a.error).toMatch(/localhost resolves to (127\.0\.0\.1|::1), a loopback address/);
  });
});

describe('safe targets at delivery time: IP literals', () => {
  it.each([
    ['127.0.0.1', '127.0.0.1', 'a loopback address'],
    ['169.254.169.254', '169.254.169.254', 'a linkLocal address'],
    [
      '[::7f00:1]',
      '::7f00:1',
      'an IPv4-compatible address embedding 127.0.0.1, a loopback address',
    ],
    [
      '[64:ff9b::a9fe:a9fe]',
      '64:ff9b::a9fe:a9fe',
      'a NAT64 address embedding 169.254.169.254, a linkLocal address',
    ],
  ])(
    '%s is refused before connecting when private targets are not allowed',
    async (host, ip, what) => {
      const t = await createTenant(h);
      // Accepted at creation (the harness allows private targets), refused by the worker.
      const w = await createWebhook(h, t.orgId, `http://${host}:9/latest/meta-data`);
      await adminCall(h, 'POST', `/admin/orgs/${t.orgId}/calls`, {
        to: t.numbers[0],
        from: '+12125550100',
      });
      const { worker } = webhookWorker(h, {}, { allowPrivate: false });
      // Other tests' retries may fall due in the same tick: the assertions are on this endpoint.
      expect(await worker.tick()).toBeGreaterThanOrEqual(1);
      const [a] = (
        await adminCall(h, 'GET', `/admin/orgs/${t.orgId}/webhooks/${w.webhook_id}/attempts`)
      ).attempts;
      expect(a).toMatchObject({ outcome: 'failed', status_code: null, response_head: null });
      expect(a.error).toBe(`${ip} resolves to ${ip}, ${what}`);
    },
  );
});

describe('secret rotation', () => {
  it('during the grace period both secrets sign a delivery; after it only the new one', async () => {
    const t = await createTenant(h);
    const r = await receiver();
    const w = await createWebhook(h, t.orgId, r.url, ['call.received']);
    const path = `/admin/orgs/${t.orgId}/webhooks/${w.webhook_id}`;
    const rotated = await adminCall(h, 'POST', `${path}/rotate`, { grace_seconds: 600 });
    await adminCall(h, 'POST', `/admin/orgs/${t.orgId}/calls`, {
      to: t.numbers[0],
      from: '+12125550100',
    });
    const { worker } = webhookWorker(h);
    expect(await worker.tick()).toBeGreaterThanOrEqual(1);
    const verify = (secret: string, got: (typeof r.received)[number]) => {
      // The receiver's clock is the test clock, not the wall clock (5-minute tolerance).
      const headers = got.headers as Record<string, string>;
      const wh = new Webhook(secret);
      const realNow = Date.now;
      Date.now = () => h.clock.now();
      try {
        return wh.verify(got.body, headers);
      } finally {
        Date.now = realNow;
      }
    };
    const during = r.received[0]!;
    expect(String(during.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verify(rotated.secret, during)).toMatchObject({ type: 'call.received' });
    expect(verify(w.secret, during)).toMatchObject({ type: 'call.received' });

    // Past the grace period: a replay of the same event is signed by the new secret only.
    h.clock.advance(601);
    const eventId = during.headers['webhook-id'];
    expect((await adminCall(h, 'POST', `${path}/replay`, { event_id: eventId })).queued).toBe(1);
    expect(await worker.tick()).toBeGreaterThanOrEqual(1);
    const after = r.received[1]!;
    expect(after.headers['webhook-id']).toBe(eventId);
    expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verify(rotated.secret, after)).toMatchObject({ type: 'call.received' });
    expect(() => verify(w.secret, after)).toThrow();
    const shown = await adminCall(h, 'GET', path);
    expect(shown.previous_secret_valid_until).toBeNull();
  });
});

describe("what is read of a receiver's answer", () => {
  const servers: http.Server[] = [];
  afterEach(() => {
    for (const s of servers.splice(0)) {
      s.closeAllConnections();
      s.close();
    }
  });
  async function serve(handler: http.RequestListener): Promise<string> {
    const s = http.createServer(handler);
    servers.push(s);
    s.listen(0, '127.0.0.1');
    await once(s, 'listening');
    return `http://127.0.0.1:${(s.address() as AddressInfo).port}/hook`;
  }

  async function oneAttempt(url: string, timeoutMs = 5_000) {
    const t = await createTenant(h);
    const w = await createWebhook(h, t.orgId, url, ['call.received']);
    await adminCall(h, 'POST', `/admin/orgs/${t.orgId}/calls`, {
      to: t.numbers[0],
      from: '+12125550100',
    });
    const { worker, sender } = webhookWorker(h, {}, { timeoutMs });
    const started = Date.now();
    try {
      expect(await worker.tick()).toBeGreaterThanOrEqual(1);
    } finally {
      sender.close();
    }
    const elapsed = Date.now() - started;
    const [a] = (
      await adminCall(h, 'GET', `/admin/orgs/${t.orgId}/webhooks/${w.webhook_id}/attempts`)
    ).attempts;
    return { a, elapsed };
  }

  it('a redirect is not followed: the attempt fails with the 3xx', async () => {
    const target = await receiver();
    const url = await serve((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(307, { location: target.url }).end('moved'));
    });
    const { a } = await oneAttempt(url);
    expect(a).toMatchObject({ outcome: 'failed', status_code: 307, error: 'HTTP 307' });
    expect(target.received).toHaveLength(0);
  });

  it('reads at most the first bytes of an answer, even one that never ends', async () => {
    const url = await serve((req, res) => {
      req.resume();
      req.on('end', () => {
        // 64 KiB at once, then never an end: only the head is read, the deadline is not waited.
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('x'.repeat(65_536));
      });
    });
    const { a, elapsed } = await oneAttempt(url, 5_000);
    expect(a.outcome).toBe('delivered');
    expect(a.response_head).toBe('x'.repeat(256));
    expect(elapsed).toBeLessThan(2_500);
  });
});
