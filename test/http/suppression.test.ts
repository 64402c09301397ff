import { beforeAll, describe, expect, it } from 'vitest';
import { buildAdminApp, buildApp } from '../../src/app.js';
import { noteText, suppressionListNotes } from '../../src/domain/suppression/freshness.js';
import { storeCheck } from '../../src/http/readiness.js';
import { suppressionListCheck } from '../../src/runtime.js';
import { checkConformance } from '../helpers/conformance.js';
import { ADMIN_TOKEN, adminCall, type Harness, json, useHarness } from '../helpers/harness.js';
import {
  adminInject,
  freshContact,
  grant,
  importNationalList,
  outboundTenant,
  touch,
  WEEKDAY_MORNING_ET,
} from '../helpers/outbound.js';

const h: Harness = useHarness({
  privateDatabase: "/readyz reads every organization's national list dates",
});
beforeAll(async () => {
  h.clock.set(WEEKDAY_MORNING_ET);
});

const entryUrl = (org: string, list: string, e164: string) =>
  `/admin/orgs/${org}/suppression/${list}/${encodeURIComponent(e164)}`;
const upload = (org: string, list: string, file: string, query = '', type = 'text/plain') =>
  h.admin.inject({
    method: 'POST',
    url: `/admin/orgs/${org}/suppression/${list}/import${query}`,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': type },
    payload: file,
  });
