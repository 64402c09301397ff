/** One CSV record and the physical line it starts on (1-based), for error reports. */
export interface CsvRecord {
  line: number;
  fields: string[];
  /** Set when the record is malformed (an unterminated quote); `fields` are then partial. */
  error?: string;
}

/** Far above any legitimate record (a consent row's evidence is at most 16 KiB). */
export const MAX_RECORD_CHARS = 64 * 1024;

/**
 * An incremental RFC 4180 reader: feed chunks as they arrive (a file stream, a request body),
 * get complete records back. Quoted fields may hold commas, `""` and line breaks; CRLF, LF and
 * a lone CR end a record; blank lines are skipped; a leading byte-order mark is dropped. A
 * record longer than `maxChars` is returned as an error and its text is not kept, so a file
 * without line breaks (or with an unclosed quote) costs no more memory than a short record.
 */
export class CsvReader {
  /** Characters of the current record so far, and whether it went over the cap. */
  private recordChars = 0;
  private overlong = false;

  constructor(private readonly maxChars = MAX_RECORD_CHARS) {}

  private field = '';
  private fields: string[] = [];
  private quoted = false;
  /** Just saw a quote inside a quoted field: either `""` or the closing quote. */
  private quoteSeen = false;
  private fieldStarted = false;
  private line = 1;
  private recordLine = 1;
  private started = false;
  private lastWasCr = false;

  push(chunk: string): CsvRecord[] {
    const out: CsvRecord[] = [];
    let text = chunk;
    if (!this.started && text.length > 0) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    for (let i = 0; i < text.length; i++) {
      const ch = text[i] as string;
      if (this.lastWasCr) {
        this.lastWasCr = false;
        if (ch === '\n') continue;
      }
      if (++this.recordChars > this.maxChars && !this.overlong) {
        this.overlong = true;
        this.fields = [];
        this.field = '';
      }
      if (this.quoted) {
        if (this.quoteSeen) {
          this.quoteSeen = false;
          if (ch === '"') {
            this.field += '"';
            continue;
          }
          this.quoted = false; // the closing quote; fall through to unquoted handling
        } else if (ch === '"') {
          this.quoteSeen = true;
          continue;
        } else {
          if (ch === '\n' || ch === '\r') {
            this.line++;
            this.lastWasCr = ch === '\r';
            if (!this.overlong) this.field += '\n';
          } else if (!this.overlong) this.field += ch;
          continue;
        }
      }
      if (ch === ',') {
        this.endField();
      } else if (ch === '\n' || ch === '\r') {
        this.lastWasCr = ch === '\r';
        this.endRecord(out);
        this.line++;
        this.recordLine = this.line;
      } else if (ch === '"' && !this.fieldStarted) {
        this.quoted = true;
        this.fieldStarted = true;
      } else {
        if (!this.overlong) this.field += ch;
        this.fieldStarted = true;
      }
    }
    return out;
  }

  /** The last record when the input does not end with a line break. */
  end(): CsvRecord[] {
    const out: CsvRecord[] = [];
    if (this.quoted && !this.quoteSeen && !this.overlong) {
      this.endField();
      out.push({ line: this.recordLine, fields: this.fields, error: 'unterminated quoted field' });
      this.fields = [];
      return out;
    }
    this.quoted = false;
    this.endRecord(out);
    return out;
  }

  private endField(): void {
    this.fields.push(this.field);
    this.field = '';
    this.fieldStarted = false;
  }

  private endRecord(out: CsvRecord[]): void {
    if (this.overlong) {
      const error = `record longer than ${this.maxChars} characters`;
      out.push({ line: this.recordLine, fields: [], error });
      this.overlong = false;
    } else this.keepRecord(out);
    this.recordChars = 0;
    this.fields = [];
    this.field = '';
    this.fieldStarted = false;
  }

  private keepRecord(out: CsvRecord[]): void {
    const blank = this.fields.length === 0 && this.field === '' && !this.fieldStarted;
    if (!blank) {
      this.endField();
      out.push({ line: this.recordLine, fields: this.fields });
    }
  }
}

const SLICE_CHARS = 64 * 1024;

export type CsvSource = string | AsyncIterable<string | Uint8Array>;

/** Every record of a CSV text or stream, in order. */
export async function* readCsv(source: CsvSource): AsyncGenerator<CsvRecord> {
  const reader = new CsvReader();
  if (typeof source === 'string') {
    // In slices, so that a caller can give the event loop a turn between them.
    for (let at = 0; at < source.length; at += SLICE_CHARS) {
      yield* reader.push(source.slice(at, at + SLICE_CHARS));
    }
  } else {
    const decoder = new TextDecoder('utf-8');
    for await (const chunk of source) {
      yield* reader.push(
        typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }),
      );
    }
    yield* reader.push(decoder.decode());
  }
  yield* reader.end();
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
