import { Webhook } from 'standardwebhooks';
import type { SignedHeaders } from '../domain/webhooks/signing.js';

/**
 * The three Standard Webhooks headers, signed by the official library. During a rotation's
 * grace period both secrets sign; the spec allows several space-separated signatures, and a
 * receiver accepts the message when any one verifies.
 */
export function signedHeaders(
  secrets: readonly string[],
  msgId: string,
  at: Date,
  body: string,
): SignedHeaders {
  return {
    'webhook-id': msgId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': secrets.map((s) => new Webhook(s).sign(msgId, at, body)).join(' '),
  };
}
