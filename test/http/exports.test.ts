import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { findCampaign } from '../../src/store/repos/campaigns.js';
import { conversionRows } from '../../src/store/repos/exports.js';
import {
  ADMIN_TOKEN,
  adminCall,
  createTenant,
  dni,
  type Harness,
  json,
  type Tenant,
  useHarness,
} from '../helpers/harness.js';
import { recordCall, report } from '../helpers/reports.js';
import { CONVERSION_CONFIG, EXPORT_NOW, EXPORT_SINCE, FIXTURE } from '../unit/exports/fixture.js';

const h: Harness = useHarness();
let t: Tenant;
/** Our event ids, as the API gave them, to the fixed ids in the golden files. */
const fixtureIds = new Map<string, string>();

const golden = (name: string) =>
  readFileSync(new URL(`../golden/${name}`, import.meta.url), 'utf8');

let caller = 0;
/** A visitor's session (when it has click ids) one minute before its call. */
async function call(
  tenant: Tenant,
  code: string,
  at: Date,
  clicks: { gclid?: string | null; fbc?: string | null; fbp?: string | null } | null,
  to?: string,
): Promise<string> {
  let number = to ?? tenant.numbers[0]!;
  if (clicks) {
    h.clock.ms = at.getTime() - 60_000;
    const s = await dni(h, tenant.key, {
      campaign_code: code,
      visitor_id: `visitor-${caller}`,
      ...clicks,
    });
    number = json(s).tracking_number;
  }
  h.clock.ms = at.getTime();
  return recordCall(h, tenant, {
    to: number,
    from: `+1212555${String(1000 + caller++)}`,
    startedAt: at.toISOString(),
  });
}

async function dispose(callId: string, reportId: string, disposition: string, code = t.code) {
  h.clock.advance(600);
  const res = await report(h, t.key, code, { call_id: callId, report_id: reportId, disposition });
  expect(res.statusCode).toBe(201);
  return json(res).event_id as string;
}

const clicksOf = (r: (typeof FIXTURE)['a']) => ({ gclid: r.gclid, fbc: r.fbc, fbp: r.fbp });

beforeAll(async () => {
  t = await createTenant(h, { numbers: 6 });
  await adminCall(h, 'PATCH', `/admin/orgs/${t.orgId}/campaigns/${t.code}`, {
    config: { conversion: CONVERSION_CONFIG },
  });
  await adminCall(h, 'POST', `/admin/orgs/${t.orgId}/campaigns`, {
    code: 'oth',
    name: 'Other campaign',
    numbers: ['+14155559931'],
  });

  // Before `since`: left out.
  const g = await call(t, t.code, new Date('2026-02-28T12:00:00Z'), { gclid: 'EAIaIQ-G' });
  await dispose(g, 'g', 'success');
  // E dials a number no visitor ever held.
  const e = await call(t, t.code, FIXTURE.e.startedAt, null, t.numbers[5]);
  fixtureIds.set(await dispose(e, 'e', 'success'), FIXTURE.e.eventId);
  const a = await call(t, t.code, FIXTURE.a.startedAt, clicksOf(FIXTURE.a));
  fixtureIds.set(await dispose(a, 'a', 'success'), FIXTURE.a.eventId);
  // Another campaign's success: left out.
  const other = await call(t, 'oth', new Date('2026-03-03T10:00:00Z'), { gclid: 'EAIaIQ-O' });
  await dispose(other, 'o', 'success', 'oth');
  const b = await call(t, t.code, FIXTURE.b.startedAt, clicksOf(FIXTURE.b));
  fixtureIds.set(await dispose(b, 'b', 'success'), FIXTURE.b.eventId);
  // Success, then returned by the buyer: left out.
  const c = await call(t, t.code, new Date('2026-03-09T16:30:00Z'), { gclid: 'EAIaIQ-C' });
  await dispose(c, 'c1', 'success');
  await dispose(c, 'c2', 'rejected');
  const d = await call(t, t.code, FIXTURE.d.startedAt, clicksOf(FIXTURE.d));
  await dispose(d, 'd1', 'rejected');
  fixtureIds.set(await dispose(d, 'd2', 'success'), FIXTURE.d.eventId);
  // Rejected only: left out.
  const f = await call(t, t.code, new Date('2026-03-10T14:00:00Z'), { gclid: 'EAIaIQ-F' });
  await dispose(f, 'f', 'rejected');
  h.clock.ms = EXPORT_NOW.getTime();
});

function exportOf(orgId: string, code: string, query: string, token = ADMIN_TOKEN) {
  return h.admin.inject({
    method: 'GET',
    url: `/admin/orgs/${orgId}/campaigns/${code}/exports/conversions${query}`,
    headers: { authorization: `Bearer ${token}` },
  });
}

const withFixtureIds = (body: string) =>
  [...fixtureIds].reduce((text, [ours, fixed]) => text.replaceAll(ours, fixed), body);

