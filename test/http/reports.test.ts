import { describe, expect, it } from 'vitest';
import { newId } from '../../src/domain/ids.js';
import { openSessions } from '../../src/store/repos/dni.js';
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

describe('the fold, the local days and a rebuild from raw rows answer the same', () => {
  it('before the fold (quarter hours), after it (local days) and after report_rebuild', async () => {
    const t = await workedExample();
    const range = 'from=2026-03-01T00:00:00Z&to=2026-04-01T00:00:00Z';
    const urls = [
      `bucket=day&group_by=source`,
      `bucket=week&group_by=campaign,source`,
      `bucket=month&group_by=landing_path,attribution`,
      `bucket=day&group_by=source&time_zone=UTC`,
      `bucket=hour&group_by=medium`,
      `bucket=none&group_by=tracking_number`,
      `bucket=day&source=google`,
    ].map((q) => `/admin/orgs/${t.orgId}/reports/traffic?${range}&${q}`);
    // Whole local days in New York: a report without buckets reads the days too.
    const localDays = 'from=2026-03-01T05:00:00Z&to=2026-04-01T04:00:00Z';
    urls.push(`/admin/orgs/${t.orgId}/reports/traffic?${localDays}&bucket=none&group_by=source`);
    urls.push(`/admin/orgs/${t.orgId}/reports/traffic?${localDays}&bucket=none&campaign=${t.code}`);
    urls.push(`/admin/orgs/${t.orgId}/reports/touches?${range}&bucket=day&group_by=campaign`);
    urls.push(`/admin/orgs/${t.orgId}/reports/touches?${localDays}&bucket=none`);
    const answers = async () =>
      Promise.all(
        urls.map(async (u) => {
          const res = await get(u);
          expect(res.statusCode, res.body).toBe(200);
          return json(res);
        }),
      );
    // 03-09 in New York alone: +15550001 called then (c1) and again on 03-10 (c2, a repeat
    // whose previous call is in this range but which is not): one unique caller, one call.
    urls.push(
      `/admin/orgs/${t.orgId}/reports/traffic?from=2026-03-09T04:00:00Z&to=2026-03-10T04:00:00Z&bucket=none`,
    );
    const before = await answers();
    expect(before[0].rows.length).toBeGreaterThan(0);
    const monday = before.at(-1);
    expect([monday.totals.calls, monday.totals.unique_callers]).toEqual([1, 1]);
    await h.store.query('select report_compact(1000000)', []);
    const [days] = await h.store.query<{ n: number; zone: string }>(
      `select (select count(*)::int from report_traffic_days where org_id = $1) as n,
              (select time_zone from report_day_zones where org_id = $1) as zone`,
      [t.orgId],
    );
    expect(days).toEqual({ n: expect.any(Number), zone: 'America/New_York' });
    expect(days!.n).toBeGreaterThan(0);
    expect(await answers()).toEqual(before);
    await h.store.query('select report_rebuild($1)', [t.orgId]);
    expect(await answers()).toEqual(before);
  });
});

