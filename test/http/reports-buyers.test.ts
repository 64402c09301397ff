/**
 * Buyers in the traffic report (contract §11 "Reports", docs/reporting.md): calls routed through
 * signed Twilio webhooks, grouped by buyer, with calls answered by a buyer, billable calls and
 * revenue; a rejection and a later success move revenue both ways. Both stores.
 */
import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, createTenant, json, type Tenant, useHarness } from '../helpers/harness.js';
import { report } from '../helpers/reports.js';
import { createBuyer, setRouting } from '../helpers/routing.js';
import { PUBLIC_BASE, TWILIO_TOKEN } from '../helpers/twilio-webhook.js';
import { dialEnded, ring } from '../helpers/voice.js';

const h = useHarness({ twilio: { authToken: TWILIO_TOKEN, publicBaseUrl: PUBLIC_BASE } });

type Row = Record<string, unknown>;

async function traffic(orgId: string, query: string) {
  const res = await h.admin.inject({
    method: 'GET',
    url: `/admin/orgs/${orgId}/reports/traffic?from=2026-03-02T00:00:00Z&to=2026-03-03T00:00:00Z&${query}`,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
  });
  return res;
}

/** A call routed to the campaign's buyers; `legs` end the offers in turn. Returns its id. */
async function routed(t: Tenant, from: string, legs: ('completed' | 'busy')[], seconds: number) {
  const call = await ring(h, t.numbers[0]!, from);
  let step = call.step;
  for (const leg of legs)
    step = await dialEnded(h, call, step, leg, leg === 'completed' ? seconds : 0);
  const [row] = await h.store.query<{ id: string }>(
    'select id from calls where carrier_call_sid = $1',
    [call.callSid],
  );
  return row!.id;
}

async function setup() {
  h.clock.set('2026-03-02T15:00:00Z');
  const t = await createTenant(h);
  const a = await createBuyer(h, t.orgId, {
    name: '<img src=x onerror=alert(1)>',
    payout: { amount: '25.00', min_duration_seconds: 60 },
  });
  const b = await createBuyer(h, t.orgId, { payout: { amount: '7.35' } });
  await setRouting(h, t.orgId, t.code, {
    targets: [
      { buyer_id: a.buyer_id, priority: 1 },
      { buyer_id: b.buyer_id, priority: 2 },
    ],
  });
  return { t, a: a.buyer_id as string, b: b.buyer_id as string };
}

