import { describe, expect, it } from 'vitest';
import {
  evaluateTouch,
  type PlacedTouch,
  type TouchInput,
} from '../../../src/domain/compliance/index.js';

const H = 3_600_000;
const base: TouchInput = {
  to_e164: '+12015550100', // NJ: federal hours, America/New_York
  channel: 'call',
  consent_basis: 'pewc',
  records: [{ tier: 'pewc', captured_at: '2026-01-05T10:00:00Z' }],
  revocations: [],
  history: [],
};
const touch = (overrides: Partial<TouchInput>, iso: string) =>
  evaluateTouch({ ...base, ...overrides }, Date.parse(iso));
const placed = (iso: string, n = 1): PlacedTouch[] =>
  Array.from({ length: n }, (_, i) => ({ at: Date.parse(iso) - i * H, channel: 'call' }));

describe('evaluateTouch', () => {
  it('allows a compliant touch with every check reported', () => {
    const decision = touch({}, '2026-06-10T15:00:00Z');
    expect(decision).toMatchObject({ allowed: true, reasons: [], next_allowed_at: null });
    expect(Object.keys(decision.checks)).toEqual([
      'consent',
      'quiet_hours',
      'frequency',
      'suppression',
      'reassigned',
    ]);
    expect(decision.evaluated_at).toBe('2026-06-10T15:00:00.000Z');
  });

  it('reports every failing check in order consent, quiet hours, frequency', () => {
    const decision = touch(
      { records: [], history: placed('2026-06-10T02:00:00Z', 3) },
      '2026-06-10T03:00:00Z',
    );
    expect(decision.reasons.map((r) => r.code)).toEqual([
      'consent_missing',
      'quiet_hours',
      'frequency_capped',
    ]);
    for (const r of decision.reasons) expect(r.message).toMatch(/^[A-Z].*\.$/);
    // Consent has no knowable time.
    expect(decision.next_allowed_at).toBeNull();
  });

  it('next_allowed_at for quiet hours alone', () => {
    expect(touch({}, '2026-06-10T03:00:00Z').next_allowed_at).toBe('2026-06-10T12:00:00.000Z');
  });

  it('next_allowed_at for frequency alone, when the window is open then', () => {
    // Three touches 10:00-12:00Z; the oldest leaves at 10:00Z next day, inside 08:00-21:00 EDT.
    const decision = touch({ history: placed('2026-06-10T12:00:00Z', 3) }, '2026-06-10T15:00:00Z');
    expect(decision.reasons.map((r) => r.code)).toEqual(['frequency_capped']);
    expect(decision.next_allowed_at).toBe('2026-06-11T12:00:00.000Z');
    expect(decision.checks.frequency.next_allowed_at).toBe('2026-06-11T10:00:00.000Z');
  });

  it('frequency alone, freed at night: waits for the window to open', () => {
    const decision = touch({ history: placed('2026-06-10T23:30:00Z', 3) }, '2026-06-11T00:00:00Z');
    expect(decision.reasons.map((r) => r.code)).toEqual(['frequency_capped']);
    // Frees at 2026-06-11T21:30Z = 17:30 EDT: inside the window.
    expect(decision.next_allowed_at).toBe('2026-06-11T21:30:00.000Z');
    const late = touch({ history: placed('2026-06-11T03:30:00Z', 3) }, '2026-06-11T03:45:00Z');
    // Frees at 2026-06-12T01:30Z = 21:30 EDT: closed until 08:00 EDT.
    expect(late.next_allowed_at).toBe('2026-06-12T12:00:00.000Z');
  });

  it('both failing: the first quiet-hours opening after frequency frees', () => {
    // 23:00 EDT; the cap frees at 2026-06-11T14:00Z (10:00 EDT), after the 08:00 opening.
    const decision = touch({ history: placed('2026-06-10T16:00:00Z', 3) }, '2026-06-11T03:00:00Z');
    expect(decision.reasons.map((r) => r.code)).toEqual(['quiet_hours', 'frequency_capped']);
    expect(decision.checks.quiet_hours.next_allowed_at).toBe('2026-06-11T12:00:00.000Z');
    expect(decision.next_allowed_at).toBe('2026-06-11T14:00:00.000Z');
  });

  it('location_unresolved has no knowable time', () => {
    const decision = touch({ to_e164: '+447700900123' }, '2026-06-10T15:00:00Z');
    expect(decision.reasons.map((r) => r.code)).toEqual(['location_unresolved']);
    expect(decision.reasons[0]?.message).toBe(
      "The contact's time zone cannot be resolved from the number and lead_timezone.",
    );
    expect(decision.next_allowed_at).toBeNull();
  });

  it('applies the merged campaign config to every check', () => {
    const decision = touch(
      {
        channel: 'sms',
        config: { allowed_channels: ['call'], calling_window: { start: '10:00', end: '16:00' } },
      },
      '2026-06-10T13:30:00Z',
    );
    expect(decision.reasons.map((r) => r.code)).toEqual(['channel_not_allowed', 'quiet_hours']);
    expect(decision.next_allowed_at).toBeNull();
  });

  it('rejects an invalid lead_timezone as a programming error', () => {
    expect(() => touch({ lead_timezone: 'Mars/Olympus' }, '2026-06-10T15:00:00Z')).toThrow(
      RangeError,
    );
  });

  it('accepts Date, epoch-ms and ISO instants alike in the history', () => {
    const at = Date.parse('2026-06-10T14:00:00Z');
    const history: PlacedTouch[] = [
      { at, channel: 'call' },
      { at: new Date(at - H), channel: 'call' },
      { at: '2026-06-10T10:00:00-02:00', channel: 'call' },
    ];
    expect(touch({ history }, '2026-06-10T15:00:00Z').checks.frequency.caps[0]?.count).toBe(3);
    const bad: PlacedTouch[] = [{ at: '2026-06-10 10:00', channel: 'call' }];
    expect(() => touch({ history: bad }, '2026-06-10T15:00:00Z')).toThrow(RangeError);
  });
});
