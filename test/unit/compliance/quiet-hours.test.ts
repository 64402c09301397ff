import { describe, expect, it } from 'vitest';
import {
  type CampaignComplianceConfig,
  type Channel,
  checkQuietHours,
  resolveLocation,
} from '../../../src/domain/compliance/index.js';

function quiet(
  e164: string,
  iso: string,
  opts: { channel?: Channel; lead?: string; config?: CampaignComplianceConfig } = {},
) {
  const location = resolveLocation(e164, opts.lead);
  return checkQuietHours(
    { location, channel: opts.channel ?? 'call', ...(opts.config ? { config: opts.config } : {}) },
    Date.parse(iso),
  );
}

const INFORMATIONAL: CampaignComplianceConfig = { purpose: 'informational' };

describe('federal window', () => {
  it('opens at 08:00 and closes at 21:00 local', () => {
    // NJ (201) follows the federal window; 2026-06-10 is a Wednesday, EDT = UTC-4.
    expect(quiet('+12015550100', '2026-06-10T11:59:59.999Z')).toMatchObject({
      passed: false,
      code: 'quiet_hours',
      next_allowed_at: '2026-06-10T12:00:00.000Z',
    });
    expect(quiet('+12015550100', '2026-06-10T12:00:00Z').passed).toBe(true);
    expect(quiet('+12015550100', '2026-06-11T00:59:00Z').passed).toBe(true);
    expect(quiet('+12015550100', '2026-06-11T01:00:00Z').next_allowed_at).toBe(
      '2026-06-11T12:00:00.000Z',
    );
  });

  it('is the only rule for informational touches', () => {
    // FL marketing closes at 20:00; informational runs to 21:00.
    expect(quiet('+13055550100', '2026-06-10T00:30:00Z').passed).toBe(false);
    expect(quiet('+13055550100', '2026-06-10T00:30:00Z', { config: INFORMATIONAL })).toMatchObject({
      passed: true,
      rules: ['federal'],
    });
  });

  it('reports local times and the window per zone', () => {
    const check = quiet('+13055550100', '2026-06-10T00:30:00Z');
    expect(check.local).toEqual([
      {
        zone: 'America/New_York',
        local_time: '2026-06-09T20:30',
        weekday: 'tue',
        holiday: null,
        window: { start: '08:00', end: '20:00' },
        inside: false,
      },
    ]);
    expect(check.rules).toEqual(['federal', 'state:FL']);
    expect(check.state).toBe('FL');
  });
});

describe('DST transitions', () => {
  it('spring-forward: the night before opens at 08:00 EDT', () => {
    // 2026-03-08 02:00 EST → 03:00 EDT. 01:30 EST = 06:30Z; 08:00 EDT = 12:00Z.
    expect(quiet('+12015550100', '2026-03-08T06:30:00Z').next_allowed_at).toBe(
      '2026-03-08T12:00:00.000Z',
    );
    expect(quiet('+12015550100', '2026-03-08T11:59:00Z').passed).toBe(false);
  });

  it('fall-back: the night before opens at 08:00 EST', () => {
    // 2026-11-01 02:00 EDT → 01:00 EST. 01:30 EDT = 05:30Z; 08:00 EST = 13:00Z.
    expect(quiet('+12015550100', '2026-11-01T05:30:00Z').next_allowed_at).toBe(
      '2026-11-01T13:00:00.000Z',
    );
    expect(quiet('+12015550100', '2026-11-01T12:30:00Z').passed).toBe(false);
  });

  it('closes at 21:00 local on the days clocks change', () => {
    // 2027-03-14 is a spring-forward Sunday: 21:00 EDT = 01:00Z next day.
    expect(quiet('+12015550100', '2027-03-15T00:59:00Z').passed).toBe(true);
    expect(quiet('+12015550100', '2027-03-15T01:00:00Z').passed).toBe(false);
    // 2027-11-07 fall-back Sunday: 21:00 EST = 02:00Z next day.
    expect(quiet('+12015550100', '2027-11-08T01:59:00Z').passed).toBe(true);
  });

  it('uses the standard-time reading of Mississippi in summer', () => {
    // "8am-8pm CST" is 9am-8pm CDT under daylight saving time.
    expect(quiet('+16015550100', '2026-07-13T13:30:00Z')).toMatchObject({
      passed: false,
      next_allowed_at: '2026-07-13T14:00:00.000Z',
    });
    expect(quiet('+16015550100', '2026-01-12T14:30:00Z').passed).toBe(true); // 08:30 CST
  });
});

