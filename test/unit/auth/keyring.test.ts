import { describe, expect, it } from 'vitest';
import { type KeyEntry, Keyring, type Principal } from '../../../src/domain/auth/keyring.js';
import { generateApiKey, hashApiKey, type Scope } from '../../../src/domain/auth/keys.js';
import { AppError } from '../../../src/errors.js';

const NOW = Date.parse('2026-03-02T15:00:00Z');

/** The outcome of authenticate as a value: the principal's key id, or the error code. */
function outcome(ring: Keyring, header: string | undefined, scope: Scope, now = NOW): string {
  try {
    const p: Principal = ring.authenticate(header, scope, now);
    return p.keyId;
  } catch (err) {
    if (err instanceof AppError) return err.code;
    throw err;
  }
}

function setup(o: { tracking?: boolean; scopes?: string[]; expiresAt?: Date | null } = {}) {
  const ring = new Keyring();
  const key = generateApiKey();
  ring.applyOrg({ id: 'org_1', trackingEnabled: o.tracking ?? true, dniRateLimitPerMinute: null });
  const entry: KeyEntry = {
    id: 'key_1',
    orgId: 'org_1',
    keyHash: hashApiKey(key),
    scopes: o.scopes ?? ['enroll', 'execute'],
    expiresAt: o.expiresAt ?? null,
    revokedAt: null,
  };
  ring.applyKey(entry);
  return { ring, key, entry, header: `Bearer ${key}` };
}

describe('authenticate', () => {
  it('gives the principal of a known key with the scope', () => {
    const { ring, header } = setup();
    const p = ring.authenticate(header, 'enroll', NOW);
    expect(p).toMatchObject({ keyId: 'key_1', orgId: 'org_1', scopes: ['enroll', 'execute'] });
    expect(p.org).toMatchObject({ id: 'org_1', trackingEnabled: true });
  });

  it('answers invalid_api_key for a missing, malformed or unknown key', () => {
    const { ring, key } = setup();
    for (const h of [
      undefined,
      '',
      key,
      `Basic ${key}`,
      `Bearer ${key}0`,
      `Bearer ${generateApiKey()}`,
    ])
      expect(outcome(ring, h, 'enroll')).toBe('invalid_api_key');
  });

  it('sets WWW-Authenticate on the 401', () => {
    const { ring } = setup();
    try {
      ring.authenticate(undefined, 'enroll', NOW);
      expect.unreachable();
    } catch (err) {
      expect((err as AppError).headers).toEqual({ 'www-authenticate': 'Bearer' });
      expect((err as AppError).status).toBe(401);
    }
  });

  it('stops a key at its expires_at instant', () => {
    const { ring, header } = setup({ expiresAt: new Date(NOW + 1000) });
    expect(outcome(ring, header, 'enroll', NOW + 999)).toBe('key_1');
    expect(outcome(ring, header, 'enroll', NOW + 1000)).toBe('invalid_api_key');
  });

  it('answers a key of an unknown organization with 401, not 403', () => {
    const ring = new Keyring();
    const key = generateApiKey();
    ring.applyKey({
      id: 'key_x',
      orgId: 'org_gone',
      keyHash: hashApiKey(key),
      scopes: ['enroll'],
      expiresAt: null,
      revokedAt: null,
    });
    expect(outcome(ring, `Bearer ${key}`, 'enroll')).toBe('invalid_api_key');
  });

  it('checks tracking_disabled before the scope', () => {
    const { ring, header } = setup({ tracking: false, scopes: ['execute'] });
    expect(outcome(ring, header, 'enroll')).toBe('tracking_disabled');
    expect(outcome(ring, header, 'execute')).toBe('tracking_disabled');
  });

  it('answers insufficient_scope for a key without the scope', () => {
    const { ring, header } = setup({ scopes: ['execute'] });
    expect(outcome(ring, header, 'enroll')).toBe('insufficient_scope');
    expect(outcome(ring, header, 'execute')).toBe('key_1');
  });
});

describe('applying changes', () => {
  it('drops a revoked key so it takes the unknown-key path', () => {
    const { ring, header, entry } = setup();
    ring.applyKey({ ...entry, revokedAt: new Date(NOW) });
    expect(outcome(ring, header, 'enroll')).toBe('invalid_api_key');
    expect(ring.size).toBe(0);
  });

  it('replaces the scopes of a key', () => {
    const { ring, header, entry } = setup();
    ring.applyKey({ ...entry, scopes: ['execute'] });
    expect(outcome(ring, header, 'enroll')).toBe('insufficient_scope');
    expect(ring.size).toBe(1);
  });

  it('forgets the old hash when a key id comes back with a new one', () => {
    const { ring, header, entry } = setup();
    const other = generateApiKey();
    ring.applyKey({ ...entry, keyHash: hashApiKey(other) });
    expect(outcome(ring, header, 'enroll')).toBe('invalid_api_key');
    expect(outcome(ring, `Bearer ${other}`, 'enroll')).toBe('key_1');
    expect(ring.size).toBe(1);
  });

  it('applies tracking_enabled both ways', () => {
    const { ring, header } = setup();
    ring.applyOrg({ id: 'org_1', trackingEnabled: false, dniRateLimitPerMinute: null });
    expect(outcome(ring, header, 'enroll')).toBe('tracking_disabled');
    ring.applyOrg({ id: 'org_1', trackingEnabled: true, dniRateLimitPerMinute: 5 });
    expect(outcome(ring, header, 'enroll')).toBe('key_1');
    expect(ring.org('org_1')?.dniRateLimitPerMinute).toBe(5);
  });
});
