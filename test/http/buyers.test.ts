import { describe, expect, it } from 'vitest';
import { adminCall, createTenant, json, useHarness } from '../helpers/harness.js';
import { auditRows } from '../helpers/reports.js';
import { admin, createBuyer } from '../helpers/routing.js';

const h = useHarness();
const buyers = (orgId: string) => `/admin/orgs/${orgId}/buyers`;

const FULL = {
  name: 'Acme Insurance',
  forward_to: '+13125550100',
  time_zone: 'America/Chicago',
  schedule: { mon: [['09:00', '17:00']], sat: [['10:00', '24:00']] },
  states: ['NV', 'CA'],
  caps: { hourly: 10, daily: 100, concurrency: 3 },
  payout: { amount: '25.00', min_duration_seconds: 90, duplicate_window_days: 30 },
  status: 'paused',
};

describe('create, show, list, change', () => {
  it('answers the buyer as given, states sorted, absent caps null, usage zero', async () => {
    const t = await createTenant(h);
    const res = await admin(h, 'POST', buyers(t.orgId), FULL);
    expect(res.statusCode).toBe(201);
    const b = json(res);
    expect(b).toEqual({
      buyer_id: expect.stringMatching(/^buy_[0-9a-f]{32}$/),
      name: 'Acme Insurance',
      forward_to: '+13125550100',
      time_zone: 'America/Chicago',
      schedule: { mon: [['09:00', '17:00']], sat: [['10:00', '24:00']] },
      states: ['CA', 'NV'],
      caps: { hourly: 10, daily: 100, monthly: null, total: null, concurrency: 3 },
      payout: { amount: '25.00', min_duration_seconds: 90, duplicate_window_days: 30 },
      status: 'paused',
      usage: { hourly: 0, daily: 0, monthly: 0, total: 0, concurrency: 0 },
      created_at: '2026-03-02T15:00:00.000Z',
      updated_at: '2026-03-02T15:00:00.000Z',
    });
    expect(json(await admin(h, 'GET', `${buyers(t.orgId)}/${b.buyer_id}`))).toEqual(b);
    const [audit] = await auditRows(h, t.orgId, 'buyer.created');
    expect(audit?.subject_id).toBe(b.buyer_id);
  });

  it("defaults: the organization's zone, always open, any state, no caps, payout 0.00, active", async () => {
    const t = await createTenant(h);
    await adminCall(h, 'PATCH', `/admin/orgs/${t.orgId}`, { time_zone: 'Europe/Paris' });
    const b = await createBuyer(h, t.orgId);
    expect(b).toMatchObject({
      time_zone: 'Europe/Paris',
      schedule: null,
      states: null,
      caps: { hourly: null, daily: null, monthly: null, total: null, concurrency: null },
      payout: { amount: '0.00', min_duration_seconds: 0, duplicate_window_days: 0 },
      status: 'active',
    });
  });

  it('lists by id in pages with a cursor', async () => {
    const t = await createTenant(h);
    const ids = [];
    for (let i = 0; i < 3; i++)
      ids.push((await createBuyer(h, t.orgId, { name: `B${i}` })).buyer_id);
    // By id: creation order as the clock moves, any order within one millisecond.
    ids.sort();
    const first = json(await admin(h, 'GET', `${buyers(t.orgId)}?limit=2`));
    expect(first.items.map((b: { buyer_id: string }) => b.buyer_id)).toEqual(ids.slice(0, 2));
    expect(first.items[0].usage).toEqual({
      hourly: 0,
      daily: 0,
      monthly: 0,
      total: 0,
      concurrency: 0,
    });
    const second = json(
      await admin(h, 'GET', `${buyers(t.orgId)}?limit=2&cursor=${first.next_cursor}`),
    );
    expect(second).toEqual({
      items: [expect.objectContaining({ buyer_id: ids[2] })],
      next_cursor: null,
    });
  });

  it('PATCH changes the fields given and replaces caps whole', async () => {
    const t = await createTenant(h);
    const b = await createBuyer(h, t.orgId, { caps: { daily: 5, hourly: 2 } });
    h.clock.advance(60);
    const res = await admin(h, 'PATCH', `${buyers(t.orgId)}/${b.buyer_id}`, {
      caps: { total: 7 },
      status: 'paused',
      schedule: null,
    });
    expect(res.statusCode).toBe(200);
    expect(json(res)).toMatchObject({
      name: 'Buyer',
      caps: { hourly: null, daily: null, monthly: null, total: 7, concurrency: null },
      status: 'paused',
      updated_at: '2026-03-02T15:01:00.000Z',
    });
  });

  it('the organization takes a currency', async () => {
    const t = await createTenant(h);
    const org = await adminCall(h, 'PATCH', `/admin/orgs/${t.orgId}`, { currency: 'EUR' });
    expect(org.currency).toBe('EUR');
    const res = await admin(h, 'PATCH', `/admin/orgs/${t.orgId}`, { currency: 'EURO' });
    expect(res.statusCode).toBe(422);
    expect(json(res).detail[0].loc).toEqual(['body', 'currency']);
  });
});

