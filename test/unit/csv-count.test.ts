import { describe, expect, it } from 'vitest';
import { countCsvRecords, readCsv } from '../../src/domain/text/csv-reader.js';

async function records(text: string): Promise<number> {
  let n = 0;
  for await (const _ of readCsv(text)) n++;
  return n;
}

const CASES = [
  '',
  'a',
  'a,b\n1,2\n',
  'a,b\r\n1,2\r\n\r\n3,4',
  'a\r1\r2\r',
  '\ufeffe164\n+1\n',
  '\n\n\na\n\n',
  ',\n,,\n',
  'a,"x\ny"\n1,"2"\n',
  'a,"x""y"\n"""",b\n',
  'a,"x"y,z\n1\n',
  'a,b"c"\n"d\n',
  '"unterminated\n,\n',
  '"a"\r\n"b"\r"c"\n',
  'x,"\r\n"\r\ny\r',
];

describe('countCsvRecords', () => {
  it.each(CASES)('counts what readCsv reads: %j', async (text) => {
    expect(await countCsvRecords(text)).toBe(await records(text));
  });

  it('agrees with readCsv on random mixes of quotes, commas and line breaks', async () => {
    const alphabet = ['a', 'b', '"', ',', '\n', '\r', '\r\n', ' '];
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed;
    };
    for (let i = 0; i < 2000; i++) {
      const len = next() % 30;
      let text = '';
      for (let j = 0; j < len; j++) text += alphabet[next() % alphabet.length];
      expect(await countCsvRecords(text, 3), JSON.stringify(text)).toBe(await records(text));
    }
  });
});
