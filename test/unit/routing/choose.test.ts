import { describe, expect, it } from 'vitest';
import { billing, drawOrder, eligibleTargets } from '../../../src/domain/routing/choose.js';
import { isOpen, scheduleProblems } from '../../../src/domain/routing/schedule.js';
import type { Candidate } from '../../../src/domain/routing/types.js';
import { seeded } from '../../helpers/routing.js';

const target = (buyerId: string, o: Partial<Candidate> = {}): Candidate => ({
  buyerId,
  priority: 1,
  weight: 1,
  forwardTo: '+13125550100',
  timeZone: 'America/Chicago',
  schedule: null,
  states: null,
  status: 'active',
  ...o,
});

describe('the weighted draw', () => {
  it('splits 2,000 draws within 3 points of the weights (5:3:2)', () => {
    const random = seeded(2026);
    const pool = [
      target('a', { weight: 50 }),
      target('b', { weight: 30 }),
      target('c', { weight: 20 }),
    ];
    const counts: Record<string, number> = { a: 0, b: 0, c: 0 };
    for (let i = 0; i < 2000; i++) counts[drawOrder(pool, random)[0]!.buyerId]!++;
    expect(Math.abs(counts.a! / 2000 - 0.5)).toBeLessThan(0.03);
    expect(Math.abs(counts.b! / 2000 - 0.3)).toBeLessThan(0.03);
    expect(Math.abs(counts.c! / 2000 - 0.2)).toBeLessThan(0.03);
  });

  it('the first of the order that a subset keeps is drawn from the subset by weight', () => {
    // What routing relies on when the drawn buyer is at its cap: skipping it and taking the
    // next of the order is a weighted draw among the buyers left (here b and c, 3:2).
    const random = seeded(7);
    const pool = [
      target('a', { weight: 50 }),
      target('b', { weight: 30 }),
      target('c', { weight: 20 }),
    ];
    let b = 0;
    for (let i = 0; i < 2000; i++) {
      if (drawOrder(pool, random).find((t) => t.buyerId !== 'a')!.buyerId === 'b') b++;
    }
    expect(Math.abs(b / 2000 - 0.6)).toBeLessThan(0.03);
  });

  it('puts every target of a lower priority first, whatever the weights', () => {
    const random = seeded(1);
    const pool = [
      target('late', { priority: 2, weight: 100 }),
      target('x', { priority: 1 }),
      target('y', { priority: 1 }),
    ];
    for (let i = 0; i < 50; i++) {
      expect(drawOrder(pool, random).map((t) => t.priority)).toEqual([1, 1, 2]);
    }
  });
});

describe('eligible targets', () => {
  const at = Date.parse('2026-03-02T15:00:00Z'); // Monday, 09:00 in Chicago
  const base = { callerState: 'NY', nowMs: at, offered: new Set<string>() };

  it('drops paused, closed, other-state and already offered buyers', () => {
    const pool = [
      target('ok'),
      target('paused', { status: 'paused' }),
      target('closed', { schedule: { mon: [['09:01', '17:00']] } }),
      target('open', { schedule: { mon: [['09:00', '09:01']] } }),
      target('ca', { states: ['CA'] }),
      target('ny', { states: ['NJ', 'NY'] }),
      target('offered'),
    ];
    const ids = eligibleTargets(pool, { ...base, offered: new Set(['offered']) }).map(
      (t) => t.buyerId,
    );
    expect(ids).toEqual(['ok', 'open', 'ny']);
  });

  it('a caller of unknown state goes only to buyers without states', () => {
    const pool = [target('any'), target('ny', { states: ['NY'] })];
    expect(eligibleTargets(pool, { ...base, callerState: null }).map((t) => t.buyerId)).toEqual([
      'any',
    ]);
  });
});

describe('schedules', () => {
  it("reads the buyer's own zone, across daylight saving", () => {
    const s = { sun: [['01:00', '02:00'] as const], mon: [['00:00', '24:00'] as const] };
    // Sunday 8 March 2026: New York goes from 02:00 EST to 03:00 EDT.
    expect(isOpen(s, 'America/New_York', Date.parse('2026-03-08T06:30:00Z'))).toBe(true);
    expect(isOpen(s, 'America/New_York', Date.parse('2026-03-08T07:30:00Z'))).toBe(false);
    // Monday, any time: 24:00 closes the day at midnight, the next day is closed.
    expect(isOpen(s, 'America/New_York', Date.parse('2026-03-10T03:59:00Z'))).toBe(true);
    expect(isOpen(s, 'America/New_York', Date.parse('2026-03-10T04:00:00Z'))).toBe(false);
    expect(isOpen(null, 'UTC', 0)).toBe(true);
    expect(isOpen({}, 'UTC', 0)).toBe(false);
  });

  it('a span must end after it starts', () => {
    expect(scheduleProblems({ mon: [['09:00', '17:00']], sat: [['00:00', '24:00']] })).toEqual([]);
    expect(
      scheduleProblems({
        tue: [
          ['09:00', '17:00'],
          ['18:00', '18:00'],
        ],
      }),
    ).toEqual([{ loc: ['tue', 1], msg: 'must end after it starts' }]);
    expect(scheduleProblems({ wed: [['24:00', '24:00']] })[0]?.loc).toEqual(['wed', 0, 0]);
  });
});

describe('billing', () => {
  const payout = { amount: '25.00', min_duration_seconds: 90, duplicate_window_days: 30 };
  it('billable at the minimum duration, not below; not when a duplicate', () => {
    expect(billing(payout, 90, false)).toEqual({ billable: true, payout: '25.00' });
    expect(billing(payout, 89, false)).toEqual({ billable: false, payout: '0.00' });
    expect(billing(payout, 300, true)).toEqual({ billable: false, payout: '0.00' });
  });
});

describe("Twilio's DialCallStatus", () => {
  it('maps to the offer outcomes; anything unknown is a failure', async () => {
    const { outcomeOf } = await import('../../../src/domain/routing/route-call.js');
    expect(
      ['completed', 'answered', 'busy', 'no-answer', 'failed', 'canceled', 'ringing'].map(
        outcomeOf,
      ),
    ).toEqual(['answered', 'answered', 'busy', 'no_answer', 'failed', 'canceled', 'failed']);
  });
});

describe("the caller's state", () => {
  it('is read from the area code as the outbound gate reads it', async () => {
    const { callerState } = await import('../../../src/domain/routing/states.js');
    expect(callerState('+12125550142')).toBe('NY');
    expect(callerState('+17875550100')).toBe('PR');
    expect(callerState('+18005550100')).toBeNull();
    expect(callerState('+442071234567')).toBeNull();
  });
});
