export interface RateDecision {
  allowed: boolean;
  /** Requests counted in this window, this one included. */
  count: number;
  /** The quota of the window, as given to `hit`. */
  limit: number;
  /** Requests still allowed in this window after this one (never below 0). */
  remaining: number;
  /** Length of a window in seconds. */
  windowSeconds: number;
  /**
   * Seconds until the next window opens (at least 1): the reset of the
   * window, sent as `t` of the RateLimit header and as Retry-After of a 429.
   */
  retryAfterSeconds: number;
}

/** Fixed windows aligned to the wall clock. Two stores, one behaviour. */
export interface RateLimiter {
  hit(key: string, limit: number, nowMs: number, windowMs?: number): Promise<RateDecision>;
  close(): Promise<void>;
}

export function decide(
  count: number,
  limit: number,
  nowMs: number,
  windowStart: number,
  windowMs: number,
): RateDecision {
  return {
    allowed: count <= limit,
    count,
    limit,
    remaining: Math.max(0, limit - count),
    windowSeconds: Math.round(windowMs / 1000),
    retryAfterSeconds: Math.max(1, Math.ceil((windowStart + windowMs - nowMs) / 1000)),
  };
}

export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();
  private sweptAt = 0;

  async hit(key: string, limit: number, nowMs: number, windowMs = 60_000): Promise<RateDecision> {
    const start = Math.floor(nowMs / windowMs) * windowMs;
    this.sweep(start);
    let w = this.windows.get(key);
    if (!w || w.start !== start) {
      w = { start, count: 0 };
      this.windows.set(key, w);
    }
    w.count += 1;
    return decide(w.count, limit, nowMs, start, windowMs);
  }

  /** Drops finished windows once per window, so idle organizations cost nothing. */
  private sweep(start: number): void {
    if (this.sweptAt === start) return;
    this.sweptAt = start;
    for (const [k, w] of this.windows) if (w.start < start) this.windows.delete(k);
  }

  async close(): Promise<void> {}
}
