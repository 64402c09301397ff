import { createHash, randomBytes } from 'node:crypto';

export const SCOPES = ['enroll', 'execute'] as const;
export type Scope = (typeof SCOPES)[number];

const KEY_RE = /^svc_live_[0-9a-f]{40}$/;
const BEARER_RE = /^bearer +(\S+) *$/i;

export function generateApiKey(): string {
  return `svc_live_${randomBytes(20).toString('hex')}`;
}

/** Keys carry 160 random bits, so a fast hash is enough; no stretching needed. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function keyPrefix(key: string): string {
  return `${key.slice(0, 13)}…`;
}

/** The key from an Authorization header, or null when the header is not a well-formed bearer key. */
export function parseBearer(header: string | undefined): string | null {
  if (!header) return null;
  const m = BEARER_RE.exec(header);
  const key = m?.[1];
  return key && KEY_RE.test(key) ? key : null;
}
