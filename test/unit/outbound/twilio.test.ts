import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_OPT_OUT_PROMPT,
  TwilioCarrier,
  twilioRequest,
  withKeypressOptOut,
} from '../../../src/adapters/twilio-carrier.js';
import type { DispatchPayload } from '../../../src/domain/dispatch/payload.js';
import { FakeTwilio } from '../../helpers/fake-twilio.js';

const PROMPT = DEFAULT_OPT_OUT_PROMPT;
const GATHER =
  '<Gather numDigits="1" method="POST" timeout="5" action="https://calls.example.com/carrier/twilio/optout?touch=tch_1">';
// Each test gets its own fake and carrier: with one shared fake, a request a slow machine
// delivered late (after its test timed out or moved on) landed in the next test's list.
let fake: FakeTwilio;
let baseUrl: string;
let carrier: TwilioCarrier;
const carrierWith = (timeoutMs: number) =>
  new TwilioCarrier({
    accountSid: 'AC123',
    authToken: 'secret',
    baseUrl,
    timeoutMs,
    publicBaseUrl: 'https://calls.example.com/',
  });
beforeEach(async () => {
  fake = new FakeTwilio();
  baseUrl = await fake.start();
  // Generous: a loaded machine must not turn an answer into a timeout.
  carrier = carrierWith(10_000);
  fake.script = (req) => ({
    status: 201,
    body: { sid: req.path.includes('Messages') ? 'SM1' : 'CA1' },
  });
});
afterEach(() => fake.stop());

const payload = (over: Partial<DispatchPayload>): DispatchPayload => ({
  touch_id: 'tch_1',
  channel: 'sms',
  to: '+12125550123',
  from: '+12125550100',
  text: 'Hello & welcome',
  twiml: null,
  recording_url: null,
  template_id: 'default',
  ...over,
});
const send = (p: DispatchPayload) => carrier.send(p, { idempotencyKey: p.touch_id, attempt: 1 });

