import { describe, expect, it } from 'vitest';
import { resolveLocation } from '../../../src/domain/compliance/index.js';

describe('resolveLocation', () => {
  it('resolves a US number to its state and zones', () => {
    expect(resolveLocation('+18505550100')).toEqual({
      resolved: true,
      nanp: true,
      npa: 850,
      country: 'US',
      state: 'FL',
      region: 'FL',
      zones: ['America/Chicago', 'America/New_York'],
      area_code_zones: ['America/Chicago', 'America/New_York'],
      lead_timezone: null,
    });
  });

  it('appends lead_timezone as an extra candidate zone', () => {
    const loc = resolveLocation('+16055550100', 'America/Los_Angeles');
    expect(loc.zones).toEqual(['America/Chicago', 'America/Denver', 'America/Los_Angeles']);
    expect(loc.resolved && loc.area_code_zones).toEqual(['America/Chicago', 'America/Denver']);
  });

  it('gives territories their USPS code as the state', () => {
    expect(resolveLocation('+17875550100')).toMatchObject({ country: 'PR', state: 'PR' });
  });

  it('resolves Canada and the Caribbean without a US state', () => {
    expect(resolveLocation('+14165550100')).toMatchObject({
      resolved: true,
      country: 'CA',
      state: null,
      region: 'CA-ON',
      zones: ['America/Toronto'],
    });
    expect(resolveLocation('+16645550100')).toMatchObject({ country: 'MS', state: null });
  });

  it.each([
    ['+18005550100', 'unknown_area_code'],
    ['+19005550100', 'unknown_area_code'],
    ['+15005550100', 'unknown_area_code'],
    ['+1201555010', 'malformed_number'],
    ['12015550100', 'malformed_number'],
    ['+33123456789', 'no_zone_for_non_nanp_number'],
  ])('leaves %s unresolved (%s)', (e164, reason) => {
    expect(resolveLocation(e164)).toMatchObject({ resolved: false, reason, zones: [] });
  });

  it('resolves a non-NANP number to lead_timezone alone', () => {
    expect(resolveLocation('+33123456789', 'Europe/Paris')).toMatchObject({
      resolved: true,
      nanp: false,
      state: null,
      zones: ['Europe/Paris'],
    });
  });

  it('throws on a zone Intl does not know', () => {
    expect(() => resolveLocation('+12015550100', 'Nowhere/Else')).toThrow(RangeError);
  });
});
