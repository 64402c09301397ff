/** Every prefix a spreadsheet reads as a formula, directly or once its blanks are trimmed. */
export const HOSTILE_PREFIXES = [
  '=',
  '+',
  '-',
  '@',
  '\t=',
  '\r=',
  '\n=',
  ' =',
  '\u00a0=',
  '\u200b=',
  '\u3000+',
  // Not first: PGlite's driver drops a byte-order mark that starts a value.
  '\u2060\ufeff@',
  '\uff1d',
  '\uff0b',
  '\uff0d',
  '\uff20',
  ' \u00a0\uff1d',
];
