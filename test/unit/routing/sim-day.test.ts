import { describe, expect, it } from 'vitest';
import { exampleDay, simulateRoutingDay } from '../../../sim/routing.js';

describe('the routing simulator (npm run simulate -- --routing)', () => {
  const start = Date.parse('2026-03-09T04:00:00Z'); // a Monday, midnight in New York

  it('every call is answered by one buyer or goes to the fallback, once', () => {
    const day = exampleDay(start, 1500, 7);
    const r = simulateRoutingDay(day);
    const answered = [...r.byBuyer.values()].reduce((n, t) => n + t.answered, 0);
    const fb = r.fallback;
    expect(answered).toBe(r.answered);
    expect(answered + fb.no_target + fb.no_more_targets + fb.max_offers).toBe(1500);
  });

  it('no cap is exceeded: the capped buyer answers at most its daily cap', () => {
    const day = exampleDay(start, 4000, 3);
    const r = simulateRoutingDay(day);
    expect(r.byBuyer.get('capped')!.answered).toBe(150);
    // Closed buyers and the state list are honoured: passed over for those reasons.
    expect(r.passedOver.get('east')!.get('closed')).toBeGreaterThan(0);
    expect(r.passedOver.get('west')!.get('caller state')).toBeGreaterThan(0);
  });

  it('the same seed gives the same day', () => {
    const a = simulateRoutingDay(exampleDay(start, 800, 5));
    const b = simulateRoutingDay(exampleDay(start, 800, 5));
    expect([...a.byBuyer]).toEqual([...b.byBuyer]);
    expect(a.fallback).toEqual(b.fallback);
  });
});
