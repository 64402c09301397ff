import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  editDistance,
  normalizeReply,
} from '../../../src/domain/carrier-inbound/reading/normalize.js';
import { phraseKey, readReply } from '../../../src/domain/carrier-inbound/reading/read.js';
import { KEYWORDS } from '../../../src/domain/carrier-inbound/reading/rules.js';
import { CORPUS, type Label, SOURCES } from './reply-corpus.js';

const blocks = (body: string) => {
  const m = readReply(body).meaning;
  return m === 'revoke' || m === 'unclear';
};

describe('the reply corpus', () => {
  it('misses no revocation, and reads under 5 % of the must-not replies as revocation or doubt', () => {
    const counts: Record<Label, number> = { revoke: 0, keep: 0, unclear: 0 };
    const missed: string[] = [];
    const overStrict: string[] = [];
    const unclearAllowed: string[] = [];
    const wrongNumberUnflagged: string[] = [];
    for (const c of CORPUS) {
      counts[c.label]++;
      const r = readReply(c.text);
      const blocked = r.meaning === 'revoke' || r.meaning === 'unclear';
      if (c.label === 'revoke' && !blocked) missed.push(c.text);
      if (c.label === 'keep' && blocked) overStrict.push(`${c.text} (${r.rule})`);
      if (c.label === 'unclear' && !blocked) unclearAllowed.push(c.text);
      if (c.wrongNumber && !r.possiblyReassigned) wrongNumberUnflagged.push(c.text);
    }
    const bySource = Object.fromEntries(
      Object.keys(SOURCES).map((s) => [s, CORPUS.filter((c) => c.source === s).length]),
    );
    console.log(
      `reply corpus: ${CORPUS.length} wordings (revoke ${counts.revoke}, must not revoke ${counts.keep}, unclear ${counts.unclear}); ` +
        `missed revocations ${missed.length}; over-strict ${overStrict.length} ` +
        `(${((100 * overStrict.length) / counts.keep).toFixed(1)} % of must-not); ` +
        `unclear let through ${unclearAllowed.length}\nby source: ${JSON.stringify(bySource)}` +
        (overStrict.length ? `\nover-strict: ${overStrict.join(' · ')}` : ''),
    );
    expect(CORPUS.length).toBeGreaterThanOrEqual(300);
    expect(missed).toEqual([]);
    expect(wrongNumberUnflagged).toEqual([]);
    expect(overStrict.length / counts.keep).toBeLessThan(0.05);
  });

  it('has English, Spanish and French wordings in every label it claims', () => {
    expect(
      CORPUS.filter((c) => c.label === 'revoke' && c.source === 'spanish').length,
    ).toBeGreaterThan(30);
    expect(
      CORPUS.filter((c) => c.label === 'revoke' && c.source === 'cwta').length,
    ).toBeGreaterThan(30);
    expect(CORPUS.filter((c) => c.label === 'keep').length).toBeGreaterThan(100);
  });
});

describe('normalizeReply', () => {
  it.each([
    ['S.T.O.P', 'stop'],
    ['s t o p', 'stop'],
    ['S-T-O-P!', 'stop'],
    ['STOOOOOP', 'stop'],
    ['st0p', 'stop'],
    ['$top', 'stop'],
    ['Un5ub5cribe', 'unsubscribe'],
    ['ARRÊT', 'arret'],
    ['Bórrenme', 'borrenme'],
    ["don't", 'dont'],
    ["m'appelez", 'm appelez'],
    ['４pm', '4pm'],
  ])('%j reads as %j', (body, text) => {
    expect(normalizeReply(body).text).toBe(text);
  });

  it('sets emoji aside without skin tones or joiners', () => {
    expect(normalizeReply('✋🏽 ok 🙅‍♀️').emoji).toEqual(['✋', '🙅']);
  });

  it('splits clauses at sentence punctuation and line breaks', () => {
    expect(normalizeReply("Who's this?\nStop. thanks").clauses).toEqual([
      ['whos', 'this'],
      ['stop'],
      ['thanks'],
    ]);
  });
});

describe('editDistance', () => {
  it('counts an adjacent transposition as one edit', () => {
    expect(editDistance('sotp', 'stop', 2)).toBe(1);
    expect(editDistance('unsubscirbe', 'unsubscribe', 2)).toBe(1);
    expect(editDistance('stop', 'stop', 1)).toBe(0);
  });

  it('is symmetric and never more than the longer length (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), (a, b) => {
        const d = editDistance(a, b, 20);
        return d === editDistance(b, a, 20) && d <= Math.max(a.length, b.length);
      }),
    );
  });
});

