import twilio from 'twilio';
import { describe, expect, it } from 'vitest';
import {
  adminCall,
  createTenant,
  dni,
  type Harness,
  json,
  type Tenant,
  useHarness,
  withHarness,
} from '../helpers/harness.js';
import { auditRows } from '../helpers/reports.js';
import { itConcurrently } from '../helpers/store.js';
import { parseXml } from '../helpers/xml.js';

const TOKEN = 'f0e1d2c3b4a5968778695a4b3c2d1e0f';
const BASE = 'https://calls.example.com';
const FORWARD = '+13125550199';

const h = useHarness({ twilio: { authToken: TOKEN, publicBaseUrl: BASE } });

let sidSeq = 0;
const newSid = () => `CA${(Date.now() * 1000 + sidSeq++).toString(16).padStart(32, '0')}`;

/** Posts a form the way Twilio does, signed by the twilio package unless told otherwise. */
function twilioPost(
  path: string,
  params: Record<string, string>,
  o: { token?: string; signedUrl?: string; signature?: string | null; app?: Harness } = {},
) {
  const signature =
    o.signature === undefined
      ? twilio.getExpectedTwilioSignature(o.token ?? TOKEN, o.signedUrl ?? `${BASE}${path}`, params)
      : o.signature;
  return (o.app ?? h).app.inject({
    method: 'POST',
    url: path,
    headers: {
      'content-type': 'application/x-www-form-urlencoded; charset=utf-8',
      ...(signature === null ? {} : { 'x-twilio-signature': signature }),
    },
    payload: new URLSearchParams(params).toString(),
  });
}

const voiceParams = (to: string, callSid = newSid()) => ({
  AccountSid: 'AC0123456789abcdef0123456789abcdef',
  ApiVersion: '2010-04-01',
  CallSid: callSid,
  CallStatus: 'ringing',
  Called: to,
  Caller: '+12125550142',
  Direction: 'inbound',
  From: '+12125550142',
  To: to,
});

/** Timestamps come back as Date from PGlite and as text from postgres.js. */
const iso = (v: unknown) => new Date(v as string | Date).toISOString();

const callsOf = (orgId: string) =>
  h.store.query<Record<string, unknown>>('select * from calls where org_id = $1', [orgId]);
const callBySid = async (sid: string) =>
  (
    await h.store.query<Record<string, unknown>>(
      'select * from calls where carrier_call_sid = $1',
      [sid],
    )
  )[0];

async function forwardingTenant(): Promise<Tenant> {
  const t = await createTenant(h);
  await adminCall(h, 'PATCH', `/admin/orgs/${t.orgId}/campaigns/${t.code}`, {
    forward_to: FORWARD,
  });
  return t;
}

