import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CLEAR_REPLY_MAX_WORDS,
  phraseKey,
  REVOCATION_WORDS,
  readReply,
} from '../../../src/domain/outbound/opt-out-words.js';

const meaning = (body: string, extra: string[] = []) => readReply(body, extra).meaning;

describe('readReply', () => {
  it('reads each standard word as a clear revocation, in any case, with punctuation around it', () => {
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
          const r = readReply(`${before}${cased.join('')}${after}`);
          return r.meaning === 'revoke' && r.clear;
        },
      ),
    );
  });

  it('finds a word anywhere in a short reply, and records the word as listed', () => {
    for (const [body, word] of [
      ['cancel please', 'CANCEL'],
      ['please stop texting me', 'STOP'],
      ['No más', 'NO MÁS'],
      ['no mas mensajes por favor', 'NO MÁS'],
      ['Basta ya', 'BASTA'],
      ['ALTO', 'ALTO'],
      ['parar', 'PARAR'],
      ['Cancelar, gracias', 'CANCELAR'],
      ['Stop all', 'STOP ALL'],
      ['stopall!', 'STOP ALL'],
      ['opt-out now', 'OPT OUT'],
      ['quit texting me', 'QUIT'],
      ['unsubscribe', 'UNSUBSCRIBE'],
      ['REVOKE', 'REVOKE'],
      ['end', 'END'],
    ] as const) {
      expect(readReply(body), body).toEqual({ meaning: 'revoke', matched: word, clear: true });
    }
  });

  it('reads a word among other words, or in a long message, as an ambiguous revocation', () => {
    for (const [body, word] of [
      ['stop by the store', 'STOP'],
      ['I will not quit', 'QUIT'],
      ['the END is near', 'END'],
      ['STOP 2', 'STOP'],
      ["don't stop", 'STOP'],
      ['please please please stop sending me all these texts now thanks', 'STOP'],
    ] as const) {
      expect(readReply(body), body).toEqual({ meaning: 'revoke', matched: word, clear: false });
    }
    expect(CLEAR_REPLY_MAX_WORDS).toBeLessThan(10);
  });

  it('does not read a longer word that starts like one as the word', () => {
    for (const body of ['cancelled', 'I stopped by', 'ending soon', 'nomas', 'altogether']) {
      expect(meaning(body), body).toBeNull();
    }
  });

  it('reads START and UNSTOP as a request to resume, nothing else', () => {
    expect(meaning('Start')).toBe('resubscribe');
    expect(meaning('unstop!')).toBe('resubscribe');
    expect(meaning('yes')).toBeNull();
    expect(meaning('   ')).toBeNull();
    // A revocation word wins over START.
    expect(meaning('start stop')).toBe('revoke');
  });

  it("adds an organization's phrases, matched anywhere without accents or case", () => {
    expect(meaning('Déjame en paz')).toBeNull();
    expect(readReply('DEJAME EN PAZ.', ['Déjame en paz'])).toEqual({
      meaning: 'revoke',
      matched: 'Déjame en paz',
      clear: true,
    });
    expect(readReply('ok déjame en paz ahora', ['dejame en paz'])).toMatchObject({
      meaning: 'revoke',
      clear: false,
    });
    // A phrase that collides with START revokes: the stricter reading.
    expect(meaning('start', ['START'])).toBe('revoke');
  });

  it('keeps letters of any script', () => {
    expect(phraseKey(' Стоп! ')).toBe('СТОП');
    expect(meaning('стоп', ['Стоп'])).toBe('revoke');
  });
});
