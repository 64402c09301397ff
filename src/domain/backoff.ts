/**
 * The retry schedule of the outboxes (carrier dispatch, webhooks, conversion uploads):
 * base·2^(attempt−1) up to the cap, so attempt 1 waits `baseMs`.
 */
export function exponentialBackoffMs(attempt: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
}

/**
 * Up to 20 % more than `ms`, so that receivers coming back from an outage are not hit by every
 * retry at once. The factor 2 of the schedule exceeds the jitter, so delays still grow.
 */
export function withJitter(ms: number, random: () => number = Math.random): number {
  return Math.round(ms * (1 + 0.2 * random()));
}
