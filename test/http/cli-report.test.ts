import { describe, expect, it } from 'vitest';
import { useCliSuite } from '../helpers/cli.js';
import { createTenant, dni } from '../helpers/harness.js';
import { recordCall } from '../helpers/reports.js';

const suite = useCliSuite();

describe('report traffic', () => {
  it('prints a table with totals and a chart; --json is the API answer; --csv the file', async () => {
    const h = suite.h;
    const t = await createTenant(h);
    expect(
      (await suite.admin(['org', 'update', t.orgId, '--time-zone', 'Asia/Kathmandu'])).code,
    ).toBe(0);
    let number = '';
    for (const [at, v] of [
      ['2026-03-09T10:00:00Z', 'a'],
      ['2026-03-10T10:00:00Z', 'b'],
      ['2026-03-10T11:00:00Z', 'c'],
    ] as const) {
      h.clock.set(at);
      const res = await dni(h, t.key, {
        campaign_code: t.code,
        visitor_id: v,
        landing_url: 'https://ex.org/?gclid=1',
      });
      expect(res.statusCode).toBe(201);
      number = JSON.parse(res.body).tracking_number;
    }
    await recordCall(h, t, { startedAt: '2026-03-10T11:01:00Z', to: number });
    const args = [
      'report',
      'traffic',
      t.orgId,
      '--from',
      '2026-03-08T18:15:00Z',
      '--to',
      '2026-03-10T18:15:00Z',
      '--group-by',
      'source',
    ];
    const human = await suite.admin(args);
    expect(human, human.err).toMatchObject({ code: 0, err: '' });
    expect(human.out).toContain('(Asia/Kathmandu), by day × source');
    expect(human.out).toMatch(/^BUCKET +SOURCE +SESSIONS +CALLS +UNIQUE/m);
    expect(human.out).toMatch(/ BILLABLE +REVENUE$/m);
    expect(human.out).toMatch(/^TOTAL .* 0 +0\.00$/m);
    expect(human.out).toMatch(/^2026-03-09 00:00 +google +1 +0 +0/m);
    expect(human.out).toMatch(/^2026-03-10 00:00 +google +2 +1 +1/m);
    expect(human.out).toMatch(/^TOTAL +3 +1 +1/m);
    expect(human.out).toMatch(/^calls per bucket\n2026-03-09 00:00 +0\n2026-03-10 00:00 +█+ 1$/m);

    // Without buckets the totals row says TOTAL where the group's value goes, SESSIONS filled.
    const flat = await suite.admin([...args, '--bucket', 'none']);
    expect(flat.out).toMatch(/^SOURCE +SESSIONS +CALLS/m);
    expect(flat.out).toMatch(/^TOTAL +3 +1 +1/m);

    const j = await suite.admin([...args, '--json']);
    expect(JSON.parse(j.out)).toMatchObject({
      time_zone: 'Asia/Kathmandu',
      totals: { sessions: 3, calls: 1 },
    });
    const csv = await suite.admin([...args, '--csv']);
    expect(csv.code).toBe(0);
    expect(csv.out.split('\r\n')[1]).toMatch(/^2026-03-09T00:00:00\+05:45,google,1,/);
  });

  it('--groups lists the largest groups and says how many more are in (other)', async () => {
    const h = suite.h;
    const t = await createTenant(h);
    for (const [v, path] of [
      ['a', '/a'],
      ['b', '/a'],
      ['c', '/b'],
      ['d', '/c'],
    ] as const) {
      h.clock.set('2026-03-10T10:00:00Z');
      const res = await dni(h, t.key, {
        campaign_code: t.code,
        visitor_id: v,
        landing_url: `https://ex.org${path}`,
      });
      expect(res.statusCode).toBe(201);
    }
    const args = ['report', 'traffic', t.orgId, '--from', '2026-03-10T00:00:00Z'];
    const out = await suite.admin([
      ...args,
      '--to',
      '2026-03-11T00:00:00Z',
      '--bucket',
      'none',
      '--group-by',
      'landing_path',
      '--groups',
      '1',
    ]);
    expect(out, out.err).toMatchObject({ code: 0, err: '' });
    expect(out.out).toMatch(/^\/a +2 /m);
    expect(out.out).toMatch(/^\(other\) +2 /m);
    expect(out.out).toContain('2 more groups are summed in the (other) rows');
  });

  it('a bad grouping: the API 422 as a readable line, exit 1', async () => {
    const t = await createTenant(suite.h);
    const r = await suite.admin(['report', 'touches', t.orgId, '--group-by', 'source']);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/group_by/);
  });
});