describe('readReply', () => {
  it('reads every keyword form alone, in any case and with punctuation around it, as a clear revocation', () => {
    const forms = KEYWORDS.flatMap((k) => k.forms.map((f) => [k.key, f] as const));
    const padding = fc.string({ unit: fc.constantFrom(' ', '\n', '.', '!', '?', ',', '"', '*') });
    fc.assert(
      fc.property(
        fc.constantFrom(...forms),
        padding,
        padding,
        fc.boolean(),
        ([key, form], a, b, up) => {
          const r = readReply(`${a}${up ? form.toUpperCase() : form}${b}`);
          return r.meaning === 'revoke' && r.clear && r.matched === key;
        },
      ),
    );
  });

  it('misspellings count only on the keyword, in a short reply', () => {
    expect(readReply('sotp').meaning).toBe('revoke');
    expect(readReply('Unsubscirbe please').meaning).toBe('revoke');
    // The same misspelling inside a sentence is an ordinary word, and "shop" is not "stop".
    expect(readReply('I will go to the shop later to pick it up').meaning).toBeNull();
    expect(readReply('shop').meaning).toBeNull();
    expect(readReply('That was quite good').meaning).toBeNull();
  });

  it('records the deciding rule, its family and language', () => {
    expect(readReply('take me off your list')).toMatchObject({
      meaning: 'revoke',
      family: 'phrase',
      rule: 'en.take_me_off',
      lang: 'en',
      clear: true,
    });
    expect(readReply('🛑')).toMatchObject({ meaning: 'revoke', family: 'emoji', matched: '🛑' });
    expect(readReply('ARRÊT')).toMatchObject({ meaning: 'revoke', matched: 'ARRÊT', lang: 'fr' });
    expect(readReply('DNC')).toMatchObject({ meaning: 'revoke', family: 'dnc' });
  });

  it('flags wrong-number replies as a number that may have changed hands', () => {
    for (const body of ['wrong number', 'Wrong #', 'número equivocado', 'mauvais numéro', 'WN']) {
      expect(readReply(body), body).toMatchObject({ meaning: 'revoke', possiblyReassigned: true });
    }
    expect(readReply('STOP').possiblyReassigned).toBe(false);
  });

  it('reads a keyword in another sense as doubt, and a protected wording as nothing', () => {
    expect(readReply('can I stop by Saturday?')).toMatchObject({
      meaning: 'unclear',
      rule: 'en.doubt.stop_by',
      clear: false,
    });
    expect(readReply("don't stop the good deals").meaning).toBeNull();
    expect(readReply('I quit smoking thanks to your program').meaning).toBeNull();
    // A revocation elsewhere in the reply still wins.
    expect(readReply('I quit smoking. Now quit texting me').meaning).toBe('revoke');
    expect(readReply("Why don't you stop texting me").meaning).toBe('revoke');
  });

  it('reads START and UNSTOP as a request to resume, and YES as wanting messages', () => {
    expect(readReply('START').meaning).toBe('resubscribe');
    expect(readReply('unstop').meaning).toBe('resubscribe');
    expect(readReply('Yes').meaning).toBe('wants_messages');
    expect(readReply('keep them coming').meaning).toBe('wants_messages');
    expect(readReply('no').meaning).toBeNull();
  });

  it("matches the organization's own phrases word for word, whatever the case and accents", () => {
    expect(readReply('DEJAME EN PAZ.', ['Déjame en paz'])).toMatchObject({
      meaning: 'revoke',
      family: 'organization_phrase',
      matched: 'Déjame en paz',
    });
    expect(readReply('hasta luego', ['chao pescao']).meaning).toBeNull();
  });

  it('phraseKey drops case, accents, punctuation and spacing, and keeps any script', () => {
    expect(phraseKey('Opt-out.')).toBe('OPTOUT');
    expect(phraseKey(' Стоп! ')).toBe('СТОП');
    expect(phraseKey('!!!')).toBe('');
  });
});

describe('blocking', () => {
  it('a reply of only stop emoji or only a keyword blocks', () => {
    expect(blocks('🛑🛑')).toBe(true);
    expect(blocks('stop')).toBe(true);
  });
});
