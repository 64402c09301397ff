import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TwilioCarrier } from '../../src/adapters/twilio-carrier.js';
import { attemptRows, touchRow, worker } from '../helpers/dispatch.js';
import { FakeTwilio } from '../helpers/fake-twilio.js';
import { type Harness, json, useHarness } from '../helpers/harness.js';
import { outboundTenant, touch, WEEKDAY_MORNING_ET } from '../helpers/outbound.js';

const h: Harness = useHarness({
  privateDatabase: "the dispatch worker leases every organization's queued touches",
});
const fake = new FakeTwilio();
let carrier: TwilioCarrier;
beforeAll(async () => {
  const baseUrl = await fake.start();
  carrier = new TwilioCarrier({
    accountSid: 'ACtest',
    authToken: 'tok',
    baseUrl,
    timeoutMs: 500,
    publicBaseUrl: 'https://calls.example.com',
  });
});
afterAll(async () => {
  await fake.stop();
});
beforeEach(() => {
  h.clock.set(WEEKDAY_MORNING_ET);
  fake.requests.length = 0;
});

const config = {
  caller_id: '+12125550100',
  recording_url: 'https://cdn.example/drop.mp3',
  templates: { default: { text: 'Hi {{name}}, your order shipped.' } },
};

describe('Twilio through the dispatch worker', () => {
  it('retries a 503 with backoff, then records the call sid as delivered', async () => {
    const t = await outboundTenant(h, { config });
    let n = 0;
    fake.script = () =>
      ++n === 1
        ? { status: 503, body: { code: 20503, message: 'busy' } }
        : { status: 201, body: { sid: 'SMabc' } };
    const res = await touch(h, t.key, t.code, {
      to_e164: t.contact,
      channel: 'sms',
      consent_basis: 'pewc',
      dynamic_variables: { name: 'Ann' },
    });
    const id = json(res).touch_id;
    const w = worker(h, carrier);
    expect(await w.tick()).toMatchObject({ retried: 1 });
    h.clock.advance(5);
    expect(await w.tick()).toMatchObject({ delivered: 1 });
    expect(fake.requests).toHaveLength(2);
    expect(fake.requests[1]?.form).toEqual({
      To: t.contact,
      From: '+12125550100',
      Body: 'Hi Ann, your order shipped.',
    });
    expect(await touchRow(h, id)).toMatchObject({
      dispatch_status: 'delivered',
      carrier: 'twilio',
      attempts: 2,
      carrier_ids: ['SMabc'],
    });
    expect((await attemptRows(h, id)).map((a) => a.outcome)).toEqual(['retry', 'accepted']);
  });

  it("drops a voicemail with answering-machine detection playing the campaign's recording", async () => {
    const t = await outboundTenant(h, { config });
    fake.script = () => ({ status: 201, body: { sid: 'CAvm' } });
    const res = await touch(h, t.key, t.code, {
      to_e164: t.contact,
      channel: 'voicemail',
      consent_basis: 'pewc',
    });
    expect(await worker(h, carrier).tick()).toMatchObject({ delivered: 1 });
    expect(fake.requests[0]?.path).toBe('/2010-04-01/Accounts/ACtest/Calls.json');
    expect(fake.requests[0]?.form).toMatchObject({
      MachineDetection: 'DetectMessageEnd',
      Twiml: `<Response><Gather numDigits="1" method="POST" timeout="5" action="https://calls.example.com/carrier/twilio/optout?touch=${json(res).touch_id}"><Play>https://cdn.example/drop.mp3</Play><Say>To stop receiving calls from us, press 9.</Say></Gather></Response>`,
    });
    expect(await touchRow(h, json(res).touch_id)).toMatchObject({ carrier_ids: ['CAvm'] });
  });

  it('ends a touch whose request timed out as unknown, without asking Twilio again', async () => {
    const t = await outboundTenant(h, { config });
    fake.script = () => 'hang';
    const res = await touch(h, t.key, t.code, {
      to_e164: t.contact,
      channel: 'call',
      consent_basis: 'pewc',
    });
    const w = worker(h, carrier);
    expect(await w.tick()).toMatchObject({ unknown: 1 });
    h.clock.advance(3600);
    expect(await w.tick()).toMatchObject({ claimed: 0 });
    expect(fake.requests).toHaveLength(1);
    expect(await touchRow(h, json(res).touch_id)).toMatchObject({ dispatch_status: 'unknown' });
  });
});
