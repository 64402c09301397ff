/**
 * Billable calls and payouts, and keys bound to a buyer (contract §11, docs/routing.md), through
 * signed Twilio webhooks and the public API, on both stores.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { adminCall, createTenant, dni, json, type Tenant, useHarness } from '../helpers/harness.js';
import { auditRows, report } from '../helpers/reports.js';
import { admin, createBuyer, setRouting } from '../helpers/routing.js';
import { PUBLIC_BASE, TWILIO_TOKEN } from '../helpers/twilio-webhook.js';
import { dialEnded, ring } from '../helpers/voice.js';

const h = useHarness({ twilio: { authToken: TWILIO_TOKEN, publicBaseUrl: PUBLIC_BASE } });

afterEach(() => {
  h.clock.set('2026-03-02T15:00:00Z');
});

const PAYOUT = { amount: '25.00', min_duration_seconds: 90, duplicate_window_days: 30 };

/** A campaign routed to one buyer with PAYOUT (or `payout`). */
async function oneBuyer(payout: Record<string, unknown> = PAYOUT) {
  const t = await createTenant(h);
  const buyer = await createBuyer(h, t.orgId, { payout });
  await setRouting(h, t.orgId, t.code, { targets: [{ buyer_id: buyer.buyer_id, priority: 1 }] });
  return { t, buyer };
}

/** A call answered by the routed buyer whose leg lasted `seconds`; its admin view. */
async function answered(t: Tenant, seconds: number, from = '+12125550142') {
  const call = await ring(h, t.numbers[0]!, from);
  expect(await dialEnded(h, call, call.step, 'completed', seconds)).toEqual({ kind: 'hangup' });
  const [row] = await h.store.query<{ id: string }>(
    'select id from calls where carrier_call_sid = $1',
    [call.callSid],
  );
  return json(await admin(h, 'GET', `/admin/orgs/${t.orgId}/calls/${row!.id}`));
}

describe('billable and payout', () => {
  it('a leg at the minimum duration is billable at the amount; one second short is not', async () => {
    const { t, buyer } = await oneBuyer();
    expect(await answered(t, 90, '+12125550001')).toMatchObject({
      buyer_id: buyer.buyer_id,
      billable: true,
      payout: '25.00',
    });
    expect(await answered(t, 89, '+12125550002')).toMatchObject({
      buyer_id: buyer.buyer_id,
      billable: false,
      payout: '0.00',
    });
  });

  it('the same caller within the duplicate window is not billable again; after it, it is', async () => {
    const { t } = await oneBuyer();
    expect(await answered(t, 120)).toMatchObject({ billable: true, payout: '25.00' });
    h.clock.advance(29 * 86_400);
    expect(await answered(t, 120)).toMatchObject({ billable: false, payout: '0.00' });
    // 30 days and a second after the first billable call: outside the window.
    h.clock.advance(86_400 + 1);
    expect(await answered(t, 120)).toMatchObject({ billable: true, payout: '25.00' });
  });

  it('callers who withheld their number are never duplicates, of each other or of anyone', async () => {
    const { t } = await oneBuyer();
    // What Twilio sends for a withheld caller id: the word, or the word on a phone's keypad
    // (+266696687 is ANONYMOUS, +7378742833 RESTRICTED, +86282452253 UNAVAILABLE).
    for (const from of ['+266696687', '+266696687', 'anonymous', 'Anonymous', '+7378742833']) {
      expect(await answered(t, 120, from)).toMatchObject({ billable: true, payout: '25.00' });
      h.clock.advance(60);
    }
    // A caller with a number is still one caller.
    expect(await answered(t, 120, '+12125550199')).toMatchObject({ billable: true });
    h.clock.advance(60);
    expect(await answered(t, 120, '+12125550199')).toMatchObject({ billable: false });
  });

  it('a short call does not count as billable for the duplicate window', async () => {
    const { t } = await oneBuyer();
    expect(await answered(t, 10)).toMatchObject({ billable: false });
    h.clock.advance(60);
    expect(await answered(t, 100)).toMatchObject({ billable: true, payout: '25.00' });
  });

  it('the payout is fixed when the leg ends: a later change of the buyer leaves it', async () => {
    const { t, buyer } = await oneBuyer();
    const call = await answered(t, 100);
    await adminCall(h, 'PATCH', `/admin/orgs/${t.orgId}/buyers/${buyer.buyer_id}`, {
      payout: { amount: '99.00' },
    });
    const again = json(await admin(h, 'GET', `/admin/orgs/${t.orgId}/calls/${call.call_id}`));
    expect(again.payout).toBe('25.00');
  });

  it('a rejection, then a success: the call keeps its payout, the latest report decides revenue, both stay', async () => {
    const { t } = await oneBuyer();
    const call = await answered(t, 100);
    const rejected = await report(h, t.key, t.code, {
      call_id: call.call_id,
      report_id: 'r-1',
      disposition: 'rejected',
    });
    expect(rejected.statusCode).toBe(201);
    let view = json(await admin(h, 'GET', `/admin/orgs/${t.orgId}/calls/${call.call_id}`));
    expect(view).toMatchObject({ billable: true, payout: '25.00', disposition: 'rejected' });
    h.clock.advance(60);
    await report(h, t.key, t.code, {
      call_id: call.call_id,
      report_id: 'r-2',
      disposition: 'success',
    });
    view = json(await admin(h, 'GET', `/admin/orgs/${t.orgId}/calls/${call.call_id}`));
    expect(view).toMatchObject({ billable: true, payout: '25.00', disposition: 'success' });
    expect(view.buyer_reports.map((r: { disposition: string }) => r.disposition)).toEqual([
      'rejected',
      'success',
    ]);
    const created = await auditRows(h, t.orgId, 'buyer_report.created');
    expect(created).toHaveLength(2);
  });
});

