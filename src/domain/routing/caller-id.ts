/**
 * Whether a carrier's `From` tells one caller apart from another. A caller who withholds their
 * number reaches a Twilio number as a word ("anonymous", "restricted", "unavailable"…) or as
 * that word spelled on a phone's keypad: "+266696687" is ANONYMOUS (Twilio, "Upcoming changes to
 * withheld caller ID behavior for <Dial> calls", 2022-11-16: "Today Programmable Voice
 * translates the alpha string into digits"). Every such caller shares that From, so it names
 * nobody: a rule about "the same caller" (a buyer's duplicate window) must not read it as one.
 */
const WITHHELD_WORDS = ['ANONYMOUS', 'RESTRICTED', 'UNAVAILABLE', 'UNKNOWN', 'PRIVATE', 'BLOCKED'];

const KEYPAD: Record<string, string> = Object.fromEntries(
  ['ABC', 'DEF', 'GHI', 'JKL', 'MNO', 'PQRS', 'TUV', 'WXYZ'].flatMap((letters, i) =>
    [...letters].map((l) => [l, String(i + 2)]),
  ),
);

/** A word as a phone's keypad dials it: ANONYMOUS → 266696687. */
export const onKeypad = (word: string): string => [...word].map((l) => KEYPAD[l] ?? '').join('');

const WITHHELD = new Set(WITHHELD_WORDS.flatMap((w) => [w, `+${onKeypad(w)}`]));

/** True when `from` is a number that names its caller; false for a withheld caller id. */
export function namesCaller(from: string): boolean {
  const f = from.trim().toUpperCase();
  return /^\+?[0-9]{3,}$/.test(f) && !WITHHELD.has(f.startsWith('+') ? f : `+${f}`);
}
