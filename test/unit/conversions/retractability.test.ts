import { describe, expect, it } from 'vitest';
import { retractability } from '../../../src/domain/conversions/retractability.js';

/** Retractability from the destination's platform and configuration (docs/conversions.md). */
const OAUTH = ['client_id', 'client_secret', 'refresh_token'];
const google = { customer_id: '1234567890', conversion_action: '1' };

describe('retractability', () => {
  it('Google: the Ads API, or Data Manager with a developer token, retracts', () => {
    expect(
      retractability({
        platform: 'google_ads',
        settings: { ...google, api: 'google_ads_api' },
        secretNames: [...OAUTH, 'developer_token'],
      }),
    ).toEqual({ retractable: true });
    expect(
      retractability({
        platform: 'google_ads',
        settings: { ...google, api: 'data_manager' },
        secretNames: [...OAUTH, 'developer_token'],
      }),
    ).toEqual({ retractable: true });
  });

  it('Google: Data Manager (explicit or by default) without a developer token does not', () => {
    for (const settings of [google, { ...google, api: 'data_manager' }]) {
      const r = retractability({ platform: 'google_ads', settings, secretNames: OAUTH });
      expect(r.retractable).toBe(false);
      expect(!r.retractable && r.why).toContain('secrets.developer_token');
    }
  });

  it('Microsoft retracts; Meta and GA4 never do', () => {
    expect(
      retractability({ platform: 'microsoft_ads', settings: {}, secretNames: [] }).retractable,
    ).toBe(true);
    expect(retractability({ platform: 'meta', settings: {}, secretNames: [] })).toEqual({
      retractable: false,
      why: "Meta's Conversions API has no retraction",
    });
    expect(retractability({ platform: 'ga4', settings: {}, secretNames: [] })).toEqual({
      retractable: false,
      why: 'the GA4 Measurement Protocol has no retraction',
    });
  });
});
