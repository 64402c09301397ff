import { Readable } from 'node:stream';
import { type Options, stringify } from 'csv-stringify';
import { stringify as stringifyText } from 'csv-stringify/sync';
import { showBidi } from './bidi.js';

/**
 * The one CSV writer of the service (console tables, reports, conversion exports): RFC 4180
 * quoting by csv-stringify, and every text cell made safe to open in a spreadsheet.
 */

export type CsvValue = string | number | boolean | Date | null | undefined;

/**
 * What a spreadsheet skips before it looks for a formula: Unicode white space (the no-break
 * spaces, U+3000, line and paragraph separators, …) and the zero-width characters.
 */
const LEADING_BLANK = /^[\s\u180e\u200b-\u200d\u2060\ufeff]+/u;
/** A formula's first character: = + - @, their fullwidth and small forms, and the minus sign. */
const FORMULA_START = /^[=+\-@\uff1d\uff0b\uff0d\uff20\ufe62\ufe63\ufe66\ufe6b\u2212]/u;
/** A phone number in E.164 (a plus, then digits only): written as it is, never a formula. */
const E164 = /^\+[1-9]\d{1,14}$/;

/** A tab, carriage return or line feed first is a formula trigger of its own in some spreadsheets. */
const CONTROL_START = /^[\t\r\n]/;

/**
 * A text cell as written: bidirectional controls shown as the console's HTML shows them
 * (`[U+202E]`), then a leading apostrophe when the cell starts with a tab or a line break, or
 * with a formula's first character once the blanks a spreadsheet trims are trimmed (CSV
 * injection). An E.164 phone number is written as it is.
 */
export function csvCell(value: string): string {
  const s = showBidi(value);
  if (E164.test(s)) return s;
  return CONTROL_START.test(s) || FORMULA_START.test(s.replace(LEADING_BLANK, '')) ? `'${s}` : s;
}

const options = (lineEnd: '\r\n' | '\n'): Options => ({
  record_delimiter: lineEnd === '\r\n' ? 'windows' : 'unix',
  // A line break of either kind inside a cell is quoted (csv-stringify quotes only the record's).
  quoted_match: /[\r\n]/,
  cast: {
    string: csvCell,
    number: String,
    bigint: String,
    boolean: String,
    date: (d) => d.toISOString(),
  },
});

/** Rows as CSV text, each row ending with `lineEnd` (RFC 4180's CRLF unless told). */
export function csvText(rows: readonly CsvValue[][], lineEnd: '\r\n' | '\n' = '\r\n'): string {
  return stringifyText(rows as CsvValue[][], options(lineEnd));
}

/**
 * Rows as a CSV stream, read as the reader consumes it: a large file is never one string, and
 * each chunk lets the event loop answer other requests in between.
 */
export function csvStream(
  rows: Iterable<CsvValue[]> | AsyncIterable<CsvValue[]>,
  lineEnd: '\r\n' | '\n' = '\r\n',
): Readable {
  return Readable.from(rows, { objectMode: true }).pipe(stringify(options(lineEnd)));
}
