import type { Redis } from 'ioredis';
import { decide, type RateDecision, type RateLimiter } from '../domain/rate-limit/limiter.js';

// INCR and the expiry in one round trip; the key outlives its window a little
// so a slow clock on another process still finds the same counter.
const HIT_SCRIPT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n`;

export class RedisRateLimiter implements RateLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'rl:',
  ) {
    redis.defineCommand('rlHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
  }

  async hit(key: string, limit: number, nowMs: number, windowMs = 60_000): Promise<RateDecision> {
    const start = Math.floor(nowMs / windowMs) * windowMs;
    const client = this.redis as Redis & { rlHit(key: string, ttl: number): Promise<number> };
    const count = await client.rlHit(`${this.prefix}${key}:${start}`, windowMs * 2);
    return decide(count, limit, nowMs, start, windowMs);
  }

  async close(): Promise<void> {
    await this.redis.quit();
  }
}
