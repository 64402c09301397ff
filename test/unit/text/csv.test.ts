import { describe, expect, it } from 'vitest';
import { csvCell, csvStream, csvText } from '../../../src/domain/text/csv.js';
import { HOSTILE_PREFIXES } from '../../helpers/csv-hostile.js';

describe('csvCell', () => {
  it.each(HOSTILE_PREFIXES)('guards a cell starting with %j', (prefix) => {
    const v = `${prefix}HYPERLINK("http://evil")`;
    expect(csvCell(v)).toBe(`'${v}`);
  });

  it('guards a formula behind a byte-order mark', () => {
    expect(csvCell('\ufeff=1')).toBe("'\ufeff=1");
  });

  it('guards a tab or a line break first, even before plain text', () => {
    expect(csvCell('\tx')).toBe("'\tx");
    expect(csvCell('\nx')).toBe("'\nx");
  });

  it('writes an E.164 phone number as it is, and guards a plus with anything else', () => {
    expect(csvCell('+15551234567')).toBe('+15551234567');
    expect(csvCell('+442071838750')).toBe('+442071838750');
    expect(csvCell('+1 555 123')).toBe("'+1 555 123");
    expect(csvCell('+1-555')).toBe("'+1-555");
    expect(csvCell('+1+1')).toBe("'+1+1");
  });

  it('leaves plain text, a leading space before text and inner formula characters alone', () => {
    expect(csvCell('/landing')).toBe('/landing');
    expect(csvCell(' hi')).toBe(' hi');
    expect(csvCell('a=b')).toBe('a=b');
  });

  it('shows bidirectional controls as the console HTML does', () => {
    expect(csvCell('abc\u202edcba')).toBe('abc[U+202E]dcba');
    expect(csvCell('\u2066x\u2069')).toBe('[U+2066]x[U+2069]');
    // Shown first, so a control cannot hide a formula behind it.
    expect(csvCell('\u200f=1')).toBe('[U+200F]=1');
  });
});

describe('csvText and csvStream', () => {
  const rows = [
    ['name', 'n', 'ok'],
    ['a,b', -4, true],
    ['two\nlines', null, false],
    ['say "hi"', 1.5, undefined],
  ];
  const expected = 'name,n,ok\r\n"a,b",-4,true\r\n"two\nlines",,false\r\n"say ""hi""",1.5,\r\n';

  it('quotes as RFC 4180 asks, numbers unguarded', () => {
    expect(csvText(rows)).toBe(expected);
    expect(csvText([['x', "'=1"]], '\n')).toBe("x,'=1\n");
  });

  it('streams the same text from an async source', async () => {
    async function* source() {
      for (const r of rows) yield r;
    }
    let out = '';
    for await (const chunk of csvStream(source())) out += chunk;
    expect(out).toBe(expected);
  });
});