describe('a renewal in the batch that opened its session', () => {
  it("counts with the opening request's keys, as the server worked them out", async () => {
    const t = await createTenant(h);
    const at = new Date('2026-06-02T10:00:00Z');
    const request = (attrs: Record<string, string>) => ({
      orgId: t.orgId,
      campaignCode: t.code,
      visitorId: 'same-visitor',
      now: at,
      newSessionId: newId('ds', at.getTime()),
      attrs,
    });
    const opened = await openSessions(h.store, [
      request({ utm_source: ' Spring ', landing_url: 'https://ex.org/x?y=1' }),
      request({ utm_source: 'Other', landing_url: 'https://ex.org/z' }),
    ]);
    expect(opened.map((o) => o.outcome)).toEqual(['allocated', 'sticky']);
    const res = await get(
      `/admin/orgs/${t.orgId}/reports/traffic?from=2026-06-02T00:00:00Z&to=2026-06-03T00:00:00Z&bucket=day&group_by=source,landing_path`,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(
      json(res).rows.map((r: Record<string, unknown>) => [
        r.source,
        r.landing_path,
        r.sessions,
        r.session_renewals,
      ]),
    ).toEqual([['spring', '/x', 1, 1]]);
  });
});

describe('deltas of every grain, as writers before grain-3-only deltas appended them', () => {
  it('count once: readers and the fold take the grain-3 row of each event', async () => {
    const t = await createTenant(h);
    await session(h, t, '2026-06-01T10:00:00Z', 'g1', 'https://ex.org/a?utm_source=News');
    // What the earlier writers appended beside it: the same event at grains 0 and 1.
    const copied = await h.store.query(
      `insert into report_traffic_deltas (grain, org_id, bucket, campaign_id, source, medium,
         utm_campaign, landing_path, attribution, tracking_number, sessions)
       select g, org_id, bucket, campaign_id, source, case when g = 1 then medium else '' end,
         case when g = 1 then utm_campaign else '' end,
         case when g = 1 then landing_path else '' end, '', '', sessions
         from report_traffic_deltas, (values (0), (1)) v(g) where org_id = $1 and grain = 3
       returning grain`,
      [t.orgId],
    );
    expect(copied).toHaveLength(2);
    const url = `/admin/orgs/${t.orgId}/reports/traffic?from=2026-06-01T00:00:00Z&to=2026-06-02T00:00:00Z&bucket=day`;
    const sessions = async (q: string) => json(await get(`${url}${q}`)).totals.sessions;
    const queries = ['&group_by=source', '&group_by=landing_path', '&group_by=tracking_number'];
    for (const q of queries) expect(await sessions(q)).toBe(1);
    await h.store.query('select report_compact(1000000)', []);
    expect(
      await h.store.query('select 1 from report_traffic_deltas where org_id = $1', [t.orgId]),
    ).toHaveLength(0);
    for (const q of queries) expect(await sessions(q)).toBe(1);
  });
});

describe('unique callers by keys without a previous-call column', () => {
  it('count a caller once per landing path and day, by the first call of that day', async () => {
    const t = await createTenant(h, { numbers: 10 });
    let visitor = 0;
    const call = async (at: string, path: string, from: string) => {
      const start = new Date(at).getTime();
      const n = await session(
        h,
        t,
        new Date(start - 120_000).toISOString(),
        `u${visitor++}`,
        `https://ex.org/${path}`,
      );
      await recordCall(h, t, { to: n, from, startedAt: at });
    };
    const [x, y] = ['+12125550011', '+12125550012'];
    await call('2026-05-01T10:00:00Z', 'a', x);
    await call('2026-05-02T08:30:00Z', 'b', y);
    await call('2026-05-02T09:00:00Z', 'b', x);
    await call('2026-05-02T09:30:00Z', 'a', y);
    await call('2026-05-02T10:00:00Z', 'a', x);
    await call('2026-05-02T10:30:00Z', 'a', y);
    await call('2026-05-02T11:00:00Z', 'b', x);
    const res = await get(
      `/admin/orgs/${t.orgId}/reports/traffic?from=2026-05-01T00:00:00Z&to=2026-05-03T00:00:00Z&bucket=day&group_by=landing_path`,
    );
    expect(res.statusCode, res.body).toBe(200);
    const body = json(res);
    const rows = body.rows.map((r: Record<string, unknown>) => [
      r.bucket_start,
      r.landing_path,
      r.calls,
      r.unique_callers,
    ]);
    // 05-02 /a: x at 10:00 (x called /a on 05-01, another day), y at 09:30 and 10:30: two
    // callers. /b: y at 08:30, x at 09:00 and 11:00: two callers.
    expect(rows).toEqual([
      ['2026-05-01T00:00:00Z', '/a', 1, 1],
      ['2026-05-02T00:00:00Z', '/a', 3, 2],
      ['2026-05-02T00:00:00Z', '/b', 3, 2],
    ]);
    expect([body.totals.calls, body.totals.unique_callers]).toEqual([7, 2]);
  });
});

describe('drill-down', () => {
  it('lists the calls and sessions behind a cell, paged', async () => {
    const t = await workedExample();
    const base = `/admin/orgs/${t.orgId}/reports/traffic`;
    const cell = 'bucket=day&bucket_start=2026-03-10T00:00:00-04:00';
    const calls = json(await get(`${base}/calls?${cell}&source=google`));
    expect(calls.items.map((c: { from: string }) => c.from)).toEqual(['+12125550001']);
    expect(calls.items[0]).toMatchObject({
      source: 'google',
      first_time: false,
      disposition: 'rejected',
    });
    const sessions = json(await get(`${base}/sessions?${cell}&limit=2`));
    expect(sessions.items).toHaveLength(2);
    const rest = json(await get(`${base}/sessions?${cell}&limit=2&cursor=${sessions.next_cursor}`));
    expect(rest.next_cursor).toBeNull();
    const all = [...sessions.items, ...rest.items].map((s: { source: string }) => s.source);
    expect(all.sort()).toEqual(['direct', 'google', 'meta']);
    const direct = json(await get(`${base}/sessions?${cell}&source=direct&landing_path=`));
    expect(direct.items).toHaveLength(1);
    const unattributed = json(await get(`${base}/calls?${cell}&source=unattributed`));
    expect(unattributed.items.map((c: { attribution: string }) => c.attribution)).toEqual([
      'campaign',
    ]);
  });
});

describe('many groups', () => {
  it('lists the largest groups and folds the rest into an other row per bucket', async () => {
    const t = await createTenant(h, { numbers: 5 });
    for (const v of ['a1', 'a2', 'a3'])
      await session(h, t, '2026-03-10T12:00:00Z', v, 'https://ex.org/a');
    const nb = await session(h, t, '2026-03-10T12:05:00Z', 'b', 'https://ex.org/b');
    const nc = await session(h, t, '2026-03-10T12:06:00Z', 'c', 'https://ex.org/c');
    // One caller: twice on /b, once on /c. Folded, it is one unique caller in each group.
    for (const [to, at] of [
      [nb, '2026-03-10T12:10:00Z'],
      [nb, '2026-03-10T12:20:00Z'],
      [nc, '2026-03-10T12:30:00Z'],
    ] as const)
      await recordCall(h, t, { to, from: '+12125550001', startedAt: at });
    const q = `/admin/orgs/${t.orgId}/reports/traffic?from=2026-03-10T00:00:00Z&to=2026-03-11T00:00:00Z&group_by=landing_path&groups=1`;
    const body = json(await get(q));
    expect([body.groups_listed, body.groups_folded]).toEqual([1, 2]);
    const rows = body.rows.map((r: Record<string, unknown>) => [
      r.landing_path,
      r.other ?? false,
      r.sessions,
      r.calls,
      r.unique_callers,
    ]);
    expect(rows).toEqual([
      ['/a', false, 3, 0, 0],
      [null, true, 2, 3, 2],
    ]);
    expect([body.totals.sessions, body.totals.calls, body.totals.unique_callers]).toEqual([
      5, 3, 1,
    ]);
    const csv = await get(`${q}&format=csv`);
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]?.endsWith(',other')).toBe(true);
    expect(lines.map((l) => l.split(',').at(-1))).toEqual(['other', 'false', 'true']);
    // Without `groups`, all three are listed and nothing is folded.
    const all = json(await get(q.replace('&groups=1', '')));
    expect([all.rows.length, all.groups_folded]).toEqual([3, 0]);
  });

  it('ranks a group with a call above one without, before the fold', async () => {
    const t = await createTenant(h, { numbers: 5 });
    // Not folded yet, a session's delta leaves the call counters null: /a's calls sum to
    // nothing, which ranks as none, so /b (a call) is larger though /a comes first by key.
    await session(h, t, '2026-03-10T12:00:00Z', 'a', 'https://ex.org/a');
    const nb = await session(h, t, '2026-03-10T12:05:00Z', 'b', 'https://ex.org/b');
    await recordCall(h, t, { to: nb, from: '+12125550001', startedAt: '2026-03-10T12:10:00Z' });
    const body = json(
      await get(
        `/admin/orgs/${t.orgId}/reports/traffic?from=2026-03-10T00:00:00Z&to=2026-03-11T00:00:00Z&group_by=landing_path&groups=1`,
      ),
    );
    const rows = body.rows.map((r: Record<string, unknown>) => [
      r.landing_path,
      r.other ?? false,
      r.sessions,
      r.calls,
    ]);
    expect(rows).toEqual([
      ['/b', false, 1, 1],
      [null, true, 1, 0],
    ]);
  });
});

