import { describe, expect, it } from 'vitest';
import {
  type CampaignComplianceConfig,
  mergeConfig,
  validateConfig,
} from '../../../src/domain/compliance/index.js';

type Config = CampaignComplianceConfig & { caller_id?: string; template_id?: string };

describe('mergeConfig', () => {
  const base: Config & { variants: Record<string, Partial<Config>> } = {
    purpose: 'marketing',
    allowed_channels: ['call', 'sms'],
    calling_window: { start: '09:00', end: '18:00', days: ['mon', 'tue', 'wed', 'thu', 'fri'] },
    frequency_caps: { per_24h: 2, sms_per_24h: 1 },
    required_tier: { call: 'pewc' },
    caller_id: '+12015550100',
    variants: { a: { caller_id: '+12015550199' } },
  };

  it('returns the base without variants when no variant is selected', () => {
    const { variants: _v, ...rest } = base;
    expect(mergeConfig(base)).toEqual(rest);
  });

  it('lets a variant override keys the engine does not govern', () => {
    expect(mergeConfig(base, { caller_id: '+12015550199' }).caller_id).toBe('+12015550199');
  });

  it('only narrows the compliance keys', () => {
    const merged = mergeConfig(base, {
      purpose: 'informational',
      allowed_channels: ['sms', 'voicemail'],
      calling_window: { start: '08:00', end: '17:00', days: ['fri', 'sat'] },
      frequency_caps: { per_24h: 5, per_7d: 4 },
      required_tier: { call: 'pec', sms: 'pewc' },
    });
    expect(merged).toMatchObject({
      purpose: 'marketing',
      allowed_channels: ['sms'],
      calling_window: { start: '09:00', end: '17:00', days: ['fri'] },
      frequency_caps: { per_24h: 2, per_7d: 4, sms_per_24h: 1 },
      required_tier: { call: 'pewc', sms: 'pewc' },
    });
  });

  it('lets a variant turn an informational campaign into marketing, not the reverse', () => {
    const informational: CampaignComplianceConfig = { purpose: 'informational' };
    const none: CampaignComplianceConfig = {};
    expect(mergeConfig(informational, { purpose: 'marketing' }).purpose).toBe('marketing');
    expect(mergeConfig(none, { purpose: 'informational' }).purpose).toBe('marketing');
  });

  it('takes a variant window when the base has none', () => {
    const window = { start: '10:00', end: '12:00' };
    const none: CampaignComplianceConfig = {};
    expect(mergeConfig(none, { calling_window: window }).calling_window).toEqual(window);
  });
});

describe('validateConfig', () => {
  it('accepts a well-formed config', () => {
    expect(
      validateConfig({
        purpose: 'informational',
        allowed_channels: ['sms'],
        calling_window: { start: '09:00', end: '17:30', days: ['mon'] },
        frequency_caps: { per_24h: 0 },
        required_tier: { sms: 'pewc' },
      }),
    ).toEqual([]);
  });

  it('names each problem', () => {
    const problems = validateConfig({
      purpose: 'sales',
      allowed_channels: ['fax'],
      calling_window: { start: '18:00', end: '09:00', days: ['funday'] },
      frequency_caps: { per_24h: -1, per_7d: 1.5 },
      required_tier: { call: 'none' },
    } as unknown as CampaignComplianceConfig);
    expect(problems).toEqual([
      'purpose must be "marketing" or "informational"',
      'allowed_channels: unknown channel fax',
      'calling_window: start must precede end',
      'calling_window.days: unknown day funday',
      'frequency_caps.per_24h must be a non-negative integer',
      'frequency_caps.per_7d must be a non-negative integer',
      'required_tier.call: must be pewc, pec or ebr for a known channel',
    ]);
    expect(validateConfig({ calling_window: { start: '9am', end: '17:00' } })).toEqual([
      'calling_window: start and end must be HH:MM',
    ]);
  });
});

describe('validateConfig on arbitrary JSON', () => {
  const check = (c: unknown) => validateConfig(c as CampaignComplianceConfig);

  it('reports wrong shapes instead of throwing', () => {
    expect(check(null)).toEqual(['config must be an object']);
    expect(check('x')).toEqual(['config must be an object']);
    expect(check({ allowed_channels: 5 })).toEqual(['allowed_channels must be a list']);
    expect(check({ calling_window: { start: '09:00', end: '17:00', days: 5 } })).toEqual([
      'calling_window.days must be a list',
    ]);
    expect(check({ calling_window: 'x' })).toEqual([
      'calling_window must be an object with start and end',
    ]);
    expect(check({ frequency_caps: 5 })).toEqual(['frequency_caps must be an object']);
    expect(check({ required_tier: 'pewc' })).toEqual([
      'required_tier must be an object of channel to tier',
    ]);
  });

  it('rejects keys the engine would ignore, so a typo cannot loosen a cap', () => {
    expect(check({ frequency_caps: { per_day: 1 } })).toEqual([
      'frequency_caps: unknown cap per_day',
    ]);
    expect(check({ calling_window: { start: '09:00', end: '17:00', tz: 'UTC' } })).toEqual([
      'calling_window: unknown key tz',
    ]);
  });
});