describe('voice webhook', () => {
  it('attributes a signed call to the live session and forwards it with <Dial>', async () => {
    const t = await forwardingTenant();
    const session = json(
      await dni(h, t.key, { campaign_code: t.code, visitor_id: 'v1', gclid: 'G-1' }),
    );
    h.clock.advance(120);
    const params = voiceParams(session.tracking_number);
    const res = await twilioPost('/carrier/twilio/voice', params);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/xml/);
    const doc = parseXml(res.body);
    expect(doc.name).toBe('Response');
    expect(doc.children.map((c) => c.name)).toEqual(['Dial']);
    expect(doc.children[0]!.text).toBe(FORWARD);
    expect(await callBySid(params.CallSid)).toMatchObject({
      org_id: t.orgId,
      dni_session_id: session.dni_session_id,
      tracking_number: session.tracking_number,
      from_number: '+12125550142',
      attribution: 'session',
      carrier: 'twilio',
      status: 'ringing',
    });
    const row = await callBySid(params.CallSid);
    expect(iso(row?.started_at)).toBe(new Date(h.clock.now()).toISOString());
    expect(row?.id).toMatch(/^call_[0-9a-f]{32}$/);
    const recorded = await auditRows(h, t.orgId, 'call.recorded');
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({
      actor: 'carrier:twilio',
      subject_id: row?.id,
      detail: { carrier_call_sid: params.CallSid, dni_session_id: session.dni_session_id },
    });
  });

  it('says goodbye and hangs up when the campaign has no forward_to, still storing the call', async () => {
    const t = await createTenant(h);
    const params = voiceParams(t.numbers[0]!);
    const res = await twilioPost('/carrier/twilio/voice', params);
    expect(res.statusCode).toBe(200);
    const doc = parseXml(res.body);
    expect(doc.children.map((c) => c.name)).toEqual(['Say', 'Hangup']);
    expect(doc.children[0]!.text).toContain('No one is available');
    expect(await callBySid(params.CallSid)).toMatchObject({
      org_id: t.orgId,
      attribution: 'campaign',
    });
  });

  it('answers a number no campaign owns with a polite goodbye and stores nothing', async () => {
    const params = voiceParams('+19995550100');
    const res = await twilioPost('/carrier/twilio/voice', params);
    expect(res.statusCode).toBe(200);
    const doc = parseXml(res.body);
    expect(doc.children.map((c) => c.name)).toEqual(['Say', 'Hangup']);
    expect(doc.children[0]!.text).toContain('not in service');
    expect(await callBySid(params.CallSid)).toBeUndefined();
  });

  itConcurrently('stores a retried webhook once and answers it the same way', async () => {
    const t = await forwardingTenant();
    const params = voiceParams(t.numbers[1]!);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => twilioPost('/carrier/twilio/voice', params)),
    );
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    expect(await callsOf(t.orgId)).toHaveLength(1);
  });

  it('verifies a URL with a query string as Twilio signed it', async () => {
    const t = await forwardingTenant();
    const path = '/carrier/twilio/voice?source=main';
    const params = voiceParams(t.numbers[0]!);
    const res = await twilioPost(path, params);
    expect(res.statusCode).toBe(200);
    expect(await callBySid(params.CallSid)).toBeDefined();
  });
});

describe('signature', () => {
  const refused = '{"detail":"invalid_signature"}';

  it.each([
    ['missing', { signature: null }],
    ['garbage', { signature: 'bm90IGEgc2lnbmF0dXJl' }],
    ['made with another auth token', { token: '00000000000000000000000000000000' }],
    ['made for another URL', { signedUrl: 'https://other.example.com/carrier/twilio/voice' }],
  ])('answers 403 to a %s signature and stores nothing', async (_, o) => {
    const t = await forwardingTenant();
    const params = voiceParams(t.numbers[0]!);
    const res = await twilioPost('/carrier/twilio/voice', params, o);
    expect(res.statusCode).toBe(403);
    expect(res.body).toBe(refused);
    expect(res.headers['content-type']).toBe('application/json');
    expect(await callsOf(t.orgId)).toHaveLength(0);
    expect(await auditRows(h, t.orgId, 'call.recorded')).toHaveLength(0);
  });

  it('answers 403 when a parameter was changed after signing', async () => {
    const t = await forwardingTenant();
    const params = voiceParams(t.numbers[0]!);
    const signature = twilio.getExpectedTwilioSignature(TOKEN, `${BASE}/carrier/twilio/voice`, {
      ...params,
      To: '+19995550123',
    });
    const res = await twilioPost('/carrier/twilio/voice', params, { signature });
    expect(res.statusCode).toBe(403);
    expect(await callsOf(t.orgId)).toHaveLength(0);
  });

  it('answers 403 to a JSON body, whose parameters Twilio never signs', async () => {
    const t = await forwardingTenant();
    const params = voiceParams(t.numbers[0]!);
    const res = await h.app.inject({
      method: 'POST',
      url: '/carrier/twilio/voice',
      headers: {
        'content-type': 'application/json',
        'x-twilio-signature': twilio.getExpectedTwilioSignature(
          TOKEN,
          `${BASE}/carrier/twilio/voice`,
          params,
        ),
      },
      payload: JSON.stringify(params),
    });
    expect(res.statusCode).toBe(403);
    expect(await callsOf(t.orgId)).toHaveLength(0);
  });

  it('answers 400 to a signed request without the call parameters', async () => {
    const res = await twilioPost('/carrier/twilio/voice', { CallSid: newSid() });
    expect(res.statusCode).toBe(400);
    expect(json(res)).toEqual({ detail: 'invalid_carrier_request', missing: ['To', 'From'] });
  });

  it('answers 503 and stores nothing when no auth token is configured', async () => {
    const t = await forwardingTenant();
    await withHarness({ store: h.store }, async (off) => {
      const params = voiceParams(t.numbers[0]!);
      for (const path of ['/carrier/twilio/voice', '/carrier/twilio/status']) {
        const res = await twilioPost(path, params, { app: off });
        expect(res.statusCode).toBe(503);
        expect(res.body).toBe('{"detail":"carrier_not_configured"}');
      }
      expect(await callsOf(t.orgId)).toHaveLength(0);
    });
  });
});

