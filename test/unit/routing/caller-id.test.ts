import { describe, expect, it } from 'vitest';
import { namesCaller, onKeypad } from '../../../src/domain/routing/caller-id.js';

describe('namesCaller: a withheld caller id names nobody', () => {
  it('spells words as a keypad dials them', () => {
    expect(onKeypad('ANONYMOUS')).toBe('266696687');
    expect(onKeypad('RESTRICTED')).toBe('7378742833');
    expect(onKeypad('UNAVAILABLE')).toBe('86282452253');
  });

  it('what Twilio sends for a withheld caller id', () => {
    for (const from of [
      'anonymous',
      'Anonymous',
      'ANONYMOUS',
      'restricted',
      'Restricted',
      'unavailable',
      'unknown',
      'private',
      ' anonymous ',
      '+266696687',
      '266696687',
      '+7378742833',
      '+86282452253',
      '',
      'client:alice',
    ]) {
      expect(namesCaller(from), from).toBe(false);
    }
  });

  it('numbers, E.164 or not, name their caller', () => {
    for (const from of [
      '+12125550142',
      '+442071838750',
      '+2662221234',
      '12125550142',
      '+61291234567',
    ]) {
      expect(namesCaller(from), from).toBe(true);
    }
  });
});
