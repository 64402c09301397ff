import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { RedisRateLimiter } from '../../../src/adapters/redis-limiter.js';
import { MemoryRateLimiter, type RateLimiter } from '../../../src/domain/rate-limit/limiter.js';

const redisUrl = process.env.TEST_REDIS_URL;
const stores: [string, () => RateLimiter][] = [['memory', () => new MemoryRateLimiter()]];
if (redisUrl) {
  // A random prefix per run keeps reruns and parallel files apart on one Redis.
  stores.push([
    'redis',
    () => new RedisRateLimiter(new Redis(redisUrl), `test:${randomBytes(4).toString('hex')}:`),
  ]);
}
const opened: RateLimiter[] = [];
afterAll(async () => {
  await Promise.all(opened.map((l) => l.close()));
});

const MINUTE = 60_000;
const T0 = Date.parse('2026-03-02T15:00:00Z');

describe.each(stores)('%s limiter', (_name, make) => {
  const limiter = () => {
    const l = make();
    opened.push(l);
    return l;
  };

  it('allows exactly the limit in one window and refuses the next', async () => {
    const l = limiter();
    const decisions = [];
    for (let i = 0; i < 301; i++) decisions.push(await l.hit('org-a', 300, T0 + 10_000));
    expect(decisions.slice(0, 300).every((d) => d.allowed)).toBe(true);
    expect(decisions[299]?.count).toBe(300);
    expect(decisions[299]).toMatchObject({ allowed: true, limit: 300, remaining: 0 });
    expect(decisions[300]).toEqual({
      allowed: false,
      count: 301,
      limit: 300,
      remaining: 0,
      windowSeconds: 60,
      retryAfterSeconds: 50,
    });
  });

  it('opens a new window at the minute boundary, aligned to the wall clock', async () => {
    const l = limiter();
    for (let i = 0; i < 3; i++) await l.hit('org-b', 3, T0 + MINUTE - 1);
    expect((await l.hit('org-b', 3, T0 + MINUTE - 1)).allowed).toBe(false);
    const next = await l.hit('org-b', 3, T0 + MINUTE);
    expect(next).toEqual({
      allowed: true,
      count: 1,
      limit: 3,
      remaining: 2,
      windowSeconds: 60,
      retryAfterSeconds: 60,
    });
  });

  it('keeps organizations apart', async () => {
    const l = limiter();
    for (let i = 0; i < 2; i++) await l.hit('org-c', 2, T0);
    expect((await l.hit('org-c', 2, T0)).allowed).toBe(false);
    expect((await l.hit('org-d', 2, T0)).allowed).toBe(true);
  });

  it('rounds Retry-After up and never below one second', async () => {
    const l = limiter();
    expect((await l.hit('org-e', 0, T0 + MINUTE - 1)).retryAfterSeconds).toBe(1);
    expect((await l.hit('org-e', 0, T0 + 1)).retryAfterSeconds).toBe(60);
  });

  it('counts the remaining budget down to zero, never below', async () => {
    const l = limiter();
    const remaining = [];
    for (let i = 0; i < 5; i++) remaining.push((await l.hit('org-h', 3, T0 + 30_000)).remaining);
    expect(remaining).toEqual([2, 1, 0, 0, 0]);
  });

  it('reports the window length it was asked for', async () => {
    const l = limiter();
    const d = await l.hit('org-i', 10, T0 + 1_000, 10_000);
    expect([d.windowSeconds, d.retryAfterSeconds, d.remaining]).toEqual([10, 9, 9]);
  });

  it('counts concurrent hits exactly', async () => {
    const l = limiter();
    const all = await Promise.all(Array.from({ length: 50 }, () => l.hit('org-f', 20, T0)));
    expect(all.filter((d) => d.allowed)).toHaveLength(20);
    expect(all.map((d) => d.count).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 50 }, (_, i) => i + 1),
    );
  });
});

describe('shared counters', () => {
  it.runIf(redisUrl)('two Redis limiters (two processes) share one window', async () => {
    const prefix = `test:${randomBytes(4).toString('hex')}:`;
    const a = new RedisRateLimiter(new Redis(redisUrl!), prefix);
    const b = new RedisRateLimiter(new Redis(redisUrl!), prefix);
    opened.push(a, b);
    expect((await a.hit('org-g', 2, T0)).remaining).toBe(1);
    expect((await b.hit('org-g', 2, T0)).remaining).toBe(0);
    expect((await a.hit('org-g', 2, T0)).allowed).toBe(false);
  });
});
