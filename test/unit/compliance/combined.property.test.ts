import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { STATE_RULES } from '../../../src/domain/compliance/data/state-rules.js';
import { evaluateTouch, type PlacedTouch } from '../../../src/domain/compliance/index.js';
import {
  combinedCase,
  configOf,
  DEFAULT_CAPS,
  HOUR,
  MIN,
  oracleCase,
  WEEK,
} from './arbitraries.js';
import { firstOk, frequencyOk, quietOk, toOracleHistory } from './oracle.js';

describe('quiet hours and frequency together agree with the oracle', { timeout: 180_000 }, () => {
  it('evaluateTouch next_allowed_at is the first minute both pass', async () => {
    // Async with a pause per run: a long synchronous run starves vitest's worker RPC on a busy
    // machine (15 years of instants make the oracle's caches colder than 2 did).
    await fc.assert(
      fc.asyncProperty(combinedCase, async ({ touch: c, history: h, caps }) => {
        await new Promise((r) => setImmediate(r));
        const nowMinute = Math.floor(c.now / MIN) * MIN;
        const history: PlacedTouch[] = h.map((t) => ({
          at: nowMinute - t.minutesAgo * MIN,
          channel: t.channel,
        }));
        const decision = evaluateTouch(
          {
            to_e164: `+1${c.npa}5550123`,
            channel: c.channel,
            consent_basis: 'pewc',
            records: [{ tier: 'pewc', captured_at: Date.UTC(2025, 0, 1) }],
            revocations: [],
            history,
            ...(c.lead ? { lead_timezone: c.lead } : {}),
            config: configOf(c, caps),
          },
          c.now,
        );
        const oc = oracleCase(c);
        const state = oc.stateForRules;
        oc.history = toOracleHistory(history);
        oc.caps = [
          ...DEFAULT_CAPS.map((d) => ({
            scope: d.scope,
            windowMs: d.windowMs,
            max: Math.min(d.max, caps?.[d.key] ?? d.max),
          })),
          ...(state ? (STATE_RULES[state]?.frequencyCaps ?? []) : []).map((s) => ({
            scope: 'all' as const,
            windowMs: s.windowHours * HOUR,
            max: s.max,
          })),
        ];
        const expected = firstOk((ms) => quietOk(oc, ms) && frequencyOk(oc, ms), c.now, WEEK);
        expect(decision.allowed).toBe(expected === c.now);
        const engine = decision.allowed
          ? c.now
          : decision.next_allowed_at && Date.parse(decision.next_allowed_at);
        if (expected !== null) expect(engine).toBe(expected);
        else if (engine !== null) expect(engine).toBeGreaterThan(c.now + WEEK);
      }),
      { numRuns: 1500 },
    );
  });
});
