import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '../../src/domain/auth/keys.js';
import { adminCall, createTenant, type Tenant, useHarness } from '../helpers/harness.js';
import {
  byName,
  MISSING_CODE,
  type PublicRoute,
  probe,
  ROUTES,
  rowCounts,
  send,
  stableHeaders,
} from '../helpers/routes.js';

const h = useHarness();

const INVALID_API_KEY = '{"detail":"invalid_api_key"}';
const NOT_FOUND = '{"detail":"campaign_not_found"}';

const HEX40 = '0123456789abcdef0123456789abcdef01234567';

/** Every credential problem a header can carry; each must be the same 401. */
const BAD_HEADERS: [string, (key: string) => string][] = [
  ['an empty header', () => ''],
  ['Basic credentials', () => 'Basic dXNlcjpwYXNzd29yZA=='],
  ['the Token scheme with a valid key', (k) => `Token ${k}`],
  ['the key without a scheme', (k) => k],
  ['Bearer with no key', () => 'Bearer'],
  ['Bearer and a space', () => 'Bearer '],
  ['a wrong prefix', () => `Bearer svc_test_${HEX40}`],
  ['39 hex characters', (k) => `Bearer ${k.slice(0, -1)}`],
  ['41 hex characters', (k) => `Bearer ${k}0`],
  ['uppercase hex', (k) => `Bearer svc_live_${k.slice(9).toUpperCase()}`],
  ['non-hex characters', () => `Bearer svc_live_${'g'.repeat(40)}`],
  ['two keys', (k) => `Bearer ${k} ${k}`],
  ['an unknown well-formed key', () => `Bearer ${generateApiKey()}`],
];

async function issueKey(t: Tenant, body: Record<string, unknown> = {}) {
  return adminCall(h, 'POST', `/admin/orgs/${t.orgId}/keys`, {
    scopes: ['enroll', 'execute'],
    ...body,
  }) as Promise<{ key_id: string; api_key: string }>;
}

function expectSame401(res: LightMyRequestResponse, reference: LightMyRequestResponse) {
  expect(res.statusCode).toBe(401);
  expect(res.body).toBe(INVALID_API_KEY);
  expect(stableHeaders(res)).toEqual(stableHeaders(reference));
}

const accepted = async (route: PublicRoute, key: string) => {
  const res = await probe(h.app, route, `Bearer ${key}`);
  expect(res.body).toBe(NOT_FOUND);
};

