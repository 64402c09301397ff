import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { consentRow } from '../../../src/domain/consents/csv-rows.js';
import { readCsv } from '../../../src/domain/text/csv-reader.js';

const all = async (source: Parameters<typeof readCsv>[0]) => {
  const out = [];
  for await (const r of readCsv(source)) out.push(r);
  return out;
};

async function* chunks(text: string, size: number) {
  for (let i = 0; i < text.length; i += size)
    yield new TextEncoder().encode(text.slice(i, i + size));
}

describe('CsvReader', () => {
  it('reads quotes, doubled quotes, commas and line breaks inside quotes, CRLF and a BOM', async () => {
    const text = '\ufeffa,b\r\n"x, y","say ""hi"""\n"two\nlines",z\n\n last,\n';
    expect(await all(text)).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 2, fields: ['x, y', 'say "hi"'] },
      { line: 3, fields: ['two\nlines', 'z'] },
      { line: 6, fields: [' last', ''] },
    ]);
  });

  it('reports an unterminated quote on the line where the record starts', async () => {
    expect(await all('a\n"open,b\nc')).toEqual([
      { line: 1, fields: ['a'] },
      { line: 2, fields: ['open,b\nc'], error: 'unterminated quoted field' },
    ]);
  });

  it('gives the same records however the input is split (streams, multi-byte characters)', async () => {
    const field = fc.oneof(fc.string(), fc.constantFrom('a,b', 'q"q', 'x\ny', 'é€', ''));
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(field, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 1, max: 7 }),
        async (rows, size) => {
          const text = rows
            .map((r) => r.map((f) => `"${f.replace(/"/g, '""')}"`).join(','))
            .join('\r\n');
          const whole = await all(text);
          const split = await all(chunks(text, size));
          expect(split).toEqual(whole);
          expect(whole.map((r) => r.fields)).toEqual(rows);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps state between chunks (a doubled quote and a CRLF split across them)', async () => {
    async function* parts() {
      yield 'a,"b';
      yield '""",c\r';
      yield '\nd';
    }
    expect(await all(parts())).toEqual([
      { line: 1, fields: ['a', 'b"', 'c'] },
      { line: 2, fields: ['d'] },
    ]);
  });
});

describe('consentRow', () => {
  const now = Date.parse('2026-03-02T15:00:00Z');
  const header = ['e164', 'kind', 'tier', 'basis', 'captured_at', 'reason', 'evidence'];

  it('turns a grant row into an event, defaulting captured_at to now', () => {
    const r = consentRow(header, ['+12125550123', '', 'pec', '', '', '', ''], 2, now);
    expect(r).toEqual({
      line: 2,
      ok: true,
      event: {
        e164: '+12125550123',
        kind: 'grant',
        tier: 'pec',
        ebrBasis: null,
        source: null,
        capturedAt: new Date(now),
        expiresAt: null,
        evidence: {},
        reason: null,
      },
    });
  });

  it('rejects grant-only columns on revocation rows', () => {
    const r = consentRow(
      header,
      ['+12125550123', 'revoked', 'pewc', 'inquiry', '', '', ''],
      3,
      now,
    );
    expect(r).toEqual({
      line: 3,
      ok: false,
      errors: ['tier: applies to grants only', 'basis: applies to grants only'],
    });
  });

  it('checks timestamps and kinds', () => {
    const r = consentRow(header, ['+12125550123', 'stop', '', '', 'yesterday', '', ''], 4, now);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.errors).toEqual([
      'kind: must be one of grant, revoked, opt_out, internal_dnc',
      'captured_at: must be an ISO 8601 timestamp with a zone',
    ]);
  });
});
