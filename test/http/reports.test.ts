import { describe, expect, it } from 'vitest';
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

const h = useHarness();

const get = (url: string) =>
  h.admin.inject({ method: 'GET', url, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });

async function session(h: Harness, t: Tenant, at: string, visitor: string, landing?: string) {
  h.clock.set(at);
  const body: Record<string, unknown> = { campaign_code: t.code, visitor_id: visitor };
  if (landing) body.landing_url = landing;
  const res = await dni(h, t.key, body);
  expect(res.statusCode, res.body).toBe(201);
  return json(res).tracking_number as string;
}

async function buyer(h: Harness, t: Tenant, at: string, callId: string, id: string, d: string) {
  h.clock.set(at);
  const res = await report(h, t.key, t.code, { call_id: callId, report_id: id, disposition: d });
  expect(res.statusCode, res.body).toBe(201);
}

/** docs/reporting.md, "Worked example", step by step. */
async function workedExample(): Promise<Tenant> {
  const t = await createTenant(h);
  await adminCall(h, 'PATCH', `/admin/orgs/${t.orgId}`, { time_zone: 'America/New_York' });
  const n1 = await session(
    h,
    t,
    '2026-03-10T03:30:00Z',
    's1',
    'https://ex.org/a?utm_source=Google',
  );
  await session(h, t, '2026-03-10T03:50:00Z', 's1', 'https://ex.org/a?utm_source=Google');
  const c1 = await recordCall(h, t, {
    to: n1,
    from: '+12125550001',
    startedAt: '2026-03-10T03:55:00Z',
  });
  const n2 = await session(h, t, '2026-03-10T14:00:00Z', 's2', 'https://ex.org/b?gclid=abc');
  const c2 = await recordCall(h, t, {
    to: n2,
    from: '+12125550001',
    startedAt: '2026-03-10T14:20:00Z',
  });
  const n3 = await session(h, t, '2026-03-10T15:00:00Z', 's3', 'https://ex.org/c?fbclid=xyz');
  const c3 = await recordCall(h, t, {
    to: n3,
    from: '+12125550002',
    startedAt: '2026-03-10T15:10:00Z',
  });
  await buyer(h, t, '2026-03-10T15:00:00Z', c2, 'r1', 'success');
  const n4 = await session(h, t, '2026-03-10T16:00:00Z', 's4');
  await buyer(h, t, '2026-03-10T16:10:00Z', c3, 'r3', 'success');
  await buyer(h, t, '2026-03-10T18:00:00Z', c2, 'r2', 'rejected');
  h.clock.set('2026-03-10T20:00:00Z');
  await recordCall(h, t, { to: n4, from: '+12125550003', startedAt: '2026-03-10T20:00:00Z' });
  await buyer(h, t, '2026-03-11T13:00:00Z', c1, 'r4', 'rejected');
  return t;
}

const pick = (r: Record<string, unknown>) => [
  r.bucket_start ?? 'totals',
  r.source ?? '',
  r.sessions,
  r.session_renewals,
  r.calls,
  r.unique_callers,
  r.calls_first_time,
  r.buyer_reports,
  r.buyer_corrections,
  r.buyer_success,
  r.buyer_rejected,
];

describe('the worked example of docs/reporting.md', () => {
  it('answers the table of the document, in New York and in UTC', async () => {
    const t = await workedExample();
    const url = `/admin/orgs/${t.orgId}/reports/traffic?from=2026-03-09T04:00:00Z&to=2026-03-11T04:00:00Z&bucket=day&group_by=source`;
    const res = await get(url);
    expect(res.statusCode, res.body).toBe(200);
    const body = json(res);
    expect(body.time_zone).toBe('America/New_York');
    expect(body.from).toBe('2026-03-09T00:00:00-04:00');
    expect(body.to).toBe('2026-03-11T00:00:00-04:00');
    expect(body.rows.map(pick)).toEqual([
      ['2026-03-09T00:00:00-04:00', 'google', 1, 1, 1, 1, 1, 1, 0, 0, 1],
      ['2026-03-10T00:00:00-04:00', 'direct', 1, 0, 0, 0, 0, 0, 0, 0, 0],
      ['2026-03-10T00:00:00-04:00', 'google', 1, 0, 1, 1, 0, 2, 1, 0, 1],
      ['2026-03-10T00:00:00-04:00', 'meta', 1, 0, 1, 1, 1, 1, 0, 1, 0],
      ['2026-03-10T00:00:00-04:00', 'unattributed', 0, 0, 1, 1, 1, 0, 0, 0, 0],
    ]);
    expect(pick(body.totals)).toEqual(['totals', '', 4, 1, 4, 3, 3, 4, 1, 1, 2]);
    expect(body.rows[2].buyer_report_seconds_avg).toBe(2400);
    expect(body.totals.buyer_report_seconds_avg).toBe(41_700);

    const utc = json(await get(`${url}&time_zone=UTC`));
    const google = utc.rows.filter((r: { source: string }) => r.source === 'google');
    expect(google.map(pick)).toEqual([
      ['2026-03-10T00:00:00Z', 'google', 2, 1, 2, 1, 1, 3, 1, 0, 2],
    ]);
  });
});
