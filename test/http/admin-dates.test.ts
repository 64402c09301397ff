import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, createTenant, useHarness } from '../helpers/harness.js';

/**
 * Timestamps in the admin API's query strings and bodies: a date the
 * database cannot hold, or one no report of this service can mean, is a 422
 * naming the field, never a 500.
 */
const h = useHarness();

const get = (url: string) =>
  h.admin.inject({ method: 'GET', url, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });

const OUT_OF_RANGE = [
  '9999-12-31T23:00:00-05:00', // year 10000 in UTC
  '9999-12-31T00:00:00Z',
  '0000-01-01T00:00:00Z',
  '1899-12-31T00:00:00Z',
];
const NOT_A_DAY = ['2026-02-31T00:00:00Z', '2026-13-01T00:00:00Z', '2026-01-01T24:30:00Z'];

describe('timestamps outside what the service holds are 422', () => {
  it('in a report’s from and to, and a list’s since and until', async () => {
    const t = await createTenant(h);
    const urls = (v: string) => [
      [`/admin/orgs/${t.orgId}/reports/traffic?to=${encodeURIComponent(v)}&bucket=none`, 'to'],
      [`/admin/orgs/${t.orgId}/reports/traffic?from=${encodeURIComponent(v)}&bucket=none`, 'from'],
      [`/admin/orgs/${t.orgId}/calls?since=${encodeURIComponent(v)}`, 'since'],
      [`/admin/orgs/${t.orgId}/calls?until=${encodeURIComponent(v)}`, 'until'],
    ];
    for (const v of [...OUT_OF_RANGE, ...NOT_A_DAY]) {
      for (const [url, field] of urls(v)) {
        const res = await get(url!);
        expect([url, res.statusCode]).toEqual([url, 422]);
        const [error] = res.json().detail;
        expect(error.loc).toEqual(['query', field]);
        expect(error.msg).toMatch(
          OUT_OF_RANGE.includes(v)
            ? /between 1970 and the end of 2999|ISO 8601/
            : /must be an ISO 8601 timestamp/,
        );
      }
    }
    // The edges that are fine.
    for (const v of ['1970-01-01T00:00:00Z', '2999-12-24T00:00:00Z']) {
      const res = await get(
        `/admin/orgs/${t.orgId}/reports/traffic?to=${encodeURIComponent(v)}&bucket=none`,
      );
      expect([v, res.statusCode]).toEqual([v, 200]);
    }
  });
});
