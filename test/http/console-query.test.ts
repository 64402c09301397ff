import { describe, expect, it } from 'vitest';
import { LOGIN_LIMITS } from '../../src/domain/console/accounts.js';
import { makeUser, signIn, useConsole } from '../helpers/console.js';
import { adminCall, createTenant, useHarness } from '../helpers/harness.js';

/**
 * What a query string can do to a console page: name a table, a notice or a
 * date. Names are looked up as the page's own (never Object.prototype's);
 * dates outside what the console shows, or a range longer than it shows, are
 * said on the page; nothing is a 500.
 */
const h = useHarness();
const c = useConsole(h);

async function setup() {
  h.clock.advance(LOGIN_LIMITS.windowMs / 1000);
  const t = await createTenant(h);
  const call = await adminCall(h, 'POST', `/admin/orgs/${t.orgId}/calls`, {
    to: t.numbers[0],
    from: '+13125550100',
  });
  const operator = await signIn(c.app, (await makeUser(h, 'operator')).email);
  const pages = [
    `/orgs/${t.orgId}/overview`,
    `/orgs/${t.orgId}/calls`,
    `/orgs/${t.orgId}/calls/${call.call_id}`,
    `/orgs/${t.orgId}/campaigns`,
    `/orgs/${t.orgId}/campaigns/${t.code}`,
    `/orgs/${t.orgId}/compliance`,
    `/orgs/${t.orgId}/webhooks`,
    `/orgs/${t.orgId}/people`,
    '/account',
    '/operator/orgs',
    `/operator/orgs/${t.orgId}`,
    '/operator/users',
  ];
  return { t, operator, pages };
}

const PROTOTYPE_NAMES = [
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '__defineGetter__',
];

describe('names in the query string are the page’s own', () => {
  it('?format=csv&table=<an Object.prototype name> is a 404 on every page', async () => {
    const { operator, pages } = await setup();
    for (const page of pages) {
      for (const name of PROTOTYPE_NAMES) {
        const res = await operator.get(`${page}?format=csv&table=${name}`);
        expect([page, name, res.statusCode]).toEqual([page, name, 404]);
      }
    }
  });

  it('?notice=<an Object.prototype name> shows no notice', async () => {
    const { operator, pages } = await setup();
    for (const page of pages) {
      for (const name of PROTOTYPE_NAMES) {
        const res = await operator.get(`${page}?notice=${name}`);
        expect([page, name, res.statusCode]).toEqual([page, name, 200]);
        expect(res.body).not.toMatch(/\[native code\]|\[object /);
      }
    }
  });

  it('repeated keys are read once, not as a list', async () => {
    const { t, operator } = await setup();
    const res = await operator.get(
      `/orgs/${t.orgId}/calls?format=csv&table=calls&table=calls&from=2026-01-01&from=x`,
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
  });
});

describe('dates in the query string', () => {
  it('a date outside what the console shows is said on every organization page, never a 500', async () => {
    const { operator, pages } = await setup();
    const orgPages = pages.filter((p) => p.startsWith('/orgs/'));
    const shown = new Set<string>();
    for (const query of [
      'to=9999-12-31',
      'from=0001-01-01',
      'from=0000-01-01&to=0000-01-07',
      'to=1899-12-31',
      'from=2026-02-31',
      'to=2026-13-01',
    ]) {
      for (const page of orgPages) {
        const res = await operator.get(`${page}?${query}`);
        expect([page, query, res.statusCode]).toEqual([page, query, 200]);
        // Said where the page shows a range; the pages without one do not read it.
        const ranged = res.body.includes('class="range"');
        expect(res.body.includes('is not a date this console shows'), `${page}?${query}`).toBe(
          ranged,
        );
        if (ranged) shown.add(page.split('/')[3]!);
      }
      const csv = await operator.get(`${orgPages[1]}?${query}&format=csv&table=calls`);
      expect([query, csv.statusCode]).toEqual([query, 200]);
    }
    expect([...shown]).toEqual(expect.arrayContaining(['calls', 'campaigns', 'overview']));
  });

  it('a range longer than the console shows is cut, and the page says so', async () => {
    const { t, operator } = await setup();
    const res = await operator.get(`/orgs/${t.orgId}/overview?from=2020-01-01&to=2026-11-20`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('A range shows at most 400 days: 2025-10-17 to 2026-11-20.');
    const fine = await operator.get(`/orgs/${t.orgId}/overview?from=2026-01-01&to=2026-11-20`);
    expect(fine.body).not.toContain('at most 400 days');
    expect(fine.body).not.toContain('is not a date this console shows');
  });
});