describe('another organization', () => {
  it("sees another's buyer as missing: 404 buyer_not_found on GET and PATCH", async () => {
    const a = await createTenant(h);
    const b = await createTenant(h);
    const buyer = await createBuyer(h, a.orgId);
    for (const method of ['GET', 'PATCH'] as const) {
      const res = await admin(
        h,
        method,
        `${buyers(b.orgId)}/${buyer.buyer_id}`,
        method === 'PATCH' ? { name: 'x' } : undefined,
      );
      expect(res.statusCode).toBe(404);
      expect(json(res)).toEqual({ detail: 'buyer_not_found' });
    }
    expect(json(await admin(h, 'GET', buyers(b.orgId))).items).toEqual([]);
    const again = json(await admin(h, 'GET', `${buyers(a.orgId)}/${buyer.buyer_id}`));
    expect(again.name).toBe('Buyer');
  });

  it('an unknown organization is 404 org_not_found', async () => {
    const res = await admin(h, 'POST', buyers('org_0000000000000000'), FULL);
    expect(res.statusCode).toBe(404);
    expect(json(res)).toEqual({ detail: 'org_not_found' });
  });
});

describe('bad input: 422 at the field, nothing stored', () => {
  const cases: [string, Record<string, unknown>, (string | number)[]][] = [
    [
      'end before start',
      { schedule: { mon: [['17:00', '09:00']] } },
      ['body', 'schedule', 'mon', 0],
    ],
    [
      'end equal to start',
      { schedule: { tue: [['09:00', '09:00']] } },
      ['body', 'schedule', 'tue', 0],
    ],
    [
      '24:00 as a start',
      { schedule: { wed: [['24:00', '24:00']] } },
      ['body', 'schedule', 'wed', 0, 0],
    ],
    [
      'a time past 24:00',
      { schedule: { mon: [['09:00', '24:30']] } },
      ['body', 'schedule', 'mon', 0, 1],
    ],
    [
      'an unknown day',
      { schedule: { monday: [['09:00', '17:00']] } },
      ['body', 'schedule', 'monday'],
    ],
    [
      'a span of three',
      { schedule: { mon: [['09:00', '12:00', '17:00']] } },
      ['body', 'schedule', 'mon', 0],
    ],
    ['an unknown state', { states: ['ZZ'] }, ['body', 'states', 0]],
    ['a lower-case state', { states: ['ca'] }, ['body', 'states', 0]],
    ['a negative cap', { caps: { daily: -1 } }, ['body', 'caps', 'daily']],
    ['an unknown cap', { caps: { weekly: 3 } }, ['body', 'caps', 'weekly']],
    ['a payout as a number', { payout: { amount: 12.5 } }, ['body', 'payout', 'amount']],
    ['a payout with one decimal', { payout: { amount: '12.5' } }, ['body', 'payout', 'amount']],
    [
      'a payout with three decimals',
      { payout: { amount: '12.500' } },
      ['body', 'payout', 'amount'],
    ],
    ['a negative payout', { payout: { amount: '-1.00' } }, ['body', 'payout', 'amount']],
    ['a zone that is not IANA', { time_zone: 'EST5' }, ['body', 'time_zone']],
    ['a number that is not E.164', { forward_to: '3125550100' }, ['body', 'forward_to']],
    ['an unknown status', { status: 'off' }, ['body', 'status']],
  ];
  for (const [what, change, loc] of cases) {
    it(what, async () => {
      const t = await createTenant(h);
      const res = await admin(h, 'POST', buyers(t.orgId), { ...FULL, ...change });
      expect(res.statusCode).toBe(422);
      expect(json(res).detail.map((d: { loc: unknown }) => d.loc)).toContainEqual(loc);
      expect(json(await admin(h, 'GET', buyers(t.orgId))).items).toEqual([]);
    });
  }

  it('a PATCH with a bad schedule changes nothing', async () => {
    const t = await createTenant(h);
    const b = await createBuyer(h, t.orgId, { name: 'Kept' });
    const res = await admin(h, 'PATCH', `${buyers(t.orgId)}/${b.buyer_id}`, {
      name: 'Changed',
      schedule: { fri: [['10:00', '08:00']] },
    });
    expect(res.statusCode).toBe(422);
    expect(json(await admin(h, 'GET', `${buyers(t.orgId)}/${b.buyer_id}`)).name).toBe('Kept');
  });

  it('missing name or forward_to', async () => {
    const t = await createTenant(h);
    const res = await admin(h, 'POST', buyers(t.orgId), {});
    expect(res.statusCode).toBe(422);
    expect(json(res).detail.map((d: { loc: unknown }) => d.loc)).toEqual([
      ['body', 'name'],
      ['body', 'forward_to'],
    ]);
  });
});