describe('requests', () => {
  it('sends an SMS through Messages with basic auth and a form body', async () => {
    expect(await send(payload({}))).toEqual({ outcome: 'accepted', carrierId: 'SM1' });
    const [req] = fake.requests;
    expect(req).toMatchObject({ method: 'POST', path: '/2010-04-01/Accounts/AC123/Messages.json' });
    expect(req?.headers.authorization).toBe(
      `Basic ${Buffer.from('AC123:secret').toString('base64')}`,
    );
    expect(req?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(req?.form).toEqual({
      To: '+12125550123',
      From: '+12125550100',
      Body: 'Hello & welcome',
    });
  });

  it('places a call with TwiML: the template TwiML, else the text spoken, with the opt-out', async () => {
    await send(payload({ channel: 'call', twiml: '<Response><Dial>+1</Dial></Response>' }));
    await send(payload({ channel: 'call' }));
    expect(fake.requests.map((r) => r.path)).toEqual([
      '/2010-04-01/Accounts/AC123/Calls.json',
      '/2010-04-01/Accounts/AC123/Calls.json',
    ]);
    // A <Dial> cannot sit inside a <Gather>: the opt-out offer plays first.
    expect(fake.requests[0]?.form.Twiml).toBe(
      `<Response>${GATHER}<Say>${PROMPT}</Say></Gather><Dial>+1</Dial></Response>`,
    );
    expect(fake.requests[1]?.form.Twiml).toBe(
      `<Response>${GATHER}<Say>Hello &#38; welcome</Say><Say>${PROMPT}</Say></Gather></Response>`,
    );
    expect(fake.requests[1]?.form).not.toHaveProperty('MachineDetection');
  });

  it('drops a voicemail as a call that waits for the greeting to end, then plays the recording', async () => {
    await send(
      payload({ channel: 'voicemail', recording_url: 'https://cdn.example/vm.mp3?a=1&b=2' }),
    );
    expect(fake.requests[0]?.form).toEqual({
      To: '+12125550123',
      From: '+12125550100',
      Twiml: `<Response>${GATHER}<Play>https://cdn.example/vm.mp3?a=1&#38;b=2</Play><Say>${PROMPT}</Say></Gather></Response>`,
      MachineDetection: 'DetectMessageEnd',
    });
  });

  it('refuses, without a request, a touch the campaign config cannot produce', async () => {
    expect(await send(payload({ from: null }))).toEqual({
      outcome: 'failed',
      retryable: false,
      error: 'the campaign config has no caller_id',
    });
    expect(twilioRequest(payload({ channel: 'voicemail', text: null }))).toEqual({
      error: 'no recording_url for a voicemail drop',
    });
    expect(fake.requests).toHaveLength(0);
  });

  it('refuses calls and voicemail, not texts, without the public address the opt-out needs', async () => {
    const bare = new TwilioCarrier({ accountSid: 'AC123', authToken: 'secret', baseUrl: 'x' });
    for (const channel of ['call', 'voicemail'] as const) {
      expect(await bare.send(payload({ channel }), { idempotencyKey: 'k', attempt: 1 })).toEqual({
        outcome: 'failed',
        retryable: false,
        error: 'PUBLIC_BASE_URL is not set: a call needs the keypress opt-out address',
      });
    }
    expect(twilioRequest(payload({}))).toMatchObject({ resource: 'Messages' });
    expect(fake.requests).toHaveLength(0);
  });
});

describe('keypress opt-out TwiML', () => {
  const url = 'https://calls.example.com/carrier/twilio/optout?touch=tch_1';
  it('wraps Say, Play and SSML in the <Gather>, prompt last', () => {
    expect(
      withKeypressOptOut(
        '<?xml version="1.0"?><Response><Say>Hi <break time="1s"/> there</Say><Pause length="1"/></Response>',
        'Press 9 & stop',
        url,
      ),
    ).toBe(
      `<Response>${GATHER}<Say>Hi <break time="1s"/> there</Say><Pause length="1"/><Say>Press 9 &#38; stop</Say></Gather></Response>`,
    );
  });
  it('puts the offer before TwiML a <Gather> cannot hold', () => {
    expect(
      withKeypressOptOut('<Response><Say>x</Say><Redirect>/next</Redirect></Response>', 'P', url),
    ).toBe(
      `<Response>${GATHER}<Say>P</Say></Gather><Say>x</Say><Redirect>/next</Redirect></Response>`,
    );
  });
  it('uses the campaign prompt of the payload', async () => {
    await send(payload({ channel: 'call', opt_out_prompt: 'Press 9 to opt out.' }));
    expect(fake.requests[0]?.form.Twiml).toContain('<Say>Press 9 to opt out.</Say></Gather>');
  });
});

describe('answers', () => {
  it("retries 429 and 5xx, gives up on other 4xx with Twilio's code and message", async () => {
    fake.script = () => ({ status: 503, body: { code: 20503, message: 'Service unavailable' } });
    expect(await send(payload({}))).toEqual({
      outcome: 'failed',
      retryable: true,
      error: 'twilio 503 20503: Service unavailable',
    });
    fake.script = () => ({
      status: 400,
      body: { code: 21211, message: "Invalid 'To' Phone Number" },
    });
    expect(await send(payload({}))).toEqual({
      outcome: 'failed',
      retryable: false,
      error: "twilio 400 21211: Invalid 'To' Phone Number",
    });
  });

  it('calls a timeout, a reset or a 504 unknown: the request may have been acted on', async () => {
    fake.script = () => 'hang';
    const impatient = carrierWith(300);
    const sent = await impatient.send(payload({}), { idempotencyKey: 'tch_1', attempt: 1 });
    expect(sent.outcome).toBe('unknown');
    fake.script = () => 'reset';
    expect((await send(payload({}))).outcome).toBe('unknown');
    fake.script = () => ({ status: 504, body: {} });
    expect((await send(payload({}))).outcome).toBe('unknown');
  });

  it('retries when the connection is refused: nothing was sent', async () => {
    const spare = new FakeTwilio();
    const baseUrl = await spare.start();
    await spare.stop(); // nothing listens there any more
    const closed = new TwilioCarrier({ accountSid: 'AC1', authToken: 't', baseUrl });
    expect(await closed.send(payload({}), { idempotencyKey: 'x', attempt: 1 })).toEqual({
      outcome: 'failed',
      retryable: true,
      error: 'twilio request failed: ECONNREFUSED',
    });
  });
});
