import { finished } from 'node:stream/promises';
import { CsvError, type Options, Parser } from 'csv-parse';
import { parse as parseText } from 'csv-parse/sync';

/** One CSV record and the physical line it starts on (1-based), for error reports. */
export interface CsvRecord {
  line: number;
  fields: string[];
  /** Set when the record is malformed (an unterminated quote, over the cap); `fields` are then partial or empty. */
  error?: string;
}

/** Far above any legitimate record (a consent row's evidence is at most 16 KiB). */
export const MAX_RECORD_CHARS = 64 * 1024;

const SLICE_CHARS = 64 * 1024;

export type CsvSource = string | AsyncIterable<string | Uint8Array>;

/**
 * csv-parse as the imports read files (RFC 4180, leniently): a leading byte-order mark is
 * dropped, blank lines are skipped, rows may differ in length, and a quote inside an unquoted
 * field is kept as it is. Line ends are made LF before parsing (`lineFeeds`), so CRLF, LF and a
 * lone CR each end a record, and a line break inside quotes is read as LF.
 */
const OPTIONS: Options = {
  bom: true,
  relax_quotes: true,
  relax_column_count: true,
  skip_empty_lines: true,
  record_delimiter: '\n',
  // An unterminated quote's error then carries the record's text (`unterminated`).
  raw: true,
};

/** The text in pieces with every CRLF and lone CR made LF, also when a CRLF spans two pieces. */
async function* lineFeeds(source: CsvSource): AsyncGenerator<string> {
  let lastWasCr = false;
  const piece = (text: string) => {
    const rest = lastWasCr && text.startsWith('\n') ? text.slice(1) : text;
    if (text.length > 0) lastWasCr = text.endsWith('\r');
    return rest.replace(/\r\n?/g, '\n');
  };
  if (typeof source === 'string') {
    // In slices, so that a caller can give the event loop a turn between them.
    for (let at = 0; at < source.length; at += SLICE_CHARS) {
      yield piece(source.slice(at, at + SLICE_CHARS));
    }
    return;
  }
  const decoder = new TextDecoder('utf-8');
  for await (const chunk of source) {
    yield piece(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
  }
  yield piece(decoder.decode());
}

const breaks = (text: string) => text.split('\n').length - 1;
const overlong = (line: number, maxChars: number): CsvRecord => ({
  line,
  fields: [],
  error: `record longer than ${maxChars} characters`,
});

/**
 * Every record of a CSV text or stream, in order. A record longer than `maxChars` is returned
 * as an error on its line and the next records are read; an unterminated quoted field at the
 * end is one record with its fields so far and an error.
 */
export async function* readCsv(
  source: CsvSource,
  maxChars = MAX_RECORD_CHARS,
): AsyncGenerator<CsvRecord> {
  // Records are taken as csv-parse finds them (`on_record`), so the ones before a final error
  // (an unterminated quote) are kept; the feeder waits while the reader is behind.
  const queue: CsvRecord[] = [];
  let wake: () => void = () => {};
  let changed = new Promise<void>((resolve) => {
    wake = resolve;
  });
  const notify = () => {
    wake();
    changed = new Promise<void>((resolve) => {
      wake = resolve;
    });
  };
  const parser = new Parser({
    ...OPTIONS,
    on_record: (value, context) => {
      // With `raw`, csv-parse hands the record with its text; the text is not kept.
      const record = Array.isArray(value) ? value : (value as { record: string[] }).record;
      // `lines` is the line the record ends on; line breaks inside quotes come before it.
      const line = context.lines - breaks(record.join(''));
      const chars = record.reduce((n, f) => n + f.length, 0);
      queue.push(chars > maxChars ? overlong(line, maxChars) : { line, fields: record });
      return null;
    },
  });
  let ended = false;
  let failure: unknown = null;
  const feeding = (async () => {
    for await (const piece of lineFeeds(source)) {
      parser.write(piece);
      notify();
      while (queue.length > 256) await changed;
    }
    parser.end();
    await finished(parser, { readable: false });
  })()
    .catch((err: unknown) => {
      failure = err;
    })
    .finally(() => {
      ended = true;
      notify();
    });
  try {
    for (;;) {
      const next = queue.shift();
      if (next) {
        notify();
        yield next;
      } else if (ended) break;
      else await changed;
    }
    if (failure !== null) yield unterminated(failure, maxChars);
  } finally {
    parser.destroy();
    await feeding;
  }
}

/** The last record when the text ends inside quotes; any other parser error is thrown. */
function unterminated(err: unknown, maxChars: number): CsvRecord {
  if (!(err instanceof CsvError) || err.code !== 'CSV_QUOTE_NOT_CLOSED') throw err;
  const raw = String((err as CsvError & { raw?: string }).raw ?? '');
  // `lines` counts a line break at the very end of the text only once a character follows it.
  const line = Number(err.lines) - breaks(raw.replace(/\n$/, ''));
  if (raw.length > maxChars) return overlong(line, maxChars);
  // The record as far as it goes: its open field closed where the text ends.
  const [fields] = parseText(`${raw}"`, { ...OPTIONS, raw: false }) as string[][];
  return { line, fields: fields ?? [], error: 'unterminated quoted field' };
}

/**
 * How many records `readCsv` finds in `text` (blank lines skipped, quoted line breaks kept, an
 * unterminated quote one record), without building them: a regular expression jumps to the
 * next quote, comma or line break, so a large file is counted in a small part of the time it
 * takes to read. For a progress total; gives the event loop a turn every `turnMatches` stops.
 */
export async function countCsvRecords(text: string, turnMatches = 200_000): Promise<number> {
  const special = /[",\r\n]/g;
  let records = 0;
  let quoted = false;
  let quoteSeen = false;
  let fieldStarted = false;
  let content = false;
  let lastWasCr = false;
  let from = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  special.lastIndex = from;
  let stops = 0;
  for (let m = special.exec(text); m !== null; m = special.exec(text)) {
    const ch = m[0];
    const plain = m.index > from; // characters other than these four since the last stop
    from = m.index + 1;
    if (plain) lastWasCr = false;
    if (quoted && quoteSeen && (plain || ch !== '"')) {
      quoted = false; // the quote seen was the closing one
      quoteSeen = false;
    }
    if (quoted) {
      if (quoteSeen)
        quoteSeen = false; // `""`
      else if (ch === '"') quoteSeen = true;
      continue; // a comma or a line break inside quotes
    }
    if (plain) {
      fieldStarted = true;
      content = true;
    }
    if (lastWasCr) {
      lastWasCr = false;
      if (ch === '\n') continue;
    }
    if (ch === ',') {
      content = true;
      fieldStarted = false;
    } else if (ch === '"') {
      if (!fieldStarted) quoted = true;
      fieldStarted = true;
      content = true;
    } else {
      lastWasCr = ch === '\r';
      if (content) records++;
      content = false;
      fieldStarted = false;
    }
    if (++stops % turnMatches === 0) await new Promise<void>((r) => setImmediate(r));
  }
  if (from < text.length && !quoted) content = true;
  if (quoted || content) records++;
  return records;
}
