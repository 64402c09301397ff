import twilio from 'twilio';
import type { Harness } from './harness.js';

export const TWILIO_TOKEN = 'f0e1d2c3b4a5968778695a4b3c2d1e0f';
export const PUBLIC_BASE = 'https://calls.example.com';

/**
 * Posts a form the way Twilio does, signed by the twilio package itself with the auth token
 * over PUBLIC_BASE + path (query string included), unless told otherwise.
 */
export function twilioPost(
  h: Harness,
  path: string,
  params: Record<string, string>,
  o: { token?: string; signature?: string | null } = {},
) {
  const signature =
    o.signature === undefined
      ? twilio.getExpectedTwilioSignature(o.token ?? TWILIO_TOKEN, `${PUBLIC_BASE}${path}`, params)
      : o.signature;
  return h.app.inject({
    method: 'POST',
    url: path,
    headers: {
      'content-type': 'application/x-www-form-urlencoded; charset=utf-8',
      ...(signature === null ? {} : { 'x-twilio-signature': signature }),
    },
    payload: new URLSearchParams(params).toString(),
  });
}

let sidSeq = 0;
export const newSid = (prefix: 'SM' | 'CA') =>
  `${prefix}${(Date.now() * 1000 + sidSeq++).toString(16).padStart(32, '0')}`;

/** An inbound SMS webhook body as Twilio sends it. */
export const smsParams = (from: string, to: string, body: string, sid = newSid('SM')) => ({
  AccountSid: 'AC0123456789abcdef0123456789abcdef',
  ApiVersion: '2010-04-01',
  Body: body,
  From: from,
  MessageSid: sid,
  NumMedia: '0',
  NumSegments: '1',
  SmsMessageSid: sid,
  SmsSid: sid,
  SmsStatus: 'received',
  To: to,
});
