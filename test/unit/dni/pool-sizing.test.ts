import { describe, expect, it } from 'vitest';
import {
  erlangB,
  predictAccuracy,
  recommendSize,
  rulesOfThumb,
  type TrafficProfile,
} from '../../../src/domain/dni/pool-sizing.js';

const profile: TrafficProfile = {
  hourlyArrivals: [10, 60, 120, 60, 0],
  meanHoldSeconds: 34 * 60,
  callMix: { live: 0.9, grace: 0.08, late: 0.02 },
  graceLateness: [60, 300, 600, 900, 1200, 1500],
  liveCallDelaySeconds: 8 * 60,
};

describe('Erlang B', () => {
  it('matches textbook values', () => {
    const b = erlangB(1, 2);
    expect(b[1]).toBeCloseTo(0.5, 10);
    expect(b[2]).toBeCloseTo(0.2, 10);
    expect(erlangB(10, 15)[15]).toBeCloseTo(0.0365, 3);
  });
});

describe('predicted accuracy', () => {
  it('never falls as the pool grows, and reaches the target at the recommended size only', () => {
    const acc = predictAccuracy(profile, 400);
    for (let n = 2; n <= 400; n++) expect(acc[n]!).toBeGreaterThanOrEqual(acc[n - 1]! - 1e-12);
    const rec = recommendSize(profile, 0.97);
    expect(rec.size).not.toBeNull();
    expect(acc[rec.size!]!).toBeGreaterThanOrEqual(0.97);
    expect(acc[rec.size! - 1]!).toBeLessThan(0.97);
  });

  it('says when late calls put the target out of reach', () => {
    const late = { ...profile, callMix: { live: 0.5, grace: 0.1, late: 0.4 } };
    const rec = recommendSize(late, 0.99);
    expect(rec.size).toBeNull();
    expect(rec.ceiling).toBeLessThan(0.99);
  });
});

describe('rules of thumb', () => {
  it('apply each vendor formula to the same traffic', () => {
    const rules = rulesOfThumb({
      busiestDayArrivals: 2000,
      busiestHourArrivals: 120,
      meanHoldSeconds: 1800,
    });
    expect(rules.map((r) => [r.source, r.size])).toEqual([
      ['CallTrackingMetrics', 100],
      ['Nimbata', 60],
      ['Call Dynamics', 80],
      ['CallMatrix', 15],
    ]);
  });
});