const del = (org: string, list: string, e164: string, body: unknown) =>
  h.admin.inject({
    method: 'DELETE',
    url: entryUrl(org, list, e164),
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
const place = (t: { key: string; code: string }, to: string, basis: string, dry = true) =>
  touch(h, t.key, t.code, { to_e164: to, channel: 'call', consent_basis: basis, dry_run: dry });
const audit = (org: string, action: string) =>
  h.store.query<{ detail: Record<string, unknown> }>(
    'select detail from audit_log where org_id = $1 and action = $2 order by at',
    [org, action],
  );

describe('import', () => {
  it('imports every accepted line format and reports rejected lines', async () => {
    const org = (await adminCall(h, 'POST', '/admin/orgs', { name: 'Lists' })).org_id;
    const [a, b, c] = [freshContact(), freshContact(), freshContact()];
    const file = [
      'phone',
      a,
      b.slice(2),
      `${c.slice(2, 5)},${c.slice(5)}`,
      '# a comment',
      '',
      '12345',
      '+4420712345678',
    ].join('\r\n');
    const res = await upload(org, 'national', file, '?list_date=2026-02-28&source=ftc');
    expect(res.statusCode).toBe(200);
    expect(json(res)).toMatchObject({
      list: 'national',
      mode: 'add',
      listed_on: '2026-02-28',
      rows: 5,
      added: 4,
      removed: 0,
      rejected_count: 1,
      rejected: [{ line: 7, error: 'not a phone number: 12345' }],
    });
    const got = await adminCall(h, 'GET', entryUrl(org, 'national', c));
    expect(got).toEqual({
      org_id: org,
      list: 'national',
      e164: c,
      state: null,
      source: 'ftc',
      list_date: '2026-02-28',
      added_at: '2026-03-02T15:00:00.000Z',
    });
    expect(await audit(org, 'suppression.imported')).toHaveLength(1);
  });

  it('applies change files (add and delete) and full files that replace an area code', async () => {
    const org = (await adminCall(h, 'POST', '/admin/orgs', { name: 'Change' })).org_id;
    const [a, b, c] = [freshContact(212), freshContact(212), freshContact(305)];
    await upload(org, 'national', [a, b, c].join('\n'));
    const change = await upload(org, 'national', `${a.slice(2)},D\n${freshContact()},A\n`);
    expect(json(change)).toMatchObject({ added: 1, removed: 1 });
    expect((await adminInject(h, 'GET', entryUrl(org, 'national', a))).statusCode).toBe(404);
    // A full 212 file without b: b goes, the 305 entry stays.
    const full = await upload(org, 'national', `${freshContact(212)}\n`, '?mode=replace');
    expect(json(full).removed).toBe(2);
    expect((await adminInject(h, 'GET', entryUrl(org, 'national', b))).statusCode).toBe(404);
    expect((await adminInject(h, 'GET', entryUrl(org, 'national', c))).statusCode).toBe(200);
  });

  it('counts what it added: 140,000 lines of 2,000 numbers add 2,000', async () => {
    const org = (await adminCall(h, 'POST', '/admin/orgs', { name: 'Repeats' })).org_id;
    const numbers = Array.from({ length: 2_000 }, () => freshContact().slice(2));
    // Every number 70 times (the 1.4 M lines of 10,000 numbers, scaled down for CI's two cores), in a shuffled order, so a batch holds repeats too.
    let seed = 7;
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed;
    };
    const lines: string[] = [];
    for (let i = 0; i < 140_000; i++) lines.push(numbers[next() % numbers.length]!);
    for (const n of numbers) lines.push(n);
    const res = await upload(org, 'national', lines.join('\n'));
    expect(res.statusCode).toBe(200);
    expect(json(res)).toMatchObject({ rows: 142_000, added: 2_000, removed: 0 });
    const [count] = await h.store.query<{ n: string }>(
      'select count(*) as n from suppression_entries where org_id = $1',
      [org],
    );
    expect(Number(count!.n)).toBe(2_000);
    // The same file again adds nothing.
    const again = await upload(org, 'national', numbers.slice(0, 500).join('\n'));
    expect(json(again)).toMatchObject({ rows: 500, added: 0 });
  }, 600_000);

  it('state lists need a state, from a column or the parameter', async () => {
    const org = (await adminCall(h, 'POST', '/admin/orgs', { name: 'State' })).org_id;
    const [a, b] = [freshContact(), freshContact()];
    const res = await upload(org, 'state', `number,state\n${a},TX\n${b}\n`, '', 'text/csv');
    expect(json(res)).toMatchObject({ added: 1, rejected_count: 1 });
    expect((await adminCall(h, 'GET', entryUrl(org, 'state', a))).state).toBe('TX');
    const res2 = await upload(org, 'state', `${b}\n`, '?state=PA');
    expect(json(res2).added).toBe(1);
  });

  it('422 for a bad list, mode or date; 415 for JSON; 404 for an unknown organization', async () => {
    const org = (await adminCall(h, 'POST', '/admin/orgs', { name: 'Bad' })).org_id;
    expect((await upload(org, 'gold', '')).statusCode).toBe(422);
    expect((await upload(org, 'national', '', '?mode=merge')).statusCode).toBe(422);
    expect((await upload(org, 'national', '', '?list_date=2026-2-1')).statusCode).toBe(422);
    expect((await upload(org, 'national', '{}', '', 'application/json')).statusCode).toBe(415);
    expect((await upload('org_missing', 'national', '')).statusCode).toBe(404);
  });
});

describe('entries', () => {
  it('put, show and delete with a reason, audited; another organization sees 404', async () => {
    const org = (await adminCall(h, 'POST', '/admin/orgs', { name: 'Entries' })).org_id;
    const other = (await adminCall(h, 'POST', '/admin/orgs', { name: 'Other' })).org_id;
    const n = freshContact();
    const put = await adminCall(h, 'PUT', entryUrl(org, 'internal', n), { source: 'call notes' });
    expect(put).toMatchObject({
      list: 'internal',
      e164: n,
      source: 'call notes',
      list_date: '2026-03-02',
    });
    expect((await adminInject(h, 'GET', entryUrl(other, 'internal', n))).statusCode).toBe(404);
    expect((await del(other, 'internal', n, { reason: 'x' })).statusCode).toBe(404);
    expect((await del(org, 'internal', n, {})).statusCode).toBe(422);
    expect(json(await del(org, 'internal', n, { reason: 'entered in error' }))).toEqual({
      org_id: org,
      list: 'internal',
      e164: n,
      removed: true,
      reason: 'entered in error',
    });
    expect((await adminInject(h, 'GET', entryUrl(org, 'internal', n))).statusCode).toBe(404);
    expect((await audit(org, 'suppression.removed'))[0]?.detail).toEqual({
      list: 'internal',
      reason: 'entered in error',
    });
    expect(await audit(other, 'suppression.removed')).toEqual([]);
  });

  it('422 for a bad number or a state entry without a state; 401 without the admin token', async () => {
    const org = (await adminCall(h, 'POST', '/admin/orgs', { name: 'Entry422' })).org_id;
    expect((await adminInject(h, 'PUT', entryUrl(org, 'internal', '12345'), {})).statusCode).toBe(
      422,
    );
    expect(
      (await adminInject(h, 'PUT', entryUrl(org, 'state', freshContact()), {})).statusCode,
    ).toBe(422);
    const res = await h.admin.inject({
      method: 'GET',
      url: entryUrl(org, 'internal', freshContact()),
    });
    expect(res.statusCode).toBe(401);
  });
});

describe('touches against the lists', () => {
  it('a nationally listed number: pec is dnc_listed, pewc passes', async () => {
    const t = await outboundTenant(h);
    const listed = freshContact();
    await importNationalList(h, t.orgId, `${listed.slice(2)}\n`);
    await grant(h, t.orgId, listed, { tier: 'pec', captured_at: '2026-01-01T00:00:00Z' });
    const pec = json(await place(t, listed, 'pec'));
    expect(pec.reasons.map((r: { code: string }) => r.code)).toEqual([
      'consent_insufficient',
      'dnc_listed',
    ]);
    expect(pec.checks.suppression.entries).toEqual([
      expect.objectContaining({ list: 'national', listed_on: '2026-03-02', blocks: true }),
    ]);
    await grant(h, t.orgId, listed, { tier: 'pewc', captured_at: '2026-01-02T00:00:00Z' });
    const pewc = await place(t, listed, 'pewc', false);
    expect(pewc.statusCode).toBe(202);
  });

  it('the internal list is consent_revoked and dnc_listed; a litigator hit blocks until turned off', async () => {
    const t = await outboundTenant(h);
    await adminCall(h, 'PUT', entryUrl(t.orgId, 'internal', t.contact), {});
    const internal = json(await place(t, t.contact, 'pewc'));
    expect(internal.reasons.map((r: { code: string }) => r.code)).toEqual([
      'consent_revoked',
      'dnc_listed',
    ]);
    const u = await outboundTenant(h);
    await adminCall(h, 'PUT', entryUrl(u.orgId, 'litigator', u.contact), {});
    expect(json(await place(u, u.contact, 'pewc')).reasons[0].code).toBe('litigator_listed');
    await adminCall(h, 'PUT', `/admin/orgs/${u.orgId}/suppression/settings`, {
      litigator_blocks: false,
    });
    expect(json(await place(u, u.contact, 'pewc')).status).toBe('would_queue');
  });

  it('dnc_list_stale for pec when the newest national import is over 31 days old; never for pewc', async () => {
    const t = await outboundTenant(h);
    const n = freshContact();
    await grant(h, t.orgId, n, { tier: 'pec', captured_at: '2026-01-01T00:00:00Z' });
    h.clock.set('2026-04-06T15:00:00Z'); // 35 days after the fixture's import
    try {
      const stale = json(await place(t, n, 'pec'));
      expect(stale.reasons.map((r: { code: string }) => r.code)).toContain('dnc_list_stale');
      expect(stale.checks.suppression).toMatchObject({
        national_list_date: '2026-03-02',
        national_list_stale: true,
      });
      expect(json(await place(t, t.contact, 'pewc')).status).toBe('would_queue');
    } finally {
      h.clock.set(WEEKDAY_MORNING_ET);
    }
  });
});

describe('staleness notes and metric', () => {
  it('warn a week before the national copy goes stale, then say it is stale', async () => {
    const org = (await adminCall(h, 'POST', '/admin/orgs', { name: 'Notes' })).org_id;
    await importNationalList(h, org, '', { list_date: '2026-03-02' });
    const mine = async (iso: string) =>
      (await suppressionListNotes(h.deps.repos, Date.parse(iso))).filter((n) => n.org_id === org);
    expect(await mine('2026-03-26T12:00:00Z')).toEqual([]);
    const soon = await mine('2026-03-27T12:00:00Z');
    expect(soon).toEqual([
      {
        org_id: org,
        list: 'national',
        list_date: '2026-03-02',
        age_days: 25,
        stale_on: '2026-04-03',
        stale: false,
      },
    ]);
    expect(noteText(soon[0]!)).toContain('goes stale on 2026-04-03');
    expect((await mine('2026-04-03T00:00:00Z'))[0]?.stale).toBe(true);
    h.clock.set('2026-03-30T12:00:00Z');
    try {
      const text = await h.deps.metrics.registry.getSingleMetricAsString(
        'suppression_national_list_age_days',
      );
      expect(text).toContain(`suppression_national_list_age_days{org_id="${org}"} 28`);
    } finally {
      h.clock.set(WEEKDAY_MORNING_ET);
    }
  });

  it('GET /readyz says so: ok with a note a week before, degraded once a list is stale', async () => {
    // Every national import in this file is dated 2026-02-28 or 2026-03-02, this one too.
    const org = (await adminCall(h, 'POST', '/admin/orgs', { name: 'Readyz' })).org_id;
    await importNationalList(h, org, '', { list_date: '2026-03-02' });
    const app = await buildApp({
      ...h.deps,
      readiness: [storeCheck(h.store), suppressionListCheck(h.deps.repos, h.clock)],
    });
    const admin = await buildAdminApp(
      { ...h.deps, readiness: [suppressionListCheck(h.deps.repos, h.clock)] },
      ADMIN_TOKEN,
    );
    checkConformance(app, 'public');
    checkConformance(admin, 'admin');
    const detailed = async () =>
      json(
        await admin.inject({
          method: 'GET',
          url: '/admin/readyz',
          headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        }),
      );
    const readyz = async (iso: string) => {
      h.clock.set(iso);
      const res = await app.inject({ method: 'GET', url: '/readyz' });
      return { code: res.statusCode, body: json(res) };
    };
    try {
      expect(await readyz('2026-03-20T12:00:00Z')).toEqual({
        code: 200,
        body: {
          status: 'ok',
          checks: { store: { status: 'ok' }, suppression_lists: { status: 'ok' } },
        },
      });
      const soon = await readyz('2026-03-30T12:00:00Z');
      expect(soon.code).toBe(200);
      expect(soon.body.status).toBe('ok');
      expect(soon.body.checks.suppression_lists).toEqual({ status: 'ok' });
      // How many organizations: on the admin listener only (the public one says the state).
      expect((await detailed()).checks.suppression_lists.detail).toMatch(
        /^\d+ going stale within 7 days: marketing touches below pewc are blocked once stale$/,
      );
      const stale = await readyz('2026-04-06T12:00:00Z');
      expect(stale.code).toBe(200);
      expect(stale.body.status).toBe('degraded');
      expect(stale.body.checks.suppression_lists).toEqual({ status: 'degraded' });
      expect((await detailed()).checks.suppression_lists.detail).toMatch(
        /^\d+ organization\(s\) with a stale national do-not-call list/,
      );
    } finally {
      h.clock.set(WEEKDAY_MORNING_ET);
      await app.close();
      await admin.close();
    }
  });
});
