import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  type ConversionRow,
  type ConversionSettings,
  collectExport,
  conversionSettings,
  conversionTime,
  DEFAULT_CONVERSION,
  type ExportProgress,
  exportConversions,
  googleAdsRow,
  META_MAX_AGE_MS,
  metaEvent,
} from '../../../src/domain/exports/index.js';
import { CONVERSION_CONFIG, EXPORT_NOW, FIXTURE, FIXTURE_ROWS } from './fixture.js';

const golden = (name: string) =>
  readFileSync(new URL(`../../golden/${name}`, import.meta.url), 'utf8');

async function* source(rows: ConversionRow[]) {
  yield* rows;
}

function settings(config: unknown = { conversion: CONVERSION_CONFIG }): ConversionSettings {
  const s = conversionSettings(config);
  if (!s.ok) throw new Error(s.problem);
  return s.settings;
}

describe('golden files', () => {
  it('writes the Google Ads offline conversion CSV', async () => {
    const e = exportConversions(source(FIXTURE_ROWS), {
      format: 'google-ads',
      settings: settings(),
      now: EXPORT_NOW,
    });
    expect(await collectExport(e)).toBe(golden('conversions-google-ads.csv'));
    expect(e.contentType).toBe('text/csv; charset=utf-8');
    expect(e.counts).toEqual({
      candidates: 4,
      exported: 2,
      skippedNoClickId: 2,
      skippedTooOld: 0,
    });
  });

  it('writes the Meta Conversions API events, leaving out and counting the old ones', async () => {
    const e = exportConversions(source(FIXTURE_ROWS), {
      format: 'meta',
      settings: settings(),
      now: EXPORT_NOW,
    });
    const text = await collectExport(e);
    expect(text).toBe(golden('conversions-meta.json'));
    expect(JSON.parse(text).data.map((d: { event_id: string }) => d.event_id)).toEqual([
      FIXTURE.b.eventId,
      FIXTURE.d.eventId,
    ]);
    expect(e.counts).toEqual({
      candidates: 4,
      exported: 2,
      skippedNoClickId: 1,
      skippedTooOld: 1,
    });
  });
});

describe('streaming', () => {
  it('reports progress per row and yields before the source is drained', async () => {
    let pulled = 0;
    async function* slow() {
      for (const row of FIXTURE_ROWS) {
        pulled++;
        yield row;
      }
    }
    const seen: ExportProgress[] = [];
    const e = exportConversions(slow(), {
      format: 'google-ads',
      settings: settings(),
      now: EXPORT_NOW,
      total: 4,
      onProgress: (p) => seen.push(p),
    });
    const header = await e.chunks.next();
    expect(header.value).toContain('Google Click ID');
    expect(pulled).toBe(0);
    const first = await e.chunks.next();
    expect(first.value).toContain(FIXTURE.a.gclid);
    expect(pulled).toBe(2);
    for await (const _ of e.chunks) {
      // drain
    }
    expect(seen).toEqual([1, 2, 3, 4].map((done) => ({ done, total: 4 })));
  });

  it('writes valid, empty files for no rows', async () => {
    for (const format of ['google-ads', 'meta'] as const) {
      const e = exportConversions(source([]), { format, settings: settings(), now: EXPORT_NOW });
      const text = await collectExport(e);
      if (format === 'meta') expect(JSON.parse(text)).toEqual({ data: [] });
      else expect(text.trim().split('\n')).toHaveLength(2);
      expect(e.counts.candidates).toBe(0);
    }
  });
});

describe('Google Ads rows', () => {
  it.each([
    ['UTC', '2026-03-02 15:01:00+0000'],
    ['Asia/Kolkata', '2026-03-02 20:31:00+0530'],
    ['America/St_Johns', '2026-03-02 11:31:00-0330'],
    ['Pacific/Chatham', '2026-03-03 04:46:00+1345'],
  ])('writes the conversion time in %s with its offset', (zone, expected) => {
    expect(conversionTime(FIXTURE.a.startedAt, zone)).toBe(expected);
  });

  it('writes midnight as 00, not 24', () => {
    expect(conversionTime(new Date('2026-03-03T05:00:00Z'), 'America/New_York')).toBe(
      '2026-03-03 00:00:00-0500',
    );
  });

  it('guards a conversion name a spreadsheet would run', () => {
    const s = { ...settings(), name: '=cmd' };
    expect(googleAdsRow(FIXTURE.a, s)?.split(',')[1]).toBe("'=cmd");
  });

  it('skips a gclid Google never issues, such as a spreadsheet formula', () => {
    const s = settings();
    expect(googleAdsRow({ ...FIXTURE.a, gclid: '=HYPERLINK("http://x")' }, s)).toBeNull();
    expect(googleAdsRow({ ...FIXTURE.a, gclid: 'abc def' }, s)).toBeNull();
    expect(googleAdsRow({ ...FIXTURE.a, gclid: 'Cj0KCQ_abc-123' }, s)).not.toBeNull();
  });
});

describe('Meta events', () => {
  it('keeps an event exactly 7 days old and leaves out one a second older', () => {
    const s = settings();
    const at = (ms: number) => ({ ...FIXTURE.b, startedAt: new Date(EXPORT_NOW.getTime() - ms) });
    expect('event' in metaEvent(at(META_MAX_AGE_MS), s, EXPORT_NOW)).toBe(true);
    expect(metaEvent(at(META_MAX_AGE_MS + 1000), s, EXPORT_NOW)).toEqual({ skipped: 'too_old' });
  });

  it('sends both browser ids when the session has both, and the configured event name', () => {
    const s = settings({ conversion: { meta_event_name: 'QualifiedCall', value: 3 } });
    const r = metaEvent({ ...FIXTURE.d, fbp: 'fb.1.1.2' }, s, EXPORT_NOW);
    expect(r).toEqual({
      event: {
        event_name: 'QualifiedCall',
        event_time: FIXTURE.d.startedAt.getTime() / 1000,
        event_id: FIXTURE.d.eventId,
        action_source: 'phone_call',
        user_data: { fbc: FIXTURE.d.fbc, fbp: 'fb.1.1.2' },
        custom_data: { value: 3, currency: 'USD' },
      },
    });
  });
});

describe('conversion settings', () => {
  it('defaults every field', () => {
    expect(conversionSettings({})).toEqual({ ok: true, settings: DEFAULT_CONVERSION });
    expect(DEFAULT_CONVERSION).toEqual({
      name: 'Phone call',
      value: 0,
      currency: 'USD',
      metaEventName: 'Lead',
      timeZone: 'UTC',
    });
  });

  it.each([
    [{ conversion: 'x' }, 'config.conversion must be an object'],
    [{ conversion: { name: '' } }, 'conversion.name must be 1-100 characters'],
    [{ conversion: { value: -1 } }, 'conversion.value must be a number >= 0'],
    [{ conversion: { value: '5' } }, 'conversion.value must be a number >= 0'],
    [
      { conversion: { currency: 'usd' } },
      'conversion.currency must be an ISO 4217 code such as USD',
    ],
    [
      { conversion: { time_zone: 'Mars/Base' } },
      'conversion.time_zone must be an IANA time zone name',
    ],
    [{ conversion: { meta_event_name: 7 } }, 'conversion.meta_event_name must be 1-50 characters'],
  ])('refuses %j', (config, problem) => {
    expect(conversionSettings(config)).toEqual({ ok: false, problem });
  });
});
