import type { Redis } from 'ioredis';
import { withinBudget } from '../domain/time-budget.js';

export interface RedisWatchdogOptions {
  /** A ping slower than this means the connection is stalled (REDIS_TIMEOUT_MS). */
  budgetMs: number;
  /** How often to ping (REDIS_RETRY_MS). */
  everyMs: number;
  /** Told once per stall, when its first connection is replaced. */
  onStall?: (reason: string) => void;
}

/**
 * Replaces a Redis connection that is open but answers nothing. ioredis only reconnects when
 * the socket closes; after a partition, a failover behind the same address or a hung server,
 * the socket may stay open for hours while every command times out, and the rate limits count
 * per process for as long as it does. So the connection is pinged every `everyMs`; a ready
 * connection whose ping does not answer within the budget, or one stuck between its TCP
 * connect and Redis's ready answer for longer than the budget, is destroyed and ioredis dials a
 * new one (which reaches Redis as soon as Redis answers again).
 */
export function watchRedis(redis: Redis, o: RedisWatchdogOptions): () => void {
  let stalled = false;
  let connectedAt: number | null = null;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  redis.on('connect', () => {
    connectedAt = Date.now();
  });
  redis.on('ready', () => {
    connectedAt = null;
  });
  const replace = (reason: string) => {
    if (!stalled) o.onStall?.(reason);
    stalled = true;
    connectedAt = null;
    // Not disconnect(): it ends the socket politely and waits for a FIN that a silent peer
    // never sends. Destroying it closes at once, and ioredis dials again.
    redis.stream.destroy();
  };
  const tick = async () => {
    if (redis.status === 'ready') {
      const answered = await withinBudget(
        redis.ping().then(
          () => true,
          () => false,
        ),
        o.budgetMs,
        () => false,
      );
      if (answered) stalled = false;
      else if (redis.status === 'ready') replace(`no answer to a ping within ${o.budgetMs} ms`);
    } else if (
      redis.status === 'connect' &&
      connectedAt !== null &&
      Date.now() - connectedAt >= o.budgetMs
    ) {
      replace(`connected, but no answer to the ready check within ${o.budgetMs} ms`);
    }
    if (!stopped) timer = setTimeout(tick, o.everyMs).unref();
  };
  timer = setTimeout(tick, o.everyMs).unref();
  const stop = () => {
    stopped = true;
    clearTimeout(timer);
  };
  redis.once('end', stop);
  return stop;
}