describe('a key bound to a buyer', () => {
  async function setup() {
    const t = await createTenant(h);
    const mine = await createBuyer(h, t.orgId, { forward_to: '+13125550301' });
    const other = await createBuyer(h, t.orgId, { forward_to: '+13125550302' });
    await setRouting(h, t.orgId, t.code, {
      targets: [
        { buyer_id: mine.buyer_id, priority: 1 },
        { buyer_id: other.buyer_id, priority: 2 },
      ],
    });
    const key = await adminCall(h, 'POST', `/admin/orgs/${t.orgId}/keys`, {
      scopes: ['execute'],
      buyer_id: mine.buyer_id,
    });
    expect(key.buyer_id).toBe(mine.buyer_id);
    // Answered by `mine`.
    const own = await answered(t, 100, '+12125550011');
    // `mine` is busy, `other` answers.
    const call = await ring(h, t.numbers[0]!, '+12125550012');
    const next = await dialEnded(h, call, call.step, 'busy');
    await dialEnded(h, call, next, 'completed', 100);
    const [row] = await h.store.query<{ id: string; buyer_id: string }>(
      'select id, buyer_id from calls where carrier_call_sid = $1',
      [call.callSid],
    );
    expect(row!.buyer_id).toBe(other.buyer_id);
    return { t, key: key.api_key as string, own: own.call_id as string, others: row!.id };
  }

  it('reports on its own call: 201', async () => {
    const { t, key, own } = await setup();
    const res = await report(h, key, t.code, {
      call_id: own,
      report_id: 'b-1',
      disposition: 'success',
    });
    expect(res.statusCode).toBe(201);
  });

  it("another buyer's call, or a call no buyer answered, is 404 call_not_found", async () => {
    const { t, key, others } = await setup();
    const res = await report(h, key, t.code, {
      call_id: others,
      report_id: 'b-2',
      disposition: 'rejected',
    });
    expect(res.statusCode).toBe(404);
    expect(json(res)).toEqual({ detail: 'call_not_found' });
    const unrouted = await adminCall(h, 'POST', `/admin/orgs/${t.orgId}/calls`, {
      to: t.numbers[0],
      from: '+12125550013',
    });
    const res2 = await report(h, key, t.code, {
      call_id: unrouted.call_id,
      report_id: 'b-3',
      disposition: 'rejected',
    });
    expect(res2.statusCode).toBe(404);
    // The organization's own key still reports on that call.
    const ownKey = await report(h, t.key, t.code, {
      call_id: others,
      report_id: 'o-1',
      disposition: 'success',
    });
    expect(ownKey.statusCode).toBe(201);
  });

  it('anything else is 403 insufficient_scope: a DNI session, an outbound touch', async () => {
    const t = await createTenant(h);
    const buyer = await createBuyer(h, t.orgId);
    const key = await adminCall(h, 'POST', `/admin/orgs/${t.orgId}/keys`, {
      scopes: ['enroll', 'execute'],
      buyer_id: buyer.buyer_id,
    });
    const session = await dni(h, key.api_key, { campaign_code: t.code, visitor_id: 'v1' });
    expect(session.statusCode).toBe(403);
    expect(json(session)).toEqual({ detail: 'insufficient_scope' });
    const touch = await h.app.inject({
      method: 'POST',
      url: `/tracking/campaigns/${t.code}/outbound`,
      headers: { authorization: `Bearer ${key.api_key}`, 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(touch.statusCode).toBe(403);
    expect(json(touch)).toEqual({ detail: 'insufficient_scope' });
  });

  it('issuing: the buyer must be the organization’s, and the key needs execute', async () => {
    const a = await createTenant(h);
    const b = await createTenant(h);
    const buyer = await createBuyer(h, a.orgId);
    const foreign = await admin(h, 'POST', `/admin/orgs/${b.orgId}/keys`, {
      scopes: ['execute'],
      buyer_id: buyer.buyer_id,
    });
    expect(foreign.statusCode).toBe(422);
    expect(json(foreign).detail[0].loc).toEqual(['body', 'buyer_id']);
    const enrollOnly = await admin(h, 'POST', `/admin/orgs/${a.orgId}/keys`, {
      scopes: ['enroll'],
      buyer_id: buyer.buyer_id,
    });
    expect(enrollOnly.statusCode).toBe(422);
    expect(json(enrollOnly).detail[0].loc).toEqual(['body', 'scopes']);
  });
});
