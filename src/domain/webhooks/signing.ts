import { randomBytes } from 'node:crypto';

/** Standard Webhooks' secret form: `whsec_` and base64 of the key (32 random bytes here). */
export function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** The headers a delivery is signed with (src/adapters/webhook-signing.ts signs them). */
export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}