describe('401', () => {
  it('without the admin token', async () => {
    const t = await createTenant(h);
    const res = await h.admin.inject({ method: 'GET', url: buyers(t.orgId) });
    expect(res.statusCode).toBe(401);
  });
});

describe('routing plans', () => {
  const routing = (t: { orgId: string; code: string }) =>
    `/admin/orgs/${t.orgId}/campaigns/${t.code}/routing`;

  it('PUT replaces the plan with defaults filled; GET answers it; none yet: no targets', async () => {
    const t = await createTenant(h);
    expect(json(await admin(h, 'GET', routing(t)))).toEqual({
      campaign_code: t.code,
      targets: [],
      ring_timeout_seconds: 20,
      fallback: 'forward_to',
      updated_at: null,
    });
    const a = await createBuyer(h, t.orgId);
    const b = await createBuyer(h, t.orgId);
    const res = await admin(h, 'PUT', routing(t), {
      targets: [
        { buyer_id: b.buyer_id, priority: 2 },
        { buyer_id: a.buyer_id, priority: 1, weight: 7 },
      ],
    });
    expect(res.statusCode).toBe(200);
    const plan = {
      campaign_code: t.code,
      targets: [
        { buyer_id: a.buyer_id, priority: 1, weight: 7 },
        { buyer_id: b.buyer_id, priority: 2, weight: 1 },
      ],
      ring_timeout_seconds: 20,
      fallback: 'forward_to',
      updated_at: new Date(h.clock.now()).toISOString(),
    };
    expect(json(res)).toEqual(plan);
    expect(json(await admin(h, 'GET', routing(t)))).toEqual(plan);
    const replaced = await admin(h, 'PUT', routing(t), {
      targets: [{ buyer_id: b.buyer_id, priority: 1 }],
      ring_timeout_seconds: 5,
      fallback: 'hangup',
    });
    expect(json(replaced)).toMatchObject({
      targets: [{ buyer_id: b.buyer_id, priority: 1, weight: 1 }],
      ring_timeout_seconds: 5,
      fallback: 'hangup',
    });
    const [audit] = await auditRows(h, t.orgId, 'routing.set');
    expect(audit?.detail).toMatchObject({ campaign_code: t.code });
  });

  it("another organization's buyer, an unknown one or one named twice: 422 at its place, nothing changed", async () => {
    const t = await createTenant(h);
    const other = await createTenant(h);
    const mine = await createBuyer(h, t.orgId);
    const theirs = await createBuyer(h, other.orgId);
    for (const targets of [
      [{ buyer_id: theirs.buyer_id, priority: 1 }],
      [{ buyer_id: 'buy_00000000000000000000000000000000', priority: 1 }],
      [
        { buyer_id: mine.buyer_id, priority: 1 },
        { buyer_id: mine.buyer_id, priority: 2 },
      ],
    ]) {
      const res = await admin(h, 'PUT', routing(t), { targets });
      expect(res.statusCode).toBe(422);
      expect(json(res).detail[0].loc).toEqual(['body', 'targets', targets.length - 1, 'buyer_id']);
    }
    expect(json(await admin(h, 'GET', routing(t))).targets).toEqual([]);
  });

  it('bounds: ring timeout 5-60, weight 1-100, priority from 1, a known fallback', async () => {
    const t = await createTenant(h);
    const b = await createBuyer(h, t.orgId);
    const target = { buyer_id: b.buyer_id, priority: 1 };
    for (const [body, loc] of [
      [{ targets: [target], ring_timeout_seconds: 4 }, ['body', 'ring_timeout_seconds']],
      [{ targets: [target], ring_timeout_seconds: 61 }, ['body', 'ring_timeout_seconds']],
      [{ targets: [{ ...target, weight: 0 }] }, ['body', 'targets', 0, 'weight']],
      [{ targets: [{ ...target, weight: 101 }] }, ['body', 'targets', 0, 'weight']],
      [{ targets: [{ ...target, priority: 0 }] }, ['body', 'targets', 0, 'priority']],
      [{ targets: [target], fallback: 'voicemail' }, ['body', 'fallback']],
      [{}, ['body', 'targets']],
    ] as const) {
      const res = await admin(h, 'PUT', routing(t), body);
      expect(res.statusCode).toBe(422);
      expect(json(res).detail[0].loc).toEqual(loc);
    }
  });

  it("another organization's campaign is 404 campaign_not_found", async () => {
    const t = await createTenant(h);
    const other = await createTenant(h);
    const b = await createBuyer(h, other.orgId);
    // Campaign codes in this process are never reused (freshCode): t.code is not other's.
    for (const [method, body] of [
      ['GET', undefined],
      ['PUT', { targets: [{ buyer_id: b.buyer_id, priority: 1 }] }],
    ] as const) {
      const res = await admin(h, method, routing({ orgId: other.orgId, code: t.code }), body);
      expect(res.statusCode).toBe(404);
      expect(json(res)).toEqual({ detail: 'campaign_not_found' });
    }
    expect(json(await admin(h, 'GET', routing(t))).targets).toEqual([]);
  });
});
