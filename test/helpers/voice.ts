import type { Harness } from './harness.js';
import { newSid, PUBLIC_BASE, twilioPost } from './twilio-webhook.js';
import { parseXml, type XmlElement } from './xml.js';

/** A caller in New York (area code 212). */
export const NY_CALLER = '+12125550142';

export const voiceParams = (to: string, from = NY_CALLER, callSid = newSid('CA')) => ({
  AccountSid: 'AC0123456789abcdef0123456789abcdef',
  ApiVersion: '2010-04-01',
  CallSid: callSid,
  CallStatus: 'ringing',
  Called: to,
  Caller: from,
  Direction: 'inbound',
  From: from,
  To: to,
});

/** What a TwiML answer tells Twilio to do, read from the XML. */
export type Step =
  | {
      kind: 'dial';
      number: string;
      action: string | null;
      timeout: string | null;
      path: string | null;
    }
  | { kind: 'goodbye' }
  | { kind: 'hangup' };

export function stepOf(xml: string): Step {
  const first = parseXml(xml).children[0] as XmlElement;
  if (first.name === 'Dial') {
    const action = first.attributes.action ?? null;
    return {
      kind: 'dial',
      number: first.text,
      action,
      timeout: first.attributes.timeout ?? null,
      path: action?.startsWith(PUBLIC_BASE) ? action.slice(PUBLIC_BASE.length) : null,
    };
  }
  if (first.name === 'Say') return { kind: 'goodbye' };
  if (first.name === 'Hangup') return { kind: 'hangup' };
  throw new Error(`unexpected TwiML ${xml}`);
}

/** One inbound call through the signed voice webhook: its CallSid and the first step. */
export async function ring(h: Harness, to: string, from = NY_CALLER) {
  const params = voiceParams(to, from);
  const res = await twilioPost(h, '/carrier/twilio/voice', params);
  if (res.statusCode !== 200) throw new Error(`voice → ${res.statusCode} ${res.body}`);
  return { callSid: params.CallSid, step: stepOf(res.body), from };
}

/** Twilio's Dial action for the Dial `step` rang: the buyer's leg ended with `status`. */
export async function dialEnded(
  h: Harness,
  call: { callSid: string; from: string },
  step: Step,
  status: 'completed' | 'answered' | 'busy' | 'no-answer' | 'failed' | 'canceled',
  durationSeconds = 0,
) {
  if (step.kind !== 'dial' || !step.path)
    throw new Error(`not a routed dial: ${JSON.stringify(step)}`);
  const res = await twilioPost(h, step.path, {
    AccountSid: 'AC0123456789abcdef0123456789abcdef',
    CallSid: call.callSid,
    CallStatus: 'in-progress',
    DialCallSid: newSid('CA'),
    DialCallStatus: status,
    DialCallDuration: String(durationSeconds),
    From: call.from,
  });
  if (res.statusCode !== 200) throw new Error(`dial action → ${res.statusCode} ${res.body}`);
  return stepOf(res.body);
}

/** The carrier's final status of the call itself. */
export function callEnded(h: Harness, callSid: string, status = 'completed', duration = 0) {
  return twilioPost(h, '/carrier/twilio/status', {
    CallSid: callSid,
    CallStatus: status,
    CallDuration: String(duration),
  });
}
