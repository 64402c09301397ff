/**
 * Bidirectional controls (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F) would
 * reorder what a reader sees ("Trojan Source"): pages and files show them as
 * their code points instead, `[U+202E]`.
 */
const BIDI = /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

export function showBidi(text: string): string {
  return text.replace(
    BIDI,
    (c) => `[U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}]`,
  );
}
