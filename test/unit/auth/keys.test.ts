import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  generateApiKey,
  hashApiKey,
  keyPrefix,
  parseBearer,
} from '../../../src/domain/auth/keys.js';

const KEY = 'svc_live_0123456789abcdef0123456789abcdef01234567';

describe('generateApiKey', () => {
  it('makes svc_live_ and 40 lowercase hex characters, different every time', () => {
    const keys = Array.from({ length: 200 }, generateApiKey);
    for (const k of keys) expect(k).toMatch(/^svc_live_[0-9a-f]{40}$/);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe('hashApiKey', () => {
  it('is the SHA-256 hex of the whole key and does not contain it', () => {
    expect(hashApiKey(KEY)).toBe(createHash('sha256').update(KEY, 'utf8').digest('hex'));
    expect(hashApiKey(KEY)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey(KEY)).not.toContain(KEY.slice(9));
    expect(hashApiKey(KEY)).not.toBe(hashApiKey(`${KEY.slice(0, -1)}8`));
  });
});

describe('keyPrefix', () => {
  it('shows the scheme and four hex characters, never the secret part', () => {
    expect(keyPrefix(KEY)).toBe('svc_live_0123…');
  });
});

describe('parseBearer', () => {
  it.each([
    ['Bearer', `Bearer ${KEY}`],
    ['lowercase scheme', `bearer ${KEY}`],
    ['uppercase scheme', `BEARER ${KEY}`],
    ['mixed-case scheme', `bEaReR ${KEY}`],
    ['several spaces', `Bearer   ${KEY}`],
    ['trailing spaces', `Bearer ${KEY}  `],
  ])('accepts %s', (_, header) => {
    expect(parseBearer(header)).toBe(KEY);
  });

  it.each([
    ['no header', undefined],
    ['an empty header', ''],
    ['the key alone', KEY],
    ['Basic', 'Basic dXNlcjpwYXNz'],
    ['Token', `Token ${KEY}`],
    ['Bearer alone', 'Bearer'],
    ['Bearer and a space', 'Bearer '],
    ['no space after the scheme', `Bearer${KEY}`],
    ['a tab after the scheme', `Bearer\t${KEY}`],
    ['leading space', ` Bearer ${KEY}`],
    ['a wrong prefix', `Bearer svc_test_${KEY.slice(9)}`],
    ['no prefix', `Bearer ${KEY.slice(9)}`],
    ['39 hex', `Bearer ${KEY.slice(0, -1)}`],
    ['41 hex', `Bearer ${KEY}0`],
    ['uppercase hex', `Bearer svc_live_${KEY.slice(9).toUpperCase()}`],
    ['uppercase prefix', `Bearer SVC_LIVE_${KEY.slice(9)}`],
    ['non-hex', `Bearer svc_live_${'z'.repeat(40)}`],
    ['two keys', `Bearer ${KEY} ${KEY}`],
    ['a trailing newline', `Bearer ${KEY}\n`],
    ['a quoted key', `Bearer "${KEY}"`],
  ])('refuses %s', (_, header) => {
    expect(parseBearer(header)).toBeNull();
  });
});
