import { describe, expect, it } from 'vitest';
import { ComplianceConfig } from '../../../src/domain/compliance/config-schema.js';
import {
  type CampaignComplianceConfig,
  mergeConfig,
} from '../../../src/domain/compliance/index.js';
import { compileValidator, fromPlain } from '../../../src/http/pydantic/index.js';
import { checks } from '../../../src/http/validate.js';

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

/** The admin API's check of a config's compliance keys: per field, in Pydantic's shape. */
const validator = compileValidator(ComplianceConfig, { checks, storable: true });
function problems(config: unknown): [loc: string, type: string, msg: string][] {
  const r = validator(fromPlain(config), ['config']);
  return r.ok ? [] : r.errors.map((e) => [e.loc.join('.'), e.type, e.msg]);
}

describe('the compliance config schema', () => {
  it('accepts a well-formed config', () => {
    expect(
      problems({
        purpose: 'informational',
        allowed_channels: ['sms'],
        calling_window: { start: '09:00', end: '17:30', days: ['mon'] },
        frequency_caps: { per_24h: 0 },
        required_tier: { sms: 'pewc' },
      }),
    ).toEqual([]);
  });

  it('names each problem at its field', () => {
    expect(
      problems({
        purpose: 'sales',
        allowed_channels: ['fax'],
        calling_window: { start: '18:00', end: '09:00', days: ['funday'] },
        frequency_caps: { per_24h: -1, per_7d: 1.5 },
        required_tier: { call: 'none' },
      }),
    ).toEqual([
      ['config.purpose', 'literal_error', "Input should be 'marketing' or 'informational'"],
      [
        'config.allowed_channels.0',
        'literal_error',
        "Input should be 'call', 'sms' or 'voicemail'",
      ],
      [
        'config.calling_window.days.0',
        'literal_error',
        "Input should be 'sun', 'mon', 'tue', 'wed', 'thu', 'fri' or 'sat'",
      ],
      [
        'config.frequency_caps.per_24h',
        'greater_than_equal',
        'Input should be greater than or equal to 0',
      ],
      [
        'config.frequency_caps.per_7d',
        'int_from_float',
        'Input should be a valid integer, got a number with a fractional part',
      ],
      ['config.required_tier.call', 'literal_error', "Input should be 'pewc', 'pec' or 'ebr'"],
    ]);
    expect(problems({ calling_window: { start: '9am', end: '24:30' } })).toEqual([
      [
        'config.calling_window.start',
        'string_pattern_mismatch',
        "String should match pattern '^(([01][0-9]|2[0-3]):[0-5][0-9]|24:00)$'",
      ],
      [
        'config.calling_window.end',
        'string_pattern_mismatch',
        "String should match pattern '^(([01][0-9]|2[0-3]):[0-5][0-9]|24:00)$'",
      ],
    ]);
    expect(problems({ calling_window: { start: '18:00', end: '09:00' } })).toEqual([
      ['config.calling_window', 'value_error', 'Value error, start must be before end'],
    ]);
    expect(problems({ calling_window: { start: '09:00', end: '24:00' } })).toEqual([]);
  });
});

describe('the compliance config schema on arbitrary JSON', () => {
  it('reports wrong shapes instead of throwing', () => {
    const notAModel = 'Input should be a valid dictionary or object to extract fields from';
    expect(problems(null)).toEqual([['config', 'model_attributes_type', notAModel]]);
    expect(problems('x')).toEqual([['config', 'model_attributes_type', notAModel]]);
    expect(problems({ allowed_channels: 5 })).toEqual([
      ['config.allowed_channels', 'list_type', 'Input should be a valid list'],
    ]);
    expect(problems({ calling_window: { start: '09:00', end: '17:00', days: 5 } })).toEqual([
      ['config.calling_window.days', 'list_type', 'Input should be a valid list'],
    ]);
    expect(problems({ calling_window: 'x' })).toEqual([
      ['config.calling_window', 'model_attributes_type', notAModel],
    ]);
    expect(problems({ frequency_caps: 5 })).toEqual([
      ['config.frequency_caps', 'model_attributes_type', notAModel],
    ]);
    expect(problems({ required_tier: 'pewc' })).toEqual([
      ['config.required_tier', 'model_attributes_type', notAModel],
    ]);
  });

  it('rejects keys the engine would ignore, so a typo cannot loosen a cap', () => {
    const extra = 'Extra inputs are not permitted';
    expect(problems({ frequency_caps: { per_day: 1 } })).toEqual([
      ['config.frequency_caps.per_day', 'extra_forbidden', extra],
    ]);
    expect(problems({ calling_window: { start: '09:00', end: '17:00', tz: 'UTC' } })).toEqual([
      ['config.calling_window.tz', 'extra_forbidden', extra],
    ]);
    expect(problems({ required_tier: { fax: 'pewc' } })).toEqual([
      ['config.required_tier.fax', 'extra_forbidden', extra],
    ]);
  });

  it('passes keys it does not govern through', () => {
    expect(problems({ caller_id: 5, conversion: { currency: 'usd' } })).toEqual([]);
  });
});
