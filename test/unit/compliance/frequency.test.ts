import { describe, expect, it } from 'vitest';
import {
  type Channel,
  checkFrequency,
  type FrequencyInput,
  type PlacedTouch,
} from '../../../src/domain/compliance/index.js';

const NOW = Date.parse('2026-06-10T15:00:00Z');
const H = 3_600_000;
const ago = (hours: number, channel: Channel = 'call'): PlacedTouch => ({
  at: NOW - hours * H,
  channel,
});
const iso = (ms: number) => new Date(ms).toISOString();

function frequency(history: PlacedTouch[], overrides: Partial<FrequencyInput> = {}) {
  return checkFrequency({ channel: 'call', history, ...overrides }, NOW);
}

describe('default caps', () => {
  it('allows a third touch in 24 h and blocks a fourth', () => {
    expect(frequency([ago(1), ago(2)]).passed).toBe(true);
    const check = frequency([ago(1), ago(2), ago(5)]);
    expect(check).toMatchObject({ passed: false, code: 'frequency_capped' });
    // The oldest counted touch (5 h ago) leaves the 24 h window 19 h from now.
    expect(check.next_allowed_at).toBe(iso(NOW + 19 * H));
  });

  it('reports counts against every binding cap', () => {
    const check = frequency([ago(1), ago(30)]);
    expect(check.caps).toEqual([
      { scope: 'all', window_hours: 24, max: 3, source: 'default', count: 1, passed: true },
      { scope: 'all', window_hours: 168, max: 7, source: 'default', count: 2, passed: true },
    ]);
  });

  it('caps 7 per rolling 7 days', () => {
    const week = [30, 50, 70, 90, 110, 130, 150].map((h) => ago(h));
    const check = frequency(week);
    expect(check.passed).toBe(false);
    // The oldest (150 h ago) leaves the 168 h window in 18 h.
    expect(check.next_allowed_at).toBe(iso(NOW + 18 * H));
  });

  it('allows one voicemail and two SMS per 24 h', () => {
    const vm = frequency([ago(23, 'voicemail')], { channel: 'voicemail' });
    expect(vm).toMatchObject({ passed: false, next_allowed_at: iso(NOW + H) });
    // A voicemail does not count against the SMS cap, but counts against the overall one.
    expect(frequency([ago(23, 'voicemail')], { channel: 'sms' }).passed).toBe(true);
    const sms = frequency([ago(2, 'sms'), ago(4, 'sms')], { channel: 'sms' });
    expect(sms).toMatchObject({ passed: false, next_allowed_at: iso(NOW + 20 * H) });
    expect(frequency([ago(2, 'sms'), ago(4, 'sms')], { channel: 'call' }).passed).toBe(true);
  });

  it('a touch exactly one window old no longer counts', () => {
    expect(frequency([ago(24), ago(1), ago(2)]).passed).toBe(true);
  });

  it('takes the latest time when several caps fail', () => {
    const history = [ago(1, 'sms'), ago(2, 'sms'), ago(3, 'call')];
    const check = frequency(history, { channel: 'sms' });
    // Overall cap: 3 in 24 h → oldest at 3 h leaves in 21 h; SMS cap: 2nd newest at 2 h → 22 h.
    expect(check.next_allowed_at).toBe(iso(NOW + 22 * H));
  });
});

describe('campaign and state caps', () => {
  it('a campaign may lower a cap', () => {
    const check = frequency([ago(1)], { config: { frequency_caps: { per_24h: 1 } } });
    expect(check).toMatchObject({ passed: false, next_allowed_at: iso(NOW + 23 * H) });
    expect(check.caps[0]).toMatchObject({ max: 1, source: 'campaign' });
  });

  it('a higher campaign cap is ignored', () => {
    const check = frequency([ago(1), ago(2), ago(3)], {
      config: { frequency_caps: { per_24h: 10 } },
    });
    expect(check.passed).toBe(false);
    expect(check.caps[0]).toMatchObject({ max: 3, source: 'default' });
  });

  it('a cap of zero never passes', () => {
    const check = frequency([], { channel: 'sms', config: { frequency_caps: { sms_per_24h: 0 } } });
    expect(check).toMatchObject({ passed: false, next_allowed_at: null });
  });

  it('adds state caps for marketing touches', () => {
    // Maine: 1 per 8 h (unverified vendor claim, kept as the stricter reading).
    const me = frequency([ago(2)], { state: 'ME' });
    expect(me).toMatchObject({ passed: false, next_allowed_at: iso(NOW + 6 * H) });
    expect(me.caps.at(-1)).toMatchObject({ source: 'state:ME', window_hours: 8, max: 1 });
    expect(frequency([ago(2)], { state: 'ME', config: { purpose: 'informational' } }).passed).toBe(
      true,
    );
  });
});