describe('split area codes use the intersection of their zones', () => {
  it('850 (FL, Central + Eastern) waits for 08:00 Central', () => {
    // 2026-06-10 12:30Z: 08:30 EDT but 07:30 CDT.
    expect(quiet('+18505550100', '2026-06-10T12:30:00Z')).toMatchObject({
      passed: false,
      zones: ['America/Chicago', 'America/New_York'],
      next_allowed_at: '2026-06-10T13:00:00.000Z',
    });
    // FL closes at 20:00: 20:00 EDT = 00:00Z, while Central is still 19:00.
    expect(quiet('+18505550100', '2026-06-11T00:00:00Z').next_allowed_at).toBe(
      '2026-06-11T13:00:00.000Z',
    );
  });

  it('208 (ID, Mountain + Pacific) runs 08:00 Pacific to 21:00 Mountain', () => {
    expect(quiet('+12085550100', '2026-06-10T14:30:00Z').next_allowed_at).toBe(
      '2026-06-10T15:00:00.000Z',
    );
    expect(quiet('+12085550100', '2026-06-11T02:59:00Z').passed).toBe(true);
    expect(quiet('+12085550100', '2026-06-11T03:00:00Z').passed).toBe(false);
  });

  it('605 (SD, Central + Mountain) runs 08:00 Mountain to 21:00 Central', () => {
    expect(quiet('+16055550100', '2026-06-10T13:30:00Z').next_allowed_at).toBe(
      '2026-06-10T14:00:00.000Z',
    );
    expect(quiet('+16055550100', '2026-06-11T01:59:00Z').passed).toBe(true);
    expect(quiet('+16055550100', '2026-06-11T02:00:00Z').next_allowed_at).toBe(
      '2026-06-11T14:00:00.000Z',
    );
  });
});

describe('Sunday and holiday bans', () => {
  it('Alabama: no Sunday touches', () => {
    // Sunday 2026-06-14, 10:00 CDT → Monday 08:00 CDT.
    expect(quiet('+12055550100', '2026-06-14T15:00:00Z')).toMatchObject({
      passed: false,
      next_allowed_at: '2026-06-15T13:00:00.000Z',
    });
  });

  it('Rhode Island: Saturday 10-17, no Sunday, no Labor Day', () => {
    // Saturday 2026-09-05 17:30 EDT; Sunday closed; Monday 09-07 is Labor Day.
    const check = quiet('+14015550100', '2026-09-05T21:30:00Z');
    expect(check.next_allowed_at).toBe('2026-09-08T13:00:00.000Z');
    expect(quiet('+14015550100', '2026-09-07T15:00:00Z').local[0]?.holiday).toBe('Labor Day');
  });

  it('Pennsylvania: no touches on Thanksgiving, Sunday from 13:30', () => {
    expect(quiet('+12155550100', '2026-11-26T15:00:00Z')).toMatchObject({
      passed: false,
      next_allowed_at: '2026-11-27T13:00:00.000Z',
    });
    expect(quiet('+12155550100', '2026-11-29T17:00:00Z').next_allowed_at).toBe(
      '2026-11-29T18:30:00.000Z',
    );
  });

  it('Utah: Pioneer Day', () => {
    expect(quiet('+18015550100', '2026-07-24T18:00:00Z').next_allowed_at).toBe(
      '2026-07-25T14:00:00.000Z',
    );
  });

  it('Texas: Sunday from noon', () => {
    expect(quiet('+12145550100', '2026-06-07T15:00:00Z').next_allowed_at).toBe(
      '2026-06-07T17:00:00.000Z',
    );
  });

  it('computes holidays in years the curated lists never covered', () => {
    // 2028-01-04 is a Tuesday, 11:00 EST in Rhode Island: no holiday, inside 09:00-18:00.
    expect(quiet('+14012345678', '2028-01-04T16:00:30Z')).toMatchObject({
      passed: true,
      state: 'RI',
    });
    expect(quiet('+12055550100', '2028-01-04T16:00:00Z').local[0]?.holiday).toBeNull();
    // Christmas 2027 is a Saturday: observed Friday 24 December, and the Sunday is closed, so AL
    // reopens Monday 27 December 08:00 CST.
    expect(quiet('+12055550100', '2027-12-24T16:00:00Z')).toMatchObject({
      passed: false,
      next_allowed_at: '2027-12-27T14:00:00.000Z',
    });
    // 2031-12-26 (Friday) is no holiday, 2032-01-01 (Thursday) is: Pennsylvania on New Year's Day.
    expect(quiet('+12155550100', '2032-01-01T15:00:00Z').next_allowed_at).toBe(
      '2032-01-02T13:00:00.000Z',
    );
  });

  it('Omaha (402) is Central only: 08:00 CST, not 08:00 MST', () => {
    // Sunday 2026-01-18 06:38:30 CST: a marketing call opens at 08:00 CST = 14:00Z.
    expect(quiet('+14022345678', '2026-01-18T12:38:30Z')).toMatchObject({
      passed: false,
      code: 'quiet_hours',
      zones: ['America/Chicago'],
      next_allowed_at: '2026-01-18T14:00:00.000Z',
    });
    expect(quiet('+14022345678', '2026-01-18T14:00:00Z').passed).toBe(true);
  });

  it('Michigan overlays 947 and 679 are Eastern only', () => {
    // Michigan opens marketing at 09:00: with a Central zone too, 09:00 EDT would still be closed.
    for (const e164 of ['+19472345678', '+16792345678']) {
      expect(quiet(e164, '2026-06-10T12:30:00Z').passed, e164).toBe(false);
      expect(quiet(e164, '2026-06-10T13:00:00Z').passed, e164).toBe(true);
    }
  });

  it('new overlays resolve instead of location_unresolved', () => {
    for (const e164 of ['+14362345678', '+16242345678', '+18612345678']) {
      expect(quiet(e164, '2026-06-10T18:00:00Z'), e164).toMatchObject({ passed: true });
    }
  });

  it('bans do not bind informational touches', () => {
    expect(quiet('+12055550100', '2026-06-14T15:00:00Z', { config: INFORMATIONAL }).passed).toBe(
      true,
    );
  });
});

