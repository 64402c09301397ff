/**
 * The line format every suppression import accepts (documented in docs/outbound.md):
 *
 *   +14155550123                      E.164
 *   4155550123                        10 NANP digits (a national registry area-code file)
 *   415,5550123                       AREACODE,NUMBER
 *   4155550123,CA                     a state list: the number and the state
 *   4155550123,D   or   ...,delete    a change file: A/add (default) or D/delete
 *
 * Blank lines and lines starting with `#` are skipped; a first line whose first field has
 * letters is a header and skipped. Other columns (a litigator CSV's names, dates) are ignored.
 * Parsing is a few regular expressions per line, no phone library: 10 million lines must parse
 * in seconds.
 */

export type LineAction = 'add' | 'delete';

export interface ParsedLine {
  /** E.164 digits without '+', as the bigint column stores them. */
  number: string;
  state: string | null;
  action: LineAction;
}

export type LineResult =
  | { kind: 'skip' }
  | { kind: 'entry'; entry: ParsedLine }
  | { kind: 'error'; message: string };

const NANP10 = /^[2-9]\d{2}[2-9]\d{6}$/;
const E164 = /^\+([1-9]\d{6,14})$/;
const STATES = new Set(
  'AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY PR VI GU MP AS'.split(
    ' ',
  ),
);
const ACTIONS: Record<string, LineAction> = { a: 'add', add: 'add', d: 'delete', delete: 'delete' };

/** The stored digits of a number in any accepted form, or null. */
export function numberDigits(raw: string): string | null {
  const s = raw.trim().replace(/^"|"$/g, '');
  if (NANP10.test(s)) return `1${s}`;
  if (/^1\d{10}$/.test(s) && NANP10.test(s.slice(1))) return s;
  const m = E164.exec(s);
  if (!m) return null;
  const digits = m[1] as string;
  if (digits.startsWith('1') && !(digits.length === 11 && NANP10.test(digits.slice(1))))
    return null;
  return digits;
}

export function parseLine(line: string, lineNo: number): LineResult {
  const text = line.trim();
  if (text === '' || text.startsWith('#')) return { kind: 'skip' };
  const fields = text.split(',').map((f) => f.trim().replace(/^"|"$/g, ''));
  let rest = fields.slice(1);
  let number = numberDigits(fields[0] ?? '');
  if (number === null && /^\d{3}$/.test(fields[0] ?? '') && /^\d{7}$/.test(fields[1] ?? '')) {
    number = numberDigits(`${fields[0]}${fields[1]}`);
    rest = fields.slice(2);
  }
  if (number === null) {
    if (lineNo === 1 && /[A-Za-z]/.test(fields[0] ?? '')) return { kind: 'skip' };
    return { kind: 'error', message: `not a phone number: ${(fields[0] ?? '').slice(0, 40)}` };
  }
  let state: string | null = null;
  let action: LineAction = 'add';
  for (const f of rest) {
    const upper = f.toUpperCase();
    const act = ACTIONS[f.toLowerCase()];
    // "A" and "D" are actions, never states (no state has those codes).
    if (act) action = act;
    else if (STATES.has(upper) && state === null) state = upper;
  }
  return { kind: 'entry', entry: { number, state, action } };
}

/** A line as read: its text, or, when it was longer than the cap, only its first characters. */
export interface Line {
  text: string;
  tooLong: boolean;
}

/** No accepted line format comes near this; a longer line is rejected, not held in memory. */
export const MAX_LINE_CHARS = 4096;

/**
 * Splits a byte stream into lines ended by LF, CRLF or a lone CR (old spreadsheets), in one pass:
 * each character is looked at once, and no more than one chunk and `maxChars` of a partial line
 * are held. A longer line is reported as too long (its first `maxChars` characters kept for the
 * message) and the rest of it skipped up to its end.
 */
export async function* lines(
  source: AsyncIterable<Buffer | string>,
  maxChars = MAX_LINE_CHARS,
): AsyncGenerator<Line> {
  const decoder = new TextDecoder();
  let carry = '';
  let tooLong = false;
  let afterCr = false;
  const take = (piece: string) => {
    if (tooLong) return;
    if (carry.length + piece.length > maxChars) {
      carry = carry + piece.slice(0, maxChars - carry.length);
      tooLong = true;
    } else carry += piece;
  };
  const end = (): Line => {
    const line = { text: carry, tooLong };
    carry = '';
    tooLong = false;
    return line;
  };
  for await (const chunk of source) {
    const text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    let start = 0;
    // A CRLF split across two chunks: the LF ends nothing.
    if (afterCr && text.charCodeAt(0) === 10) start = 1;
    afterCr = false;
    for (let i = start; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c !== 10 && c !== 13) continue;
      take(text.slice(start, i));
      yield end();
      if (c === 13) {
        if (i + 1 === text.length) afterCr = true;
        else if (text.charCodeAt(i + 1) === 10) i++;
      }
      start = i + 1;
    }
    take(text.slice(start));
  }
  take(decoder.decode());
  if (carry.length > 0 || tooLong) yield end();
}