describe.each(ROUTES)('$name', (route) => {
  const other = route.scope === 'enroll' ? 'execute' : 'enroll';
  let t: Tenant;
  let reference: LightMyRequestResponse;
  beforeAll(async () => {
    t = await createTenant(h);
    reference = await send(h.app, route, t.code, {});
  });

  describe('401', () => {
    it('answers a missing Authorization header with invalid_api_key and WWW-Authenticate', () => {
      expect(reference.statusCode).toBe(401);
      expect(reference.body).toBe(INVALID_API_KEY);
      expect(reference.headers['content-type']).toBe('application/json');
      expect(reference.headers['www-authenticate']).toBe('Bearer');
    });

    it.each(BAD_HEADERS)('answers %s exactly like a missing header', async (_, header) => {
      expectSame401(await send(h.app, route, t.code, { authorization: header(t.key) }), reference);
    });

    it('answers a revoked key exactly like a missing header', async () => {
      const k = await issueKey(t);
      await accepted(route, k.api_key);
      await adminCall(h, 'POST', `/admin/keys/${k.key_id}/revoke`);
      expectSame401(await probe(h.app, route, `Bearer ${k.api_key}`), reference);
    });

    it('accepts a key until its expires_at, then answers 401', async () => {
      const k = await issueKey(t, { expires_at: new Date(h.clock.now() + 60_000).toISOString() });
      h.clock.advance(59);
      await accepted(route, k.api_key);
      h.clock.advance(1);
      expectSame401(await probe(h.app, route, `Bearer ${k.api_key}`), reference);
    });

    it('keeps a rotated key working through its grace period only', async () => {
      const k = await issueKey(t);
      const next = await adminCall(h, 'POST', `/admin/keys/${k.key_id}/rotate`, {
        grace_seconds: 300,
      });
      h.clock.advance(299);
      await accepted(route, k.api_key);
      await accepted(route, next.api_key);
      h.clock.advance(1);
      expectSame401(await probe(h.app, route, `Bearer ${k.api_key}`), reference);
      await accepted(route, next.api_key);
    });

    it('stops a key rotated with grace 0 at once', async () => {
      const k = await issueKey(t);
      const next = await adminCall(h, 'POST', `/admin/keys/${k.key_id}/rotate`, {
        grace_seconds: 0,
      });
      expectSame401(await probe(h.app, route, `Bearer ${k.api_key}`), reference);
      await accepted(route, next.api_key);
    });
  });

  it.each(['bearer', 'BEARER', 'bEaReR'])('accepts the scheme word written %s', async (word) => {
    const res = await probe(h.app, route, `${word} ${t.key}`);
    expect(res.body).toBe(NOT_FOUND);
  });

  describe('403', () => {
    it('answers tracking_disabled for an organization with API access off', async () => {
      const off = await createTenant(h, { trackingEnabled: false });
      const res = await send(h.app, route, off.code, { authorization: `Bearer ${off.key}` });
      expect(res.statusCode).toBe(403);
      expect(res.body).toBe('{"detail":"tracking_disabled"}');
    });

    it('answers insufficient_scope for a key without the scope', async () => {
      const k = await issueKey(t, { scopes: [other] });
      const res = await send(h.app, route, t.code, { authorization: `Bearer ${k.api_key}` });
      expect(res.statusCode).toBe(403);
      expect(res.body).toBe('{"detail":"insufficient_scope"}');
    });

    it('applies a scope change made through the admin API to the next request', async () => {
      const k = await issueKey(t, { scopes: [other] });
      await adminCall(h, 'PATCH', `/admin/keys/${k.key_id}`, { scopes: [other, route.scope] });
      await accepted(route, k.api_key);
      await adminCall(h, 'PATCH', `/admin/keys/${k.key_id}`, { scopes: [other] });
      expect((await probe(h.app, route, `Bearer ${k.api_key}`)).body).toBe(
        '{"detail":"insufficient_scope"}',
      );
    });

    it('applies tracking_enabled changes to the next request', async () => {
      const u = await createTenant(h);
      await adminCall(h, 'PATCH', `/admin/orgs/${u.orgId}`, { tracking_enabled: false });
      expect((await probe(h.app, route, `Bearer ${u.key}`)).body).toBe(
        '{"detail":"tracking_disabled"}',
      );
      await adminCall(h, 'PATCH', `/admin/orgs/${u.orgId}`, { tracking_enabled: true });
      await accepted(route, u.key);
    });
  });

  describe('order of checks', () => {
    const invalid = { zzz: 1 };
    const statusAndBody = (r: LightMyRequestResponse) => [r.statusCode, r.body];

    it('answers 401, not 422, to an invalid body with a bad key', async () => {
      const auth = `Bearer ${generateApiKey()}`;
      for (const payload of [invalid, '{"broken', '', '[]', Buffer.from([0x7b, 0xff, 0x7d])]) {
        const res = await send(h.app, route, t.code, { authorization: auth, payload });
        expect(statusAndBody(res)).toEqual([401, INVALID_API_KEY]);
      }
      const noHeader = await send(h.app, route, t.code, { payload: '{"broken' });
      expect(statusAndBody(noHeader)).toEqual([401, INVALID_API_KEY]);
    });

    it('answers 401, not 413, to an oversized body with a bad key', async () => {
      const payload = JSON.stringify({ pad: 'x'.repeat(70_000) });
      const res = await send(h.app, route, t.code, { authorization: 'Bearer x', payload });
      expect(statusAndBody(res)).toEqual([401, INVALID_API_KEY]);
    });

    it('answers 401, not 422, to a bad key with a path code over 3 characters', async () => {
      if (!route.codeInPath) return;
      const res = await send(h.app, route, 'abcd', { authorization: 'Bearer x' });
      expect(statusAndBody(res)).toEqual([401, INVALID_API_KEY]);
    });

    it('answers tracking_disabled before the scope and before validation', async () => {
      const off = await createTenant(h, { trackingEnabled: false, scopes: [other] });
      const res = await send(h.app, route, off.code, {
        authorization: `Bearer ${off.key}`,
        payload: '{"broken',
      });
      expect(statusAndBody(res)).toEqual([403, '{"detail":"tracking_disabled"}']);
    });

    it('answers insufficient_scope before validation', async () => {
      const k = await issueKey(t, { scopes: [other] });
      for (const payload of [invalid, '{"broken']) {
        const res = await send(h.app, route, 'abcd', {
          authorization: `Bearer ${k.api_key}`,
          payload,
        });
        expect(statusAndBody(res)).toEqual([403, '{"detail":"insufficient_scope"}']);
      }
    });

    it('validates only after authentication', async () => {
      const res = await send(h.app, route, t.code, {
        authorization: `Bearer ${t.key}`,
        payload: invalid,
      });
      expect(res.statusCode).toBe(422);
    });
  });

  describe('tenancy', () => {
    it("answers another organization's campaign exactly like a missing one, writing nothing", async () => {
      const mine = await createTenant(h);
      const theirs = await createTenant(h);
      const before = await rowCounts(h.store);
      const foreign = await send(h.app, route, theirs.code, {
        authorization: `Bearer ${mine.key}`,
      });
      const missing = await send(h.app, route, MISSING_CODE, {
        authorization: `Bearer ${mine.key}`,
      });
      expect(await rowCounts(h.store)).toEqual(before);
      expect(foreign.statusCode).toBe(404);
      expect(foreign.body).toBe(NOT_FOUND);
      expect(missing.statusCode).toBe(404);
      expect(missing.body).toBe(NOT_FOUND);
      expect(stableHeaders(foreign)).toEqual(stableHeaders(missing));
    });
  });
});

