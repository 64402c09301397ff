import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Destination secrets at rest: AES-256-GCM under SECRETS_KEY. A stored value names the key it
 * was written with (`v1.<key id>.<iv>.<tag>.<ciphertext>`, base64url), so after a rotation the
 * previous keys (SECRETS_KEY_PREVIOUS) still read old rows until start-up rewraps them.
 */
export class SecretBox {
  private readonly keys: Map<string, Buffer>;
  readonly currentId: string;

  constructor(
    private readonly current: Buffer,
    previous: readonly Buffer[] = [],
  ) {
    this.currentId = keyId(current);
    this.keys = new Map([[this.currentId, current]]);
    for (const k of previous) this.keys.set(keyId(k), k);
  }

  seal(plain: Record<string, string>): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.current, iv);
    const body = Buffer.concat([cipher.update(JSON.stringify(plain), 'utf8'), cipher.final()]);
    const parts = [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url'));
    return ['v1', this.currentId, ...parts].join('.');
  }

  /** Throws SecretsKeyMismatch when no known key opens it (a wrong or missing SECRETS_KEY). */
  open(sealed: string): Record<string, string> {
    const [version, id, iv, tag, body] = sealed.split('.');
    const key = id ? this.keys.get(id) : undefined;
    if (version !== 'v1' || !key || !iv || !tag || body === undefined) {
      throw new SecretsKeyMismatch(id ?? '?', this.currentId);
    }
    try {
      const d = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      d.setAuthTag(Buffer.from(tag, 'base64url'));
      const text = Buffer.concat([d.update(Buffer.from(body, 'base64url')), d.final()]);
      return JSON.parse(text.toString('utf8')) as Record<string, string>;
    } catch {
      throw new SecretsKeyMismatch(id ?? '?', this.currentId);
    }
  }

  /** Whether a stored value was written under an older key (start-up rewraps it). */
  isStale(sealed: string): boolean {
    return sealed.split('.')[1] !== this.currentId;
  }
}

export class SecretsKeyMismatch extends Error {
  constructor(
    readonly storedKeyId: string,
    readonly currentKeyId: string,
  ) {
    super(
      currentKeyId === 'unset'
        ? `SECRETS_KEY is not set, but conversion destinations hold secrets written under key ${storedKeyId}: set SECRETS_KEY to that key`
        : `SECRETS_KEY does not decrypt the stored conversion-destination secrets (written under key ${storedKeyId}, SECRETS_KEY is key ${currentKeyId}): set SECRETS_KEY to the key they were written with, or list that key in SECRETS_KEY_PREVIOUS`,
    );
    this.name = 'SecretsKeyMismatch';
  }
}

/** A short public name of a key (not the key): the first 8 hex digits of its SHA-256. */
export function keyId(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}

/** 32 bytes as 64 hex digits or base64; null when it is neither. */
export function parseSecretsKey(raw: string): Buffer | null {
  const t = raw.trim();
  if (/^[0-9a-fA-F]{64}$/.test(t)) return Buffer.from(t, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(t)) {
    const b = Buffer.from(t.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (b.length === 32) return b;
  }
  return null;
}

/** What lists show instead of a secret: its length class and last four characters at most. */
export function maskSecret(value: string): string {
  return value.length >= 16 ? `••••${value.slice(-4)}` : '••••';
}

export const maskSecrets = (secrets: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(secrets).map(([k, v]) => [k, maskSecret(v)]));
