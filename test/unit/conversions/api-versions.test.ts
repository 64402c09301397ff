import { describe, expect, it } from 'vitest';
import {
  API_VERSIONS,
  versionOf,
  versionProblem,
  versionReadiness,
  versionWarning,
} from '../../../src/domain/conversions/api-versions.js';

/** The versions table and its 60-day window, with the clock given. */
const at = (iso: string) => new Date(iso);
const meta21 = { pixel_id: '1', api_version: 'v21.0' };

describe('versionWarning', () => {
  it('is silent 61 days before, warns from 60 days, says retired from the day itself', () => {
    expect(versionWarning('meta', meta21, at('2026-11-21T00:00:00Z'))).toBeNull();
    expect(versionWarning('meta', meta21, at('2026-11-22T00:00:00Z'))).toMatchObject({
      days_left: 60,
      retires_on: '2027-01-21',
    });
    expect(versionWarning('meta', meta21, at('2027-01-20T23:59:59Z'))?.days_left).toBe(1);
    expect(versionWarning('meta', meta21, at('2027-01-21T00:00:00Z'))?.message).toBe(
      'meta_graph v21.0 was retired on 2027-01-21: uploads fail until settings.api_version is v24.0',
    );
  });

  it('the defaults carry no announced date, and GA4 has no version', () => {
    const later = at('2030-01-01T00:00:00Z');
    expect(versionWarning('meta', { pixel_id: '1' }, later)).toBeNull();
    expect(versionWarning('google_ads', {}, later)).toBeNull();
    expect(versionWarning('ga4', {}, later)).toBeNull();
    expect(versionOf('ga4', {})).toBeNull();
  });
});

describe('versionOf and versionProblem', () => {
  it('google_ads speaks Data Manager v1 unless it chose the Ads API, at v25', () => {
    expect(versionOf('google_ads', {})).toEqual({ api: 'data_manager', version: 'v1' });
    expect(versionOf('google_ads', { api: 'google_ads_api' })).toEqual({
      api: 'google_ads_api',
      version: 'v25',
    });
    expect(API_VERSIONS.google_ads_api.map((v) => v.version)).toEqual(['v25']);
  });

  it('refuses an unknown version, and names the date of a retired one', () => {
    expect(versionProblem('meta', { api_version: 'v24.0' })).toBeNull();
    expect(versionProblem('meta', { api_version: 'v99.0' })).toBe('must be one of v24.0, v21.0');
    expect(versionProblem('google_ads', { api: 'google_ads_api', api_version: 'v22' })).toBe(
      'v22 was retired on 2026-10-07; use one of v25',
    );
    // A Data Manager destination's version is Data Manager's.
    expect(versionProblem('google_ads', { api_version: 'v25' })).toBe('must be one of v1');
  });
});

describe('versionReadiness', () => {
  it('counts per API and version; degraded once any is retired', () => {
    const rows = [
      { platform: 'meta' as const, settings: meta21 },
      { platform: 'meta' as const, settings: meta21 },
      { platform: 'meta' as const, settings: { pixel_id: '1' } },
    ];
    expect(versionReadiness(rows, at('2026-10-01T00:00:00Z'))).toEqual({ status: 'ok' });
    expect(versionReadiness(rows, at('2026-12-22T00:00:00Z'))).toEqual({
      status: 'ok',
      detail:
        '2 destination(s) on meta_graph v21.0, retired on 2027-01-21 (in 30 days): set settings.api_version (docs/conversions.md)',
    });
    expect(versionReadiness(rows, at('2027-02-01T00:00:00Z')).status).toBe('degraded');
  });
});
