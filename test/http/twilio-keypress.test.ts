import twilio from 'twilio';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TwilioCarrier } from '../../src/adapters/twilio-carrier.js';
import { worker } from '../helpers/dispatch.js';
import { FakeTwilio } from '../helpers/fake-twilio.js';
import { json, useHarness } from '../helpers/harness.js';
import { outboundTenant, touch, WEEKDAY_MORNING_ET } from '../helpers/outbound.js';
import { auditRows } from '../helpers/reports.js';
import { newSid, PUBLIC_BASE, TWILIO_TOKEN, twilioPost } from '../helpers/twilio-webhook.js';
import { parseXml } from '../helpers/xml.js';

const h = useHarness({
  twilio: { authToken: TWILIO_TOKEN, publicBaseUrl: PUBLIC_BASE },
  privateDatabase: "the dispatch worker leases every organization's queued touches",
});
const fake = new FakeTwilio();
let carrier: TwilioCarrier;
beforeAll(async () => {
  carrier = new TwilioCarrier({
    accountSid: 'ACtest',
    authToken: TWILIO_TOKEN,
    baseUrl: await fake.start(),
    timeoutMs: 2000,
    publicBaseUrl: PUBLIC_BASE,
  });
});
afterAll(async () => {
  await fake.stop();
});
beforeEach(() => {
  h.clock.set(WEEKDAY_MORNING_ET);
  fake.requests.length = 0;
});

const CALLER_ID = '+12125550100';
const config = {
  caller_id: CALLER_ID,
  recording_url: 'https://cdn.example/drop.mp3',
  templates: { default: { text: 'Your appointment is tomorrow at ten.' } },
};

const decide = (t: { key: string; code: string }, to: string, channel: string, dryRun = false) =>
  touch(h, t.key, t.code, {
    to_e164: to,
    channel,
    consent_basis: 'pewc',
    ...(dryRun ? { dry_run: true } : {}),
  }).then(json);

const events = (orgId: string, e164: string) =>
  h.store.query<Record<string, any>>(
    'select kind, source, evidence from consent_events where org_id = $1 and e164 = $2 order by seq',
    [orgId, e164],
  );

/** Places a touch through the worker and the fake; answers its id and the TwiML Twilio got. */
async function placed(channel: 'call' | 'voicemail') {
  const t = await outboundTenant(h, { config });
  const d = await decide(t, t.contact, channel);
  expect(d.status).toBe('queued');
  expect(await worker(h, carrier).tick()).toMatchObject({ delivered: 1 });
  const sent = fake.requests.find((r) => r.form.To === t.contact);
  return { t, touchId: d.touch_id as string, twiml: sent?.form.Twiml ?? '' };
}

/** What Twilio posts to the <Gather> action when the callee presses a key. */
const digitParams = (t: { contact: string }, digits: string, callSid = newSid('CA')) => ({
  AccountSid: 'ACtest',
  CallSid: callSid,
  CallStatus: 'in-progress',
  Digits: digits,
  Direction: 'outbound-api',
  From: CALLER_ID,
  To: t.contact,
  msg: 'Gather End',
});

describe('the TwiML the Twilio adapter sends', () => {
  it.each(['call', 'voicemail'] as const)(
    'a %s plays inside a <Gather> whose action is the signed opt-out URL of the touch',
    async (channel) => {
      const { touchId, twiml } = await placed(channel);
      const doc = parseXml(twiml);
      expect(doc.name).toBe('Response');
      const [g] = doc.children;
      expect(g?.name).toBe('Gather');
      expect(g?.attributes).toEqual({
        numDigits: '1',
        method: 'POST',
        timeout: '5',
        action: `${PUBLIC_BASE}/carrier/twilio/optout?touch=${touchId}`,
      });
      expect(g?.children.map((c) => c.name)).toEqual([channel === 'call' ? 'Say' : 'Play', 'Say']);
      expect(g?.children[1]?.text).toBe('To stop receiving calls from us, press 9.');
    },
  );
});

describe('pressing 9', () => {
  it('a signed digit post revokes every channel for the contact', async () => {
    const { t, touchId } = await placed('voicemail');
    const path = `/carrier/twilio/optout?touch=${touchId}`;
    const res = await twilioPost(h, path, digitParams(t, '9'));
    expect(res.statusCode).toBe(200);
    const doc = parseXml(res.body);
    expect(doc.children.map((c) => c.name)).toEqual(['Say', 'Hangup']);
    expect(doc.children[0]?.text).toMatch(/not receive any more calls/);
    for (const channel of ['call', 'sms', 'voicemail']) {
      expect((await decide(t, t.contact, channel)).reasons[0].code).toBe('consent_revoked');
    }
    const [e] = (await events(t.orgId, t.contact)).slice(-1);
    expect(e).toMatchObject({
      kind: 'opt_out',
      source: 'keypress:twilio',
      evidence: { scope: 'all', digits: '9', touch_id: touchId, channel: 'voicemail' },
    });
    expect(await auditRows(h, t.orgId, 'consent.revoked')).toHaveLength(1);
  });

  it('a forged or unsigned digit post is 403 and changes nothing', async () => {
    const { t, touchId } = await placed('call');
    const path = `/carrier/twilio/optout?touch=${touchId}`;
    const forged = await twilioPost(h, path, digitParams(t, '9'), { token: 'f'.repeat(32) });
    expect(forged.statusCode).toBe(403);
    expect((await twilioPost(h, path, digitParams(t, '9'), { signature: null })).statusCode).toBe(
      403,
    );
    // A signature for another touch's URL does not carry over to this one.
    const params = digitParams(t, '9');
    const elsewhere = twilio.getExpectedTwilioSignature(
      TWILIO_TOKEN,
      `${PUBLIC_BASE}/carrier/twilio/optout?touch=tch_other`,
      params,
    );
    expect((await twilioPost(h, path, params, { signature: elsewhere })).statusCode).toBe(403);
    expect((await events(t.orgId, t.contact)).map((e) => e.kind)).toEqual(['grant']);
    expect((await decide(t, t.contact, 'sms', true)).status).toBe('would_queue');
  });

  it('a replayed digit post records one revocation', async () => {
    const { t, touchId } = await placed('call');
    const params = digitParams(t, '9');
    for (let i = 0; i < 5; i++) {
      const res = await twilioPost(h, `/carrier/twilio/optout?touch=${touchId}`, params);
      expect(res.statusCode).toBe(200);
      h.clock.advance(10);
    }
    expect((await events(t.orgId, t.contact)).map((e) => e.kind)).toEqual(['grant', 'opt_out']);
    expect(await auditRows(h, t.orgId, 'consent.revoked')).toHaveLength(1);
  });

  it('another digit, or no touch, records nothing', async () => {
    const { t, touchId } = await placed('call');
    const res = await twilioPost(h, `/carrier/twilio/optout?touch=${touchId}`, digitParams(t, '1'));
    expect(res.statusCode).toBe(200);
    expect(parseXml(res.body).children.map((c) => c.name)).toEqual(['Say', 'Hangup']);
    const missing = await twilioPost(h, '/carrier/twilio/optout', digitParams(t, '9'));
    expect(missing.statusCode).toBe(400);
    expect((await events(t.orgId, t.contact)).map((e) => e.kind)).toEqual(['grant']);
  });
});
