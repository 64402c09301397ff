import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { readPartialFailure } from '../../../src/adapters/ad-platforms/google-ads-answers.js';
import { retryAfterMs } from '../../../src/adapters/ad-platforms/http.js';
import { nextOf, uploadRetryDelayMs } from '../../../src/domain/conversions/delivery.js';
import {
  gaClientId,
  googleDateTime,
  hashedPhones,
  skipReason,
} from '../../../src/domain/conversions/facts.js';
import {
  maskSecret,
  parseSecretsKey,
  SecretBox,
  SecretsKeyMismatch,
} from '../../../src/domain/conversions/secrets.js';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

describe('Google date-time', () => {
  it('is yyyy-mm-dd hh:mm:ss±hh:mm in the zone, across DST', () => {
    expect(googleDateTime(new Date('2026-01-15T17:30:00Z'), 'America/New_York')).toBe(
      '2026-01-15 12:30:00-05:00',
    );
    expect(googleDateTime(new Date('2026-07-15T17:30:00Z'), 'America/New_York')).toBe(
      '2026-07-15 13:30:00-04:00',
    );
    expect(googleDateTime(new Date('2026-07-15T17:30:00Z'), 'UTC')).toBe(
      '2026-07-15 17:30:00+00:00',
    );
    expect(googleDateTime(new Date('2026-07-15T23:30:00Z'), 'Asia/Kolkata')).toBe(
      '2026-07-16 05:00:00+05:30',
    );
  });
});

describe('hashed phone numbers', () => {
  it('Google hashes E.164 with the plus, Meta the digits only', () => {
    expect(hashedPhones('+12125550142')).toEqual({
      phoneGoogle: sha('+12125550142'),
      phoneMeta: sha('12125550142'),
    });
  });
  it('a caller id that is not a number hashes to nothing', () => {
    expect(hashedPhones('anonymous')).toEqual({});
    expect(hashedPhones('+1')).toEqual({});
  });
});

describe('GA4 client id', () => {
  it('from _ga (cookie form), client_id or ga_client_id', () => {
    expect(gaClientId('https://x.example/?_ga=GA1.1.123456.1700000000')).toBe('123456.1700000000');
    expect(gaClientId('https://x.example/?_ga=123456.1700000000')).toBe('123456.1700000000');
    expect(gaClientId('https://x.example/?client_id=42.43')).toBe('42.43');
    expect(gaClientId('https://x.example/?ga_client_id=1.2')).toBe('1.2');
  });
  it('nothing else passes for one', () => {
    expect(gaClientId('https://x.example/?_gl=1*abc')).toBeUndefined();
    expect(gaClientId('https://x.example/?client_id=<script>')).toBeUndefined();
    expect(gaClientId('not a url')).toBeUndefined();
    expect(gaClientId(null)).toBeUndefined();
  });
  it('decides what each platform skips', () => {
    const f = { callId: 'c', conversionAt: '', value: null, currency: null };
    expect(skipReason('google_ads', f)).toBe('no_click_id');
    expect(skipReason('google_ads', { ...f, wbraid: 'w' })).toBeNull();
    expect(skipReason('meta', { ...f, fbp: 'p' })).toBeNull();
    expect(skipReason('microsoft_ads', { ...f, gclid: 'g' })).toBe('no_click_id');
    expect(skipReason('ga4', f)).toBe('no_client_id');
  });
});

