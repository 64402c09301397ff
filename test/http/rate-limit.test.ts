import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { beforeAll, describe, expect, it } from 'vitest';
import { RedisRateLimiter } from '../../src/adapters/redis-limiter.js';
import { MemoryRateLimiter, type RateLimiter } from '../../src/domain/rate-limit/limiter.js';
import { ADMIN_TOKEN, adminCall, createTenant, dni, json, useHarness } from '../helpers/harness.js';

const redisUrl = process.env.TEST_REDIS_URL;
const limiters: [string, () => RateLimiter][] = [['memory', () => new MemoryRateLimiter()]];
if (redisUrl) {
  limiters.push([
    'redis',
    () => new RedisRateLimiter(new Redis(redisUrl), `test:${randomBytes(4).toString('hex')}:`),
  ]);
}

describe.each(limiters)('POST /dni/session rate limit (%s counters)', (_name, makeLimiter) => {
  const h = useHarness({ limiter: makeLimiter() });
  beforeAll(() => {
    // The middle of a minute, so a burst stays inside one window.
    h.clock.set('2026-03-02T15:00:20.000Z');
  });

  const burst = async (key: string, code: string, n: number) => {
    const out = [];
    for (let i = 0; i < n; i += 25) {
      const batch = Array.from({ length: Math.min(25, n - i) }, (_, j) =>
        dni(h, key, { campaign_code: code, visitor_id: `rl-${i + j}` }),
      );
      out.push(...(await Promise.all(batch)));
    }
    return out;
  };

  it('allows 300 in a minute and answers the 301st with 429, Retry-After and no write', async () => {
    const t = await createTenant(h, { numbers: 5 });
    const ok = await burst(t.key, t.code, 300);
    expect(ok.filter((r) => r.statusCode === 201)).toHaveLength(300);
    const before = await h.store.query(
      'select count(*)::int as n from dni_sessions where org_id = $1',
      [t.orgId],
    );
    const res = await dni(h, t.key, { campaign_code: t.code, visitor_id: 'one-more' });
    expect(res.statusCode).toBe(429);
    expect(res.body).toBe('{"detail":"rate_limited"}');
    expect(res.headers['retry-after']).toBe('40');
    expect(
      await h.store.query('select count(*)::int as n from dni_sessions where org_id = $1', [
        t.orgId,
      ]),
    ).toEqual(before);
  });

  it('opens again at the next minute boundary', async () => {
    const t = await createTenant(h, { rateLimit: 2 });
    await burst(t.key, t.code, 2);
    expect((await dni(h, t.key, { campaign_code: t.code, visitor_id: 'x' })).statusCode).toBe(429);
    h.clock.set('2026-03-02T15:00:59.999Z');
    const late = await dni(h, t.key, { campaign_code: t.code, visitor_id: 'x' });
    expect(late.statusCode).toBe(429);
    expect(late.headers['retry-after']).toBe('1');
    h.clock.set('2026-03-02T15:01:00.000Z');
    expect((await dni(h, t.key, { campaign_code: t.code, visitor_id: 'x' })).statusCode).toBe(201);
    h.clock.set('2026-03-02T15:00:20.000Z');
  });

  it('leaves another organization unaffected', async () => {
    const busy = await createTenant(h, { rateLimit: 1 });
    const calm = await createTenant(h, { rateLimit: 1 });
    await dni(h, busy.key, { campaign_code: busy.code, visitor_id: 'a' });
    expect((await dni(h, busy.key, { campaign_code: busy.code, visitor_id: 'b' })).statusCode).toBe(
      429,
    );
    expect((await dni(h, calm.key, { campaign_code: calm.code, visitor_id: 'a' })).statusCode).toBe(
      201,
    );
  });

  it('counts requests that fail validation, not those that fail authentication', async () => {
    const t = await createTenant(h, { rateLimit: 2 });
    for (let i = 0; i < 5; i++) {
      const res = await dni(h, 'svc_live_0000000000000000000000000000000000000000', {
        campaign_code: t.code,
      });
      expect(res.statusCode).toBe(401);
    }
    expect((await dni(h, t.key, { campaign_code: 'toolong', visitor_id: 'v' })).statusCode).toBe(
      422,
    );
    expect((await dni(h, t.key, '{bad json')).statusCode).toBe(422);
    const res = await dni(h, t.key, { campaign_code: t.code, visitor_id: 'v' });
    expect(res.statusCode).toBe(429);
  });

  it('applies a per-organization override set through the admin API at once', async () => {
    const t = await createTenant(h);
    await adminCall(h, 'PATCH', `/admin/orgs/${t.orgId}`, { dni_rate_limit_per_minute: 3 });
    const results = await burst(t.key, t.code, 4);
    expect(results.map((r) => r.statusCode)).toEqual([201, 201, 201, 429]);
    await adminCall(h, 'PATCH', `/admin/orgs/${t.orgId}`, { dni_rate_limit_per_minute: null });
    expect((await dni(h, t.key, { campaign_code: t.code, visitor_id: 'back' })).statusCode).toBe(
      201,
    );
  });

  it('counts 429s in metrics', async () => {
    const metrics = await h.admin.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    const m = /rate_limit_rejections_total\{route="POST \/dni\/session"\} (\d+)/.exec(metrics.body);
    expect(Number(m?.[1])).toBeGreaterThanOrEqual(5);
  });

  it('does not limit the other two endpoints', async () => {
    const t = await createTenant(h, { rateLimit: 1 });
    const res = await Promise.all(
      Array.from({ length: 3 }, () =>
        h.app.inject({
          method: 'POST',
          url: `/dni/campaigns/${t.code}/buyer-report`,
          headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
          payload: '{}',
        }),
      ),
    );
    expect(res.map((r) => r.statusCode)).toEqual([422, 422, 422]);
    expect(json(res[0]!).detail[0].type).toBe('missing');
  });
});
