import { describe, expect, it } from 'vitest';
import { LOGIN_LIMITS } from '../../src/domain/console/accounts.js';
import { makeUser, signIn, useConsole } from '../helpers/console.js';
import { adminCall, createTenant, dni, useHarness } from '../helpers/harness.js';

/**
 * The console's calls name a call's source as reports do (docs/reporting.md): the session's
 * utm_source trimmed and lowercased, else its click id's network; a source typed with spaces or
 * capitals is one row in a report and the same word on the call's page.
 */
const h = useHarness();
const c = useConsole(h);

// Landing pages' queries (the UTMs and click ids the service reads from them), and the source.
const VISITS = [
  { query: '?utm_source=%20%20Google%20&gclid=g-1', want: 'google' },
  { query: '?utm_source=%20%20%20&msclkid=m-1', want: 'microsoft' },
  { query: '?utm_source=NewsLetter&utm_medium=email', want: 'newsletter' },
  { query: '', want: 'direct' },
];

describe('a call’s source on the console', () => {
  it('is the report’s source key: trimmed, lowercased, the click id’s network when blank', async () => {
    h.clock.advance(LOGIN_LIMITS.windowMs / 1000);
    const t = await createTenant(h, { numbers: VISITS.length });
    const from = new Date(h.clock.now()).toISOString();
    const callIds: string[] = [];
    for (const [i, { query }] of VISITS.entries()) {
      const res = await dni(h, t.key, {
        campaign_code: t.code,
        visitor_id: `v${i}`,
        landing_url: `https://shop.example/p${query}`,
      });
      expect(res.statusCode, res.body).toBe(201);
      const call = await adminCall(h, 'POST', `/admin/orgs/${t.orgId}/calls`, {
        to: res.json().tracking_number,
        from: `+1312555010${i}`,
      });
      callIds.push(call.call_id);
    }
    // A call no session explains.
    await adminCall(h, 'POST', `/admin/orgs/${t.orgId}/campaigns/${t.code}/numbers`, {
      numbers: ['+14155550777'],
    });
    const lone = await adminCall(h, 'POST', `/admin/orgs/${t.orgId}/calls`, {
      to: '+14155550777',
      from: '+13125550199',
    });
    h.clock.advance(60);
    const to = new Date(h.clock.now()).toISOString();

    const viewer = await signIn(c.app, (await makeUser(h, 'viewer', t.orgId)).email);
    const sourceOnPage = async (id: string) => {
      const page = await viewer.get(`/orgs/${t.orgId}/calls/${id}`);
      expect(page.statusCode).toBe(200);
      return /<dt>Source<\/dt>\s*<dd>([^<]*)<\/dd>/.exec(page.body)?.[1];
    };
    for (const [i, v] of VISITS.entries()) expect(await sourceOnPage(callIds[i]!)).toBe(v.want);
    expect(await sourceOnPage(lone.call_id)).toBe('unattributed');

    // The calls CSV says the same, and the report counts a call under each of those words.
    const csv = await viewer.get(`/orgs/${t.orgId}/calls?format=csv&table=calls`);
    const report = await adminCall(
      h,
      'GET',
      `/admin/orgs/${t.orgId}/reports/traffic?from=${from}&to=${to}&bucket=none&group_by=source`,
    );
    const calls = Object.fromEntries(
      report.rows.map((r: { source: string; calls: number }) => [r.source, r.calls]),
    );
    const words = [...VISITS.map((v) => v.want), 'unattributed'];
    expect(calls).toEqual(Object.fromEntries(words.map((w) => [w, 1])));
    for (const w of words) expect(csv.body).toContain(`,${w},`);
  });
});
