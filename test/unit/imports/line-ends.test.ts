import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Line, lines } from '../../../src/domain/suppression/lines.js';
import { readCsv } from '../../../src/domain/text/csv-reader.js';

async function* pieces(text: string, cuts: number[]) {
  let at = 0;
  for (const cut of [...cuts, text.length]) {
    if (cut <= at) continue;
    yield Buffer.from(text.slice(at, cut));
    at = cut;
  }
}
const all = async <T>(it: AsyncIterable<T>) => {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
};
const texts = (ls: Line[]) => ls.map((l) => (l.tooLong ? `TOO LONG ${l.text.length}` : l.text));

describe('suppression lines: LF, CRLF and a lone CR each end a line', () => {
  const file = 'a\nb\r\nc\rd\r\re\n\nf';
  const expected = ['a', 'b', 'c', 'd', '', 'e', '', 'f'];

  it('in one chunk', async () => {
    expect(texts(await all(lines(pieces(file, []))))).toEqual(expected);
  });

  it('whatever the chunk boundaries (a CRLF split across two chunks is one line end)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat(file.length), { maxLength: 6 }), async (cuts) => {
        const got = texts(
          await all(
            lines(
              pieces(
                file,
                cuts.sort((x, y) => x - y),
              ),
            ),
          ),
        );
        expect(got).toEqual(expected);
      }),
    );
  });
});

describe('suppression lines: a line over the cap', () => {
  it('is reported once, with its first characters, and the lines after it are read', async () => {
    const long = '1'.repeat(10_000);
    const got = await all(lines(pieces(`+14155550123\r${long}\r+14155550124`, [5000, 9000]), 4096));
    expect(texts(got)).toEqual(['+14155550123', 'TOO LONG 4096', '+14155550124']);
  });

  it('a file without any line break is one too-long line, never held whole', async () => {
    async function* noBreaks() {
      for (let i = 0; i < 256; i++) yield Buffer.alloc(64 * 1024, '7');
    }
    expect(texts(await all(lines(noBreaks(), 4096)))).toEqual(['TOO LONG 4096']);
  });
});

describe('CSV records: a lone CR ends a record, and a record over the cap is one error', () => {
  it('reads CR-only files', async () => {
    expect((await all(readCsv('a,b\rc,d\re,f'))).map((r) => r.fields)).toEqual([
      ['a', 'b'],
      ['c', 'd'],
      ['e', 'f'],
    ]);
  });

  it('a record longer than 64 KiB is an error on its line; the next records are read', async () => {
    const long = `"${'x'.repeat(70_000)}"`;
    expect(await all(readCsv(`e164\r${long}\r+14155550123\r`))).toEqual([
      { line: 1, fields: ['e164'] },
      { line: 2, fields: [], error: 'record longer than 65536 characters' },
      { line: 3, fields: ['+14155550123'] },
    ]);
  });

  it('an unclosed quote swallowing the rest of a big file is one error', async () => {
    const rest = '+14155550123\n'.repeat(10_000);
    expect(await all(readCsv(`e164\n"${rest}`))).toEqual([
      { line: 1, fields: ['e164'] },
      { line: 2, fields: [], error: 'record longer than 65536 characters' },
    ]);
  });
});