describe('status callback', () => {
  async function ringingCall() {
    const t = await forwardingTenant();
    const params = voiceParams(t.numbers[0]!);
    await twilioPost('/carrier/twilio/voice', params);
    return { t, sid: params.CallSid };
  }
  const status = (sid: string, callStatus: string, extra: Record<string, string> = {}) =>
    twilioPost('/carrier/twilio/status', {
      AccountSid: 'AC0123456789abcdef0123456789abcdef',
      CallSid: sid,
      CallStatus: callStatus,
      ...extra,
    });

  it('records the final status, duration and end time', async () => {
    const { t, sid } = await ringingCall();
    h.clock.advance(95);
    const res = await status(sid, 'completed', { CallDuration: '93' });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    const row = await callBySid(sid);
    expect(row).toMatchObject({ status: 'completed', duration_seconds: 93 });
    expect(iso(row?.ended_at)).toBe(new Date(h.clock.now()).toISOString());
    const lines = await auditRows(h, t.orgId, 'call.status_recorded');
    expect(lines.map((l) => l.detail)).toEqual([
      {
        status: 'completed',
        duration_seconds: 93,
        ended_at: new Date(h.clock.now()).toISOString(),
      },
    ]);
  });

  it('is idempotent: a repeated or later final status changes nothing', async () => {
    const { t, sid } = await ringingCall();
    await status(sid, 'completed', { CallDuration: '10' });
    const first = await callBySid(sid);
    h.clock.advance(30);
    expect((await status(sid, 'completed', { CallDuration: '10' })).statusCode).toBe(204);
    expect((await status(sid, 'failed')).statusCode).toBe(204);
    expect(await callBySid(sid)).toEqual(first);
    expect(await auditRows(h, t.orgId, 'call.status_recorded')).toHaveLength(1);
  });

  it('moves a call forward only: a late ringing after in-progress is ignored', async () => {
    const { sid } = await ringingCall();
    await status(sid, 'in-progress');
    await status(sid, 'ringing');
    expect(await callBySid(sid)).toMatchObject({ status: 'in-progress', ended_at: null });
  });

  it('answers 204 to a call it never stored, storing nothing', async () => {
    const sid = newSid();
    expect((await status(sid, 'completed')).statusCode).toBe(204);
    expect(await callBySid(sid)).toBeUndefined();
  });

  it('answers 403 to an unsigned callback and leaves the call as it was', async () => {
    const { sid } = await ringingCall();
    const res = await twilioPost(
      '/carrier/twilio/status',
      { CallSid: sid, CallStatus: 'completed', CallDuration: '5' },
      { signature: null },
    );
    expect(res.statusCode).toBe(403);
    expect(await callBySid(sid)).toMatchObject({ status: 'ringing', duration_seconds: null });
  });
});
