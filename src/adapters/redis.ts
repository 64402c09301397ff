import { Redis } from 'ioredis';
import { BudgetExceeded } from '../domain/rate-limit/fail-open.js';

const CAUSES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  EPIPE: 'connection closed',
};

export interface RedisConnection {
  redis: Redis;
  /**
   * Why a command failed, in an operator's words: the connection's own error (refused, reset,
   * not found…) or the budget that ran out, never ioredis's wording of its internal state
   * ("Stream isn't writeable and enableOfflineQueue options is false").
   */
  describeFailure(err: unknown): string;
}

/**
 * The client the rate limiter uses: fail at once while disconnected instead of queueing behind
 * a reconnect, and remember the last connection error, since a command sent while disconnected
 * fails with ioredis's own message rather than the cause.
 */
export function connectRedis(url: string, budgetMs: number): RedisConnection {
  const redis = new Redis(url, {
    enableAutoPipelining: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 1000,
    // ioredis waits up to 2 s between attempts by default: a stall replaces the connection
    // every REDIS_RETRY_MS (adapters/redis-watchdog.ts) and would otherwise push the first
    // attempt after it to the cap.
    retryStrategy: (times) => Math.min(times * 50, 500),
  });
  let last: { code?: string } | null = null;
  // Outages are logged once by the limiter, not once per reconnect attempt.
  redis.on('error', (err: NodeJS.ErrnoException) => {
    last = err;
  });
  redis.on('ready', () => {
    last = null;
  });
  const where = (() => {
    const u = new URL(url);
    return `${u.hostname}:${u.port || 6379}`;
  })();
  return {
    redis,
    describeFailure(err) {
      if (err instanceof BudgetExceeded) {
        return `Redis at ${where} did not answer within ${budgetMs} ms (REDIS_TIMEOUT_MS)`;
      }
      const code = (err as { code?: string } | null)?.code ?? last?.code;
      const cause = code ? (CAUSES[code] ?? code) : 'not connected';
      return `Redis at ${where}: ${cause}${code && CAUSES[code] ? ` (${code})` : ''}`;
    },
  };
}
