import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SessionAttributes } from '../../src/domain/dni/ports.js';
import { sessionReportKeys } from '../../src/domain/reports/session-keys.js';
import { useHarness } from '../helpers/harness.js';

const h = useHarness();

// Values as requests bring them: absent, empty, padded, mixed case (ASCII and not), and URLs
// with and without a scheme, authority, path, query and fragment.
const word = fc.constantFrom(
  '',
  ' ',
  'Google',
  ' News ',
  '\tTab\n',
  '\u00a0nb',
  'ÉTÉ',
  'x y',
  'a?b',
  'q#r',
  'Ünï',
  'Facebook',
  ' FB ',
  'meta',
  'BING',
  'Microsoft',
  'face\tbook',
  'Google  Ads',
  'FACEBOO\u212a',
  'fb\n',
);
const value = fc.option(fc.oneof(word, fc.string({ maxLength: 12 })), { nil: undefined });
const url = fc.option(
  fc.oneof(
    fc.webUrl({ withQueryParameters: true, withFragments: true }),
    fc.constantFrom(
      '',
      '/',
      '/a/b?x=1',
      '?q',
      '#f',
      'https://ex.org',
      'HTTP://ex.org/p#x',
      'mailto:x',
      '1ab://c/d',
      'a+b.c-d://h/p?q',
    ),
    fc.string({ maxLength: 20 }),
  ),
  { nil: undefined },
);
const attrs = fc.record(
  {
    utm_source: value,
    utm_medium: value,
    utm_campaign: value,
    gclid: value,
    gbraid: value,
    wbraid: value,
    fbclid: value,
    fbc: value,
    msclkid: value,
    landing_url: url,
  },
  { requiredKeys: [] },
);

describe('the report keys the server works out for a new session', () => {
  it('are what report_source and report_path give for the same attributes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(attrs, { minLength: 1, maxLength: 30 }), async (batch) => {
        const a = batch as SessionAttributes[];
        const got = a.map(sessionReportKeys);
        const v = (k: keyof SessionAttributes) => a.map((x) => x[k] ?? null);
        const rows = await h.store.query<Record<string, string>>(
          `select report_source(u.s, u.g, u.gb, u.wb, u.f, u.fc, u.m) as source,
                  report_source_alias(lower(u.mine)) as mine,
                  coalesce(u.medium, '') as medium, coalesce(u.campaign, '') as utm_campaign,
                  coalesce(report_path(u.url), '') as landing_path
             from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[],
                         $7::text[], $8::text[], $9::text[], $10::text[], $11::text[])
                  with ordinality as u(s, g, gb, wb, f, fc, m, medium, campaign, url, mine, o)
            order by u.o`,
          [
            v('utm_source'),
            v('gclid'),
            v('gbraid'),
            v('wbraid'),
            v('fbclid'),
            v('fbc'),
            v('msclkid'),
            v('utm_medium'),
            v('utm_campaign'),
            v('landing_url'),
            got.map((k) => k.source),
          ],
        );
        // The server's source goes through the database's lower() and alias, as the batch
        // statement does.
        expect(got.map((k, i) => ({ ...k, source: rows[i]!.mine }))).toEqual(
          rows.map((r) => ({
            source: r.source,
            medium: r.medium,
            utmCampaign: r.utm_campaign,
            landingPath: r.landing_path,
          })),
        );
      }),
      { numRuns: 60 },
    );
  });
});
