import { describe, expect, it } from 'vitest';
import { backoffMs, outcomeOf } from '../../../src/workers/dispatch.js';

const o = { maxAttempts: 4, backoffBaseMs: 5_000, backoffMaxMs: 30_000 };

describe('backoff', () => {
  it('doubles from the base and stops at the cap', () => {
    expect([1, 2, 3, 4, 5].map((a) => backoffMs(a, o))).toEqual([
      5_000, 10_000, 20_000, 30_000, 30_000,
    ]);
  });
});

describe('outcomeOf', () => {
  it('delivers on acceptance', () => {
    expect(outcomeOf({ outcome: 'accepted', carrierId: 'c' }, 1, false, 0, o)).toEqual({
      attempt: 'accepted',
      carrierId: 'c',
      error: null,
      next: { state: 'final', touch: 'delivered' },
    });
  });

  it('schedules a retryable failure, fails it after the last attempt', () => {
    const busy = { outcome: 'failed', retryable: true, error: 'busy' } as const;
    expect(outcomeOf(busy, 2, false, 1000, o).next).toEqual({
      state: 'pending',
      retryAtMs: 11_000,
    });
    expect(outcomeOf(busy, 4, false, 1000, o)).toMatchObject({
      attempt: 'failed',
      next: { state: 'final', touch: 'failed' },
    });
  });

  it('retries an unknown outcome only on an idempotent carrier', () => {
    const unknown = { outcome: 'unknown', error: 'timeout' } as const;
    expect(outcomeOf(unknown, 1, true, 0, o)).toMatchObject({
      attempt: 'unknown',
      next: { state: 'pending' },
    });
    expect(outcomeOf(unknown, 1, false, 0, o)).toMatchObject({
      attempt: 'unknown',
      next: { state: 'final', touch: 'unknown' },
    });
  });
});