describe('channel-specific state rules', () => {
  it('Oklahoma: prerecorded voicemail from 09:00', () => {
    expect(quiet('+14055550100', '2026-06-10T13:30:00Z').passed).toBe(true);
    expect(
      quiet('+14055550100', '2026-06-10T13:30:00Z', { channel: 'voicemail' }).next_allowed_at,
    ).toBe('2026-06-10T14:00:00.000Z');
  });

  it('Nebraska: prerecorded messages on Sundays only 13:00-21:00', () => {
    // 402 is Central only: 13:00 CDT = 18:00Z.
    expect(quiet('+14025550100', '2026-06-14T17:30:00Z').passed).toBe(true);
    expect(
      quiet('+14025550100', '2026-06-14T17:30:00Z', { channel: 'voicemail' }).next_allowed_at,
    ).toBe('2026-06-14T18:00:00.000Z');
    // 308 spans Central and Mountain: 13:00 MDT = 19:00Z.
    expect(
      quiet('+13085550100', '2026-06-14T18:30:00Z', { channel: 'voicemail' }).next_allowed_at,
    ).toBe('2026-06-14T19:00:00.000Z');
  });
});

describe('lead_timezone and non-NANP numbers', () => {
  it('adds a zone, never replaces one', () => {
    const check = quiet('+12125550100', '2026-06-10T12:30:00Z', { lead: 'America/Los_Angeles' });
    expect(check.zones).toEqual(['America/New_York', 'America/Los_Angeles']);
    expect(check.next_allowed_at).toBe('2026-06-10T15:00:00.000Z');
  });

  it('does not add an alias of a zone already there', () => {
    expect(quiet('+12125550100', '2026-06-10T12:30:00Z', { lead: 'US/Eastern' }).zones).toEqual([
      'America/New_York',
    ]);
  });

  it('checks a non-NANP number against the federal window in lead_timezone', () => {
    const check = quiet('+447700900123', '2026-06-10T06:30:00Z', { lead: 'Europe/London' });
    expect(check).toMatchObject({ passed: false, zones: ['Europe/London'], state: null });
    expect(check.next_allowed_at).toBe('2026-06-10T07:00:00.000Z');
  });

  it('blocks a non-NANP number without lead_timezone', () => {
    expect(quiet('+447700900123', '2026-06-10T12:00:00Z')).toMatchObject({
      passed: false,
      code: 'location_unresolved',
      next_allowed_at: null,
    });
  });

  it('blocks toll-free numbers even with lead_timezone', () => {
    const check = quiet('+18005550100', '2026-06-10T16:00:00Z', { lead: 'America/New_York' });
    expect(check.code).toBe('location_unresolved');
  });

  it('covers the territories', () => {
    // Puerto Rico: AST all year, UTC-4.
    expect(quiet('+17875550100', '2026-01-12T11:59:00Z').next_allowed_at).toBe(
      '2026-01-12T12:00:00.000Z',
    );
    expect(quiet('+16715550100', '2026-01-12T00:00:00Z').passed).toBe(true); // 10:00 ChST
  });
});

describe('campaign window', () => {
  const officeHours: CampaignComplianceConfig = {
    calling_window: { start: '09:00', end: '17:00', days: ['mon', 'tue', 'wed', 'thu', 'fri'] },
  };

  it('narrows the window and its days', () => {
    // Friday 2026-06-12 17:30 EDT → Monday 09:00 EDT.
    const check = quiet('+12015550100', '2026-06-12T21:30:00Z', { config: officeHours });
    expect(check.rules).toEqual(['federal', 'state:NJ', 'campaign']);
    expect(check.next_allowed_at).toBe('2026-06-15T13:00:00.000Z');
  });

  it('never widens the legal window', () => {
    const wide: CampaignComplianceConfig = { calling_window: { start: '06:00', end: '23:00' } };
    expect(quiet('+12015550100', '2026-06-10T11:00:00Z', { config: wide }).passed).toBe(false);
    expect(quiet('+12015550100', '2026-06-11T02:00:00Z', { config: wide }).passed).toBe(false);
  });

  it('reports no next time when the campaign and state windows never meet', () => {
    const sundays: CampaignComplianceConfig = {
      calling_window: { start: '09:00', end: '17:00', days: ['sun'] },
    };
    expect(quiet('+12055550100', '2026-06-10T15:00:00Z', { config: sundays })).toMatchObject({
      passed: false,
      next_allowed_at: null,
    });
  });
});
