import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkQuietHours, resolveLocation } from '../../../src/domain/compliance/index.js';
import { configOf, oracleCase, touchCase, WEEK } from './arbitraries.js';
import { firstOk, quietOk } from './oracle.js';

describe('quiet hours agree with a minute-by-minute oracle', { timeout: 180_000 }, () => {
  it('next_allowed_at over thousands of numbers, instants, channels and windows', async () => {
    // Async with a pause per run: a long synchronous run starves vitest's worker RPC on a busy
    // machine (15 years of instants make the oracle's caches colder than 2 did).
    await fc.assert(
      fc.asyncProperty(touchCase, async (c) => {
        await new Promise((r) => setImmediate(r));
        const location = resolveLocation(`+1${c.npa}5550123`, c.lead);
        const check = checkQuietHours({ location, channel: c.channel, config: configOf(c) }, c.now);
        const oc = oracleCase(c);
        const expected = firstOk((ms) => quietOk(oc, ms), c.now, WEEK);
        expect(check.passed).toBe(expected === c.now);
        const engine = check.passed
          ? c.now
          : check.next_allowed_at && Date.parse(check.next_allowed_at);
        if (expected !== null) expect(engine).toBe(expected);
        else if (engine !== null) expect(engine).toBeGreaterThan(c.now + WEEK);
      }),
      { numRuns: 2500 },
    );
  });
});
