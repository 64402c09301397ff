import { describe, expect, it } from 'vitest';
import { addMonthsUtc } from '../../../src/domain/compliance/consent.js';
import {
  type ConsentInput,
  type ConsentRecord,
  checkConsent,
  type RevocationEvent,
} from '../../../src/domain/compliance/index.js';

const NOW = Date.parse('2026-06-10T15:00:00Z');
const PEWC: ConsentRecord = { id: 'cr_1', tier: 'pewc', captured_at: '2026-01-05T10:00:00Z' };
const PEC: ConsentRecord = { id: 'cr_2', tier: 'pec', captured_at: '2026-01-05T10:00:00Z' };

function consent(overrides: Partial<ConsentInput> = {}) {
  return checkConsent(
    { channel: 'call', asserted: 'pewc', records: [PEWC], revocations: [], ...overrides },
    NOW,
  );
}

describe('consent tiers', () => {
  it('passes with PEWC on file for a marketing touch and records the claim', () => {
    expect(consent()).toEqual({
      passed: true,
      code: null,
      channel: 'call',
      purpose: 'marketing',
      asserted: 'pewc',
      tier_on_file: 'pewc',
      required: 'pewc',
      record_id: 'cr_1',
      revoked_at: null,
      allowed_channels: null,
    });
  });

  it('consent_missing without a record', () => {
    expect(consent({ records: [] }).code).toBe('consent_missing');
  });

  it('consent_missing when no record covers the channel', () => {
    const smsOnly: ConsentRecord = { ...PEWC, channels: ['sms'] };
    expect(consent({ records: [smsOnly] }).code).toBe('consent_missing');
    expect(consent({ records: [smsOnly], channel: 'sms' }).passed).toBe(true);
  });

  it('consent_insufficient when the assertion is above the tier on file', () => {
    const check = consent({
      records: [PEC],
      asserted: 'pewc',
      config: { purpose: 'informational' },
    });
    expect(check).toMatchObject({ code: 'consent_insufficient', tier_on_file: 'pec' });
  });

  it('consent_insufficient when the tier on file is below the requirement', () => {
    // Marketing needs PEWC for every channel (Part A point 3).
    for (const channel of ['call', 'sms', 'voicemail'] as const) {
      const check = consent({ records: [PEC], asserted: 'pec', channel });
      expect(check).toMatchObject({ code: 'consent_insufficient', required: 'pewc' });
    }
  });

  it('informational touches need PEC, and a lower assertion is fine', () => {
    const check = consent({
      records: [PEC],
      asserted: 'ebr',
      config: { purpose: 'informational' },
    });
    expect(check).toMatchObject({ passed: true, required: 'pec', asserted: 'ebr' });
  });

  it('a campaign can raise the required tier but not lower it', () => {
    const raise = { purpose: 'informational' as const, required_tier: { sms: 'pewc' as const } };
    expect(
      consent({ records: [PEC], asserted: 'pec', channel: 'sms', config: raise }),
    ).toMatchObject({ code: 'consent_insufficient', required: 'pewc' });
    const lower = { required_tier: { call: 'ebr' as const } };
    expect(consent({ records: [PEC], asserted: 'pec', config: lower }).required).toBe('pewc');
  });

  it('takes the highest live tier on file', () => {
    expect(consent({ records: [PEC, PEWC] })).toMatchObject({ passed: true, record_id: 'cr_1' });
  });

  it('ignores records captured after now and records past expires_at', () => {
    const future: ConsentRecord = { ...PEWC, captured_at: '2026-06-11T00:00:00Z' };
    const expired: ConsentRecord = { ...PEWC, expires_at: '2026-06-01T00:00:00Z' };
    expect(consent({ records: [future] }).tier_on_file).toBe('none');
    expect(consent({ records: [expired] }).code).toBe('consent_insufficient');
  });
});

describe('EBR expiry', () => {
  const info = { purpose: 'informational' as const, required_tier: {} };
  const ebr = (captured: string, basis?: 'transaction' | 'inquiry'): ConsentRecord => ({
    tier: 'ebr',
    captured_at: captured,
    ...(basis ? { ebr_basis: basis } : {}),
  });
  const tier = (record: ConsentRecord) =>
    consent({ records: [record], asserted: 'ebr', config: info }).tier_on_file;

  it('lasts 18 months after a transaction', () => {
    expect(tier(ebr('2024-12-10T15:00:01Z', 'transaction'))).toBe('ebr');
    expect(tier(ebr('2024-12-10T15:00:00Z', 'transaction'))).toBe('none');
  });

  it('lasts 3 months after an inquiry, the default reading', () => {
    expect(tier(ebr('2026-03-10T15:00:01Z', 'inquiry'))).toBe('ebr');
    expect(tier(ebr('2026-03-10T15:00:00Z'))).toBe('none');
  });

  it('adds calendar months clamped to the month end', () => {
    expect(new Date(addMonthsUtc(Date.parse('2025-08-31T12:00:00Z'), 18)).toISOString()).toBe(
      '2027-02-28T12:00:00.000Z',
    );
    expect(new Date(addMonthsUtc(Date.parse('2026-11-30T00:00:00Z'), 3)).toISOString()).toBe(
      '2027-02-28T00:00:00.000Z',
    );
  });
});

describe('revocation', () => {
  const stop: RevocationEvent = { kind: 'opt_out', at: '2026-05-01T00:00:00Z' };

  it('an opt-out voids earlier consent: consent_revoked', () => {
    expect(consent({ revocations: [stop] })).toMatchObject({
      code: 'consent_revoked',
      revoked_at: '2026-05-01T00:00:00.000Z',
    });
  });

  it('revocation wins over an insufficient assertion (first failing code)', () => {
    expect(
      consent({
        revocations: [{ kind: 'revoked', at: '2026-05-01T00:00:00Z' }],
        asserted: 'pewc',
        records: [PEC],
      }).code,
    ).toBe('consent_revoked');
  });

  it('consent given again after the opt-out stands', () => {
    const again: ConsentRecord = { ...PEWC, id: 'cr_3', captured_at: '2026-05-02T00:00:00Z' };
    expect(consent({ records: [PEWC, again], revocations: [stop] })).toMatchObject({
      passed: true,
      record_id: 'cr_3',
    });
  });

  it('an internal do-not-call entry blocks whatever the consent dates', () => {
    const dnc: RevocationEvent = { kind: 'internal_dnc', at: '2025-01-01T00:00:00Z' };
    expect(consent({ revocations: [dnc] }).code).toBe('consent_revoked');
  });

  it('blocks every channel and purpose', () => {
    for (const channel of ['call', 'sms', 'voicemail'] as const) {
      const check = consent({ channel, revocations: [stop], config: { purpose: 'informational' } });
      expect(check.code).toBe('consent_revoked');
    }
  });
});

describe('allowed channels', () => {
  it('channel_not_allowed when the campaign excludes the channel', () => {
    expect(consent({ channel: 'sms', config: { allowed_channels: ['call'] } })).toMatchObject({
      code: 'channel_not_allowed',
      allowed_channels: ['call'],
    });
  });

  it('comes after the contact-consent codes', () => {
    expect(
      consent({ records: [], channel: 'sms', config: { allowed_channels: ['call'] } }).code,
    ).toBe('consent_missing');
  });
});
