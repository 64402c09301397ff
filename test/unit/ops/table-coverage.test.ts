import { describe, expect, it } from 'vitest';
import { createMetrics } from '../../../src/http/metrics.js';
import { warnOnTableCoverage } from '../../../src/runtime.js';

const gauge = async (now: number) => {
  const metrics = createMetrics(
    async () => [],
    async () => [],
    () => now,
  );
  const text = await metrics.registry.getSingleMetricAsString('compliance_table_coverage_gaps');
  return Number(/compliance_table_coverage_gaps (\d+)/.exec(text)?.[1]);
};

describe('compliance table coverage at start-up', () => {
  it('stays quiet and reports 0 while the tables cover this year and the next', async () => {
    const warned: unknown[] = [];
    const now = Date.parse('2027-12-20T00:00:00Z');
    expect(warnOnTableCoverage({ warn: (o: unknown) => warned.push(o) }, now)).toEqual([]);
    expect(warned).toEqual([]);
    expect(await gauge(now)).toBe(0);
  });

  it('warns and counts the gaps in a year the holiday rules do not cover', async () => {
    const warned: unknown[] = [];
    const now = Date.parse('2019-06-01T00:00:00Z');
    const gaps = warnOnTableCoverage({ warn: (o: unknown) => warned.push(o) }, now);
    expect(gaps).toContain('AL: holiday rules start in 2021, not 2019');
    expect(warned).toEqual([{ gaps }]);
    expect(await gauge(now)).toBe(gaps.length);
  });
});