describe('GET /admin/orgs/{org_id}/campaigns/{code}/exports/conversions', () => {
  it('answers the Google Ads CSV of the golden file, with its counts', async () => {
    const res = await exportOf(t.orgId, t.code, `?format=google-ads&since=${EXPORT_SINCE}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="conversions-${t.code}-google-ads.csv"`,
    );
    expect(res.body).toBe(golden('conversions-google-ads.csv'));
    expect(res.headers).toMatchObject({
      'x-export-candidates': '4',
      'x-export-rows': '2',
      'x-export-skipped-no-click-id': '2',
      'x-export-skipped-too-old': '0',
    });
  });

  it('answers the Meta events of the golden file, keyed on our event ids', async () => {
    const res = await exportOf(t.orgId, t.code, `?format=meta&since=${EXPORT_SINCE}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(withFixtureIds(res.body)).toBe(golden('conversions-meta.json'));
    expect(res.headers).toMatchObject({
      'x-export-candidates': '4',
      'x-export-rows': '2',
      'x-export-skipped-no-click-id': '1',
      'x-export-skipped-too-old': '1',
    });
  });

  it('answers tidy JSON when no call has a click id: {"data":[]}', async () => {
    const res = await exportOf(t.orgId, t.code, '?format=meta&since=2099-01-01T00:00:00Z');
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('{"data":[]}\n');
    expect(res.headers['x-export-rows']).toBe('0');
  });

  it('takes since inclusive', async () => {
    const res = await exportOf(t.orgId, t.code, '?format=google-ads&since=2026-03-10T12:00:00Z');
    expect(res.body.trim().split('\n').slice(2)).toEqual([
      expect.stringMatching(/^EAIaIQobChMI-D4,/),
    ]);
  });

  it("answers another organization's campaign like a missing one", async () => {
    const other = await createTenant(h);
    const theirs = await exportOf(t.orgId, other.code, `?format=meta&since=${EXPORT_SINCE}`);
    const missing = await exportOf(t.orgId, 'nop', `?format=meta&since=${EXPORT_SINCE}`);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.body).toBe('{"detail":"campaign_not_found"}');
    expect(missing.body).toBe(theirs.body);
    const org = await exportOf('org_nope', t.code, `?format=meta&since=${EXPORT_SINCE}`);
    expect(org.body).toBe('{"detail":"org_not_found"}');
  });

  it('answers 422 for a missing since or an unknown format, and 401 without the token', async () => {
    const bad = await exportOf(t.orgId, t.code, '?format=csv');
    expect(bad.statusCode).toBe(422);
    expect(json(bad).detail.map((e: { type: string; loc: string[] }) => [e.type, e.loc])).toEqual([
      ['literal_error', ['query', 'format']],
      ['missing', ['query', 'since']],
    ]);
    const anon = await exportOf(t.orgId, t.code, `?format=meta&since=${EXPORT_SINCE}`, 'wrong');
    expect(anon.statusCode).toBe(401);
  });

  it('answers 409 naming the problem when the campaign conversion config is unusable', async () => {
    const broken = await createTenant(h);
    await adminCall(h, 'PATCH', `/admin/orgs/${broken.orgId}/campaigns/${broken.code}`, {
      config: { conversion: { currency: 'dollars' } },
    });
    const res = await exportOf(broken.orgId, broken.code, `?format=meta&since=${EXPORT_SINCE}`);
    expect(res.statusCode).toBe(409);
    expect(json(res)).toEqual({
      detail: 'conflict',
      reason: 'conversion_config_invalid: conversion.currency must be an ISO 4217 code such as USD',
    });
  });
});

describe('conversionRows', () => {
  it('pages by (started_at, id) without gaps or repeats, ties included', async () => {
    const tie = await createTenant(h, { numbers: 3 });
    const at = new Date(h.clock.now() - 3600_000).toISOString();
    for (const [i, to] of tie.numbers.entries()) {
      const callId = await recordCall(h, tie, { to, startedAt: at, from: `+1646555000${i}` });
      const res = await report(h, tie.key, tie.code, {
        call_id: callId,
        report_id: `tie-${i}`,
        disposition: 'success',
      });
      expect(res.statusCode).toBe(201);
    }
    const campaign = await findCampaign(h.store.db, tie.orgId, tie.code);
    const q = { orgId: tie.orgId, campaignId: campaign!.id, since: new Date(EXPORT_SINCE) };
    const read = async (pageSize: number) => {
      const ids: string[] = [];
      for await (const r of conversionRows(h.store.db, q, pageSize)) ids.push(r.callId);
      return ids;
    };
    const whole = await read(500);
    expect(whole).toHaveLength(3);
    expect([...whole].sort()).toEqual(whole);
    expect(await read(1)).toEqual(whole);
    expect(await read(2)).toEqual(whole);
  });
});