describe('rate limit (POST /dni/session)', () => {
  const route = byName('/dni/session');

  it('counts only authenticated requests and answers 429 before validation', async () => {
    const t = await createTenant(h, { rateLimit: 2 });
    const executeOnly = await issueKey(t, { scopes: ['execute'] });
    for (let i = 0; i < 3; i++) {
      expect((await probe(h.app, route, `Bearer ${executeOnly.api_key}`)).statusCode).toBe(403);
      expect((await probe(h.app, route, 'Bearer nope')).statusCode).toBe(401);
    }
    await accepted(route, t.key);
    await accepted(route, t.key);
    const limited = await probe(h.app, route, `Bearer ${t.key}`);
    expect(limited.statusCode).toBe(429);
    expect(limited.body).toBe('{"detail":"rate_limited"}');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    const invalid = await send(h.app, route, t.code, {
      authorization: `Bearer ${t.key}`,
      payload: {},
    });
    expect([invalid.statusCode, invalid.body]).toEqual([429, '{"detail":"rate_limited"}']);
    const badKey = await send(h.app, route, t.code, { authorization: 'Bearer nope' });
    expect(badKey.statusCode).toBe(401);
    expect((await probe(h.app, route, `Bearer ${executeOnly.api_key}`)).statusCode).toBe(403);
  });

  it('counts requests that fail validation', async () => {
    const t = await createTenant(h, { rateLimit: 1 });
    const invalid = await send(h.app, route, t.code, {
      authorization: `Bearer ${t.key}`,
      payload: {},
    });
    expect(invalid.statusCode).toBe(422);
    expect((await probe(h.app, route, `Bearer ${t.key}`)).statusCode).toBe(429);
  });
});
