import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { beforeAll, describe, expect, it } from 'vitest';
import { RedisRateLimiter } from '../../src/adapters/redis-limiter.js';
import { MemoryRateLimiter, type RateLimiter } from '../../src/domain/rate-limit/limiter.js';
import { createTenant, dni, useHarness, withHarness } from '../helpers/harness.js';

// RateLimit-Policy and RateLimit as draft-ietf-httpapi-ratelimit-headers-11 writes them.
const redisUrl = process.env.TEST_REDIS_URL;
const redisLimiter = (prefix: string) => new RedisRateLimiter(new Redis(redisUrl!), prefix);
const limiters: [string, () => RateLimiter][] = [['memory', () => new MemoryRateLimiter()]];
if (redisUrl) {
  limiters.push(['redis', () => redisLimiter(`test:${randomBytes(4).toString('hex')}:`)]);
}

type Res = Awaited<ReturnType<typeof dni>>;
const budget = (res: Res) => [
  res.statusCode,
  res.headers['ratelimit-policy'],
  res.headers.ratelimit,
  res.headers['retry-after'],
];

describe.each(limiters)('RateLimit headers on POST /dni/session (%s counters)', (_n, make) => {
  const h = useHarness({ limiter: make() });
  beforeAll(() => {
    h.clock.set('2026-03-02T15:00:20.000Z');
  });

  it('counts down on 201s and agrees with Retry-After on the 429', async () => {
    const t = await createTenant(h, { rateLimit: 3 });
    const seen = [];
    for (let i = 0; i < 4; i++) {
      seen.push(budget(await dni(h, t.key, { campaign_code: t.code, visitor_id: `v${i}` })));
    }
    expect(seen).toEqual([
      [201, '"default";q=3;w=60', '"default";r=2;t=40', undefined],
      [201, '"default";q=3;w=60', '"default";r=1;t=40', undefined],
      [201, '"default";q=3;w=60', '"default";r=0;t=40', undefined],
      [429, '"default";q=3;w=60', '"default";r=0;t=40', '40'],
    ]);
  });

  it('gives seconds to the reset of the wall-clock window, and a full budget after it', async () => {
    const t = await createTenant(h, { rateLimit: 2 });
    h.clock.set('2026-03-02T15:00:59.001Z');
    await dni(h, t.key, { campaign_code: t.code, visitor_id: 'a' });
    const late = await dni(h, t.key, { campaign_code: t.code, visitor_id: 'b' });
    expect(budget(late)).toEqual([201, '"default";q=2;w=60', '"default";r=0;t=1', undefined]);
    expect(budget(await dni(h, t.key, { campaign_code: t.code, visitor_id: 'c' }))).toEqual([
      429,
      '"default";q=2;w=60',
      '"default";r=0;t=1',
      '1',
    ]);
    h.clock.set('2026-03-02T15:01:00.000Z');
    const next = await dni(h, t.key, { campaign_code: t.code, visitor_id: 'c' });
    expect(budget(next)).toEqual([201, '"default";q=2;w=60', '"default";r=1;t=60', undefined]);
    h.clock.set('2026-03-02T15:00:20.000Z');
  });

  it('uses the default quota of 300 and is on counted failures too, not on 401', async () => {
    const t = await createTenant(h);
    const bad = await dni(h, t.key, { campaign_code: 'toolong', visitor_id: 'v' });
    expect(budget(bad)).toEqual([422, '"default";q=300;w=60', '"default";r=299;t=40', undefined]);
    const missing = await dni(h, t.key, { campaign_code: 'zzz', visitor_id: 'v' });
    expect(budget(missing)[0]).toBe(404);
    expect(budget(missing)[2]).toBe('"default";r=298;t=40');
    const anon = await dni(h, 'svc_live_0000000000000000000000000000000000000000', {});
    expect(budget(anon)).toEqual([401, undefined, undefined, undefined]);
  });
});

describe('two processes sharing Redis', () => {
  it.runIf(redisUrl)('count one budget and show it from either process', async () => {
    const prefix = `test:${randomBytes(4).toString('hex')}:`;
    await withHarness({ limiter: redisLimiter(prefix) }, async (a) => {
      const t = await createTenant(a, { rateLimit: 3 });
      // Opened after the tenant exists, so its keyring loads the key at start like a new process.
      await withHarness({ store: a.store, limiter: redisLimiter(prefix) }, async (b) => {
        for (const h of [a, b]) h.clock.set('2026-03-02T15:00:30.000Z');
        const order = [a, b, a, b];
        const seen = [];
        for (const [i, h] of order.entries()) {
          seen.push(budget(await dni(h, t.key, { campaign_code: t.code, visitor_id: `p${i}` })));
        }
        expect(seen).toEqual([
          [201, '"default";q=3;w=60', '"default";r=2;t=30', undefined],
          [201, '"default";q=3;w=60', '"default";r=1;t=30', undefined],
          [201, '"default";q=3;w=60', '"default";r=0;t=30', undefined],
          [429, '"default";q=3;w=60', '"default";r=0;t=30', '30'],
        ]);
      });
    });
  });
});
