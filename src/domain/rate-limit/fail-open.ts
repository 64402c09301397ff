import { withinBudget } from '../time-budget.js';
import { MemoryRateLimiter, type RateDecision, type RateLimiter } from './limiter.js';

export interface FailOpenOptions {
  /** How long the shared store may take before this request counts in process. */
  budgetMs: number;
  /** After a failure, how long to count in process before asking the shared store again. */
  probeAfterMs: number;
  /** Called once when an outage starts and once when it ends, not on every request. */
  onOutage?: (err: unknown) => void;
  onRecovery?: (outageMs: number) => void;
}

export type LimiterHealth = 'ok' | 'degraded';

/** The shared store took longer than the budget (adapters tell it from a connection error). */
export class BudgetExceeded extends Error {
  constructor(ms: number) {
    super(`shared rate-limit store did not answer within ${ms} ms`);
  }
}

/**
 * A shared limiter (Redis) that fails open: when it does not answer within
 * a small budget, requests are counted in this process instead, so DNI keeps
 * answering. The cost is deliberate: during an outage the limit holds per
 * process, not across processes. The shared store is asked again every
 * `probeAfterMs`, and counting goes back to it by itself when it answers.
 */
export class FailOpenRateLimiter implements RateLimiter {
  private readonly local = new MemoryRateLimiter();
  /** Epoch ms of the first failure of the current outage; null while healthy. */
  private outageSince: number | null = null;
  private nextProbeAt = 0;
  /** Requests counted in process because the shared store was down. */
  fallbackHits = 0;
  /**
   * Requests that asked the shared store and got an error or no answer within the budget: the
   * ones an outage made wait, a few each `probeAfterMs`, where `fallbackHits` counts them all.
   */
  storeFailures = 0;

  constructor(
    private readonly shared: RateLimiter,
    private readonly o: FailOpenOptions,
  ) {}

  health(): LimiterHealth {
    return this.outageSince === null ? 'ok' : 'degraded';
  }

  async hit(key: string, limit: number, nowMs: number, windowMs = 60_000): Promise<RateDecision> {
    if (this.outageSince !== null && nowMs < this.nextProbeAt) {
      return this.fallback(key, limit, nowMs, windowMs);
    }
    try {
      const decision = await withinBudget(
        this.shared.hit(key, limit, nowMs, windowMs),
        this.o.budgetMs,
        () => {
          throw new BudgetExceeded(this.o.budgetMs);
        },
      );
      if (this.outageSince !== null) {
        const lasted = nowMs - this.outageSince;
        this.outageSince = null;
        this.o.onRecovery?.(lasted);
      }
      return decision;
    } catch (err) {
      this.storeFailures++;
      if (this.outageSince === null) {
        this.outageSince = nowMs;
        this.o.onOutage?.(err);
      }
      this.nextProbeAt = nowMs + this.o.probeAfterMs;
      return this.fallback(key, limit, nowMs, windowMs);
    }
  }

  /** The shared store has a new connection: the next request tries it. */
  probeSoon(): void {
    this.nextProbeAt = 0;
  }

  private fallback(key: string, limit: number, nowMs: number, windowMs: number) {
    this.fallbackHits++;
    return this.local.hit(key, limit, nowMs, windowMs);
  }

  async close(): Promise<void> {
    await Promise.all([this.shared.close(), this.local.close()]);
  }
}
