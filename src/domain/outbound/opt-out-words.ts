/**
 * What a text reply means for consent (compliance-rules.md Part B §1.4, FCC 24-24): the words
 * 64.1200(a)(10) makes per-se revocations, their Spanish counterparts, the words that ask to
 * resume, and an organization's own extra phrases.
 *
 * A revocation word ANYWHERE in the reply revokes ("cancel please", "please stop texting me",
 * "No más"). The rule covers "any reasonable means", and a word missed is a contact we keep
 * texting against their will, while a word read too eagerly costs one contact. The reading also
 * says whether the reply is clear (the word plus a few words about messages and politeness) or
 * ambiguous ("stop by the store", or a long message): an organization that turned on the one-time
 * clarification text the FCC allows asks first instead of revoking (opt-out.ts).
 */

/** Each standard word, as recorded (`matched_word`), with the forms that spell it. */
const REVOCATIONS: readonly (readonly [word: string, ...forms: string[]])[] = [
  ['STOP ALL', 'STOPALL'],
  ['STOP'],
  ['END'],
  ['QUIT'],
  ['CANCEL'],
  ['UNSUBSCRIBE'],
  ['REVOKE'],
  ['OPT OUT', 'OPTOUT'],
  ['PARAR'],
  ['CANCELAR'],
  ['ALTO'],
  ['BASTA'],
  ['NO MÁS'],
];

/** The standard revocation words (documentation and tests): every form of every word. */
export const REVOCATION_WORDS: readonly string[] = REVOCATIONS.flat();

/** Recorded in the history; they never restore consent (a new grant does). */
export const RESUBSCRIBE_WORDS = ['START', 'UNSTOP'] as const;

/**
 * Words that may stand beside a revocation word in a clear reply: politeness, the person, and
 * what is being stopped. Anything else makes the reply ambiguous (it still revokes unless the
 * organization asks first).
 */
const CLEAR_COMPANIONS = new Set(
  (
    'PLEASE PLS PLZ NOW ALL ANY MORE THANKS THANK THX YOU ME MY I US THIS THESE THEM IT THAT ' +
    'TEXT TEXTS TEXTING MESSAGE MESSAGES MESSAGING SMS CALL CALLS CALLING SEND SENDING ' +
    'CONTACT CONTACTING TO FROM OF ' +
    'POR FAVOR YA GRACIAS MENSAJE MENSAJES TEXTOS LLAMADAS LLAMAR ENVIAR DE LOS LAS ME MI'
  ).split(' '),
);

/** A reply of more words than this is "longer": never clear, whatever its words. */
export const CLEAR_REPLY_MAX_WORDS = 8;

export type ReplyMeaning = 'revoke' | 'resubscribe' | null;

export interface ReplyReading {
  meaning: ReplyMeaning;
  /** The revocation word or organization phrase found, as listed; null unless `revoke`. */
  matched: string | null;
  /** False for a revocation word among other words or in a long message. */
  clear: boolean;
}

/** Accents and case removed, so "No más" and "NO MAS" compare equal. */
function fold(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toUpperCase();
}

/** The reply's words: letters and digits of any script, split at everything else. */
function words(text: string): string[] {
  return fold(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '');
}

/**
 * The comparable form of a phrase: accents, case, punctuation and spacing removed, so "Opt-out.",
 * "OPT OUT" and "optout" are one phrase. Letters and digits of any script are kept.
 */
export function phraseKey(text: string): string {
  return words(text).join('');
}

interface Pattern {
  label: string;
  words: string[];
}

const STANDARD: Pattern[] = REVOCATIONS.flatMap(([word, ...forms]) =>
  [word, ...forms].map((form) => ({ label: word, words: words(form) })),
);
const RESUBSCRIBE_KEYS = new Set(RESUBSCRIBE_WORDS.map(phraseKey));

/** Where a pattern's words occur in a row, as index ranges. */
function occurrences(tokens: string[], p: Pattern): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i + p.words.length <= tokens.length; i++) {
    if (p.words.every((w, j) => tokens[i + j] === w)) out.push([i, i + p.words.length]);
  }
  return out;
}

/**
 * Reads a reply. Revocation wins over resubscription (an organization's phrase that collides
 * with START revokes: the stricter reading); START and UNSTOP count only as the whole reply.
 */
export function readReply(body: string, extraPhrases: readonly string[] = []): ReplyReading {
  const tokens = words(body);
  if (tokens.length === 0) return { meaning: null, matched: null, clear: false };
  const patterns = [
    ...STANDARD,
    ...extraPhrases.map((p) => ({ label: p, words: words(p) })).filter((p) => p.words.length > 0),
  ];
  const covered = new Array<boolean>(tokens.length).fill(false);
  let first: { at: number; length: number; label: string } | null = null;
  for (const p of patterns) {
    for (const [from, to] of occurrences(tokens, p)) {
      for (let i = from; i < to; i++) covered[i] = true;
      // The earliest word, and the longest at one place ("STOP ALL" over "STOP").
      if (!first || from < first.at || (from === first.at && to - from > first.length)) {
        first = { at: from, length: to - from, label: p.label };
      }
    }
  }
  if (first) {
    const clear =
      tokens.length <= CLEAR_REPLY_MAX_WORDS &&
      tokens.every((t, i) => covered[i] || CLEAR_COMPANIONS.has(t));
    return { meaning: 'revoke', matched: first.label, clear };
  }
  if (RESUBSCRIBE_KEYS.has(tokens.join(''))) {
    return { meaning: 'resubscribe', matched: null, clear: true };
  }
  return { meaning: null, matched: null, clear: false };
}