describe('SecretBox', () => {
  const a = Buffer.alloc(32, 1);
  const b = Buffer.alloc(32, 2);
  it('seals and opens; the sealed form holds no plaintext and differs each time', () => {
    const box = new SecretBox(a);
    const s1 = box.seal({ token: 'very-secret-value' });
    const s2 = box.seal({ token: 'very-secret-value' });
    expect(s1).not.toContain('very-secret');
    expect(s1).not.toBe(s2);
    expect(box.open(s1)).toEqual({ token: 'very-secret-value' });
  });
  it('a wrong key is a SecretsKeyMismatch naming both key ids, not the keys', () => {
    const sealed = new SecretBox(a).seal({ t: 'x' });
    let err: unknown;
    try {
      new SecretBox(b).open(sealed);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(SecretsKeyMismatch);
    expect((err as Error).message).toMatch(
      /written under key [0-9a-f]{8}, SECRETS_KEY is key [0-9a-f]{8}/,
    );
    expect((err as Error).message).not.toContain(a.toString('hex'));
  });
  it('a tampered ciphertext does not open', () => {
    const box = new SecretBox(a);
    const sealed = box.seal({ t: 'x' });
    const parts = sealed.split('.');
    parts[4] = Buffer.from('tampered').toString('base64url');
    expect(() => box.open(parts.join('.'))).toThrow(SecretsKeyMismatch);
  });
  it('previous keys open old rows, which are stale until rewrapped', () => {
    const old = new SecretBox(a).seal({ t: 'x' });
    const rotated = new SecretBox(b, [a]);
    expect(rotated.open(old)).toEqual({ t: 'x' });
    expect(rotated.isStale(old)).toBe(true);
    expect(rotated.isStale(rotated.seal({ t: 'x' }))).toBe(false);
  });
  it('keys are 64 hex digits or base64 of 32 bytes', () => {
    expect(parseSecretsKey('ab'.repeat(32))?.length).toBe(32);
    expect(parseSecretsKey(Buffer.alloc(32, 9).toString('base64'))?.length).toBe(32);
    expect(parseSecretsKey('short')).toBeNull();
    expect(parseSecretsKey('zz'.repeat(32))).toBeNull();
  });
  it('masks show at most the last four characters of long values', () => {
    expect(maskSecret('1234567890abcdefWXYZ')).toBe('••••WXYZ');
    expect(maskSecret('short-secret')).toBe('••••');
  });
});

describe('retry schedule', () => {
  const o = {
    retryBaseMs: 30_000,
    retryMaxMs: 3_600_000,
    maxAttempts: 20,
    confirmAfterMs: 60_000,
    confirmWithinMs: 7 * 86_400_000,
  };
  const send = (attempt: number, checks = 0) => ({
    attempt,
    checks,
    requestId: null,
    awaitingSinceMs: null,
  });
  it('doubles from the base with at most 20 % jitter, capped at an hour', () => {
    expect(uploadRetryDelayMs(1, o, undefined, () => 0)).toBe(30_000);
    expect(uploadRetryDelayMs(2, o, undefined, () => 0)).toBe(60_000);
    expect(uploadRetryDelayMs(3, o, undefined, () => 0.999)).toBeLessThanOrEqual(144_000);
    expect(uploadRetryDelayMs(12, o, undefined, () => 0.999)).toBe(3_600_000);
  });
  it('Retry-After wins', () => {
    expect(uploadRetryDelayMs(5, o, 7_000)).toBe(7_000);
  });
  it('gives up after maxAttempts', () => {
    const r = { state: 'retry', code: 'server_error', detail: 'HTTP 500' } as const;
    expect(nextOf(r, send(19), 0, o).state).toBe('pending');
    expect(nextOf(r, send(20), 0, o)).toMatchObject({ state: 'failed', code: 'gave_up' });
    // Checks of an accepted request spend none of the sends.
    expect(nextOf(r, send(40, 21), 0, o).state).toBe('pending');
    expect(nextOf(r, send(41, 21), 0, o)).toMatchObject({ state: 'failed', code: 'gave_up' });
  });
  it('checks an accepted request until confirmWithinMs after Google accepted it', () => {
    const processing = {
      state: 'retry',
      code: 'awaiting_confirmation',
      detail: "Google's processing report: PROCESSING",
    } as const;
    const check = { attempt: 200, checks: 199, requestId: 'req-1', awaitingSinceMs: 0 };
    const week = o.confirmWithinMs;
    expect(nextOf(processing, check, week - 1, o)).toMatchObject({
      state: 'pending',
      requestId: 'req-1',
      awaitingSinceMs: 0,
    });
    expect(nextOf(processing, check, week, o)).toMatchObject({ state: 'failed', code: 'gave_up' });
  });
  it('reads Retry-After as seconds or a date', () => {
    expect(retryAfterMs(new Headers({ 'retry-after': '120' }))).toBe(120_000);
    const now = Date.parse('2026-03-02T15:00:00Z');
    expect(retryAfterMs(new Headers({ 'retry-after': 'Mon, 02 Mar 2026 15:01:00 GMT' }), now)).toBe(
      60_000,
    );
    expect(retryAfterMs(new Headers({}))).toBeUndefined();
  });
});

describe('Google partial failures', () => {
  it('map to their rows by fieldPathElements index; the rest were accepted', () => {
    const body = {
      partialFailureError: {
        code: 3,
        details: [
          {
            errors: [
              {
                errorCode: { conversionUploadError: 'TOO_RECENT_EVENT' },
                location: { fieldPathElements: [{ fieldName: 'conversions', index: 2 }] },
              },
              {
                errorCode: { conversionUploadError: 'UNPARSEABLE_GCLID' },
                message: 'bad',
                location: { fieldPathElements: [{ fieldName: 'conversions', index: 0 }] },
              },
              {
                errorCode: { conversionUploadError: 'CLICK_CONVERSION_ALREADY_EXISTS' },
                location: { fieldPathElements: [{ fieldName: 'conversions', index: 3 }] },
              },
            ],
          },
        ],
      },
    };
    const r = readPartialFailure(4, body);
    expect(r[0]).toMatchObject({
      state: 'failed',
      code: 'rejected_by_platform',
      detail: 'UNPARSEABLE_GCLID: bad',
    });
    expect(r[1]).toEqual({ state: 'sent' });
    expect(r[2]).toMatchObject({
      state: 'retry',
      code: 'TOO_RECENT_EVENT',
      retryAfterMs: 6 * 3_600_000,
    });
    expect(r[3]).toEqual({
      state: 'sent',
      note: 'Google already held it (CLICK_CONVERSION_ALREADY_EXISTS)',
    });
  });
});