describe('CSV', () => {
  it('answers text/csv with a header row, formulas defused', async () => {
    const t = await createTenant(h);
    await session(h, t, '2026-03-10T12:00:00Z', 'x', 'https://ex.org/?utm_source==HYPERLINK("x")');
    const res = await get(
      `/admin/orgs/${t.orgId}/reports/traffic?from=2026-03-10T00:00:00Z&to=2026-03-11T00:00:00Z&group_by=source&format=csv`,
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    const [head, row] = res.body.trim().split('\r\n');
    expect(head?.startsWith('bucket_start,source,sessions,')).toBe(true);
    expect(row?.startsWith(`2026-03-10T00:00:00Z,"'=hyperlink(""x"")",1,`)).toBe(true);
  });
});

describe('tenancy', () => {
  it("another organization's campaign is 404 like an unknown one, and its rows never count", async () => {
    const a = await createTenant(h);
    const b = await createTenant(h);
    await session(h, b, '2026-03-10T12:00:00Z', 'x');
    await recordCall(h, b, { startedAt: '2026-03-10T12:01:00Z' });
    const q = 'from=2026-03-10T00:00:00Z&to=2026-03-11T00:00:00Z';
    for (const path of [
      'traffic',
      'touches',
      'traffic/calls',
      'traffic/sessions',
      'touches/rows',
    ]) {
      const other = await get(`/admin/orgs/${a.orgId}/reports/${path}?${q}&campaign=${b.code}`);
      const unknown = await get(`/admin/orgs/${a.orgId}/reports/${path}?${q}&campaign=zzz`);
      expect(other.statusCode).toBe(404);
      expect(other.body).toBe(unknown.body);
      expect(json(other)).toEqual({ detail: 'campaign_not_found' });
    }
    const mine = json(await get(`/admin/orgs/${a.orgId}/reports/traffic?${q}`));
    expect(mine.totals).toMatchObject({ sessions: 0, calls: 0, unique_callers: 0 });
    expect(json(await get(`/admin/orgs/${a.orgId}/reports/traffic/calls?${q}`)).items).toEqual([]);
    const theirs = json(await get(`/admin/orgs/${b.orgId}/reports/traffic?${q}`));
    expect(theirs.totals).toMatchObject({ sessions: 1, calls: 1 });
  });

  it('an unknown organization is 404; no admin token is 401', async () => {
    expect(json(await get('/admin/orgs/org_nope/reports/traffic'))).toEqual({
      detail: 'org_not_found',
    });
    const res = await h.admin.inject({
      method: 'GET',
      url: '/admin/orgs/org_nope/reports/traffic',
    });
    expect(res.statusCode).toBe(401);
  });
});

describe('bad queries: 422 in the spec shape', () => {
  const cases: [string, string, (string | number)[]][] = [
    ['an unknown bucket', 'bucket=year', ['query', 'bucket']],
    ['an unknown grouping', 'group_by=source,colour', ['query', 'group_by']],
    ['from after to', 'from=2026-03-10T00:00:00Z&to=2026-03-09T00:00:00Z', ['query', 'from']],
    [
      'a range longer than hourly buckets keep',
      'bucket=hour&from=2026-01-01T00:00:00Z&to=2026-03-01T00:00:00Z',
      ['query', 'to'],
    ],
    ['a bad time zone', 'time_zone=Mars/Olympus', ['query', 'time_zone']],
    ['a bad date', 'from=yesterday', ['query', 'from']],
  ];
  for (const [what, q, loc] of cases) {
    it(what, async () => {
      const t = await createTenant(h);
      const res = await get(`/admin/orgs/${t.orgId}/reports/traffic?${q}`);
      expect(res.statusCode, res.body).toBe(422);
      const detail = json(res).detail;
      expect(detail.map((d: { loc: unknown }) => d.loc)).toEqual([loc]);
      expect(Object.keys(detail[0]).sort()).toEqual(
        expect.arrayContaining(['input', 'loc', 'msg', 'type']),
      );
    });
  }

  it('a touch grouping the traffic report does not have', async () => {
    const t = await createTenant(h);
    const res = await get(`/admin/orgs/${t.orgId}/reports/touches?group_by=source`);
    expect(res.statusCode).toBe(422);
    expect(json(res).detail[0].loc).toEqual(['query', 'group_by']);
  });

  it('the organization time zone: a bad name is 422 and changes nothing', async () => {
    const t = await createTenant(h);
    const res = await h.admin.inject({
      method: 'PATCH',
      url: `/admin/orgs/${t.orgId}`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      payload: { time_zone: 'Eastern' },
    });
    expect(res.statusCode).toBe(422);
    expect(json(res).detail[0].loc).toEqual(['body', 'time_zone']);
    const org = await adminCall(h, 'GET', `/admin/orgs/${t.orgId}`);
    expect(org.time_zone).toBe('UTC');
    const ok = await adminCall(h, 'PATCH', `/admin/orgs/${t.orgId}`, {
      time_zone: 'Asia/Kathmandu',
    });
    expect(ok.time_zone).toBe('Asia/Kathmandu');
  });
});