describe('traffic report by buyer', () => {
  it('counts answered, billable and revenue per buyer; unrouted and fallback calls under none', async () => {
    const { t, a, b } = await setup();
    await routed(t, '+12125550001', ['completed'], 90); // a, billable 25.00
    h.clock.advance(60);
    await routed(t, '+12125550002', ['completed'], 30); // a, too short: not billable
    h.clock.advance(60);
    await routed(t, '+12125550003', ['busy', 'completed'], 5); // b, billable 7.35
    h.clock.advance(60);
    await routed(t, '+12125550004', ['busy', 'busy'], 0); // fallback: no buyer
    const res = await traffic(t.orgId, 'bucket=none&group_by=buyer');
    expect(res.statusCode, res.body).toBe(200);
    const body = json(res);
    const by = new Map((body.rows as Row[]).map((r) => [r.buyer, r]));
    expect(by.get(a)).toMatchObject({
      calls: 2,
      calls_answered_by_buyer: 2,
      calls_billable: 1,
      revenue: '25.00',
    });
    expect(by.get(b)).toMatchObject({
      calls: 1,
      calls_answered_by_buyer: 1,
      calls_billable: 1,
      revenue: '7.35',
    });
    expect(by.get(null)).toMatchObject({
      calls: 1,
      calls_answered_by_buyer: 0,
      calls_billable: 0,
      revenue: '0.00',
    });
    expect(body.totals).toMatchObject({ calls: 4, calls_billable: 2, revenue: '32.35' });
    // Exact against the raw rows.
    const [raw] = await h.store.query<{ revenue: string; billable: string }>(
      `select coalesce(sum(payout) filter (where billable and disposition is distinct from 'rejected'), 0)::text as revenue,
              count(*) filter (where billable)::text as billable
         from calls where org_id = $1`,
      [t.orgId],
    );
    expect(raw).toEqual({ revenue: '32.35', billable: '2' });
    // The fold into the cells, then a rebuild from the raw rows, answer the same.
    await h.store.query('select report_compact(100000)', []);
    expect(json(await traffic(t.orgId, 'bucket=none&group_by=buyer'))).toEqual(body);
    await h.store.query('select report_rebuild($1)', [t.orgId]);
    expect(json(await traffic(t.orgId, 'bucket=none&group_by=buyer'))).toEqual(body);
  });

  it('a rejection takes a billable call out of revenue; a later success puts it back', async () => {
    const { t, a } = await setup();
    const callId = await routed(t, '+12125550011', ['completed'], 120);
    const revenueNow = async () => {
      const body = json(await traffic(t.orgId, 'bucket=day&group_by=buyer,campaign'));
      const row = (body.rows as Row[]).find((r) => r.buyer === a);
      return { row: row?.revenue, total: body.totals.revenue };
    };
    expect(await revenueNow()).toEqual({ row: '25.00', total: '25.00' });
    h.clock.advance(600);
    const rejected = await report(h, t.key, t.code, {
      call_id: callId,
      report_id: 'r1',
      disposition: 'rejected',
    });
    expect(rejected.statusCode, rejected.body).toBe(201);
    expect(await revenueNow()).toEqual({ row: '0.00', total: '0.00' });
    h.clock.advance(600);
    const success = await report(h, t.key, t.code, {
      call_id: callId,
      report_id: 'r2',
      disposition: 'success',
    });
    expect(success.statusCode, success.body).toBe(201);
    expect(await revenueNow()).toEqual({ row: '25.00', total: '25.00' });
    // Still billable throughout: revenue moved, the billable count did not.
    const body = json(await traffic(t.orgId, 'bucket=none'));
    expect(body.totals).toMatchObject({ calls_billable: 1, buyer_rejected: 0, buyer_success: 1 });
  });

  it('CSV carries the buyer key and the new columns; another organization sees none of it', async () => {
    const { t, a } = await setup();
    await routed(t, '+12125550021', ['completed'], 90);
    const csv = await traffic(t.orgId, 'bucket=none&group_by=buyer&format=csv');
    expect(csv.statusCode, csv.body).toBe(200);
    const [head, line] = csv.body.split('\r\n');
    const cols = head!.split(',');
    expect(cols[0]).toBe('buyer');
    const values = line!.split(',');
    const at = (c: string) => values[cols.indexOf(c)];
    expect(at('buyer')).toBe(a);
    expect(at('calls_answered_by_buyer')).toBe('1');
    expect(at('calls_billable')).toBe('1');
    expect(at('revenue')).toBe('25.00');

    const other = await createTenant(h);
    const body = json(await traffic(other.orgId, 'bucket=none&group_by=buyer'));
    expect(body.rows).toEqual([]);
    expect(body.totals).toMatchObject({ calls: 0, revenue: '0.00' });
  });

  it('a call moved to its buyer leaves no group behind: none is folded or ranked', async () => {
    const { t, a } = await setup();
    // Recorded with no buyer, each call moves to its buyer's row when the leg ends: the
    // cells with no buyer net to nothing, which is no group.
    await routed(t, '+12125550031', ['completed'], 90);
    h.clock.advance(60);
    await routed(t, '+12125550032', ['completed'], 90);
    h.clock.advance(60);
    await routed(t, '+12125550033', ['busy', 'completed'], 90);
    const body = json(await traffic(t.orgId, 'bucket=none&group_by=buyer&groups=1'));
    const rows = (body.rows as Row[]).map((r) => [r.buyer, r.other ?? false, r.calls]);
    expect(rows).toEqual([
      [a, false, 2],
      [null, true, 1],
    ]);
    expect([body.groups_listed, body.groups_folded]).toEqual([1, 1]);
    expect(body.rows.find((r: Row) => r.other).calls_answered_by_buyer).toBe(1);
  });

  it('a grouping that is not a key is a 422 naming group_by', async () => {
    const { t } = await setup();
    const res = await traffic(t.orgId, 'group_by=buyer,buyer_name');
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('group_by');
  });
});
