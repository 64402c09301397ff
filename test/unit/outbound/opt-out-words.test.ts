import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  phraseKey,
  REVOCATION_WORDS,
  replyMeaning,
} from '../../../src/domain/outbound/opt-out-words.js';

describe('replyMeaning', () => {
  it('reads each standard word as a revocation, in any case, with punctuation around it', () => {
    const padding = fc.string({
      unit: fc.constantFrom(' ', '\n', '\t', '.', '!', '?', ',', '"', '*', '-'),
    });
    fc.assert(
      fc.property(
        fc.constantFrom(...REVOCATION_WORDS),
        padding,
        padding,
        fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }),
        (word, before, after, upper) => {
          const cased = [...word].map((c, i) => (upper[i] ? c.toUpperCase() : c.toLowerCase()));
          return replyMeaning(`${before}${cased.join('')}${after}`) === 'revoke';
        },
      ),
    );
  });

  it('ignores sentences that merely contain a word', () => {
    for (const body of [
      'stop calling',
      'I will not quit',
      'the END is near',
      'STOP 2',
      'cancelled',
    ]) {
      expect(replyMeaning(body)).toBeNull();
    }
  });

  it('treats OPT-OUT, OPT OUT and STOP ALL as their joined words', () => {
    expect(['Opt-Out', 'opt out', 'opt_out', 'Stop all'].map((b) => replyMeaning(b))).toEqual([
      'revoke',
      'revoke',
      'revoke',
      'revoke',
    ]);
  });

  it('reads START and UNSTOP as a request to resume, nothing else', () => {
    expect(replyMeaning('Start')).toBe('resubscribe');
    expect(replyMeaning('unstop!')).toBe('resubscribe');
    expect(replyMeaning('yes')).toBeNull();
    expect(replyMeaning('   ')).toBeNull();
  });

  it("adds an organization's phrases, matched without accents or case", () => {
    expect(replyMeaning('No mas', [])).toBeNull();
    expect(replyMeaning('NO MAS.', ['No más'])).toBe('revoke');
    expect(replyMeaning('no más', ['no mas'])).toBe('revoke');
    // A phrase that collides with START revokes: the stricter reading.
    expect(replyMeaning('start', ['START'])).toBe('revoke');
  });

  it('keeps letters of any script', () => {
    expect(phraseKey(' Стоп! ')).toBe('СТОП');
    expect(replyMeaning('стоп', ['Стоп'])).toBe('revoke');
  });
});
