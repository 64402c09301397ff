import { describe, expect, it } from 'vitest';
import {
  type CampaignComplianceConfig,
  type Channel,
  checkConsent,
  checkQuietHours,
  evaluateTouch,
  resolveLocation,
} from '../../../src/domain/compliance/index.js';

function quiet(
  e164: string,
  iso: string,
  opts: { channel?: Channel; config?: CampaignComplianceConfig } = {},
) {
  return checkQuietHours(
    {
      location: resolveLocation(e164),
      channel: opts.channel ?? 'sms',
      ...(opts.config ? { config: opts.config } : {}),
    },
    Date.parse(iso),
  );
}

const TORONTO = '+14165550123';
const WIDE: CampaignComplianceConfig = { calling_window: { start: '00:00', end: '24:00' } };

describe("Canada's telemarketing hours", () => {
  it('a Toronto number at 19:30 on a Saturday is blocked until 10:00 on Sunday local', () => {
    // 2026-06-13 is a Saturday; Toronto is on EDT (UTC-4).
    const q = quiet(TORONTO, '2026-06-13T23:30:00Z');
    expect(q).toMatchObject({ passed: false, code: 'quiet_hours' });
    expect(q.next_allowed_at).toBe('2026-06-14T14:00:00.000Z');
    expect(q.rules).toContain('country:CA');
    expect(q.local[0]?.window).toEqual({ start: '10:00', end: '18:00' });
  });

  it('on a weekday nothing before 09:00 or after 21:30, whatever the purpose or campaign window', () => {
    // 2026-06-10 is a Wednesday.
    for (const config of [undefined, { purpose: 'informational' as const }, WIDE]) {
      const opts = config ? { config } : {};
      expect(quiet(TORONTO, '2026-06-10T12:59:00Z', opts).passed).toBe(false); // 08:59
      expect(quiet(TORONTO, '2026-06-10T12:59:00Z', opts).next_allowed_at).toBe(
        '2026-06-10T13:00:00.000Z',
      );
      expect(quiet(TORONTO, '2026-06-10T13:00:00Z', opts).passed).toBe(true); // 09:00
      expect(quiet(TORONTO, '2026-06-11T00:59:00Z', opts).passed).toBe(true); // 20:59
      // 21:00-21:30 is inside Canada's hours but outside the US federal window, which stays.
      expect(quiet(TORONTO, '2026-06-11T01:15:00Z', opts).passed).toBe(false); // 21:15
      expect(quiet(TORONTO, '2026-06-11T01:45:00Z', opts).passed).toBe(false); // 21:45
    }
  });

  it('weekends close at 18:00 and open at 10:00; Sunday is not closed', () => {
    expect(quiet(TORONTO, '2026-06-14T13:59:00Z').passed).toBe(false); // Sun 09:59
    expect(quiet(TORONTO, '2026-06-14T14:00:00Z').passed).toBe(true); // Sun 10:00
    expect(quiet(TORONTO, '2026-06-14T21:59:00Z').passed).toBe(true); // Sun 17:59
    expect(quiet(TORONTO, '2026-06-14T22:00:00Z').next_allowed_at).toBe(
      '2026-06-15T13:00:00.000Z', // Mon 09:00
    );
  });

  it('a Newfoundland and Labrador number takes the stricter of its candidate zones', () => {
    const loc = resolveLocation('+17095550123');
    expect(loc.zones).toEqual(['America/St_Johns', 'America/Halifax', 'America/Blanc-Sablon']);
    // Wednesday 2026-06-10 12:45 UTC: 10:15 in St. John's, 09:45 in Halifax, 08:45 at
    // Blanc-Sablon (Atlantic time without daylight saving): not yet 09:00 everywhere.
    const q = quiet('+17095550123', '2026-06-10T12:45:00Z');
    expect(q.passed).toBe(false);
    expect(q.next_allowed_at).toBe('2026-06-10T13:00:00.000Z');
    // The evening closes with St. John's, the earliest: 21:00 NDT is 23:30 UTC.
    expect(quiet('+17095550123', '2026-06-10T23:29:00Z').passed).toBe(true);
    expect(quiet('+17095550123', '2026-06-10T23:30:00Z').passed).toBe(false);
  });

  it('a Caribbean number keeps the federal window only', () => {
    // Jamaica (876), Saturday 19:30 local (UTC-5): inside 08:00-21:00.
    expect(quiet('+18765550123', '2026-06-14T00:30:00Z').passed).toBe(true);
  });
});

describe("Virginia's ten years", () => {
  const STOP_AT = '2026-03-02T15:00:00Z';
  const base = {
    channel: 'sms' as const,
    asserted: 'pewc' as const,
    revocations: [{ kind: 'opt_out' as const, at: STOP_AT }],
  };
  const nextDay = { id: 'g2', tier: 'pewc' as const, captured_at: '2026-03-03T15:00:00Z' };

  it('a revocation holds against a new grant for ten years, then the grant stands', () => {
    const during = checkConsent(
      { ...base, records: [nextDay], revocationYears: 10 },
      Date.parse('2036-03-01T15:00:00Z'),
    );
    expect(during.code).toBe('consent_revoked');
    const after = checkConsent(
      { ...base, records: [nextDay], revocationYears: 10 },
      Date.parse('2036-03-02T15:00:00Z'),
    );
    expect(after.passed).toBe(true);
    // Elsewhere the new grant stands at once.
    expect(
      checkConsent({ ...base, records: [nextDay] }, Date.parse('2026-03-04T15:00:00Z')).passed,
    ).toBe(true);
  });

  it('applies to Virginia numbers (by area code) through evaluateTouch, not to New York ones', () => {
    const touch = (to: string, iso: string) =>
      evaluateTouch(
        {
          to_e164: to,
          channel: 'sms',
          consent_basis: 'pewc',
          records: [nextDay],
          revocations: base.revocations,
          history: [],
          config: { dnc_scrub: false },
        },
        Date.parse(iso),
      );
    expect(touch('+17035550123', '2026-03-04T15:00:00Z').reasons[0]?.code).toBe('consent_revoked');
    expect(touch('+12125550123', '2026-03-04T15:00:00Z').allowed).toBe(true);
    expect(touch('+17035550123', '2036-03-04T15:00:00Z').allowed).toBe(true);
  });
});
