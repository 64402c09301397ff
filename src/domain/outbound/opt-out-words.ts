/**
 * What a text reply means for consent (compliance-rules.md Part B §1.4, FCC 24-24): the words
 * 64.1200(a)(10) makes per-se revocations, the words that ask to resume, and an organization's
 * own extra phrases. A reply counts only when it is just the word: "stop" and "STOP!" revoke,
 * "don't stop" does not (an organization adds such phrases itself when it reads them as revocation).
 */

export const REVOCATION_WORDS = [
  'STOP',
  'STOPALL',
  'UNSUBSCRIBE',
  'CANCEL',
  'END',
  'QUIT',
  'REVOKE',
  'OPT OUT',
  'OPTOUT',
] as const;

/** Recorded in the history; they never restore consent (a new grant does). */
export const RESUBSCRIBE_WORDS = ['START', 'UNSTOP'] as const;

export type ReplyMeaning = 'revoke' | 'resubscribe' | null;

/**
 * The comparable form of a phrase: accents, case, punctuation and spacing removed, so "Opt-out.",
 * "OPT OUT" and "optout" are one phrase, and "No más" matches "NO MAS". Letters and digits of any
 * script are kept.
 */
export function phraseKey(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .replace(/[^\p{L}\p{N}]/gu, '');
}

const REVOKE_KEYS = new Set(REVOCATION_WORDS.map(phraseKey));
const RESUBSCRIBE_KEYS = new Set(RESUBSCRIBE_WORDS.map(phraseKey));

/** Revocation wins over resubscription when an organization's phrase collides with START. */
export function replyMeaning(body: string, extraPhrases: readonly string[] = []): ReplyMeaning {
  const key = phraseKey(body);
  if (key === '') return null;
  if (REVOKE_KEYS.has(key) || extraPhrases.some((p) => phraseKey(p) === key)) return 'revoke';
  if (RESUBSCRIBE_KEYS.has(key)) return 'resubscribe';
  return null;
}
